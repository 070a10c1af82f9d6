#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# D1 of the inputs issue, live: an ibsim fabric whose NodeDescriptions are
# hostile (one not UTF-8, one with terminal escapes). fabric discover
# writes every link and its run end, the name escaped as \xNN, and the
# summary on stdout carries no raw ESC or BEL (D9).
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
sim_require "${IBPROOF:?}" jq
IBPROOF=$(realpath "$IBPROOF")
net=$(realpath "$here/../fixtures/inputs/d1-hostile-desc.net")
sim_setup
cp "$net" net
sim_start net
sim_opensm
sim_client "$IBPROOF" fabric discover --records rec.jsonl >out.txt 2>err.txt
rc=$?
[ "$rc" = 0 ] || { cat out.txt err.txt >&2; sim_fail "discover: exit $rc"; }
links=$(jq -s '[.[] | select(.kind == "link")] | length' rec.jsonl)
[ "$links" = 8 ] || sim_fail "discover: $links of 8 links written"
jq -e 'select(.kind == "run" and .event == "end")' rec.jsonl >/dev/null ||
	sim_fail "discover: no run end record"
grep -qF 'node\\xFF\\xFE\\xC3( mlx5_0' rec.jsonl ||
	sim_fail "the description that is not UTF-8 is not in the records as \\xNN"
! grep -q $'[\x1b\x07]' out.txt err.txt ||
	sim_fail "a raw control of a description reached the terminal"
sim_log "ok: 8 links, run end, \\xNN names, no raw controls"
sim_log "PASS"
