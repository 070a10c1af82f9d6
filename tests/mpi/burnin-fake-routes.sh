#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# mpi tier, issue 16: the fake fabric across processes. 5 mpirun ranks on
# localhost, the fake with the routes of an ibsim ftree fabric of 16 HCAs
# (tests/fixtures/fake-routes/ftree-16.jsonl), one rank per port of
# node001, node002, node006, node010 and node011 (the fake's ports are the
# routes' CA ports, named as the routes name them: node001:mlx5_0:1).
# opensm's ftree tables
# send node001->node006 and node002->node010 up the same leaf01 cable
# (port 6) and node002->node011 up another (port 5). Each flow runs in its
# own rank, so they meet only in the job's registry:
#   round 0: 001->006 and 002->010 share leaf01:6: 47.5 Gb/s each
#   round 1: 001->006 and 002->011 apart: 95 Gb/s each
# then with slow-cable=leaf01:6@0.5: round 0 23.75 each; round 1 47.5 for
# 001->006 and 95 for 002->011 (only the flow through the slow cable).
set -u
bin=${1:?usage: burnin-fake-routes.sh IBPROOF FIXTURES}
fixtures=${2:?usage: burnin-fake-routes.sh IBPROOF FIXTURES}
job=mpitest-routes
. "$(dirname "$0")/fake-routes-lib.sh"
# the leaf01 port the tables send LID 14 (node006) and 18 (node010) to
[ "$(jq -r 'select(.kind == "lft" and .node == "leaf01") |
	"\(.ports[14]) \(.ports[18]) \(.ports[17])"' "$routes")" = "6 6 5" ] ||
	{ echo "FAIL: the fixture's leaf01 table is not what this test expects"; exit 1; }

cat >"$dir/pairs" <<'PAIRS'
0 node001:mlx5_0:1 node006:mlx5_0:1
0 node002:mlx5_0:1 node010:mlx5_0:1
1 node001:mlx5_0:1 node006:mlx5_0:1
1 node002:mlx5_0:1 node011:mlx5_0:1
PAIRS

run() { # run LABEL EXTRA_FAKE
	rm -f "$dir"/rc.*
	timeout 120 mpirun --oversubscribe -np 5 -x IBPROOF_HOST -x IBP_FAKE_JOB \
		sh -c '"$0" "$@"; echo $? > '"$dir"'/rc.$OMPI_COMM_WORLD_RANK' \
		"$bin" burnin --transport fake --warmup 0.1 --duration 0.5 \
		--no-progress --retests 0 --timeout 20 \
		--ports node001:mlx5_0:1,node002:mlx5_0:1,node006:mlx5_0:1,node010:mlx5_0:1,node011:mlx5_0:1 \
		--fake "routes=$routes${2:+;$2}" --schedule "pairs:$dir/pairs" \
		--records "$dir/$1.jsonl" 2>&1 | grep -v 'PMIX ERROR' >"$dir/$1.out"
	check "$1: mpirun finished, rank 0 exit $(cat "$dir/rc.0" 2>/dev/null)" \
		test -s "$dir/rc.0"
}

# gbps ROUND SRC DST LABEL: the measured rate of that pair in that round
# (the records number rounds from 1: file round 0 is round 1)
gbps() {
	jq -r --arg a "$2" --arg b "$3" --argjson r "$1" 'select(.kind == "pair"
		and .a.host == $a and .b.host == $b and .round == $r + 1) | .gbps' \
		"$dir/$4.jsonl"
}
want() { # want LABEL ROUND SRC DST GBPS
	local got
	got=$(gbps "$2" "$3" "$4" "$1")
	check "$1: round $2 $3->$4 at $5 Gb/s (got $got)" \
		awk -v g="$got" -v w="$5" 'BEGIN { exit !(g != "" && g - w < 1e-6 && w - g < 1e-6) }'
}

run shared
want shared 0 node001 node006 47.5
want shared 0 node002 node010 47.5
want shared 1 node001 node006 95
want shared 1 node002 node011 95
run slow 'slow-cable=leaf01:6@0.5'
want slow 0 node001 node006 23.75
want slow 0 node002 node010 23.75
want slow 1 node001 node006 47.5
want slow 1 node002 node011 95
check "the job's registry is gone from /dev/shm (its last rank removed it)" \
	test -z "$(find /dev/shm -maxdepth 1 -name "ibproof-fake-$(id -u)-$IBP_FAKE_JOB.*" 2>/dev/null)"
[ "$fails" = 0 ] || { cat "$dir"/*.out; exit 1; }
echo PASS
