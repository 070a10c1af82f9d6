#!/usr/bin/awk -f
# SPDX-License-Identifier: MIT
# topo2ports.awk: ibnetdiscover topology text -> burnin `port` records, one
# per CA port, as `ibproof burnin` would have written them on the hosts:
# host and CA from the NodeDescription ("node001 mlx5_0"), the port GUID
# from the "[1](guid)" port line, rail = the mlx5_K index. No leaf field:
# the leaves must come from --topology. For tests (tests/sim/burnin-leaves.sh
# and the fixture tests/fixtures/records/leaves-inventory.jsonl).
/^Ca[ \t]/ {
	split($0, q, "\"")
	split(q[4], d, " ")
	host = d[1]
	ca = d[2]
	next
}
/^\[[0-9]+\]\(/ && host != "" {
	port = substr($1, 2, index($1, "]") - 2)
	guid = substr($1, index($1, "(") + 1)
	sub(/\).*/, "", guid)
	guid = sprintf("%016s", guid)
	gsub(/ /, "0", guid)
	rail = ca
	sub(/.*[^0-9]/, "", rail)
	printf "{\"schema\":\"ibproof/1\",\"kind\":\"port\",\"time\":\"2026-12-02T15:04:05.123Z\",\"host\":\"%s\",\"version\":\"0.1.0\",\"ca\":\"%s\",\"port\":%d,\"guid\":\"0x%s\",\"lid\":0,\"link_layer\":\"InfiniBand\",\"state\":\"ACTIVE\",\"rate_gbps\":100.0,\"rail\":%d}\n", host, ca, port, guid, rail + 0
	next
}
/^$/ { host = "" }
