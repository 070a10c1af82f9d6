#!/usr/bin/env bash
# mpi tier for burnin (fake transport, localhost, shared memory only):
#   burnin-mpi.sh IBPROOF slow-port   8 ranks, a planted slow port: only it is blamed
#   burnin-mpi.sh IBPROOF dead-rank   8 ranks, one SIGKILLed mid-run: the others
#                                     finish, its pairs are not-tested, in time
#   burnin-mpi.sh IBPROOF late-root   rank 0's own pair overruns the step
#                                     deadline: nobody's result is lost
#   burnin-mpi.sh IBPROOF slow-teardown a rank's endpoint teardown blocks past
#                                     the step deadline: nothing is late or lost
#   burnin-mpi.sh IBPROOF dead-root   rank 0 SIGKILLed: the others give up
#                                     in time and end the job
#   burnin-mpi.sh IBPROOF late-worker rank 3's test overruns the step: rank 0
#                                     drops it and tells it so; it leaves
#                                     quietly instead of ending the job
#   burnin-mpi.sh IBPROOF degraded    8 ranks, one port trained to 2 of 4 lanes:
#                                     its pairs look fine at its own rate,
#                                     it alone is degraded-width
#   burnin-mpi.sh IBPROOF undriven    10 ports, 8 ranks: a launch error (exit
#                                     2) naming the 2 ports left without a
#                                     rank, before any traffic
#   burnin-mpi.sh IBPROOF sigusr1     SIGUSR1 to mpirun mid-step: every rank
#                                     finishes the step, the records say
#                                     interrupted, exit 3
#   burnin-mpi.sh IBPROOF node-fine   node:h3 (8 hosts of one port each): a
#                                     healthy target passes, the unused
#                                     references are not findings
#   burnin-mpi.sh IBPROOF node-slow   node:h3 with h3's port slow: retests
#                                     prove its references, it alone is blamed
#   burnin-mpi.sh IBPROOF duplex      16 ranks, shift: 15 full-duplex rounds
#                                     (each rank initiator and target at
#                                     once) cover all 240 ordered pairs; a
#                                     slow port alone is blamed; a rank
#                                     killed mid-step costs its own pairs
#                                     only; --bidir with shift is refused
#                                     (exit 2)
# Every case with pair records then checks that `ibproof report` on them
# blames exactly the ports burnin blamed (tests/blamed-ports.sh).
set -u
bin=${1:?usage: burnin-mpi.sh IBPROOF slow-port|dead-rank|late-root|slow-teardown|dead-root|late-worker|degraded|undriven|sigusr1|node-fine|node-slow|duplex}
case=${2:?usage: burnin-mpi.sh IBPROOF slow-port|dead-rank|late-root|slow-teardown|dead-root|late-worker|degraded|undriven|sigusr1|node-fine|node-slow|duplex}
command -v mpirun >/dev/null || { echo "SKIP: no mpirun"; exit 77; }
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_btl=self,vader OMPI_MCA_oob_tcp_if_include=lo
export IBPROOF_HOST=mpitest
dir=$(mktemp -d /tmp/ibproof-mpi-XXXXXX)
trap 'rm -rf "$dir"' EXIT
fails=0
check() { # check DESCRIPTION COMMAND...
	local what=$1
	shift
	if "$@"; then echo "ok: $what"; else echo "FAIL: $what"; fails=$((fails + 1)); fi
}
count() { grep -c -- "$1" "$dir/records.jsonl" || true; }

# Each rank's exit status lands in rc.RANK: with orte_enable_recovery,
# mpirun's own status does not carry it. HOST_PER_RANK=1: rank r plays host
# hr with one port, fake<r> (all ranks share localhost's fake ports).
export HOST_PER_RANK=0
np=8
run() { # run FAKE_SPEC LIMIT_S ARGS...
	local spec=$1 limit=$2
	shift 2
	start=$(date +%s)
	timeout "$limit" mpirun --oversubscribe --mca orte_enable_recovery 1 -np "$np" \
		-x IBP_FAKE="$spec" -x IBPROOF_HOST -x HOST_PER_RANK \
		sh -c '[ "$HOST_PER_RANK" != 1 ] || export IBPROOF_HOST=h$OMPI_COMM_WORLD_RANK
		"$0" "$@"; echo $? > '"$dir"'/rc.$OMPI_COMM_WORLD_RANK' \
		"$bin" burnin --transport fake --warmup 0 --duration 0.3 --no-progress \
		--records "$dir/records.jsonl" "$@" 2>&1 | grep -v 'PMIX ERROR' | tee "$dir/out"
	mpirc=${PIPESTATUS[0]}
	elapsed=$(( $(date +%s) - start ))
	echo "mpirun exit $mpirc after ${elapsed}s; rank 0 exit $(cat "$dir/rc.0" 2>/dev/null)"
}

case $case in
slow-port)
	run 'ports=8;slow=fake3:1@0.5' 120
	check "mpirun finished" test "$mpirc" != 124
	check "rank 0 exit 1 (problems found)" test "$(cat "$dir/rc.0")" = 1
	check "28 pairs, all measured ok" test "$(count '"kind":"pair".*"status":"ok"')" = 28
	check "7 pairs of fake3 under the floor" test "$(grep '"kind":"pair"' "$dir/records.jsonl" | grep '"ca":"fake3"' | grep -c '"gbps":47.5')" = 7
	check "exactly one fail finding" test "$(count '"severity":"fail"')" = 1
	check "the finding blames fake3, low-bandwidth" \
		grep -q '"severity":"fail","category":"low-bandwidth","subject":{"host":"mpitest","ca":"fake3"' "$dir/records.jsonl"
	;;
dead-rank)
	# fake5's process is SIGKILLed in its 2nd test; deadline per step:
	# duration 0.3 + stall 1 + 3 x timeout 2 = 7.3 s
	run 'ports=8;die=fake5:1@2' 90 --timeout 2 --stall 1 --retests 0
	check "mpirun finished within the deadline" test "$mpirc" != 124
	check "run took under 60 s" test "$elapsed" -lt 60
	survivors=0
	for r in 0 1 2 3 4 6 7; do
		[ "$(cat "$dir/rc.$r" 2>/dev/null)" = "$([ $r = 0 ] && echo 1 || echo 0)" ] &&
			survivors=$((survivors + 1))
	done
	check "the 7 other ranks finished (rank 0 exit 1, the others 0)" test "$survivors" = 7
	check "rank 5 was killed (137)" test "$(cat "$dir/rc.5" 2>/dev/null)" = 137
	check "28 pair records" test "$(count '"kind":"pair"')" = 28
	check "22 ok: every pair without fake5" test "$(count '"status":"ok"')" = 22
	check "fake5's other 6 pairs are not-tested" \
		test "$(grep '"status":"not-tested"' "$dir/records.jsonl" | grep -c '"ca":"fake5"')" = 6
	check "a not-tested finding for fake5 only" \
		test "$(count '"category":"not-tested"')" = 1
	check "it names fake5" grep -q '"category":"not-tested","subject":{"host":"mpitest","ca":"fake5"' "$dir/records.jsonl"
	check "nobody blamed for bandwidth" test "$(count '"category":"low-bandwidth"')" = 0
	check "a run end record" grep -q '"event":"end"' "$dir/records.jsonl"
	;;
late-root)
	# rank 0's own pair (fake0) overruns the step deadline: its first test
	# blocks 10 s (a call stuck in the kernel) where the step deadline is
	# 0.3 + 1 + 3 x 2 = 7.3 s. Rank 0 gathers late; the results the others
	# sent meanwhile still count.
	run 'ports=8;hang=fake0:1@1;hang-s=10' 120 --timeout 2 --stall 1 --retests 0
	check "mpirun finished" test "$mpirc" != 124
	check "rank 0 exit 0 (nothing wrong)" test "$(cat "$dir/rc.0")" = 0
	check "28 pairs, all measured ok" test "$(count '"kind":"pair".*"status":"ok"')" = 28
	check "no rank lost" test "$(count '"status":"not-tested"')" = 0
	check "the watchdog named the stuck stage" \
		grep -q 'rank 0 (mpitest:fake0:1): the test took 1[0-9]\.[0-9] s' "$dir/out"
	;;
slow-teardown)
	# fake3's first endpoint teardown blocks 10 s, past the 7.3 s step
	# deadline (seen on Soft-RoCE): the result went to rank 0 before it,
	# and the teardown runs on the reaper thread, so rank 3 is neither
	# late nor lost and its next pairs run on time
	run 'ports=8;stuck-teardown=fake3:1@1;hang-s=10' 120 --timeout 2 --stall 1 --retests 0
	check "mpirun finished" test "$mpirc" != 124
	check "rank 0 exit 0 (nothing wrong)" test "$(cat "$dir/rc.0")" = 0
	check "28 pairs, all measured ok" test "$(count '"kind":"pair".*"status":"ok"')" = 28
	check "the watchdog named the stuck teardown" \
		grep -q 'rank 3 (mpitest:fake3:1): endpoint teardown still running after 5 s' "$dir/out"
	;;
dead-root)
	# rank 0 (fake0) is SIGKILLed in its first test: the others hear
	# nothing for two step deadlines (2 x 7.3 + 2 s), give up with exit 3
	# and end the job, so mpirun returns
	run 'ports=8;die=fake0:1@1' 90 --timeout 2 --stall 1 --retests 0
	check "mpirun finished" test "$mpirc" != 124
	check "run took under 60 s" test "$elapsed" -lt 60
	check "rank 0 was killed (137)" test "$(cat "$dir/rc.0" 2>/dev/null)" = 137
	check "the others gave up on rank 0" \
		test "$(grep -c 'no word from rank 0 for 17 s; giving up' "$dir/out")" -ge 1
	check "no other rank exited 0" \
		test "$(cat "$dir"/rc.[1-7] 2>/dev/null | grep -cx 0)" = 0
	;;
late-worker)
	# fake3's first run blocks 12 s against a 9 s step deadline: rank 0
	# gives up on rank 3 and goes on for 6 more rounds (~20 s); rank 3,
	# unblocked, must not wait for instructions that never come (20 s),
	# give up on rank 0 and abort the job (MPI_Abort under srun kills
	# every rank): it is told it was dropped and leaves at once
	run 'ports=8;hang=fake3:1@1;hang-s=12' 120 --timeout 2 --stall 1 --retests 0 --duration 2
	check "mpirun finished" test "$mpirc" != 124
	check "rank 0 exit 1 (fake3 not-tested)" test "$(cat "$dir/rc.0")" = 1
	check "rank 3 was told it was dropped" grep -q 'rank 3: rank 0 gave up on this rank' "$dir/out"
	check "rank 3 left quietly (exit 0)" test "$(cat "$dir/rc.3" 2>/dev/null)" = 0
	check "nobody gave up on rank 0" test "$(grep -c 'no word from rank 0' "$dir/out")" = 0
	check "a run end record" grep -q '"event":"end"' "$dir/records.jsonl"
	;;
degraded)
	run 'ports=8;width=fake5:1@2' 120
	check "mpirun finished" test "$mpirc" != 124
	check "rank 0 exit 1 (problems found)" test "$(cat "$dir/rc.0")" = 1
	check "28 pairs, all measured ok" test "$(count '"kind":"pair".*"status":"ok"')" = 28
	check "fake5's port record: 2 lanes, 50 Gb/s" \
		grep -q '"kind":"port".*"ca":"fake5".*"rate_gbps":50.*"width":2' "$dir/records.jsonl"
	check "exactly one fail finding" test "$(count '"severity":"fail"')" = 1
	check "it is fake5, degraded-width" \
		grep -q '"severity":"fail","category":"degraded-width","subject":{"host":"mpitest","ca":"fake5"' "$dir/records.jsonl"
	;;
undriven)
	run 'ports=10' 60
	check "mpirun finished" test "$mpirc" != 124
	check "rank 0 exit 2 (launch error)" test "$(cat "$dir/rc.0")" = 2
	check "the error names the 2 ports without a rank" \
		grep -q '10 ports but 8 ranks on this node (rank 0): mpitest:fake8:1, mpitest:fake9:1 would go untested' "$dir/out"
	check "no pair was run" test "$(cat "$dir/records.jsonl" 2>/dev/null | grep -c '"kind":"pair"')" = 0
	;;
sigusr1)
	# Open MPI forwards SIGUSR1 to the ranks (SIGINT and SIGTERM it turns
	# into SIGKILL 1 s later): the 4 s step in flight must finish
	mpirun --oversubscribe --mca orte_enable_recovery 1 -np 8 -x IBP_FAKE='ports=8' \
		"$bin" burnin --transport fake --warmup 0 --duration 4 --no-progress \
		--records "$dir/records.jsonl" >"$dir/out" 2>&1 &
	pid=$!
	sleep 1.5
	kill -USR1 "$pid"
	wait "$pid"
	grep -v 'PMIX ERROR' "$dir/out"
	check "the step in flight finished: its 4 pairs recorded" test "$(count '"kind":"pair"')" = 4
	check "the run end says interrupted, exit 3" \
		grep -q '"event":"end".*"exit_code":3,"interrupted":true' "$dir/records.jsonl"
	;;
node-fine)
	HOST_PER_RANK=1
	run 'ports=8' 120 --schedule node:h3
	check "mpirun finished" test "$mpirc" != 124
	check "rank 0 exit 0 (nothing wrong)" test "$(cat "$dir/rc.0")" = 0
	check "h3's port met 3 references, all ok" \
		test "$(grep '"kind":"pair"' "$dir/records.jsonl" | grep '"host":"h3"' | grep -c '"status":"ok"')" = 3
	check "3 pairs in all, no retest" test "$(count '"kind":"pair"')" = 3
	check "no finding (the 4 unused references are not 'not-tested')" \
		test "$(count '"kind":"finding"')" = 0
	;;
duplex)
	np=16
	run 'ports=16;slow=fake5:1@0.5' 150 --schedule shift --retests 0
	check "mpirun finished" test "$mpirc" != 124
	check "rank 0 exit 1 (problems found)" test "$(cat "$dir/rc.0")" = 1
	check "240 pairs, all measured ok" test "$(count '"kind":"pair".*"status":"ok"')" = 240
	check "15 rounds of 16 pairs" test "$(grep '"kind":"pair"' "$dir/records.jsonl" |
		sed -E 's/.*"round":([0-9]+),.*/\1/' | sort -n | uniq -c | awk '$1 == 16' | wc -l)" = 15
	check "every ordered pair once" test "$(grep '"kind":"pair"' "$dir/records.jsonl" |
		sed -E 's/.*"a":\{[^}]*"ca":"(fake[0-9]+)".*"b":\{[^}]*"ca":"(fake[0-9]+)".*/\1>\2/' |
		sort -u | grep -vc '^\(fake[0-9]*\)>\1$')" = 240
	check "fake5 initiated 15 pairs and was target of 15" test "$(grep '"kind":"pair"' "$dir/records.jsonl" |
		grep -c '"ca":"fake5"')" = 30
	check "exactly one fail finding" test "$(count '"severity":"fail"')" = 1
	check "the finding blames fake5, low-bandwidth" \
		grep -q '"severity":"fail","category":"low-bandwidth","subject":{"host":"mpitest","ca":"fake5"' "$dir/records.jsonl"
	# fake5's process is SIGKILLed in its 2nd run call: both its ends
	# run at once, so in round 1. Its partners' other ends are unharmed.
	rm -f "$dir"/rc.* "$dir/records.jsonl"
	run 'ports=16;die=fake5:1@2' 90 --schedule shift --timeout 2 --stall 1 --retests 0
	check "dead rank: mpirun finished" test "$mpirc" != 124
	check "dead rank: rank 0 exit 1" test "$(cat "$dir/rc.0")" = 1
	check "dead rank: 210 pairs without fake5 ok" test "$(count '"status":"ok"')" = 210
	check "dead rank: fake5's 30 pairs not-tested" \
		test "$(grep '"status":"not-tested"' "$dir/records.jsonl" | grep -c '"ca":"fake5"')" = 30
	check "dead rank: round 1's other ends of fake4 and fake6 ok" \
		test "$(grep '"round":1,' "$dir/records.jsonl" | grep '"status":"ok"' |
			grep -c '"a":{[^}]*"ca":"fake3".*"b":{[^}]*"ca":"fake4"\|"a":{[^}]*"ca":"fake6".*"b":{[^}]*"ca":"fake7"')" = 2
	check "dead rank: a not-tested finding for fake5 only" test "$(count '"category":"not-tested"')" = 1
	rm -f "$dir"/rc.* "$dir/records.jsonl"
	run 'ports=16' 60 --schedule shift --bidir
	check "--bidir with shift: exit 2" test "$(cat "$dir/rc.0")" = 2
	check "it says why" grep -q 'full-duplex rounds' "$dir/out"
	check "no pair was run" test "$(cat "$dir/records.jsonl" 2>/dev/null | grep -c '"kind":"pair"')" = 0
	;;
node-slow)
	HOST_PER_RANK=1
	run 'ports=8;slow=fake3:1@0.5' 120 --schedule node:h3
	check "mpirun finished" test "$mpirc" != 124
	check "rank 0 exit 1 (problems found)" test "$(cat "$dir/rc.0")" = 1
	check "retest pairs were run" test "$(count '"retest":true')" -ge 2
	check "exactly one fail finding" test "$(count '"severity":"fail"')" = 1
	check "it blames h3's port, low-bandwidth" \
		grep -q '"severity":"fail","category":"low-bandwidth","subject":{"host":"h3","ca":"fake3"' "$dir/records.jsonl"
	check "no warn finding left about the references" test "$(count '"severity":"warn"')" = 0
	;;
*) echo "unknown case $case"; exit 2 ;;
esac
# One judge, one verdict: `ibproof report` on the case's records (with no
# judging options: it reads burnin's) blames exactly the ports burnin did
if grep -q '"kind":"pair"' "$dir/records.jsonl" 2>/dev/null; then
	check "report blames exactly the ports burnin blamed" \
		"$(dirname "$0")/../blamed-ports.sh" "$bin" "$dir/records.jsonl"
fi
echo "$fails failure(s)"
[ "$fails" = 0 ]
