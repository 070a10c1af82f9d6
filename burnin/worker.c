// SPDX-License-Identifier: MIT
/*
 * What every rank does: wait for rank 0's instruction for the next step,
 * run its pair through the transport (create, exchange, connect, a ready
 * handshake, run, destroy), read the port counters around it, and send
 * the result to rank 0. Every wait has a deadline.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "burnin/run.h"
#include "burnin/watchdog.h"
#include "common/cli.h"
#include "common/ibport.h"
#include "common/log.h"

#define COUNTERS_MAX 64

/* The longest a step may take before its pairs are given up. */
double burnin_step_seconds(const struct burnin_config *cfg)
{
	const struct burnin_params *p = &cfg->params;

	return p->warmup_s + p->duration_s + p->stall_s + 3 * cfg->timeout_s;
}

struct counters {
	char names[COUNTERS_MAX][BURNIN_COUNTER_NAME_MAX];
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

/* Creates the endpoint and trades connection data with the partner. */
static int pair_connect(struct burnin_ctx *ctx, const struct wire_ctrl *c,
			struct burnin_endpoint **ep, struct wire_result *out)
{
	const struct burnin_transport_ops *ops = ctx->cfg->ops;
	struct burnin_params params = ctx->cfg->params;
	double deadline = clock_mono_now() + ctx->cfg->timeout_s;
	struct wire_conn mine = { 0 }, theirs = { 0 };
	int32_t ready, peer_ready = -1;

	params.test = (enum burnin_test)c->test;
	params.step = c->seq;
	params.connect_timeout_s = ctx->cfg->timeout_s / 2; /* READY's too */
	mine.rc = ops->endpoint_create(&ctx->port, &params, ep);
	if (!mine.rc)
		ops->local_info(*ep, &mine.info);
	else
		fail(out, mine.rc, "endpoint_create failed: %s",
		     strerror(-mine.rc));
	if (ctx->bs->ops->exchange(ctx->bs, c->partner,
				   burnin_tag(c->seq, MSG_CONN), &mine, &theirs,
				   sizeof(mine), deadline))
		return fail(
			out, -ETIMEDOUT,
			"partner rank %d did not answer the connection exchange",
			c->partner);
	if (mine.rc)
		return mine.rc;
	if (theirs.rc)
		return fail(out, -ECANCELED,
			    "partner rank %d could not set up its endpoint",
			    c->partner);
	ready = ops->connect(*ep, &theirs.info, &out->res);
	if (ready)
		fail(out, ready, "connect failed: %s", strerror(-ready));
	if (ctx->bs->ops->exchange(ctx->bs, c->partner,
				   burnin_tag(c->seq, MSG_READY), &ready,
				   &peer_ready, sizeof(ready), deadline))
		return fail(out, -ETIMEDOUT,
			    "partner rank %d did not get ready", c->partner);
	if (ready)
		return ready;
	return peer_ready
		       ? fail(out, -ECANCELED,
			      "partner rank %d could not connect", c->partner)
		       : 0;
}

/*
 * One pair's step up to its result: connect, run, counters. The endpoint
 * is left in *ep for burnin_worker_teardown(), after the result went to
 * rank 0: destroying QPs, CQ and MR can block in the kernel for seconds
 * (seen on Soft-RoCE under load: over the step deadline), and must not
 * make a measured pair late.
 */
int burnin_worker_step(struct burnin_ctx *ctx, const struct wire_ctrl *c,
		       struct wire_result *out, struct burnin_endpoint **epp)
{
	const struct burnin_transport_ops *ops = ctx->cfg->ops;
	struct burnin_endpoint *ep = NULL;
	struct counters before, after;

	memset(out, 0, sizeof(*out));
	out->seq = c->seq;
	out->pair = c->pair;
	out->side = c->side;
	read_counters(ctx, &before);
	burnin_watchdog_enter(ctx->wd, "connection setup",
			      ctx->cfg->timeout_s + 1);
	out->rc = pair_connect(ctx, c, &ep, out);
	burnin_watchdog_leave(ctx->wd);
	if (!out->rc) {
		const struct burnin_params *p = &ctx->cfg->params;

		burnin_watchdog_enter(ctx->wd, "the test",
				      p->warmup_s + p->duration_s + p->stall_s +
					      1);
		out->rc = ops->run(ep, (enum burnin_role)c->role, &out->res);
		burnin_watchdog_leave(ctx->wd);
		if (out->rc && !out->res.error[0])
			fail(out, out->rc, "run failed: error %d", -out->rc);
	}
	read_counters(ctx, &after);
	counter_deltas(&before, &after, out);
	out->stop = burnin_stop_requested();
	*epp = ep;
	return out->rc;
}

/* Queued to the reaper: a teardown blocked in the kernel holds up nobody. */
void burnin_worker_teardown(struct burnin_ctx *ctx, struct burnin_endpoint *ep)
{
	burnin_reaper_add(ctx->reaper, ctx->cfg->ops, ep);
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
	struct wire_result r;
	struct burnin_endpoint *ep;
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
			bs->peers_lost = c.partner > 0; /* ranks rank 0 lost */
			if (c.round == 1)
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
		burnin_worker_step(ctx, &c, &r, &ep);
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
