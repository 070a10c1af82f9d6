#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Issue 34: links the SM never activated. Before opensm has run, every port
# of the ibsim fabric is INIT/LinkUp: `fabric check` gives one fabric-wide
# link-not-active finding (action check-sm), not one per link, and exits 1.
# After one opensm sweep: none. The fabric is made of 64-port switches whose
# ports the spec names as twin-port cages (17/1, 17/2): it checks clean.
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
sim_require "${IBPROOF:?}" "${GEN_FATTREE:?}" jq
IBPROOF=$(realpath "$IBPROOF")
GEN_FATTREE=$(realpath "$GEN_FATTREE")
sim_setup

"$GEN_FATTREE" --radix 64 --leaves 2 --spines 2 --hosts-per-leaf 6 \
	--uplinks 4 --cage --net net --spec spec.csv || sim_fail "gen_fattree"
grep -q ',32/1,' spec.csv || grep -q ',2/1,' spec.csv ||
	sim_fail "spec has no cage/lane ports"
sim_start net

check() { # check: fabric check, records in rec.jsonl, exit code in $rc
	sim_client "$IBPROOF" fabric check --spec spec.csv \
		--records rec.jsonl >out.txt 2>err.txt
	rc=$?
}
findings() { jq -r 'select(.kind == "finding") | .category' rec.jsonl; }

check
cats=$(findings | sort | uniq -c | sed 's/^ *//')
if [ "$rc" != 1 ] || [ "$cats" != "1 link-not-active" ]; then
	cat out.txt err.txt >&2
	sim_fail "before opensm: exit $rc, findings: $cats"
fi
cables=$(grep -vc '^#\|^a_node' spec.csv)
n=$(jq -c --argjson n "$cables" 'select(.kind == "finding") |
	select(.action == "check-sm" and .evidence.scope == "fabric" and
	.evidence.links == $n)' rec.jsonl | wc -l)
[ "$n" = 1 ] || sim_fail "not one fabric-wide check-sm finding for $cables links"
sim_log "ok: before opensm: one fabric-wide link-not-active"

sim_opensm
check
n=$(findings | wc -l)
if [ "$rc" != 0 ] || [ "$n" != 0 ]; then
	cat out.txt err.txt >&2
	findings >&2
	sim_fail "after opensm: exit $rc, $n findings"
fi
sim_log "ok: after opensm: zero findings, twin-cage spec clean"
sim_log "PASS"
