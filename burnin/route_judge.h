/* SPDX-License-Identifier: MIT */
#ifndef IBPROOF_BURNIN_ROUTE_JUDGE_H
#define IBPROOF_BURNIN_ROUTE_JUDGE_H

/*
 * Route context for judging by route (issue 16, docs/judging.md "Judging
 * by route"): the cables of a pair's path in its record (`cables`,
 * `cables_ba`) and the `cable` records of judge_cables()'s verdicts
 * (docs/records.md). A cable's id is its egress port, "0xNODEGUID:PORT".
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "burnin/route_model.h"
#include "judge/cablejudge.h"

struct burnin_route_trust;

#define BURNIN_CABLE_ID_LEN 32

/*
 * Judges by route the pairs that judge_pairs() judged into res (rank 0,
 * after the pair judge; cablejudge.h has the rules): each pair's path
 * from the routes, a -> b and, for a bidirectional test, b -> a; trust
 * (NULL: SL 0, every step followed) says which pairs are no evidence by
 * their path (issue 33: adaptive, or off the routes). ca[p]:
 * the CA index in r of port p, -1 when the routes do not have it (its
 * pairs are judged by port only). err_delta[c]: the error counter deltas
 * of cable c at both ends, NULL when none were read. Withdraws in res the
 * blame of ports the cables explain. 0 or -ENOMEM (out then empty).
 */
int burnin_route_judge(const struct burnin_routes *r, const int *ca,
		       size_t n_ports, const struct judge_pair *pairs,
		       const uint64_t *err_delta,
		       const struct burnin_route_trust *trust,
		       struct judge_result *res,
		       struct judge_cable_result *out);

/*
 * Whether a path (cables[n] of r) is adaptive on SL sl: it crosses a
 * switch whose AdaptiveRoutingInfo routes sl adaptively for RC
 * (route_ar.h's rule; a switch not read is not). The cable judge takes
 * no route evidence from such a pair (judge_routes.adaptive).
 */
bool burnin_path_adaptive(const struct burnin_routes *r, const int *cables,
			  int n, int sl);

/*
 * Retests that tell apart what the evidence fits equally (issue 31): for
 * each ambiguous group of cr (judge_cables()'s, on the ports whose CA in
 * r is ca[p]), pairs of ports not used (used[] marks those taken) whose
 * paths (both directions when bidir; both routed: never across rails;
 * neither adaptive on SL sl, burnin_path_adaptive(): such a path is not
 * the one its traffic takes, so it separates nothing)
 * cross some of its candidates (its
 * cables; its port: an end of the pair) and not the others, until every
 * candidate is crossed by a different set of them or no pair is left. One
 * end of each is where the group's cables carry traffic to. Appended to
 * s's last round. Returns the number of pairs added, or -ENOMEM.
 */
struct burnin_schedule;
int burnin_route_separate(const struct burnin_routes *r, const int *ca,
			  int n_ports, const struct judge_cable_result *cr,
			  bool bidir, int sl, bool *used,
			  struct burnin_schedule *s);

/* "0x0008f10300000004:3" into buf. */
void burnin_cable_id(const struct burnin_routes *r, int c, char *buf,
		     size_t len);

/*
 * Adds to a pair record the path of CA a to CA b (`cables`) and, when
 * bidir, of b to a (`cables_ba`); a path the routes do not give adds
 * `route` with why (`no-route`, `dead-port`, `loop`, `not-in-routes`)
 * instead. A CA index < 0 is a port not in the routes. With a path that
 * is adaptive on SL sl (burnin_path_adaptive()), `adaptive`: true, so that
 * the report withholds the same route evidence. 0 or -ENOMEM.
 */
int burnin_pair_route_fields(json_t *rec, const struct burnin_routes *r,
			     int ca_a, int ca_b, bool bidir, int sl);

/*
 * The `cable` record of cable c and its verdict v; or_port (stolen, may
 * be NULL): the port reference of v->or_port. NULL on ENOMEM.
 */
json_t *burnin_cable_record(const struct burnin_routes *r, int c,
			    const struct judge_cable *v, json_t *or_port);

#endif
