#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# mpi tier, issue 16's acceptance: burnin --routes over 16 mpirun ranks on
# localhost, the fake with the routes of an ibsim ftree fabric of 16 HCAs
# (tests/fixtures/fake-routes/ftree-16.jsonl: 4 leaves of 4 hosts, 4
# spines; the fake's ports carry the routes' names: node001:mlx5_0:1 on
# leaf01:1). Full-duplex rounds through the MPI bootstrap; every flow of a
# step meets the others in the job's registry.
#   burnin-routes-mpi.sh IBPROOF FIXTURES cover      clean fabric, --schedule
#       cover: 3 rounds (the third tells each host link from the down-link
#       above it, issue 31), every switch-to-switch cable loaded, 0
#       contended, every cable identifiable (--coverage), 48 pairs all ok,
#       exit 0
#   burnin-routes-mpi.sh IBPROOF FIXTURES all-pairs  --dry-run: route-aware
#       all-pairs 0 contended cables beside the route-blind count
#   burnin-routes-mpi.sh IBPROOF FIXTURES slow-up    slow-cable on
#       leaf01:5 (leaf01 -> spine01): that cable blamed with both ends, no HCA
#   burnin-routes-mpi.sh IBPROOF FIXTURES slow-hca   slow=node001:mlx5_0:1:
#       that HCA, no cable
#   burnin-routes-mpi.sh IBPROOF FIXTURES slow-down  slow-cable on
#       spine01:1 (spine01 -> leaf01): the cable, or the ambiguous finding
#       naming the cable and the port behind it, never the HCA alone
#   burnin-routes-mpi.sh IBPROOF FIXTURES ambiguous  slow-cable on
#       spine01:1 again, but node001 only ever receives, from the
#       other leaves, all of it down that cable (ftree: one host's traffic
#       per down-link), and no retest: no pair separates the cable from
#       node001's port, so cable-or-port names both; not the HCA alone
#   burnin-routes-mpi.sh IBPROOF FIXTURES cover-32   cover over 32 ranks on
#       the planner's ftree fixture (tests/fixtures/fabric/plan/
#       tree-ftree.records: 8 leaves of 4 hosts, 4 spines): 3 rounds, 64
#       cables loaded, 0 contended, 96 pairs ok
#   burnin-routes-mpi.sh IBPROOF FIXTURES slow-up-32 the same with
#       slow-cable on leaf01:5: that cable, no HCA
# Every case with pair records then checks that `ibproof report` on them
# blames the same ports, cables and ambiguous cables (tests/blamed-ports.sh).
set -u
usage="usage: burnin-routes-mpi.sh IBPROOF FIXTURES cover|all-pairs|slow-up|slow-hca|slow-down|ambiguous|cover-32|slow-up-32"
bin=${1:?$usage}
fixtures=${2:?$usage}
case=${3:?$usage}
job=mpitest-routesmpi
. "$(dirname "$0")/fake-routes-lib.sh"
rec=$dir/records.jsonl
np=16 # ranks, one per fake port: the CA ports of $routes
case $case in *-32)
	routes=$fixtures/fabric/plan/tree-ftree.records
	np=32
	;;
esac
q() { jq -r "$@" 2>/dev/null; } # q FILTER FILE: jq, quiet on a missing file

run() { # run EXTRA_FAKE ARGS...: 16 ranks, one per fake port
	local spec="routes=$routes${1:+;$1}"
	shift
	rm -f "$dir"/rc.*
	start=$(date +%s)
	timeout 120 mpirun --oversubscribe --mca orte_enable_recovery 1 -np "$np" \
		-x IBPROOF_HOST -x IBP_FAKE_JOB \
		sh -c '"$0" "$@"; echo $? > '"$dir"'/rc.$OMPI_COMM_WORLD_RANK' \
		"$bin" burnin --transport fake --fake "$spec" --routes "$routes" \
		--warmup 0 --duration 0.3 --no-progress --timeout 20 --no-prove-load \
		--records "$rec" "$@" 2>&1 | grep -v 'PMIX ERROR' | tee "$dir/out"
	mpirc=${PIPESTATUS[0]}
	echo "mpirun exit $mpirc after $(($(date +%s) - start))s; rank 0 exit $(cat "$dir/rc.0" 2>/dev/null)"
	check "mpirun finished" test "$mpirc" != 124
}
findings() { # findings CATEGORY: how many fail findings of CATEGORY
	q --arg c "$1" 'select(.kind == "finding" and .severity == "fail" and .category == $c) | 1' "$rec" | wc -l
}
# the cable's two ends in a finding: "NODE:PORT NODE:PORT"
ends() {
	q --arg c "$1" 'select(.kind == "finding" and .category == $c) |
		"\(.subject.a.node):\(.subject.a.port) \(.subject.b.node):\(.subject.b.port)"' "$rec"
}
cover_pairs() { # 3 rounds of np pairs, every pair measured ok
	check "$((3 * np)) pairs, all measured ok" \
		test "$(q 'select(.kind == "pair" and .status == "ok") | 1' "$rec" | wc -l)" = $((3 * np))
	check "3 rounds of $np pairs" test "$(q 'select(.kind == "pair") | .round' "$rec" |
		sort | uniq -c | awk -v n="$np" '$1 == n' | wc -l)" = 3
}

case $case in
cover | cover-32)
	run '' --schedule cover --coverage "$dir/cert.jsonl"
	check "rank 0 exit 0 (nothing wrong)" test "$(cat "$dir/rc.0" 2>/dev/null)" = 0
	cover_pairs
	check "the certificate: 3 rounds, $((2 * np)) switch-to-switch cables, all loaded, 0 contended" \
		test "$(q 'select(.kind == "coverage") | "\(.rounds) \(.inter_switch) \(.loaded) \(.contended_cables) \(.unreachable)"' \
		"$dir/cert.jsonl")" = "3 $((2 * np)) $((2 * np)) 0 0"
	check "the certificate: all $((4 * np)) cables with flows identifiable (host links included)" \
		test "$(q 'select(.kind == "coverage") | "\(.cables_with_flows) \(.not_identifiable)"' \
		"$dir/cert.jsonl")" = "$((4 * np)) 0"
	check "every switch-to-switch cable loaded in a round, alone" \
		test "$(q 'select(.kind == "coverage-cable" and .inter_switch and .reachable
			and (.rounds | length) > 0 and .contended == false) | 1' "$dir/cert.jsonl" | wc -l)" = $((2 * np))
	check "no finding" test "$(q 'select(.kind == "finding") | 1' "$rec" | wc -l)" = 0
	;;
all-pairs)
	run '' --schedule all-pairs --dry-run
	check "rank 0 exit 0" test "$(cat "$dir/rc.0" 2>/dev/null)" = 0
	check "route-aware all-pairs: 15 rounds, 32 cables loaded, 0 contended" \
		grep -q '^coverage: 15 rounds; switch-to-switch cables 32: loaded 32, contended 0 (in 0 rounds)' "$dir/out"
	check "beside the route-blind all-pairs, which contends" \
		grep -Eq '^route-blind all-pairs: 15 rounds; switch-to-switch cables 32: loaded 32, contended [1-9]' "$dir/out"
	check "no pair was run" test ! -s "$rec" -o "$(q 'select(.kind == "pair") | 1' "$rec" | wc -l)" = 0
	;;
slow-up | slow-up-32)
	run 'slow-cable=leaf01:5@0.5' --schedule cover
	check "rank 0 exit 1 (problems found)" test "$(cat "$dir/rc.0" 2>/dev/null)" = 1
	cover_pairs
	check "one bad-cable finding" test "$(findings bad-cable)" = 1
	check "it names leaf01:5 and spine01:1" test "$(ends bad-cable)" = "leaf01:5 spine01:1"
	check "no HCA blamed" test "$(findings low-bandwidth)" = 0
	check "no ambiguous finding" test "$(findings cable-or-port)" = 0
	check "the summary names the cable (not 'findings: none')" \
		grep -q '^  fail bad-cable: cable leaf01:5->spine01:1: 2 of 2 pairs through it bad' "$dir/out"
	check "the summary does not say none" test "$(grep -c '^  none$' "$dir/out")" = 0
	;;
slow-hca)
	run 'slow=node001:mlx5_0:1@0.5' --schedule cover
	check "rank 0 exit 1 (problems found)" test "$(cat "$dir/rc.0" 2>/dev/null)" = 1
	check "one low-bandwidth finding, node001" test "$(q 'select(.kind == "finding" and
		.severity == "fail" and .category == "low-bandwidth") | .subject.host' "$rec")" = node001
	check "no cable blamed" test "$(findings bad-cable)" = 0
	check "no ambiguous finding" test "$(findings cable-or-port)" = 0
	;;
slow-down)
	run 'slow-cable=spine01:1@0.5' --schedule cover
	check "rank 0 exit 1 (problems found)" test "$(cat "$dir/rc.0" 2>/dev/null)" = 1
	cover_pairs
	check "one bad-cable or cable-or-port finding" \
		test "$(($(findings bad-cable) + $(findings cable-or-port)))" = 1
	check "it names spine01:1 and leaf01:5" \
		test "$(ends bad-cable)$(ends cable-or-port)" = "spine01:1 leaf01:5"
	check "no HCA blamed alone" test "$(findings low-bandwidth)" = 0
	check "the summary names the cable" \
		grep -Eq '^  fail (bad-cable|cable-or-port): cable spine01:1->leaf01:5' "$dir/out"
	check "the summary does not say none" test "$(grep -c '^  none$' "$dir/out")" = 0
	;;
ambiguous)
	# node005, node009, node013 on leaf02-04, each fine on a pair of its
	# own; node001 their only target
	cat >"$dir/pairs" <<'PAIRS'
0 node005:mlx5_0:1 node001:mlx5_0:1
0 node009:mlx5_0:1 node002:mlx5_0:1
1 node009:mlx5_0:1 node001:mlx5_0:1
1 node005:mlx5_0:1 node006:mlx5_0:1
2 node013:mlx5_0:1 node001:mlx5_0:1
2 node005:mlx5_0:1 node010:mlx5_0:1
3 node013:mlx5_0:1 node002:mlx5_0:1
PAIRS
	run 'slow-cable=spine01:1@0.5' --schedule "pairs:$dir/pairs" --retests 0
	check "rank 0 exit 1 (problems found)" test "$(cat "$dir/rc.0" 2>/dev/null)" = 1
	check "7 pairs, all measured ok" \
		test "$(q 'select(.kind == "pair" and .status == "ok") | 1' "$rec" | wc -l)" = 7
	check "one cable-or-port finding, no bad-cable" \
		test "$(findings cable-or-port) $(findings bad-cable)" = "1 0"
	check "it names spine01:1 and leaf01:5" test "$(ends cable-or-port)" = "spine01:1 leaf01:5"
	check "and node001's port behind it" test "$(q 'select(.kind == "finding" and
		.category == "cable-or-port") | .evidence.or_port.host' "$rec")" = node001
	check "node001 not blamed alone" test "$(findings low-bandwidth)" = 0
	check "the summary names both" \
		grep -q '^  fail cable-or-port: cable spine01:1->leaf01:5 or the HCA port node001:mlx5_0:1 behind it' "$dir/out"
	;;
*) echo "unknown case $case"; exit 2 ;;
esac
if q 'select(.kind == "pair") | 1' "$rec" | grep -q 1; then
	check "report blames exactly the ports and cables burnin blamed" \
		"$(dirname "$0")/../blamed-ports.sh" "$bin" "$rec"
fi
echo "$fails failure(s)"
[ "$fails" = 0 ]
