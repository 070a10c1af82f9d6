#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Issue 32, burnin's side: fail closed. The fake transport on the routes
# of an ibsim ftree fabric of 16 HCAs (fixtures/fake-routes/ftree-16.jsonl).
#   - the run end record's scope: ports, pairs and (cover) cables, counted;
#   - a routes file without spine01's lft record: cover and all-pairs are
#     refused (exit 2, naming spine01); --plan-around-unread plans around
#     it, its 8 cables are not-tested (reason table-not-read) and the run
#     INCOMPLETE (exit 1); --accept-untested cables accepts it, listed;
#   - the fake's ports carry the routes' names: a fault on
#     node001:mlx5_0:1 is planted and blamed there; one naming no port of
#     the routes (gpu0022:mlx5_0:1) is refused (exit 2, naming it).
set -u
bin=${1:?usage: burnin-scope.sh IBPROOF FIXTURES}
routes=${2:?usage: burnin-scope.sh IBPROOF FIXTURES}/fake-routes/ftree-16.jsonl
dir=$(mktemp -d /tmp/ibproof-scope-XXXXXX)
trap 'rm -rf "$dir"' EXIT
export IBPROOF_HOST=scopetest IBP_FAKE_JOB=scope-$$
fails=0
check() { # check DESCRIPTION COMMAND...
	local what=$1
	shift
	if "$@"; then echo "ok: $what"; else echo "FAIL: $what"; fails=$((fails + 1)); fi
}
run() { # run LABEL ROUTES FAKE_EXTRA ARGS...: rc in LABEL.rc
	local label=$1 r=$2 extra=$3
	shift 3
	"$bin" burnin --transport fake --fake "routes=$routes${extra:+;$extra}" \
		--routes "$r" --warmup 0 --duration 0.1 --no-progress \
		--no-prove-load --records "$dir/$label.jsonl" "$@" \
		>"$dir/$label.out" 2>&1
	echo $? >"$dir/$label.rc"
}
rc() { cat "$dir/$1.rc"; }
scope() { # scope LABEL PART: "in_scope tested not_tested accepted"
	jq -r --arg p "$2" 'select(.kind == "run" and .event == "end") |
		.scope[$p] | "\(.in_scope) \(.tested) \(.not_tested) \(.accepted)"' \
		"$dir/$1.jsonl"
}

run clean "$routes" '' --schedule cover
check "clean cover: exit 0" test "$(rc clean)" = 0
check "scope: 16 of 16 ports" test "$(scope clean ports)" = "16 16 0 false"
# cover: 3 duplex rounds of 16 (identifiable cables, issue 31)
check "scope: 48 of 48 pairs" test "$(scope clean pairs)" = "48 48 0 false"
check "scope: 32 of 32 switch-to-switch cables" \
	test "$(scope clean cables)" = "32 32 0 false"
check "no INCOMPLETE line" test "$(grep -c INCOMPLETE "$dir/clean.out")" = 0

grep -v '"kind":"lft".*"node":"spine01"' "$routes" >"$dir/nospine.jsonl"
for s in cover all-pairs; do
	run "refused-$s" "$dir/nospine.jsonl" '' --schedule "$s"
	check "$s without spine01's table: exit 2" test "$(rc "refused-$s")" = 2
	check "... naming spine01 and its GUID" \
		grep -q 'tables of 1 switch(es) were not read (spine01 0x0008f10300000014)' \
		"$dir/refused-$s.out"
	check "... before any pair" test ! -s "$dir/refused-$s.jsonl"
done
run around "$dir/nospine.jsonl" '' --schedule cover --plan-around-unread
check "--plan-around-unread: exit 1 (INCOMPLETE)" test "$(rc around)" = 1
check "the verdict says what was not tested" \
	grep -qx 'INCOMPLETE: 8 of 32 cables not tested' "$dir/around.out"
check "scope: 8 of 32 cables not tested" \
	test "$(scope around cables)" = "32 24 8 false"
check "8 not-tested findings, part cables, reason table-not-read" \
	test "$(jq -r 'select(.kind == "finding" and .category == "not-tested" and
		.evidence.part == "cables" and .evidence.reason == "table-not-read") |
		1' "$dir/around.jsonl" | wc -l)" = 8
check "each names a cable of spine01" \
	test "$(jq -r 'select(.kind == "finding" and .category == "not-tested") |
		[.subject.a.node, .subject.b.node] | index("spine01") != null' \
		"$dir/around.jsonl" | sort -u)" = true
run accepted "$dir/nospine.jsonl" '' --schedule cover --plan-around-unread \
	--accept-untested cables
check "--accept-untested cables: exit 0" test "$(rc accepted)" = 0
check "... the gap listed, not silent" \
	grep -qx '(accepted: 8 of 32 cables not tested)' "$dir/accepted.out"
check "... and in the end record" test "$(jq -c 'select(.kind == "run" and
	.event == "end") | .accepted_untested' "$dir/accepted.jsonl")" = '["cables"]'
check "scope: the cables' gap accepted" \
	test "$(scope accepted cables)" = "32 24 8 true"
# the report reads the same scope: its coverage block counts exactly
"$bin" report "$dir/around.jsonl" --json "$dir/around.rep" >"$dir/rep.out" 2>&1
check "report over the INCOMPLETE run: exit 1" test $? = 1
check "... verdict incomplete, its line says what" test "$(jq -r '.verdict,
	.summary' "$dir/around.rep")" = "incomplete
INCOMPLETE: burnin: 8 of 32 cables not tested"
check "... coverage row: burnin cables 32 / 24 / 8" test "$(jq -r '.coverage.scope[] |
	select(.part == "cables") | "\(.in_scope) \(.tested) \(.not_tested)"' \
	"$dir/around.rep")" = "32 24 8"
check "... 8 not tested by reason table-not-read" test "$(jq -r \
	'.coverage.not_tested_by_reason.cables["table-not-read"]' "$dir/around.rep")" = 8
"$bin" report "$dir/accepted.jsonl" >"$dir/rep2.out" 2>&1
check "report over the accepted run: exit 0, PASS" test "$?:$(head -1 "$dir/rep2.out")" = 0:PASS
check "... the accepted gap in its coverage block" \
	grep -q '^  burnin cables: 32 / 24 / 8 (accepted)$' "$dir/rep2.out"

run badaccept "$routes" '' --schedule cover --accept-untested cables,links
check "--accept-untested links: exit 2, naming it" \
	grep -q "'links' is no part of burnin's scope" "$dir/badaccept.out"

run slow "$routes" 'slow=node001:mlx5_0:1@0.4' --schedule cover
check "slow=node001:mlx5_0:1 (a routes name): exit 1" test "$(rc slow)" = 1
check "... node001 blamed, low-bandwidth" test "$(jq -r 'select(.kind ==
	"finding" and .category == "low-bandwidth" and .severity == "fail") |
	"\(.subject.host):\(.subject.ca):\(.subject.port)"' "$dir/slow.jsonl")" = \
	node001:mlx5_0:1
check "... port records carry the routes' names" test "$(jq -r 'select(.kind ==
	"port") | .host' "$dir/slow.jsonl" | grep -c '^node0')" = 16
run nosuch "$routes" 'slow=gpu0022:mlx5_0:1@0.4' --schedule cover
check "slow=gpu0022:mlx5_0:1 (no port of the routes): exit 2" \
	test "$(rc nosuch)" = 2
check "... naming it" grep -q "no port gpu0022:mlx5_0:1" "$dir/nosuch.out"

# HCAs left at their default NodeDescription share HOST:CA:PORT: the
# fake names those by the node GUID, every port a name of its own
sed 's/"\(node\|name\)":"node00[1-4] mlx5_0"/"\1":"MT4123 ConnectX6"/g' \
	"$routes" >"$dir/dup.jsonl"
"$bin" burnin --dry-run --transport fake --fake "routes=$dir/dup.jsonl" \
	>"$dir/dup.out" 2>&1
check "shared descriptions: 4 ports named by their node GUID" test "$(grep -c \
	'^  port [0-9]*: 0x[0-9a-f]\{16\}:ConnectX6:1 ' "$dir/dup.out")" = 4
check "... and all 16 names differ" test "$(sed -n 's/^  port [0-9]*: \([^ ]*\) .*/\1/p' \
	"$dir/dup.out" | sort -u | wc -l)" = 16

[ "$fails" = 0 ] || { tail -n 5 "$dir"/*.out; exit 1; }
echo PASS
