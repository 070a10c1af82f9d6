/* SPDX-License-Identifier: MIT */
#ifndef IBPROOF_RDMA_FAKE_TRANSPORT_H
#define IBPROOF_RDMA_FAKE_TRANSPORT_H

#include <stddef.h>

/*
 * The fake transport (burnin_fake_ops) runs the whole orchestration with no
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
 * PORT is "fakeI:1" (any host) or "HOST:fakeI:1".
 */
int burnin_fake_configure(const char *spec, char *err, size_t err_len);
/* judge-s: seconds rank 0's judging is made slower by (0: not). */
double burnin_fake_judge_delay(void);
/* Back to no configuration (unit tests). */
void burnin_fake_reset(void);

#endif
