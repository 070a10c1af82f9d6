#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Issue 16: burnin's load proof end to end on ibsim, routed by opensm with
# the engine given as $1 (ftree, minhop). A two-level tree of 16 HCAs;
# `fabric routes` gives the routes; the planner's cover plan (--dry-run
# --plan) gives the flows; burnin runs them (threads bootstrap, the fake
# transport on the routes' CA ports, its flow model driving ibsim's PMA
# counters through the console) with --routes and --prove-load, rank 0
# reading the counters of every loaded cable through umad2sim:
#   1. every reachable switch-to-switch cable of the certificate has a
#      cable-load record `loaded`, no cable is anything but loaded, no
#      cable-not-loaded finding, exit 0; the run's --coverage certificate
#      holds the plan and then the same cable-load lines;
#   2. the same plan without the console (the counters do not move): every
#      cable is not-loaded, one finding each, exit 1 (the proof can fail);
#   3. errors-cable on a leaf up-link: the symbol errors at its far end are
#      in that cable's cable-load records (errors_to), and in no other's,
#      and over their limit by the counter limits (errors_over_to).
# The cover plan's rounds are full-duplex (each port sends once and
# receives once) and burnin runs them as they are.
set -u
engine=${1:?engine}
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
sim_require "${IBPROOF:?}" "${GEN_FATTREE:?}" jq
IBPROOF=$(realpath "$IBPROOF")
GEN_FATTREE=$(realpath "$GEN_FATTREE")
sim_setup
export IBPROOF_HOST=simhost

sim_tree "$engine" tree --radix 8 --leaves 4 --spines 4 --uplinks 4 --hosts-per-leaf 4
fake="routes=$PWD/tree.jsonl"

"$IBPROOF" burnin --dry-run --transport fake --fake "$fake" \
	--routes tree.jsonl --schedule cover --plan plan.txt \
	--coverage cov.jsonl >dry.out 2>&1 || sim_fail "dry run: $(tail -3 dry.out)"
grep -q '^#.*duplex' plan.txt || sim_fail "the cover plan is not full-duplex"
jq -r 'select(.kind == "coverage-cable" and .inter_switch and .reachable) |
	.cable' cov.jsonl | sort >reachable.txt
[ -s reachable.txt ] || sim_fail "the certificate names no reachable cable"

# run LABEL FAKE: burnin on the cover plan with the proof; its exit code
run() {
	sim_client "$IBPROOF" burnin --transport fake --no-progress \
		--warmup 0.1 --duration 1 --retests 0 --timeout 60 \
		--fake "$2" --routes tree.jsonl --prove-load \
		--schedule pairs:plan.txt --records "$1.jsonl" \
		--coverage "$1.cert" >"$1.out" 2>&1
}
loads() { jq -r "select(.kind == \"cable-load\") | $2" "$1.jsonl"; }

run proven "$fake;sim-console=$PWD/console"
rc=$?
[ "$rc" = 0 ] || { tail "proven.out" >&2; sim_fail "proven: burnin exit $rc"; }
loads proven 'select(.status == "loaded" and .inter_switch) | .cable' |
	sort -u >loaded.txt
missing=$(comm -23 reachable.txt loaded.txt | wc -l)
[ "$missing" = 0 ] || {
	comm -23 reachable.txt loaded.txt | head >&2
	sim_fail "$missing reachable cables not proven loaded"
}
other=$(loads proven 'select(.status != "loaded") | .cable + " " + .status' | wc -l)
[ "$other" = 0 ] || sim_fail "$other cable-load records not loaded"
[ "$(jq -r 'select(.category == "cable-not-loaded")' proven.jsonl)" = "" ] ||
	sim_fail "cable-not-loaded findings in the proven run"
# The certificate: the plan's lines, then the proof's.
jq -c 'select(.kind == "coverage")' proven.cert | grep -q . ||
	sim_fail "the certificate has no coverage line"
[ "$(jq -c 'select(.kind == "cable-load")' proven.cert)" = \
	"$(jq -c 'select(.kind == "cable-load")' proven.jsonl)" ] ||
	sim_fail "the certificate's cable-load lines differ from the records'"
# issue 32: the end record's scope counts them tested, none untested
cables_scope() { jq -r 'select(.kind == "run" and .event == "end") |
	.scope.cables | "\(.tested) \(.not_tested)"' "$1.jsonl"; }
[ "$(cables_scope proven)" = "$(wc -l <reachable.txt) 0" ] ||
	sim_fail "proven: scope cables '$(cables_scope proven)', want $(wc -l <reachable.txt) tested, 0 not"
sim_log "ok: $engine: $(wc -l <reachable.txt) reachable switch cables," \
	"all proven loaded in $(loads proven .cable | wc -l) cable-load records"

run unproven "$fake"
rc=$?
[ "$rc" = 1 ] || { tail unproven.out >&2; sim_fail "unproven: exit $rc, want 1"; }
n=$(loads unproven .cable | wc -l)
nl=$(loads unproven 'select(.status == "not-loaded") | .cable' | wc -l)
nf=$(jq -r 'select(.category == "cable-not-loaded") | .message' \
	unproven.jsonl | wc -l)
[ "$n" -gt 0 ] && [ "$nl" = "$n" ] && [ "$nf" = "$n" ] ||
	sim_fail "unproven: $nl of $n cables not-loaded, $nf findings"
# a cable proven not loaded was tested (and failed): not a not-tested one
[ "$(cables_scope unproven)" = "$(wc -l <reachable.txt) 0" ] ||
	sim_fail "unproven: scope cables '$(cables_scope unproven)'"
sim_log "ok: $engine: without counters that move, all $n cables not-loaded"

up=$(grep '^leaf' reachable.txt | head -1)
run erroring "$fake;sim-console=$PWD/console;errors-cable=${up%%->*}@3"
rc=$?
[ "$rc" -le 1 ] || { tail erroring.out >&2; sim_fail "erroring: exit $rc"; }
errs() { loads erroring "select($1) | .errors_to.SymbolErrorCounter // 0" |
	awk '{ s += $1 } END { print s + 0 }'; }
on=$(errs ".cable == \"$up\"") off=$(errs ".cable != \"$up\"")
[ "$on" -gt 0 ] && [ "$off" = 0 ] ||
	sim_fail "errors-cable $up: $on symbol errors in its records, $off elsewhere"
# Issue 35: judged by the counter limits with the bits of their step (3
# errors a flow over a step of seconds: a BER far over 1e-12), they are
# over their limit: errors_over_to holds them all.
over=$(loads erroring "select(.cable == \"$up\") | .errors_over_to.SymbolErrorCounter // 0" |
	awk '{ s += $1 } END { print s + 0 }')
[ "$over" = "$on" ] ||
	sim_fail "errors-cable $up: $over of its $on symbol errors over their limit"
sim_log "PASS: $engine: errors-cable $up: $on symbol errors at its far end, in its records only, all over their limit"
