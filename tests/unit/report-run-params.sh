#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# `ibproof report` judges with the options burnin's run start record lists
# (docs/judging.md): burnin (fake transport, threads, 4 ports, fake1 at
# 0.8 x rate) with --floor 0 --mad-k 0 blames nobody; the report, given
# none of the options, must not blame fake1 either (with the defaults it
# would: 0.8 < 0.9 x expected). A given option wins; runs that disagree
# are judged with the defaults and the warning names both files; a value
# no option takes is an input error at FILE:LINE. report --json says where
# each value came from.
set -u
bin=${1:?usage: report-run-params.sh IBPROOF}
dir=$(mktemp -d /tmp/ibproof-run-params-XXXXXX)
trap 'rm -rf "$dir"' EXIT
export IBPROOF_HOST=runparams
. "$(dirname "$0")/../check-lib.sh"
# judging FILE OPTION KEY: a field of the judging object of a --json report
judging() {
	python3 -c 'import json, sys
print(json.load(open(sys.argv[1]))["judging"][sys.argv[2]][sys.argv[3]])' "$@"
}

"$bin" burnin --transport fake --fake 'ports=4;slow=fake1:1@0.8' \
	--floor 0 --mad-k 0 --warmup 0 --duration 0.3 --stall 1 --timeout 1 \
	--retests 1 --no-progress --records "$dir/a.jsonl" >"$dir/burnin.out" 2>&1
check "burnin blamed nobody (exit 0)" test $? = 0
line=$(grep -n '"kind":"run".*"event":"start"' "$dir/a.jsonl" | cut -d: -f1)
check "the run start record lists the five options" \
	grep -q '"event":"start".*"floor":0.0,"mad_k":0.0,"class_floor":0.5,"dip_floor":0.5,"min_witnesses":2' "$dir/a.jsonl"

"$bin" report "$dir/a.jsonl" --json "$dir/r1.json" >"$dir/r1.out" 2>&1
check "report with no options blames nobody either (exit 0)" test $? = 0
check "floor 0 from the records" test "$(judging "$dir/r1.json" floor value)/$(judging "$dir/r1.json" floor from)" = "0.0/records"
check "the record named" test "$(judging "$dir/r1.json" mad_k record)" = "$dir/a.jsonl:$line"
check "min_witnesses 2 from the records" test "$(judging "$dir/r1.json" min_witnesses value)/$(judging "$dir/r1.json" min_witnesses from)" = "2/records"

"$bin" report "$dir/a.jsonl" --floor 0.9 --json "$dir/r2.json" >"$dir/r2.out" 2>&1
check "a given --floor wins: fake1 blamed (exit 1)" test $? = 1
check "fake1 on the disable list" grep -q 'fake1' "$dir/r2.out"
check "floor from the command line" test "$(judging "$dir/r2.json" floor from)" = "command line"
check "mad_k still from the records" test "$(judging "$dir/r2.json" mad_k from)" = "records"

sed 's/"mad_k":0.0,/"mad_k":1.5,/' "$dir/a.jsonl" >"$dir/b.jsonl"
"$bin" report "$dir/a.jsonl" "$dir/b.jsonl" --json "$dir/r3.json" >"$dir/r3.out" 2>"$dir/r3.err"
check "runs that differ: the defaults, fake1 blamed (exit 1)" test $? = 1
check "the warning names both files" grep -q "mad_k 0 in $dir/a.jsonl:$line, 1.5 in $dir/b.jsonl:$line" "$dir/r3.err"
check "floor is the default" test "$(judging "$dir/r3.json" floor value)/$(judging "$dir/r3.json" floor from)" = "0.9/default"
"$bin" report "$dir/a.jsonl" "$dir/b.jsonl" --mad-k 0 >"$dir/r4.out" 2>"$dir/r4.err"
check "they differ only in a given option: no warning, records used (exit 0)" \
	test "$?/$(wc -c <"$dir/r4.err")" = "0/0"

sed 's/"floor":0.0,/"floor":7,/' "$dir/a.jsonl" >"$dir/c.jsonl"
"$bin" report "$dir/c.jsonl" >"$dir/r5.out" 2>"$dir/r5.err"
check "a floor of 7 in a record: exit 2" test $? = 2
check "... naming FILE:LINE and the range" grep -q "$dir/c.jsonl:$line: burnin run record: params.floor: expected a number from 0 to 1" "$dir/r5.err"
"$bin" report "$dir/c.jsonl" --floor 0 >/dev/null 2>&1
check "... unless --floor is given (exit 0)" test $? = 0

# tests/blamed-ports.sh (the mpi tier's check) agrees here, and fails
# when the report is made to judge otherwise
blamed=$(dirname "$0")/../blamed-ports.sh
"$blamed" "$bin" "$dir/a.jsonl" >"$dir/b1.out" 2>&1
check "blamed-ports.sh: burnin and report agree (exit 0)" test $? = 0
"$blamed" "$bin" "$dir/a.jsonl" -- --floor 0.9 >"$dir/b2.out" 2>&1
check "blamed-ports.sh: report --floor 0.9 blames fake1: they differ (exit 1)" test $? = 1
check "... and it says which" grep -q "only report: runparams fake1 port 1" "$dir/b2.out"

if [ $fails != 0 ]; then
	for f in "$dir"/*.out "$dir"/*.err; do echo "== $f"; cat "$f"; done
	exit 1
fi
echo "ok: report judges with the options of burnin's run start records"
