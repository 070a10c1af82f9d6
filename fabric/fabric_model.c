// SPDX-License-Identifier: MIT
/* fabric_model.c: build and query the plain fabric model. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabric_model.h"

struct fabric *fabric_new(void)
{
	struct fabric *f = calloc(1, sizeof(*f));

	if (!f)
		return NULL;
	f->hash_size = 1024;
	f->hash = calloc(f->hash_size, sizeof(*f->hash));
	if (!f->hash) {
		free(f);
		return NULL;
	}
	return f;
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
	free(f->hash);
	free(f);
}

static size_t guid_slot(uint64_t guid, size_t size)
{
	guid ^= guid >> 33;
	guid *= 0xff51afd7ed558ccdULL;
	guid ^= guid >> 33;
	return guid & (size - 1);
}

static void hash_insert(struct fabric_node **tab, size_t size,
			struct fabric_node *n)
{
	size_t i = guid_slot(n->guid, size);

	while (tab[i])
		i = (i + 1) & (size - 1);
	tab[i] = n;
}

static int hash_grow(struct fabric *f)
{
	size_t size = f->hash_size * 2, i;
	struct fabric_node **tab = calloc(size, sizeof(*tab));

	if (!tab)
		return -ENOMEM;
	for (i = 0; i < f->nnodes; i++)
		hash_insert(tab, size, f->nodes[i]);
	free(f->hash);
	f->hash = tab;
	f->hash_size = size;
	return 0;
}

struct fabric_node *fabric_find_guid(const struct fabric *f, uint64_t guid)
{
	size_t i = guid_slot(guid, f->hash_size);

	while (f->hash[i]) {
		if (f->hash[i]->guid == guid)
			return f->hash[i];
		i = (i + 1) & (f->hash_size - 1);
	}
	return NULL;
}

static int grow_nodes(struct fabric *f)
{
	size_t cap = f->cap ? f->cap * 2 : 64;
	struct fabric_node **nodes;

	if ((f->nnodes + 1) * 2 > f->hash_size && hash_grow(f))
		return -ENOMEM;
	if (f->nnodes < f->cap)
		return 0;
	nodes = realloc(f->nodes, cap * sizeof(*nodes));
	if (!nodes)
		return -ENOMEM;
	f->nodes = nodes;
	f->cap = cap;
	return 0;
}

/* Returns the new node, or NULL with errno EEXIST (guid known) / ENOMEM. */
struct fabric_node *fabric_add_node(struct fabric *f, uint64_t guid,
				    enum fabric_node_type type,
				    const char *desc, int nports)
{
	struct fabric_node *n;
	int i;

	if (fabric_find_guid(f, guid)) {
		errno = EEXIST;
		return NULL;
	}
	if (nports < 0 || nports > 255 || grow_nodes(f)) {
		errno = nports < 0 || nports > 255 ? EINVAL : ENOMEM;
		return NULL;
	}
	n = calloc(1, sizeof(*n));
	if (!n || !(n->ports = calloc(nports + 1, sizeof(*n->ports)))) {
		free(n);
		errno = ENOMEM;
		return NULL;
	}
	n->guid = guid;
	n->type = type;
	n->nports = nports;
	snprintf(n->desc, sizeof(n->desc), "%s", desc ? desc : "");
	n->name = n->desc;
	n->idx = (int)f->nnodes;
	for (i = 0; i <= nports; i++) {
		n->ports[i].node = n;
		n->ports[i].num = i;
		n->ports[i].id = (int)(f->nports_total + i);
	}
	f->nports_total += nports + 1;
	f->nodes[f->nnodes++] = n;
	hash_insert(f->hash, f->hash_size, n);
	return n;
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
	case 1: return "1x";
	case 2: return "2x";
	case 4: return "4x";
	case 8: return "8x";
	case 12: return "12x";
	default: return "none";
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
	case FABRIC_NODE_CA: return "ca";
	case FABRIC_NODE_SWITCH: return "switch";
	case FABRIC_NODE_ROUTER: return "router";
	default: return "unknown";
	}
}
