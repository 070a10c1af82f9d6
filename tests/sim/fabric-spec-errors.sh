#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Acceptance 5 of issue 4: a malformed spec (or name map) makes
# `ibproof fabric check` exit 2 with the exact "file:line: ..." message,
# before any MAD is sent.
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
IBPROOF=$(realpath "${IBPROOF:?}")
cd "${FIXTURES:?}" || sim_fail "no fixtures"
fails=0

expect() { # expect FILE MESSAGE [extra args]
	local file=$1 msg=$2 err rc
	shift 2
	err=$("$IBPROOF" fabric check --spec "$file" "$@" 2>&1 >/dev/null)
	rc=$?
	if [ "$rc" != 2 ] || ! grep -qxF "ibproof: error: $msg" <<<"$err"; then
		sim_log "FAIL: $file: exit $rc, stderr: $err"
		sim_log "      want exit 2 and: $msg"
		fails=$((fails + 1))
	else
		sim_log "ok: $msg"
	fi
}

expect bad-columns.csv \
	'bad-columns.csv:4: expected 5 columns as in the header, got 3'
expect bad-port.csv \
	'bad-port.csv:3: a_port: expected a port number (1-255) or cage/lane like 17/1, got "17/3"'
expect dup-port.csv \
	'dup-port.csv:6: leaf01 port 5 is already in the cable at line 4'
expect self-cable.csv 'self-cable.csv:2: cable from spine01 port 3 to itself'
expect no-header.csv \
	'no-header.csv:2: expected a header of columns a_node,a_port,z_node,z_port[,speed,width,label,rack], got "leaf01"'
expect bad-speed.csv \
	'bad-speed.csv:3: speed: expected SDR, DDR, QDR, FDR10, FDR, EDR, HDR, NDR or XDR, got "EDR2"'
expect good.csv 'bad.map:2: expected 0xGUID "name"' \
	--topology "$FIXTURES/small.topo" --node-name-map bad.map
expect no-such-file.csv 'no-such-file.csv: cannot read: No such file or directory'
[ "$fails" = 0 ] || sim_fail "$fails malformed inputs not reported as expected"
sim_log "PASS"
