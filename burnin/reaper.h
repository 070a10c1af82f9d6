/* SPDX-License-Identifier: MIT */
#ifndef IBPROOF_BURNIN_REAPER_H
#define IBPROOF_BURNIN_REAPER_H

#include "rdma/transport.h"

/*
 * Destroys a rank's endpoints on a thread of their own, in order, so that
 * a teardown blocked in the kernel (seen on Soft-RoCE for seconds, once
 * ~95 s) holds up neither the result of its pair nor the next step. Its
 * own watchdog names a teardown past its budget. A NULL reaper destroys
 * in the caller's thread.
 */
struct burnin_reaper;

/* who: what the watchdog's messages name. NULL when no thread could start. */
struct burnin_reaper *burnin_reaper_start(const struct dpath_transport_ops *ops,
					  const char *who, double budget_s);
/* Queues ep for destruction (NULL: nothing); destroys it here without a reaper. */
void burnin_reaper_add(struct burnin_reaper *r,
		       const struct dpath_transport_ops *ops,
		       struct dpath_endpoint *ep);
/*
 * Waits up to wait_s for the queued teardowns, then ends the reaper. One
 * still blocked is left to the process's exit (said as a warning).
 */
void burnin_reaper_stop(struct burnin_reaper *r, double wait_s);

#endif
