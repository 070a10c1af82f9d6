// SPDX-License-Identifier: MIT
/*
 * The DMA measurement itself: RDMA WRITE / READ loopback on one port, done
 * by the data path's verbs backend (dpath_loopback_measure(),
 * rdma/loopback.h), so that every ibv_* call stays in rdma/verbs_ops.c. Figures come back in Gb/s and
 * leave here in GB/s (10^9 bytes/s).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rdma/loopback.h"
#include "rdma/transport.h"
#include "pcie/pcie.h"

/* One sample: 64 KiB RDMA operations on 4 QPs for half a second. */
static const struct dpath_params pcie_loopback_params = {
	.msg_size = 64 << 10,
	.qps = 4,
	.tx_depth = 16,
	.duration_s = 0.5,
	.warmup_s = 0.5,
	.stall_s = 5,
	.retry_cnt = 3,
};

static int find_port(const char *ca, int port, struct dpath_port *out,
		     char *err, size_t errlen)
{
	struct dpath_port *ports = NULL;
	char filter[PCIE_NAME_LEN + 8];
	int n = 0, ret;

	snprintf(filter, sizeof(filter), "%s:%d", ca, port);
	ret = dpath_verbs_ops.list_ports(filter, &ports, &n);
	if (!ret && n < 1)
		ret = -ENODEV;
	if (ret)
		snprintf(err, errlen, "%s port %d: not found by verbs: %s", ca,
			 port, strerror(-ret));
	else
		*out = ports[0];
	free(ports);
	return ret;
}

static int loopback_measure(const char *ca, int port, enum pcie_dma_test test,
			    int samples, double *GBps, char *err, size_t errlen)
{
	struct dpath_params params = pcie_loopback_params;
	struct dpath_port p;
	int ret = find_port(ca, port, &p, err, errlen);

	if (ret)
		return ret;
	params.test =
		test == PCIE_DMA_READ ? DPATH_TEST_READ : DPATH_TEST_WRITE;
	ret = dpath_loopback_measure(&p, &params, samples, GBps);
	if (ret) {
		snprintf(err, errlen, "%s port %d: loopback failed: %s", ca,
			 port, strerror(-ret));
		return ret;
	}
	for (int k = 0; k < samples; k++)
		GBps[k] /= 8.0; /* Gb/s -> GB/s */
	return 0;
}

const struct pcie_dma_ops pcie_dma_loopback_ops = {
	.name = "loopback",
	.measure = loopback_measure,
};
