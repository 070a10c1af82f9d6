#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Issue 16: one step of burnin's load proof against ibsim, through the real
# libibmad path (tests/sim/proof_step), on a two-level tree routed by
# opensm -R ftree. ibsim has no data path: the test plays the traffic with
# PerformanceSet on the egress ports' 64-bit PortXmitData. Flow 0's bytes
# go along its planned cables: each is `loaded`, sent_bytes within a few
# MADs of what was planted. Flow 1's bytes leave its leaf by another
# up-link (the routes lie): its two switch-to-switch cables are
# `not-loaded`, one cable-not-loaded finding each, and its host links are
# loaded. Symbol errors planted at the ingress end of a cable reach its
# record (errors_to).
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
sim_require "${IBPROOF:?}" "${PROOF_STEP:?}" "${PMA_READ:?}" \
	"${GEN_FATTREE:?}" jq
IBPROOF=$(realpath "$IBPROOF")
PROOF_STEP=$(realpath "$PROOF_STEP")
PMA_READ=$(realpath "$PMA_READ")
GEN_FATTREE=$(realpath "$GEN_FATTREE")
sim_setup
MOVED=4000000000 # bytes each flow moved: 10^9 words

sim_tree ftree tree --radix 8 --leaves 2 --spines 2 --hosts-per-leaf 4 \
	--uplinks 4 --speed EDR
guid() { # CA name -> port GUID
	jq -r --arg n "$1" 'select(.kind == "link") | .a, .b |
		select(.type == "ca" and .name == $n) | .port_guid' \
		tree.jsonl | head -1
}
g1=$(guid "node001 mlx5_0") g2=$(guid "node002 mlx5_0")
g5=$(guid "node005 mlx5_0") g6=$(guid "node006 mlx5_0")
[ -n "$g1" ] && [ -n "$g6" ] || sim_fail "no CA GUIDs in tree.jsonl"

# Leaf-to-leaf flows: node001 -> node005, node002 -> node006.
sim_client "$PROOF_STEP" tree.jsonl plan.txt go step.jsonl "$MOVED" \
	"$g1:$g5" "$g2:$g6" >step.out 2>step.err &
step=$!
for i in $(seq 600); do
	[ -s plan.txt ] && break
	kill -0 "$step" 2>/dev/null || break
	sleep 0.05
done
[ -s plan.txt ] || sim_fail "proof_step wrote no plan: $(cat step.err)"
cat plan.txt >&2
[ "$(awk '$1 == 0' plan.txt | wc -l)" = 4 ] ||
	sim_fail "flow 0: expected 4 cables (host, up, down, host)"

# The traffic: +MOVED/4 words on each planned egress port, but flow 1's
# switch-to-switch bytes on the other up-link of its leaf.
xmit_now() { # LID PORT -> PortXmitData (64-bit)
	LD_PRELOAD=$SIM_PRELOAD "$PMA_READ" "$1:$2" 2>/dev/null |
		tr ' ' '\n' | sed -n 's/^PortXmitData=//p'
}
add_words() { # NODE PORT LID
	local now
	now=$(xmit_now "$3" "$2")
	[ -n "$now" ] || sim_fail "no PortXmitData for $1 port $2"
	sim_cmd "PerformanceSet \"$1\"[$2] PortCountersExtended.PortXmitData=$((now + MOVED / 4))"
}
while read -r flow node port lid; do
	# a leaf's down ports are 1-4, its up-links 5-8
	case "$flow:$node:$((port >= 5))" in
	1:leaf*:1) # up: another up-link of the leaf
		add_words "$node" $((port == 8 ? 5 : port + 1)) "$lid"
		;;
	1:spine*) ;; # down: from another spine
	*) add_words "$node" "$port" "$lid" ;;
	esac
done <plan.txt
# Symbol errors at the ingress end of flow 0's last cable (leaf02 ->
# node005): node005's port.
sim_cmd 'PerformanceSet "node005-mlx5_0"[1] PortCounters.SymbolErrorCounter=7'
: >go
wait "$step"
rc=$?
cat step.out step.err >&2
[ "$rc" = 0 ] || sim_fail "proof_step exit $rc"

loads() { jq -r "select(.kind == \"cable-load\") | $1" step.jsonl; }
[ "$(loads .cable | wc -l)" = 8 ] || sim_fail "expected 8 cable-load records"
[ "$(loads 'select(.status == "loaded") | .cable' | wc -l)" = 6 ] ||
	sim_fail "expected 6 loaded cables: $(loads '.cable + " " + .status')"
nl=$(loads 'select(.status == "not-loaded") | select(.inter_switch) | .cable' | wc -l)
[ "$nl" = 2 ] || sim_fail "expected flow 1's 2 switch cables not-loaded, got $nl"
[ "$(jq -r 'select(.category == "cable-not-loaded") | .message' step.jsonl |
	wc -l)" = 2 ] || sim_fail "expected 2 cable-not-loaded findings"
# Loaded cables sent what was planted (MADs add a few hundred bytes).
loads 'select(.status == "loaded") | "\(.sent_bytes) \(.sent)"' |
	while read -r sent how; do
		[ "$how" = exact ] || sim_fail "sent $how, expected exact"
		[ "$sent" -ge "$MOVED" ] && [ "$sent" -lt $((MOVED + 100000)) ] ||
			sim_fail "sent $sent bytes, planted $MOVED"
	done || exit 1
[ "$(loads 'select(.errors_to.SymbolErrorCounter == 7) | .cable' | wc -l)" = 1 ] ||
	sim_fail "the planted symbol errors are not in one cable's errors_to"
sim_log "PASS: planned cables loaded, the diverted ones named, errors at both ends"
