#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Issue 31 in the sim tier: three-level fat trees (gen_fattree --levels 3:
# pods of leaves and aggregation switches under cores) in ibsim, routed by
# opensm with the engine given as $1 (ftree must report rank 3), the
# routes from `fabric routes`, burnin with the fake on them.
#   1. On each tree (radix 4: 4 pods, 16 HCAs; radix 6: 4 pods, 36 HCAs),
#      `cover` loads every reachable switch-to-switch cable with 0
#      contended, and every cable its flows cross is identifiable in the
#      certificate, or the certificate names the cables sharing its
#      evidence and why. The radix-4 tree with 3 hosts unplugged (3 leaves
#      left with one host): the same, every cable not identifiable named
#      with the routing as why (every flow over it tried; never a pair
#      the plan could have had), node001's host link among them.
#   2. On the radix-4 tree, the cover plan run with a fault planted on one
#      cable of each tier and direction (HCA->leaf, leaf->HCA, leaf->agg,
#      agg->leaf, agg->core, core->agg; slow x0.4, one of them erroring)
#      and on one HCA (slow): burnin's fail findings name exactly that part,
#      or are one ambiguity finding (action `locate`) that includes it, and
#      `ibproof report` over the same records gives the same findings.
set -u
engine=${1:?engine}
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=SCRIPTDIR/lib.sh
. "$here/lib.sh"
sim_require "${IBPROOF:?}" "${GEN_FATTREE:?}" jq
IBPROOF=$(realpath "$IBPROOF")
GEN_FATTREE=$(realpath "$GEN_FATTREE")
sim_setup
export IBPROOF_HOST=simhost

# tree NAME GEN_ARGS...: the tree in ibsim, routed; NAME.jsonl its routes
tree() {
	local name=$1
	shift
	sim_tree "$engine" "$name" --levels 3 "$@"
	if [ "$engine" = ftree ]; then
		grep -q 'FatTree rank (roots to leaf switches): 3$' osm/osm.log ||
			sim_fail "$name: opensm ftree does not report rank 3"
	fi
}

# cover NAME [MISSING]: the cover plan and its certificate, checked; with
# MISSING (hosts unplugged, so not in the routes) cables may be not
# identifiable where the certificate says the routing is why, having
# tried every flow over them
cover() {
	local n u bad
	"$IBPROOF" burnin --dry-run --transport fake --fake "routes=$1.jsonl" \
		--routes "$1.jsonl" --schedule cover --plan "$1.plan" \
		--coverage "$1.cov" >"$1.dry" 2>&1 ||
		sim_fail "$1: dry run: $(tail -3 "$1.dry")"
	head_of() { jq -r "select(.kind == \"coverage\") | .$2" "$1.cov"; }
	[ "$(head_of "$1" contended_cables)" = 0 ] ||
		sim_fail "$1: cover has contended cables"
	n=$(head_of "$1" inter_switch) u=$(head_of "$1" unreachable)
	[ "$(head_of "$1" loaded)" = $((n - u)) ] ||
		sim_fail "$1: cover loads $(head_of "$1" loaded) of $((n - u)) reachable cables"
	# every cable with flows: identifiable, or its evidence sharers and
	# a reason named
	bad=$(jq -r 'select(.kind == "coverage-cable" and
		(.rounds | length) > 0 and (.identifiable | not) and
		((.shares_evidence_with | length) == 0 or
		 (.why_not_identifiable.reason // "") == "")) | .cable' "$1.cov")
	[ -z "$bad" ] || sim_fail "$1: not identifiable and no reason: $bad"
	if [ -n "${2:-}" ]; then
		bad=$(jq -r 'select(.kind == "coverage-cable" and
			(.rounds | length) > 0 and (.identifiable | not) and
			.why_not_identifiable.reason != "routing") | .cable' \
			"$1.cov")
		[ -z "$bad" ] || sim_fail "$1: not identifiable, the plan could: $bad"
		# the lone host's host link and the down-link into it: routing
		[ "$(jq -c 'select(.kind == "coverage-cable" and
			.cable == "leaf01:1->node001 mlx5_0:1" and
			.why_not_identifiable.reason == "routing" and
			(.shares_evidence_with | length) == 1)' "$1.cov" |
			wc -l)" = 1 ] ||
			sim_fail "$1: node001's host link not named as routing"
	elif [ "$(head_of "$1" not_identifiable)" != 0 ]; then
		grep '^  not identifiable' "$1.dry" >&2
		sim_fail "$1: $(head_of "$1" not_identifiable) cables not identifiable"
	fi
	grep -q "^identifiable: $(head_of "$1" identifiable) of $(head_of "$1" cables_with_flows) cables with flows" "$1.dry" ||
		sim_fail "$1: --dry-run does not print the identifiable count"
	sim_log "ok: $engine: $1: cover $(head_of "$1" rounds) rounds," \
		"$((n - u)) switch cables loaded, 0 contended," \
		"$(head_of "$1" identifiable) of $(head_of "$1" cables_with_flows) cables identifiable"
}

tree t4 --radix 4 --pods 4 --leaves 2 --aggs-per-pod 2 --cores 4 --hosts-per-leaf 2
cover t4
tree t6 --radix 6 --pods 4 --leaves 3 --aggs-per-pod 3 --cores 9 --hosts-per-leaf 3
cover t6
# hosts unplugged before routing: node001, node008 and node011 left alone
# on their leaves; the down-link into a lone host and its host link carry
# the same flows whatever the plan (ftree: through one aggregation switch)
tree_missing() {
	"$GEN_FATTREE" --levels 3 --radix 4 --pods 4 --leaves 2 --aggs-per-pod 2 \
		--cores 4 --hosts-per-leaf 2 --net tm.net --spec tm.csv >/dev/null ||
		sim_fail "gen_fattree"
	sim_stop
	rm -f ibsim.log
	sim_start "$PWD/tm.net"
	for h in node002-mlx5_0 node007-mlx5_0 node012-mlx5_0; do
		sim_cmd "Unlink \"$h\""
	done
	sim_routes "$engine" tm
}
tree_missing
cover tm missing

# The faults, on the radix-4 tree.
tree t4 --radix 4 --pods 4 --leaves 2 --aggs-per-pod 2 --cores 4 --hosts-per-leaf 2
fake="routes=$PWD/t4.jsonl;sim-console=$PWD/console"

# parts FILTER FILE: each fail finding's category, action and subject
parts() {
	jq -cS "$1 | select(.severity == \"fail\" and
		.category != \"cable-not-loaded\") |
		[.category, .action, (.subject | del(.host))]" "$2" | sort
}
# run LABEL FAULT: burnin on the cover plan with FAULT; LABEL.burnin and
# LABEL.report its findings and the report's, which must be the same
run() {
	local rc
	sim_client "$IBPROOF" burnin --transport fake --no-progress \
		--warmup 0.1 --duration 1 --retests 0 --timeout 60 \
		--fake "$fake;$2" --routes t4.jsonl --prove-load \
		--schedule pairs:t4.plan --records "$1.jsonl" >"$1.out" 2>&1
	rc=$?
	[ "$rc" = 1 ] || { tail "$1.out" >&2; sim_fail "$1: burnin exit $rc, want 1"; }
	"$IBPROOF" report "$1.jsonl" --json "$1.rep" >"$1.rout" 2>&1
	rc=$?
	[ "$rc" = 1 ] || sim_fail "$1: report exit $rc, want 1"
	parts 'select(.kind == "finding")' "$1.jsonl" >"$1.burnin"
	parts '.findings[]' "$1.rep" >"$1.report"
	cmp -s "$1.burnin" "$1.report" || {
		diff "$1.burnin" "$1.report" >&2
		sim_fail "$1: report and burnin findings differ"
	}
}
# cable_of JQ: the certificate's first cable with flows fitting JQ, as
# "A_NODE A_PORT B_NODE B_PORT A_REF" (A_REF: how the fake names its
# egress end, a node GUID for a CA)
cable_of() {
	jq -r "select(.kind == \"coverage-cable\" and (.rounds | length) > 0
		and ($1)) | [.subject.a.node, .subject.a.port,
		.subject.b.node, .subject.b.port,
		(if .subject.a.type == \"ca\" then .subject.a.guid
		 else .subject.a.node end)] | @tsv" t4.cov | head -1
}
# blamed LABEL A AP B BP [REV]: burnin's findings are exactly that cable
# (with REV, an erroring cable whose counters are read at both ends, also
# its other direction), or one `locate` finding that names both its ends
blamed() {
	local f=$1.burnin n
	# shellcheck disable=SC2016 # jq's variables
	n=$(jq -c --arg a "$2" --argjson ap "$3" --arg b "$4" --argjson bp "$5" \
		--arg rev "${6:-}" 'select((.[2].a.node == $a and
		.[2].a.port == $ap and .[2].b.node == $b and
		.[2].b.port == $bp) or ($rev != "" and .[2].a.node == $b and
		.[2].a.port == $bp and .[2].b.node == $a and
		.[2].b.port == $ap))' "$f" | wc -l)
	if [ "$n" -ge 1 ] && [ "$(wc -l <"$f")" = "$n" ] &&
		[ "$(jq -c --arg a "$2" --argjson ap "$3" 'select(.[2].a.node ==
		$a and .[2].a.port == $ap)' "$f" | wc -l)" = 1 ]; then
		echo exact
	elif [ "$(wc -l <"$f")" = 1 ] && jq -e --arg a "$2" --argjson ap "$3" \
		--arg b "$4" --argjson bp "$5" '.[1] == "locate" and
		([.. | objects | select(.node? == $a and .port? == $ap)] |
		 length > 0) and
		([.. | objects | select(.node? == $b and .port? == $bp)] |
		 length > 0)' "$f" >/dev/null; then
		echo ambiguous
	fi
}

# hca_blamed LABEL NODE PORT: for a host link (NODE PORT its CA end), the
# one finding is that HCA port's disable-port: the port and its host link
# are one part to the judge (docs/judging.md "Host links"), no flow tells
# a host link from the HCA's side of it; the finding says to check both
hca_blamed() {
	local guid
	guid=$(jq -r --arg n "$2" --argjson p "$3" 'select(.kind == "link") |
		.a, .b | select(.type == "ca" and .node == $n and
		.port == $p) | .port_guid' t4.jsonl | head -1)
	[ -n "$guid" ] || sim_fail "no CA port $2:$3 in the routes"
	if [ "$(wc -l <"$1.burnin")" = 1 ] &&
		jq -e --arg g "$guid" --argjson p "$3" '.[1] == "disable-port" and
			.[2].guid == $g and .[2].port == $p' "$1.burnin" \
			>/dev/null &&
		grep -q 'check its cable' "$1.out"; then
		echo "as its HCA port (the port and its host link)"
	fi
}

tiers='HCA->leaf:.subject.a.type == "ca"
leaf->HCA:.subject.b.type == "ca"
leaf->agg:(.subject.a.node | startswith("leaf")) and (.subject.b.node | startswith("agg"))
agg->leaf:(.subject.a.node | startswith("agg")) and (.subject.b.node | startswith("leaf"))
agg->core:(.subject.a.node | startswith("agg")) and (.subject.b.node | startswith("core"))
core->agg:(.subject.a.node | startswith("core"))'
failed=
while IFS=: read -r tier q; do
	IFS=$'\t' read -r a ap b bp ref <<<"$(cable_of "$q")"
	[ -n "$ref" ] || sim_fail "no $tier cable with flows in the certificate"
	fault="slow-cable=$ref:$ap@0.4" rev=
	[ "$tier" = agg-\>core ] && fault="errors-cable=$ref:$ap@3" rev=1
	label=$(tr -c 'a-zA-Z\n' - <<<"$tier")
	run "$label" "$fault"
	how=$(blamed "$label" "$a" "$ap" "$b" "$bp" "$rev")
	case $tier in
	HCA-\>leaf) [ -n "$how" ] || how=$(hca_blamed "$label" "$a" "$ap") ;;
	leaf-\>HCA) [ -n "$how" ] || how=$(hca_blamed "$label" "$b" "$bp") ;;
	esac
	if [ -z "$how" ]; then
		cat "$label.burnin" >&2
		sim_log "$tier $a:$ap->$b:$bp ($fault): not blamed exactly, nor one locate finding naming it"
		failed="$failed $tier"
		continue
	fi
	sim_log "ok: $engine: $tier $a:$ap->$b:$bp ($fault): blamed $how; report agrees"
done <<<"$tiers"

# the fake names its ports as the routes do (issue 32): HOST:CA:PORT
hca=node011:mlx5_0:1
hca_guid=$(jq -r --arg n "$hca" 'select(.kind == "link") | .a, .b |
	select(.type == "ca" and "\(.host):\(.ca):\(.port)" == $n) |
	.port_guid' t4.jsonl | head -1)
[ -n "$hca_guid" ] || sim_fail "no CA port $hca in the routes"
run slow-hca "slow=$hca@0.3"
if [ "$(wc -l <slow-hca.burnin)" != 1 ] ||
	! jq -e --arg g "$hca_guid" '.[2].ca == "mlx5_0" and
		.[2].guid == $g and .[2].port == 1' \
		slow-hca.burnin >/dev/null; then
	cat slow-hca.burnin >&2
	sim_fail "slow HCA $hca: not blamed alone"
fi
sim_log "ok: $engine: slow HCA $hca blamed alone; report agrees"
sim_stop
[ -z "$failed" ] || sim_fail "faults not blamed:$failed"
sim_log "PASS: $engine"
