#!/bin/sh
# ibproof node --lnet-peers: `lctl ping` through a stub lctl on PATH
# (Lustre is not packaged in Debian). One NID answers, one fails, one
# hangs past --timeout and is killed; without lctl the check is skipped.
#
#   node-lnet-peers.sh IBPROOF SYSFS_NODE_TREE
set -eu
ibproof=$1
tree=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

fail() {
	echo "FAIL: $*" >&2
	exit 1
}

mkdir "$tmp/bin" "$tmp/empty"
cat >"$tmp/bin/lctl" <<'STUB'
#!/bin/sh
[ "$1" = ping ] || exit 2
case "$2" in
10.0.0.1@o2ib) printf '12345-0@lo\n12345-10.0.0.1@o2ib\n' ;;
10.0.0.2@o2ib) echo "failed to ping 10.0.0.2@o2ib: Input/output error" >&2
	exit 1 ;;
*) exec sleep 60 ;;
esac
STUB
chmod +x "$tmp/bin/lctl"

start=$(date +%s)
rc=0
PATH="$tmp/bin:$PATH" "$ibproof" node --sysfs-root "$tree" --no-dma \
	--lnet-peers 10.0.0.1@o2ib,10.0.0.2@o2ib,10.0.0.3@o2ib --timeout 2 \
	--records "$tmp/r.jsonl" >"$tmp/out" 2>"$tmp/err" || rc=$?
took=$(($(date +%s) - start))
cat "$tmp/out"
[ $rc -eq 0 ] || fail "exit $rc (a failed ping warns)"
[ $took -lt 20 ] || fail "took $took s: the hung lctl was not killed"
grep -q 'note: lctl ping 10.0.0.1@o2ib: answered' "$tmp/out" ||
	fail "10.0.0.1@o2ib: no answer noted"
grep -q 'warn storage-path-errors: .*storage peer 10.0.0.2@o2ib: `lctl ping` failed' \
	"$tmp/out" || fail "10.0.0.2@o2ib: no failure"
grep -q 'warn storage-path-errors: .*storage peer 10.0.0.3@o2ib: `lctl ping` timed out' \
	"$tmp/out" || fail "10.0.0.3@o2ib: no timeout"
[ "$(grep -c '"category":"storage-path-errors"' "$tmp/r.jsonl")" -eq 2 ] ||
	fail "expected 2 finding records"

rc=0
PATH="$tmp/empty" "$ibproof" node --sysfs-root "$tree" --no-dma \
	--lnet-peers 10.0.0.1@o2ib >"$tmp/out2" 2>&1 || rc=$?
[ $rc -eq 0 ] || fail "without lctl: exit $rc"
grep -q 'skipped: --lnet-peers: lctl could not run' "$tmp/out2" ||
	fail "without lctl: not listed as skipped"
echo "node-lnet-peers: ok"
