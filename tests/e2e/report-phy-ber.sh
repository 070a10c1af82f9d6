#!/usr/bin/env bash
# Issue 35: the BER before FEC from real mlxlink captures reaches the
# report's per-cable view, joined to the right cable, in text, JSON and
# HTML. `fabric discover` and `fabric cables` read the small topology
# fixture (no fabric needed); leaf01 port 3 gets the real `mlxlink -c` text
# of a 400G link, spine01 port 2 the real `mlxlink -c --json` capture
# (tests/fixtures/README.md cites both), and a copy of the text with its
# raw BER at 3E-4 and `Speed : IB-NDR` is past what RS(544,514) corrects:
# a ber-raw fail, replace-cable, in the report with its figure.
set -uo pipefail
ibproof=${1:?usage: report-phy-ber.sh IBPROOF SOURCE_DIR}
src=${2:?usage: report-phy-ber.sh IBPROOF SOURCE_DIR}
topo=$src/tests/fixtures/fabric/small.topo
phy=$src/tests/fixtures/phy
work=$(mktemp -d /tmp/ibproof-e2e-phy.XXXXXX)
trap 'rm -rf "$work"' EXIT
failures=0
fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }
command -v jq >/dev/null || { echo "report-phy-ber: jq not installed" >&2; exit 77; }
cd "$work" || exit 1

"$ibproof" fabric discover --topology "$topo" --records d.jsonl >/dev/null ||
	fail "fabric discover --topology: exit $?"
"$ibproof" fabric cables --topology "$topo" \
	--from-mlxlink "leaf01:3=$phy/mlxlink-c-400g.txt" \
	--from-mlxlink "spine01:2=$phy/mlxlink-json-400g-dr4.json" \
	--records c.jsonl >cables.out 2>&1
rc=$?
[ "$rc" = 0 ] || fail "fabric cables: exit $rc (warnings only expected): $(tail -3 cables.out)"
"$ibproof" report d.jsonl c.jsonl --json r.json --html r.html >r.txt 2>r.err
rc=$?
[ "$rc" = 0 ] || fail "report: exit $rc, expected 0 (warnings only)"

# text: each figure under its own cable, the far end said not read
want_text() { grep -qF -- "$1" r.txt || fail "report text lacks: $1"; }
want_text "leaf01 port 3 <-> spine01 port 1"
want_text "leaf01 port 3: BER before FEC (mlxlink, speed not said, over 348349.5 min): raw 2e-09, effective 1.5e-254"
want_text "spine01 port 1: BER before FEC: not read"
want_text "leaf02 port 3 <-> spine01 port 2"
want_text "spine01 port 2: BER before FEC (mlxlink, speed not said, over 2718.1 min): raw 5e-10, effective 1.5e-254"
# JSON: the same figures, on the same ends
got=$(jq -c '[.cables[] | select(.a.location == "leaf01 port 3") |
	.a_ber_before_fec.raw, (.b_ber_before_fec == null)]' r.json)
[ "$got" = '[2e-09,true]' ] || fail "report JSON, leaf01 port 3: $got"
got=$(jq -c '[.cables[] | select(.b.location == "spine01 port 2") |
	.b_ber_before_fec.raw, .b_ber_before_fec.minutes]' r.json)
[ "$got" = '[5e-10,2718.1]' ] || fail "report JSON, spine01 port 2: $got"
grep -qF "raw 5e-10" r.html || fail "report HTML lacks spine01 port 2's raw BER"

# near the cliff: NDR, raw 3E-4 (over 2.4e-4): fail, replace-cable
sed -e 's/2E-9/3E-4/' "$phy/mlxlink-c-400g.txt" >hot.txt
printf 'Speed                              : IB-NDR\n' >>hot.txt
"$ibproof" fabric cables --topology "$topo" --from-mlxlink "leaf01:3=hot.txt" \
	--records hot.jsonl >hot.out 2>&1
rc=$?
[ "$rc" = 1 ] || fail "fabric cables, raw 3E-4 at NDR: exit $rc, expected 1"
"$ibproof" report d.jsonl hot.jsonl >hot.txt.out 2>&1
rc=$?
[ "$rc" = 1 ] || fail "report, raw 3E-4 at NDR: exit $rc, expected 1"
grep -qF '[ber-raw] leaf01 port 3: raw BER 0.0003 before FEC, over 0.00024 (' hot.txt.out ||
	fail "report: no ber-raw fail for leaf01 port 3: $(grep ber-raw hot.txt.out)"
grep -qF "leaf01 port 3: BER before FEC (mlxlink, NDR" hot.txt.out ||
	fail "report: the per-cable view does not say NDR for the hot copy"
got=$(jq -r 'select(.kind == "finding" and .category == "ber-raw") | .severity + " " + .action' hot.jsonl)
[ "$got" = "fail replace-cable" ] || fail "ber-raw at 3E-4, NDR: '$got', expected fail replace-cable"

[ "$failures" = 0 ] || exit 1
echo "report-phy-ber: mlxlink text and JSON figures in the per-cable view; raw 3E-4 at NDR fails"
