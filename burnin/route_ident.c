// SPDX-License-Identifier: MIT
/*
 * route_ident.c: which cables a plan's flows tell apart (issue 31). Two
 * directed cables are told apart when some planned flow crosses one and
 * not the other; a cable is identifiable when it is told apart from every
 * other cable. Each cable's signature is the set of flows crossing it,
 * kept as two 64-bit sums of per-flow hashes and a count (equal sets,
 * equal signatures; different sets collide with odds near 2^-128), so the
 * whole plan is hashed in one pass over its paths; cables of equal
 * signature are grouped by sorting. For a group, why: a pair that would
 * tell its cables apart (searched first over every source to one of its
 * flows' destination and every destination from its source, then over
 * every flow that crosses one of its cables), among present hosts (the
 * plan lacks it), only with a host the plan does not have (drained,
 * absent), or none (the routing gives them the same traffic); a search
 * past its budget claims nothing.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "burnin/route_plan.h"

#define PATH_MAX_CABLES 64

static uint64_t mix(uint64_t z)
{
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

int route_ident_init(struct route_ident *id, int n_cables)
{
	size_t n1 = (size_t)n_cables + 1;
	int k;

	memset(id, 0, sizeof(*id));
	id->n_cables = n_cables;
	id->h1 = calloc(n1, sizeof(*id->h1));
	id->h2 = calloc(n1, sizeof(*id->h2));
	id->n_flows = calloc(n1, sizeof(int));
	id->src = malloc(n1 * sizeof(int));
	id->dst = malloc(n1 * sizeof(int));
	id->leader = malloc(n1 * sizeof(int));
	id->next = malloc(n1 * sizeof(int));
	id->size = calloc(n1, sizeof(int));
	if (!id->h1 || !id->h2 || !id->n_flows || !id->src || !id->dst ||
	    !id->leader || !id->next || !id->size) {
		route_ident_free(id);
		return -ENOMEM;
	}
	for (k = 0; k < n_cables; k++)
		id->src[k] = id->dst[k] = id->leader[k] = id->next[k] = -1;
	return 0;
}

void route_ident_free(struct route_ident *id)
{
	free(id->h1);
	free(id->h2);
	free(id->n_flows);
	free(id->src);
	free(id->dst);
	free(id->leader);
	free(id->next);
	free(id->size);
	memset(id, 0, sizeof(*id));
}

void route_ident_flow(struct route_ident *id, uint64_t flow, int src, int dst,
		      const int *path, int n)
{
	uint64_t a = mix(flow * 2 + 0x9e3779b97f4a7c15ull),
		 b = mix(flow * 2 + 1 + 0x632be59bd9b4e019ull);
	int i, k;

	for (i = 0; i < n; i++) {
		k = path[i];
		id->h1[k] += a;
		id->h2[k] += b;
		if (!id->n_flows[k]++) {
			id->src[k] = src;
			id->dst[k] = dst;
		}
	}
}

struct sig {
	uint64_t h1, h2;
	int n, k;
};

static int sig_cmp(const void *pa, const void *pb)
{
	const struct sig *a = pa, *b = pb;

	if (a->h1 != b->h1)
		return a->h1 < b->h1 ? -1 : 1;
	if (a->h2 != b->h2)
		return a->h2 < b->h2 ? -1 : 1;
	if (a->n != b->n)
		return a->n < b->n ? -1 : 1;
	return (a->k > b->k) - (a->k < b->k);
}

static bool same(const struct sig *a, const struct sig *b)
{
	return a->h1 == b->h1 && a->h2 == b->h2 && a->n == b->n;
}

/* One run of equal signatures v[from..to) as a group: ascending cable
 * order (the sort's last key), led by the smallest. */
static void make_group(struct route_ident *id, const struct sig *v, int from,
		       int to)
{
	int i, lead = v[from].k;

	for (i = from; i < to; i++) {
		id->leader[v[i].k] = lead;
		id->next[v[i].k] = i + 1 < to ? v[i + 1].k : -1;
	}
	id->size[lead] = to - from;
	id->loaded += to - from;
	if (to - from == 1)
		id->identifiable++;
	else
		id->groups++;
}

int route_ident_group(struct route_ident *id)
{
	struct sig *v = malloc(((size_t)id->n_cables + 1) * sizeof(*v));
	int k, n = 0, i, j;

	if (!v)
		return -ENOMEM;
	for (k = 0; k < id->n_cables; k++)
		if (id->n_flows[k])
			v[n++] = (struct sig){ id->h1[k], id->h2[k],
					       id->n_flows[k], k };
	qsort(v, (size_t)n, sizeof(*v), sig_cmp);
	for (i = 0; i < n; i = j) {
		for (j = i + 1; j < n && same(&v[i], &v[j]); j++)
			;
		make_group(id, v, i, j);
	}
	free(v);
	return 0;
}

/* A search's finding and whether it tried every flow it set out to. */
struct route_when {
	struct route_why *w;
	bool done;
};

/* How many cables of k's group path[n] crosses. */
static int crossed(const struct route_ident *id, int lead, const int *path,
		   int n)
{
	int i, m = 0;

	for (i = 0; i < n; i++)
		m += id->leader[path[i]] == lead;
	return m;
}

/* Whether the flow src -> dst would split lead's group; ends allowed:
 * present (inventory) ones only, or any CA of the routes. */
static bool splits(const struct route_ctx *c, const struct route_ident *id,
		   int lead, int src, int dst, bool any)
{
	int path[PATH_MAX_CABLES], n, m;

	if (src == dst ||
	    (!any && (c->inv_of_ca[src] < 0 || c->inv_of_ca[dst] < 0)))
		return false;
	n = burnin_routes_path(c->r, src, dst, path, PATH_MAX_CABLES);
	if (n <= 0)
		return false;
	m = crossed(id, lead, path, n);
	return m > 0 && m < id->size[lead];
}

static bool found(struct route_why *w, int src, int dst)
{
	w->src = src;
	w->dst = dst;
	return true;
}

/* Near the group's flow s0 -> d0: every source to d0, every destination
 * from s0. */
static bool search_ends(const struct route_ctx *c, const struct route_ident *id,
			int lead, bool any, long *budget, struct route_why *w)
{
	int ncas = burnin_routes_n_cas(c->r), x;
	int s0 = id->src[lead], d0 = id->dst[lead];

	for (x = 0; x < ncas; x++) {
		if (*budget <= 0)
			return false;
		*budget -= 2;
		if (splits(c, id, lead, x, d0, any))
			return found(w, x, d0);
		if (splits(c, id, lead, s0, x, any))
			return found(w, s0, x);
	}
	return false;
}

/*
 * Every flow that crosses a cable of the group: to each destination a
 * member routes to, from every source (a flow out of a CA's host link is
 * from s0: searched above). *done: every one was tried.
 */
static bool search_all(const struct route_ctx *c, const struct route_ident *id,
		       int lead, bool any, long *budget, int *dsts,
		       struct route_when *st)
{
	int ncas = burnin_routes_n_cas(c->r), k, i, nd, x;

	for (k = lead; k >= 0; k = id->next[k]) {
		nd = burnin_routes_cable_dsts(c->r, k, dsts, ncas);
		for (i = 0; i < nd && i < ncas; i++)
			for (x = 0; x < ncas; x++) {
				if (*budget <= 0)
					return false;
				*budget -= 1;
				if (splits(c, id, lead, x, dsts[i], any))
					return found(st->w, x, dsts[i]);
			}
	}
	st->done = true;
	return false;
}

static bool search(const struct route_ctx *c, const struct route_ident *id,
		   int lead, bool any, long *budget, struct route_when *st)
{
	int *dsts;
	bool hit;

	st->done = false;
	if (search_ends(c, id, lead, any, budget, st->w))
		return true;
	dsts = malloc(((size_t)burnin_routes_n_cas(c->r) + 1) * sizeof(int));
	if (!dsts)
		return false; /* not done: said as not searched */
	hit = search_all(c, id, lead, any, budget, dsts, st);
	free(dsts);
	return hit;
}

void route_ident_why(const struct route_ctx *c, const struct route_ident *id,
		     int lead, long *budget, struct route_why *w)
{
	struct route_when st = { w, false };

	w->src = w->dst = -1;
	if (search(c, id, lead, false, budget, &st))
		w->why = ROUTE_WHY_UNPLANNED;
	else if (st.done && search(c, id, lead, true, budget, &st))
		w->why = ROUTE_WHY_ABSENT;
	else
		w->why = st.done ? ROUTE_WHY_ROUTING : ROUTE_WHY_UNSEARCHED;
}

/* ---- the certificate's words for it ---- */

static const char *const why_names[] = { "unplanned", "host-absent", "routing",
					 "unsearched" };

const char *route_why_name(enum route_why_code w)
{
	return why_names[w];
}

/* "HOST CA:PORT" of CA ca. */
static void ca_name(const struct route_ctx *c, int ca, char *buf, size_t len)
{
	const struct burnin_route_ca *p = burnin_routes_ca(c->r, ca);

	snprintf(buf, len, "%s:%d", p->node_name ? p->node_name : "?", p->port);
}

void route_why_text(const struct route_ctx *c, const struct route_why *w,
		    char *buf, size_t len)
{
	char a[256] = "", b[256] = "";

	if (w->src >= 0) {
		ca_name(c, w->src, a, sizeof(a));
		ca_name(c, w->dst, b, sizeof(b));
	}
	switch (w->why) {
	case ROUTE_WHY_UNPLANNED:
		snprintf(buf, len,
			 "the plan has no flow that crosses some of them and "
			 "not the others; %s -> %s would",
			 a, b);
		break;
	case ROUTE_WHY_ABSENT:
		snprintf(buf, len,
			 "only a flow with a host the plan does not have "
			 "(drained or absent) would tell them apart: %s -> %s",
			 a, b);
		break;
	case ROUTE_WHY_ROUTING:
		snprintf(buf, len,
			 "the routing gives them the same traffic: every flow "
			 "between hosts of the routes that crosses one of "
			 "them crosses all of them (each tried)");
		break;
	default:
		snprintf(buf, len,
			 "not searched (the search budget was spent)");
	}
}
