// SPDX-License-Identifier: MIT
/*
 * Rank 0: drives the steps (one test of one round), runs its own pair like
 * every rank, gathers the results with a deadline, writes the pair records
 * as each step ends (flushed), adds retest rounds for suspects, and at the
 * end judges and writes the findings.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "burnin/run.h"
#include "common/cli.h"
#include "common/log.h"

/* What the results get at least once rank 0 listens (see gather()). */
#define GATHER_GRACE_S 1.0

struct step {
	int round, test, first, n; /* pairs sched.pairs[first .. first + n) */
	struct wire_ctrl *ctrl;	   /* per rank */
	struct wire_result *res;   /* per rank */
	bool *got;		   /* per rank */
};

static int emit(struct burnin_ctx *ctx, json_t *rec)
{
	if (!rec)
		return -ENOMEM;
	if (!ctx->w) {
		json_decref(rec);
		return 0;
	}
	return record_writer_emit_steal(ctx->w, rec);
}

static void port_label(const struct burnin_ctx *ctx, int idx, char *buf,
		       size_t len)
{
	burnin_port_name(&ctx->inv[idx], buf, len);
}

int burnin_ctx_add_measure(struct burnin_ctx *ctx, const struct burnin_measure *m)
{
	if (ctx->n_m == ctx->cap_m) {
		int cap = ctx->cap_m ? 2 * ctx->cap_m : 256;
		struct burnin_measure *grown =
			realloc(ctx->m, (size_t)cap * sizeof(*grown));

		if (!grown)
			return -ENOMEM;
		ctx->m = grown;
		ctx->cap_m = cap;
	}
	ctx->m[ctx->n_m++] = *m;
	return 0;
}

/* Short: a small message is sent at once; a dead rank must not hold us. */
#define DROP_SEND_S 0.2

void burnin_drop_rank(struct burnin_ctx *ctx, int r, int seq)
{
	struct wire_ctrl c = { .cmd = CTRL_STOP, .seq = seq, .round = 1,
			       .partner = 1 };

	ctx->alive[r] = false;
	ctx->bs->ops->send(ctx->bs, r, burnin_tag(seq, MSG_CTRL), &c, sizeof(c),
			   clock_mono_now() + DROP_SEND_S);
}

void burnin_stop_workers(struct burnin_ctx *ctx)
{
	struct wire_ctrl c = { .cmd = CTRL_STOP, .seq = ctx->seq };

	if (ctx->workers_stopped)
		return;
	ctx->workers_stopped = true;
	for (int r = 1; r < ctx->bs->size; r++)
		c.partner += ctx->alive && !ctx->alive[r]; /* ranks lost */
	ctx->bs->peers_lost = c.partner > 0;
	for (int r = 1; r < ctx->bs->size; r++)
		if (ctx->alive && ctx->alive[r])
			ctx->bs->ops->send(ctx->bs, r, burnin_tag(ctx->seq, MSG_CTRL),
					   &c, sizeof(c),
					   clock_mono_now() + ctx->cfg->timeout_s);
}

/* Tells every live rank what to do in this step. */
static void send_ctrl(struct burnin_ctx *ctx, struct step *st)
{
	struct burnin_bootstrap *bs = ctx->bs;

	for (int r = 1; r < bs->size; r++) {
		if (!ctx->alive[r])
			continue;
		st->ctrl[r].seq = ctx->seq;
		if (bs->ops->send(bs, r, burnin_tag(ctx->seq, MSG_CTRL),
				  &st->ctrl[r], sizeof(st->ctrl[r]),
				  clock_mono_now() + ctx->cfg->timeout_s)) {
			log_error("rank %d does not take messages; its pairs will be not-tested", r);
			ctx->alive[r] = false;
			st->ctrl[r].cmd = CTRL_IDLE;
		}
	}
}

static void plan_pair(struct burnin_ctx *ctx, struct step *st, int i)
{
	const struct burnin_pair *p = &ctx->sched.pairs[st->first + i];
	int ra = ctx->inv_rank[p->a], rb = ctx->inv_rank[p->b];
	int role = ctx->cfg->params.bidir ? BURNIN_ROLE_BOTH : BURNIN_ROLE_INITIATOR;

	if (!ctx->alive[ra] || !ctx->alive[rb])
		return;
	st->ctrl[ra] = (struct wire_ctrl){ CTRL_RUN, ctx->seq, st->round,
		st->test, role, rb, i, 0 };
	role = ctx->cfg->params.bidir ? BURNIN_ROLE_BOTH : BURNIN_ROLE_TARGET;
	st->ctrl[rb] = (struct wire_ctrl){ CTRL_RUN, ctx->seq, st->round,
		st->test, role, ra, i, 1 };
}

/* Collects the results of the ranks that ran a pair. */
static void gather(struct burnin_ctx *ctx, struct step *st, double deadline)
{
	int size = ctx->bs->size, n = 0;
	int *peers = calloc((size_t)size, sizeof(*peers));
	struct wire_result *buf = calloc((size_t)size, sizeof(*buf));
	bool *got = calloc((size_t)size, sizeof(*got));

	if (!peers || !buf || !got)
		goto out;
	for (int r = 1; r < size; r++)
		if (st->ctrl[r].cmd == CTRL_RUN)
			peers[n++] = r;
	if (deadline < clock_mono_now() + GATHER_GRACE_S) /* our own pair overran */
		deadline = clock_mono_now() + GATHER_GRACE_S;
	ctx->bs->ops->recv_many(ctx->bs, peers, n, burnin_tag(ctx->seq, MSG_RESULT),
				buf, sizeof(*buf), got, deadline);
	for (int i = 0; i < n; i++) {
		st->got[peers[i]] = got[i];
		st->res[peers[i]] = buf[i];
		if (!got[i]) {
			log_error("rank %d did not report step %d within the deadline; its pairs will be not-tested",
				  peers[i], ctx->seq);
			burnin_drop_rank(ctx, peers[i], ctx->seq + 1);
		}
	}
out:
	free(peers);
	free(buf);
	free(got);
}

static void add_counters(struct burnin_ctx *ctx, int idx,
			 const struct wire_result *r)
{
	json_t *o = ctx->port_counters[idx], *sat = ctx->port_saturated[idx];

	for (int i = 0; i < r->n_counters && o; i++) {
		const struct wire_counter *c = &r->counters[i];
		json_int_t old;
		bool known = false;
		size_t k;
		json_t *name;

		json_array_foreach(sat, k, name)
			known |= !strcmp(json_string_value(name), c->name);
		if (c->saturated && !known)
			json_array_append_new(sat, json_string(c->name));
		if (!c->delta || !burnin_counter_is_error(c->name))
			continue;
		old = json_integer_value(json_object_get(o, c->name));
		json_object_set_new(o, c->name, json_integer(old + (json_int_t)c->delta));
	}
}

/* Which end's error explains the pair best: not the "partner failed" one. */
static const char *pair_error(const struct wire_result *a,
			      const struct wire_result *b, char *buf, size_t len)
{
	const struct wire_result *e = a->rc && a->rc != -ECANCELED ? a
				      : b->rc && b->rc != -ECANCELED ? b
				      : a->rc ? a : b;

	snprintf(buf, len, "%s: %s", e == a ? "a" : "b", e->res.error);
	return buf;
}

static void fill_measure(struct burnin_ctx *ctx, struct step *st, int i,
			 struct burnin_measure *m, char *err, size_t len)
{
	const struct burnin_pair *p = &ctx->sched.pairs[st->first + i];
	int ra = ctx->inv_rank[p->a], rb = ctx->inv_rank[p->b];
	const struct wire_result *a = &st->res[ra], *b = &st->res[rb];
	bool bidir = ctx->cfg->params.bidir;
	char name[2 * BURNIN_NAME_MAX + 16];
	double rate = ctx->inv[p->a].rate_gbps < ctx->inv[p->b].rate_gbps
			      ? ctx->inv[p->a].rate_gbps : ctx->inv[p->b].rate_gbps;

	*m = (struct burnin_measure){ .round = st->round, .a = p->a, .b = p->b,
		.test = st->test, .bidir = bidir,
		.expected_gbps = bidir ? 2 * rate : rate };
	err[0] = '\0';
	if (!st->got[ra] || !st->got[rb]) {
		int idx = !ctx->alive[ra] ? p->a : !ctx->alive[rb] ? p->b
			  : !st->got[ra] ? p->a : p->b;
		bool ran = st->ctrl[ctx->inv_rank[idx]].cmd == CTRL_RUN;

		port_label(ctx, idx, name, sizeof(name));
		m->status = BURNIN_PAIR_NOT_TESTED;
		snprintf(err, len, ran ? "rank %d (%s) did not report within the deadline"
				       : "rank %d (%s) stopped responding earlier; pair not run",
			 ctx->inv_rank[idx], name);
		return;
	}
	m->gbps = a->res.gbps + (bidir ? b->res.gbps : 0);
	m->gbps_min = a->res.gbps_min + (bidir ? b->res.gbps_min : 0);
	m->error_completions = a->res.error_completions + b->res.error_completions;
	m->status = a->rc || b->rc ? BURNIN_PAIR_ERROR : BURNIN_PAIR_OK;
	if (m->status != BURNIN_PAIR_OK)
		pair_error(a, b, err, len);
	add_counters(ctx, p->a, a);
	add_counters(ctx, p->b, b);
}

/* Records the step's pairs; returns how many were ok. */
static int record_step(struct burnin_ctx *ctx, struct step *st)
{
	static const struct wire_result none;
	int ok = 0;

	for (int i = 0; i < st->n; i++) {
		const struct burnin_pair *p = &ctx->sched.pairs[st->first + i];
		int ra = ctx->inv_rank[p->a], rb = ctx->inv_rank[p->b];
		struct burnin_measure m;
		char err[400];

		fill_measure(ctx, st, i, &m, err, sizeof(err));
		ok += m.status == BURNIN_PAIR_OK;
		burnin_ctx_add_measure(ctx, &m);
		emit(ctx, burnin_pair_record(ctx, &m, err[0] ? err : NULL,
					     st->got[ra] ? &st->res[ra] : &none,
					     st->got[rb] ? &st->res[rb] : &none));
		if (st->got[ra] && st->res[ra].stop)
			ctx->stopped = true;
		if (st->got[rb] && st->res[rb].stop)
			ctx->stopped = true;
	}
	return ok;
}

static int run_step(struct burnin_ctx *ctx, int round, int test)
{
	int size = ctx->bs->size, ok;
	struct step st = { round, test, ctx->sched.start[round],
		burnin_schedule_round_size(&ctx->sched, round) };
	double deadline = clock_mono_now() + burnin_step_seconds(ctx->cfg);
	struct burnin_endpoint *ep = NULL;

	st.ctrl = calloc((size_t)size, sizeof(*st.ctrl));
	st.res = calloc((size_t)size, sizeof(*st.res));
	st.got = calloc((size_t)size, sizeof(*st.got));
	if (!st.ctrl || !st.res || !st.got) {
		ok = -ENOMEM;
		goto out;
	}
	for (int i = 0; i < st.n; i++)
		plan_pair(ctx, &st, i);
	send_ctrl(ctx, &st);
	if (st.ctrl[0].cmd == CTRL_RUN) {
		st.ctrl[0].seq = ctx->seq;
		burnin_worker_step(ctx, &st.ctrl[0], &st.res[0], &ep);
		st.got[0] = true;
	}
	gather(ctx, &st, deadline);
	burnin_worker_teardown(ctx, ep); /* after the gather, as the others do */
	ok = record_step(ctx, &st);
	ctx->seq++;
	if (burnin_stop_requested())
		ctx->stopped = true;
	burnin_progress_step(ctx, round, ctx->sched.n_rounds, test, ok, st.n);
out:
	free(st.ctrl);
	free(st.res);
	free(st.got);
	return ok < 0 ? ok : 0;
}

static bool step_done(const struct burnin_ctx *ctx, int round, int t)
{
	int i = round * ctx->cfg->n_tests + t;

	return ctx->done_steps && i < ctx->n_done_steps && ctx->done_steps[i];
}

static int run_round(struct burnin_ctx *ctx, int round)
{
	for (int t = 0; t < ctx->cfg->n_tests && !ctx->stopped; t++) {
		if (step_done(ctx, round, t))
			continue;
		if (run_step(ctx, round, (int)ctx->cfg->tests[t]))
			return -ENOMEM;
	}
	return 0;
}

/* Extra rounds: each suspect against a fine partner it has not met. */
static int run_retests(struct burnin_ctx *ctx, struct burnin_port_verdict *v)
{
	for (int k = 0; k < ctx->cfg->retest_rounds && !ctx->stopped; k++) {
		int added;

		burnin_judge(&ctx->cfg->judge, ctx->m, ctx->n_m, v, ctx->n_inv);
		for (int p = 0; p < ctx->n_inv; p++)
			if (!ctx->alive[ctx->inv_rank[p]]) /* its rank is gone */
				v[p].tested = v[p].suspect = false;
		added = burnin_judge_retest_round(
		    ctx->m, ctx->n_m, v, ctx->inv, ctx->n_inv,
		    ctx->sched.rail_bound, &ctx->sched);
		if (added <= 0)
			return added;
		log_info("retest round %d: %d suspect port(s) against new partners",
			 ctx->sched.n_rounds, added);
		if (run_round(ctx, ctx->sched.n_rounds - 1))
			return -ENOMEM;
	}
	return 0;
}

static int finish(struct burnin_ctx *ctx, struct burnin_port_verdict *v)
{
	int n_fail = 0, code;
	json_t *end;

	burnin_stop_workers(ctx); /* judging a big run takes a while */
	if (ctx->stopped) {
		log_warn("interrupted: the records of every finished round are written; --resume continues");
		code = IBP_EXIT_RUNTIME;
	} else {
		burnin_judge(&ctx->cfg->judge, ctx->m, ctx->n_m, v, ctx->n_inv);
		if (burnin_emit_findings(ctx, v, &n_fail) < 0)
			n_fail++;
		code = n_fail ? IBP_EXIT_FAIL : IBP_EXIT_PASS;
	}
	burnin_progress_done(ctx);
	end = burnin_run_record(ctx, "end");
	if (end) {
		json_object_set_new(end, "outcome", json_string(
			code == IBP_EXIT_PASS ? "pass" : code == IBP_EXIT_FAIL ? "fail" : "error"));
		json_object_set_new(end, "exit_code", json_integer(code));
		json_object_set_new(end, "interrupted", json_boolean(ctx->stopped));
	}
	emit(ctx, end);
	return code;
}

int burnin_coordinate(struct burnin_ctx *ctx)
{
	struct burnin_port_verdict *v = calloc((size_t)ctx->n_inv, sizeof(*v));
	int code = IBP_EXIT_RUNTIME;

	ctx->port_counters = calloc((size_t)ctx->n_inv, sizeof(json_t *));
	ctx->port_saturated = calloc((size_t)ctx->n_inv, sizeof(json_t *));
	if (!v || !ctx->port_counters || !ctx->port_saturated)
		goto out;
	for (int i = 0; i < ctx->n_inv; i++) {
		ctx->port_counters[i] = json_object();
		ctx->port_saturated[i] = json_array();
		emit(ctx, burnin_port_record(&ctx->inv[i], ctx->cfg->ops->name,
					     ctx->inv_rank[i]));
	}
	emit(ctx, burnin_run_record(ctx, "start"));
	ctx->start = clock_mono_now();
	for (int r = 0; r < ctx->n_main_rounds && !ctx->stopped; r++)
		if (run_round(ctx, r))
			goto out;
	if (run_retests(ctx, v) < 0)
		goto out;
	code = finish(ctx, v);
out:
	for (int i = 0; ctx->port_counters && i < ctx->n_inv; i++)
		json_decref(ctx->port_counters[i]);
	for (int i = 0; ctx->port_saturated && i < ctx->n_inv; i++)
		json_decref(ctx->port_saturated[i]);
	free(ctx->port_counters);
	free(ctx->port_saturated);
	ctx->port_counters = NULL;
	ctx->port_saturated = NULL;
	free(v);
	return code;
}
