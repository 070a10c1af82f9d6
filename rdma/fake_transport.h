/* SPDX-License-Identifier: MIT */
#ifndef IBPROOF_RDMA_FAKE_TRANSPORT_H
#define IBPROOF_RDMA_FAKE_TRANSPORT_H

#include <stddef.h>
#include <stdint.h>

#include "rdma/transport.h"

extern const struct dpath_transport_ops dpath_fake_ops;

/*
 * The fake transport (dpath_fake_ops) runs the whole orchestration with no
 * device: it sleeps for the real duration of each test and computes the
 * figures from its configuration. Its ports are named fakeN (port 1) and
 * its records say transport "fake": it never poses as hardware.
 *
 * spec: items separated by ';' (or from the environment IBP_FAKE):
 *   ports=N          ports on this host: fake0..fake(N-1) (default 4)
 *   rails=R          port i is on rail i % R (default 1)
 *   rate=GBPS        active rate of every port (default 100)
 *   efficiency=F     achieved fraction of the rate (default 0.95)
 *   slow=PORT@F      that port moves F x the bandwidth (planted slow port)
 *   flaky=PORT@F     every 4th 100 ms window of that port runs at F x
 *   errors=PORT@N    N error completions in each test of that port
 *   symerr=PORT@N    symbol_error grows by N in each test of that port
 *   fail-create=N    the Nth endpoint_create in this process fails
 *   fail-connect=N   the Nth connect in this process fails
 *   die=PORT@N       the process of PORT is SIGKILLed in its Nth run()
 *   hang=PORT@N      PORT's Nth run() sleeps hang-s seconds (a stuck peer)
 *   stuck-teardown=PORT@N  PORT's Nth endpoint_destroy() sleeps hang-s
 *   width=PORT@L           PORT trained to L lanes of 4 (its rate L/4 of rate)
 *   symerr-at=PORT@V       PORT's symbol_error starts at V (65535: saturated)
 *   counter-reset=PORT@N   PORT's counters are cleared in its Nth run()
 *                          (perfquery -R during a step)
 *                    seconds (a destroy call blocked in the kernel)
 *   hang-s=S         default 30
 *   judge-s=S        rank 0's judging before a retest round takes S
 *                    seconds longer (a cluster too big to judge quickly)
 * PORT is "fakeI:1" (any host) or "HOST:fakeI:1"; with routes=FILE the
 * fabric's names, "HOST:CA:PORT" ("CA:PORT" when one port has it, or the
 * port GUID "0x..."). A fault naming no port, or several, is refused.
 *
 * Items the fake does not know go to its fabric, when one is set
 * (dpath_fake_set_fabric(): burnin/fake_fabric.c, routes=FILE and the
 * planted cable faults; docs/burnin.md).
 */
int dpath_fake_configure(const char *spec, char *err, size_t err_len);
/* judge-s: seconds rank 0's judging is made slower by (0: not). */
double dpath_fake_judge_delay(void);
/* Back to no configuration (unit tests). */
void dpath_fake_reset(void);
/*
 * "WHERE@VALUE" (a planted fault) into where[len] and *value >= 0: 0;
 * -EINVAL not that shape; -ERANGE a bad value.
 */
int dpath_fake_split_fault(const char *val, char *where, size_t len,
			   double *value);

/*
 * The fabric behind the fake (issue 16): a data plane modelled from the
 * fabric's routes. With it, the fake's ports are the fabric's CA ports
 * (named as the routes name them: host, CA and port, with the CA's port
 * GUID, LID and rate) and a
 * measuring end gets its rate in each window from the fabric, which sees
 * every flow of the step (across processes). The fake keeps the HCA
 * faults, the efficiency and the timing.
 */
struct dpath_fake_flow {
	uint64_t src_guid, dst_guid; /* port GUIDs: data leaves, arrives */
	double cap_gbps; /* its own limit: the slower port x planted slow */
	int step; /* dpath_params.step: flows of one step share cables */
	double warmup_s, duration_s, stall_s;
};

struct dpath_fake_fabric_ops {
	/* A spec item: 1 it is the fabric's, 0 not, -EINVAL (err: why). */
	int (*item)(const char *key, const char *val, char *err,
		    size_t err_len);
	/* After the last item: load what they name. 0, -errno (err). */
	int (*ready)(char *err, size_t err_len);
	/* Its CA ports (0: no fabric configured; the fake's own ports). */
	int (*n_ports)(void);
	/* Port i: host, CA and port as the fabric names them, guid, lid,
	 * rate. */
	void (*port)(int i, struct dpath_port *p);
	/* The index of a port GUID among its CA ports, -1 none. */
	int (*port_index)(uint64_t port_guid);
	/* A measuring end starts its flow: the others of the step see it. */
	int (*flow_start)(const struct dpath_fake_flow *f);
	/*
	 * After the test: the flow's rate (Gb/s, before the fake's
	 * efficiency) in each of its n windows, and the error completions
	 * its cables plant. 0, -errno (gbps untouched).
	 */
	int (*flow_rates)(const struct dpath_fake_flow *f, double *gbps, int n,
			  uint32_t *errors);
	/* What the flow moved (bytes): the counters of its cables. */
	void (*flow_end)(const struct dpath_fake_flow *f, uint64_t bytes);
	void (*reset)(void);
};

/* Set once, before dpath_fake_configure() (NULL: no fabric). */
void dpath_fake_set_fabric(const struct dpath_fake_fabric_ops *ops);

#endif
