#!/bin/sh
# ibproof pcie and node on a real machine's /sys, captured by
# pcie/capture-sysfs on a lent GPU server (2026-12-04; the fixture's
# README): a Firecracker VM whose H200 sits on the root bus with no bridge
# above it (depth 0), no NUMA node (-1), no AER attributes, virtio devices
# of class 0xffff00 beside it, and no HCA.
#
#   pcie-captured-h200.sh IBPROOF TREE
set -eu
ibproof=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
# git keeps no empty folder: the capture had class/infiniband, empty.
cp -a "$2" "$tmp/tree"
mkdir -p "$tmp/tree/class/infiniband"
tree=$tmp/tree

fail() {
	echo "FAIL: $*" >&2
	exit 1
}

rc=0
"$ibproof" pcie --sysfs-root "$tree" --no-dma --records "$tmp/p.jsonl" \
	>"$tmp/out" 2>&1 || rc=$?
cat "$tmp/out"
[ $rc -eq 0 ] || fail "pcie exit $rc, expected 0 (one healthy GPU)"
grep -q '1 devices checked (0 HCA, 1 GPU, 0 NVMe, 0 bridges), 0 fail, 0 warn' \
	"$tmp/out" || fail "pcie summary"
grep -q 'skipped: aer: no aer_dev_\* attributes' "$tmp/out" ||
	fail "the missing AER attributes are not named as a skip"
python3 - "$tmp/p.jsonl" <<'PY' || fail "pcie records"
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
links = [r for r in recs if r["kind"] == "pcie" and r["check"] == "link"]
assert len(links) == 1, links
l = links[0]
assert l["bdf"] == "0000:00:06.0" and l["vendor_device"] == "10de:2335", l
assert l["role"] == "GPU" and l["depth"] == 0 and l["parent"] is None, l
assert l["numa_node"] == -1, l
assert l["link"] == {"current_speed_GTps": 32.0, "max_speed_GTps": 32.0,
                     "current_width": 16, "max_width": 16}, l
assert not [r for r in recs if r["kind"] == "finding"], "no finding expected"
PY

rc=0
"$ibproof" node --sysfs-root "$tree" --no-dma >"$tmp/node" 2>&1 || rc=$?
cat "$tmp/node"
[ $rc -eq 1 ] || fail "node exit $rc, expected 1 (no RDMA port)"
grep -q '^node .*: FAIL — no RDMA port' "$tmp/node" || fail "node verdict"
grep -q 'fail port-missing' "$tmp/node" || fail "port-missing finding"
echo "pcie-captured-h200: ok"
