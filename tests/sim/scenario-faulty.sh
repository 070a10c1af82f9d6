#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# scenario-faulty.sh OUTDIR: the 324-HCA fat tree with a known set of faults,
# checked by ibproof. Reused by the sim tier (fabric-faulty.sh), the demo and
# the reports tier to get fabric records with known injected faults.
#
# Environment: IBPROOF (the binary), GEN_FATTREE (tests/sim/gen_fattree);
# both default to the build/ folder of this checkout.
#
# Writes into OUTDIR:
#   net, spec.csv, node-name-map   the generated fabric (gen_fattree)
#   faults.txt                     the injected faults, one per line, as
#                                  "category|end|end" (ends "node:port", sorted)
#   check.jsonl                    `ibproof fabric check --records` (live)
#   counters.jsonl                 `ibproof fabric counters --records`
#   discover.jsonl                 `ibproof fabric discover --records`
#   fabric.cache, topology.txt     offline captures of the faulty fabric
#   check-cache.jsonl              fabric check --load-cache fabric.cache
#   check-topology.jsonl           fabric check --topology topology.txt
#   ibdiagnet2.db_csv              modules of the cabled ports (make-db-csv;
#                                  ibsim has none), one of them faulty
#   xcvr-faults.txt                that module's fault, as faults.txt
#   cables.jsonl                   fabric cables --from-ibdiagnet (offline)
#   exit-codes                     "check N", "counters N", ... of each run
# ibsim, opensm and every client are stopped before it returns.
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
out=${1:?usage: scenario-faulty.sh OUTDIR}
mkdir -p "$out" && out=$(cd "$out" && pwd)
IBPROOF=${IBPROOF:-$root/build/ibproof}
GEN_FATTREE=${GEN_FATTREE:-$root/build/tests/sim/gen_fattree}
IBPROOF=$(realpath "$IBPROOF") && GEN_FATTREE=$(realpath "$GEN_FATTREE") ||
	exit 77
. "$here/lib.sh"
sim_require "$IBPROOF" "$GEN_FATTREE" jq

# 18 leaves x 18 hosts = 324 HCAs, 8 spines, 16 uplinks a leaf (ports
# 35/36 of each leaf stay free for the unexpected cable). Width and speed
# faults live in the net file (ibsim needs them on both ends).
"$GEN_FATTREE" --radix 36 --leaves 18 --spines 8 --uplinks 16 \
	--hosts-per-leaf 18 --speed EDR \
	--degrade leaf02:20:w=1 --degrade leaf03:25:e=1 \
	--net "$out/net" --spec "$out/spec.csv" --map "$out/node-name-map" ||
	sim_fail "gen_fattree"

cat >"$out/faults.txt" <<'FAULTS'
degraded-width|leaf02:20|spine02:3
degraded-speed|leaf03:25|spine07:5
swapped|leaf04:5|leaf04:6|node059 mlx5_0:1|node060 mlx5_0:1
missing-link|leaf05:9|node081 mlx5_0:1
port-disabled|leaf06:7|node097 mlx5_0:1
not-tested|leaf06:10|node100 mlx5_0:1
unexpected-link|leaf07:35|leaf08:36
symbol-errors|leaf09:3|node147 mlx5_0:1
link-downed|leaf09:3|node147 mlx5_0:1
symbol-errors|leaf10:20|spine02:19
link-downed|leaf10:20|spine02:19
FAULTS

sim_setup
sim_start "$out/net"
# Cabling faults before the SM sweep, so LIDs and routes match the cables.
sim_cmd 'Unlink "leaf04"[5]'
sim_cmd 'Unlink "leaf04"[6]'
sim_cmd 'Link "leaf04"[5] "node060-mlx5_0"[1]'
sim_cmd 'Link "leaf04"[6] "node059-mlx5_0"[1]'
sim_cmd 'Unlink "leaf05"[9]'
sim_cmd 'Link "leaf07"[35] "leaf08"[36]'
sim_opensm
sim_client ibnetdiscover >"$out/topology.before" 2>/dev/null ||
	sim_fail "ibnetdiscover"
lid=$(awk '/# "leaf06" base port 0 lid/ {
	for (i = 1; i <= NF; i++) if ($i == "lid") print $(i + 1) }' \
	"$out/topology.before")
[ -n "$lid" ] || sim_fail "no LID for leaf06"
sim_client ibportstate "$lid" 7 disable >/dev/null 2>&1 ||
	sim_fail "ibportstate disable"
sim_cmd 'Error "node100-mlx5_0" 100'
sim_cmd 'PerformanceSet "leaf09"[3] PortCounters.SymbolErrorCounter=50'
sim_cmd 'PerformanceSet "leaf09"[3] PortCounters.LinkDownedCounter=12'
sim_cmd 'PerformanceSet "spine02"[19] PortCounters.SymbolErrorCounter=30'
sim_cmd 'PerformanceSet "spine02"[19] PortCounters.LinkDownedCounter=15'
# The bits those errors came in (4-octet words; ibsim adds its MADs): the
# report's per-cable view gives each its BER (3.2e10 and 6.4e10 bits).
sim_cmd 'PerformanceSet "leaf09"[3] PortCountersExtended.PortRcvData=1000000000'
sim_cmd 'PerformanceSet "spine02"[19] PortCountersExtended.PortRcvData=2000000000'

run() { # run NAME ARGS...: ibproof under ibsim, exit code into exit-codes
	local name=$1 rc
	shift
	sim_client "$IBPROOF" fabric "$@" >"$out/$name.out" 2>"$out/$name.err"
	rc=$?
	echo "$name $rc" >>"$out/exit-codes"
}
: >"$out/exit-codes"
run discover discover --records "$out/discover.jsonl" \
	--cache "$out/fabric.cache"
run check check --spec "$out/spec.csv" --records "$out/check.jsonl"
# --since-clear: the errors were injected before the run, as on a fabric
# whose counters were never cleared (the default judges a window).
run counters counters --since-clear --records "$out/counters.jsonl"
sim_client ibnetdiscover >"$out/topology.txt" 2>/dev/null ||
	sim_fail "ibnetdiscover"
sim_stop
run check-cache check --spec "$out/spec.csv" --load-cache "$out/fabric.cache" \
	--records "$out/check-cache.jsonl"
run check-topology check --spec "$out/spec.csv" \
	--topology "$out/topology.txt" --records "$out/check-topology.jsonl"
"$here/make-db-csv" "$out/discover.jsonl" "$out/ibdiagnet2.db_csv" \
	"$out/xcvr-faults.txt" || sim_fail "make-db-csv"
run cables cables --from-ibdiagnet "$out/ibdiagnet2.db_csv" \
	--load-cache "$out/fabric.cache" --records "$out/cables.jsonl"
sim_log "records in $out"
