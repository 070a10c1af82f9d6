#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Issue 16: the load proof's PMA read (fabric_pma_read_ports() through
# libibmad, tests/sim/pma_read) reads the counters planted with ibsim's
# PerformanceSet exactly: the 64-bit PortCountersExtended PortXmitData
# (past 2^32, different from the 32-bit one, so the extended read is the
# one used), and the error counters of PortCounters. The planted ports are
# egress ports of links no MAD of the test crosses (leaf01 -> node002,
# leaf02 -> node003/node004), since ibsim counts MAD traffic too. A LID
# nobody has is named "no-answer" within the timeout, and the others are
# still read.
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
sim_require "${PMA_READ:?}" "${GEN_FATTREE:?}" ibnetdiscover
PMA_READ=$(realpath "$PMA_READ")
GEN_FATTREE=$(realpath "$GEN_FATTREE")
sim_setup

"$GEN_FATTREE" --radix 8 --leaves 2 --spines 2 --hosts-per-leaf 2 \
	--uplinks 2 --speed EDR --net net --spec spec.csv ||
	sim_fail "gen_fattree"
sim_start "$PWD/net"
sim_opensm
sim_client ibnetdiscover >topo 2>/dev/null || sim_fail "ibnetdiscover"
lid_of() { # switch name -> LID
	awk -v n="\"$1\"" '$0 ~ "# " n " base port 0 lid" {
		for (i = 1; i <= NF; i++) if ($i == "lid") print $(i + 1) }' topo
}
l1=$(lid_of leaf01) l2=$(lid_of leaf02)
[ -n "$l1" ] && [ -n "$l2" ] || sim_fail "no LIDs for the leaves"

plant() { # NODE PORT XMIT64 XMIT32 SYMBOL LINKDOWNED RCVERRORS DISCARDS
	sim_cmd "PerformanceSet \"$1\"[$2] PortCountersExtended.PortXmitData=$3"
	sim_cmd "PerformanceSet \"$1\"[$2] PortCounters.PortXmitData=$4"
	sim_cmd "PerformanceSet \"$1\"[$2] PortCounters.SymbolErrorCounter=$5"
	sim_cmd "PerformanceSet \"$1\"[$2] PortCounters.LinkDownedCounter=$6"
	sim_cmd "PerformanceSet \"$1\"[$2] PortCounters.PortRcvErrors=$7"
	sim_cmd "PerformanceSet \"$1\"[$2] PortCounters.PortXmitDiscards=$8"
}
plant leaf01 2 123456789012 4000000000 7 3 11 2
plant leaf02 1 9876543210123 17 65535 255 0 9
plant leaf02 2 4294967296 4294967295 0 1 5 0

sim_client "$PMA_READ" --timeout-ms 300 "$l1:2" "$l2:1" "$l2:2" 999:1 \
	>read.out 2>read.err
rc=$?
cat read.out >&2
[ "$rc" -eq 1 ] || sim_fail "pma_read exit $rc, expected 1 (LID 999 absent)"

# want LID:PORT FIELD=VALUE...: the line of that target has each field.
want() {
	local t=$1 line f
	shift
	line=$(awk -v l="${t%:*}" -v p="${t#*:}" '$1 == l && $2 == p' read.out)
	[ -n "$line" ] || sim_fail "$t: not read"
	for f in "$@"; do
		case " $line " in
		*" $f "*) ;;
		*) sim_fail "$t: expected $f in: $line" ;;
		esac
	done
}
want "$l1:2" ext PortXmitData=123456789012 SymbolErrorCounter=7 \
	LinkDownedCounter=3 PortRcvErrors=11 PortXmitDiscards=2
want "$l2:1" ext PortXmitData=9876543210123 SymbolErrorCounter=65535 \
	LinkDownedCounter=255 PortRcvErrors=0 PortXmitDiscards=9
want "$l2:2" ext PortXmitData=4294967296 SymbolErrorCounter=0 \
	LinkDownedCounter=1 PortRcvErrors=5 PortXmitDiscards=0
want 999:1 no-answer
sim_log "PASS: planted PMA counters read exactly, an absent LID named"
