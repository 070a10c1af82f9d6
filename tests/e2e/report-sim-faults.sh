#!/usr/bin/env bash
# The report of the sim tier's fault run names exactly the injected faults:
# tests/sim/scenario-faulty.sh injects them into a simulated 324-HCA fat
# tree (ibsim) and writes faults.txt; `ibproof report` on its discover,
# check and counters records must list one disable entry per faulty cable
# (both cables of a swapped pair) and nothing else. Faults whose action is
# `none` (a port someone disabled, an extra cable) are findings, not
# entries, and must appear as findings.
# Environment: IBPROOF, GEN_FATTREE (as for the sim tier).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
command -v jq >/dev/null || { echo "report-sim-faults: jq missing" >&2; exit 77; }
work=$(mktemp -d /tmp/ibproof-e2e-simfaults.XXXXXX)
trap 'rm -rf "$work"' EXIT
"$here/../sim/scenario-faulty.sh" "$work" >"$work/scenario.log" 2>&1
rc=$?
if [ $rc -ne 0 ]; then
	tail -20 "$work/scenario.log" >&2
	exit $rc # 77 when ibsim or opensm is missing
fi
"$IBPROOF" report "$work/discover.jsonl" "$work/check.jsonl" \
	"$work/counters.jsonl" "$work/cables.jsonl" \
	--node-name-map "$work/node-name-map" \
	--json "$work/report.json" >"$work/report.txt"
rc=$?
[ $rc -eq 1 ] || { echo "report exit $rc, expected 1" >&2; exit 1; }

"$here/disable-entries" "$work/report.json" >"$work/got"
cat "$work/faults.txt" "$work/xcvr-faults.txt" >"$work/all-faults.txt"
"$here/expected-disable" "$work/all-faults.txt" >"$work/want" 3>"$work/findings-only"
if ! diff -u "$work/want" "$work/got"; then
	echo "report-sim-faults: the disable list differs from the injected faults" >&2
	cat "$work/report.txt" >&2
	exit 1
fi
while read -r cat; do
	jq -e --arg c "$cat" '[.findings[] | select(.category == $c)] | length == 1' \
		"$work/report.json" >/dev/null ||
		{ echo "report-sim-faults: no single finding $cat" >&2; exit 1; }
done <"$work/findings-only"
# Transceivers (make-db-csv): vendor, part number and serial at both ends
# where the db_csv has a row, the reason where it has none.
"$here/check-xcvr-ends" "$work" || exit 1
echo "report-sim-faults: $(wc -l <"$work/want") faulty cables, exactly the disable list"
