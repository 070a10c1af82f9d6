// SPDX-License-Identifier: MIT
/*
 * fabric_route_check.c: the routing checks over the tables, as findings:
 * route-missing (an entry of 255 for a CA's LID, or one pointing at a down
 * port), route-loop (a cycle of tables for one LID) and route-imbalance
 * (info: the up-links of one switch carry destination counts that differ
 * by more than 2x, the idea of infiniband-diags' check_lft_balance).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabric/fabric_route.h"

static int entry(const struct fabric_routes *r, const struct fabric_node *n,
		 uint16_t lid)
{
	const struct fabric_lft *t = &r->lft[n->idx];

	return !t->valid || lid > t->top ? FABRIC_LFT_NONE : t->port[lid];
}

static bool port_ok(const struct fabric_node *n, int e)
{
	const struct fabric_port *p;

	if (e < 1 || e > n->nports)
		return false;
	p = &n->ports[e];
	return p->remote && fabric_port_up(p) && fabric_port_up(p->remote);
}

static int missing(const struct fabric_node *sw, int e,
		   const struct fabric_port *dst, struct fabric_findings *fs)
{
	struct fabric_finding *f =
		fabric_finding_add(fs, "fail", "route-missing", "none");
	char g[19];

	if (!f)
		return -ENOMEM;
	fabric_finding_port(f, &sw->ports[e <= sw->nports ? e : 0]);
	fabric_finding_num(f, "lid", dst->lid);
	fabric_finding_str(f, "destination", "%s", dst->node->name);
	snprintf(g, sizeof(g), "0x%016llx", (unsigned long long)dst->guid);
	fabric_finding_str(f, "destination_port_guid", "%s", g);
	fabric_finding_num(f, "egress_port", e);
	if (e == FABRIC_LFT_NONE)
		fabric_finding_msg(f,
				   "%s has no route to LID %u (%s port %d): "
				   "its table entry is 255",
				   sw->name, dst->lid, dst->node->name,
				   dst->num);
	else
		fabric_finding_msg(f,
				   "%s routes LID %u (%s port %d) to port %d, "
				   "which is down",
				   sw->name, dst->lid, dst->node->name,
				   dst->num, e);
	return 0;
}

static int check_missing(const struct fabric_routes *r,
			 const struct fabric_node *sw,
			 struct fabric_findings *fs)
{
	const struct fabric_port *dst;
	size_t k;
	int e, rc = 0;
	uint16_t lid;

	for (k = 0; k < r->nlids && !rc; k++) {
		lid = r->lids[k];
		dst = r->by_lid[lid];
		if (dst->node->type == FABRIC_NODE_SWITCH)
			continue;
		e = entry(r, sw, lid);
		if (e == FABRIC_LFT_NONE || !port_ok(sw, e))
			rc = missing(sw, e, dst, fs);
	}
	return rc;
}

struct loop_ctx {
	const struct fabric_routes *r;
	unsigned *onpath, *done, walk;
	const struct fabric_node **stack;
};

static int report_loop(const struct loop_ctx *c, int from, int n, uint16_t lid,
		       struct fabric_findings *fs)
{
	const struct fabric_port *dst = c->r->by_lid[lid];
	struct fabric_finding *f =
		fabric_finding_add(fs, "fail", "route-loop", "none");
	char cyc[400];
	size_t len = 0;
	int i;

	if (!f)
		return -ENOMEM;
	cyc[0] = '\0';
	for (i = from; i < n && len < sizeof(cyc); i++)
		len += (size_t)snprintf(cyc + len, sizeof(cyc) - len,
					"%s port %d -> ", c->stack[i]->name,
					entry(c->r, c->stack[i], lid));
	if (len < sizeof(cyc))
		snprintf(cyc + len, sizeof(cyc) - len, "%s",
			 c->stack[from]->name);
	fabric_finding_port(
		f, &c->stack[from]->ports[entry(c->r, c->stack[from], lid)]);
	fabric_finding_num(f, "lid", lid);
	fabric_finding_str(f, "destination", "%s", dst->node->name);
	fabric_finding_num(f, "switches", n - from);
	fabric_finding_str(f, "cycle", "%s", cyc);
	fabric_finding_msg(f, "LID %u (%s) loops: %s", lid, dst->node->name,
			   cyc);
	return 0;
}

/* Follows lid's tables from sw; marks what it walked. */
static int walk_loop(struct loop_ctx *c, const struct fabric_node *sw,
		     uint16_t lid, struct fabric_findings *fs)
{
	const struct fabric_node *n = sw;
	int depth = 0, i, e, rc = 0;

	c->walk++;
	while (n->type == FABRIC_NODE_SWITCH && c->done[n->idx] != lid + 1u) {
		if (c->onpath[n->idx] == c->walk) {
			for (i = 0; c->stack[i] != n; i++)
				;
			rc = report_loop(c, i, depth, lid, fs);
			break;
		}
		c->onpath[n->idx] = c->walk;
		c->stack[depth++] = n;
		if (n->lid == lid)
			break;
		e = entry(c->r, n, lid);
		if (e == FABRIC_LFT_NONE || !port_ok(n, e))
			break;
		n = n->ports[e].remote->node;
	}
	for (i = 0; i < depth; i++)
		c->done[c->stack[i]->idx] = lid + 1u;
	return rc;
}

static int check_loops(const struct fabric_routes *r,
		       struct fabric_findings *fs)
{
	const struct fabric *m = r->m;
	struct loop_ctx c = { .r = r };
	size_t i, k;
	int rc = -ENOMEM;

	c.onpath = calloc(m->nnodes + 1, sizeof(*c.onpath));
	c.done = calloc(m->nnodes + 1, sizeof(*c.done));
	c.stack = calloc(m->nnodes + 1, sizeof(*c.stack));
	if (!c.onpath || !c.done || !c.stack)
		goto out;
	rc = 0;
	for (k = 0; k < r->nlids && !rc; k++)
		for (i = 0; i < m->nnodes && !rc; i++)
			if (m->nodes[i]->type == FABRIC_NODE_SWITCH &&
			    r->lft[i].valid)
				rc = walk_loop(&c, m->nodes[i], r->lids[k], fs);
out:
	free(c.onpath);
	free(c.done);
	free(c.stack);
	return rc;
}

/* Switch ranks: 0 next to a CA, then hops away over switch cables. */
static int *switch_ranks(const struct fabric *m)
{
	int *rank = malloc((m->nnodes + 1) * sizeof(*rank));
	const struct fabric_node *n, *rn;
	bool changed = true;
	size_t i;
	int j;

	if (!rank)
		return NULL;
	for (i = 0; i < m->nnodes; i++) {
		n = m->nodes[i];
		rank[i] = -1;
		for (j = 1; j <= n->nports && n->type == FABRIC_NODE_SWITCH;
		     j++)
			if (port_ok(n, j) &&
			    n->ports[j].remote->node->type == FABRIC_NODE_CA)
				rank[i] = 0;
	}
	while (changed) {
		changed = false;
		for (i = 0; i < m->nnodes; i++) {
			n = m->nodes[i];
			if (n->type != FABRIC_NODE_SWITCH || rank[i] < 0)
				continue;
			for (j = 1; j <= n->nports; j++) {
				if (!port_ok(n, j))
					continue;
				rn = n->ports[j].remote->node;
				if (rn->type == FABRIC_NODE_SWITCH &&
				    (rank[rn->idx] < 0 ||
				     rank[rn->idx] > rank[i] + 1)) {
					rank[rn->idx] = rank[i] + 1;
					changed = true;
				}
			}
		}
	}
	return rank;
}

static int imbalance(const struct fabric_routes *r,
		     const struct fabric_node *sw, const int *rank,
		     struct fabric_findings *fs)
{
	unsigned count[256] = { 0 }, lo = ~0u, hi = 0;
	const struct fabric_port *dst;
	struct fabric_finding *f;
	int e, j, lo_port = 0, hi_port = 0, nup = 0;
	size_t k;

	for (k = 0; k < r->nlids; k++) {
		dst = r->by_lid[r->lids[k]];
		if (dst->node->type != FABRIC_NODE_SWITCH &&
		    (e = entry(r, sw, r->lids[k])) != FABRIC_LFT_NONE)
			count[e]++;
	}
	for (j = 1; j <= sw->nports; j++) {
		if (!port_ok(sw, j) ||
		    rank[sw->ports[j].remote->node->idx] <= rank[sw->idx])
			continue;
		nup++;
		if (count[j] < lo) {
			lo = count[j];
			lo_port = j;
		}
		if (count[j] > hi) {
			hi = count[j];
			hi_port = j;
		}
	}
	if (nup < 2 || hi <= 2 * lo || hi <= lo + 1)
		return 0; /* one destination apart is no imbalance */
	f = fabric_finding_add(fs, "info", "route-imbalance", "none");
	if (!f)
		return -ENOMEM;
	fabric_finding_port(f, &sw->ports[hi_port]);
	fabric_finding_num(f, "up_links", nup);
	fabric_finding_num(f, "max_destinations", hi);
	fabric_finding_num(f, "max_port", hi_port);
	fabric_finding_num(f, "min_destinations", lo);
	fabric_finding_num(f, "min_port", lo_port);
	fabric_finding_msg(f,
			   "%s up-links carry %u (port %d) to %u (port %d) "
			   "destinations, more than 2x apart",
			   sw->name, hi, hi_port, lo, lo_port);
	return 0;
}

int fabric_route_check(const struct fabric_routes *r,
		       struct fabric_findings *fs)
{
	const struct fabric *m = r->m;
	int *rank = switch_ranks(m);
	size_t i;
	int rc = rank ? 0 : -ENOMEM;

	for (i = 0; i < m->nnodes && !rc; i++)
		if (m->nodes[i]->type == FABRIC_NODE_SWITCH && r->lft[i].valid)
			rc = check_missing(r, m->nodes[i], fs);
	if (!rc)
		rc = check_loops(r, fs);
	for (i = 0; i < m->nnodes && !rc; i++)
		if (m->nodes[i]->type == FABRIC_NODE_SWITCH &&
		    r->lft[i].valid && rank[i] >= 0)
			rc = imbalance(r, m->nodes[i], rank, fs);
	free(rank);
	return rc;
}
