// SPDX-License-Identifier: MIT
/*
 * The step watchdog: one thread per rank, asleep on a condition variable
 * (CLOCK_MONOTONIC) until the current stage's budget runs out, then one
 * warning naming the stage. It never touches MPI or a device.
 */
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "burnin/bootstrap.h"
#include "burnin/watchdog.h"
#include "common/log.h"

struct burnin_watchdog {
	pthread_t tid;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	char who[256];
	const char *stage; /* NULL between stages */
	double since, budget;
	bool warned, quit;
};

static struct timespec abs_time(double t)
{
	struct timespec ts;

	ts.tv_sec = (time_t)t;
	ts.tv_nsec = (long)((t - (double)ts.tv_sec) * 1e9);
	return ts;
}

static void *watch(void *arg)
{
	struct burnin_watchdog *wd = arg;

	pthread_mutex_lock(&wd->lock);
	while (!wd->quit) {
		double now = clock_mono_now(), due = wd->since + wd->budget;

		if (wd->stage && !wd->warned && now >= due) {
			log_warn(
				"%s: %s still running after %.0f s (budget %.0f s)",
				wd->who, wd->stage, now - wd->since,
				wd->budget);
			wd->warned = true;
		}
		if (wd->stage && !wd->warned) {
			struct timespec ts = abs_time(due);

			pthread_cond_timedwait(&wd->cond, &wd->lock, &ts);
		} else {
			pthread_cond_wait(&wd->cond, &wd->lock);
		}
	}
	pthread_mutex_unlock(&wd->lock);
	return NULL;
}

struct burnin_watchdog *burnin_watchdog_start(const char *who)
{
	struct burnin_watchdog *wd = calloc(1, sizeof(*wd));
	pthread_condattr_t attr;

	if (!wd)
		return NULL;
	snprintf(wd->who, sizeof(wd->who), "%s", who);
	pthread_condattr_init(&attr);
	pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
	pthread_cond_init(&wd->cond, &attr);
	pthread_condattr_destroy(&attr);
	pthread_mutex_init(&wd->lock, NULL);
	if (pthread_create(&wd->tid, NULL, watch, wd)) {
		log_debug("%s: no watchdog thread", who);
		pthread_cond_destroy(&wd->cond);
		pthread_mutex_destroy(&wd->lock);
		free(wd);
		return NULL;
	}
	return wd;
}

void burnin_watchdog_enter(struct burnin_watchdog *wd, const char *stage,
			   double budget_s)
{
	if (!wd)
		return;
	pthread_mutex_lock(&wd->lock);
	wd->stage = stage;
	wd->since = clock_mono_now();
	wd->budget = budget_s;
	wd->warned = false;
	pthread_cond_signal(&wd->cond);
	pthread_mutex_unlock(&wd->lock);
}

double burnin_watchdog_leave(struct burnin_watchdog *wd)
{
	double took;

	if (!wd)
		return 0;
	pthread_mutex_lock(&wd->lock);
	took = clock_mono_now() - wd->since;
	if (wd->stage && took > wd->budget)
		log_warn("%s: %s took %.1f s (budget %.0f s)", wd->who,
			 wd->stage, took, wd->budget);
	wd->stage = NULL;
	pthread_cond_signal(&wd->cond);
	pthread_mutex_unlock(&wd->lock);
	return took;
}

void burnin_watchdog_stop(struct burnin_watchdog *wd)
{
	if (!wd)
		return;
	pthread_mutex_lock(&wd->lock);
	wd->quit = true;
	pthread_cond_signal(&wd->cond);
	pthread_mutex_unlock(&wd->lock);
	pthread_join(wd->tid, NULL);
	pthread_cond_destroy(&wd->cond);
	pthread_mutex_destroy(&wd->lock);
	free(wd);
}
