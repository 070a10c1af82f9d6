/* SPDX-License-Identifier: MIT */
/*
 * fabric_route.h: the switches' linear forwarding tables over the model,
 * and the pure parts that use them: follow a path hop by hop, check the
 * routing (route-missing, route-loop, route-imbalance), parse the
 * ecosystem's table dumps (opensm-lfts.dump, ibroute / dump_lfts output).
 * No MAD here: fabric_routes_run.c reads live tables through fabric_ops.h.
 */
#ifndef IBPROOF_FABRIC_ROUTE_H
#define IBPROOF_FABRIC_ROUTE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fabric/ar_info.h"
#include "fabric/fabric_finding.h"
#include "fabric/fabric_model.h"

#define FABRIC_LFT_NONE 255 /* no route for this LID */
#define FABRIC_LFT_MAX_LID 0xbfff /* unicast LIDs */
#define FABRIC_LFT_BLOCK 64 /* entries per LinearForwardingTable block */
#define FABRIC_ROUTE_MAX_HOPS 64 /* loop guard */

/* One switch's table: port[lid] for lid 0..top, FABRIC_LFT_NONE = none. */
struct fabric_lft {
	bool valid; /* read (or loaded) */
	struct fabric_ar ar; /* its adaptive routing (unknown unless read) */
	uint16_t top; /* LinearFDBTop */
	uint8_t *port; /* [top + 1] */
};

struct fabric_routes {
	const struct fabric *m;
	struct fabric_lft *lft; /* [m->nnodes], by node index */
	struct fabric_port **by_lid; /* [FABRIC_LFT_MAX_LID + 1] */
	uint16_t *lids; /* the LIDs by_lid holds, ascending */
	size_t nlids;
};

/* A directed cable crossed: out of `out`, into `in` (= out->remote). */
struct fabric_hop {
	const struct fabric_port *out, *in;
};

/* The result of following one path. */
struct fabric_path {
	struct fabric_hop hop[FABRIC_ROUTE_MAX_HOPS + 1];
	int n;
	/* where it ended when rc != 0: the switch and its table's port */
	const struct fabric_node *stuck;
	int stuck_port;
};

/* Tables for every node of m (all invalid) and the LID index; 0/-errno. */
int fabric_routes_init(struct fabric_routes *r, const struct fabric *m);
void fabric_routes_free(struct fabric_routes *r);
/* Sets node's table (copies ports[0..top]); 0 or -errno. */
int fabric_routes_set(struct fabric_routes *r, const struct fabric_node *n,
		      uint16_t top, const uint8_t *ports);
/* The port owning lid (a CA port, or a switch's port 0); NULL if none. */
const struct fabric_port *fabric_routes_lid(const struct fabric_routes *r,
					    uint16_t lid);

/*
 * From src (a CA port) to dlid through the tables. 0: arrived (p->n
 * cables); -ENOENT: a table has no entry (255, no table, beyond its top);
 * -ENOLINK: a table points at a port that is down or leads nowhere;
 * -ELOOP: more than FABRIC_ROUTE_MAX_HOPS hops; -EHOSTUNREACH: delivered
 * to a CA that does not own dlid, or src is down. Pure: no MAD.
 */
int fabric_route_path(const struct fabric_routes *r,
		      const struct fabric_port *src, uint16_t dlid,
		      struct fabric_path *p);

/* route-missing, route-loop, route-imbalance findings; 0 or -ENOMEM. */
int fabric_route_check(const struct fabric_routes *r,
		       struct fabric_findings *fs);

/*
 * An endpoint as the user names it: HOST:CA:PORT (node description
 * "HOST CA"), 0xGUID (port or node GUID) or a LID. NULL if unknown.
 */
const struct fabric_port *fabric_routes_endpoint(const struct fabric_routes *r,
						 const char *spec);

/*
 * Reads opensm-lfts.dump or ibroute / dump_lfts output (detected per
 * file) into r: switches found by node GUID in the model. Bad input:
 * "FILE:LINE: what was expected" in err, -EINVAL.
 */
int fabric_lft_load(struct fabric_routes *r, const char *path, char *err,
		    size_t errlen);

#endif
