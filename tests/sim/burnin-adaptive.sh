#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Issue 33: adaptive routing as the planner sees it, on ibsim (opensm ftree).
#   1. `fabric routes` asks every switch for AdaptiveRoutingInfo; ibsim
#      answers no vendor attribute, so every lft record says unknown (never
#      off), one summary line says so, and the exit code is today's (0);
#   2. the routes with AR on for one spine (the lft record edited here, as
#      a switch answering AR enabled for every SL would be recorded): cover
#      on SL 0 is refused (exit 2) naming that spine and the SLs it would
#      route statically (none: it is on for all);
#   3. the same spine with AR only on SLs 1-15: cover on --sl 0 plans, on
#      --sl 3 is refused;
#   4. --allow-adaptive: the plan is made and its certificate says
#      contention_free false with the adaptive flows counted.
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
sim_require "${IBPROOF:?}" "${GEN_FATTREE:?}" jq
IBPROOF=$(realpath "$IBPROOF")
GEN_FATTREE=$(realpath "$GEN_FATTREE")
sim_setup
export IBPROOF_HOST=simhost

sim_tree ftree tree --radix 8 --leaves 4 --spines 4 --uplinks 4 --hosts-per-leaf 4
n_sw=$(jq -s '[.[] | select(.kind == "lft")] | length' tree.jsonl)
n_unknown=$(jq -s '[.[] | select(.kind == "lft" and .adaptive_routing == "unknown")] | length' tree.jsonl)
[ "$n_sw" -gt 0 ] && [ "$n_sw" = "$n_unknown" ] ||
	sim_fail "$n_unknown of $n_sw switches unknown (ibsim answers no AR)"
[ "$(grep -c 'adaptive routing:' tree.rt)" = 1 ] ||
	sim_fail "not one AR summary line: $(grep 'adaptive routing' tree.rt)"
grep -q "0 on, 0 off, $n_sw unknown" tree.rt ||
	sim_fail "summary: $(grep 'adaptive routing' tree.rt)"

spine=$(jq -r 'select(.kind == "lft") | .node' tree.jsonl | grep -m1 spine)
[ -n "$spine" ] || sim_fail "no spine in the routes"
# ar_routes FILE SLS: the routes with $spine's AR on for SLS (a JSON array)
ar_routes() {
	jq -c --arg s "$spine" --argjson sls "$2" 'if .kind == "lft" and .node == $s
		then .adaptive_routing = "on" | .ar = {capable: true,
			enabled: true, sls: $sls, transports_excluded: []}
		else . end' tree.jsonl >"$1"
}
ar_routes ar-all.jsonl "$(jq -nc '[range(16)]')"
fake="routes=$PWD/tree.jsonl"
plan() { # plan OUT ROUTES ARGS...: a dry-run cover plan; its exit code
	local out=$1 routes=$2
	shift 2
	"$IBPROOF" burnin --dry-run --transport fake --fake "$fake" \
		--routes "$routes" --schedule cover "$@" >"$out" 2>&1
}

plan base.out tree.jsonl --coverage base.cov
rc=$?
[ "$rc" = 0 ] || sim_fail "cover on the read routes: exit $rc: $(tail -3 base.out)"
grep -q "adaptive routing on SL 0: 0 of" base.out ||
	sim_fail "dry run does not count adaptive flows: $(grep adaptive base.out)"
[ "$(jq -r 'select(.kind == "coverage") | .contention_free' base.cov)" = true ] ||
	sim_fail "the AR-unknown plan is not contention-free in its certificate"

plan all.out ar-all.jsonl
rc=$?
[ "$rc" = 2 ] || sim_fail "AR on $spine for every SL: exit $rc, not 2"
grep -q "$spine" all.out || sim_fail "the refusal does not name $spine: $(cat all.out)"
grep -q "here: none" all.out || sim_fail "the refusal does not say no SL is static"

ar_routes ar-sl.jsonl "$(jq -nc '[range(1;16)]')"
plan sl0.out ar-sl.jsonl --sl 0
rc=$?
[ "$rc" = 0 ] || sim_fail "AR off for SL 0: cover on --sl 0 exit $rc: $(tail -3 sl0.out)"
plan sl3.out ar-sl.jsonl --sl 3
rc=$?
[ "$rc" = 2 ] || sim_fail "AR on for SL 3: cover on --sl 3 exit $rc, not 2"
grep -q "here: 0)" sl3.out || sim_fail "the refusal does not offer SL 0: $(cat sl3.out)"

plan allow.out ar-all.jsonl --allow-adaptive --coverage allow.cov
rc=$?
[ "$rc" = 0 ] || sim_fail "--allow-adaptive: exit $rc: $(tail -3 allow.out)"
cf=$(jq -r 'select(.kind == "coverage") | "\(.contention_free) \(.adaptive_flows)"' allow.cov)
case "$cf" in
"false "[1-9]*) ;;
*) sim_fail "--allow-adaptive certificate: contention_free/adaptive_flows $cf" ;;
esac
sim_log "ok: $n_sw switches AR unknown; $spine AR on: refused, on SLs 1-15:" \
	"SL 0 planned, SL 3 refused; --allow-adaptive: $cf"
