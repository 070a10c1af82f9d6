/* SPDX-License-Identifier: MIT */
#ifndef IBPROOF_JUDGE_CABLEJUDGE_H
#define IBPROOF_JUDGE_CABLEJUDGE_H

/*
 * Judging by route (issue 16, docs/judging.md "Judging by route"): a
 * pair is evidence about its two ports and about every directed cable on
 * its path. After judge_pairs() has marked the pairs and blamed ports,
 * judge_cables() blames the fewest cables that explain the bad pairs and
 * clears the ports whose bad pairs they explain.
 *
 * - A cable is blamed when at least hit_ratio of its measured pairs are
 *   bad (deTector's 0.8) and min_fine_ends distinct ends of its bad pairs
 *   are fine on the other cables they crossed (at most fine_max_bad of
 *   their other pairs bad).
 * - The fat-tree confound: when every pair through a cable has one port
 *   in common (a spine-to-leaf cable under opensm's ftree routing carries
 *   the traffic of exactly one destination host), that port's pairs that
 *   do not cross the cable (intra-leaf pairs, the other direction)
 *   separate the two: fine there -> the cable; bad there -> the port (the
 *   port judge's blame stands); no such pair -> one finding, ambiguous,
 *   naming both the cable and the port (or_port), and the port's blame
 *   is withdrawn: never the port alone.
 * - That port's pairs off the cable are also counted on the side of the
 *   path it has in every pair through the cable (all into it, or all
 *   out of it; bidirectional pairs: both): bad there -> the port, even
 *   when its other side is fine (a port slow receiving, whose sends are
 *   fine, is not "fine elsewhere" for a down-link into it).
 * - A cable whose error counters rose (err_delta >= min_errors) is blamed
 *   from its counters, and they separate the confound the same way.
 * - Evidence that fits several parts equally is one finding naming them
 *   all (issue 31): cables blamed by route with the same bad pairs and as
 *   many measured ones (an aggregation-to-leaf down-link and the
 *   core-to-aggregation one above it when both carry only other pods'
 *   flows into one host) are one group, ambiguous, with the port behind
 *   them when it is one; with the known pair that would separate them. Candidates of equal rank are weighed
 *   together, so no verdict depends on the order of pairs, cables or
 *   ports.
 *
 * - Pairs that are no evidence by their route (issue 33: an adaptive
 *   path, a step whose routes were not followed; judge_routes) judge
 *   their ports only: no cable's figures, fine ends, retests or cleared
 *   ports count them; a cable's counters still blame it.
 *
 * Only inter-switch cables are judged: a host link and its HCA port are
 * one part to the port judge (no flow crosses one and not the other). Pure: no I/O, no globals. O(P x path
 * length) time and memory.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "judge/pairjudge.h"

#define JUDGE_NO_PORT UINT32_MAX

struct judge_cable_params {
	double hit_ratio; /* bad pairs / measured pairs to blame: 0.8 */
	unsigned int min_fine_ends; /* ends fine elsewhere: 2 */
	double fine_max_bad; /* "fine elsewhere": at most this share bad:
				0.25 */
	uint64_t min_errors; /* counter errors that blame a cable: 1 */
};

void judge_cable_defaults(struct judge_cable_params *cp);

/* What the judge knows of a cable besides the pairs through it. */
struct judge_cable_in {
	bool inter_switch; /* both ends switches: judged */
	bool has_counters; /* err_delta was read */
	uint64_t err_delta; /* error counter deltas at both ends */
	/* its identity, the egress port (the id "0xGUID:PORT"): the order
	 * of a group's cables and of the groups, never a verdict */
	uint64_t id_guid;
	uint32_t id_port;
};

enum judge_cable_verdict {
	JUDGE_CABLE_UNUSED, /* no measured pair through it */
	JUDGE_CABLE_FINE,
	JUDGE_CABLE_BLAMED,
	JUDGE_CABLE_AMBIGUOUS, /* one of its group's candidates: this cable,
				  the others of its group, the port or_port */
	JUDGE_CABLE_PORT, /* its bad pairs are the port or_port's */
};

/* Why a cable is blamed: bits. */
#define JUDGE_CABLE_BY_ROUTE 1u /* its pairs */
#define JUDGE_CABLE_BY_COUNTERS 2u /* its error counters */

/* Per cable, out: the verdict and its evidence. */
struct judge_cable {
	uint8_t verdict; /* enum judge_cable_verdict */
	uint8_t by; /* JUDGE_CABLE_BY_* */
	uint8_t bad; /* JUDGE_LOW | JUDGE_DIP | JUDGE_ERR of its bad pairs */
	uint32_t n_pairs, n_meas, n_bad; /* pairs through it */
	uint32_t fine_ends; /* ends of its bad pairs fine elsewhere */
	uint32_t bad_ends; /* ... bad elsewhere */
	uint32_t or_port; /* the port every pair through it has in common,
			     JUDGE_NO_PORT none */
	uint32_t or_port_meas, or_port_bad; /* its pairs not through it */
	uint64_t err_delta;
	float hit_ratio; /* n_bad / n_meas */
	float worst_gbps; /* of its measured ok pairs, -1 none */
	uint32_t group; /* blamed or ambiguous: its finding, in groups */
	uint32_t n_no_route; /* pairs through it by the tables that are no
				evidence about it (judge_routes) */
};

#define JUDGE_NO_PAIR UINT32_MAX

/*
 * One finding about cables: a cable blamed alone (verdict BLAMED, one
 * cable, no port), or the candidates the evidence fits equally (verdict
 * AMBIGUOUS): cables with the same bad pairs and as many measured ones
 * (no measurement tells them apart) and, when every pair through one of
 * them has one port in common and no pair of that port avoids it, that
 * port.
 */
struct judge_cable_group {
	uint8_t verdict; /* JUDGE_CABLE_BLAMED or JUDGE_CABLE_AMBIGUOUS */
	uint32_t first, n; /* its cables: members[first .. first + n), in
			      id order */
	uint32_t or_port; /* the port among the candidates, JUDGE_NO_PORT */
	/* the retest that separates them: a pair (index in the judged
	 * pairs, measured or not) whose path crosses some of the candidates
	 * and not the others (the port: one of its ends), JUDGE_NO_PAIR when
	 * none of the known paths does; the pair's ports ordered by key */
	uint32_t retest, retest_a, retest_b;
};

/*
 * A step whose traffic the load proof found off the routes (a
 * `routes-not-followed` finding): run, round and test as the pairs of
 * judge_pairs() count them.
 */
struct judge_step {
	uint32_t run, round;
	uint8_t test;
};

/*
 * The pairs and their paths: the directed cables pair i crosses are
 * path_cables[path_start[i] .. path_start[i + 1]) (both directions for a
 * bidirectional test; a pair without a route has none).
 */
struct judge_routes {
	const uint32_t *path_start; /* [n_pairs + 1] */
	const uint32_t *path_cables; /* cable ids < n_cables */
	const struct judge_cable_in *cables; /* [n_cables] */
	size_t n_cables;
	/* [n_ports]: each port's identity (judge_port_key()), so that no
	 * choice between ports depends on their order; NULL: their index */
	const uint64_t *port_key;
	/*
	 * Pairs that are no evidence about the cables of their path (issue
	 * 33, docs/judging.md): adaptive[i] nonzero, pair i's path crosses a
	 * switch that routes the run's SL adaptively (burnin/route_ar.h's
	 * rule; NULL: none); or pair i ran in one of the steps unfollowed[]
	 * (its run, round and test). They still judge their ports (the pair
	 * rule); no cable is blamed, found fine or separated by them, and no
	 * port's blame is withdrawn for them. A cable's own counters still
	 * blame it.
	 */
	const uint8_t *adaptive;
	const struct judge_step *unfollowed;
	size_t n_unfollowed;
};

/* A port's identity: its port GUID, else a hash of host, CA and port. */
uint64_t judge_port_key(uint64_t guid, const char *host, const char *ca,
			int port);

struct judge_cable_result {
	struct judge_cable *cables; /* [n_cables] */
	size_t n_cables;
	uint8_t *cleared; /* [n_ports]: the blame withdrawn from the port
			     (JUDGE_LOW ...), its pairs explained by cables */
	uint8_t *explained; /* [n_pairs]: a bad pair a blamed or ambiguous
			       cable explains */
	size_t n_blamed, n_ambiguous;
	size_t n_no_route; /* pairs with a path that are no evidence by it */
	/* the findings, ordered by their first cable's id */
	struct judge_cable_group *groups;
	uint32_t *members; /* cable indices */
	size_t n_groups;
};

/*
 * Judges the cables of rt against the pairs and res (judge_pairs()'s
 * verdicts on the same pairs), and withdraws in res the blame and
 * suspicion of the ports whose bad pairs the cables explain (the blame
 * withdrawn is in out->cleared). 0, -EINVAL (a cable id out of range),
 * or -ENOMEM (out then empty, res untouched). Free with
 * judge_cable_result_free().
 */
int judge_cables(const struct judge_cable_params *cp,
		 const struct judge_pair *pairs, const struct judge_routes *rt,
		 struct judge_result *res, struct judge_cable_result *out);
void judge_cable_result_free(struct judge_cable_result *out);

/* "ok", "not-tested", "blamed", "ambiguous", "port". */
const char *judge_cable_verdict_name(uint8_t verdict);

#endif
