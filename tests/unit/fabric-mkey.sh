#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The M_Key is a secret (issue 32): a bad --m-key or a malformed ibdiag.conf
# is a usage error (exit 2) that names the option or FILE:LINE but never
# repeats the value; a good key appears in no record and nothing printed;
# --ibdiag-conf FILE that does not exist is an error, the default that does
# not exist is not. (That the key reaches the SMP seams is
# tests/unit/test_fabric_route.c.)
# Usage: fabric-mkey.sh IBPROOF FIXTURES
set -u
ibproof=${1:?usage: fabric-mkey.sh IBPROOF FIXTURES}
fx=${2:?usage: fabric-mkey.sh IBPROOF FIXTURES}/fabric
work=$(mktemp -d "${TMPDIR:-/tmp}/ibproof-mkey.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
fail() { echo "fabric-mkey: FAIL: $*" >&2; exit 1; }

run() { # run ARGS...: exit code in rc, stdout+stderr in $work/out
	"$ibproof" fabric discover --topology "$fx/small.topo" "$@" \
		>"$work/out" 2>&1
	rc=$?
}

run --m-key 0xZZ1234secret
[ "$rc" = 2 ] || fail "bad --m-key: exit $rc"
grep -q -- '--m-key: expected a 64-bit number' "$work/out" || fail "no message"
grep -q 'ZZ1234secret' "$work/out" && fail "the bad key was printed"

printf '# keys\nm_key=0x99zz8877\n' >"$work/ibdiag.conf"
run --ibdiag-conf "$work/ibdiag.conf"
[ "$rc" = 2 ] || fail "malformed ibdiag.conf: exit $rc"
grep -q "ibdiag.conf:2: m_key: expected a number" "$work/out" || fail "no FILE:LINE"
grep -q '99zz8877' "$work/out" && fail "the bad key from the file was printed"

run --ibdiag-conf "$work/none.conf"
[ "$rc" = 2 ] || fail "missing --ibdiag-conf: exit $rc"

for key in 0x1122334455667788 1234605616436508552; do
	printf 'm_key=%s\n' "$key" >"$work/ibdiag.conf"
	for opt in "--m-key $key" "--ibdiag-conf $work/ibdiag.conf"; do
		# shellcheck disable=SC2086
		run $opt -v -v --records "$work/rec.jsonl"
		[ "$rc" = 0 ] || fail "$opt: exit $rc: $(cat "$work/out")"
		grep -q -e 1122334455667788 -e 1234605616436508552 \
			"$work/out" "$work/rec.jsonl" &&
			fail "$opt: the key is in the output or the records"
	done
done
echo "fabric-mkey: ok"
