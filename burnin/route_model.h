/* SPDX-License-Identifier: MIT */
#ifndef IBPROOF_BURNIN_ROUTE_MODEL_H
#define IBPROOF_BURNIN_ROUTE_MODEL_H

/*
 * The fabric's routes as burnin sees them (issue 16): the CA ports and the
 * directed cables of the fabric, and the path of every CA-to-CA flow as
 * the switches' linear forwarding tables route it. Built from the records
 * of `ibproof fabric routes` (link + lft records) or from its offline
 * inputs (an ibnetdiscover topology file and an opensm-lfts.dump /
 * ibroute dump), through fabric's pure model and route code
 * (fabric/fabric_route.h). Read-only once loaded: every user (the
 * planner, the fake's flow model, the judge's route evidence, the load
 * proof) shares one and may call it from several threads.
 *
 * Cables are directed: a physical cable between switch ports X and Y is
 * two cables, X->Y and Y->X, each named by its egress port (the port whose
 * PortXmitData counts what it carries). Host links (CA <-> leaf) are
 * cables too, marked !inter_switch.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rdma/transport.h"

struct burnin_cable {
	uint64_t from_guid, to_guid; /* node GUIDs of the two ends */
	int from_port, to_port; /* from_port is the egress port */
	uint16_t from_lid; /* LID of the egress port's node (switch: port 0) */
	const char *from_name, *to_name; /* node descriptions, as text */
	bool inter_switch; /* both ends are switches */
	int reverse; /* index of the cable the other way, -1 none */
	double capacity_gbps; /* the data rate of its width x speed */
	int speed, width; /* enum ib_speed, lanes: its error limits */
};

struct burnin_route_ca {
	uint64_t port_guid, node_guid;
	int port; /* port number on the CA */
	uint16_t lid;
	const char *node_name; /* NodeDescription "HOST CA", as text */
	int leaf_cable; /* the cable CA -> its switch, -1 not cabled */
	double rate_gbps; /* its link's data rate */
};

struct burnin_routes;

/*
 * Loads the routes. With lfts NULL, path holds records of `ibproof
 * fabric routes --records` (link and lft records); otherwise path is an
 * ibnetdiscover topology file and lfts the table dump. 0; -EINVAL with
 * "FILE:LINE: what was expected" in err; -errno when a file cannot be
 * read; -ENOMEM.
 */
int burnin_routes_load(const char *path, const char *lfts,
		       struct burnin_routes **out, char *err, size_t err_len);
void burnin_routes_free(struct burnin_routes *r);

struct fabric;
struct fabric_routes;
/*
 * The same from a model and its tables built in memory (a generated tree,
 * a bench): takes m and the contents of *fr (zeroed here), freed with the
 * routes, also when this fails. 0 or -ENOMEM.
 */
int burnin_routes_adopt(struct fabric *m, struct fabric_routes *fr,
			struct burnin_routes **out);

int burnin_routes_n_cables(const struct burnin_routes *r);
const struct burnin_cable *burnin_routes_cable(const struct burnin_routes *r,
					       int c);
int burnin_routes_n_cas(const struct burnin_routes *r);
const struct burnin_route_ca *burnin_routes_ca(const struct burnin_routes *r,
					       int ca);
/* The CA port index of a port GUID, -1 when the routes do not have it. */
int burnin_routes_ca_by_guid(const struct burnin_routes *r, uint64_t guid);

/*
 * The directed cables a flow from CA src to CA dst crosses, in order
 * (first the source's host link, last the destination's), into
 * cables[max]. Returns their number; -ENOENT no route (a table without
 * an entry), -ENOLINK a table pointing at a dead port, -ELOOP a loop,
 * -ENOSPC more than max; -EHOSTUNREACH delivered to a CA that does not own
 * the destination's LID; -EINVAL an index out of range. Pure, thread-safe.
 */
int burnin_routes_path(const struct burnin_routes *r, int src, int dst,
		       int *cables, int max);

/*
 * The CA ports whose LID the switch at cable c's egress end routes out of
 * that port, into cas[max]. Returns their number (more than max: only max
 * written); 0 for a cable out of a CA. Pure, thread-safe.
 */
int burnin_routes_cable_dsts(const struct burnin_routes *r, int c, int *cas,
			     int max);

struct fabric_ar;
/*
 * The adaptive routing of the switch at cable c's egress end, as the
 * routes file says it (fabric/ar_info.h; unknown when not read); NULL for
 * a cable out of a CA.
 */
const struct fabric_ar *burnin_routes_cable_ar(const struct burnin_routes *r,
					       int c);

/*
 * The switches whose forwarding table the routes lack (no lft record, not
 * in the dump: not read), as node indexes into nodes[max]. Returns their
 * number (more than max: only max written). burnin_routes_switch(): a
 * node's GUID and name (issue 32).
 */
int burnin_routes_unread_switches(const struct burnin_routes *r, int *nodes,
				  int max);
void burnin_routes_switch(const struct burnin_routes *r, int node,
			  uint64_t *guid, const char **name);
/* The switch of node GUID guid has no table in the routes. */
bool burnin_routes_table_unread(const struct burnin_routes *r, uint64_t guid);

/*
 * Where a flow from CA src to CA dst goes when the switches for which
 * adaptive(guid, arg) is true spread it evenly, packet by packet, over
 * their equal-cost next hops (the ports toward a node one hop nearer dst)
 * and every other switch follows its table: the cables it may cross, each
 * once, into cables[max], with the share of the flow each carries into
 * share[max] (1 on a cable every packet crosses). The fake's model of
 * adaptive routing (fake=ar=...), not a switch's algorithm. Returns the
 * number of cables, or -errno as burnin_routes_path(). Pure.
 */
int burnin_routes_spread(const struct burnin_routes *r, int src, int dst,
			 bool (*adaptive)(uint64_t guid, void *arg), void *arg,
			 int *cables, double *share, int max);

/* "leaf01:17->spine03:5" (names made safe for a terminal) into buf. */
void burnin_cable_name(const struct burnin_routes *r, int c, char *buf,
		       size_t len);

#endif
