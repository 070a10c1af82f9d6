#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Acceptance 1 and 4 of issue 4: the 324-HCA fat tree with every fault at
# once. fabric check + fabric counters report each injected fault exactly
# once (category and both ends), nothing else; --load-cache gives the same
# findings as live; --topology too, except that topology text has no port
# states, so the disabled port and the silent node read as missing links.
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
. "$here/findings.sh"
sim_require jq
out=$(mktemp -d "${TMPDIR:-/tmp}/ibproof-faulty.XXXXXX")
trap '[ -n "${SIM_KEEP:-}" ] || rm -rf "$out"' EXIT
"$here/scenario-faulty.sh" "$out" || sim_fail "scenario-faulty.sh"

expect_exit check 1
expect_exit counters 1
expect_exit check-cache 1
expect_exit check-topology 1
cat "$out/check.jsonl" "$out/counters.jsonl" >"$out/live.jsonl"
canon_findings "$out/live.jsonl" >"$out/live.txt"
sort "$out/faults.txt" >"$out/want.txt"
expect_same "live check + counters" "$out/want.txt" "$out/live.txt"

canon_findings "$out/check.jsonl" >"$out/check.txt"
canon_findings "$out/check-cache.jsonl" >"$out/cache.txt"
expect_same "--load-cache vs live" "$out/check.txt" "$out/cache.txt"

sed -e 's/^port-disabled|/missing-link|/' -e 's/^not-tested|/missing-link|/' \
	"$out/check.txt" | sort >"$out/check-notopo.txt"
canon_findings "$out/check-topology.jsonl" >"$out/topo.txt"
expect_same "--topology vs live" "$out/check-notopo.txt" "$out/topo.txt"

# discover: one link record per cable seen, the silent node reported.
links=$(jq -r 'select(.kind == "link")' "$out/discover.jsonl" | grep -c '"kind"')
[ "$links" -gt 600 ] || sim_fail "discover wrote $links link records"
jq -r 'select(.kind == "finding") | .category' "$out/discover.jsonl" |
	sort | uniq -c | tr -s ' ' >"$out/discover.txt"
grep -qx ' 1 not-tested' "$out/discover.txt" ||
	sim_fail "discover findings: $(cat "$out/discover.txt")"
# Each finding names both ends with GUIDs where the node was seen.
n=$(jq -r 'select(.kind == "finding" and .category == "symbol-errors")
	| .subject.a.guid + " " + .subject.b.guid' "$out/counters.jsonl" |
	grep -c '0x0008f10')
[ "$n" = 2 ] || sim_fail "symbol-errors findings lack GUIDs"
sim_log "PASS"
