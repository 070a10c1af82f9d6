/* SPDX-License-Identifier: MIT */
#ifndef IBPROOF_RDMA_VERBS_RUN_H
#define IBPROOF_RDMA_VERBS_RUN_H

/*
 * The run loop of the verbs backend: post, poll, meter, stall detector, the
 * "done" handshake. It drives the hardware only through struct dpath_vio
 * (verbs_ops.c implements it with ibv_*; unit tests script it), so the loop
 * itself has no ibv_* calls.
 */
#include <stdbool.h>
#include <stdint.h>

#include "rdma/transport.h"

enum dpath_vcqe_kind {
	DPATH_CQE_DATA, /* one of our RDMA WRITE/READ */
	DPATH_CQE_DONE_SENT, /* our done signal reached the peer */
	DPATH_CQE_PEER_DONE, /* the peer's done signal arrived */
};

struct dpath_vcqe {
	enum dpath_vcqe_kind kind;
	int qp;
	bool ok;
	const char *status; /* ibv_wc_status_str() when !ok */
	uint64_t bytes;
};

struct dpath_vio {
	void *ctx;
	/* Post one RDMA WRITE or READ of msg_size on QP qp; 0 or -errno. */
	int (*post_data)(void *ctx, int qp);
	/* Post the done signal (a WRITE WITH IMMEDIATE on QP 0); 0 or -errno.
	 */
	int (*post_done)(void *ctx);
	/* Up to max completions; count or -errno. Reposts receives itself. */
	int (*poll)(void *ctx, struct dpath_vcqe *cqe, int max);
	/* CLOCK_MONOTONIC in ns (a script's clock in tests). */
	int64_t (*now_ns)(void *ctx);
	/* Wait a little when idle (a target's loop), or NULL. */
	void (*idle)(void *ctx);
};

struct dpath_vrun_state;

/*
 * Run one side of a test per params (warm-up, duration, tx_depth, qps,
 * stall_s) in role. Fills res except verify_failed. 0, or -errno with
 * res->error set ("stalled: 12 outstanding", "completion error: ...",
 * "no done signal from the peer within 13.0 s").
 */
int dpath_vrun(const struct dpath_vio *io, const struct dpath_params *params,
	       enum dpath_role role, struct dpath_result *res);

/* Record a completion error of status (ibv_wc_status_str) in res. */
void dpath_result_count_error(struct dpath_result *res, const char *status);

#endif
