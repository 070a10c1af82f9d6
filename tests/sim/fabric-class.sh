#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Issue 18: degraded links without rates in the spec. On a fat tree whose
# spec gives no speed or width, a CA-leaf cable trained at 1X and a
# leaf-spine cable trained at a lower speed give one degraded-* finding
# each (judged against their class) and nothing else; the clean tree gives
# none. Live, and from the same fabric's ibnetdiscover output.
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
. "$here/findings.sh"
sim_require "${IBPROOF:?}" "${GEN_FATTREE:?}" jq ibnetdiscover
IBPROOF=$(realpath "$IBPROOF")
GEN_FATTREE=$(realpath "$GEN_FATTREE")
sim_setup

tree() { # tree DIR [--degrade ...]: net file and a spec with no rates
	local dir=$1
	shift
	mkdir -p "$dir"
	"$GEN_FATTREE" --radix 8 --leaves 4 --spines 2 --hosts-per-leaf 4 \
		--uplinks 4 --speed EDR "$@" --net "$dir/net" \
		--spec "$dir/rated.csv" || sim_fail "gen_fattree"
	cut -d, -f1-4 "$dir/rated.csv" >"$dir/spec.csv"
	grep -qi 'edr\|4x' "$dir/spec.csv" && sim_fail "spec still has rates"
}

# check DIR NAME ARGS...: fabric check, canonical findings in DIR/NAME.txt
check() {
	local dir=$1 name=$2 rc
	shift 2
	sim_client "$IBPROOF" fabric check --spec "$dir/spec.csv" "$@" \
		--records "$dir/$name.jsonl" >"$dir/$name.out" 2>"$dir/$name.err"
	rc=$?
	echo "$rc" >"$dir/$name.rc"
	canon_findings "$dir/$name.jsonl" >"$dir/$name.txt"
}

run_tree() { # run_tree DIR: live check and --topology check
	local dir=$1
	sim_start "$dir/net"
	sim_opensm
	check "$dir" live
	sim_client ibnetdiscover >"$dir/topology.txt" 2>/dev/null ||
		sim_fail "ibnetdiscover"
	sim_stop
	check "$dir" topo --topology "$dir/topology.txt"
}

tree clean
run_tree clean
for run in live topo; do
	[ "$(cat clean/$run.rc)" = 0 ] && [ ! -s clean/$run.txt ] ||
		sim_fail "clean $run: exit $(cat clean/$run.rc): $(cat clean/$run.txt clean/$run.err)"
done
sim_log "ok: clean tree, no rates in the spec: zero findings"

tree faulty --degrade leaf02:2:w=1 --degrade leaf03:6:e=1
run_tree faulty
printf '%s\n' 'degraded-speed|leaf03:6|spine02:5' \
	'degraded-width|leaf02:2|node006 mlx5_0:1' | sort >faulty/want.txt
for run in live topo; do
	[ "$(cat faulty/$run.rc)" = 1 ] ||
		sim_fail "faulty $run: exit $(cat faulty/$run.rc): $(cat faulty/$run.err)"
	expect_same "faulty $run" faulty/want.txt faulty/$run.txt
done
jq -r 'select(.kind == "finding") | .evidence.class' faulty/live.jsonl |
	sort | tr '\n' ' ' | grep -qx 'CA-leaf leaf-spine ' ||
	sim_fail "classes: $(jq -c .evidence faulty/live.jsonl)"
sim_log "PASS"
