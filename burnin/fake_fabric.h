/* SPDX-License-Identifier: MIT */
#ifndef IBPROOF_BURNIN_FAKE_FABRIC_H
#define IBPROOF_BURNIN_FAKE_FABRIC_H

/*
 * The fake transport's fabric (issue 16): a model of the data plane, the
 * one stand-in nothing on these machines can run for real. Spec items,
 * after the fake's own (rdma/fake_transport.h):
 *   routes=FILE            the records of `ibproof fabric routes
 *                          --records`: the fake's ports are its CA
 *                          ports, each flow's rate the max-min fair
 *                          share (burnin/fake_flows.h) over the routes of
 *                          every flow of the same step
 *   slow-cable=SW:PORT@F   the cable leaving SW by PORT carries F x its
 *                          capacity
 *   flaky-cable=SW:PORT@F  ... F x in about 1 window in 4 (chosen by seed)
 *   errors-cable=SW:PORT@N N error completions for each flow through it,
 *                          N symbol and receive errors at its far end
 *   seed=N                 the flaky windows (default 0)
 *   sim-console=FIFO       ibsim's console: the PMA counters of every
 *                          cable follow the model (PerformanceSet)
 * SW is a NodeDescription (no spaces: the spec splits on them) or a node
 * GUID (0x...); PORT the egress port of the direction.
 */
#include "rdma/fake_transport.h"

extern const struct dpath_fake_fabric_ops burnin_fake_fabric_ops;

#endif
