// SPDX-License-Identifier: MIT
/*
 * pma_read: reads the PMA counters of (LID, port) targets through
 * fabric_pma_read_ports() and the real libibmad ops (fabric_mad_pma_ops),
 * twice (the second read reuses what the first learnt of ClassPortInfo),
 * and prints the second: one line per target,
 *
 *   LID PORT ext|32 Name=value ... (every counter of common/ibport.h)
 *
 * or "LID PORT no-answer". For the sim tier, under umad2sim.
 *
 *   pma_read [--ca CA] [--timeout-ms MS] LID:PORT...
 *
 * Exit 0 when every target answered, 1 otherwise, 2 on bad arguments.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/ibport.h"
#include "fabric/fabric_ops.h"
#include "fabric/fabric_pma_read.h"

static int parse_target(const char *arg, struct fabric_pma_target *t)
{
	unsigned lid, port;
	char tail;

	if (sscanf(arg, "%u:%u%c", &lid, &port, &tail) != 2 || !lid ||
	    lid > 0xbfff || port > 254)
		return -EINVAL;
	memset(t, 0, sizeof(*t));
	t->lid = (uint16_t)lid;
	t->port = (uint8_t)port;
	return 0;
}

static void print_target(const struct fabric_pma_target *t)
{
	printf("%u %u", t->lid, t->port);
	if (t->status) {
		printf(" no-answer\n");
		return;
	}
	printf(" %s", t->pc.ext ? "ext" : "32");
	for (int i = 0; i < IB_PC_COUNT; i++)
		printf(" %s=%llu", ib_pc_defs[i].name,
		       (unsigned long long)t->pc.v[i]);
	printf("\n");
}

int main(int argc, char **argv)
{
	const struct fabric_pma_ops *ops = &fabric_mad_pma_ops;
	struct fabric_pma_target *t;
	struct fabric_pma *h;
	const char *ca = NULL;
	unsigned timeout_ms = 1000;
	int i = 1, n, rc = 0;

	for (; i + 1 < argc && argv[i][0] == '-'; i += 2) {
		if (!strcmp(argv[i], "--ca"))
			ca = argv[i + 1];
		else if (!strcmp(argv[i], "--timeout-ms"))
			timeout_ms = (unsigned)strtoul(argv[i + 1], NULL, 10);
		else
			break;
	}
	n = argc - i;
	t = calloc(n > 0 ? (size_t)n : 1, sizeof(*t));
	if (!t || n <= 0) {
		fprintf(stderr, "usage: pma_read [--ca CA] LID:PORT...\n");
		return 2;
	}
	for (int k = 0; k < n; k++) {
		if (parse_target(argv[i + k], &t[k])) {
			fprintf(stderr, "%s: expected LID:PORT\n", argv[i + k]);
			return 2;
		}
	}
	if (ops->open(ca, 0, timeout_ms, &h))
		return 1;
	if (fabric_pma_read_ports(ops, h, t, (size_t)n, 0) < 0 ||
	    fabric_pma_read_ports(ops, h, t, (size_t)n, 0) < 0)
		rc = 1;
	for (int k = 0; k < n; k++) {
		print_target(&t[k]);
		rc |= t[k].status != 0;
	}
	ops->close(h);
	free(t);
	return rc;
}
