/* SPDX-License-Identifier: MIT */
#ifndef IBPROOF_BURNIN_COORD_H
#define IBPROOF_BURNIN_COORD_H

/*
 * Rank 0's own: struct burnin_coord (the inventory, the plan, the
 * results, the records, progress), owned by coord.c's round loop, and the
 * files that serve rank 0 and take it: coord_inventory.c (gathering the
 * inventory), coord_judge.c (the judge between and after the rounds),
 * load_proof_coord.c, resume.c (its entry in burnin/resume.h),
 * burnin_records.c, findings.c, overhead.c, progress.c. worker.c never
 * includes this header (burnin/rank.h is what every rank shares;
 * scripts/check-layers keeps the list of who may include this one).
 */
#include <jansson.h>

#include "burnin/rank.h"
#include "common/record.h"

struct burnin_routes;
struct burnin_load_proof;
struct judge_cable_result;

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
	json_t **port_counters; /* inventory index -> {name: error delta}, the
				 * steps whose rise broke its limit */
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
	/* each inventory port's CA in the routes, -1 none (coord_judge.c) */
	int *route_ca;
};

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

/* coord_inventory.c: every rank's port, gathered and sorted into co */
int burnin_inventory_gather(struct burnin_coord *co);

/* coord_judge.c: the judge between and after the rounds */
/*
 * burnin_judge() on co's measures, by route when co has routes (the
 * routes of --routes, kept by burnin_plan_keep()); the cable verdicts go
 * into cables when not NULL.
 */
int burnin_coord_judge(struct burnin_coord *co, struct burnin_port_verdict *v,
		       struct judge_cable_result *cables);
/*
 * With routes: pairs that tell apart the candidates of the ambiguous cable
 * findings in cables (route_judge.h's burnin_route_separate()), added to
 * the schedule's last round (a new one when new_round; dropped again when
 * none is added); ports already in that round and of lost ranks are left
 * out. Returns the number added, or -ENOMEM.
 */
int burnin_coord_separate(struct burnin_coord *co,
			  const struct judge_cable_result *cables,
			  bool new_round);
/* With routes: the paths of m's pair added to its record (route_judge.h's
 * burnin_pair_route_fields()). 0 or -ENOMEM. */
int burnin_coord_route_fields(const struct burnin_coord *co,
			      const struct burnin_measure *m, json_t *rec);
/* The cable records and then the cable findings (judge/cablefind.h, the
 * report's too) appended to out; *n_fail counts the findings. 0 or
 * -ENOMEM. */
int burnin_cable_records(const struct burnin_coord *co,
			 const struct judge_cable_result *cables, json_t *out,
			 int *n_fail);
void burnin_coord_routes_free(struct burnin_coord *co);

/* burnin_records.c */
json_t *burnin_port_record(const struct dpath_port *p, const char *transport,
			   int rank);
json_t *burnin_pair_record(const struct burnin_coord *co,
			   const struct burnin_measure *m, const char *error,
			   const struct wire_result *ra,
			   const struct wire_result *rb);
json_t *burnin_run_record(const struct burnin_coord *co, const char *event);
const char *burnin_test_name(int test);
const char *burnin_cm_name(int cm);

/* findings.c */
/* cables: the cable judge's verdicts with --routes, or NULL; *scope: the
 * parts in scope, tested and not (issue 32, burnin/scope.h) */
struct burnin_scope;
int burnin_emit_findings(struct burnin_coord *co,
			 const struct burnin_port_verdict *v,
			 const struct judge_cable_result *cables, int *n_fail,
			 struct burnin_scope *scope);

/* overhead.c: the run's own figures, for the run end record */
void burnin_overhead_note(struct burnin_coord *co, double step_s,
			  double serial_s);
json_t *burnin_overhead_json(const struct burnin_coord *co);

/* progress.c */
void burnin_progress_step(struct burnin_coord *co, int round, int n_rounds,
			  int test, int ok, int n);
void burnin_progress_done(struct burnin_coord *co);

#endif
