// SPDX-License-Identifier: MIT
/*
 * route_cover.c: `--schedule cover` over the routes. Rounds are duplex
 * (a port sends once and receives once) and every flow is alone on each
 * cable it crosses. Goal: every reachable directed switch-to-switch cable
 * loaded, each up-link by flows from two different hosts in two rounds
 * (a bad up-link and a bad HCA told apart), each down-link by flows that
 * left their source leaves through two different up-links (a bad
 * down-link and the up-link feeding it told apart).
 *
 * First greedy over shifts of the engine's host order (on a fat tree a
 * shift loads every cable once: two shifts cover a two-level tree): each
 * step tries a few shifts, keeps in each the flows whose cables are still
 * free, and takes the one that advances most cables. Then each cable still
 * short of its goal gets a flow of its own from the tables (a destination
 * it routes to, a source whose path crosses it), placed in the first extra
 * round where its ports and cables are free. Last, the cables its flows
 * do not tell apart get flows that split them (route_separate.c).
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "burnin/route_plan.h"

#define CANDIDATES 16
#define MAX_SHIFT_STEPS 32
#define PATH_MAX_CABLES 64

struct cover {
	const struct route_ctx *c;
	int nc, ncas;
	int *loads; /* rounds loading each cable */
	int *src1; /* first witness of each cable, -1 none: the source CA
		    * of an up-link, the first switch cable of a down-link */
	bool *done; /* goal reached */
	int *stamp; /* cable used in the round being built when == tag */
	int tag;
	int n_open; /* inter-switch cables short of their goal */
	int *sv_loads, *sv_src1, sv_open; /* kept aside by save() */
	bool *sv_done;
	struct burnin_pair *cand, *best; /* a candidate round's pairs */
	int n_cand, n_best;
};

/* What must differ between cable path[i]'s two flows: the source CA of an
 * up-link, the first switch-to-switch cable (the up-link out of the
 * source's leaf) of a down-link. */
static int witness(const struct cover *v, const int *path, int i, int src)
{
	return v->c->cable_up[path[i]] || i < 2 ? src : path[1];
}

static bool want(const struct cover *v, int k, int w)
{
	if (v->done[k] || !burnin_routes_cable(v->c->r, k)->inter_switch)
		return false;
	return !v->loads[k] || w != v->src1[k];
}

static void credit(struct cover *v, int k, int w)
{
	if (!burnin_routes_cable(v->c->r, k)->inter_switch)
		return;
	if (!v->loads[k]++)
		v->src1[k] = w;
	else if (!v->done[k] && w != v->src1[k]) {
		v->done[k] = true;
		v->n_open--;
	}
}

/* The flow a -> b (inventory) if its cables are free: its gain, or -1. */
static int try_flow(struct cover *v, int a, int b, bool take)
{
	int ca = v->c->ca_of_inv[a], cb = v->c->ca_of_inv[b];
	int path[PATH_MAX_CABLES], n, i, gain = 0;

	if (ca < 0 || cb < 0)
		return 0; /* no routes: planned, loads nothing known */
	n = burnin_routes_path(v->c->r, ca, cb, path, PATH_MAX_CABLES);
	if (n < 0)
		return -1;
	for (i = 0; i < n; i++)
		if (v->stamp[path[i]] == v->tag)
			return -1;
	for (i = 0; i < n; i++) {
		v->stamp[path[i]] = v->tag;
		gain += want(v, path[i], witness(v, path, i, ca));
		if (take)
			credit(v, path[i], witness(v, path, i, ca));
	}
	return gain;
}

/* Shift k's flows whose cables are free, into cand; the total gain. */
static int shift_round(struct cover *v, int k)
{
	const struct route_ctx *c = v->c;
	int i, a, b, g, gain = 0;

	v->tag++;
	v->n_cand = 0;
	for (i = 0; i < c->n_slots; i++) {
		a = c->slot_inv[i];
		b = c->slot_inv[(i + k) % c->n_slots];
		if (a < 0 || b < 0 || (g = try_flow(v, a, b, false)) < 0)
			continue;
		v->cand[v->n_cand++] = (struct burnin_pair){ a, b };
		gain += g;
	}
	return gain;
}

static uint64_t splitmix(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static void apply_best(struct cover *v)
{
	int i;

	v->tag++;
	for (i = 0; i < v->n_best; i++)
		try_flow(v, v->best[i].a, v->best[i].b, true);
}

static int commit_best(struct cover *v, struct burnin_schedule *s)
{
	int i, rc = burnin_schedule_new_round(s);

	apply_best(v);
	for (i = 0; !rc && i < v->n_best; i++)
		rc = burnin_schedule_add(s, v->best[i].a, v->best[i].b);
	return rc;
}

/* The shift of most gain among a few (the first k0 when > 0), its pairs
 * in v->best and its shift in *kout; the gain. */
static int best_shift(struct cover *v, int k0, uint64_t *rng, int *kout)
{
	int n = v->c->n_slots, j, k, g, best = 0;
	struct burnin_pair *t;

	/* no shift can gain more than every open cable */
	for (j = 0; j < CANDIDATES && best < v->n_open; j++) {
		k = j == 0 && k0 > 0
			    ? k0
			    : 1 + (int)(splitmix(rng) % (uint64_t)(n - 1));
		g = shift_round(v, k);
		if (g <= best)
			continue;
		best = g;
		*kout = k;
		t = v->best, v->best = v->cand, v->cand = t;
		v->n_best = v->n_cand;
	}
	return best;
}

/* The goal state kept aside (back: put back). */
static void save(struct cover *v, bool back)
{
	size_t n1 = (size_t)v->nc + 1;

	if (back) {
		memcpy(v->loads, v->sv_loads, n1 * sizeof(int));
		memcpy(v->src1, v->sv_src1, n1 * sizeof(int));
		memcpy(v->done, v->sv_done, n1 * sizeof(bool));
		v->n_open = v->sv_open;
		return;
	}
	memcpy(v->sv_loads, v->loads, n1 * sizeof(int));
	memcpy(v->sv_src1, v->src1, n1 * sizeof(int));
	memcpy(v->sv_done, v->done, n1 * sizeof(bool));
	v->sv_open = v->n_open;
}

/*
 * The first two shifts, looked ahead: a shift that loads every cable once
 * can leave no second shift that feeds each down-link from another leaf
 * (4 leaves: half the hosts away, then any shift sends some down-links'
 * flows from the same leaf again or from their own). Of a few first
 * shifts (n/2 first), the one whose best second leaves fewest cables open.
 */
static void first_shifts(struct cover *v, uint64_t *rng, int *k1, int *k2)
{
	int n = v->c->n_slots, j, a, b, left, best_left = INT_MAX;

	for (j = 0; j < CANDIDATES && best_left > 0; j++) {
		a = j ? 1 + (int)(splitmix(rng) % (uint64_t)(n - 1)) : n / 2;
		save(v, false);
		b = 0;
		if (best_shift(v, a, rng, &a) > 0) {
			apply_best(v);
			if (v->n_open && best_shift(v, 0, rng, &b) > 0)
				apply_best(v);
		}
		left = v->n_open;
		save(v, true);
		if (left < best_left) {
			best_left = left;
			*k1 = a;
			*k2 = b;
		}
	}
}

static int shift_phase(struct cover *v, uint64_t seed,
		       struct burnin_schedule *s)
{
	int n = v->c->n_slots, step, k, k1 = n / 2, k2 = 0, rc;
	uint64_t rng = seed;

	if (n > 1)
		first_shifts(v, &rng, &k1, &k2);
	for (step = 0; n > 1 && v->n_open && step < MAX_SHIFT_STEPS; step++) {
		k = step == 0 ? k1 : step == 1 ? k2 : 0;
		if (!best_shift(v, k, &rng, &k))
			break;
		if ((rc = commit_best(v, s)))
			return rc;
	}
	return 0;
}

/* ---- the cables still short: one flow each ---- */

static int place(struct cover *v, struct route_pack *x, int src, int dst,
		 const int *path, int n)
{
	int i, rc = route_pack_place(x, src, dst, path, n, -1);

	for (i = 0; rc > 0 && i < n; i++)
		if (want(v, path[i], witness(v, path, i, src)))
			credit(v, path[i], witness(v, path, i, src));
	return rc;
}

/* Index of cable k in path[n], -1 none. */
static int path_index(const int *path, int n, int k)
{
	int i;

	for (i = 0; i < n; i++)
		if (path[i] == k)
			return i;
	return -1;
}

/* A flow for cable k (a destination it routes to, a source that reaches
 * it); 1 placed, 0 none, -ENOMEM. */
static int cable_flow(struct cover *v, struct route_pack *x, int k, int *dsts)
{
	int nd = burnin_routes_cable_dsts(v->c->r, k, dsts, v->ncas);
	int i, j, src, d, n, ik, path[PATH_MAX_CABLES];

	for (i = 0; i < nd && i < v->ncas; i++) {
		d = dsts[i];
		if (v->c->inv_of_ca[d] < 0)
			continue;
		for (j = 0; j < v->ncas; j++) {
			src = (j + k) % v->ncas;
			if (src == d || v->c->inv_of_ca[src] < 0)
				continue;
			n = burnin_routes_path(v->c->r, src, d, path,
					       PATH_MAX_CABLES);
			ik = path_index(path, n, k);
			if (ik >= 0 && want(v, k, witness(v, path, ik, src)))
				return place(v, x, src, d, path, n);
		}
	}
	return 0;
}

static int cable_phase(struct cover *v, struct burnin_schedule *s)
{
	int k, rc = 0, *dsts = malloc(((size_t)v->ncas + 1) * sizeof(int));
	struct route_pack x;

	if (!dsts)
		return -ENOMEM;
	route_pack_init(&x, v->c, s, INT_MAX);
	for (k = 0; k < v->nc && rc >= 0; k++)
		while (want(v, k, -1) && (rc = cable_flow(v, &x, k, dsts)) > 0)
			;
	if (rc >= 0)
		rc = route_pack_finish(&x, s);
	free(dsts);
	route_pack_free(&x);
	return rc < 0 ? rc : 0;
}

int route_cover(const struct route_ctx *c, uint64_t seed,
		struct burnin_schedule *s)
{
	struct cover v = { .c = c };
	size_t n1, ns = (size_t)c->n_slots + 1;
	int k, rc = -ENOMEM;

	v.nc = burnin_routes_n_cables(c->r);
	v.ncas = burnin_routes_n_cas(c->r);
	n1 = (size_t)v.nc + 1;
	memset(s, 0, sizeof(*s));
	s->duplex = true;
	v.loads = calloc(n1, sizeof(int));
	v.src1 = malloc(n1 * sizeof(int));
	v.done = calloc(n1, sizeof(bool));
	v.sv_loads = malloc(n1 * sizeof(int));
	v.sv_src1 = malloc(n1 * sizeof(int));
	v.sv_done = malloc(n1 * sizeof(bool));
	v.stamp = calloc(n1, sizeof(int));
	v.cand = malloc(ns * sizeof(*v.cand));
	v.best = malloc(ns * sizeof(*v.best));
	if (v.loads && v.src1 && v.done && v.stamp && v.cand && v.best &&
	    v.sv_loads && v.sv_src1 && v.sv_done) {
		for (k = 0; k < v.nc; k++) {
			v.src1[k] = -1;
			v.n_open += burnin_routes_cable(c->r, k)->inter_switch;
		}
		rc = shift_phase(&v, seed, s);
		if (!rc)
			rc = cable_phase(&v, s);
		if (!rc)
			rc = route_separate(c, s);
	}
	free(v.loads);
	free(v.src1);
	free(v.done);
	free(v.sv_loads);
	free(v.sv_src1);
	free(v.sv_done);
	free(v.stamp);
	free(v.cand);
	free(v.best);
	return rc;
}
