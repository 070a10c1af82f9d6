/* SPDX-License-Identifier: MIT */
#ifndef IBPROOF_BURNIN_LOAD_PROOF_H
#define IBPROOF_BURNIN_LOAD_PROOF_H

/*
 * The load proof (issue 16): after each step (one test of one round) the
 * coverage certificate says, per directed cable the step's flows cross,
 * what its egress port actually sent (PMA PortXmitData, read before and
 * after the step) and the error counter deltas at both its ends. A cable
 * that sent under half of what its flows moved is a `cable-not-loaded`
 * finding: the routes the plan was made from are not the ones the traffic
 * took (adaptive routing, tables changed), and the certificate would lie.
 *
 * Pure here (load_proof.c): a step's flows -> the cables they load
 * (struct burnin_step_loads, which the planner may fill as well), counter
 * deltas, verdicts and records. load_proof_run.c reads the counters
 * (fabric_pma_read_ports) and walks the routes (route_model.h).
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "fabric/fabric_counters.h"

/* One directed flow of a step: src sends to dst (route CA indices). */
struct burnin_flow {
	int src, dst;
	double rate_gbps; /* planned: the slowest of its ends and cables */
	int first, n; /* its cables: loads->path[first .. first + n) */
	uint64_t moved_bytes; /* after the step: what its ends measured */
};

/* What one directed cable is expected to carry in a step. */
struct burnin_cable_load {
	int cable; /* route model index */
	int flows; /* flows of the step that cross it */
	double expected_bytes; /* planned: seconds x its flows' rates,
				* at most seconds x its capacity */
	double moved_bytes; /* after the step: its flows' moved bytes */
	int from_target, to_target; /* its ends' PMA reads (run file) */
};

/* A step's flows and the cables they load. Starts zeroed. */
struct burnin_step_loads {
	struct burnin_flow *flows;
	int n_flows;
	size_t cap_flows;
	int *path; /* the flows' cables, flow after flow */
	int n_path;
	size_t cap_path;
	struct burnin_cable_load *cables; /* in order of first use */
	int n_cables;
	int *path_slot; /* path[k]'s index in cables, -1 none */
};

/* Adds a flow and its path (cables in order). 0 or -ENOMEM. */
int burnin_loads_add_flow(struct burnin_step_loads *l, int src, int dst,
			  double rate_gbps, const int *cables, int n);
/*
 * Groups the flows by cable into l->cables: each cable's flows and
 * expected bytes over `seconds` (capacity_gbps[cable], n_route_cables of
 * them, caps a cable's rate; 0 = no cap). 0 or -ENOMEM.
 */
int burnin_loads_index(struct burnin_step_loads *l, const double *capacity_gbps,
		       int n_route_cables, double seconds);
/* Sums the flows' moved_bytes into their cables' moved_bytes. */
void burnin_loads_add_moved(struct burnin_step_loads *l);
void burnin_loads_reset(struct burnin_step_loads *l); /* keeps the memory */
void burnin_loads_free(struct burnin_step_loads *l);

/* How well a counter's delta is known. */
enum burnin_delta {
	BURNIN_DELTA_EXACT,
	BURNIN_DELTA_AT_LEAST, /* saturated (32-bit) or cleared meanwhile */
	BURNIN_DELTA_UNKNOWN, /* read one way before, another after */
};

/*
 * The rise of counter id (enum ib_pc) between two reads. PMA counters
 * saturate, never wrap (IBTA; docs of fabric counters): a counter lower
 * after than before was cleared meanwhile (opensm's perfmgr clears them),
 * so the rise is at least its value after, never a wrapped difference.
 * Data counters are 64-bit when ext (PortCountersExtended), 32-bit
 * otherwise; a data counter read extended once and 32-bit the other time
 * cannot be compared. Pure.
 */
enum burnin_delta burnin_counter_delta(int id, uint64_t before, bool ext_before,
				       uint64_t after, bool ext_after,
				       uint64_t *delta);

enum burnin_cable_status {
	BURNIN_CABLE_LOADED, /* sent at least half its flows' bytes */
	BURNIN_CABLE_NOT_LOADED, /* sent under half: a finding */
	BURNIN_CABLE_UNPROVEN, /* a lower bound under half, or unknown */
	BURNIN_CABLE_UNREAD, /* an end's PMA did not answer */
	BURNIN_CABLE_IDLE, /* no flow through it moved a byte */
};

/* The counters of a cable's two ends, before and after a step. */
struct burnin_cable_counters {
	bool read; /* both reads of the egress end answered */
	struct fabric_pc from_before, from_after;
	bool to_read; /* both reads of the ingress end answered */
	struct fabric_pc to_before, to_after;
};

/* A cable's proof in one step. */
struct burnin_cable_proof {
	enum burnin_cable_status status;
	uint64_t sent_bytes; /* PortXmitData delta x 4 (4-octet words) */
	enum burnin_delta sent_known;
	uint64_t from_errors[FABRIC_PC_ERRORS_END]; /* error deltas */
	uint64_t to_errors[FABRIC_PC_ERRORS_END];
	bool to_read;
	/* burnin_cable_judge_errors(): the rises that broke their limit */
	bool from_over[FABRIC_PC_ERRORS_END], to_over[FABRIC_PC_ERRORS_END];
	uint64_t errors_over; /* their sum, both ends */
};

/* Judges one cable of a step from its load and counters. Pure. */
void burnin_cable_prove(const struct burnin_cable_load *load,
			const struct burnin_cable_counters *c,
			struct burnin_cable_proof *out);
const char *burnin_cable_status_name(enum burnin_cable_status s);

/* What a cable's error rises in a step are judged against. */
struct burnin_cable_link {
	int speed; /* enum ib_speed */
	int lanes;
	double seconds; /* the step's: warm-up + duration */
};

/*
 * Judges each error counter's rise at each end of a proven cable (out of
 * burnin_cable_prove()) by the one table of counter limits, as `fabric
 * counters` judges a window (fabric/fabric_limits.h, docs/judging.md):
 * bit errors per bit the end received in the step (at least the link's
 * signalling over its seconds), events per step. A rise whose severity is
 * fail is over its limit (out->from_over/to_over, summed into
 * out->errors_over): the same count passes over many bits and fails over
 * few. Pure.
 */
void burnin_cable_judge_errors(const struct burnin_cable_counters *c,
			       const struct burnin_cable_link *link,
			       struct burnin_cable_proof *out);

/* Names and ends of a cable, as records write them. */
struct burnin_cable_ref {
	const char *name; /* "leaf01:17->spine03:5" */
	const char *from_name, *to_name;
	uint64_t from_guid, to_guid;
	int from_port, to_port;
	uint16_t from_lid, to_lid;
	bool inter_switch;
};

/* The `cable-load` record of a cable in a step (docs/records.md). */
json_t *burnin_cable_load_record(int round, const char *test,
				 const struct burnin_cable_ref *ref,
				 const struct burnin_cable_load *load,
				 const struct burnin_cable_proof *p);
/* The `cable-not-loaded` finding of a cable in a step. */
json_t *burnin_cable_not_loaded_finding(int round, const char *test,
					const struct burnin_cable_ref *ref,
					const struct burnin_cable_load *load,
					const struct burnin_cable_proof *p);

#endif
