// SPDX-License-Identifier: MIT
/*
 * Rank 0: drives the steps (one test of one round), runs its own pair like
 * every rank, gathers the results with a deadline, writes the pair records
 * as each step ends (flushed), adds retest rounds for suspects, and at the
 * end judges and writes the findings.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "burnin/coord.h"
#include "burnin/scope.h"
#include "burnin/route_judge.h"
#include "burnin/route_model.h"
#include "burnin/step_limits.h"
#include "common/array.h"
#include "common/cli.h"
#include "common/ibport.h"
#include "common/log.h"

/* What the results get at least once rank 0 listens (see gather()). */
#define GATHER_GRACE_S 1.0

struct step {
	int round, test, first, n; /* pairs sched.pairs[first .. first + n) */
	struct wire_ctrl *ctrl; /* per rank */
	struct wire_report *res; /* per rank */
	bool *got; /* per rank */
};

static int emit(struct burnin_coord *co, json_t *rec)
{
	if (!rec)
		return -ENOMEM;
	if (!co->w) {
		json_decref(rec);
		return 0;
	}
	return record_writer_emit_steal(co->w, rec);
}

static void port_label(const struct burnin_coord *co, int idx, char *buf,
		       size_t len)
{
	burnin_port_name(&co->inv[idx], buf, len);
}

void burnin_coord_init(struct burnin_coord *co, struct burnin_ctx *ctx)
{
	memset(co, 0, sizeof(*co));
	co->ctx = ctx;
}

int burnin_coord_release(struct burnin_coord *co)
{
	int ret = co->w && record_writer_close(co->w) ? -EIO : 0;

	co->w = NULL;
	burnin_schedule_free(&co->sched);
	free(co->inv);
	free(co->inv_rank);
	free(co->alive);
	free(co->m);
	free(co->done_steps);
	burnin_coord_routes_free(co);
	burnin_coord_init(co, co->ctx); /* counts and pointers alike */
	return ret;
}

int burnin_coord_add_measure(struct burnin_coord *co,
			     const struct burnin_measure *m)
{
	if (array_reserve(&co->m, &co->cap_m, (size_t)co->n_m, sizeof(*co->m)))
		return -ENOMEM;
	co->m[co->n_m++] = *m;
	return 0;
}

/* Short: a small message is sent at once; a dead rank must not hold us. */
#define DROP_SEND_S 0.2

void burnin_drop_rank(struct burnin_coord *co, int r, int seq)
{
	struct wire_ctrl c = {
		.cmd = CTRL_STOP, .seq = seq, .lost = 1, .dropped = 1
	};

	struct burnin_bootstrap *bs = co->ctx->bs;

	co->alive[r] = false;
	bs->ops->send(bs, r, burnin_tag(seq, MSG_CTRL), &c, sizeof(c),
		      clock_mono_now() + DROP_SEND_S);
}

void burnin_stop_workers(struct burnin_coord *co)
{
	struct wire_ctrl c = { .cmd = CTRL_STOP, .seq = co->seq };
	struct burnin_bootstrap *bs = co->ctx->bs;

	if (co->workers_stopped)
		return;
	co->workers_stopped = true;
	for (int r = 1; r < bs->size; r++)
		c.lost += co->alive && !co->alive[r]; /* ranks lost */
	bs->peers_lost = c.lost > 0;
	for (int r = 1; r < bs->size; r++)
		if (co->alive && co->alive[r])
			bs->ops->send(bs, r, burnin_tag(co->seq, MSG_CTRL), &c,
				      sizeof(c),
				      clock_mono_now() +
					      co->ctx->cfg->timeout_s);
}

/* Tells every live rank what to do in this step. */
static void send_ctrl(struct burnin_coord *co, struct step *st)
{
	struct burnin_bootstrap *bs = co->ctx->bs;

	for (int r = 1; r < bs->size; r++) {
		if (!co->alive[r])
			continue;
		st->ctrl[r].seq = co->seq;
		if (bs->ops->send(bs, r, burnin_tag(co->seq, MSG_CTRL),
				  &st->ctrl[r], sizeof(st->ctrl[r]),
				  clock_mono_now() + co->ctx->cfg->timeout_s)) {
			log_error(
				"rank %d does not take messages; its pairs will be not-tested",
				r);
			co->alive[r] = false;
			st->ctrl[r].cmd = CTRL_IDLE;
		}
	}
}

/* Gives rank r one more end in the step (full-duplex: up to two). */
static void plan_end(struct burnin_coord *co, struct step *st, int r,
		     struct wire_end e)
{
	struct wire_ctrl *c = &st->ctrl[r];

	if (c->cmd != CTRL_RUN)
		*c = (struct wire_ctrl){ .cmd = CTRL_RUN,
					 .seq = co->seq,
					 .round = st->round,
					 .test = st->test };
	if (c->n_ends < BURNIN_MAX_ENDS)
		c->end[c->n_ends++] = e;
}

static void plan_pair(struct burnin_coord *co, struct step *st, int i)
{
	const struct burnin_pair *p = &co->sched.pairs[st->first + i];
	int ra = co->inv_rank[p->a], rb = co->inv_rank[p->b];
	bool bidir = co->ctx->cfg->params.bidir;

	if (!co->alive[ra] || !co->alive[rb])
		return;
	plan_end(co, st, ra,
		 (struct wire_end){ bidir ? DPATH_ROLE_BOTH
					  : DPATH_ROLE_INITIATOR,
				    rb, i, 0 });
	plan_end(co, st, rb,
		 (struct wire_end){ bidir ? DPATH_ROLE_BOTH : DPATH_ROLE_TARGET,
				    ra, i, 1 });
}

/* Collects the results of the ranks that ran a pair. */
static void gather(struct burnin_coord *co, struct step *st, double deadline)
{
	struct burnin_bootstrap *bs = co->ctx->bs;
	int size = bs->size, n = 0;
	int *peers = calloc((size_t)size, sizeof(*peers));
	struct wire_report *buf = calloc((size_t)size, sizeof(*buf));
	bool *got = calloc((size_t)size, sizeof(*got));

	if (!peers || !buf || !got)
		goto out;
	for (int r = 1; r < size; r++)
		if (st->ctrl[r].cmd == CTRL_RUN)
			peers[n++] = r;
	if (deadline <
	    clock_mono_now() + GATHER_GRACE_S) /* our own pair overran */
		deadline = clock_mono_now() + GATHER_GRACE_S;
	bs->ops->recv_many(bs, peers, n, burnin_tag(co->seq, MSG_RESULT), buf,
			   sizeof(*buf), got, deadline);
	for (int i = 0; i < n; i++) {
		st->got[peers[i]] = got[i];
		st->res[peers[i]] = buf[i];
		if (!got[i]) {
			log_error(
				"rank %d did not report step %d within the deadline; its pairs will be not-tested",
				peers[i], co->seq);
			burnin_drop_rank(co, peers[i], co->seq + 1);
		}
	}
out:
	free(peers);
	free(buf);
	free(got);
}

static void add_counters(struct burnin_coord *co, int idx,
			 const struct wire_result *r)
{
	json_t *o = co->port_counters[idx], *sat = co->port_saturated[idx];

	for (int i = 0; i < r->n_counters && o; i++) {
		const struct wire_counter *c = &r->counters[i];
		json_int_t old;
		bool known = false;
		size_t k;
		json_t *name;

		json_array_foreach(sat, k, name) known |=
			!strcmp(json_string_value(name), c->name);
		if (c->saturated && !known)
			json_array_append_new(sat, json_string(c->name));
		/* a rise within its limit for the bits the step carried is
		 * no finding (docs/judging.md, "Counter limits") */
		if (!burnin_step_rise_fails(&co->inv[idx], r, c))
			continue;
		old = json_integer_value(json_object_get(o, c->name));
		json_object_set_new(o, c->name,
				    json_integer(old + (json_int_t)c->delta));
	}
}

/* Which end's error explains the pair best: not the "partner failed" one. */
static const char *pair_error(const struct wire_result *a,
			      const struct wire_result *b, char *buf,
			      size_t len)
{
	const struct wire_result *e = a->rc && a->rc != -ECANCELED   ? a
				      : b->rc && b->rc != -ECANCELED ? b
				      : a->rc			     ? a
								     : b;

	snprintf(buf, len, "%s: %s", e == a ? "a" : "b", e->res.error);
	return buf;
}

/* The result rank r reported for (pair, side) of the step, NULL if none. */
static const struct wire_result *end_result(const struct step *st, int r,
					    int pair, int side)
{
	const struct wire_report *rep = &st->res[r];

	if (!st->got[r])
		return NULL;
	for (int e = 0; e < rep->n_ends && e < BURNIN_MAX_ENDS; e++)
		if (rep->end[e].pair == pair && rep->end[e].side == side)
			return &rep->end[e];
	return NULL;
}

static void fill_measure(struct burnin_coord *co, struct step *st, int i,
			 struct burnin_measure *m, char *err, size_t len)
{
	const struct burnin_pair *p = &co->sched.pairs[st->first + i];
	int ra = co->inv_rank[p->a], rb = co->inv_rank[p->b];
	const struct wire_result *a = end_result(st, ra, i, 0),
				 *b = end_result(st, rb, i, 1);
	bool bidir = co->ctx->cfg->params.bidir;
	char name[2 * DPATH_NAME_MAX + 16];
	double rate = co->inv[p->a].rate_gbps < co->inv[p->b].rate_gbps
			      ? co->inv[p->a].rate_gbps
			      : co->inv[p->b].rate_gbps;

	*m = (struct burnin_measure){ .round = st->round,
				      .a = p->a,
				      .b = p->b,
				      .test = st->test,
				      .bidir = bidir,
				      .retest = st->round >= co->n_main_rounds,
				      .expected_gbps =
					      bidir ? 2 * rate : rate };
	err[0] = '\0';
	if (!a || !b) {
		int idx = !co->alive[ra]   ? p->a
			  : !co->alive[rb] ? p->b
			  : !a		   ? p->a
					   : p->b;
		bool ran = st->ctrl[co->inv_rank[idx]].cmd == CTRL_RUN;

		port_label(co, idx, name, sizeof(name));
		m->status = BURNIN_PAIR_NOT_TESTED;
		snprintf(
			err, len,
			ran ? "rank %d (%s) did not report within the deadline"
			    : "rank %d (%s) stopped responding earlier; pair not run",
			co->inv_rank[idx], name);
		return;
	}
	m->gbps = a->res.gbps + (bidir ? b->res.gbps : 0);
	m->gbps_min = a->res.gbps_min + (bidir ? b->res.gbps_min : 0);
	m->error_completions =
		a->res.error_completions + b->res.error_completions;
	m->status = a->rc || b->rc ? BURNIN_PAIR_ERROR : BURNIN_PAIR_OK;
	if (m->status != BURNIN_PAIR_OK)
		pair_error(a, b, err, len);
}

/* A port's error counters once per step: in a full-duplex step its
 * rank reports them with each of its two ends. */
static void add_step_counters(struct burnin_coord *co, struct step *st,
			      bool *counted, int idx, int r)
{
	if (counted[r] || !st->got[r] || !st->res[r].n_ends)
		return;
	counted[r] = true;
	add_counters(co, idx, &st->res[r].end[0]);
}

/* Records the step's pairs; returns how many were ok, or -ENOMEM when a
 * measure could not be kept for judging (its record is still written). */
static int record_step(struct burnin_coord *co, struct step *st, bool *counted)
{
	static const struct wire_result none;
	int ok = 0, lost = 0;

	for (int i = 0; i < st->n; i++) {
		const struct burnin_pair *p = &co->sched.pairs[st->first + i];
		int ra = co->inv_rank[p->a], rb = co->inv_rank[p->b];
		const struct wire_result *a = end_result(st, ra, i, 0),
					 *b = end_result(st, rb, i, 1);
		struct burnin_measure m;
		char err[400];

		fill_measure(co, st, i, &m, err, sizeof(err));
		ok += m.status == BURNIN_PAIR_OK;
		if (burnin_coord_add_measure(co, &m))
			lost++;
		emit(co, burnin_pair_record(co, &m, err[0] ? err : NULL,
					    a ? a : &none, b ? b : &none));
		if (m.status != BURNIN_PAIR_NOT_TESTED) {
			add_step_counters(co, st, counted, p->a, ra);
			add_step_counters(co, st, counted, p->b, rb);
		}
	}
	for (int r = 0; r < co->ctx->bs->size; r++)
		if (st->got[r] && st->res[r].n_ends && st->res[r].end[0].stop)
			co->stopped = true;
	if (lost) {
		log_error(
			"out of memory: %d measures of round %d not kept for judging",
			lost, st->round + 1);
		return -ENOMEM;
	}
	return ok;
}

static int run_step(struct burnin_coord *co, int round, int test)
{
	int size = co->ctx->bs->size, ok;
	struct step st = { round, test, co->sched.start[round],
			   burnin_schedule_round_size(&co->sched, round) };
	double t0 = clock_mono_now(), serial, t_rec;
	double deadline = t0 + burnin_step_seconds(co->ctx->cfg);
	struct dpath_endpoint *ep[BURNIN_MAX_ENDS] = { NULL };
	bool *counted = calloc((size_t)size, sizeof(*counted));

	st.ctrl = calloc((size_t)size, sizeof(*st.ctrl));
	st.res = calloc((size_t)size, sizeof(*st.res));
	st.got = calloc((size_t)size, sizeof(*st.got));
	if (!st.ctrl || !st.res || !st.got || !counted) {
		ok = -ENOMEM;
		goto out;
	}
	for (int i = 0; i < st.n; i++)
		plan_pair(co, &st, i);
	burnin_coord_proof_begin(co, round, test, st.first, st.n);
	send_ctrl(co, &st);
	serial = clock_mono_now() - t0;
	if (st.ctrl[0].cmd == CTRL_RUN) {
		st.ctrl[0].seq = co->seq;
		burnin_worker_step(co->ctx, &st.ctrl[0], &st.res[0], ep);
		st.got[0] = true;
	}
	gather(co, &st, deadline);
	/* after the gather, as the others do */
	burnin_worker_teardown(co->ctx, ep);
	t_rec = clock_mono_now();
	ok = record_step(co, &st, counted);
	if (ok < 0)
		goto out;
	burnin_coord_proof_end(co, st.first, co->m + co->n_m - st.n, st.n);
	serial += clock_mono_now() - t_rec;
	burnin_overhead_note(co, clock_mono_now() - t0, serial);
	co->seq++;
	if (burnin_stop_requested())
		co->stopped = true;
	burnin_progress_step(co, round, co->sched.n_rounds, test, ok, st.n);
out:
	free(st.ctrl);
	free(st.res);
	free(st.got);
	free(counted);
	return ok < 0 ? ok : 0;
}

static bool step_done(const struct burnin_coord *co, int round, int t)
{
	int i = round * co->ctx->cfg->n_tests + t;

	return co->done_steps && i < co->n_done_steps && co->done_steps[i];
}

static int run_round(struct burnin_coord *co, int round)
{
	for (int t = 0; t < co->ctx->cfg->n_tests && !co->stopped; t++) {
		if (step_done(co, round, t))
			continue;
		if (run_step(co, round, (int)co->ctx->cfg->tests[t]))
			return -ENOMEM;
	}
	return 0;
}

/* An idle step for every live rank: "keep waiting". */
static void heartbeat(struct burnin_coord *co)
{
	struct burnin_bootstrap *bs = co->ctx->bs;
	struct wire_ctrl c = { .cmd = CTRL_IDLE, .seq = co->seq };

	for (int r = 1; r < bs->size; r++)
		if (co->alive[r] &&
		    bs->ops->send(bs, r, burnin_tag(co->seq, MSG_CTRL), &c,
				  sizeof(c),
				  clock_mono_now() + co->ctx->cfg->timeout_s)) {
			log_error(
				"rank %d does not take messages; its pairs will be not-tested",
				r);
			co->alive[r] = false;
		}
	co->seq++;
}

struct judging {
	struct burnin_coord *co;
	struct burnin_port_verdict *v;
	struct judge_cable_result *cables;
	int ret, done;
};

static void *judge_thread(void *arg)
{
	struct judging *j = arg;
	const struct dpath_transport_ops *ops = j->co->ctx->cfg->ops;
	double delay = ops->judge_delay_s ? ops->judge_delay_s() : 0;

	if (delay > 0) /* a judge slower than the wait (the fake's judge-s) */
		nanosleep(&(struct timespec){ (time_t)delay,
					      (long)((delay - (time_t)delay) *
						     1e9) },
			  NULL);
	j->ret = burnin_coord_judge(j->co, j->v, j->cables);
	__atomic_store_n(&j->done, 1, __ATOMIC_RELEASE);
	return NULL;
}

/*
 * Judging between rounds, while every other rank waits for its next
 * instruction at most burnin_worker_wait_s(): a thread judges, this one
 * sends a heartbeat (an idle step) every quarter of that wait, so that
 * however long judging takes no worker gives up on rank 0.
 */
static int judge_between_rounds(struct burnin_coord *co,
				struct burnin_port_verdict *v,
				struct judge_cable_result *cables)
{
	struct judging j = { .co = co, .v = v, .cables = cables };
	double every = burnin_worker_wait_s(co->ctx->cfg) / 4,
	       next = clock_mono_now() + every;
	pthread_t tid;

	if (pthread_create(&tid, NULL, judge_thread, &j)) {
		judge_thread(&j);
		return j.ret;
	}
	while (!__atomic_load_n(&j.done, __ATOMIC_ACQUIRE)) {
		nanosleep(&(struct timespec){ 0, 20 * 1000 * 1000 }, NULL);
		if (clock_mono_now() >= next) {
			heartbeat(co);
			next = clock_mono_now() + every;
		}
	}
	pthread_join(tid, NULL);
	return j.ret;
}

/*
 * Extra rounds: each suspect against a fine partner it has not met; with
 * routes, pairs that tell apart the candidates of an ambiguous cable
 * finding (coord_judge.c).
 */
static int retest_round(struct burnin_coord *co, struct burnin_port_verdict *v)
{
	struct judge_cable_result cables = { 0 };
	int added, split = 0;

	if (judge_between_rounds(co, v, &cables))
		return -ENOMEM;
	for (int p = 0; p < co->n_inv; p++)
		if (!co->alive[co->inv_rank[p]]) /* its rank is gone */
			v[p].tested = v[p].suspect = false;
	added = burnin_judge_retest_round(co->m, co->n_m, v, co->inv, co->n_inv,
					  co->sched.rail_bound, &co->sched);
	if (added >= 0)
		split = burnin_coord_separate(co, &cables, added == 0);
	judge_cable_result_free(&cables);
	if (added < 0 || split < 0)
		return -ENOMEM;
	if (added + split)
		log_info(
			"retest round %d: %d suspect port(s) against new partners, %d pair(s) to locate a fault the evidence fits to several parts",
			co->sched.n_rounds, added, split);
	return added + split;
}

static int run_retests(struct burnin_coord *co, struct burnin_port_verdict *v)
{
	for (int k = 0; k < co->ctx->cfg->retest_rounds && !co->stopped; k++) {
		int added = retest_round(co, v);

		if (added <= 0)
			return added;
		if (run_round(co, co->sched.n_rounds - 1))
			return -ENOMEM;
	}
	return 0;
}

/*
 * The verdict's scope line (INCOMPLETE: ... not tested, gaps accepted) on
 * the summary, and the exit code: a gap not accepted is exit 1 (issue 32).
 */
static int scope_verdict(struct burnin_coord *co,
			 const struct burnin_scope *scope, int code)
{
	const struct burnin_config *cfg = co->ctx->cfg;
	FILE *out =
		cfg->records && !strcmp(cfg->records, "-") ? stderr : stdout;
	char line[512];

	burnin_scope_line(scope, cfg->accept_untested, line, sizeof(line));
	if (line[0])
		fprintf(out, "%s\n", line);
	if (code == IBP_EXIT_PASS &&
	    burnin_scope_incomplete(scope, cfg->accept_untested))
		return IBP_EXIT_FAIL;
	return code;
}

static int finish(struct burnin_coord *co, struct burnin_port_verdict *v)
{
	int n_fail = 0, code;
	struct burnin_scope scope = { 0 };
	bool judged = false;
	json_t *end;

	burnin_stop_workers(co); /* judging a big run takes a while */
	if (co->stopped) {
		log_warn(
			"interrupted: the records of every finished round are written; --resume continues");
		code = IBP_EXIT_RUNTIME;
	} else {
		struct judge_cable_result cables = { 0 };

		burnin_coord_judge(co, v, &cables);
		if (cables.n_no_route) /* issue 33: say what was not judged */
			log_warn("%zu pairs are no evidence by their routes "
				 "(adaptive on SL %d, or of a step whose "
				 "routes were not followed): no cable is "
				 "judged by them; they blame ports by the pair "
				 "rule, and cables by their own counters only",
				 cables.n_no_route, co->ctx->cfg->params.sl);
		if (burnin_emit_findings(co, v, &cables, &n_fail, &scope) < 0)
			n_fail++;
		burnin_coord_proof_close(co, &n_fail);
		judge_cable_result_free(&cables);
		code = n_fail ? IBP_EXIT_FAIL : IBP_EXIT_PASS;
		judged = true;
	}
	burnin_progress_done(co);
	if (judged)
		code = scope_verdict(co, &scope, code);
	end = burnin_run_record(co, "end");
	if (end && judged) {
		json_object_set_new(
			end, "scope",
			burnin_scope_json(&scope,
					  co->ctx->cfg->accept_untested));
		json_object_set_new(
			end, "accepted_untested",
			burnin_accept_json(co->ctx->cfg->accept_untested));
	}
	if (end) {
		json_object_set_new(end, "outcome",
				    json_string(code == IBP_EXIT_PASS ? "pass"
						: code == IBP_EXIT_FAIL
							? "fail"
							: "error"));
		json_object_set_new(end, "exit_code", json_integer(code));
		json_object_set_new(end, "interrupted",
				    json_boolean(co->stopped));
		json_object_set_new(end, "orchestration",
				    burnin_overhead_json(co));
	}
	emit(co, end);
	return code;
}

int burnin_coordinate(struct burnin_coord *co)
{
	struct burnin_port_verdict *v = calloc((size_t)co->n_inv, sizeof(*v));
	int code = IBP_EXIT_RUNTIME;

	co->port_counters = calloc((size_t)co->n_inv, sizeof(json_t *));
	co->port_saturated = calloc((size_t)co->n_inv, sizeof(json_t *));
	if (!v || !co->port_counters || !co->port_saturated)
		goto out;
	for (int i = 0; i < co->n_inv; i++) {
		co->port_counters[i] = json_object();
		co->port_saturated[i] = json_array();
		emit(co,
		     burnin_port_record(&co->inv[i], co->ctx->cfg->ops->name,
					co->inv_rank[i]));
	}
	emit(co, burnin_run_record(co, "start"));
	code = burnin_coord_proof_open(co, co->routes);
	if (code != IBP_EXIT_PASS)
		goto out;
	code = IBP_EXIT_RUNTIME;
	co->start = clock_mono_now();
	for (int r = 0; r < co->n_main_rounds && !co->stopped; r++)
		if (run_round(co, r))
			goto out;
	if (run_retests(co, v) < 0)
		goto out;
	code = finish(co, v);
out:
	burnin_coord_proof_close(co, NULL);
	for (int i = 0; co->port_counters && i < co->n_inv; i++)
		json_decref(co->port_counters[i]);
	for (int i = 0; co->port_saturated && i < co->n_inv; i++)
		json_decref(co->port_saturated[i]);
	free(co->port_counters);
	free(co->port_saturated);
	co->port_counters = NULL;
	co->port_saturated = NULL;
	free(v);
	return code;
}
