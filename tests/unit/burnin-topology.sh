#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# `ibproof burnin --dry-run --topology FILE`: node:HOST spreads partners
# over leaves, the plan shows them, ports absent from the topology are said
# at -v, a bad topology file is exit 2 with FILE:LINE. Fixtures: the port
# records of the 24 CA ports of fabric/leaves.topo (real ibnetdiscover
# output on ibsim, see its header) plus node013, which is in no topology.
set -u
bin=${1:?usage: burnin-topology.sh IBPROOF FIXTURES}
fx=${2:?usage: burnin-topology.sh IBPROOF FIXTURES}
inv=$fx/records/leaves-inventory.jsonl
topo=$fx/fabric/leaves.topo
dir=$(mktemp -d /tmp/ibproof-topo-XXXXXX)
trap 'rm -rf "$dir"' EXIT
fails=0
passes=0
expect() { # expect RC PATTERN -- ARGS...: exit RC, PATTERN in stdout+stderr
	local want=$1 pattern=$2 out rc
	shift 3
	out=$("$bin" burnin --dry-run --inventory "$inv" "$@" 2>&1); rc=$?
	if [ "$rc" != "$want" ] || ! grep -qE -- "$pattern" <<<"$out"; then
		echo "FAIL: burnin $*: exit $rc (want $want, /$pattern/), output:"
		echo "$out"
		fails=$((fails + 1))
	else
		echo "ok: burnin $* -> $rc /$pattern/"
		passes=$((passes + 1))
	fi
}
leaf1='leaf 0x0008f10300000018 port [0-9] "leaf01"'
for ca in mlx5_0 mlx5_1; do
	expect 0 "^target node001:$ca:1, $leaf1: 3 partners on 3 known leaves$" -- \
		--schedule node:node001 --topology "$topo"
	# inventory order alone puts node002 and node003 (leaf01) first
	expect 0 "^target node001:$ca:1: 3 partners$" -- --schedule node:node001
done
expect 0 '^  round 2: node004:mlx5_0:1, leaf 0x0008f10300000019 port 1 "leaf02"$' -- \
	--schedule node:node001 --topology "$topo"
expect 0 '^  port 25: node013:mlx5_1:1 rail 1 100.0 Gb/s, leaf unknown$' -- \
	--schedule node:node001 --topology "$topo"
expect 0 'info: node013:mlx5_0:1 \(port GUID 0x0008f10400000c01\): leaf unknown: its port GUID is not in the topology' -- \
	--schedule node:node001 --topology "$topo" -v
expect 0 'leaf known for 24 of 26 ports, 4 leaves' -- \
	--schedule all-pairs --topology "$topo" -v
# two target nodes on one leaf, competing for the same reference ports
out=$("$bin" burnin --dry-run --inventory "$inv" --topology "$topo" \
	--schedule node:node001,node002 2>&1)
n=$(grep -c '^target .*: 3 partners on 3 known leaves$' <<<"$out")
if [ "$n" = 4 ]; then
	echo "ok: node:node001,node002: 4 target ports, 3 leaves each"
	passes=$((passes + 1))
else
	echo "FAIL: node:node001,node002: $n of 4 target ports on 3 leaves:"
	echo "$out"
	fails=$((fails + 1))
fi
printf 'switchguid=0x10\nSwitch 4 "S-10" # "a"\n[9] "S-10"[1]\n' >"$dir/bad.topo"
expect 2 "^ibproof: error: $dir/bad.topo:3: expected a port line" -- \
	--schedule node:node001 --topology "$dir/bad.topo"
expect 2 "^ibproof: error: $dir/none.topo: cannot read" -- \
	--schedule node:node001 --topology "$dir/none.topo"
# D9: a leaf that describes itself with terminal escapes is shown escaped
sed 's/# "leaf04"/# "leaf\x1b[31mRED\xe2\x80\xae"/' "$topo" >"$dir/esc.topo"
out=$("$bin" burnin --dry-run --inventory "$inv" --topology "$dir/esc.topo" \
	--schedule node:node001 2>&1)
if grep -q 'leaf\\x1B\[31mRED\\xE2\\x80\\xAE' <<<"$out" &&
	! grep -q $'[\x1b\x07]\|\xe2\x80\xae' <<<"$out"; then
	echo "ok: D9 leaf names in the plan are escaped"
	passes=$((passes + 1))
else
	echo "FAIL: D9 leaf name with escapes in the plan:"
	echo "$out" | cat -v
	fails=$((fails + 1))
fi
echo "$passes passed, $fails failed"
[ "$fails" -eq 0 ]
