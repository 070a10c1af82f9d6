// SPDX-License-Identifier: MIT
/* fabric_model.c: build and query the plain fabric model. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/array.h"
#include "common/hashmap.h"
#include "common/text.h"
#include "fabric/fabric_model.h"

struct fabric *fabric_new(void)
{
	return calloc(1, sizeof(struct fabric));
}

void fabric_free(struct fabric *f)
{
	size_t i;

	if (!f)
		return;
	for (i = 0; i < f->nnodes; i++) {
		free(f->nodes[i]->ports);
		free(f->nodes[i]->map_name);
		free(f->nodes[i]);
	}
	free(f->nodes);
	hashmap_free(&f->by_guid);
	free(f);
}

struct fabric_node *fabric_find_guid(const struct fabric *f, uint64_t guid)
{
	uint64_t idx;

	return hashmap_get(&f->by_guid, guid, &idx) ? f->nodes[idx] : NULL;
}

static struct fabric_node *node_new(uint64_t guid, enum fabric_node_type type,
				    const char *desc, int nports, int first_id)
{
	struct fabric_node *n = calloc(1, sizeof(*n));
	int i;

	if (!n || !(n->ports = calloc(nports + 1, sizeof(*n->ports)))) {
		free(n);
		return NULL;
	}
	n->guid = guid;
	n->type = type;
	n->nports = nports;
	n->dr_hops = -1;
	if (desc)
		text_from_bytes(n->desc, sizeof(n->desc), desc, strlen(desc));
	n->name = n->desc;
	for (i = 0; i <= nports; i++) {
		n->ports[i].node = n;
		n->ports[i].num = i;
		n->ports[i].id = first_id + i;
	}
	return n;
}

/* Returns the new node, or NULL with errno EEXIST (guid known) / ENOMEM. */
struct fabric_node *fabric_add_node(struct fabric *f, uint64_t guid,
				    enum fabric_node_type type,
				    const char *desc, int nports)
{
	struct fabric_node *n;

	if (fabric_find_guid(f, guid)) {
		errno = EEXIST;
		return NULL;
	}
	if (nports < 0 || nports > 255) {
		errno = EINVAL;
		return NULL;
	}
	if (array_reserve(&f->nodes, &f->cap, f->nnodes, sizeof(*f->nodes)))
		goto nomem;
	n = node_new(guid, type, desc, nports, (int)f->nports_total);
	if (!n)
		goto nomem;
	if (hashmap_put(&f->by_guid, guid, f->nnodes)) {
		free(n->ports);
		free(n);
		goto nomem;
	}
	n->idx = (int)f->nnodes;
	f->nports_total += nports + 1;
	f->nodes[f->nnodes++] = n;
	return n;
nomem:
	errno = ENOMEM;
	return NULL;
}

struct fabric_port *fabric_port(const struct fabric_node *n, int num)
{
	if (!n || num < 0 || num > n->nports)
		return NULL;
	return &n->ports[num];
}

int fabric_connect(struct fabric_port *a, struct fabric_port *b)
{
	if (a == b || (a->remote && a->remote != b) ||
	    (b->remote && b->remote != a))
		return -EBUSY;
	a->remote = b;
	b->remote = a;
	return 0;
}

size_t fabric_count_links(const struct fabric *f)
{
	size_t i, n = 0;
	int p;

	for (i = 0; i < f->nnodes; i++)
		for (p = 1; p <= f->nodes[i]->nports; p++)
			if (f->nodes[i]->ports[p].remote)
				n++;
	return n / 2;
}

bool fabric_port_up(const struct fabric_port *p)
{
	return p && p->valid && p->phys_state == IB_PHYS_STATE_LINKUP;
}

/* "4x" for 4 lanes, "none" for 0. */
const char *fabric_width_str(int lanes)
{
	switch (lanes) {
	case 1:
		return "1x";
	case 2:
		return "2x";
	case 4:
		return "4x";
	case 8:
		return "8x";
	case 12:
		return "12x";
	default:
		return "none";
	}
}

int fabric_best_of_mask(uint16_t mask)
{
	int i, best = 0;

	for (i = 1; i < 16; i++)
		if (mask & (1u << i))
			best = i;
	return best;
}

const char *fabric_node_type_name(int type)
{
	switch (type) {
	case FABRIC_NODE_CA:
		return "ca";
	case FABRIC_NODE_SWITCH:
		return "switch";
	case FABRIC_NODE_ROUTER:
		return "router";
	default:
		return "unknown";
	}
}
