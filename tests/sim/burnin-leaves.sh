#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# burnin --topology on the tool's own output: ibnetdiscover walks an ibsim
# fat tree (4 leaves x 3 hosts x 2 HCAs, the fabric of the fixture
# tests/fixtures/fabric/leaves.topo); burnin finds the leaf of every CA
# port by its GUID and node:HOST gives each target port partners on 3
# different leaves.
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
sim_require "${IBPROOF:?}" "${GEN_FATTREE:?}" "${TOPO_PORTS:?}" ibnetdiscover
IBPROOF=$(realpath "$IBPROOF")
GEN_FATTREE=$(realpath "$GEN_FATTREE")
TOPO_PORTS=$(realpath "$TOPO_PORTS")
sim_setup

"$GEN_FATTREE" --radix 8 --leaves 4 --spines 2 --hosts-per-leaf 3 \
	--hcas-per-host 2 --uplinks 2 --net net --spec spec.csv ||
	sim_fail "gen_fattree"
sim_start net
sim_opensm
sim_client ibnetdiscover >topology.txt 2>/dev/null || sim_fail "ibnetdiscover"
# the port records the hosts' burnin would write (tests/sim/topo_ports.c)
"$TOPO_PORTS" topology.txt inventory.jsonl || sim_fail "topo_ports"
n=$(wc -l <inventory.jsonl)
[ "$n" = 24 ] || sim_fail "$n CA ports in the ibnetdiscover output, want 24"

"$IBPROOF" burnin --dry-run --inventory inventory.jsonl --topology topology.txt \
	--schedule node:node005 -v >plan.txt 2>err.txt ||
	sim_fail "burnin --dry-run: exit $? ($(cat err.txt))"
grep -q 'leaf known for 24 of 24 ports, 4 leaves' err.txt ||
	sim_fail "leaves: $(cat err.txt)"
# node005 sits on leaf02 (ibsim names its switch "leaf02")
for ca in mlx5_0 mlx5_1; do
	grep -qE "^target node005:$ca:1, leaf 0x[0-9a-f]{16} port [0-9] \"leaf02\": 3 partners on 3 known leaves$" plan.txt ||
		{ cat plan.txt >&2; sim_fail "node005:$ca:1: not 3 partners on 3 leaves"; }
done
sim_log "ok: node:node005 meets partners on 3 leaves"
sim_log "PASS"
