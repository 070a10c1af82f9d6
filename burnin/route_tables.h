/* SPDX-License-Identifier: MIT */
#ifndef IBPROOF_BURNIN_ROUTE_TABLES_H
#define IBPROOF_BURNIN_ROUTE_TABLES_H

/*
 * Plans on partial tables (issue 32): a route-aware plan (`cover`,
 * `all-pairs` with --routes) through a switch whose forwarding table was
 * not read would be built on guesses. The routes' switches with no table
 * (no `lft` record, or a not-tested finding whose evidence part is
 * `tables`) refuse the plan, naming them, unless --plan-around-unread.
 */
struct burnin_config;
struct burnin_routes;

/* IBP_EXIT_PASS, or IBP_EXIT_USAGE (logged, naming the switches). */
int burnin_route_tables_check(const struct burnin_config *cfg,
			      const struct burnin_routes *r);

#endif
