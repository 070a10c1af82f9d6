// SPDX-License-Identifier: MIT
/*
 * The reaper: one thread per rank that destroys endpoints, in order,
 * after their results went to rank 0. See reaper.h.
 */
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "burnin/bootstrap.h"
#include "burnin/reaper.h"
#include "burnin/watchdog.h"
#include "common/log.h"

struct reap_item {
	struct dpath_endpoint *ep;
	struct reap_item *next;
};

struct burnin_reaper {
	const struct dpath_transport_ops *ops;
	struct burnin_watchdog *wd;
	char who[256];
	double budget_s;
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	struct reap_item *head, **tail;
	bool busy, stop;
};

static void *reap(void *arg)
{
	struct burnin_reaper *r = arg;

	pthread_mutex_lock(&r->lock);
	for (;;) {
		struct reap_item *it = r->head;

		if (!it) {
			if (r->stop)
				break;
			pthread_cond_wait(&r->cond, &r->lock);
			continue;
		}
		r->head = it->next;
		if (!r->head)
			r->tail = &r->head;
		r->busy = true;
		pthread_mutex_unlock(&r->lock);
		burnin_watchdog_enter(r->wd, "endpoint teardown", r->budget_s);
		r->ops->endpoint_destroy(it->ep);
		burnin_watchdog_leave(r->wd);
		free(it);
		pthread_mutex_lock(&r->lock);
		r->busy = false;
		pthread_cond_broadcast(&r->cond);
	}
	pthread_mutex_unlock(&r->lock);
	return NULL;
}

struct burnin_reaper *burnin_reaper_start(const struct dpath_transport_ops *ops,
					  const char *who, double budget_s)
{
	struct burnin_reaper *r = calloc(1, sizeof(*r));

	if (!r)
		return NULL;
	r->ops = ops;
	snprintf(r->who, sizeof(r->who), "%s", who);
	r->budget_s = budget_s;
	r->tail = &r->head;
	pthread_mutex_init(&r->lock, NULL);
	pthread_cond_init(&r->cond, NULL);
	r->wd = burnin_watchdog_start(who);
	if (pthread_create(&r->thread, NULL, reap, r)) {
		log_warn(
			"%s: no teardown thread; endpoints are destroyed inline",
			who);
		burnin_watchdog_stop(r->wd);
		pthread_mutex_destroy(&r->lock);
		pthread_cond_destroy(&r->cond);
		free(r);
		return NULL;
	}
	return r;
}

void burnin_reaper_add(struct burnin_reaper *r,
		       const struct dpath_transport_ops *ops,
		       struct dpath_endpoint *ep)
{
	struct reap_item *it;

	if (!ep)
		return;
	it = r ? calloc(1, sizeof(*it)) : NULL;
	if (!it) {
		ops->endpoint_destroy(ep);
		return;
	}
	it->ep = ep;
	pthread_mutex_lock(&r->lock);
	*r->tail = it;
	r->tail = &it->next;
	pthread_cond_broadcast(&r->cond);
	pthread_mutex_unlock(&r->lock);
}

static struct timespec abs_time(double wait_s)
{
	struct timespec ts;
	double t;

	clock_gettime(CLOCK_REALTIME, &ts);
	t = (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9 + wait_s;
	ts.tv_sec = (time_t)t;
	ts.tv_nsec = (long)((t - (double)ts.tv_sec) * 1e9);
	return ts;
}

void burnin_reaper_stop(struct burnin_reaper *r, double wait_s)
{
	struct timespec until = abs_time(wait_s);
	bool drained;

	if (!r)
		return;
	pthread_mutex_lock(&r->lock);
	r->stop = true;
	pthread_cond_broadcast(&r->cond);
	while ((r->head || r->busy) &&
	       pthread_cond_timedwait(&r->cond, &r->lock, &until) != ETIMEDOUT)
		;
	drained = !r->head && !r->busy;
	pthread_mutex_unlock(&r->lock);
	if (!drained) {
		/*
		 * Blocked in the kernel. The exit cannot end a call that waits
		 * on a device that stopped sending (seen: rxe over a NIC whose
		 * transmit queue hung): this process stays until the kernel
		 * returns, and mpirun waits for it. The records are written.
		 */
		log_warn(
			"%s: endpoint teardown still running %.0f s after the run (blocked in the kernel: check this port's NIC and its kernel log); this process exits when the kernel returns, and mpirun waits for it until then",
			r->who, wait_s);
		pthread_detach(r->thread);
		return;
	}
	pthread_join(r->thread, NULL);
	burnin_watchdog_stop(r->wd);
	pthread_mutex_destroy(&r->lock);
	pthread_cond_destroy(&r->cond);
	free(r);
}
