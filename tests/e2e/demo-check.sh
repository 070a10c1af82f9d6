#!/usr/bin/env bash
# make demo's acceptance: scripts/demo runs the whole suite on the shipped
# simulated cluster and exits 0 only when its report names exactly the
# injected faults (scripts/demo-verify: the cables of the ibsim scenario,
# tests/sim/scenario-faulty.sh, and the lossy Soft-RoCE port, node2 rail 1
# = rxe1), saying so on its last line. Usage: demo-check.sh BUILD
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${1:?usage: demo-check.sh BUILD}
command -v jq >/dev/null || { echo "demo-check: jq missing" >&2; exit 77; }
out=$build/demo-check
IBPROOF_DEMO_OUT=$out "$here/../../scripts/demo" "$build" | tee "$out.log"
rc=${PIPESTATUS[0]}
[ "$rc" -eq 0 ] || { echo "demo-check: demo exit $rc, expected 0 (exactly the injected faults found)" >&2; exit 1; }
n=$(cat "$out/fabric/faults.txt" "$out/fabric/xcvr-faults.txt" "$out/vm-faults.txt" | wc -l)
last=$(tail -n 1 "$out.log")
want="demo: the report found all $n injected faults and nothing else"
[ "$last" = "$want" ] || { echo "demo-check: last line '$last', expected '$want'" >&2; exit 1; }
# The report's own verdict is unchanged: the faults are faults to it.
jq -e '.verdict == "fail"' "$out/report.json" >/dev/null ||
	{ echo "demo-check: the report's verdict is not FAIL" >&2; exit 1; }
"$here/check-xcvr-ends" "$out" || exit 1
# its faulty links' window, bits, errors and BER in the per-cable view
"$here/check-cable-ber" "$out" "$out/fabric/counters.jsonl" || exit 1
echo "demo-check: demo exit 0, its last line: $last"
