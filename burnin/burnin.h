/* SPDX-License-Identifier: MIT */
#ifndef IBPROOF_BURNIN_BURNIN_H
#define IBPROOF_BURNIN_BURNIN_H

/*
 * burnin's orchestration: schedules (pure), judging (pure), the round loop
 * over a bootstrap (bootstrap.h) and a transport (transport.h).
 *
 * Rank model: one MPI rank per HCA port. Each rank takes the port of its
 * node-local rank among the node's tested ports and pins itself to the
 * port's NUMA node, so a port's traffic never crosses a socket and a slow
 * process hurts only its own pair.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "burnin/inventory.h"
#include "judge/cablejudge.h"
#include "judge/pairjudge.h"
#include "rdma/transport.h"

/* ---- schedules (schedule_spec.c, schedule.c, schedule_file.c) ---- */

struct burnin_pair {
	int a, b; /* inventory indices; a initiates a unidirectional test */
};

/* Rounds of disjoint pairs: round r is pairs[start[r] .. start[r + 1]). */
struct burnin_schedule {
	int n_rounds;
	int *start;
	struct burnin_pair *pairs;
	int n_pairs;
	size_t cap_rounds, cap_pairs;
	bool rail_bound; /* pairs stay within a rail (separate fabrics) */
	/*
	 * Full-duplex rounds (mpiGraph's shifts): in a round a port is at
	 * most once an initiator (a) and at most once a target (b), so a rank
	 * may send to one partner and receive from another in the same step.
	 * Without it a port is in at most one pair of a round. Duplex rounds
	 * run unidirectional tests only (--bidir is refused with them).
	 */
	bool duplex;
};

/*
 * Builds the schedule named by spec (all-pairs, rail, shift, random:R,
 * node:HOST[,HOST], intra, pairs:FILE) over the inventory ports[n], which
 * must be in canonical order (burnin_inventory_sort). Deterministic in
 * (spec, ports, seed). 0, or -EINVAL with a message ("FILE:LINE: ...") in
 * err; -ENOMEM.
 */
int burnin_schedule_build(const char *spec, const struct dpath_port *ports,
			  int n, uint64_t seed, struct burnin_schedule *s,
			  char *err, size_t err_len);
void burnin_schedule_free(struct burnin_schedule *s);
int burnin_schedule_round_size(const struct burnin_schedule *s, int round);
/* Helpers the builders share (schedule.c). */
int burnin_schedule_new_round(struct burnin_schedule *s);
int burnin_schedule_add(struct burnin_schedule *s, int a, int b);
/*
 * The builders burnin_schedule_build() (schedule_spec.c) picks from; s
 * starts zeroed. 0 or -ENOMEM; _pairs_file and _node (schedule_file.c)
 * also -EINVAL with a message in err.
 */
int burnin_schedule_all_pairs(const struct dpath_port *ports, int n,
			      uint64_t seed, struct burnin_schedule *s);
int burnin_schedule_rail(const struct dpath_port *ports, int n, uint64_t seed,
			 struct burnin_schedule *s);
int burnin_schedule_intra(const struct dpath_port *ports, int n, uint64_t seed,
			  struct burnin_schedule *s);
int burnin_schedule_shift(int n, struct burnin_schedule *s);
int burnin_schedule_random(int n, long rounds, uint64_t seed,
			   struct burnin_schedule *s);
int burnin_schedule_pairs_file(const char *path, const struct dpath_port *ports,
			       int n, struct burnin_schedule *s, char *err,
			       size_t err_len);
int burnin_schedule_node(const char *hosts, const struct dpath_port *ports,
			 int n, struct burnin_schedule *s, char *err,
			 size_t err_len);

/* ---- leaves (leaves.c) ---- */

struct fabric;

/*
 * Sets each port's leaf_* to the switch its cable lands on in the fabric
 * model, found by port GUID; a port absent from it gets an unknown leaf
 * (said at -v). Returns the number of ports with a known leaf, -ENOMEM.
 */
int burnin_leaves_assign(const struct fabric *f, struct dpath_port *ports,
			 int n);
/*
 * The same from an ibnetdiscover topology file. 0; -EINVAL logged as
 * "FILE:LINE: what was expected"; -errno when it cannot be read.
 */
int burnin_leaves_load(const char *path, struct dpath_port *ports, int n);

/* ---- judging (judge.c) ---- */

enum burnin_pair_status {
	BURNIN_PAIR_OK,
	BURNIN_PAIR_ERROR,
	BURNIN_PAIR_NOT_TESTED,
};

/* One measured (or not) pair, as judging sees it. */
struct burnin_measure {
	int round;
	int a, b; /* inventory indices */
	int test; /* enum dpath_test */
	bool bidir;
	enum burnin_pair_status status;
	double gbps, gbps_min, expected_gbps;
	uint64_t error_completions;
	bool retest; /* a retest round (never a link class of its own) */
	/* filled by burnin_judge(): */
	bool low; /* under the floor or an outlier of its class */
	bool dip; /* average fine, a 100 ms window far under */
};

/* The pair judge's params (judge/pairjudge.h, docs/judging.md), and
 * burnin's own check of link rates. */
struct burnin_routes;
struct judge_cable_result;

#define BURNIN_CABLE_ERR_UNREAD UINT64_MAX

/* Which pairs are no evidence by their route (route_judge.h, issue 33). */
struct burnin_route_trust {
	int sl; /* the run's SL (--sl): whose adaptive routing counts */
	/* the steps the load proof found off the routes, or NULL */
	const struct judge_step *unfollowed;
	size_t n_unfollowed;
};

struct burnin_judge_params {
	struct judge_params pairs;
	double link_rate; /* every port's active rate, Gb/s; 0: no check;
				 * < 0 (default): its peers' usual rate */
	/* judging by route (burnin/route_judge.h): NULL without routes */
	const struct burnin_routes *routes;
	const int *route_ca; /* per port: its CA index in routes, -1 none */
	/* per cable: error deltas, BURNIN_CABLE_ERR_UNREAD where its
	 * counters were not read; NULL: none read */
	const uint64_t *cable_err;
	struct judge_cable_result *cables; /* out: the verdicts, or NULL */
	/* which pairs are no evidence by route (route_judge.h): the SL,
	 * the steps the load proof found off the routes */
	struct burnin_route_trust trust;
};

enum burnin_blame {
	BURNIN_BLAME_NONE = 0,
	BURNIN_BLAME_LOW = JUDGE_LOW, /* low-bandwidth */
	BURNIN_BLAME_DIP = JUDGE_DIP, /* intermittent */
	BURNIN_BLAME_ERRORS = JUDGE_ERR, /* completion-errors */
};

struct burnin_port_verdict {
	unsigned int blame; /* BURNIN_BLAME_* */
	bool suspect; /* in a bad pair, not (yet) blamed */
	bool tested; /* at least one pair measured ok */
	int n_pairs, n_bad; /* its pairs, and those bad in any way */
	int n_ok, n_low, n_dip, n_err;
	int low_partners, dip_partners, err_partners; /* fine elsewhere */
	int witnesses; /* partners bad with it in any way, fine elsewhere */
	double worst_gbps;
};

void burnin_judge_defaults(struct burnin_judge_params *jp);

/*
 * A link that trained down: is port p's active rate below the rate it
 * should run at? That is jp->link_rate when > 0; when < 0, the rate of
 * its peers (same link layer and rail): the most common one, held by at
 * least 2 peers and 3/4 of them (a mixed cluster's node types split more
 * evenly). Returns the index of a port at that rate (for width and speed;
 * p itself when link_rate is given) and counts peers and peers at the
 * rate; -1 when p is not slower (or no rate to compare with). Pure.
 */
int burnin_link_rate_reference(const struct burnin_judge_params *jp,
			       const struct dpath_port *ports, int n, int p,
			       int *n_peers, int *n_at_rate);
/* burnin_link_rate_reference() of every port in one pass (link_rate.c):
 * out[n]. O(n log n). 0 or -ENOMEM. */
struct burnin_rate_ref {
	int ref; /* as burnin_link_rate_reference() returns */
	int n_peers, n_at_rate;
};
int burnin_link_rate_references(const struct burnin_judge_params *jp,
				const struct dpath_port *ports, int n,
				struct burnin_rate_ref *out);
/*
 * Marks m[].low/dip and fills v[n_ports] through the one pair judge
 * (judge_pairs()). Pure. 0 or -ENOMEM (v then all zero).
 */
int burnin_judge(const struct burnin_judge_params *jp, struct burnin_measure *m,
		 int n_m, struct burnin_port_verdict *v, int n_ports);
/*
 * One extra round that pairs each suspect with a port that is fine and
 * that it has not met yet (same rail preferred; only the same rail when
 * same_rail: schedule rail, whose rails are separate fabrics); failing
 * that, a port never scheduled, then another suspect it has not met
 * (node:HOST's references meet nobody but the target). Returns the
 * number of pairs added to s as a new round (0: nobody left to retest),
 * -ENOMEM.
 */
int burnin_judge_retest_round(const struct burnin_measure *m, int n_m,
			      const struct burnin_port_verdict *v,
			      const struct dpath_port *ports, int n_ports,
			      bool same_rail, struct burnin_schedule *s);

/* ---- the run ---- */

enum burnin_exit_reason {
	BURNIN_STOP_NONE,
	BURNIN_STOP_SIGNAL,
};

struct burnin_config {
	const struct dpath_transport_ops *ops;
	const char *ports_filter; /* --ports, NULL = all ACTIVE */
	struct dpath_params params; /* test is set per test */
	enum dpath_test tests[2];
	int n_tests;
	const char *schedule; /* spec */
	uint64_t seed;
	bool dry_run;
	struct burnin_judge_params judge;
	int retest_rounds; /* extra rounds for suspects */
	double timeout_s; /* setup and exchange deadline */
	const char *records; /* NULL: none */
	const char *resume; /* --resume FILE */
	const char *inventory; /* --inventory FILE (dry run) */
	const char *topology; /* --topology FILE: leaves */
	/* --routes FILE [--lfts FILE]: the route-aware planner (issue 16) */
	const char *routes, *lfts, *ftree_ca_order;
	const char *coverage, *plan_out; /* --coverage FILE, --plan FILE */
	int max_rounds; /* --max-rounds N: route-aware all-pairs; 0 none */
	bool allow_adaptive; /* --allow-adaptive: plan over AR paths anyway */
	/* --plan-around-unread: plan cover/all-pairs with switches whose
	 * table was not read (their cables not tested); else refused */
	bool plan_around_unread;
	/* --accept-untested: bit i accepts gaps of part i (burnin/scope.h) */
	unsigned int accept_untested;
	bool progress;
	bool pin_numa;
	const char *argv_line; /* for the run start record */
	/* --prove-load 1, --no-prove-load 0; -1: on with routes when umad
	 * and a PMA answer (burnin/load_proof_run.h) */
	int prove_load;
};

/* The defaults of every option (burnin_cli.c). */
void burnin_config_defaults(struct burnin_config *cfg);

/*
 * The stop flag (stop.c): set by the SIGINT/SIGTERM/SIGUSR1 handler, read
 * by every rank thread after its step and by rank 0 between steps.
 * burnin_stop_set() asks for (or clears) the stop as the handler does.
 */
bool burnin_stop_requested(void);
void burnin_stop_set(bool stop);
void burnin_install_signal_handlers(void);

struct burnin_bootstrap;

/* Runs burnin on this rank. Returns an IBP_EXIT_* code. */
int burnin_run(const struct burnin_config *cfg, struct burnin_bootstrap *bs);

/*
 * Without an MPI launcher: one thread per local port, each a rank of the
 * in-process bootstrap. Returns rank 0's IBP_EXIT_* code.
 */
int burnin_run_local(const struct burnin_config *cfg);

/*
 * Rank 0's plan over the sorted inventory: the leaves of --topology, then
 * the schedule. Returns an IBP_EXIT_* code; errors are logged.
 */
int burnin_plan(const struct burnin_config *cfg, struct dpath_port *inv, int n,
		struct burnin_schedule *s);
/*
 * burnin_plan() that hands the routes of --routes to *keep (left NULL
 * without --routes): for rank 0's coordinator, which keeps them for the
 * run (the load proof, judging by route); burnin_routes_free() frees them.
 */
int burnin_plan_keep(const struct burnin_config *cfg, struct dpath_port *inv,
		     int n, struct burnin_schedule *s,
		     struct burnin_routes **keep);

/*
 * Seconds a step takes beyond its measurement window at n_ports ports
 * (ranks): the model fitted to bench/burnin/orchestration (overhead.c).
 */
double burnin_step_overhead_s(int n_ports);
/* Predicted seconds for n_rounds rounds of the config over n_ports. */
double burnin_predict_seconds(const struct burnin_config *cfg, int n_rounds,
			      int n_ports);

/* The --dry-run plan on stdout. */
void burnin_print_plan(const struct burnin_config *cfg,
		       const struct dpath_port *inv, int n_inv,
		       const struct burnin_schedule *s);

/* Pins the calling thread to the CPUs of NUMA node (sysfs root given). */
int burnin_pin_numa(int numa_node, const char *sysfs_root);

#endif
