// SPDX-License-Identifier: MIT
/*
 * The run loop of the verbs backend (see verbs_run.h). Every wait is bounded:
 * by the stall detector while work is outstanding, and by a deadline of
 * warm-up + duration + stall_s for everything else.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "rdma/verbs_meter.h"
#include "rdma/verbs_run.h"
#include "common/log.h"

#define POLL_BATCH 32

struct vrun {
	const struct dpath_vio *io;
	const struct dpath_params *p;
	struct dpath_result *res;
	struct dpath_meter meter;
	bool initiator, want_peer_done;
	bool stopping, done_posted, done_acked, peer_done, failed;
	int outstanding; /* data work requests in flight */
	int64_t t_end, deadline, last_progress, t_failed;
};

void dpath_result_count_error(struct dpath_result *res, const char *status)
{
	int i;

	res->error_completions++;
	for (i = 0; i < res->n_errors; i++)
		if (!strcmp(res->errors[i].status, status))
			break;
	if (i == res->n_errors) {
		if (res->n_errors == DPATH_MAX_ERR_STATUS)
			status = "other"; /* the last slot gathers the rest */
		else
			res->n_errors++;
		i = res->n_errors - 1;
		snprintf(res->errors[i].status, sizeof(res->errors[i].status),
			 "%s", status);
	}
	res->errors[i].count++;
}

/* The first failure wins: it names the cause, later ones are its echo. */
static int vrun_fail(struct vrun *r, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int vrun_fail(struct vrun *r, int err, const char *fmt, ...)
{
	va_list ap;

	if (!r->failed) {
		r->failed = true;
		r->stopping = true;
		r->t_failed = r->io->now_ns(r->io->ctx);
		va_start(ap, fmt);
		vsnprintf(r->res->error, sizeof(r->res->error), fmt, ap);
		va_end(ap);
	}
	return err;
}

static int vrun_post(struct vrun *r, int qp)
{
	int ret = r->io->post_data(r->io->ctx, qp);

	if (ret)
		return vrun_fail(r, ret, "posting a work request on qp %d: %s",
				 qp, strerror(-ret));
	r->outstanding++;
	return 0;
}

static void vrun_data_cqe(struct vrun *r, const struct dpath_vcqe *c,
			  int64_t now)
{
	r->outstanding--;
	if (!c->ok) {
		dpath_result_count_error(r->res, c->status);
		vrun_fail(r, -EIO, "completion error: %s (qp %d)", c->status,
			  c->qp);
		return;
	}
	r->res->completions++;
	dpath_meter_add(&r->meter, now, c->bytes);
	if (!r->stopping && now < r->t_end)
		vrun_post(r, c->qp);
}

static void vrun_cqe(struct vrun *r, const struct dpath_vcqe *c, int64_t now)
{
	switch (c->kind) {
	case DPATH_CQE_DATA:
		vrun_data_cqe(r, c, now);
		break;
	case DPATH_CQE_DONE_SENT:
		r->done_acked = true;
		if (!c->ok) {
			dpath_result_count_error(r->res, c->status);
			vrun_fail(r, -EIO, "completion error: %s (done signal)",
				  c->status);
		}
		break;
	case DPATH_CQE_PEER_DONE:
		if (c->ok) {
			r->peer_done = true;
			break;
		}
		dpath_result_count_error(r->res, c->status);
		vrun_fail(r, -EIO, "completion error: %s (receive on qp %d)",
			  c->status, c->qp);
		break;
	}
}

static bool vrun_finished(const struct vrun *r)
{
	if (r->initiator &&
	    !(r->stopping && !r->outstanding && (r->done_acked || r->failed)))
		return false;
	return !r->want_peer_done || r->peer_done || r->failed;
}

/* Stall detector and deadline; -ETIMEDOUT once either fires. */
static int vrun_check_time(struct vrun *r, int64_t now)
{
	int pending = r->outstanding + (r->done_posted && !r->done_acked);
	double quiet = (double)(now - r->last_progress) / 1e9;

	if (pending && quiet > r->p->stall_s)
		return vrun_fail(r, -ETIMEDOUT, "stalled: %d outstanding",
				 pending);
	if (now <= r->deadline)
		return 0;
	if (pending)
		return vrun_fail(r, -ETIMEDOUT,
				 "stalled: %d outstanding at the deadline",
				 pending);
	return vrun_fail(r, -ETIMEDOUT,
			 "no done signal from the peer within %.1f s",
			 r->p->warmup_s + r->p->duration_s + r->p->stall_s);
}

/* One pass: maybe stop posting, maybe signal done, poll, check time. */
static int vrun_step(struct vrun *r)
{
	struct dpath_vcqe cqe[POLL_BATCH];
	int64_t now = r->io->now_ns(r->io->ctx);
	int n;

	if (r->initiator && now >= r->t_end)
		r->stopping = true;
	if (r->initiator && r->stopping && !r->outstanding && !r->failed &&
	    !r->done_posted) {
		r->done_posted = true;
		n = r->io->post_done(r->io->ctx);
		if (n)
			return vrun_fail(r, n, "posting the done signal: %s",
					 strerror(-n));
	}
	n = r->io->poll(r->io->ctx, cqe, POLL_BATCH);
	if (n < 0)
		return vrun_fail(r, n, "polling the completion queue: %s",
				 strerror(-n));
	now = r->io->now_ns(r->io->ctx);
	for (int i = 0; i < n; i++)
		vrun_cqe(r, &cqe[i], now);
	if (n > 0)
		r->last_progress = now;
	else if (!r->initiator && r->io->idle)
		r->io->idle(r->io->ctx);
	return vrun_check_time(r, now);
}

static int vrun_start(struct vrun *r)
{
	int64_t t0 = r->io->now_ns(r->io->ctx);
	int64_t meas = t0 + (int64_t)(r->p->warmup_s * 1e9);
	int ret;

	r->t_end = meas + (int64_t)(r->p->duration_s * 1e9);
	r->deadline = r->t_end + (int64_t)(r->p->stall_s * 1e9);
	r->last_progress = t0;
	ret = dpath_meter_init(&r->meter, meas, r->t_end,
			       DPATH_WINDOW_MS * 1000000ll);
	if (ret)
		return vrun_fail(r, ret, "measurement window: %s",
				 strerror(-ret));
	for (int q = 0; r->initiator && q < r->p->qps; q++)
		for (int d = 0; d < r->p->tx_depth; d++)
			if (vrun_post(r, q))
				return -EIO;
	return 0;
}

int dpath_vrun(const struct dpath_vio *io, const struct dpath_params *params,
	       enum dpath_role role, struct dpath_result *res)
{
	struct vrun r = { .io = io, .p = params, .res = res };
	int ret, err = 0;

	memset(res, 0, sizeof(*res));
	r.initiator = role != DPATH_ROLE_TARGET;
	r.want_peer_done = role != DPATH_ROLE_INITIATOR;
	ret = vrun_start(&r);
	while (!vrun_finished(&r)) {
		ret = vrun_step(&r);
		if (ret && !err)
			err = ret;
		if (ret == -ETIMEDOUT)
			break;
	}
	if (r.meter.window_bytes) {
		dpath_meter_result(&r.meter, r.failed ? r.t_failed : r.t_end,
				   &res->seconds, &res->gbps, &res->gbps_min);
		res->bytes = (uint64_t)r.meter.bytes;
		if (!r.initiator)
			res->gbps = res->gbps_min = 0;
		dpath_meter_free(&r.meter);
	}
	if (r.failed && !err)
		err = -EIO;
	return err;
}
