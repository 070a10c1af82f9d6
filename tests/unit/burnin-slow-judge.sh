#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Rank 0 judges before each retest round while every other rank waits for
# its next word at most 2 x step + timeout (burnin_worker_wait_s(): 10 s
# here). A judge slower than that (the fake's judge-s=14) must not make
# them give up: rank 0 sends a heartbeat (an idle step) while it judges.
# Threads bootstrap, fake transport, 4 ports, one slow: the run ends as a
# run with a blamed port ends (exit 1), no worker gives up.
set -u
bin=${1:?usage: burnin-slow-judge.sh IBPROOF}
dir=$(mktemp -d /tmp/ibproof-slow-judge-XXXXXX)
trap 'rm -rf "$dir"' EXIT
"$bin" burnin --transport fake --fake 'ports=4;slow=fake1:1@0.5;judge-s=14' \
	--warmup 0 --duration 0.5 --stall 1 --timeout 1 --retests 1 --no-progress \
	--records "$dir/r.jsonl" >"$dir/out" 2>"$dir/err"
rc=$?
fail=0
[ "$rc" = 1 ] || { echo "FAIL: exit $rc, want 1 (fake1 blamed)"; fail=1; }
if grep -q "giving up\|no word from rank 0" "$dir/err"; then
	echo "FAIL: a worker gave up while rank 0 judged:"
	fail=1
fi
grep -q '"low-bandwidth"' "$dir/r.jsonl" || { echo "FAIL: fake1 not blamed"; fail=1; }
grep -q '"event":"end".*"interrupted":false' "$dir/r.jsonl" ||
	{ echo "FAIL: no run end record, or interrupted"; fail=1; }
if [ $fail = 1 ]; then
	cat "$dir/out" "$dir/err"
	exit 1
fi
echo "ok: judging 14 s past a 10 s wait, every worker kept waiting"
