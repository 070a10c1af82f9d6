/* SPDX-License-Identifier: MIT */
#ifndef IBPROOF_BURNIN_RANK_H
#define IBPROOF_BURNIN_RANK_H

/*
 * What every rank of a burn-in shares: the wire messages and their tags
 * (structs that travel as bytes between ranks of the same binary), the
 * rank's own context, and what a rank does for rank 0 (worker.c: report
 * its port, then run each step it is told to). Rank 0's state is in
 * burnin/coord.h, which worker.c does not include: a worker cannot reach
 * it.
 */
#include "burnin/bootstrap.h"
#include "burnin/burnin.h"
#include "burnin/reaper.h"
#include "burnin/watchdog.h"

#define BURNIN_TAG_INVENTORY 1
#define BURNIN_MAX_COUNTERS 12

/*
 * Message kinds of a step. The connection data and the ready word travel
 * per direction of a pair (sent by its A end, by its B end): in a
 * full-duplex step two ranks can share two pairs (A -> B and B -> A), and
 * each message must find its end.
 */
enum burnin_msg {
	MSG_CTRL,
	MSG_CONN_A,
	MSG_CONN_B,
	MSG_READY_A,
	MSG_READY_B,
	MSG_RESULT,
	MSG_KINDS
};

/* Tags repeat every BURNIN_TAG_STEPS steps: messages of a step are all
 * taken or dropped long before. */
#define BURNIN_TAG_STEPS ((BURNIN_TAG_MAX - 16) / MSG_KINDS)

static inline int burnin_tag(int seq, enum burnin_msg kind)
{
	return 16 + MSG_KINDS * (seq % BURNIN_TAG_STEPS) + (int)kind;
}

struct wire_inventory {
	int32_t has_port;
	struct dpath_port port;
	/* node-local rank 0: more ports on the node than ranks, and which */
	int32_t node_ports, node_ranks;
	char untested[256];
};

/* CTRL_STOP: lost = ranks rank 0 lost (close() must not wait for them),
 * dropped = 1 when the receiver itself was given up on. */
enum ctrl_cmd { CTRL_IDLE, CTRL_RUN, CTRL_STOP };

/* One endpoint of a rank in a step: one end of one pair. */
struct wire_end {
	int32_t role; /* enum dpath_role */
	int32_t partner; /* rank */
	int32_t pair; /* index within the step */
	int32_t side; /* 0: a, 1: b */
};

/* The most endpoints a rank runs in a step: one as initiator, one as
 * target (a full-duplex round). */
#define BURNIN_MAX_ENDS 2

/* Rank 0 -> each rank, before every step (one test of one round). */
struct wire_ctrl {
	int32_t cmd, seq, round, test;
	int32_t n_ends;
	struct wire_end end[BURNIN_MAX_ENDS];
	int32_t lost, dropped; /* CTRL_STOP */
};

struct wire_conn {
	int32_t rc;
	struct dpath_conn_info info;
};

struct wire_counter {
	char name[40];
	uint64_t delta;
	uint8_t saturated; /* at its maximum after the step */
};

/* What one end of a pair measured (the port's counters over the step). */
struct wire_result {
	int32_t seq, pair, side, rc;
	int32_t stop; /* this rank got SIGINT/SIGTERM */
	int32_t n_counters;
	struct dpath_result res;
	struct wire_counter counters[BURNIN_MAX_COUNTERS];
};

/* Each rank that ran -> rank 0, after the step: a result per end. */
struct wire_report {
	int32_t seq, n_ends;
	struct wire_result end[BURNIN_MAX_ENDS];
};

/* One rank: its configuration, bootstrap, port and helper threads. */
struct burnin_ctx {
	const struct burnin_config *cfg;
	struct burnin_bootstrap *bs;
	struct dpath_port port;
	bool has_port;
	struct wire_inventory undriven; /* node_ports, node_ranks, untested */
	struct burnin_watchdog *wd; /* names a stage that overruns */
	struct burnin_reaper
		*reaper; /* destroys endpoints off the step's path */
};

/* Destroying QPs, CQ, MR, PD and CM ids takes milliseconds when all is well. */
#define BURNIN_TEARDOWN_BUDGET_S 5.0

/* worker.c */
int burnin_worker_step(struct burnin_ctx *ctx, const struct wire_ctrl *c,
		       struct wire_report *out,
		       struct dpath_endpoint *ep[BURNIN_MAX_ENDS]);
void burnin_worker_teardown(struct burnin_ctx *ctx,
			    struct dpath_endpoint *ep[BURNIN_MAX_ENDS]);
int burnin_worker_loop(struct burnin_ctx *ctx);
/* How long a worker waits for rank 0's next word before it gives up. */
double burnin_worker_wait_s(const struct burnin_config *cfg);
double burnin_step_seconds(const struct burnin_config *cfg);
/* This rank's inventory message: its port, and the ports it left over. */
struct wire_inventory burnin_inventory_mine(const struct burnin_ctx *ctx);
/* To rank 0 (which gathers them: burnin/coord.h). */
int burnin_inventory_send(struct burnin_ctx *ctx);

#endif
