#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# bench-routes.sh [BUILD]: the figures of issue 15 on the generated
# 2,048-HCA fat tree (64 leaves x 32 hosts, 32 spines: 96 switches, radix
# 64) in ibsim, routed by opensm -R ftree: `ibproof fabric routes` (walk +
# every switch's table by directed route) against `dump_fts` (the same
# job in infiniband-diags), interleaved rounds, medians of RUNS (5); then
# the paths of every ordered CA pair computed offline from topology +
# opensm-lfts.dump. Prints figures; asserts nothing.
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=$(realpath "${1:-$root/build}")
IBPROOF=$build/ibproof
GEN=$build/tests/sim/gen_fattree
ROUTES=$build/bench/fabric/bench_fabric_routes
RUNS=${RUNS:-5}
. "$root/tests/sim/lib.sh"
sim_require "$IBPROOF" "$GEN" "$ROUTES" ibnetdiscover dump_fts
sim_setup

"$GEN" --radix 64 --leaves 64 --spines 32 --hosts-per-leaf 32 \
	--net net --spec spec.csv >/dev/null || sim_fail "gen_fattree"
sim_start net -N 4096 -S 512 -P 16384
mkdir -p osm
t0=$(date +%s.%N)
OSM_TMP_DIR=$PWD/osm OSM_CACHE_DIR=$PWD/osm \
	sim_client opensm -o -R ftree -D 0x43 --dump_files_dir "$PWD/osm" \
	-f "$PWD/osm/osm.log" >osm/stdout 2>&1 || sim_fail "opensm"
printf 'opensm -R ftree sweep + dump: %.2f s\n' "$(echo "$(date +%s.%N) - $t0" | bc)"

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
for i in $(seq "$RUNS"); do
	once dump_fts dump_fts
	once routes "$IBPROOF" fabric routes --records rec.jsonl
done
for l in dump_fts routes; do
	median <"t.$l" >"m.$l"
done
printf 'dump_fts:                           %6.3f s\n' "$(cat m.dump_fts)"
printf 'ibproof fabric routes (+records):   %6.3f s\n' "$(cat m.routes)"
printf 'fabric routes / dump_fts:           %6.2f x\n' \
	"$(echo "$(cat m.routes) / $(cat m.dump_fts)" | bc -l)"
echo "lft records: $(grep -c '"kind":"lft"' rec.jsonl)," \
	"findings: $(grep -c '"kind":"finding"' rec.jsonl)"
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
"$ROUTES" topology.txt osm/opensm-lfts.dump
