// SPDX-License-Identifier: MIT
/*
 * route_flows.c: all-pairs' overflow, the flows no shift could keep alone
 * on their cables, kept with their paths (computed once, in the shifts)
 * and packed into extra rounds (route_pack.c) in the order that lets
 * first-fit come near the bound: the flows of the busiest resource first
 * (the cable, or the port's sends or receives, that the most of these
 * flows need), then those of the next. A counting sort by that resource:
 * linear in the flows.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "burnin/route_plan.h"
#include "common/array.h"

int route_flows_add(struct route_flows *f, int src, int dst, int home,
		    const int *path, int n)
{
	if (array_reserve(&f->f, &f->cap, f->n + 1, sizeof(*f->f)) ||
	    array_reserve(&f->cables, &f->cap_cables, f->n_cables + (size_t)n,
			  sizeof(*f->cables)))
		return -ENOMEM;
	f->f[f->n++] =
		(struct route_flow){ src, dst, home, (uint32_t)f->n_cables };
	f->f[f->n] = (struct route_flow){ -1, -1, -1,
					  (uint32_t)(f->n_cables + (size_t)n) };
	memcpy(&f->cables[f->n_cables], path, (size_t)n * sizeof(*path));
	f->n_cables += (size_t)n;
	return 0;
}

void route_flows_free(struct route_flows *f)
{
	free(f->f);
	free(f->cables);
	memset(f, 0, sizeof(*f));
}

struct order {
	int ncas;
	int *cnt; /* [nres] flows needing each resource */
	int *rank; /* [nres] position by cnt, most first */
};

static const int *cables_of(const struct route_flows *f, size_t i, int *n)
{
	*n = (int)(f->f[i + 1].first - f->f[i].first);
	return &f->cables[f->f[i].first];
}

/* The resource of flow i the most flows need (the first on a tie:
 * sends, receives, then the cables in path order). */
static int busiest(const struct order *o, const struct route_flows *f, size_t i)
{
	int n, j, best = f->f[i].src, res;
	const int *path = cables_of(f, i, &n);

	res = o->ncas + f->f[i].dst;
	if (o->cnt[res] > o->cnt[best])
		best = res;
	for (j = 0; j < n; j++) {
		res = 2 * o->ncas + path[j];
		if (o->cnt[res] > o->cnt[best])
			best = res;
	}
	return best;
}

struct res_cnt {
	int cnt, res;
};

static int cmp_res(const void *a, const void *b)
{
	const struct res_cnt *x = a, *y = b;

	if (x->cnt != y->cnt)
		return x->cnt > y->cnt ? -1 : 1;
	return x->res - y->res;
}

/* rank[res]: resources by how many flows need them, most first. */
static int rank_resources(struct order *o, const struct route_flows *f,
			  int nres)
{
	struct res_cnt *by = malloc(((size_t)nres + 1) * sizeof(*by));
	const int *path;
	int n, j, r;
	size_t i;

	if (!by)
		return -ENOMEM;
	for (i = 0; i < f->n; i++) {
		o->cnt[f->f[i].src]++;
		o->cnt[o->ncas + f->f[i].dst]++;
		for (path = cables_of(f, i, &n), j = 0; j < n; j++)
			o->cnt[2 * o->ncas + path[j]]++;
	}
	for (r = 0; r < nres; r++)
		by[r] = (struct res_cnt){ o->cnt[r], r };
	qsort(by, (size_t)nres, sizeof(*by), cmp_res);
	for (r = 0; r < nres; r++)
		o->rank[by[r].res] = r;
	free(by);
	return 0;
}

/* order[]: the flows grouped by their busiest resource, busiest first,
 * in their own order within a group (a stable counting sort). */
static size_t *flow_order(const struct route_flows *f, int ncas, int nres)
{
	struct order o = { .ncas = ncas };
	size_t *order = malloc((f->n + 1) * sizeof(*order)), i, *at = NULL;
	int *key = malloc((f->n + 1) * sizeof(int)), r;

	o.cnt = calloc((size_t)nres + 1, sizeof(int));
	o.rank = malloc(((size_t)nres + 1) * sizeof(int));
	if (order && key && o.cnt && o.rank && !rank_resources(&o, f, nres))
		at = calloc((size_t)nres + 1, sizeof(*at));
	if (!at) {
		free(order);
		order = NULL;
		goto out;
	}
	for (i = 0; i < f->n; i++)
		at[(key[i] = o.rank[busiest(&o, f, i)]) + 1]++;
	for (r = 0; r < nres; r++)
		at[r + 1] += at[r];
	for (i = 0; i < f->n; i++)
		order[at[key[i]]++] = i;
out:
	free(at);
	free(key);
	free(o.cnt);
	free(o.rank);
	return order;
}

/* The flows in this order are scattered over memory: ask for the flow
 * PREFETCH_FAR ahead, the cables of the one PREFETCH_MID ahead and the
 * rounds the packer will test for the one PREFETCH_NEAR ahead. */
#define PREFETCH_FAR 16
#define PREFETCH_MID 8
#define PREFETCH_NEAR 4

static void prefetch(const struct route_pack *p, const struct route_flows *f,
		     const size_t *order, size_t i)
{
	const struct route_flow *x;
	const int *path;
	int n;

	if (i + PREFETCH_FAR < f->n)
		__builtin_prefetch(&f->f[order[i + PREFETCH_FAR]]);
	if (i + PREFETCH_MID < f->n)
		__builtin_prefetch(
			&f->cables[f->f[order[i + PREFETCH_MID]].first]);
	if (i + PREFETCH_NEAR < f->n) {
		x = &f->f[order[i + PREFETCH_NEAR]];
		path = cables_of(f, order[i + PREFETCH_NEAR], &n);
		route_pack_prefetch(p, x->src, x->dst, path, n);
	}
}

int route_pack_flows(const struct route_ctx *c, const struct route_flows *f,
		     int max_extra, struct burnin_schedule *s, int *shared)
{
	struct route_pack p;
	const struct route_flow *x;
	const int *path;
	size_t *order, i;
	int rc = 0, n;

	*shared = 0;
	if (!f->n)
		return 0;
	route_pack_init(&p, c, s, max_extra);
	order = flow_order(f, p.ncas, p.nres);
	if (!order)
		rc = -ENOMEM;
	for (i = 0; !rc && i < f->n; i++) {
		prefetch(&p, f, order, i);
		x = &f->f[order[i]];
		path = cables_of(f, order[i], &n);
		rc = route_pack_place(&p, x->src, x->dst, path, n, x->home);
		rc = rc < 0 ? rc : 0;
	}
	if (!rc)
		rc = route_pack_finish(&p, s);
	*shared = p.shared;
	route_pack_free(&p);
	free(order);
	return rc;
}
