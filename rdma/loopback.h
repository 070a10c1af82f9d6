/* SPDX-License-Identifier: MIT */
#ifndef IBPROOF_RDMA_LOOPBACK_H
#define IBPROOF_RDMA_LOOPBACK_H

/*
 * DMA bandwidth through one HCA port without a partner: two verbs endpoints
 * on the SAME port connected to each other, so the data goes host memory ->
 * PCIe -> HCA -> PCIe -> host memory and never onto the wire. Used by
 * `ibproof pcie` and `ibproof node`.
 */
#include "rdma/transport.h"

/*
 * Measure `samples` runs of params->duration_s each (params->test WRITE or
 * READ, qps, msg_size, tx_depth, verify as usual; the warm-up only before
 * the first sample). gbps_samples[i] gets sample i in Gb/s (10^9 bits/s; the
 * sum of both directions when params->bidir). 0, or -errno (logged once,
 * naming the port).
 */
int dpath_loopback_measure(const struct dpath_port *port,
			   const struct dpath_params *params, int samples,
			   double *gbps_samples);

#endif
