// SPDX-License-Identifier: MIT
/*
 * What every rank does for rank 0: report its port (the inventory), then
 * wait for rank 0's instruction for the next step,
 * run its pair through the transport (create, exchange, connect, a ready
 * handshake, run, destroy), read the port counters around it, and send
 * the result to rank 0. Every wait has a deadline.
 */
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "burnin/rank.h"
#include "burnin/watchdog.h"
#include "common/cli.h"
#include "common/clock.h"
#include "common/ibport.h"
#include "common/log.h"

#define COUNTERS_MAX 64

/* The longest a step may take before its pairs are given up. */
double burnin_step_seconds(const struct burnin_config *cfg)
{
	const struct dpath_params *p = &cfg->params;

	return p->warmup_s + p->duration_s + p->stall_s + 3 * cfg->timeout_s;
}

struct counters {
	char names[COUNTERS_MAX][DPATH_COUNTER_NAME_MAX];
	uint64_t values[COUNTERS_MAX];
	int n;
};

static void read_counters(struct burnin_ctx *ctx, struct counters *c)
{
	c->n = 0;
	if (ctx->cfg->ops->read_counters &&
	    ctx->cfg->ops->read_counters(&ctx->port, c->names, c->values,
					 COUNTERS_MAX, &c->n))
		c->n = 0;
}

/*
 * The change of counter i over the step: 0 when it was not read before
 * (its lifetime total is no delta); its value now when it went down (reset
 * during the step: perfquery -R, a subnet manager's PerfMgr), never a
 * wrapped-around unsigned difference.
 */
static uint64_t counter_delta(const struct counters *before,
			      const struct counters *after, int i)
{
	for (int j = 0; j < before->n; j++)
		if (!strcmp(before->names[j], after->names[i]))
			return after->values[i] >= before->values[j]
				       ? after->values[i] - before->values[j]
				       : after->values[i];
	return 0;
}

/* Deltas worth sending: error counters first, then the data counters. */
static void counter_deltas(const struct counters *before,
			   const struct counters *after,
			   struct wire_result *out)
{
	for (int pass = 0; pass < 2; pass++)
		for (int i = 0; i < after->n; i++) {
			bool err = ib_counter_is_error(after->names[i]);
			uint64_t d = counter_delta(before, after, i);
			struct wire_counter *wc;

			bool sat = ib_counter_saturated(after->names[i],
							after->values[i]);

			if (err != !pass ||
			    out->n_counters == BURNIN_MAX_COUNTERS)
				continue;
			if (!d && !sat && !strstr(after->names[i], "xmit_data"))
				continue;
			wc = &out->counters[out->n_counters++];
			snprintf(wc->name, sizeof(wc->name), "%s",
				 after->names[i]);
			wc->delta = d;
			wc->saturated = sat;
		}
}

static int fail(struct wire_result *out, int rc, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int fail(struct wire_result *out, int rc, const char *fmt, ...)
{
	va_list ap;

	if (!out->res.error[0]) {
		va_start(ap, fmt);
		vsnprintf(out->res.error, sizeof(out->res.error), fmt, ap);
		va_end(ap);
	}
	return rc;
}

/* One endpoint of this rank in the step, on its way through setup. */
struct end_setup {
	const struct wire_end *e;
	struct dpath_endpoint *ep;
	struct wire_result *out;
	struct wire_conn mine, theirs;
	int32_t ready, peer_ready;
	bool got_conn, got_ready, failed;
};

/* The kind of message an end sends (the partner's end takes it as the
 * other side's). */
static enum burnin_msg end_kind(const struct end_setup *es, bool ready,
				bool incoming)
{
	int side = incoming ? !es->e->side : es->e->side;

	return ready ? (side ? MSG_READY_B : MSG_READY_A)
		     : (side ? MSG_CONN_B : MSG_CONN_A);
}

/* A slice of the deadline per receive: one silent partner must not
 * hold the other end of this rank past the step's deadline. */
#define RECV_SLICE_S 0.005

/*
 * Receives each pending end's message from its partner, the ends in turn
 * a slice at a time until every one arrived or the deadline passed.
 */
static void recv_ends(struct burnin_ctx *ctx, int seq, struct end_setup *es,
		      int n, bool ready, double deadline)
{
	int left;

	do {
		left = 0;
		for (int i = 0; i < n; i++) {
			bool *got = ready ? &es[i].got_ready : &es[i].got_conn;
			double until = clock_mono_now() + RECV_SLICE_S;
			void *buf = ready ? (void *)&es[i].peer_ready
					  : (void *)&es[i].theirs;
			size_t len = ready ? sizeof(es[i].peer_ready)
					   : sizeof(es[i].theirs);

			if (*got || es[i].failed)
				continue;
			*got = !burnin_bootstrap_recv(
				ctx->bs, es[i].e->partner,
				burnin_tag(seq, end_kind(&es[i], ready, true)),
				buf, len, until < deadline ? until : deadline);
			left += !*got;
		}
	} while (left && clock_mono_now() < deadline);
}

static void send_ends(struct burnin_ctx *ctx, int seq, struct end_setup *es,
		      int n, bool ready, double deadline)
{
	for (int i = 0; i < n; i++) {
		const void *buf = ready ? (const void *)&es[i].ready
					: (const void *)&es[i].mine;
		size_t len = ready ? sizeof(es[i].ready) : sizeof(es[i].mine);

		if (!es[i].failed)
			ctx->bs->ops->send(
				ctx->bs, es[i].e->partner,
				burnin_tag(seq, end_kind(&es[i], ready, false)),
				buf, len, deadline);
	}
}

static void create_ends(struct burnin_ctx *ctx, const struct wire_ctrl *c,
			struct end_setup *es, int n)
{
	const struct dpath_transport_ops *ops = ctx->cfg->ops;
	struct dpath_params params = ctx->cfg->params;

	params.test = (enum dpath_test)c->test;
	params.step = c->seq;
	params.connect_timeout_s = ctx->cfg->timeout_s / 2; /* READY's too */
	for (int i = 0; i < n; i++) {
		es[i].mine.rc =
			ops->endpoint_create(&ctx->port, &params, &es[i].ep);
		if (!es[i].mine.rc)
			ops->local_info(es[i].ep, &es[i].mine.info);
		else
			fail(es[i].out, es[i].mine.rc,
			     "endpoint_create failed: %s",
			     strerror(-es[i].mine.rc));
	}
}

/* After the connection exchange: connects the ends that can. */
static void connect_ends(struct burnin_ctx *ctx, struct end_setup *es, int n)
{
	for (int i = 0; i < n; i++) {
		struct end_setup *x = &es[i];
		int partner = x->e->partner;

		if (!x->got_conn)
			x->out->rc = fail(
				x->out, -ETIMEDOUT,
				"partner rank %d did not answer the connection exchange",
				partner);
		else if (x->mine.rc)
			x->out->rc = x->mine.rc;
		else if (x->theirs.rc)
			x->out->rc = fail(
				x->out, -ECANCELED,
				"partner rank %d could not set up its endpoint",
				partner);
		x->failed = x->out->rc != 0;
		if (x->failed)
			continue;
		x->ready = ctx->cfg->ops->connect(x->ep, &x->theirs.info,
						  &x->out->res);
		if (x->ready)
			fail(x->out, x->ready, "connect failed: %s",
			     strerror(-x->ready));
	}
}

static void check_ready(struct end_setup *es, int n)
{
	for (int i = 0; i < n; i++) {
		struct end_setup *x = &es[i];

		if (x->failed)
			continue;
		if (!x->got_ready)
			x->out->rc = fail(x->out, -ETIMEDOUT,
					  "partner rank %d did not get ready",
					  x->e->partner);
		else if (x->ready)
			x->out->rc = x->ready;
		else if (x->peer_ready)
			x->out->rc = fail(x->out, -ECANCELED,
					  "partner rank %d could not connect",
					  x->e->partner);
		x->failed = x->out->rc != 0;
	}
}

/*
 * Creates the step's endpoints and trades connection data and a ready word
 * with each partner: every send first (small messages go eagerly), then
 * the receives, so that in a full-duplex round (everybody initiator to
 * one rank and target of another) no rank waits on one that waits too.
 * Each end fails alone: a silent partner costs its own pair only.
 */
static void setup_ends(struct burnin_ctx *ctx, const struct wire_ctrl *c,
		       struct end_setup *es, int n)
{
	double deadline = clock_mono_now() + ctx->cfg->timeout_s;

	create_ends(ctx, c, es, n);
	send_ends(ctx, c->seq, es, n, false, deadline);
	recv_ends(ctx, c->seq, es, n, false, deadline);
	connect_ends(ctx, es, n);
	send_ends(ctx, c->seq, es, n, true, deadline);
	recv_ends(ctx, c->seq, es, n, true, deadline);
	check_ready(es, n);
}

struct end_run {
	struct burnin_ctx *ctx;
	struct end_setup *es;
};

static void *run_end(void *arg)
{
	struct end_run *er = arg;
	struct wire_result *out = er->es->out;

	out->rc = er->ctx->cfg->ops->run(
		er->es->ep, (enum dpath_role)er->es->e->role, &out->res);
	if (out->rc && !out->res.error[0])
		fail(out, out->rc, "run failed: error %d", -out->rc);
	return NULL;
}

/* Runs the connected ends at once: a thread for each but the first. */
static void run_ends(struct burnin_ctx *ctx, struct end_setup *es, int n)
{
	struct end_run er[BURNIN_MAX_ENDS];
	pthread_t tid[BURNIN_MAX_ENDS];
	bool started[BURNIN_MAX_ENDS] = { false };

	for (int i = n - 1; i >= 0; i--) {
		er[i] = (struct end_run){ ctx, &es[i] };
		if (es[i].failed)
			continue;
		if (i && !pthread_create(&tid[i], NULL, run_end, &er[i]))
			started[i] = true;
		else
			run_end(&er[i]);
	}
	for (int i = 1; i < n; i++)
		if (started[i])
			pthread_join(tid[i], NULL);
}

static void report_init(const struct wire_ctrl *c, struct wire_report *out,
			struct end_setup *es)
{
	memset(out, 0, sizeof(*out));
	memset(es, 0, BURNIN_MAX_ENDS * sizeof(*es));
	out->seq = c->seq;
	out->n_ends = c->n_ends < 0		    ? 0
		      : c->n_ends > BURNIN_MAX_ENDS ? BURNIN_MAX_ENDS
						    : c->n_ends;
	for (int i = 0; i < out->n_ends; i++) {
		es[i].e = &c->end[i];
		es[i].out = &out->end[i];
		out->end[i].seq = c->seq;
		out->end[i].pair = c->end[i].pair;
		out->end[i].side = c->end[i].side;
	}
}

/*
 * One step of this rank up to its results: connect, run (both ends at
 * once in a full-duplex round), counters. The endpoints are left in ep[]
 * for burnin_worker_teardown(), after the results went to rank 0:
 * destroying QPs, CQ and MR can block in the kernel for seconds (seen on
 * Soft-RoCE under load: over the step deadline), and must not make a
 * measured pair late. Returns the first end's rc.
 */
int burnin_worker_step(struct burnin_ctx *ctx, const struct wire_ctrl *c,
		       struct wire_report *out,
		       struct dpath_endpoint *ep[BURNIN_MAX_ENDS])
{
	const struct dpath_params *p = &ctx->cfg->params;
	struct end_setup es[BURNIN_MAX_ENDS];
	struct counters before, after;
	int n;

	report_init(c, out, es);
	n = out->n_ends;
	read_counters(ctx, &before);
	burnin_watchdog_enter(ctx->wd, "connection setup",
			      ctx->cfg->timeout_s + 1);
	setup_ends(ctx, c, es, n);
	burnin_watchdog_leave(ctx->wd);
	burnin_watchdog_enter(ctx->wd, "the test",
			      p->warmup_s + p->duration_s + p->stall_s + 1);
	run_ends(ctx, es, n);
	burnin_watchdog_leave(ctx->wd);
	read_counters(ctx, &after);
	for (int i = 0; i < BURNIN_MAX_ENDS; i++) {
		ep[i] = i < n ? es[i].ep : NULL;
		if (i >= n)
			continue;
		counter_deltas(&before, &after, &out->end[i]);
		out->end[i].stop = burnin_stop_requested();
	}
	return n ? out->end[0].rc : 0;
}

/* Queued to the reaper: a teardown blocked in the kernel holds up nobody. */
void burnin_worker_teardown(struct burnin_ctx *ctx,
			    struct dpath_endpoint *ep[BURNIN_MAX_ENDS])
{
	for (int i = 0; i < BURNIN_MAX_ENDS; i++)
		if (ep[i])
			burnin_reaper_add(ctx->reaper, ctx->cfg->ops, ep[i]);
}

/*
 * Non-root ranks: follow rank 0 until it says stop (exit 0: the verdict is
 * rank 0's alone; Open MPI 4's mpirun with orte_enable_recovery was seen to
 * wait forever for a remote rank that exited non-zero) or goes silent
 * (exit 3, and the job is ended for everybody: see the bootstrap's close).
 * While rank 0 judges it sends idle steps (a heartbeat) well inside the
 * wait, so judging however long never ends the job.
 */
double burnin_worker_wait_s(const struct burnin_config *cfg)
{
	return 2 * burnin_step_seconds(cfg) + cfg->timeout_s;
}

int burnin_worker_loop(struct burnin_ctx *ctx)
{
	struct burnin_bootstrap *bs = ctx->bs;
	double wait = burnin_worker_wait_s(ctx->cfg);
	struct wire_ctrl c;
	struct wire_report r;
	struct dpath_endpoint *ep[BURNIN_MAX_ENDS];
	int seq = 0;

	for (;; seq++) {
		if (burnin_bootstrap_recv(bs, 0, burnin_tag(seq, MSG_CTRL), &c,
					  sizeof(c), clock_mono_now() + wait)) {
			log_error(
				"rank %d: no word from rank 0 for %.0f s; giving up",
				bs->rank, wait);
			bs->peers_lost = true;
			bs->end_job = true;
			bs->exit_code = IBP_EXIT_RUNTIME;
			return IBP_EXIT_RUNTIME;
		}
		if (c.cmd == CTRL_STOP) {
			bs->peers_lost = c.lost > 0; /* ranks rank 0 lost */
			if (c.dropped)
				log_warn(
					"rank %d: rank 0 gave up on this rank (late or silent: see its pairs, not-tested); leaving",
					bs->rank);
			else
				log_debug("rank %d: rank 0 ends the run",
					  bs->rank);
			return IBP_EXIT_PASS;
		}
		if (c.cmd != CTRL_RUN)
			continue;
		burnin_worker_step(ctx, &c, &r, ep);
		/*
		 * Rank 0 gathers after its own pair, which may overrun: offer
		 * the result as long as the next instruction is awaited, as
		 * nothing else can happen before rank 0 has it.
		 */
		if (bs->ops->send(bs, 0, burnin_tag(seq, MSG_RESULT), &r,
				  sizeof(r), clock_mono_now() + wait))
			log_warn(
				"rank %d: could not send the result of step %d to rank 0",
				bs->rank, seq);
		burnin_worker_teardown(ctx, ep);
	}
}

/* This rank's inventory message: its port, and the ports it left over. */
struct wire_inventory burnin_inventory_mine(const struct burnin_ctx *ctx)
{
	struct wire_inventory wi = ctx->undriven;

	wi.has_port = ctx->has_port;
	wi.port = ctx->port;
	return wi;
}

int burnin_inventory_send(struct burnin_ctx *ctx)
{
	struct wire_inventory wi = burnin_inventory_mine(ctx);

	return ctx->bs->ops->send(ctx->bs, 0, BURNIN_TAG_INVENTORY, &wi,
				  sizeof(wi),
				  clock_mono_now() + ctx->cfg->timeout_s);
}
