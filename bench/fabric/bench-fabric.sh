#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# bench-fabric.sh [BUILD]: the figures of issue 4 on a generated 2,048-HCA
# fat tree (64 leaves x 32 hosts, 32 spines: 96 switches, radix 64) in
# ibsim: ibnetdiscover vs ibproof fabric discover and discover+check, the
# diff alone, spec parsing (10,240 cables) and counters on every port.
# Prints figures; asserts nothing. Times are the median of RUNS (5) runs.
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=$(realpath "${1:-$root/build}")
IBPROOF=$build/ibproof
GEN=$build/tests/sim/gen_fattree
DIFF=$build/bench/fabric/bench_fabric_diff
RUNS=${RUNS:-5}
. "$root/tests/sim/lib.sh"
sim_require "$IBPROOF" "$GEN" "$DIFF" ibnetdiscover
sim_setup

"$GEN" --radix 64 --leaves 64 --spines 32 --hosts-per-leaf 32 \
	--net net --spec spec.csv >/dev/null || sim_fail "gen_fattree"
"$GEN" --radix 160 --leaves 64 --spines 80 --hosts-per-leaf 80 \
	--net big.net --spec big.csv >/dev/null ||
	sim_fail "gen_fattree (big spec)"
sim_start net -N 4096 -S 512 -P 16384
t0=$(date +%s.%N)
sim_opensm
printf 'opensm sweep: %.2f s\n' "$(echo "$(date +%s.%N) - $t0" | bc)"

median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
once() { # once LABEL CMD...: appends the wall seconds of one run to t.LABEL
	local label=$1 s
	shift
	s=$(date +%s.%N)
	sim_client "$@" >/dev/null 2>&1
	echo "$(date +%s.%N) - $s" | bc >>"t.$label"
}
sim_client ibnetdiscover >topology.txt 2>/dev/null
echo "fabric: $(grep -c '^Ca' topology.txt) HCAs, $(grep -c '^Switch' topology.txt) switches"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg) ($(nproc) CPUs)"
# Interleaved rounds, so a busy moment hits every tool alike.
for i in $(seq "$RUNS"); do
	once ibnetdiscover ibnetdiscover
	once discover "$IBPROOF" fabric discover
	once check "$IBPROOF" fabric check --spec spec.csv
	# one read (--since-clear): the default waits a 60 s window between
	# two reads, which is no cost of ibproof's (issue 35)
	once counters "$IBPROOF" fabric counters --since-clear
	sim_client "$IBPROOF" fabric counters --since-clear -v 2>&1 >/dev/null |
		sed -n 's/.*ports read in \([0-9.]*\) s.*/\1/p' >>t.pma
done
for l in ibnetdiscover discover check counters pma; do
	median <"t.$l" >"m.$l"
done
printf 'ibnetdiscover:                      %6.3f s\n' "$(cat m.ibnetdiscover)"
printf 'ibproof fabric discover:            %6.3f s\n' "$(cat m.discover)"
printf 'ibproof fabric check (disc+diff):   %6.3f s\n' "$(cat m.check)"
printf 'ibproof fabric counters:            %6.3f s\n' "$(cat m.counters)"
printf '  of which PMA reads (every port):   %6.3f s\n' "$(cat m.pma)"
printf 'discover+check / ibnetdiscover:     %6.2f x\n' \
	"$(echo "$(cat m.check) / $(cat m.ibnetdiscover)" | bc -l)"
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
"$DIFF" topology.txt spec.csv big.csv
