#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# bench/fuzz/bench-fuzz.sh [BUILD] [SECONDS] [JOBS]: runs every libFuzzer
# target of BUILD/fuzz (cmake -DIBPROOF_FUZZ=ON) for SECONDS (default 600)
# with JOBS workers (default: the CPU count), over a scratch copy of its
# committed seeds, and prints per target: executions, exec/s, coverage
# (edges, features), corpus size, crashes, timeouts, oracle failures.
# Exit 1 when any target crashed, timed out or failed its oracle.
#
#   bench/fuzz/bench-fuzz.sh build 600 2      # the README's figures
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$root/build}
secs=${2:-600}
jobs=${3:-$(nproc)}
bin=$build/fuzz/tests/fuzz
ls "$bin"/fuzz_* >/dev/null 2>&1 ||
	{ echo "bench-fuzz: no targets in $bin (cmake -DIBPROOF_FUZZ=ON)"; exit 2; }
work=$(mktemp -d "${TMPDIR:-/tmp}/ibproof-bench-fuzz.XXXXXX")
trap 'rm -rf "$work"' EXIT
bad=0
printf '%-12s %12s %8s %6s %7s %7s %7s %8s %6s\n' target executions exec/s \
	edges feats corpus crashes timeouts oracle
for t in "$bin"/fuzz_*; do
	name=${t##*/fuzz_}
	mkdir -p "$work/$name/corpus" "$work/$name/art"
	cp "$root/tests/fuzz/corpus/$name"/* "$work/$name/corpus/" 2>/dev/null
	# -fork keeps going past a crash, so crashes and timeouts are counted
	"$t" -fork="$jobs" -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1 \
		-max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 \
		-max_len=4096 -artifact_prefix="$work/$name/art/" \
		"$work/$name/corpus" >"$work/$name/log" 2>&1
	last=$(grep -E '^#[0-9]+: cov: ' "$work/$name/log" | tail -1)
	# "#11364: cov: 86 ft: 86 corp: 3 exec/s 5682 oom/timeout/crash: 0/0/0"
	execs=$(sed -n 's/^#\([0-9]*\):.*/\1/p' <<<"$last")
	cov=$(sed -n 's/.*cov: \([0-9]*\).*/\1/p' <<<"$last")
	ft=$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<<"$last")
	corp=$(sed -n 's/.* corp: \([0-9]*\).*/\1/p' <<<"$last")
	eps=$(sed -n 's/.* exec\/s:* \([0-9]*\).*/\1/p' <<<"$last")
	ott=$(sed -n 's/.* oom\/timeout\/crash: \([0-9\/]*\).*/\1/p' <<<"$last")
	timeouts=$(cut -d/ -f2 <<<"${ott:-0/0/0}")
	crashes=$(cut -d/ -f3 <<<"${ott:-0/0/0}")
	oracle=$(grep -c '^oracle: ' "$work/$name/log")
	printf '%-12s %12s %8s %6s %7s %7s %7s %8s %6s\n' "$name" "${execs:-?}" \
		"${eps:-?}" "${cov:-?}" "${ft:-?}" "${corp:-?}" "${crashes:-?}" \
		"${timeouts:-?}" "$oracle"
	if [ "${crashes:-1}" != 0 ] || [ "${timeouts:-1}" != 0 ] ||
		[ "$oracle" != 0 ]; then
		bad=1
		ls "$work/$name/art" | sed "s|^|  $name artifact: |"
		grep -m3 -E '^oracle: |ERROR: ' "$work/$name/log" | sed 's/^/  /'
	fi
done
exit $bad
