#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Issue 32 (fail closed): ibsim drops MADs by attribute (its console's
# `Error "NODE"[PORT] RATE ATTR`); each fabric tool names exactly the parts
# it could not test (one not-tested finding each, the reason given), its
# end record counts them, it prints INCOMPLETE and exits 1; the same gap
# named with --accept-untested passes, listed. A partial drop rate gives
# a consistent account: every port either read or named.
# The matrix, on a 16-HCA tree (4 leaves of radix 8, 2 spines):
#   PortCounters (attr 18) dropped on two HCA ports, then on one switch;
#   LinearForwardingTable (attr 25) dropped on one spine;
#   PortInfo (attr 21) dropped on one HCA;
#   PortCounters dropped at rate 50 on an HCA port and a switch.
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
sim_require "${IBPROOF:?}" "${GEN_FATTREE:?}" jq
IBPROOF=$(realpath "$IBPROOF")
GEN_FATTREE=$(realpath "$GEN_FATTREE")
sim_setup

"$GEN_FATTREE" --radix 8 --leaves 4 --spines 2 --uplinks 4 \
	--hosts-per-leaf 4 --net net --spec spec.csv >/dev/null ||
	sim_fail "gen_fattree"
sim_start net
sim_opensm

# run NAME SUBCOMMAND ARGS...: records NAME.jsonl, text NAME.out, exit in rc
run() {
	local name=$1
	shift
	sim_client "$IBPROOF" fabric "$@" --timeout 1 --records "$name.jsonl" \
		>"$name.out" 2>"$name.err"
	rc=$?
	sim_client "$IBPROOF" fabric "$@" --timeout 1 >"$name.txt" 2>/dev/null
}
# gaps FILE: "part|name:port|reason" of each not-tested finding, sorted
gaps() {
	jq -r 'select(.kind == "finding" and .category == "not-tested")
		| "\(.evidence.part)|\(.subject.a.node // .subject.node):\(.subject.a.port // .subject.port)|\(.evidence.reason)"' \
		"$1" | sort
}
# scope FILE PART: "in_scope tested not_tested" of the end record
scope() {
	jq -r --arg p "$2" 'select(.kind == "run" and .event == "end")
		| .scope[$p] | "\(.in_scope) \(.tested) \(.not_tested)"' "$1"
}
# expect NAME RC WANT_GAPS...: the exit code, exactly these gaps, INCOMPLETE
expect() {
	local name=$1 want_rc=$2
	shift 2
	[ "$rc" = "$want_rc" ] || { cat "$name.err" >&2; sim_fail "$name: exit $rc, want $want_rc"; }
	printf '%s\n' "$@" | sed '/^$/d' | sort >"$name.want"
	gaps "$name.jsonl" >"$name.got"
	diff -u "$name.want" "$name.got" >&2 || sim_fail "$name: not-tested parts differ"
	if [ $# -gt 0 ]; then
		grep -q '^INCOMPLETE: ' "$name.txt" || sim_fail "$name: no INCOMPLETE line"
		jq -e 'select(.kind == "run" and .event == "end") | .outcome == "incomplete"' \
			"$name.jsonl" >/dev/null || sim_fail "$name: end record not incomplete"
	else
		grep -q 'INCOMPLETE' "$name.txt" && sim_fail "$name: INCOMPLETE with no gap"
	fi
	sim_log "ok: $name: exit $rc, $# not tested"
}

run clean-counters counters --since-clear
expect clean-counters 0
ports=$(scope clean-counters.jsonl ports)
set -- $ports
[ "$1" = "$2" ] && [ "$3" = 0 ] && [ "$1" -ge 64 ] || sim_fail "clean scope: $ports"
nports=$1
run clean-routes routes
expect clean-routes 0
[ "$(scope clean-routes.jsonl tables)" = "6 6 0" ] || sim_fail "routes scope: $(scope clean-routes.jsonl tables)"

# ibsim answers no vendor attribute: no module answers CableInfo (0xFF60),
# so every module of the walk is not tested (the whole read within
# --timeout), none passes
run cables cables
[ "$rc" = 1 ] || sim_fail "cables on ibsim: exit $rc, want 1"
links=$(jq -r 'select(.kind == "run" and .event == "end") | .scope.modules.not_tested' cables.jsonl)
[ "$links" = 64 ] && [ "$(gaps cables.jsonl | grep -c '^modules|.*|no-answer$')" = 64 ] ||
	sim_fail "cables: $links modules not tested, want the 64 ends of 32 cables"
grep -q '^INCOMPLETE: 64 of 64 modules not tested' cables.txt || sim_fail "cables: no INCOMPLETE"
sim_log "ok: cables: 64 modules not tested (ibsim has no CableInfo)"

# PortCounters (PMA attribute 0x12 = 18) dropped on two HCA ports
sim_cmd 'Error "node002-mlx5_0" 100 18'
sim_cmd 'Error "node007-mlx5_0" 100 18'
run pma-hca counters --since-clear
expect pma-hca 1 "ports|node002 mlx5_0:1|no-answer" "ports|node007 mlx5_0:1|no-answer"
[ "$(scope pma-hca.jsonl ports)" = "$nports $((nports - 2)) 2" ] ||
	sim_fail "pma-hca scope: $(scope pma-hca.jsonl ports)"
[ "$(jq -r 'select(.kind == "counters")' pma-hca.jsonl | grep -c '"kind"')" = $((nports - 2)) ] ||
	sim_fail "pma-hca: counters records are not the ports read"
line=$(grep 'not-tested *2 ports, PortCounters: no answer: ' pma-hca.txt)
case $line in *"node002 mlx5_0:1"*"node007 mlx5_0:1"* | *"node007 mlx5_0:1"*"node002 mlx5_0:1"*) ;;
*) sim_fail "pma-hca: the text does not group the two ports: $(cat pma-hca.txt)" ;;
esac
# the report over those records: INCOMPLETE (exit 1), its coverage block
# counts exactly what the tool's end record counted, by reason too
"$IBPROOF" report pma-hca.jsonl --json pma-hca.rep >pma-hca.rep.out 2>&1
rc=$?
[ "$rc" = 1 ] || sim_fail "report over pma-hca: exit $rc, want 1"
[ "$(jq -r '.verdict' pma-hca.rep)" = incomplete ] ||
	sim_fail "report over pma-hca: verdict $(jq -r '.verdict' pma-hca.rep)"
[ "$(jq -r '.coverage.scope[] | select(.tool == "fabric counters" and
	.part == "ports") | "\(.in_scope) \(.tested) \(.not_tested)"' pma-hca.rep)" = \
	"$nports $((nports - 2)) 2" ] ||
	sim_fail "report coverage: $(jq -c '.coverage' pma-hca.rep)"
[ "$(jq -r '.coverage.not_tested_by_reason.ports["no-answer"]' pma-hca.rep)" = 2 ] ||
	sim_fail "report coverage by reason: $(jq -c '.coverage' pma-hca.rep)"
sim_log "ok: pma-hca: the report is INCOMPLETE, its coverage block $nports / $((nports - 2)) / 2"
# the known gaps accepted by name: exit 0, said
run pma-accepted counters --since-clear --accept-untested 'node002 mlx5_0:1,node007 mlx5_0:1'
[ "$rc" = 0 ] || sim_fail "accepted gaps: exit $rc"
jq -e 'select(.kind == "run" and .event == "end") | .accepted_untested | length == 2' \
	pma-accepted.jsonl >/dev/null || sim_fail "accepted gaps not in the end record"
grep -q '(accepted)' pma-accepted.txt || sim_fail "accepted gaps not in the text"
sim_cmd 'Error "node002-mlx5_0" 0'
sim_cmd 'Error "node007-mlx5_0" 0'

# ... on a switch: all its ports
sim_cmd 'Error "leaf03" 100 18'
run pma-switch counters --since-clear
set --
for p in 1 2 3 4 5 6 7 8; do set -- "$@" "ports|leaf03:$p|no-answer"; done
expect pma-switch 1 "$@"
sim_cmd 'Error "leaf03" 0'

# LinearForwardingTable (SMP attribute 0x19 = 25) dropped on one spine
sim_cmd 'Error "spine02" 100 25'
run lft routes
expect lft 1 "tables|spine02:0|no-answer"
[ "$(jq -r 'select(.kind == "lft") | .node' lft.jsonl | sort | paste -sd' ')" = \
	"leaf01 leaf02 leaf03 leaf04 spine01" ] || sim_fail "lft: the tables read"
sim_cmd 'Error "spine02" 0'

# PortInfo (SMP attribute 0x15 = 21) dropped on one HCA: the walk sees the
# link but not its state, and the HCA's LID is unknown
sim_cmd 'Error "node005-mlx5_0" 100 21'
run pi-discover discover
expect pi-discover 1 "links|node005 mlx5_0:1|no-answer"
run pi-check check --spec spec.csv
expect pi-check 1 "links|node005 mlx5_0:1|no-answer"
run pi-counters counters --since-clear
expect pi-counters 1 "ports|node005 mlx5_0:1|no-answer"
sim_cmd 'Error "node005-mlx5_0" 0'

# A partial rate: whatever was dropped, every port is read or named, the
# counts add up, and the exit code follows the gaps.
sim_cmd 'Error "node010-mlx5_0" 50 18'
sim_cmd 'Error "leaf04" 50 18'
run partial counters --since-clear
gaps partial.jsonl >partial.got
n=$(wc -l <partial.got)
grep -v -e '^ports|node010 mlx5_0:1|no-answer$' -e '^ports|leaf04:[1-8]|no-answer$' partial.got &&
	sim_fail "partial: a gap outside the faulty ports"
read=$(jq -r 'select(.kind == "counters") | "\(.subject.node):\(.port)"' partial.jsonl | sort)
cut -d'|' -f2 partial.got | sort >partial.named
[ -z "$(printf '%s\n' "$read" | comm -12 - partial.named)" ] || sim_fail "partial: a port both read and named"
[ $(($(printf '%s\n' "$read" | grep -c .) + n)) = "$nports" ] ||
	sim_fail "partial: $(printf '%s\n' "$read" | grep -c .) read + $n named != $nports"
[ "$(scope partial.jsonl ports)" = "$nports $((nports - n)) $n" ] ||
	sim_fail "partial scope: $(scope partial.jsonl ports), $n named"
if [ "$n" -gt 0 ]; then want=1; else want=0; fi
[ "$rc" = "$want" ] || sim_fail "partial: $n gaps, exit $rc"
sim_log "ok: partial: $n of 9 dropped, each named, exit $rc"
sim_log "PASS"
