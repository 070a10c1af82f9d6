// SPDX-License-Identifier: MIT
/*
 * route_model.c: the fabric's routes as burnin sees them
 * (burnin/route_model.h): fabric's model and tables (from the records of
 * `fabric routes`, or from a topology file and a table dump), turned into
 * directed cables named by their egress port, the CA ports, and paths
 * followed through the tables. Read-only once loaded.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/hashmap.h"
#include "common/ibrate.h"
#include "common/text.h"
#include "fabric/fabric_records.h"
#include "fabric/fabric_route.h"
#include "fabric/fabric_topo.h"
#include "route_model.h"

struct burnin_routes {
	struct fabric *m;
	struct fabric_routes fr;
	struct burnin_cable *cables;
	int ncables;
	struct burnin_route_ca *cas;
	int ncas;
	const struct fabric_port **ca_port; /* [ncas] */
	const struct fabric_port **cable_out; /* [ncables] egress port */
	int *cable_of_port; /* [m->nports_total] by port id, -1 none */
	struct hashmap ca_by_guid; /* port guid -> CA index */
};

static bool link_up(const struct fabric_port *p)
{
	return p->remote && fabric_port_up(p) && fabric_port_up(p->remote);
}

static uint16_t port_lid(const struct fabric_port *p)
{
	return p->node->type == FABRIC_NODE_SWITCH ? p->node->lid : p->lid;
}

static void fill_cable(struct burnin_cable *c, const struct fabric_port *p)
{
	const struct fabric_port *q = p->remote;

	c->from_guid = p->node->guid;
	c->to_guid = q->node->guid;
	c->from_port = p->num;
	c->to_port = q->num;
	c->from_lid = port_lid(p);
	c->from_name = p->node->name;
	c->to_name = q->node->name;
	c->inter_switch = p->node->type == FABRIC_NODE_SWITCH &&
			  q->node->type == FABRIC_NODE_SWITCH;
	c->capacity_gbps = ib_data_rate_gbps(p->speed, p->width);
	c->speed = p->speed;
	c->width = p->width;
}

/* Every up link, both directions; the reverse index after. */
static int make_cables(struct burnin_routes *r)
{
	const struct fabric *m = r->m;
	const struct fabric_port *p;
	size_t i, n = 0;
	int j;

	r->cable_of_port = malloc((m->nports_total ? m->nports_total : 1) *
				  sizeof(*r->cable_of_port));
	r->cables = calloc(m->nports_total ? m->nports_total : 1,
			   sizeof(*r->cables));
	r->cable_out = calloc(m->nports_total ? m->nports_total : 1,
			      sizeof(*r->cable_out));
	if (!r->cable_of_port || !r->cables || !r->cable_out)
		return -ENOMEM;
	for (i = 0; i < m->nports_total; i++)
		r->cable_of_port[i] = -1;
	for (i = 0; i < m->nnodes; i++)
		for (j = 1; j <= m->nodes[i]->nports; j++) {
			p = &m->nodes[i]->ports[j];
			if (!link_up(p))
				continue;
			fill_cable(&r->cables[n], p);
			r->cable_out[n] = p;
			r->cable_of_port[p->id] = (int)n++;
		}
	r->ncables = (int)n;
	for (i = 0; i < n; i++)
		r->cables[i].reverse =
			r->cable_of_port[r->cable_out[i]->remote->id];
	return 0;
}

static int add_ca(struct burnin_routes *r, const struct fabric_port *p)
{
	struct burnin_route_ca *ca = &r->cas[r->ncas];

	ca->port_guid = p->guid;
	ca->node_guid = p->node->guid;
	ca->port = p->num;
	ca->lid = p->lid;
	ca->node_name = p->node->name;
	ca->leaf_cable = r->cable_of_port[p->id];
	ca->rate_gbps = link_up(p) ? ib_data_rate_gbps(p->speed, p->width) : 0;
	r->ca_port[r->ncas] = p;
	if (p->guid && hashmap_put(&r->ca_by_guid, p->guid, (uint64_t)r->ncas))
		return -ENOMEM;
	r->ncas++;
	return 0;
}

/* Every port of a CA that has a link or a LID. */
static int make_cas(struct burnin_routes *r)
{
	const struct fabric *m = r->m;
	const struct fabric_node *n;
	size_t i, cap = m->nports_total ? m->nports_total : 1;
	int j, rc;

	r->cas = calloc(cap, sizeof(*r->cas));
	r->ca_port = calloc(cap, sizeof(*r->ca_port));
	if (!r->cas || !r->ca_port)
		return -ENOMEM;
	for (i = 0; i < m->nnodes; i++) {
		n = m->nodes[i];
		if (n->type != FABRIC_NODE_CA)
			continue;
		for (j = 1; j <= n->nports; j++) {
			if (!n->ports[j].remote && !n->ports[j].lid)
				continue;
			if ((rc = add_ca(r, &n->ports[j])))
				return rc;
		}
	}
	return 0;
}

static int finish(struct burnin_routes *r)
{
	int rc = make_cables(r);

	return rc ? rc : make_cas(r);
}

static int load_offline(struct burnin_routes *r, const char *path,
			const char *lfts, char *err, size_t err_len)
{
	int rc = fabric_topo_load(path, &r->m, err, err_len);

	if (rc)
		return rc;
	if ((rc = fabric_routes_init(&r->fr, r->m)))
		return rc;
	return fabric_lft_load(&r->fr, lfts, err, err_len);
}

int burnin_routes_load(const char *path, const char *lfts,
		       struct burnin_routes **out, char *err, size_t err_len)
{
	struct burnin_routes *r = calloc(1, sizeof(*r));
	int rc;

	*out = NULL;
	if (err_len)
		err[0] = '\0';
	if (!r)
		return -ENOMEM;
	rc = lfts ? load_offline(r, path, lfts, err, err_len)
		  : fabric_records_load(path, &r->m, &r->fr, err, err_len);
	if (!rc)
		rc = finish(r);
	if (rc == -ENOMEM && err_len && !err[0])
		snprintf(err, err_len, "%s: out of memory", path);
	if (rc) {
		burnin_routes_free(r);
		return rc;
	}
	*out = r;
	return 0;
}

int burnin_routes_adopt(struct fabric *m, struct fabric_routes *fr,
			struct burnin_routes **out)
{
	struct burnin_routes *r = calloc(1, sizeof(*r));
	int rc;

	*out = NULL;
	if (!r) {
		fabric_routes_free(fr);
		fabric_free(m);
		return -ENOMEM;
	}
	r->m = m;
	r->fr = *fr;
	memset(fr, 0, sizeof(*fr));
	rc = finish(r);
	if (rc) {
		burnin_routes_free(r);
		return rc;
	}
	*out = r;
	return 0;
}

void burnin_routes_free(struct burnin_routes *r)
{
	if (!r)
		return;
	hashmap_free(&r->ca_by_guid);
	free(r->cable_of_port);
	free(r->cable_out);
	free(r->ca_port);
	free(r->cas);
	free(r->cables);
	fabric_routes_free(&r->fr);
	fabric_free(r->m);
	free(r);
}

int burnin_routes_n_cables(const struct burnin_routes *r)
{
	return r->ncables;
}

const struct burnin_cable *burnin_routes_cable(const struct burnin_routes *r,
					       int c)
{
	return c >= 0 && c < r->ncables ? &r->cables[c] : NULL;
}

int burnin_routes_n_cas(const struct burnin_routes *r)
{
	return r->ncas;
}

const struct burnin_route_ca *burnin_routes_ca(const struct burnin_routes *r,
					       int ca)
{
	return ca >= 0 && ca < r->ncas ? &r->cas[ca] : NULL;
}

int burnin_routes_ca_by_guid(const struct burnin_routes *r, uint64_t guid)
{
	uint64_t idx;

	return guid && hashmap_get(&r->ca_by_guid, guid, &idx) ? (int)idx : -1;
}

int burnin_routes_path(const struct burnin_routes *r, int src, int dst,
		       int *cables, int max)
{
	struct fabric_path p;
	const struct fabric_port *s;
	int i, rc;

	if (src < 0 || src >= r->ncas || dst < 0 || dst >= r->ncas)
		return -EINVAL;
	s = r->ca_port[src];
	if (src == dst)
		return 0;
	if (!link_up(s))
		return -ENOLINK;
	if (!r->cas[dst].lid)
		return -ENOENT;
	rc = fabric_route_path(&r->fr, s, r->cas[dst].lid, &p);
	if (rc)
		return rc;
	if (p.n > max)
		return -ENOSPC;
	for (i = 0; i < p.n; i++)
		cables[i] = r->cable_of_port[p.hop[i].out->id];
	return p.n;
}

const struct fabric_ar *burnin_routes_cable_ar(const struct burnin_routes *r,
					       int c)
{
	const struct fabric_port *p;

	if (c < 0 || c >= r->ncables)
		return NULL;
	p = r->cable_out[c];
	return p->node->type == FABRIC_NODE_SWITCH ? &r->fr.lft[p->node->idx].ar
						   : NULL;
}

/* ---- the fake's adaptive routing: spread over equal-cost hops ---- */

struct spread {
	const struct burnin_routes *r;
	bool (*adaptive)(uint64_t guid, void *arg);
	void *arg;
	uint16_t dlid;
	const struct fabric_node *dst;
	int *dist; /* [nnodes] hops to dst, -1 unreachable */
	int *cables, n, max;
	double *share;
	int err;
};

/* Hops from every node to dst over up links (BFS). 0 or -ENOMEM. */
static int spread_dist(struct spread *sp)
{
	const struct fabric *m = sp->r->m;
	int *queue = malloc((m->nnodes + 1) * sizeof(int));
	size_t head = 0, tail = 0;

	sp->dist = malloc((m->nnodes + 1) * sizeof(int));
	if (!queue || !sp->dist) {
		free(queue);
		return -ENOMEM;
	}
	for (size_t i = 0; i < m->nnodes; i++)
		sp->dist[i] = -1;
	sp->dist[sp->dst->idx] = 0;
	queue[tail++] = sp->dst->idx;
	while (head < tail) {
		const struct fabric_node *u = m->nodes[queue[head++]];

		for (int p = 1; p <= u->nports; p++) {
			const struct fabric_port *q = &u->ports[p];

			if (!link_up(q) || sp->dist[q->remote->node->idx] >= 0)
				continue;
			/* only switches relay: a CA is an end, never a hop */
			if (q->remote->node->type != FABRIC_NODE_SWITCH)
				continue;
			sp->dist[q->remote->node->idx] = sp->dist[u->idx] + 1;
			queue[tail++] = q->remote->node->idx;
		}
	}
	free(queue);
	return 0;
}

static void spread_add(struct spread *sp, const struct fabric_port *out,
		       double w)
{
	int c = sp->r->cable_of_port[out->id], i;

	for (i = 0; i < sp->n && sp->cables[i] != c; i++)
		;
	if (i == sp->n) {
		if (sp->n == sp->max) {
			sp->err = -ENOSPC;
			return;
		}
		sp->cables[sp->n] = c;
		sp->share[sp->n++] = 0;
	}
	sp->share[i] += w;
}

static int static_port(const struct spread *sp, const struct fabric_node *n)
{
	const struct fabric_lft *t = &sp->r->fr.lft[n->idx];

	return !t->valid || sp->dlid > t->top ? FABRIC_LFT_NONE
					      : t->port[sp->dlid];
}

/* The next hops of the flow at switch n: equal-cost ones when adaptive. */
static int spread_hops(const struct spread *sp, const struct fabric_node *n,
		       const struct fabric_port **hops)
{
	int k = 0, p = static_port(sp, n);

	if (sp->adaptive(n->guid, sp->arg) && sp->dist[n->idx] > 0)
		for (int q = 1; q <= n->nports && k < FABRIC_ROUTE_MAX_HOPS;
		     q++)
			if (link_up(&n->ports[q]) &&
			    sp->dist[n->ports[q].remote->node->idx] ==
				    sp->dist[n->idx] - 1)
				hops[k++] = &n->ports[q];
	if (k)
		return k;
	if (p == FABRIC_LFT_NONE || p == 0 || p > n->nports)
		return -ENOENT;
	if (!link_up(&n->ports[p]))
		return -ENOLINK;
	hops[0] = &n->ports[p];
	return 1;
}

/* Carries share w of the flow from switch n on; depth bounds loops. */
static void spread_from(struct spread *sp, const struct fabric_node *n,
			double w, int depth)
{
	const struct fabric_port *hops[FABRIC_ROUTE_MAX_HOPS];
	int k;

	if (sp->err || n == sp->dst)
		return;
	if (n->type != FABRIC_NODE_SWITCH) {
		sp->err = -EHOSTUNREACH;
		return;
	}
	if (depth >= FABRIC_ROUTE_MAX_HOPS) {
		sp->err = -ELOOP;
		return;
	}
	k = spread_hops(sp, n, hops);
	if (k < 0) {
		sp->err = k;
		return;
	}
	for (int i = 0; i < k && !sp->err; i++) {
		spread_add(sp, hops[i], w / k);
		spread_from(sp, hops[i]->remote->node, w / k, depth + 1);
	}
}

int burnin_routes_spread(const struct burnin_routes *r, int src, int dst,
			 bool (*adaptive)(uint64_t guid, void *arg), void *arg,
			 int *cables, double *share, int max)
{
	struct spread sp = { .r = r,
			     .adaptive = adaptive,
			     .arg = arg,
			     .cables = cables,
			     .share = share,
			     .max = max };
	const struct fabric_port *s;

	if (src < 0 || src >= r->ncas || dst < 0 || dst >= r->ncas)
		return -EINVAL;
	if (src == dst)
		return 0;
	s = r->ca_port[src];
	if (!link_up(s))
		return -ENOLINK;
	if (!r->cas[dst].lid)
		return -ENOENT;
	sp.dlid = r->cas[dst].lid;
	sp.dst = r->ca_port[dst]->node;
	if (spread_dist(&sp)) {
		free(sp.dist);
		return -ENOMEM;
	}
	spread_add(&sp, s, 1);
	spread_from(&sp, s->remote->node, 1, 0);
	free(sp.dist);
	return sp.err ? sp.err : sp.n;
}

int burnin_routes_cable_dsts(const struct burnin_routes *r, int c, int *cas,
			     int max)
{
	const struct fabric_port *p;
	const struct fabric_lft *t;
	int i, n = 0;
	uint16_t lid;

	if (c < 0 || c >= r->ncables)
		return 0;
	p = r->cable_out[c];
	if (p->node->type != FABRIC_NODE_SWITCH)
		return 0;
	t = &r->fr.lft[p->node->idx];
	if (!t->valid)
		return 0;
	for (i = 0; i < r->ncas; i++) {
		lid = r->cas[i].lid;
		if (!lid || lid > t->top || t->port[lid] != p->num)
			continue;
		if (n < max)
			cas[n] = i;
		n++;
	}
	return n;
}

struct name_buf {
	char *buf;
	size_t len, at;
};

static void name_put(void *ctx, const char *s, size_t n)
{
	struct name_buf *b = ctx;
	size_t room = b->len - b->at - 1;

	if (n > room)
		n = room;
	memcpy(b->buf + b->at, s, n);
	b->at += n;
	b->buf[b->at] = '\0';
}

void burnin_cable_name(const struct burnin_routes *r, int c, char *buf,
		       size_t len)
{
	const struct burnin_cable *k = burnin_routes_cable(r, c);
	struct name_buf b = { buf, len, 0 };
	char num[32];

	if (!len)
		return;
	buf[0] = '\0';
	if (!k) {
		snprintf(buf, len, "cable#%d", c);
		return;
	}
	text_term_each(k->from_name, name_put, &b);
	snprintf(num, sizeof(num), ":%d->", k->from_port);
	name_put(&b, num, strlen(num));
	text_term_each(k->to_name, name_put, &b);
	snprintf(num, sizeof(num), ":%d", k->to_port);
	name_put(&b, num, strlen(num));
}

int burnin_routes_unread_switches(const struct burnin_routes *r, int *nodes,
				  int max)
{
	int n = 0;

	for (size_t i = 0; i < r->m->nnodes; i++)
		if (r->m->nodes[i]->type == FABRIC_NODE_SWITCH &&
		    !r->fr.lft[i].valid && n++ < max)
			nodes[n - 1] = (int)i;
	return n;
}

bool burnin_routes_table_unread(const struct burnin_routes *r, uint64_t guid)
{
	const struct fabric_node *n = fabric_find_guid(r->m, guid);

	return n && n->type == FABRIC_NODE_SWITCH && !r->fr.lft[n->idx].valid;
}

void burnin_routes_switch(const struct burnin_routes *r, int node,
			  uint64_t *guid, const char **name)
{
	*guid = r->m->nodes[node]->guid;
	*name = r->m->nodes[node]->name;
}
