// SPDX-License-Identifier: MIT
/*
 * route_ctx.c: the inventory on the routes. Each inventory port is found
 * among the CA ports of the routes by port GUID (a port that is not there
 * is named and planned as without routes), and each switch-to-switch
 * cable is marked up or down by the switches' distance from the CAs.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "burnin/route_plan.h"
#include "common/hashmap.h"
#include "common/log.h"

static int map_ports(struct route_ctx *c, const struct dpath_port *inv)
{
	const struct burnin_routes *r = c->r;
	char name[2 * DPATH_NAME_MAX + 16];
	int i, ca;

	for (i = 0; i < burnin_routes_n_cas(r); i++) {
		c->inv_of_ca[i] = -1;
		if (burnin_routes_ca(r, i)->leaf_cable >= 0)
			c->from_ca[burnin_routes_ca(r, i)->leaf_cable] = true;
	}
	for (i = 0; i < c->n_inv; i++) {
		ca = burnin_routes_ca_by_guid(r, inv[i].guid);
		c->ca_of_inv[i] = ca;
		if (ca >= 0 && c->inv_of_ca[ca] < 0) {
			c->inv_of_ca[ca] = i;
			continue;
		}
		c->ca_of_inv[i] = -1;
		c->n_unmapped++;
		burnin_port_name(&inv[i], name, sizeof(name));
		log_warn("%s (port GUID 0x%016" PRIx64 "): not a CA port of "
			 "the routes: planned as without routes",
			 name, inv[i].guid);
	}
	return 0;
}

/* The distance of each node from a CA, by node GUID; 0 or -ENOMEM. */
static int node_levels(const struct burnin_routes *r, struct hashmap *lv)
{
	const struct burnin_cable *k;
	uint64_t a, b;
	int i, changed = 1;

	for (i = 0; i < burnin_routes_n_cas(r); i++)
		if (hashmap_put(lv, burnin_routes_ca(r, i)->node_guid, 0))
			return -ENOMEM;
	while (changed) {
		changed = 0;
		for (i = 0; i < burnin_routes_n_cables(r); i++) {
			k = burnin_routes_cable(r, i);
			if (!hashmap_get(lv, k->from_guid, &a))
				continue;
			if (hashmap_get(lv, k->to_guid, &b) && b <= a + 1)
				continue;
			if (hashmap_put(lv, k->to_guid, a + 1))
				return -ENOMEM;
			changed = 1;
		}
	}
	return 0;
}

static int mark_up(struct route_ctx *c)
{
	const struct burnin_routes *r = c->r;
	const struct burnin_cable *k;
	struct hashmap lv = { 0 };
	uint64_t a, b;
	int i, rc = node_levels(r, &lv);

	for (i = 0; !rc && i < burnin_routes_n_cables(r); i++) {
		k = burnin_routes_cable(r, i);
		c->cable_up[i] = k->inter_switch &&
				 hashmap_get(&lv, k->from_guid, &a) &&
				 hashmap_get(&lv, k->to_guid, &b) && b > a;
	}
	hashmap_free(&lv);
	return rc;
}

int route_ctx_init(struct route_ctx *c, const struct burnin_routes *r,
		   const struct dpath_port *inv, int n)
{
	int ncas = burnin_routes_n_cas(r), ncab = burnin_routes_n_cables(r);

	memset(c, 0, sizeof(*c));
	c->r = r;
	c->n_inv = n;
	c->ca_of_inv = calloc(n ? n : 1, sizeof(*c->ca_of_inv));
	c->inv_of_ca = calloc(ncas ? ncas : 1, sizeof(*c->inv_of_ca));
	c->cable_up = calloc(ncab ? ncab : 1, sizeof(*c->cable_up));
	c->from_ca = calloc(ncab ? ncab : 1, sizeof(*c->from_ca));
	if (!c->ca_of_inv || !c->inv_of_ca || !c->cable_up || !c->from_ca ||
	    map_ports(c, inv) || mark_up(c)) {
		route_ctx_free(c);
		return -ENOMEM;
	}
	return 0;
}

void route_ctx_free(struct route_ctx *c)
{
	free(c->ca_of_inv);
	free(c->inv_of_ca);
	free(c->slot_inv);
	free(c->cable_up);
	free(c->from_ca);
	memset(c, 0, sizeof(*c));
}
