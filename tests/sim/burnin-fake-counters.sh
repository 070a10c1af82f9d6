#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Issue 16: the fake fabric keeps ibsim's PMA counters in step with its
# flow model, so that counters read through the real MAD path (perfquery
# under umad2sim here, the load proof later) show what each cable carried.
# On an ibsim fat tree of 16 HCAs routed by opensm's ftree engine:
#   1. burnin --transport fake --fake 'routes=R;sim-console=console', one
#      round of 8 pairs (threads bootstrap): on every egress port of every
#      flow's path (from `fabric routes --paths`), PortXmitData
#      (PortCountersExtended) grew by the words of the flows through it, as
#      their pair records say they moved; the far ends' PortRcvData too.
#   2. the same with errors-cable=LEAF:PORT@3 on a leaf's up-link: its
#      flows fail with 3 error completions each, and the far end's
#      SymbolErrorCounter grew by 3 per flow through the cable.
#   3. a step of 324 flows (--bidir) on the demo's 324-HCA tree: no console
#      update lost (the FIFO fills; the CA ports' words add up to the flows').
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
sim_require "${IBPROOF:?}" "${GEN_FATTREE:?}" jq perfquery ibnetdiscover
IBPROOF=$(realpath "$IBPROOF")
GEN_FATTREE=$(realpath "$GEN_FATTREE")
sim_setup
export IBPROOF_HOST=simhost

route_opensm() {
	sim_opensm_engine ftree -D 0x43 --dump_files_dir "$PWD/osm"
	sim_client "$IBPROOF" fabric routes --records routes.jsonl >/dev/null ||
		sim_fail "fabric routes"
	sim_client ibnetdiscover >topology.txt 2>/dev/null || sim_fail "ibnetdiscover"
}

# burnin LABEL PAIRS_FILE EXTRA_FAKE: one round, records in LABEL.jsonl
burnin() {
	"$IBPROOF" burnin --transport fake --no-progress --warmup 0.1 ${BIDIR:-} \
		--duration "${DURATION:-1}" --retests 0 --timeout 60 \
		--fake "routes=$PWD/routes.jsonl;sim-console=$PWD/console${3:+;$3}" \
		--schedule "pairs:$2" --records "$1.jsonl" >"$1.out" 2>&1
	local rc=$?
	[ "$rc" -le 1 ] || { tail "$1.out" >&2; sim_fail "$1: burnin exit $rc"; }
	grep -q 'not written\|has not read' "$1.out" &&
		{ cat "$1.out" >&2; sim_fail "$1: console updates lost"; }
	return 0
}

# pair_lids LABEL: "SRC_LID DST_LID WORDS" of each measured pair (a sends)
pair_lids() {
	jq -r 'select(.kind == "port") | "\(.host):\(.ca):\(.port) \(.lid)"' \
		"$1.jsonl" >"$1.lids"
	jq -r --arg d "${DURATION:-1}" 'select(.kind == "pair") |
		"\(.a.host):\(.a.ca):\(.a.port) \(.b.host):\(.b.ca):\(.b.port) \(.gbps * 1e9 / 8 * ($d | tonumber) / 4)"' \
		"$1.jsonl" |
		awk 'NR == FNR { lid[$1] = $2; next } { print lid[$1], lid[$2], $3 }' \
			"$1.lids" - >"$1.flows"
}

# egress LABEL: "LID PORT FAR_LID FAR_PORT FAR_NAME NAME WORDS" per egress
# port of every flow (one line per flow and cable), from the offline paths.
egress() {
	awk '{ print $1, $2 }' "$1.flows" >"$1.pairs"
	"$IBPROOF" fabric routes --topology topology.txt \
		--lfts osm/opensm-lfts.dump --paths "$1.pairs" >"$1.paths" ||
		sim_fail "$1: --paths"
	awk 'NR == FNR { w[FNR] = $3; next }
	/^From/ { n++; match($0, /lid [0-9]+/); lid = substr($0, RSTART + 4, RLENGTH - 4)
		name = $0; sub(/^[^"]*"/, "", name); sub(/".*/, "", name); next }
	/^\[[0-9]+\] -> / {
		out = $1; gsub(/[\[\]]/, "", out)
		match($0, /\}\[[0-9]+\]/); in_ = substr($0, RSTART + 2, RLENGTH - 3)
		match($0, /lid [0-9]+/); far = substr($0, RSTART + 4, RLENGTH - 4)
		fname = $0; sub(/^[^"]*"/, "", fname); sub(/".*/, "", fname)
		printf "%s %s %s %s %s|%s|%s\n", lid, out, far, in_, w[n], name, fname
		lid = far; name = fname }' "$1.flows" "$1.paths" >"$1.egress"
}

counter() { # counter LID PORT FIELD [-x]; a MAD lost to a busy ibsim is retried
	local v i
	for i in 1 2 3; do
		v=$(sim_client perfquery ${4:-} "$1" "$2" 2>/dev/null |
			sed -n "s/^$3:\.*//p")
		[ -n "$v" ] && break
	done
	[ -n "$v" ] || sim_fail "perfquery $* gave no $3"
	echo "$v"
}

# snapshot LABEL FILE: PortXmitData of each egress, PortRcvData of each far end
snapshot() {
	awk '{ print $1, $2; print $3, $4 }' "$1.egress" | sort -u |
		while read -r lid port; do
			echo "$lid $port $(counter "$lid" "$port" PortXmitData -x)" \
				"$(counter "$lid" "$port" PortRcvData -x)" \
				"$(counter "$lid" "$port" SymbolErrorCounter)"
		done >"$2"
}

# check_words LABEL BEFORE AFTER: each egress grew by its flows' words
check_words() {
	awk 'FILENAME == ARGV[1] { x0[$1 " " $2] = $3; r0[$1 " " $2] = $4; next }
	FILENAME == ARGV[2] { x1[$1 " " $2] = $3; r1[$1 " " $2] = $4; next }
	{ split($5, f, "|"); want[$1 " " $2] += f[1]; rwant[$3 " " $4] += f[1] }
	END {
		for (k in want) { d = x1[k] - x0[k]; n++
			if (d < want[k] * 0.999 || d > want[k] * 1.001 + 50000) {
				printf "egress %s: PortXmitData +%.0f, want %.0f\n", k, d, want[k]; bad++ } }
		for (k in rwant) { d = r1[k] - r0[k]
			if (d < rwant[k] * 0.999 || d > rwant[k] * 1.001 + 50000) {
				printf "far end %s: PortRcvData +%.0f, want %.0f\n", k, d, rwant[k]; bad++ } }
		printf "%d egress ports checked\n", n
		exit bad > 0 }' "$2" "$3" "$1.egress"
}

# ca_ports: the fake's ports, the CA ports of routes.jsonl as the routes
# name them (HOST:CA:PORT), sorted
ca_ports() {
	jq -r 'select(.kind == "link") | .a, .b | select(.type == "ca") |
		"\(.host):\(.ca):\(.port)"' routes.jsonl | sort -u
}

# --- 1. one round of 8 pairs on 16 HCAs
"$GEN_FATTREE" --radix 8 --leaves 4 --spines 4 --uplinks 4 --hosts-per-leaf 4 \
	--net net --spec spec.csv >/dev/null || sim_fail "gen_fattree"
sim_start net
route_opensm
mapfile -t cas < <(ca_ports)
[ "${#cas[@]}" = 16 ] || sim_fail "routes.jsonl: ${#cas[@]} CA ports, want 16"
for i in 0 1 2 3 4 5 6 7; do
	echo "0 ${cas[i]} ${cas[(i * 5 + 3) % 8 + 8]}"
done >round.pairs
burnin run1 round.pairs
pair_lids run1
egress run1
[ "$(wc -l <run1.flows)" = 8 ] || sim_fail "run1: $(wc -l <run1.flows) pairs, want 8"
# ibsim's counters began at its own MAD traffic: read them now, run again
snapshot run1 before1
burnin run1b round.pairs
pair_lids run1b
cmp -s run1.flows run1b.flows || sim_fail "run1b: the same round moved other figures"
snapshot run1 after1
check_words run1 before1 after1 >check1 || { cat check1 >&2; sim_fail "counters do not follow the model"; }
sim_log "ok: $(tail -1 check1): PortXmitData and the far ends' PortRcvData" \
	"grew by the words the model's flows moved"

# --- 2. an erroring leaf up-link
read -r lid port far fport rest < <(awk -F'|' '$2 ~ /^leaf/ && $3 ~ /^spine/' \
	run1.egress | head -1)
leaf=$(echo "$rest" | cut -d'|' -f2)
[ -n "$leaf" ] || sim_fail "no leaf up-link on the round's paths"
nflows=$(awk -v l="$lid" -v p="$port" '$1 == l && $2 == p' run1.egress | wc -l)
snapshot run1 before2
burnin run2 round.pairs "errors-cable=$leaf:$port@3"
snapshot run1 after2
got=$(awk -v l="$far" -v p="$fport" 'FILENAME == ARGV[1] && $1 == l && $2 == p { a = $5 }
	FILENAME == ARGV[2] && $1 == l && $2 == p { b = $5 } END { print b - a }' before2 after2)
[ "$got" = $((3 * nflows)) ] ||
	sim_fail "errors-cable=$leaf:$port@3: far end SymbolErrorCounter +$got, want $((3 * nflows))"
nerr=$(jq -r 'select(.kind == "pair" and .status != "ok") | .error_completions // 3' run2.jsonl | wc -l)
[ "$nerr" = "$nflows" ] || sim_fail "errors-cable: $nerr pairs failed, want $nflows"
sim_log "ok: errors-cable=$leaf:$port@3: $nflows flows failed," \
	"its far end counted $got symbol errors"
sim_stop

# --- 3. 324 flows in one step (162 pairs, --bidir) on the demo's tree:
# no console update lost. Each CA port sends one flow; a bidir pair's
# record holds both directions, so the sum over all CA ports is checked,
# and that every port sent something.
rm -f ibsim.log
"$GEN_FATTREE" --radix 36 --leaves 18 --spines 8 --uplinks 16 \
	--hosts-per-leaf 18 --net net3 --spec spec3.csv >/dev/null ||
	sim_fail "gen_fattree (demo)"
sim_start net3
route_opensm
mapfile -t cas < <(ca_ports)
[ "${#cas[@]}" = 324 ] || sim_fail "routes.jsonl: ${#cas[@]} CA ports, want 324"
for i in $(seq 0 161); do echo "0 ${cas[i]} ${cas[i + 162]}"; done >big.pairs
BIDIR=--bidir DURATION=0.3 burnin run3 big.pairs
[ "$(jq -c 'select(.kind == "pair" and .dir == "bi")' run3.jsonl | wc -l)" = 162 ] ||
	sim_fail "run3: not 162 bidirectional pairs"
want=$(jq -r 'select(.kind == "pair") | .gbps * 1e9 / 8 * 0.3 / 4' run3.jsonl |
	awk '{ s += $1 } END { printf "%.0f", s }')
got=0 idle=0
for lid in $(jq -r 'select(.kind == "port") | .lid' run3.jsonl); do
	x=$(counter "$lid" 1 PortXmitData -x)
	[ "${x:-0}" -gt 1000000 ] || idle=$((idle + 1))
	got=$((got + ${x:-0}))
done
awk -v g="$got" -v w="$want" 'BEGIN { exit !(g >= w * 0.999 && g <= w * 1.001 + 324 * 50000) }' ||
	sim_fail "run3: the CA ports sent $got words in all, the flows $want"
[ "$idle" = 0 ] || sim_fail "run3: $idle CA ports show no flow"
sim_log "ok: a step of 324 flows: the CA ports' PortXmitData add up to the" \
	"flows' $want words"
sim_log "PASS"
