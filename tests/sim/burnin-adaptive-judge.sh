#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Issue 33: what adaptive routing does to the cable judge, on ibsim (opensm
# ftree) with the fabric-aware fake driving ibsim's counters (sim-console)
# and the load proof reading them through umad2sim. One slow up-link.
#   1. AR off (the routes as read, no ar=): cover, --prove-load: that
#      up-link is blamed by route, both ends, and nothing else; no
#      routes-not-followed finding; `ibproof report` blames the same.
#   2. AR on at every leaf (their lft records edited to say so, and the
#      fake's ar= spreading their flows over the equal-cost up-links):
#      cover --allow-adaptive --prove-load: the load proof writes a
#      routes-not-followed finding, pair records say "adaptive", no cable
#      is blamed by route, and the report over the same records says the
#      same (the same fail findings but its own common-cause groups, the
#      routes-not-followed one among its findings).
set -u
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=SCRIPTDIR/lib.sh
. "$here/lib.sh"
sim_require "${IBPROOF:?}" "${GEN_FATTREE:?}" jq
IBPROOF=$(realpath "$IBPROOF")
GEN_FATTREE=$(realpath "$GEN_FATTREE")
sim_setup
export IBPROOF_HOST=simhost

sim_tree ftree tree --radix 8 --leaves 4 --spines 4 --uplinks 4 --hosts-per-leaf 4
leaves=$(jq -r 'select(.kind == "lft") | .node' tree.jsonl | grep leaf |
	paste -sd, -)
[ -n "$leaves" ] || sim_fail "no leaf in the routes"
# the routes with AR on at the leaves, every SL (as a switch answering AR
# enabled would be recorded)
jq -c --arg l ",$leaves," 'if .kind == "lft" and
	(.node as $n | $l | contains(",\($n),")) then .adaptive_routing = "on" |
	.ar = {capable: true, enabled: true, sls: [range(16)],
	transports_excluded: []} else . end' tree.jsonl >ar.jsonl

"$IBPROOF" burnin --dry-run --transport fake --fake "routes=$PWD/tree.jsonl" \
	--routes tree.jsonl --schedule cover --coverage cover.cov \
	>cover.out 2>&1 || sim_fail "dry run: $(tail -3 cover.out)"
up=$(jq -r 'select(.kind == "coverage-cable" and .inter_switch and .up) |
	.cable' cover.cov | head -1)
[ -n "$up" ] || sim_fail "no up-link in the cover plan"

# run LABEL ROUTES FAKE [ARGS...]: burnin on cover with the up-link slow;
# LABEL.burnin and LABEL.report: the fail findings of each, as
# `[CATEGORY, ACTION, SUBJECT]` lines
run() {
	local label=$1 routes=$2 extra=$3 rc
	shift 3
	sim_client "$IBPROOF" burnin --transport fake --no-progress \
		--warmup 0.1 --duration 1 --retests 0 --timeout 60 \
		--fake "routes=$PWD/$routes;sim-console=$PWD/console;slow-cable=${up%%->*}@0.3$extra" \
		--routes "$routes" --prove-load --schedule cover "$@" \
		--records "$label.jsonl" >"$label.out" 2>&1
	rc=$?
	case $rc in 0 | 1) ;; *)
		tail "$label.out" >&2
		sim_fail "$label: burnin exit $rc"
		;;
	esac
	"$IBPROOF" report "$label.jsonl" --json "$label.rep" >"$label.rout" 2>&1
	[ $? = "$rc" ] || sim_fail "$label: report exit differs from burnin's $rc"
	parts 'select(.kind == "finding")' "$label.jsonl" >"$label.burnin"
	parts '.findings[]' "$label.rep" >"$label.report"
	cmp -s "$label.burnin" "$label.report" || {
		diff "$label.burnin" "$label.report" >&2
		sim_fail "$label: report and burnin blame different parts"
	}
}
# (the report's own common-cause groups are not the judge's blame: under AR
# the slow pairs of one round that no part explains are one)
parts() {
	jq -cS "$1 | select(.severity == \"fail\" and
		.category != \"cable-not-loaded\" and
		.category != \"common-cause\") |
		[.category, .action, (.subject | del(.host))]" "$2" | sort
}
# by_route LABEL: cable findings (blamed, or a candidate) in burnin's records
by_route() {
	jq -c 'select(.kind == "finding" and (.category == "bad-cable" or
		.category == "cable-or-port" or .category == "ambiguous-cables"))' \
		"$1.jsonl" | wc -l
}
not_followed() {
	jq -c "$1 | select(.category == \"routes-not-followed\")" "$2" | wc -l
}

run off tree.jsonl ""
from=${up%%->*} to=${up##*->}
n=$(jq -c --arg a "${from%%:*}" --argjson ap "${from##*:}" \
	--arg b "${to%%:*}" --argjson bp "${to##*:}" 'select(.[0] == "bad-cable"
	and .[2].a.node == $a and .[2].a.port == $ap and .[2].b.node == $b and
	.[2].b.port == $bp)' off.burnin | wc -l)
{ [ "$n" = 1 ] && [ "$(wc -l <off.burnin)" = 1 ]; } ||
	sim_fail "AR off: the slow up-link $up is not blamed alone: $(cat off.burnin)"
[ "$(not_followed 'select(.kind == "finding")' off.jsonl)" = 0 ] ||
	sim_fail "AR off: a routes-not-followed finding"
sim_log "ok: AR off: slow up-link $up blamed by route alone; report agrees"

run on ar.jsonl ";ar=$leaves" --allow-adaptive
nf=$(not_followed 'select(.kind == "finding")' on.jsonl)
[ "$nf" -ge 1 ] || sim_fail "AR on: no routes-not-followed finding: $(tail on.out)"
[ "$(not_followed '.findings[]' on.rep)" = "$nf" ] ||
	sim_fail "AR on: the report does not carry the $nf routes-not-followed finding(s)"
[ "$(jq -c 'select(.kind == "pair" and .adaptive)' on.jsonl | wc -l)" -ge 1 ] ||
	sim_fail "AR on: no pair record says adaptive"
[ "$(by_route on)" = 0 ] ||
	sim_fail "AR on: a cable blamed by route: $(cat on.burnin)"
[ "$(jq -c '.findings[] | select(.category == "bad-cable" or
	.category == "cable-or-port" or .category == "ambiguous-cables")' \
	on.rep | wc -l)" = 0 ] || sim_fail "AR on: the report blames a cable"
sim_log "ok: AR on at $leaves: $nf routes-not-followed, no cable blamed" \
	"by route ($(wc -l <on.burnin) fail findings); report agrees"
