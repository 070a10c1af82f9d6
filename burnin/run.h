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

struct burnin_routes;
struct burnin_load_proof;

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

/* Rank 0: the inventory, the plan, the results, the records, progress. */
struct burnin_coord {
	struct burnin_ctx *ctx; /* rank 0's own: it runs pairs as well */
	struct dpath_port *inv;
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
	struct { /* what the steps took beyond the window (overhead.c) */
		int steps;
		double total_s, serial_s; /* serial_s: rank 0's own work */
	} overhead;
	/* --routes, loaded by rank 0 before the rounds (NULL: none); the
	 * coord owns it */
	struct burnin_routes *routes;
	struct burnin_load_proof *proof; /* NULL: no load proof */
	struct record_writer *proof_cert; /* --coverage, appended to */
	/* each inventory port's CA in the routes, -1 none (route_judge.h) */
	int *route_ca;
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

/* load_proof_coord.c: the load proof around each step (issue 16) */
/* IBP_EXIT_PASS, or IBP_EXIT_RUNTIME when --prove-load cannot be kept. */
int burnin_coord_proof_open(struct burnin_coord *co,
			    const struct burnin_routes *r);
void burnin_coord_proof_begin(struct burnin_coord *co, int round, int test,
			      int first, int n);
/* m[n]: the measures of the step's pairs sched.pairs[first .. first + n). */
void burnin_coord_proof_end(struct burnin_coord *co, int first,
			    const struct burnin_measure *m, int n);
/* Adds the cable-not-loaded findings to *n_fail (may be NULL); closes. */
void burnin_coord_proof_close(struct burnin_coord *co, int *n_fail);

/* inventory.c */
int burnin_inventory_gather(struct burnin_coord *co);
int burnin_inventory_send(struct burnin_ctx *ctx);

/* resume.c */
int burnin_resume_load(struct burnin_coord *co, const char *path);

/* burnin_records.c */
json_t *burnin_port_record(const struct dpath_port *p, const char *transport,
			   int rank);
json_t *burnin_pair_record(const struct burnin_coord *co,
			   const struct burnin_measure *m, const char *error,
			   const struct wire_result *ra,
			   const struct wire_result *rb);
struct judge_cable_result;
/* cables: the cable judge's verdicts with --routes, or NULL */
int burnin_emit_findings(struct burnin_coord *co,
			 const struct burnin_port_verdict *v,
			 const struct judge_cable_result *cables, int *n_fail);
json_t *burnin_run_record(const struct burnin_coord *co, const char *event);
const char *burnin_test_name(int test);
const char *burnin_cm_name(int cm);

/* overhead.c: the run's own figures, for the run end record */
void burnin_overhead_note(struct burnin_coord *co, double step_s,
			  double serial_s);
json_t *burnin_overhead_json(const struct burnin_coord *co);

/* progress.c */
void burnin_progress_step(struct burnin_coord *co, int round, int n_rounds,
			  int test, int ok, int n);
void burnin_progress_done(struct burnin_coord *co);

#endif
