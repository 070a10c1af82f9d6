/* SPDX-License-Identifier: MIT */
/*
 * route_ar.h: which planned flows are adaptively routed (route_ar.c), for
 * the planner's promise and the cable judge's trust.
 */
#ifndef IBPROOF_BURNIN_ROUTE_AR_H
#define IBPROOF_BURNIN_ROUTE_AR_H

#include <stdbool.h>
#include <stdint.h>

#include "burnin/route_plan.h"

#define ROUTE_AR_NAMES 8 /* switches named in on_names, then a count */

struct route_ar {
	int sl;
	int flows; /* planned flows with a route */
	int flows_adaptive; /* crossing a switch with AR on for sl */
	int flows_unknown; /* not adaptive, but crossing a switch not read */
	int n_on, n_unknown; /* switches on planned paths */
	uint16_t adaptive_sls; /* SLs some switch of the plan routes by AR */
	char on_names[512]; /* the first ROUTE_AR_NAMES switches with AR on */
};

/*
 * Follows every pair of s (a -> b, and b -> a when bidir) through the
 * routes and counts the flows on adaptive paths for SL sl. 0, -ENOMEM.
 */
int route_ar_check(const struct route_ctx *c, const struct burnin_schedule *s,
		   int sl, bool bidir, struct route_ar *out);
/* "0,2,4-..." the SLs no switch of the plan routes adaptively ("none"). */
void route_ar_static_sls(const struct route_ar *ar, char *buf, size_t len);

/*
 * The planner's gate after a schedule is built: --dry-run prints the
 * count; cover and route-aware all-pairs with flows on adaptive paths
 * are refused (IBP_EXIT_USAGE, naming the switches and the SLs that
 * would be static) unless --allow-adaptive. Fills *ar. IBP_EXIT_*.
 */
int route_ar_gate(const struct burnin_config *cfg, const struct route_ctx *c,
		  const struct burnin_schedule *s, struct route_ar *ar);

#endif
