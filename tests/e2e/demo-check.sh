#!/usr/bin/env bash
# make demo's acceptance: scripts/demo runs the whole suite on the shipped
# simulated cluster, and its disable list names exactly the injected faults:
# the cables of the ibsim scenario (tests/sim/scenario-faulty.sh) and the
# lossy Soft-RoCE port (node2 rail 1 = rxe1). Usage: demo-check.sh BUILD
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${1:?usage: demo-check.sh BUILD}
command -v jq >/dev/null || { echo "demo-check: jq missing" >&2; exit 77; }
out=$build/demo-check
IBPROOF_DEMO_OUT=$out "$here/../../scripts/demo" "$build"
rc=$?
[ "$rc" -eq 1 ] || { echo "demo-check: demo exit $rc, expected 1 (faults found)" >&2; exit 1; }
{
	cat "$out/fabric/faults.txt" "$out/fabric/xcvr-faults.txt" |
		"$here/expected-disable" /dev/stdin
	echo "node2 rxe1:1"
} | sort >"$out/want"
"$here/disable-entries" "$out/report.json" >"$out/got"
if ! diff -u "$out/want" "$out/got"; then
	echo "demo-check: the disable list differs from the injected faults" >&2
	exit 1
fi
"$here/check-xcvr-ends" "$out" || exit 1
echo "demo-check: the disable list is exactly the $(wc -l <"$out/want") injected faults"
