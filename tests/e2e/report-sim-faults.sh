#!/usr/bin/env bash
# The report of the sim tier's fault run names exactly the injected faults:
# tests/sim/scenario-faulty.sh injects them into a simulated 324-HCA fat
# tree (ibsim) and writes faults.txt; `ibproof report` on its discover,
# check and counters records must list one disable entry per faulty cable
# (a swapped pair is one swap-cables entry) and nothing else. Faults whose
# action is `none` (a port someone disabled, an extra cable) are findings,
# not entries, and must appear as findings (scripts/demo-verify). The
# report's per-cable view shows the window, bits, errors and BER of the
# cables with errors (tests/e2e/check-cable-ber).
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
	--json "$work/report.json" --html "$work/report.html" >"$work/report.txt"
rc=$?
[ $rc -eq 1 ] || { echo "report exit $rc, expected 1" >&2; exit 1; }

"$here/../../scripts/demo-verify" "$work/report.json" "$work/faults.txt" \
	"$work/xcvr-faults.txt" || { cat "$work/report.txt" >&2; exit 1; }
# Transceivers (make-db-csv): vendor, part number and serial at both ends
# where the db_csv has a row, the reason where it has none.
"$here/check-xcvr-ends" "$work" || exit 1
# The per-cable view (issue 35): the window, bits, errors and BER of the two
# cables whose counters the scenario set, the figures of the run's records.
"$here/check-cable-ber" "$work" "$work/counters.jsonl" || exit 1
