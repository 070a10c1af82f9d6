#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Issue 35: `fabric counters` judges what the counters rose by in a window,
# bit errors per bit received. In ibsim (EDR, 100 Gb/s links): the same 50
# symbol errors in a 3 s window pass when the port received 10^15 bits and
# fail when it received 10^10 (the floor is then the link's signalling over
# the window, 3x10^11 bits: still over the 1e-12 bound); a LinkDownedCounter
# of 12 from before the window is no finding in window mode and is one with
# --since-clear; every counters record says which window it covers; the
# fake's sim-console traffic (burnin --transport fake) during a window gives
# records whose rcv_bits are the bits its flows moved. The report shows
# the window, bits, errors and BER of the cable (its per-cable view).
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
sim_require "${IBPROOF:?}" "${GEN_FATTREE:?}" jq
IBPROOF=$(realpath "$IBPROOF")
GEN_FATTREE=$(realpath "$GEN_FATTREE")
sim_setup

"$GEN_FATTREE" --radix 8 --leaves 2 --spines 2 --uplinks 4 \
	--hosts-per-leaf 4 --speed EDR --net net --spec spec.csv ||
	sim_fail "gen_fattree"
sim_start net
sim_opensm_engine ftree
# From before any window: the link went down 12 times (a host's reboots).
sim_cmd 'PerformanceSet "leaf02"[2] PortCounters.LinkDownedCounter=12'

# window NAME WORDS: a 3 s window in which leaf01 port 1's symbol errors go
# from 0 to 50 and WORDS more 4-octet words received.
window() {
	local name=$1 words=$2 i
	sim_client "$IBPROOF" fabric counters -v --window 3 \
		--records "$name.jsonl" >"$name.out" 2>"$name.err" &
	local pid=$!
	for i in $(seq 200); do
		grep -q 'window of 3 s started' "$name.err" && break
		sleep 0.05
	done
	grep -q 'window of 3 s started' "$name.err" ||
		sim_fail "$name: the window did not start: $(cat "$name.err")"
	sim_cmd 'PerformanceSet "leaf01"[1] PortCounters.SymbolErrorCounter=50'
	sim_cmd "PerformanceSet \"leaf01\"[1] PortCountersExtended.PortRcvData=$words"
	wait "$pid"
	echo $? >"$name.rc"
}

# 10^15 bits = 3.125x10^13 words: 5e-14 per bit, under the bound.
window big 31250000000000
[ "$(cat big.rc)" = 0 ] || sim_fail "10^15 bits: exit $(cat big.rc): $(cat big.out)"
n=$(jq -r 'select(.kind == "finding") | .category' big.jsonl | wc -l)
[ "$n" = 0 ] || sim_fail "10^15 bits: $n findings: $(cat big.out)"
rec=$(jq -c 'select(.kind == "counters" and .port == 1 and
	.subject.node == "leaf01") | .window' big.jsonl)
[ "$(jq -r .mode <<<"$rec")" = window ] || sim_fail "window record: $rec"
# (PerformanceSet sets the value: the rise is 10^15 less what was there)
[ "$(jq -r '.rcv_bits > 0.999e15 and .rcv_bits <= 1e15' <<<"$rec")" = true ] ||
	sim_fail "window record: rcv_bits is not 10^15: $rec"
jq -e '.seconds >= 3 and .seconds < 10 and (.start | length) > 0 and
	(.end | length) > 0' <<<"$rec" >/dev/null ||
	sim_fail "window record: start, end, seconds: $rec"
sim_log "ok: 50 symbol errors over 10^15 bits pass; the record: $rec"

# The counter was not cleared: the next window starts from where it is.
sim_cmd 'PerformanceSet "leaf01"[1] PortCountersExtended.PortRcvData=0'
sim_cmd 'PerformanceSet "leaf01"[1] PortCounters.SymbolErrorCounter=0'
# 10^10 bits = 3.125x10^8 words.
window small 312500000
[ "$(cat small.rc)" = 1 ] || sim_fail "10^10 bits: exit $(cat small.rc)"
f=$(jq -c 'select(.kind == "finding" and .category == "symbol-errors")' \
	small.jsonl)
[ -n "$f" ] || sim_fail "10^10 bits: no symbol-errors finding: $(cat small.out)"
jq -e '.evidence.judged_by == "ber" and .evidence.ber_limit == 1e-12 and
	.evidence.window == "window"' <<<"$f" >/dev/null ||
	sim_fail "10^10 bits: evidence: $f"
n=$(jq -r 'select(.kind == "finding") | .category' small.jsonl | sort -u |
	tr '\n' ' ')
[ "$n" = "symbol-errors " ] || sim_fail "10^10 bits: findings $n"
sim_log "ok: 50 symbol errors over 10^10 bits fail: $(jq -r .message <<<"$f")"

# The report's per-cable view (issue 35): that cable's window, bits, errors
# and BER, exactly the figures of the record, joined to the cable of the
# discover records; its far end's too.
sim_client "$IBPROOF" fabric discover --records discover.jsonl >/dev/null 2>&1
"$IBPROOF" report discover.jsonl small.jsonl --json small-report.json \
	--html small-report.html >small-report.txt 2>&1
[ $? = 1 ] || sim_fail "report of the 10^10 window: $(cat small-report.txt)"
w=$(jq -c 'select(.kind == "counters" and .port == 1 and
	.subject.node == "leaf01") | .window' small.jsonl)
read -r s0 s1 sec x r b bb < <(jq -r '"\(.start) \(.end) \(.seconds) \(.xmit_bits) \(.rcv_bits) \(.ber) \(.ber_bits)"' <<<"$w")
jq -e '.rcv_bits > 1e10 - 1e7 and .rcv_bits < 1e10 + 1e7 and .errors.SymbolErrorCounter == 50
	and .ber_bits > .rcv_bits and .ber == 50 / .ber_bits' <<<"$w" >/dev/null ||
	sim_fail "10^10 window record: $w"
figs="window $(printf %.3g "$sec") s from $s0 to $s1: sent $(printf %.3g "$x") bits, received $(printf %.3g "$r") bits; errors: SymbolErrorCounter 50; BER $(printf %.2g "$b") over $(printf %.3g "$bb") bits (limit 1e-12)"
far=$(jq -r 'select(.kind == "link" and .a.name == "leaf01" and .a.port == 1) |
	"\(.b.name) port \(.b.port)"' discover.jsonl)
[ -n "$far" ] || sim_fail "discover: no link at leaf01 port 1"
grep -qxF "  leaf01 port 1 <-> $far" small-report.txt &&
	grep -qxF "    leaf01 port 1: $figs" small-report.txt &&
	grep -qxF "         port counters: $figs" small-report.txt ||
	sim_fail "the report's per-cable view lacks '$figs': $(cat small-report.txt)"
grep -qE "^    $far: window [0-9.]+ s from .*; errors: none; BER 0 over " \
	small-report.txt || sim_fail "the far end's figures: $(cat small-report.txt)"
grep -qF "<td>leaf01 port 1</td><td>$figs</td>" small-report.html ||
	sim_fail "the HTML Cables table lacks '$figs'"
sim_log "ok: the report's per-cable view: leaf01 port 1: $figs"

# The LinkDownedCounter of 12 from before: a finding only since the clear.
sim_client "$IBPROOF" fabric counters --since-clear --records clear.jsonl \
	>clear.out 2>&1
rc=$?
[ "$rc" = 1 ] || sim_fail "--since-clear: exit $rc"
jq -r 'select(.kind == "finding") | .category' clear.jsonl |
	grep -qx link-downed || sim_fail "--since-clear: no link-downed"
n=$(jq -r 'select(.kind == "counters") | select(.window.mode != "since-clear"
	or .window.start != null) | .port' clear.jsonl | wc -l)
[ "$n" = 0 ] || sim_fail "--since-clear: $n records not since the clear"
sim_log "ok: link-downed 12 from before: no finding in a window, one since the clear"
# The fake's sim-console traffic (burnin --transport fake, issue 16) in a
# window: the records' rcv_bits hold the bits its flows moved.
sim_client "$IBPROOF" fabric routes --records routes.jsonl >/dev/null ||
	sim_fail "fabric routes"
sim_client "$IBPROOF" fabric counters -v --window 6 --records traffic.jsonl \
	>traffic.out 2>traffic.err &
pid=$!
for i in $(seq 200); do
	grep -q 'window of 6 s started' traffic.err && break
	sleep 0.05
done
# the fake's ports carry the routes' names (issue 32): the first 8 CAs
jq -r 'select(.kind == "link") | (.a, .b) | select(.type == "ca") |
	"\(.host):\(.ca):\(.port)"' routes.jsonl | awk '!seen[$0]++' | head -8 >cas.txt
[ "$(wc -l <cas.txt)" = 8 ] || sim_fail "fewer than 8 CA ports in the routes"
paste -d' ' <(head -4 cas.txt) <(tail -4 cas.txt) | sed 's/^/0 /' >round.pairs
IBPROOF_HOST=simhost "$IBPROOF" burnin --transport fake --no-progress \
	--warmup 0.1 --duration 1 --retests 0 --timeout 60 \
	--fake "routes=$PWD/routes.jsonl;sim-console=$PWD/console" \
	--schedule pairs:round.pairs --records burnin.jsonl >burnin.out 2>&1
wait "$pid"
moved=$(jq -s '[.[] | select(.kind == "pair") | .gbps * 1e9] | add' \
	burnin.jsonl)
got=$(jq -s '[.[] | select(.kind == "counters" and .subject.type == "ca") |
	.window.rcv_bits] | add' traffic.jsonl)
# (within 0.1%, plus ibsim's own MAD traffic)
ok=$(jq -n --argjson m "${moved:-0}" --argjson g "${got:-0}" \
	'$m > 1e9 and $g >= $m * 0.999 and $g <= $m * 1.001 + 1e7')
[ "$ok" = true ] ||
	sim_fail "sim-console traffic: CA ports received $got bits in the window, the flows moved $moved"
sim_log "ok: the fake's traffic in a window: $got bits received by the CA ports ($moved moved)"
sim_log "PASS"
