#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Issue 32 for pcie: a GPU whose link (both ends) reports no current speed
# or width is never a silent pass. The generated clean tree with those
# attributes of one GPU's link removed (its maximums stay: with none at
# all it would not be a PCIe GPU, like a BMC's VGA): pcie says INCOMPLETE and exits 1, one not-tested
# finding (part links) names the GPU, the end record's scope counts it,
# and the report over those records is INCOMPLETE too; the clean tree
# itself still passes with every link in scope judged.
#   pcie-incomplete.sh IBPROOF GENERATED_SYSFS_DIR
set -u
ibproof=${1:?ibproof} trees=${2:?generated sysfs trees}
dir=$(mktemp -d) || exit 1
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

"$ibproof" pcie --sysfs-root "$trees/clean" --records "$dir/clean.jsonl" \
	>"$dir/clean.out" 2>&1
rc=$?
[ "$rc" = 0 ] || fail "clean tree: exit $rc: $(cat "$dir/clean.out")"
scope=$(jq -r 'select(.kind == "run" and .event == "end") |
	.scope.links | "\(.in_scope) \(.tested) \(.not_tested)"' "$dir/clean.jsonl")
case "$scope" in
0\ *) fail "clean tree: no link in scope ($scope)" ;;
*\ 0) ;;
*) fail "clean tree: links not judged: $scope" ;;
esac

cp -a "$trees/clean" "$dir/tree"
gpu=$(grep -l '^0x0302' "$dir"/tree/devices/*/*/*/*/*/class | head -1)
[ -n "$gpu" ] || fail "no GPU in the clean tree"
gpu=$(dirname "$gpu")
up=$(dirname "$gpu")
bdf=$(basename "$gpu")
for d in "$gpu" "$up"; do
	rm -f "$d"/current_link_speed "$d"/current_link_width
done
"$ibproof" pcie --sysfs-root "$dir/tree" --records "$dir/gap.jsonl" \
	>"$dir/gap.out" 2>&1
rc=$?
[ "$rc" = 1 ] || fail "a link not judged: exit $rc, want 1"
grep -q "^INCOMPLETE: 1 of [0-9]* links not judged" "$dir/gap.out" ||
	fail "no INCOMPLETE line: $(cat "$dir/gap.out")"
n=$(jq -r --arg b "$bdf" 'select(.kind == "finding" and
	.category == "not-tested" and .evidence.part == "links" and
	.subject.bdf == $b) | .message' "$dir/gap.jsonl" | wc -l)
[ "$n" = 1 ] || fail "$n not-tested findings for $bdf, want 1"
jq -e 'select(.kind == "run" and .event == "end") |
	.scope.links.not_tested == 1 and .outcome == "incomplete"' \
	"$dir/gap.jsonl" >/dev/null || fail "the end record does not count the gap"
"$ibproof" report "$dir/gap.jsonl" >"$dir/report.out" 2>&1
rc=$?
[ "$rc" = 1 ] || fail "report over the gap: exit $rc, want 1"
grep -q "INCOMPLETE" "$dir/report.out" ||
	fail "the report does not say INCOMPLETE: $(head -5 "$dir/report.out")"
echo "ok: the clean tree judges every link ($scope); $bdf's link not judged: INCOMPLETE, exit 1, report too"
