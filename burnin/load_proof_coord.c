// SPDX-License-Identifier: MIT
/*
 * load_proof_coord.c: where rank 0's round loop (coord.c) meets the load
 * proof (load_proof_run.h): whether it runs (--prove-load, the routes,
 * umad), and each step's flows and bytes from the wire results.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "burnin/coord.h"
#include "burnin/load_proof_run.h"
#include "burnin/route_model.h"
#include "common/cli.h"
#include "common/log.h"

/*
 * The certificate (--coverage, written by the planner before the rounds)
 * gets each step's cable-load records appended: the plan and what the
 * cables carried, in one file.
 */
static void open_certificate(struct burnin_coord *co)
{
	const char *path = co->ctx->cfg->coverage;

	if (!path || !strcmp(path, "-"))
		return;
	co->proof_cert = record_writer_open(path, true);
	if (!co->proof_cert) {
		log_warn("load proof: --coverage %s: %m: the proof goes to the "
			 "records only",
			 path);
		return;
	}
	burnin_load_proof_set_certificate(co->proof, co->proof_cert);
}

int burnin_coord_proof_open(struct burnin_coord *co,
			    const struct burnin_routes *r)
{
	const struct burnin_config *cfg = co->ctx->cfg;
	/* Each read before and after a step holds the other ranks, which
	 * wait for rank 0 timeout_s past the step: a quarter of it each. */
	struct burnin_load_proof_params p = { .timeout_s = 0.5,
					      .budget_s = cfg->timeout_s / 4 };
	char why[400];

	if (!cfg->prove_load)
		return IBP_EXIT_PASS;
	if (!r) { /* with --routes the planner kept them in co->routes */
		if (cfg->prove_load > 0)
			log_warn("--prove-load needs --routes: no load proof");
		return IBP_EXIT_PASS;
	}
	/* The run's own HCA port; ports a umad client cannot open (the
	 * fake's) leave umad's first CA (ibsim's). */
	if (cfg->ops->has_mad_port && co->ctx->has_port) {
		p.ca = co->ctx->port.ca;
		p.port = co->ctx->port.port;
	}
	if (!burnin_load_proof_open(r, co->inv, co->n_inv, &p, &co->proof, why,
				    sizeof(why))) {
		burnin_load_proof_set_sl(co->proof, cfg->params.sl);
		log_info("load proof: PMA counters of every loaded cable are "
			 "read around each step");
		open_certificate(co);
		return IBP_EXIT_PASS;
	}
	if (cfg->prove_load > 0) {
		log_error("--prove-load: %s", why);
		return IBP_EXIT_RUNTIME;
	}
	if (strcmp(cfg->ops->name, "fake")) /* issue 32: not a pass */
		log_warn("no load proof: %s: the cables the plan loads will be "
			 "not-tested and the run INCOMPLETE (--prove-load "
			 "makes this an error, --accept-untested cables "
			 "accepts it)",
			 why);
	else
		log_warn("no load proof (cables loaded as planned, not "
			 "proven): %s; --no-prove-load silences this",
			 why);
	return IBP_EXIT_PASS;
}

static void fill_step(const struct burnin_coord *co, int round, int test,
		      int first, int n, struct burnin_load_step *s)
{
	const struct burnin_config *cfg = co->ctx->cfg;

	*s = (struct burnin_load_step){
		.round = round,
		.test = burnin_test_name(test),
		.read = test == DPATH_TEST_READ,
		.bidir = cfg->params.bidir,
		.seconds = cfg->params.warmup_s + cfg->params.duration_s,
		.pairs = co->sched.pairs + first,
		.n_pairs = n,
	};
}

void burnin_coord_proof_begin(struct burnin_coord *co, int round, int test,
			      int first, int n)
{
	struct burnin_load_step s;

	if (!co->proof)
		return;
	fill_step(co, round, test, first, n, &s);
	if (burnin_load_proof_begin(co->proof, &s)) {
		log_error("load proof: out of memory; no proof from now on");
		burnin_load_proof_close(co->proof);
		co->proof = NULL;
	}
}

/*
 * What each pair's ends measured moving in the measurement window, a->b
 * and b->a, from the step's measures (a --bidir pair's figure is the sum
 * of both ways: half each).
 */
static void moved_bytes(const struct burnin_coord *co,
			const struct burnin_measure *m, int n, uint64_t *ab,
			uint64_t *ba)
{
	double window = co->ctx->cfg->params.duration_s;

	for (int i = 0; i < n; i++) {
		double bytes = m[i].gbps * 1e9 / 8 * window;
		uint64_t b = bytes > 0 ? (uint64_t)bytes : 0;

		ab[i] = ba[i] = 0;
		if (m[i].status == BURNIN_PAIR_NOT_TESTED)
			continue;
		if (m[i].bidir)
			ab[i] = ba[i] = b / 2;
		else if (m[i].test == DPATH_TEST_READ) /* a READs b's data */
			ba[i] = b;
		else
			ab[i] = b;
	}
}

void burnin_coord_proof_end(struct burnin_coord *co, int first,
			    const struct burnin_measure *m, int n)
{
	uint64_t *ab, *ba;
	struct burnin_load_step s;

	if (!co->proof || !n) /* before any allocation: every step passes */
		return;
	ab = calloc((size_t)n, sizeof(*ab));
	ba = calloc((size_t)n, sizeof(*ba));
	if (!ab || !ba) {
		log_error("load proof: out of memory for round %d",
			  m[0].round + 1);
		goto out;
	}
	fill_step(co, m[0].round, m[0].test, first, n, &s);
	moved_bytes(co, m, n, ab, ba);
	s.moved_ab = ab;
	s.moved_ba = ba;
	if (burnin_load_proof_end(co->proof, &s, co->w))
		log_error("load proof: round %d: records not written",
			  m[0].round + 1);
out:
	free(ab);
	free(ba);
}

void burnin_coord_proof_close(struct burnin_coord *co, int *n_fail)
{
	int n = burnin_load_proof_not_loaded(co->proof);

	if (n)
		log_error("%d cable-not-loaded finding(s): the traffic did not "
			  "take the planned routes there (cable-load records)",
			  n);
	if (n_fail)
		*n_fail += n;
	burnin_load_proof_close(co->proof);
	co->proof = NULL;
	if (co->proof_cert && record_writer_close(co->proof_cert))
		log_warn("load proof: --coverage: not all written");
	co->proof_cert = NULL;
}
