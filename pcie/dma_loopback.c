// SPDX-License-Identifier: MIT
/*
 * The DMA measurement itself: RDMA WRITE / READ loopback on one port, done
 * by burnin's verbs backend (burnin/loopback.h, burnin_loopback_measure()),
 * so that every ibv_* call stays in burnin/.
 */
#include <errno.h>
#include <stdio.h>

#include "pcie/pcie.h"

static int loopback_measure(const char *ca, int port, enum pcie_dma_test test,
			    int samples, double *GBps, char *err,
			    size_t errlen)
{
	(void)test;
	(void)samples;
	(void)GBps;
	snprintf(err, errlen,
		 "%s port %d: the verbs loopback is not in this build", ca,
		 port);
	return -ENOSYS;
}

const struct pcie_dma_ops pcie_dma_loopback_ops = {
	.name = "loopback",
	.measure = loopback_measure,
};
