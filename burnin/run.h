/* SPDX-License-Identifier: MIT */
#ifndef IBPROOF_BURNIN_RUN_H
#define IBPROOF_BURNIN_RUN_H

/*
 * Internals of the round loop, shared by worker.c (every rank), coord.c
 * (rank 0), burnin_records.c and progress.c. Wire structs travel as bytes
 * between ranks of the same binary. struct burnin_ctx is what every rank
 * has; struct burnin_coord is rank 0's alone, owned by coord.c and taken
 * by the files that serve rank 0 (inventory gathering, resume, findings,
 * progress, records).
 */
#include <jansson.h>

#include "burnin/bootstrap.h"
#include "burnin/burnin.h"
#include "burnin/reaper.h"
#include "burnin/watchdog.h"
#include "common/record.h"

#define BURNIN_TAG_INVENTORY 1
#define BURNIN_MAX_COUNTERS 12
#define BURNIN_SETUP_ESTIMATE_S 0.3 /* per step, for --dry-run */

enum burnin_msg { MSG_CTRL, MSG_CONN, MSG_READY, MSG_RESULT };

static inline int burnin_tag(int seq, enum burnin_msg kind)
{
	return 16 + 4 * (seq % 8000) + (int)kind;
}

struct wire_inventory {
	int32_t has_port;
	struct burnin_port port;
	/* node-local rank 0: more ports on the node than ranks, and which */
	int32_t node_ports, node_ranks;
	char untested[256];
};

/* CTRL_STOP: partner = ranks lost, round = 1 when the receiver was dropped. */
enum ctrl_cmd { CTRL_IDLE, CTRL_RUN, CTRL_STOP };

/* Rank 0 -> each rank, before every step (one test of one round). */
struct wire_ctrl {
	int32_t cmd, seq, round, test;
	int32_t role; /* enum burnin_role */
	int32_t partner; /* rank */
	int32_t pair; /* index within the step */
	int32_t side; /* 0: a, 1: b */
};

struct wire_conn {
	int32_t rc;
	struct burnin_conn_info info;
};

struct wire_counter {
	char name[40];
	uint64_t delta;
	uint8_t saturated; /* at its maximum after the step */
};

/* Each end of a pair -> rank 0, after the step. */
struct wire_result {
	int32_t seq, pair, side, rc;
	int32_t stop; /* this rank got SIGINT/SIGTERM */
	int32_t n_counters;
	struct burnin_result res;
	struct wire_counter counters[BURNIN_MAX_COUNTERS];
};

/* One rank: its configuration, bootstrap, port and helper threads. */
struct burnin_ctx {
	const struct burnin_config *cfg;
	struct burnin_bootstrap *bs;
	struct burnin_port port;
	bool has_port;
	struct wire_inventory undriven; /* node_ports, node_ranks, untested */
	struct burnin_watchdog *wd; /* names a stage that overruns */
	struct burnin_reaper
		*reaper; /* destroys endpoints off the step's path */
};

/* Rank 0: the inventory, the plan, the results, the records, progress. */
struct burnin_coord {
	struct burnin_ctx *ctx; /* rank 0's own: it runs pairs as well */
	struct burnin_port *inv;
	int n_inv;
	int *inv_rank; /* inventory index -> rank */
	bool *alive; /* per rank */
	struct burnin_schedule sched;
	int n_main_rounds;
	struct burnin_measure *m;
	int n_m;
	size_t cap_m;
	json_t **port_counters; /* inventory index -> {name: error delta} */
	json_t **port_saturated; /* inventory index -> [names at their max] */
	struct record_writer *w;
	bool *done_steps; /* resumed: (round, test) already recorded */
	int n_done_steps;
	int seq;
	bool stopped;
	bool workers_stopped; /* CTRL_STOP sent to every live rank */
	/* progress */
	double start, worst_ratio;
	char worst[400];
	int pairs_done;
	int pairs_resumed; /* pairs of the steps --resume skips */
	/* --routes: the routes rank 0 keeps (freed with the coord), and
	 * each inventory port's CA in them, -1 none (route_judge.h) */
	struct burnin_routes *routes;
	int *route_ca;
};

/* Destroying QPs, CQ, MR, PD and CM ids takes milliseconds when all is well. */
#define BURNIN_TEARDOWN_BUDGET_S 5.0

/* worker.c */
int burnin_worker_step(struct burnin_ctx *ctx, const struct wire_ctrl *c,
		       struct wire_result *out, struct burnin_endpoint **ep);
void burnin_worker_teardown(struct burnin_ctx *ctx, struct burnin_endpoint *ep);
int burnin_worker_loop(struct burnin_ctx *ctx);
/* How long a worker waits for rank 0's next word before it gives up. */
double burnin_worker_wait_s(const struct burnin_config *cfg);
double burnin_step_seconds(const struct burnin_config *cfg);

/* coord.c */
/* Rank 0's state for ctx, empty; released by burnin_coord_release(). */
void burnin_coord_init(struct burnin_coord *co, struct burnin_ctx *ctx);
/* Closes the records and frees the state; -EIO if the close failed. */
int burnin_coord_release(struct burnin_coord *co);
int burnin_coordinate(struct burnin_coord *co);
/* Rank 0 gives up on rank r (late, silent): it is told to leave quietly
 * (CTRL_STOP, round 1, tagged seq: the instruction it waits for next). */
void burnin_drop_rank(struct burnin_coord *co, int r, int seq);
/* CTRL_STOP to every live rank, once: nothing is left for them to do. */
void burnin_stop_workers(struct burnin_coord *co);
/* Appends m to co->m (growing it), -ENOMEM. */
int burnin_coord_add_measure(struct burnin_coord *co,
			     const struct burnin_measure *m);

/* inventory.c */
int burnin_inventory_gather(struct burnin_coord *co);
int burnin_inventory_send(struct burnin_ctx *ctx);

/* resume.c */
int burnin_resume_load(struct burnin_coord *co, const char *path);

/* burnin_records.c */
json_t *burnin_port_record(const struct burnin_port *p, const char *transport,
			   int rank);
json_t *burnin_pair_record(const struct burnin_coord *co,
			   const struct burnin_measure *m, const char *error,
			   const struct wire_result *ra,
			   const struct wire_result *rb);
int burnin_emit_findings(struct burnin_coord *co,
			 const struct burnin_port_verdict *v, int *n_fail);
json_t *burnin_run_record(const struct burnin_coord *co, const char *event);
const char *burnin_test_name(int test);
const char *burnin_cm_name(int cm);

/* progress.c */
void burnin_progress_step(struct burnin_coord *co, int round, int n_rounds,
			  int test, int ok, int n);
void burnin_progress_done(struct burnin_coord *co);

#endif
