#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# e2e_light: `ibproof node --light` on every generated sysfs tree (two runs
# each, the second with deltas since the first), its node_exporter textfile
# through Prometheus' `promtool check metrics`, the alert rules through
# `promtool check rules`, and the systemd service and timer through
# `systemd-analyze verify` (ExecStart pointed at this build's binary; the
# installed units are verified in the package test). Prints each run's
# time: the light check should take about a second on a real node, and
# milliseconds here (a figure, not an assertion; appended to $IBP_FIGURES).
# Usage: light-check.sh IBPROOF TREES_DIR... (the trees with an HCA in
# each DIR: BUILD/tests/fixtures/sysfs, BUILD/tests/fixtures/sysfs-node)
set -uo pipefail
work=$(mktemp -d) && trap 'rm -rf "$work"' EXIT
fail() { echo "light-check: $*" >&2; exit 1; }
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
ibproof=$(readlink -f "${1:?usage: light-check.sh IBPROOF TREES_DIR...}")
shift
[ $# -gt 0 ] || fail "usage: light-check.sh IBPROOF TREES_DIR..."

promtool=$("$repo/scripts/promtool-path") || exit 1
n=0 slowest=0
for tree in $(for d in "$@"; do ls -d "$d"/*/; done); do
	name=$(basename "$tree")
	[ -d "$tree/class/infiniband" ] || continue
	for run in 1 2; do
		start=$(date +%s%N)
		"$ibproof" node --light --sysfs-root "$tree" --state-dir "$work/state-$name" \
			--textfile "$work/$name.prom" --json "$work/$name.json" \
			>"$work/$name.out" 2>&1
		rc=$?
		ms=$((($(date +%s%N) - start) / 1000000))
		[ "$ms" -gt "$slowest" ] && slowest=$ms
		case $rc in 0 | 1) ;; *) cat "$work/$name.out" >&2; fail "$name run $run: exit $rc" ;; esac
		[ -s "$work/$name.prom" ] || fail "$name: no textfile"
		grep -qx "ibproof_light_exit_code $rc" "$work/$name.prom" ||
			fail "$name: the textfile's exit code is not $rc"
		jq -e --argjson rc "$rc" '.exit_code == $rc' "$work/$name.json" >/dev/null ||
			fail "$name: --json exit_code is not $rc"
		"$promtool" check metrics <"$work/$name.prom" >"$work/promtool.out" 2>&1 ||
			{ cat "$work/promtool.out" >&2; fail "$name: promtool check metrics"; }
		printf 'light-check: %-24s run %d: exit %d, %4d ms, %d metrics\n' \
			"$name" "$run" "$rc" "$ms" "$(grep -vc '^#' "$work/$name.prom")"
		n=$((n + 1))
	done
done
[ "$n" -ge 10 ] || fail "only $n runs: are the generated trees in $*?"

"$promtool" check rules "$repo/node/prometheus/ibproof-rules.yml" ||
	fail "promtool check rules"

mkdir -p "$work/units"
sed "s|^ExecStart=/usr/bin/ibproof |ExecStart=$ibproof |" \
	"$repo/node/systemd/ibproof-light.service" >"$work/units/ibproof-light.service"
cp "$repo/node/systemd/ibproof-light.timer" "$work/units/"
SYSTEMD_LOG_LEVEL=notice systemd-analyze verify --man=no \
	"$work/units/ibproof-light.service" "$work/units/ibproof-light.timer" \
	>"$work/verify.out" 2>&1
rc=$?
[ "$rc" = 0 ] && [ ! -s "$work/verify.out" ] ||
	{ cat "$work/verify.out" >&2; fail "systemd-analyze verify: exit $rc"; }
echo "light-check: $n runs on the generated trees, the slowest $slowest ms;" \
	"textfiles, rules and units pass promtool and systemd-analyze"
# the figure, shown after the run by scripts/run-tests
[ -z "${IBP_FIGURES:-}" ] ||
	echo "e2e_light: node --light on the generated trees, slowest run $slowest ms" >>"$IBP_FIGURES"
