// SPDX-License-Identifier: MIT
/*
 * fabric_route.c: forwarding tables over the model, paths through them and
 * the routing checks. Pure: the tables come from fabric_routes_run.c (live,
 * by directed route) or fabric_lft_load() (a dump).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabric/fabric_route.h"

static int lid_cmp(const void *a, const void *b)
{
	return (int)*(const uint16_t *)a - (int)*(const uint16_t *)b;
}

/* Port p owns lid (the last of two owners keeps it), listed once. */
static void own_lid(struct fabric_routes *r, uint16_t lid,
		    struct fabric_port *p)
{
	if (!lid || lid > FABRIC_LFT_MAX_LID)
		return;
	if (!r->by_lid[lid])
		r->lids[r->nlids++] = lid;
	r->by_lid[lid] = p;
}

/* The LIDs in use, so the checks walk them and not the whole LID space. */
static size_t count_lids(const struct fabric *m)
{
	size_t i, n = 0;

	for (i = 0; i < m->nnodes; i++)
		n += m->nodes[i]->type == FABRIC_NODE_SWITCH
			     ? 1
			     : (size_t)m->nodes[i]->nports;
	return n ? n : 1;
}

int fabric_routes_init(struct fabric_routes *r, const struct fabric *m)
{
	struct fabric_node *n;
	size_t i;
	int j;

	memset(r, 0, sizeof(*r));
	r->m = m;
	r->lft = calloc(m->nnodes ? m->nnodes : 1, sizeof(*r->lft));
	r->by_lid = calloc(FABRIC_LFT_MAX_LID + 1, sizeof(*r->by_lid));
	r->lids = malloc(count_lids(m) * sizeof(*r->lids));
	if (!r->lft || !r->by_lid || !r->lids) {
		fabric_routes_free(r);
		return -ENOMEM;
	}
	for (i = 0; i < m->nnodes; i++) {
		n = m->nodes[i];
		if (n->type == FABRIC_NODE_SWITCH) {
			own_lid(r, n->lid, &n->ports[0]);
			continue;
		}
		for (j = 1; j <= n->nports; j++)
			own_lid(r, n->ports[j].lid, &n->ports[j]);
	}
	qsort(r->lids, r->nlids, sizeof(*r->lids), lid_cmp);
	return 0;
}

void fabric_routes_free(struct fabric_routes *r)
{
	size_t i;

	if (r->lft && r->m)
		for (i = 0; i < r->m->nnodes; i++)
			free(r->lft[i].port);
	free(r->lft);
	free(r->by_lid);
	free(r->lids);
	r->lft = NULL;
	r->by_lid = NULL;
	r->lids = NULL;
	r->nlids = 0;
}

int fabric_routes_set(struct fabric_routes *r, const struct fabric_node *n,
		      uint16_t top, const uint8_t *ports)
{
	struct fabric_lft *t = &r->lft[n->idx];
	uint8_t *v;

	if (top > FABRIC_LFT_MAX_LID)
		return -EINVAL;
	v = malloc((size_t)top + 1);
	if (!v)
		return -ENOMEM;
	memcpy(v, ports, (size_t)top + 1);
	free(t->port);
	t->port = v;
	t->top = top;
	t->valid = true;
	return 0;
}

const struct fabric_port *fabric_routes_lid(const struct fabric_routes *r,
					    uint16_t lid)
{
	return lid <= FABRIC_LFT_MAX_LID ? r->by_lid[lid] : NULL;
}

/* The table's egress port of switch n for dlid, FABRIC_LFT_NONE if none. */
static int lft_port(const struct fabric_routes *r, const struct fabric_node *n,
		    uint16_t dlid)
{
	const struct fabric_lft *t = &r->lft[n->idx];

	if (!t->valid || dlid > t->top)
		return FABRIC_LFT_NONE;
	return t->port[dlid];
}

static bool link_up(const struct fabric_port *p)
{
	return p->remote && fabric_port_up(p) && fabric_port_up(p->remote);
}

static int path_hop(struct fabric_path *p, const struct fabric_port *out)
{
	if (p->n > FABRIC_ROUTE_MAX_HOPS)
		return -ELOOP;
	p->hop[p->n].out = out;
	p->hop[p->n].in = out->remote;
	p->n++;
	return 0;
}

int fabric_route_path(const struct fabric_routes *r,
		      const struct fabric_port *src, uint16_t dlid,
		      struct fabric_path *p)
{
	const struct fabric_port *dst = fabric_routes_lid(r, dlid);
	const struct fabric_node *n;
	int out, rc;

	p->n = 0;
	p->stuck = NULL;
	p->stuck_port = 0;
	if (src->lid == dlid)
		return 0;
	if (src->node->type != FABRIC_NODE_SWITCH) {
		if (!link_up(src)) {
			p->stuck = src->node;
			p->stuck_port = src->num;
			return -EHOSTUNREACH;
		}
		if ((rc = path_hop(p, src)))
			return rc;
	}
	for (;;) {
		n = p->n ? p->hop[p->n - 1].in->node : src->node;
		if (n->type != FABRIC_NODE_SWITCH) {
			if (p->hop[p->n - 1].in->lid == dlid)
				return 0;
			p->stuck = n;
			return -EHOSTUNREACH;
		}
		if (dst && dst->node == n)
			return 0; /* a switch's own LID */
		out = lft_port(r, n, dlid);
		p->stuck = n;
		p->stuck_port = out;
		if (out == FABRIC_LFT_NONE || out > n->nports)
			return -ENOENT;
		if (out == 0)
			return dst ? -EHOSTUNREACH : 0;
		if (!link_up(&n->ports[out]))
			return -ENOLINK;
		if ((rc = path_hop(p, &n->ports[out])))
			return rc;
	}
}

/* "HOST:CA:PORT" against a CA's description "HOST CA". */
static const struct fabric_port *by_name(const struct fabric *m,
					 const char *spec)
{
	const char *c1 = strchr(spec, ':'), *c2;
	const struct fabric_node *n;
	char *end;
	size_t hl, cl, i;
	long port;

	if (!c1 || !(c2 = strchr(c1 + 1, ':')))
		return NULL;
	port = strtol(c2 + 1, &end, 10);
	if (*end || end == c2 + 1)
		return NULL;
	hl = (size_t)(c1 - spec);
	cl = (size_t)(c2 - c1 - 1);
	for (i = 0; i < m->nnodes; i++) {
		n = m->nodes[i];
		if (n->type != FABRIC_NODE_CA || port < 1 || port > n->nports)
			continue;
		if (!strncmp(n->name, spec, hl) && n->name[hl] == ' ' &&
		    !strncmp(n->name + hl + 1, c1 + 1, cl) &&
		    n->name[hl + 1 + cl] == '\0')
			return &n->ports[port];
	}
	return NULL;
}

const struct fabric_port *fabric_routes_endpoint(const struct fabric_routes *r,
						 const char *spec)
{
	const struct fabric *m = r->m;
	const struct fabric_node *n;
	unsigned long long v;
	char *end;
	size_t i;
	int j;

	if (strchr(spec, ':'))
		return by_name(m, spec);
	errno = 0;
	v = strtoull(spec, &end, 0);
	if (errno || *end || end == spec)
		return NULL;
	if (!strncmp(spec, "0x", 2) || !strncmp(spec, "0X", 2)) {
		n = fabric_find_guid(m, v);
		if (n)
			return n->type == FABRIC_NODE_SWITCH ? &n->ports[0]
							     : &n->ports[1];
		for (i = 0; i < m->nnodes; i++)
			for (j = 1; j <= m->nodes[i]->nports; j++)
				if (m->nodes[i]->ports[j].guid == v)
					return &m->nodes[i]->ports[j];
		return NULL;
	}
	return v <= FABRIC_LFT_MAX_LID ? fabric_routes_lid(r, (uint16_t)v)
				       : NULL;
}
