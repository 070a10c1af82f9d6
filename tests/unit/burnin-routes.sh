#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# `ibproof burnin --dry-run --routes FILE`: the route-aware planner on the
# trees of fixtures/fabric/plan (8 leaves x 4 hosts, 4 spines, routed by
# opensm on ibsim: ftree, ftree with 3 hosts unplugged, minhop; the demo's
# 324-HCA tree, ftree and minhop) and on the 8-node tree's topology + table
# dump. all-pairs has no contended round where the route-blind plan has
# some, nor where minhop loads a cable with 918 pairs (the bound printed),
# and --max-rounds caps it; cover loads all 64 switch-to-switch
# cables in 2 rounds and names the unreachable ones; --coverage and --plan
# write what docs/burnin.md says; bad input is exit 2 with FILE:LINE.
set -u
bin=${1:?usage: burnin-routes.sh IBPROOF FIXTURES}
fx=${2:?usage: burnin-routes.sh IBPROOF FIXTURES}/fabric
p=$fx/plan
dir=$(mktemp -d /tmp/ibproof-routes-XXXXXX)
trap 'rm -rf "$dir"' EXIT
fails=0
passes=0
expect() { # expect RC PATTERN INVENTORY -- ARGS...
	local want=$1 pattern=$2 inv=$3 out rc
	shift 4
	out=$("$bin" burnin --dry-run --inventory "$inv" "$@" 2>&1)
	rc=$?
	if [ "$rc" != "$want" ] || ! grep -qE -- "$pattern" <<<"$out"; then
		echo "FAIL: burnin $*: exit $rc (want $want, /$pattern/), output:"
		echo "$out"
		fails=$((fails + 1))
	else
		echo "ok: burnin $* -> $rc /$pattern/"
		passes=$((passes + 1))
	fi
}
check() { # check WHAT COMMAND...: the command must succeed
	local what=$1
	shift
	if "$@"; then
		echo "ok: $what"
		passes=$((passes + 1))
	else
		echo "FAIL: $what"
		fails=$((fails + 1))
	fi
}
full=$p/tree-inventory.jsonl
part=$p/tree-missing-inventory.jsonl
clean='contended 0 \(in 0 rounds\)'

for order in "--ftree-ca-order $p/tree-ftree.ca-order" ""; do
	# shellcheck disable=SC2086 # $order is two words or none
	expect 0 "^coverage: 31 rounds; switch-to-switch cables 64: loaded 64, $clean" \
		"$full" -- --routes "$p/tree-ftree.records" $order
	# shellcheck disable=SC2086
	expect 0 "^coverage: 3 rounds; switch-to-switch cables 64: loaded 64, $clean, unreachable 0, up-links loaded from one host only 0" \
		"$full" -- --routes "$p/tree-ftree.records" $order --schedule cover
	expect 0 "^identifiable: 128 of 128 cables with flows \(host links included\); not identifiable 0, in 0 groups" \
		"$full" -- --routes "$p/tree-ftree.records" $order --schedule cover
done
expect 0 '^route-blind all-pairs: 31 rounds; .*contended [1-9][0-9]* \(in [1-9]' \
	"$full" -- --routes "$p/tree-ftree.records"
expect 0 "^coverage: 31 rounds; .*loaded 64, $clean" \
	"$full" -- --routes "$p/tree-minhop.records"
expect 0 "^coverage: [23] rounds; .*loaded 64, $clean" \
	"$full" -- --routes "$p/tree-minhop.records" --schedule cover
# the demo's tree (18 hosts, 16 up-links per leaf): a shift cannot keep
# every flow alone; the flows it cannot take go to extra rounds
expect 0 "^coverage: 6[0-9][0-9] rounds; switch-to-switch cables 576: loaded 576, $clean" \
	"$p/demo-inventory.jsonl" -- --routes "$p/demo-ftree.records" \
	--ftree-ca-order "$p/demo-ftree.ca-order"
expect 0 "^coverage: 6[0-9][0-9] rounds; switch-to-switch cables 576: loaded 576, $clean" \
	"$p/demo-inventory.jsonl" -- --routes "$p/demo-ftree.records"
expect 0 '^route-blind all-pairs: 323 rounds; .*contended [1-9][0-9]* \(in [1-9]' \
	"$p/demo-inventory.jsonl" -- --routes "$p/demo-ftree.records"
expect 0 "^coverage: 3 rounds; switch-to-switch cables 576: loaded 576, $clean, unreachable 0, up-links loaded from one host only 0" \
	"$p/demo-inventory.jsonl" -- --routes "$p/demo-ftree.records" \
	--schedule cover
# the demo's tree routed -R minhop: a down-link carries 918 ordered pairs;
# the plan takes as many rounds as keep every flow alone, and says so
demo_minhop() { # demo_minhop RC PATTERN ARGS...
	local rc=$1 pattern=$2
	shift 2
	expect "$rc" "$pattern" "$p/demo-inventory.jsonl" -- \
		--routes "$p/demo-minhop.records" "$@"
}
demo_minhop 0 "^coverage: 9[1-3][0-9] rounds; switch-to-switch cables 576: loaded 432, $clean"
demo_minhop 0 '^all-pairs: lower bound 918 rounds \(busiest cable spine01:1->leaf01:19: 918 ordered pairs routed over it; 324 ports, so at least 323\); this plan 9[1-3][0-9] rounds \(323 shifts \+ [0-9]+ packed\), 0 contended, predicted [0-9]'
# --max-rounds: a fixed window, cables shared past it, said so
demo_minhop 0 '^coverage: 651 rounds; .*contended [1-9][0-9]* \(in [1-9]' \
	--max-rounds 651
demo_minhop 0 '^  --max-rounds 651: [1-9][0-9]* flows share a cable, in [1-9][0-9]* contended rounds \(without the cap: at least 918 rounds, none contended\)$' \
	--max-rounds 651
demo_minhop 2 '^ibproof: error: --max-rounds 322: all-pairs of these ports takes 323 rounds of shifts .* give at least 323$' \
	--max-rounds 322
demo_minhop 2 "--max-rounds: expected an integer from 1 to [0-9]+, got '0'" \
	--max-rounds 0
demo_minhop 2 "--max-rounds: expected an integer from 1 to [0-9]+, got '9x'" \
	--max-rounds 9x
demo_minhop 2 '--max-rounds goes with --routes FILE and --schedule all-pairs' \
	--max-rounds 700 --schedule cover
expect 2 '--max-rounds goes with --routes FILE and --schedule all-pairs' \
	"$full" -- --max-rounds 40
"$bin" burnin --dry-run --inventory "$p/demo-inventory.jsonl" \
	--routes "$p/demo-minhop.records" --coverage "$dir/mh.jsonl" \
	--max-rounds 700 >/dev/null 2>&1
check "--coverage: all-pairs' bound, busiest cable, rounds and cap" \
	grep -qE '"all_pairs":\{"lower_bound":918,"busiest_cable":"spine01:1->leaf01:19","busiest_flows":918,"rounds":700,"shift_rounds":323,"extra_rounds":377,"max_rounds":700,"shared_flows":[1-9][0-9]*,"predicted_s":[0-9.]+\}' \
	<(head -1 "$dir/mh.jsonl")

# hosts unplugged: the holes kept, the down-links to them named
expect 0 "^coverage: 31 rounds; .*loaded 61, $clean, unreachable 3" \
	"$part" -- --routes "$p/tree-missing.records" \
	--ftree-ca-order "$p/tree-missing.ca-order"
expect 0 "^coverage: [3-6] rounds; .*loaded 61, $clean, unreachable 3" \
	"$part" -- --routes "$p/tree-missing.records" --schedule cover
expect 0 "^identifiable: 119 of 119 cables with flows" \
	"$part" -- --routes "$p/tree-missing.records" --schedule cover
# a plan of one pair tells none of its 4 cables apart, and says which pair
# would
printf '0 node001:mlx5_0:1 node032:mlx5_0:1\n' >"$dir/one.plan"
expect 0 "^identifiable: 0 of 4 cables with flows .*not identifiable 4, in 1 groups" \
	"$full" -- --routes "$p/tree-ftree.records" --schedule "pairs:$dir/one.plan"
expect 0 "^  not identifiable: .* \(unplanned: .*; node0[0-9][0-9] mlx5_0:1 -> node0[0-9][0-9] mlx5_0:1 would\)" \
	"$full" -- --routes "$p/tree-ftree.records" --schedule "pairs:$dir/one.plan"
expect 0 '^  not-tested spine04:2->leaf02:8: no host traffic can reach it$' \
	"$part" -- --routes "$p/tree-missing.records" --schedule cover
# inventory ports the routes do not have: named, still planned
expect 0 'node006:mlx5_0:1 \(port GUID 0x0008f10400000051\): not a CA port of the routes' \
	"$full" -- --routes "$p/tree-missing.records"
expect 0 '^routes: 29 of 32 inventory ports .*\(3 not in them' \
	"$full" -- --routes "$p/tree-missing.records"
# the offline inputs: topology + table dump
expect 0 "^coverage: 3 rounds; switch-to-switch cables 24: loaded 8, $clean, unreachable 16" \
	"$p/small-inventory.jsonl" -- --routes "$fx/routes.topo" \
	--lfts "$fx/routes-lfts.dump"

# --coverage and --plan
"$bin" burnin --dry-run --inventory "$part" --routes "$p/tree-missing.records" \
	--schedule cover --coverage "$dir/cov.jsonl" --plan "$dir/plan.txt" \
	>"$dir/out.txt" 2>&1
check "--coverage: the summary first" \
	grep -q '^{"kind":"coverage","schedule":"cover","rounds":[3-6],' \
	<(head -1 "$dir/cov.jsonl")
check "--coverage: one line per directed cable" \
	test "$(grep -c '"kind":"coverage-cable"' "$dir/cov.jsonl")" = 122
check "--coverage: the 119 cables with flows identifiable, the summary's count" \
	test "$(grep -c '"identifiable":true' "$dir/cov.jsonl")" = 119 -a \
	"$(head -1 "$dir/cov.jsonl" | grep -c '"identifiable":119,"not_identifiable":0')" = 1
check "--coverage: 3 not-tested findings" \
	test "$(grep -c '"category":"not-tested"' "$dir/cov.jsonl")" = 3
pairs=$(sed -n 's/^burnin plan: .* rounds, \([0-9]*\) pairs.*/\1/p' "$dir/out.txt")
check "--plan: one line per pair ($pairs)" \
	test "$(grep -vc '^#' "$dir/plan.txt")" = "$pairs"
check "--plan: ROUND HOST:CA:PORT HOST:CA:PORT" \
	grep -qE '^0 node[0-9]+:mlx5_0:1 node[0-9]+:mlx5_0:1$' "$dir/plan.txt"

# a run: the cables no present host reaches are not-tested findings (the
# fake's ports are not in the routes: all 24 switch-to-switch cables)
"$bin" burnin --transport fake --fake ports=4 --duration 0.1 --warmup 0 \
	--retests 0 --routes "$p/small.records" --schedule random:1 \
	--records "$dir/run.jsonl" >"$dir/run.out" 2>&1
check "run: 24 not-tested cable findings in the records" \
	test "$(grep -c '"category":"not-tested","subject":{"a":{"node":"[a-z0-9]*","guid":"0x[0-9a-f]*","port":[0-9]*,"type":"switch"},"b":' "$dir/run.jsonl")" = 24

# bad input
expect 2 'go with --routes FILE' "$full" -- --lfts x
expect 2 'cover plans over the routes: give --routes FILE' "$full" -- \
	--schedule cover
printf '0x0001\tnode001 mlx5_0\nnot a lid\n' >"$dir/order"
expect 2 "$dir/order:2: expected \"0xLID<TAB>NAME\"" "$full" -- \
	--routes "$p/tree-ftree.records" --ftree-ca-order "$dir/order"
head -3 "$p/tree-ftree.records" >"$dir/bad.records"
sed -n 4p "$p/tree-ftree.records" | sed 's/"guid":"0x[0-9a-f]*"/"guid":"0x0"/' >>"$dir/bad.records"
expect 2 "$dir/bad.records:4: expected a link end" "$full" -- \
	--routes "$dir/bad.records"

expect 2 '^ibproof: error: --routes: /nonexistent/routes: ' "$full" -- \
	--routes /nonexistent/routes

echo "$passes passed, $fails failed"
[ "$fails" = 0 ]
