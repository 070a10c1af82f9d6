#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Acceptance 3 of issue 4: every switch has the same description (as real
# "SwitchIB Mellanox Technologies" fabrics do). Cables are matched by GUID
# (node-name-map, GUIDs in the spec, ibnetdiscover output as spec); a spec
# that names a switch by its shared description gets one clear
# ambiguous-name finding instead of a guess.
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
sim_require "${IBPROOF:?}" "${GEN_FATTREE:?}" jq ibnetdiscover
IBPROOF=$(realpath "$IBPROOF")
GEN_FATTREE=$(realpath "$GEN_FATTREE")
sim_setup
desc="SwitchIB Mellanox Technologies"

"$GEN_FATTREE" --radix 12 --leaves 4 --spines 2 --hosts-per-leaf 6 \
	--switch-desc "$desc" --net net --spec spec.csv --map map ||
	sim_fail "gen_fattree"
sim_start net
sim_opensm
sim_client ibnetdiscover >topology.txt 2>/dev/null || sim_fail "ibnetdiscover"
grep -q "\"$desc\"" topology.txt || sim_fail "switch descriptions not shared"

check() { # check WANT_RC WHAT ARGS...
	local want=$1 what=$2 rc
	shift 2
	sim_client "$IBPROOF" fabric check "$@" --records rec.jsonl \
		>out.txt 2>err.txt
	rc=$?
	jq -r 'select(.kind == "finding") | .category' rec.jsonl >cats.txt
	[ "$rc" = "$want" ] || { cat out.txt err.txt >&2; \
		sim_fail "$what: exit $rc, want $want"; }
}
check 0 "node-name-map" --spec spec.csv --node-name-map map
[ ! -s cats.txt ] || sim_fail "node-name-map: $(sort cats.txt | uniq -c)"
sim_log "ok: names from the node-name-map: zero findings"

# The same spec without the map: the leaf/spine names exist nowhere.
check 1 "no map" --spec spec.csv
grep -qx missing-link cats.txt || sim_fail "no map: $(sort -u cats.txt)"
sim_log "ok: without the map the switch names are not found"

# GUIDs in place of switch names in the CSV spec.
awk '{ gsub(/"/, ""); print "s/\\<" $2 "\\>/" $1 "/g" }' map |
	grep -E 'leaf|spine' >guids.sed
sed -f guids.sed spec.csv >spec-guids.csv
grep -q '^node001 mlx5_0,1,0x' spec-guids.csv || sim_fail "sed of GUIDs"
check 0 "GUIDs in the spec" --spec spec-guids.csv
[ ! -s cats.txt ] || sim_fail "GUID spec: $(sort cats.txt | uniq -c)"
sim_log "ok: GUIDs in the spec: zero findings"

check 0 "topology as spec" --spec topology.txt
[ ! -s cats.txt ] || sim_fail "topology spec: $(sort cats.txt | uniq -c)"
sim_log "ok: ibnetdiscover output as spec: zero findings"

# A spec naming a switch by the shared description: ambiguous, said once.
printf 'a_node,a_port,z_node,z_port\nnode001 mlx5_0,1,%s,1\n' "$desc" \
	>spec-desc.csv
check 1 "shared description" --spec spec-desc.csv
[ "$(cat cats.txt)" = ambiguous-name ] ||
	sim_fail "shared description: $(cat cats.txt)"
jq -r 'select(.kind == "finding") | .message' rec.jsonl |
	grep -q 'matches 6 nodes.*--node-name-map' ||
	sim_fail "ambiguous-name message: $(jq -r .message rec.jsonl)"
sim_log "ok: a shared description is reported as ambiguous"
# Two rails (two HCAs a host): each rail is its own subnet, checked from
# a port on it (SIM_HOST) against that rail's spec.
"$GEN_FATTREE" --radix 12 --leaves 4 --spines 2 --hosts-per-leaf 6 \
	--hcas-per-host 2 --rails 2 --spec-rail 1 --net net2 --spec rail1.csv \
	--map map2 || sim_fail "gen_fattree (rails)"
sim_stop
sim_start net2
SIM_HOST=node001-mlx5_1 sim_opensm
SIM_HOST=node001-mlx5_1 check 0 "rail 1 from mlx5_1" --spec rail1.csv \
	--node-name-map map2
[ ! -s cats.txt ] || sim_fail "rail 1: $(sort cats.txt | uniq -c)"
grep -q 'leaf01-r1' rail1.csv && ! grep -q 'r0' rail1.csv ||
	sim_fail "rail 1 spec"
sim_log "ok: rail 1 checked from node001 mlx5_1: zero findings"
sim_log "PASS"
