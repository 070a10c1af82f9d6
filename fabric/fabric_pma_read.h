/* SPDX-License-Identifier: MIT */
/*
 * fabric_pma_read.h: the PMA counters of a list of (LID, port), in one
 * call: PortCounters (the error counters and 32-bit data), and the 64-bit
 * PortCountersExtended data counters where the node's ClassPortInfo
 * advertises them. Used by burnin's load proof (issue 16), which reads the
 * same ports before and after every step; the list keeps what it learnt of
 * each node's ClassPortInfo, so a later read asks only for counters.
 */
#ifndef IBPROOF_FABRIC_PMA_READ_H
#define IBPROOF_FABRIC_PMA_READ_H

#include <stddef.h>
#include <stdint.h>

#include "fabric/fabric_ops.h"

enum fabric_pma_ext {
	FABRIC_PMA_EXT_UNKNOWN = 0, /* ClassPortInfo not read yet */
	FABRIC_PMA_EXT_NO, /* 32-bit PortCounters only */
	FABRIC_PMA_EXT_YES, /* PortCountersExtended advertised */
};

/* One port to read (a switch: its LID, the port number). */
struct fabric_pma_target {
	uint16_t lid;
	uint8_t port;
	uint8_t ext; /* enum fabric_pma_ext: kept between reads */
	/* filled by each read: */
	int status; /* 0 read; -ETIMEDOUT no answer to PortCounters;
		     * -EREMOTEIO answered with a MAD status: */
	uint16_t mad_status; /* that status (fabric_mad_status_text) */
	struct fabric_pc pc; /* pc.ext: the data counters are 64-bit */
};

/*
 * Reads every target through ops/h (each MAD waits at most the handle's
 * timeout; up to a window of them in flight): PortCounters of all, then
 * ClassPortInfo of each LID whose ext is still unknown, then
 * PortCountersExtended where advertised. A target whose extended read
 * fails keeps its 32-bit data (pc.ext false). budget_ms (0: none) bounds
 * the whole read: it stops sending once it has passed (a slice of up to
 * 64 queries in flight may overrun it by a few MAD timeouts), and the
 * targets not read then fail with -ETIMEDOUT. Returns the number of
 * targets read, -ENOMEM.
 */
int fabric_pma_read_ports(const struct fabric_pma_ops *ops,
			  struct fabric_pma *h, struct fabric_pma_target *t,
			  size_t n, unsigned budget_ms);

#endif
