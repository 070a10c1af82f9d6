// SPDX-License-Identifier: MIT
/*
 * Rank 0's plan over the sorted inventory (and --dry-run's): the leaves of
 * --topology, then the schedule, by route with --routes (route_plan.c).
 */
#include <errno.h>

#include "burnin/burnin.h"
#include "burnin/route_plan.h"
#include "common/cli.h"
#include "common/log.h"

int burnin_plan(const struct burnin_config *cfg, struct dpath_port *inv, int n,
		struct burnin_schedule *s)
{
	return burnin_plan_keep(cfg, inv, n, s, NULL);
}

int burnin_plan_keep(const struct burnin_config *cfg, struct dpath_port *inv,
		     int n, struct burnin_schedule *s,
		     struct burnin_routes **keep)
{
	char err[512];
	int ret;

	if (cfg->topology) {
		ret = burnin_leaves_load(cfg->topology, inv, n);
		if (ret)
			return ret == -ENOMEM ? IBP_EXIT_RUNTIME
					      : IBP_EXIT_USAGE;
	}
	if (cfg->routes)
		return burnin_route_plan(cfg, inv, n, s, keep);
	ret = burnin_schedule_build(cfg->schedule, inv, n, cfg->seed, s, err,
				    sizeof(err));
	if (ret) {
		log_error("schedule: %s", err);
		return ret == -EINVAL ? IBP_EXIT_USAGE : IBP_EXIT_RUNTIME;
	}
	if (s->duplex && cfg->params.bidir) {
		log_error(
			"--bidir: schedule '%s' has full-duplex rounds (a port sends to one partner while it receives from another), which run unidirectional tests only; drop --bidir (both directions are covered anyway) or pick a schedule of disjoint pairs",
			cfg->schedule);
		burnin_schedule_free(s);
		return IBP_EXIT_USAGE;
	}
	return IBP_EXIT_PASS;
}
