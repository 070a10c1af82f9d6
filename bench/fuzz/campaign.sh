#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# bench/fuzz/campaign.sh BUILD DIR GOAL [TARGET...]: the long fuzz campaign
# (issue 18: >= GOAL executions per target, 0 crashes, 0 timeouts, 0
# oracle failures), resumable. Each target of BUILD/fuzz runs in chunks of
# CHUNK seconds (default 300) on its own corpus in DIR/TARGET/corpus
# (seeded once from tests/fuzz/corpus/TARGET), until DIR/TARGET/ledger
# adds up to GOAL executions; a chunk that is killed (SIGTERM) still
# counts what it ran. Run it again, on this or another machine's copy of
# DIR, and it goes on where it stopped. A crash, timeout or oracle
# failure stops that target and keeps the input in DIR/TARGET/art.
# `touch DIR/stop` ends the campaign after the chunks running now (do
# not SIGSTOP a chunk: libFuzzer would take the pause for a timeout).
# Prints per target: executions, chunks, edges, corpus, crashes,
# timeouts, oracle failures. Exit 1 when any target failed.
#
#   nice -n 19 bench/fuzz/campaign.sh build /var/tmp/fuzz 10000000
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:?usage: campaign.sh BUILD DIR GOAL [TARGET...]}
dir=${2:?}
goal=${3:?}
shift 3
chunk=${CHUNK:-300}
bin=$build/fuzz/tests/fuzz
ls "$bin"/fuzz_* >/dev/null 2>&1 ||
	{ echo "campaign: no targets in $bin (cmake -DIBPROOF_FUZZ=ON)"; exit 2; }
if [ $# = 0 ]; then
	# shellcheck disable=SC2046 # names without blanks, split on purpose
	set -- $(cd "$bin" && printf '%s\n' fuzz_* | sed 's/^fuzz_//')
fi

# done_of NAME: executions the ledger adds up ("EXECS EDGES CORPUS RC")
done_of() { awk '{ n += $1 } END { print n + 0 }' "$dir/$1/ledger" 2>/dev/null || echo 0; }

# keep_outputs ART: a target that failed (abort) left its scratch folder
# in /dev/shm (ibproof-fuzz-*-PID, its process gone): kept beside the
# input, as the evidence its oracle message names
keep_outputs() {
	local d pid
	for d in /dev/shm/ibproof-fuzz-*; do
		[ -d "$d" ] || continue
		pid=${d##*-}
		[ -e "/proc/$pid" ] || mv "$d" "$1/outputs-${d##*/}"
	done
}

# one_chunk NAME RUNS: one libFuzzer run, its line in the ledger
one_chunk() {
	local name=$1 runs=$2 log rc execs cov corp

	log=$dir/$name/log.$(date +%s)
	"$bin/fuzz_$name" -runs="$runs" -max_total_time="$chunk" -timeout=10 \
		-rss_limit_mb=2048 -max_len=4096 -print_final_stats=1 \
		-report_slow_units=100000 \
		-artifact_prefix="$dir/$name/art/" "$dir/$name/corpus" \
		>"$log" 2>&1
	rc=$?
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
	cov=$(grep -oE 'cov: [0-9]+' "$log" | tail -1 | cut -d' ' -f2)
	corp=$(find "$dir/$name/corpus" -type f | wc -l)
	echo "${execs:-0} ${cov:-0} $corp $rc" >>"$dir/$name/ledger"
	grep -m3 -E '^oracle: |ERROR: |SUMMARY: ' "$log" >>"$dir/$name/failures"
	# a clean end or a kill (SIGTERM: 143; libFuzzer's own exit 72) keeps
	# the log small: its last lines
	tail -20 "$log" >"$log.tail" && rm -f "$log"
	[ "$rc" = 0 ] || keep_outputs "$dir/$name/art"
	return "$rc"
}

# failed NAME: a crash, timeout, leak or out-of-memory input was kept
failed() {
	[ -n "$(find "$dir/$1/art" -name 'crash-*' -o -name 'timeout-*' \
		-o -name 'leak-*' -o -name 'oom-*')" ]
}

bad=0
for name in "$@"; do
	mkdir -p "$dir/$name/corpus" "$dir/$name/art"
	[ -n "$(ls "$dir/$name/corpus")" ] ||
		cp "$root/tests/fuzz/corpus/$name"/* "$dir/$name/corpus/" 2>/dev/null
	while [ "$(done_of "$name")" -lt "$goal" ] && [ ! -e "$dir/stop" ] &&
		! failed "$name"; do
		one_chunk "$name" $((goal - $(done_of "$name"))) || break
	done
done
printf '%-15s %12s %6s %6s %7s %7s %8s %6s\n' target executions chunks \
	edges corpus crashes timeouts oracle
for name in "$@"; do
	[ -f "$dir/$name/ledger" ] || continue
	read -r _ cov corp _ < <(tail -1 "$dir/$name/ledger")
	crashes=$(find "$dir/$name/art" -name 'crash-*' -o -name 'leak-*' \
		-o -name 'oom-*' | wc -l)
	timeouts=$(find "$dir/$name/art" -name 'timeout-*' | wc -l)
	oracle=$(grep -c '^oracle: ' "$dir/$name/failures" 2>/dev/null)
	printf '%-15s %12s %6s %6s %7s %7s %8s %6s\n' "$name" \
		"$(done_of "$name")" "$(wc -l <"$dir/$name/ledger")" "$cov" \
		"$corp" "$crashes" "$timeouts" "${oracle:-0}"
	[ "$crashes$timeouts${oracle:-0}" = 000 ] || bad=1
done
exit $bad
