/* SPDX-License-Identifier: MIT */
#ifndef IBPROOF_BURNIN_LOAD_PROOF_RUN_H
#define IBPROOF_BURNIN_LOAD_PROOF_RUN_H

/*
 * Rank 0's load proof around each step (docs/burnin.md, "The load
 * proof"): open it once the routes are loaded, then per step _begin()
 * before the ranks are told to run and _end() after the results are in.
 * Its PMA reads go through umad from rank 0's process: the rank that has
 * umad access.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "burnin/burnin.h"
#include "burnin/load_proof.h"
#include "common/record.h"
#include "fabric/fabric_ops.h"

struct burnin_routes;
struct burnin_load_proof;

struct burnin_load_proof_params {
	const struct fabric_pma_ops *ops; /* NULL: libibmad's */
	const char *ca; /* umad device; NULL: the first */
	int port; /* 0: the first active */
	double timeout_s; /* per MAD */
	double budget_s; /* per read of a step's ports; 0: none */
};

/* One step, as the load proof sees it. */
struct burnin_load_step {
	int round; /* 0-based */
	const char *test; /* "write", "read" */
	bool read, bidir; /* which ways data flows in a pair */
	double seconds; /* warm-up + duration: the planned bytes' window */
	const struct burnin_pair *pairs; /* inventory indices */
	int n_pairs;
	/* for _end(): bytes each pair's ends measured moving, a->b, b->a */
	const uint64_t *moved_ab, *moved_ba;
};

/*
 * Opens umad (p->ca, p->port) and asks one port of the routes for its
 * counters, so that a run says at once when it cannot prove: 0; or -errno
 * with why ("cannot open umad on ...", "no PMA answer from LID ...").
 * inv[n_inv] is the inventory (mapped to the routes' CAs by port GUID).
 */
int burnin_load_proof_open(const struct burnin_routes *r,
			   const struct dpath_port *inv, int n_inv,
			   const struct burnin_load_proof_params *p,
			   struct burnin_load_proof **out, char *why,
			   size_t len);
void burnin_load_proof_close(struct burnin_load_proof *lp);

/* Before the step: its flows, their cables, the counters of their ends. */
int burnin_load_proof_begin(struct burnin_load_proof *lp,
			    const struct burnin_load_step *s);
/*
 * After the step: reads the counters again, writes a cable-load record
 * per cable into w (NULL: none) and a cable-not-loaded finding per cable
 * that sent under half. 0, -ENOMEM, or the writer's -errno.
 */
int burnin_load_proof_end(struct burnin_load_proof *lp,
			  const struct burnin_load_step *s,
			  struct record_writer *w);
/*
 * Each cable-load record also goes to cert (the coverage certificate's
 * file, --coverage, opened for appending; NULL: none). Not owned.
 */
void burnin_load_proof_set_certificate(struct burnin_load_proof *lp,
				       struct record_writer *cert);
/* A step proved route cable `cable` loaded, or not loaded (not only ever
 * unread, unproven or idle). */
bool burnin_load_proof_decided(const struct burnin_load_proof *lp, int cable);
/* The run's SL (--sl): whose adaptive routing explains a step. */
void burnin_load_proof_set_sl(struct burnin_load_proof *lp, int sl);
/*
 * Whether step (round, test) took its planned cables: false after
 * burnin_load_proof_end() found one of them not loaded (and wrote the
 * step's routes-not-followed finding). The cable judge takes no route
 * evidence from such a step. True for a step never proven.
 */
bool burnin_load_proof_step_followed(const struct burnin_load_proof *lp,
				     int round, const char *test);
/*
 * The steps found off the routes so far (their routes-not-followed
 * findings), as the cable judge takes them (judge/cablejudge.h; run 0,
 * rounds from 0): *out malloc'd (NULL when none), *n. 0 or -ENOMEM.
 */
struct judge_step;
int burnin_load_proof_unfollowed(const struct burnin_load_proof *lp,
				 struct judge_step **out, size_t *n);
/* cable-not-loaded findings so far. */
int burnin_load_proof_not_loaded(const struct burnin_load_proof *lp);
/*
 * The run's error counter rises at both ends of a route cable, summed
 * over the steps that loaded it, indexed by enum ib_pc up to
 * FABRIC_PC_ERRORS_END; NULL when out of range. For the cable judge.
 */
const uint64_t *
burnin_load_proof_cable_errors(const struct burnin_load_proof *lp, int cable);
/*
 * The sum of the rises that broke their limit in their step, by the one
 * table of counter limits with the bits the cable carried in that step
 * (burnin_cable_judge_errors(); XmitWait, congestion, never counted), into
 * *total: the cable judge's err_delta (judge/cablejudge.h, struct
 * judge_cable_in). 0, or -ENODATA when the cable's counters were never
 * read (has_counters false).
 */
int burnin_load_proof_cable_error_total(const struct burnin_load_proof *lp,
					int cable, uint64_t *total);

#endif
