#!/bin/sh
# The scope of kernel log events (issue 19): records of 40 nodes that lost
# the same o2ib peer within a minute, plus one node with its own flapping
# port, written by `ibproof node --kernel-log` itself. `ibproof report`
# must give one common-cause finding for the peer and keep the flapping
# port that node's own (text, JSON and HTML say which).
#
#   report-klog-scope.sh IBPROOF SYSFS_NODE_TREE
set -eu
ibproof=$1
tree=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

fail() {
	echo "FAIL: $*" >&2
	exit 1
}

# Times relative to now, so that the flaps are within the 24 h window.
base=$(($(date -u +%s) - 3 * 3600))
iso() { date -u -d "@$1" +%Y-%m-%dT%H:%M:%S,000000+00:00; }

i=1
while [ $i -le 40 ]; do
	host=$(printf 'node%02d' $i)
	t=$((base + i))
	printf '%s Lustre: lustre-OST0003-osc-ffff9d6153c91000: Connection to lustre-OST0003 (at 100.100.100.105@o2ib) was lost; in progress operations using this service will wait for recovery to complete\n' \
		"$(iso $t)" >"$tmp/$host.log"
	rc=0
	IBPROOF_HOST=$host "$ibproof" node --sysfs-root "$tree" --no-dma \
		--kernel-log "$tmp/$host.log" \
		--records "$tmp/$host.jsonl" >"$tmp/$host.out" 2>&1 || rc=$?
	[ $rc -eq 0 ] || fail "$host: ibproof node exit $rc (storage errors alone warn)"
	i=$((i + 1))
done

# node41: its own port flaps six times in five hours. The fixture tree's
# ports have no netdev, so the lines name the CA as rdma_rxe does.
: >"$tmp/node41.log"
k=0
while [ $k -lt 6 ]; do
	t=$((base - 6 * 3600 + k * 3000))
	printf '%s infiniband mlx5_0: set down\n%s infiniband mlx5_0: set active\n' \
		"$(iso $t)" "$(iso $((t + 5)))" >>"$tmp/node41.log"
	k=$((k + 1))
done
rc=0
IBPROOF_HOST=node41 "$ibproof" node --sysfs-root "$tree" --no-dma \
	--kernel-log "$tmp/node41.log" --records "$tmp/node41.jsonl" \
	>"$tmp/node41.out" 2>&1 || rc=$?
[ $rc -eq 1 ] || fail "node41: expected exit 1 (link-flapping), got $rc"
grep -q 'node node41: FAIL .*mlx5_0 port 1 flapping' "$tmp/node41.out" ||
	fail "node41: verdict line: $(head -1 "$tmp/node41.out")"
[ "$(grep -c '"kind":"event"' "$tmp/node41.jsonl")" -eq 12 ] ||
	fail "node41: expected 12 event records"

rc=0
"$ibproof" report "$tmp"/node*.jsonl --json "$tmp/r.json" \
	--html "$tmp/r.html" >"$tmp/report.txt" 2>&1 || rc=$?
[ $rc -eq 1 ] || fail "report: expected exit 1, got $rc"
cat "$tmp/report.txt"

n=$(grep -c '^  \[common-cause\]' "$tmp/report.txt" || true)
[ "$n" -eq 1 ] || fail "expected 1 common-cause finding, got $n"
grep -q '^  \[common-cause\] storage server 100.100.100.105@o2ib: 40 nodes (node\[01-40\]) lost it between ' \
	"$tmp/report.txt" || fail "the common cause does not name the peer"
grep -q '^  \[link-flapping, this node only\] node41 mlx5_0 port 1: the link went down 6 times' \
	"$tmp/report.txt" || fail "node41's flapping port is not its own finding"
n=$(grep -c '^  \[storage-path-errors, part of a common cause\]' "$tmp/report.txt" || true)
[ "$n" -eq 40 ] || fail "expected 40 storage findings in the common cause, got $n"
grep -q 'node41 mlx5_0 port 1' "$tmp/report.txt" ||
	fail "node41 mlx5_0 port 1 is not in the disable list"

python3 - "$tmp/r.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
f = r["findings"]
cc = [x for x in f if x["category"] == "common-cause"]
assert len(cc) == 1, cc
assert cc[0]["subject"]["peer"] == "100.100.100.105@o2ib", cc[0]
assert cc[0]["evidence"]["nodes"] == 40, cc[0]
lf = [x for x in f if x["category"] == "link-flapping"]
assert len(lf) == 1 and lf[0]["severity"] == "fail", lf
assert lf[0]["scope"] == "node" and lf[0]["subject"]["host"] == "node41", lf
PY
grep -q 'link-flapping (this node only)' "$tmp/r.html" || fail "HTML: no scope"
grep -q 'storage-path-errors (part of a common cause)' "$tmp/r.html" ||
	fail "HTML: no common-cause scope"
echo "report-klog-scope: ok"
