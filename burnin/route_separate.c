// SPDX-License-Identifier: MIT
/*
 * route_separate.c: cover's last step (issue 31). After the shifts and the
 * flows of the cables still short, the plan's signatures (route_ident.c)
 * say which cables its flows do not tell apart: on a fat tree the cables
 * into one host (core -> aggregation, aggregation -> leaf, leaf -> host)
 * when every flow into it comes from another pod. Each such group keeps
 * its classes (cables no flow has told apart yet, as member masks); a flow
 * splits a class when it crosses some of its cables and not the others.
 *
 * First, flows near its flows' ends put into the plan's rounds where their
 * ports and cables are free (hosts missing leave ports free). Then rounds
 * built like cover's shifts, rotations of blocks of the
 * engine's host order: for a few (block, offset), each open group's flow
 * from the host `offset` slots before its destination within its block
 * (else to the host that far after its source), where it splits a class
 * and its ports and cables are still free in the round; the rotation that
 * splits most groups is the round. Blocks are a leaf's slots (a flow from
 * the same leaf), runs of leaves (the same pod: offset one leaf) and the
 * whole order (shifts). Then
 * what is left: a flow per split, near its flows' ends first, else any
 * source to its destination or destination from its source, packed
 * first-fit into extra rounds (route_pack.c). Every flow taken updates
 * the classes of every group its path crosses.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "burnin/route_plan.h"

#define PATH_MAX_CABLES 64
#define MAX_MEMBERS 64
#define ROUND_OFFSETS 24 /* offsets tried per shift round (each sign) */
#define MAX_SHIFT_ROUNDS 8
#define NEAR_TRIES 64 /* splitting flows weighed before a new round */
#define SEARCH_BUDGET 20000000L /* paths of the exhaustive searches */

struct sep {
	const struct route_ctx *c;
	const struct route_ident *id;
	int ncas, nc;
	int *slot_of_ca; /* [ncas] slot in the host order, -1 none */
	int offsets[128], n_off;
	struct rot {
		int block, off;
	} rots[160]; /* the rotations tried */
	int n_rots;
	/* open groups: leader, first class in cls, classes, members */
	int *lead, *cls0, *ncls, *gid; /* gid: [nc] group of a leader */
	uint64_t *cls;
	int n_groups, n_open;
	/* a round being built */
	int *stamp; /* [2 * ncas + nc]: used when == tag */
	int tag;
	struct burnin_pair *pairs, *best;
	int n_pairs, n_best;
	long budget;
};

struct cand {
	int src, dst, n, fit;
	int path[PATH_MAX_CABLES];
};

/* The offsets tried: 1..8, then 4 a doubling, up to half the order. */
static void make_offsets(struct sep *v)
{
	int n = v->c->n_slots / 2, o, step = 2;

	v->n_off = 0;
	for (o = 1; o <= n && v->n_off < 128; o += o < 8 ? 1 : step) {
		v->offsets[v->n_off++] = o;
		if (o >= 8 * step)
			step *= 2;
	}
}

/* The slots of the first leaf in the host order (holes included). */
static int leaf_block(const struct sep *v)
{
	const struct route_ctx *c = v->c;
	uint64_t first = 0;
	int i, ca, k;

	for (i = 0; i < c->n_slots; i++) {
		if (c->slot_inv[i] < 0 ||
		    (ca = c->ca_of_inv[c->slot_inv[i]]) < 0)
			continue;
		k = burnin_routes_ca(c->r, ca)->leaf_cable;
		if (k < 0)
			continue;
		if (!first)
			first = burnin_routes_cable(c->r, k)->to_guid;
		else if (burnin_routes_cable(c->r, k)->to_guid != first)
			return i;
	}
	return c->n_slots;
}

static void add_rot(struct sep *v, int block, int off)
{
	if (v->n_rots < 160 && block > 1 && off % block)
		v->rots[v->n_rots++] = (struct rot){ block, off };
}

/* Rotations within a leaf, one leaf along within runs of leaves, and
 * shifts of the whole order, each both ways. */
static void make_rots(struct sep *v)
{
	int n = v->c->n_slots, b = leaf_block(v), m, o;

	v->n_rots = 0;
	for (o = 1; o < b && o <= 4; o++) {
		add_rot(v, b, o);
		add_rot(v, b, -o);
	}
	for (m = 2; m * b < n; m += m < 8 ? 1 : m) {
		add_rot(v, m * b, b);
		add_rot(v, m * b, -b);
	}
	for (o = 0; o < v->n_off && o < ROUND_OFFSETS; o++) {
		add_rot(v, n, v->offsets[o]);
		add_rot(v, n, -v->offsets[o]);
	}
}

/* The slot `off` along from slot i within its block of r. */
static int rot_slot(const struct sep *v, const struct rot *r, int i, int off)
{
	int base = i - i % r->block, len = r->block;

	if (base + len > v->c->n_slots)
		len = v->c->n_slots - base;
	return base + ((i - base + off) % len + len) % len;
}

static int ca_at(const struct sep *v, int slot)
{
	int n = v->c->n_slots, inv;

	inv = v->c->slot_inv[((slot % n) + n) % n];
	return inv < 0 ? -1 : v->c->ca_of_inv[inv];
}

static int members(const struct sep *v, int g)
{
	return v->id->size[v->lead[g]];
}

/* Group g's members path[n] crosses, as a mask. */
static uint64_t cross_mask(const struct sep *v, int g, const int *path, int n)
{
	uint64_t m = 0;
	int i, j, k;

	for (i = 0; i < n; i++) {
		if (v->id->leader[path[i]] != v->lead[g])
			continue;
		for (j = 0, k = v->lead[g]; k >= 0; j++, k = v->id->next[k])
			if (k == path[i])
				m |= 1ull << j;
	}
	return m;
}

static bool splits(const struct sep *v, int g, uint64_t m)
{
	const uint64_t *cls = v->cls + v->cls0[g];
	int i;

	for (i = 0; i < v->ncls[g]; i++)
		if ((cls[i] & m) && (cls[i] & ~m))
			return true;
	return false;
}

static bool open_group(const struct sep *v, int g)
{
	return v->ncls[g] < members(v, g);
}

/* A flow taken: every group its path crosses split by it. */
static void take(struct sep *v, const int *path, int n)
{
	uint64_t *cls, m;
	int i, j, g, nc;

	for (i = 0; i < n; i++) {
		g = v->id->leader[path[i]];
		g = g >= 0 ? v->gid[g] : -1;
		if (g < 0 || !open_group(v, g))
			continue;
		m = cross_mask(v, g, path, n);
		cls = v->cls + v->cls0[g];
		for (j = 0, nc = v->ncls[g]; j < nc; j++)
			if ((cls[j] & m) && (cls[j] & ~m)) {
				cls[v->ncls[g]++] = cls[j] & ~m;
				cls[j] &= m;
			}
		v->n_open -= !open_group(v, g);
	}
}

/* Whether src -> dst (present hosts) splits group g: its path in t. */
static bool try_pair(const struct sep *v, int g, int src, int dst,
		     struct cand *t)
{
	if (src < 0 || dst < 0 || src == dst || v->c->inv_of_ca[src] < 0 ||
	    v->c->inv_of_ca[dst] < 0)
		return false;
	t->n = burnin_routes_path(v->c->r, src, dst, t->path, PATH_MAX_CABLES);
	if (t->n <= 0 || !splits(v, g, cross_mask(v, g, t->path, t->n)))
		return false;
	t->src = src;
	t->dst = dst;
	return true;
}

/* ---- rounds built as shifts ---- */

static bool free_in_round(const struct sep *v, const struct cand *t)
{
	int i;

	if (v->stamp[t->src] == v->tag || v->stamp[v->ncas + t->dst] == v->tag)
		return false;
	for (i = 0; i < t->n; i++)
		if (v->stamp[2 * v->ncas + t->path[i]] == v->tag)
			return false;
	return true;
}

static void use_in_round(struct sep *v, const struct cand *t)
{
	int i;

	v->stamp[t->src] = v->stamp[v->ncas + t->dst] = v->tag;
	for (i = 0; i < t->n; i++)
		v->stamp[2 * v->ncas + t->path[i]] = v->tag;
	v->pairs[v->n_pairs++] =
		(struct burnin_pair){ v->c->inv_of_ca[t->src],
				      v->c->inv_of_ca[t->dst] };
}

/* The round of rotation r: the groups it splits. */
static int rot_round(struct sep *v, const struct rot *r)
{
	const struct route_ident *id = v->id;
	int g, s0, d0, gain = 0;
	struct cand t;

	v->tag++;
	v->n_pairs = 0;
	for (g = 0; g < v->n_groups; g++) {
		if (!open_group(v, g))
			continue;
		s0 = id->src[v->lead[g]];
		d0 = id->dst[v->lead[g]];
		if ((v->slot_of_ca[d0] >= 0 &&
		     try_pair(v, g,
			      ca_at(v,
				    rot_slot(v, r, v->slot_of_ca[d0], -r->off)),
			      d0, &t) &&
		     free_in_round(v, &t)) ||
		    (v->slot_of_ca[s0] >= 0 &&
		     try_pair(v, g, s0,
			      ca_at(v,
				    rot_slot(v, r, v->slot_of_ca[s0], r->off)),
			      &t) &&
		     free_in_round(v, &t))) {
			use_in_round(v, &t);
			gain++;
		}
	}
	return gain;
}

static int commit_round(struct sep *v, struct burnin_schedule *s)
{
	int i, n, rc = burnin_schedule_new_round(s);
	int path[PATH_MAX_CABLES];

	for (i = 0; !rc && i < v->n_best; i++) {
		n = burnin_routes_path(v->c->r, v->c->ca_of_inv[v->best[i].a],
				       v->c->ca_of_inv[v->best[i].b], path,
				       PATH_MAX_CABLES);
		if (n > 0)
			take(v, path, n);
		rc = burnin_schedule_add(s, v->best[i].a, v->best[i].b);
	}
	return rc;
}

static int shift_rounds(struct sep *v, struct burnin_schedule *s)
{
	struct burnin_pair *t;
	int r, j, g, best, rc = 0;

	for (r = 0; !rc && v->n_open && r < MAX_SHIFT_ROUNDS; r++) {
		best = 0;
		for (j = 0; j < v->n_rots; j++) {
			g = rot_round(v, &v->rots[j]);
			if (g <= best)
				continue;
			best = g;
			t = v->best, v->best = v->pairs, v->pairs = t;
			v->n_best = v->n_pairs;
			if (best == v->n_open)
				break;
		}
		/* a round that splits few groups is left to the packing */
		if (best * 8 < v->n_open || !best)
			break;
		rc = commit_round(v, s);
	}
	return rc;
}

/* ---- what is left: packed first-fit ---- */

/* The ends of candidate i near group g's flow s0 -> d0 (4 kinds x 2
 * signs); false where a slot has no host. */
static bool near_ends(const struct sep *v, int g, int i, int *src, int *dst)
{
	int s0 = v->id->src[v->lead[g]], d0 = v->id->dst[v->lead[g]];
	int o = v->offsets[i / 8] * (i % 2 ? -1 : 1), kind = i / 2 % 4;
	int ss = v->slot_of_ca[s0], sd = v->slot_of_ca[d0];

	if (ss < 0 || sd < 0)
		return false;
	*src = kind == 0 ? ca_at(v, sd - o) : kind == 2 ? ca_at(v, ss - o) : s0;
	*dst = kind == 1 ? ca_at(v, ss + o) : kind == 3 ? ca_at(v, sd + o) : d0;
	return *src >= 0 && *dst >= 0;
}

static bool near_pair(const struct sep *v, int g, int i, struct cand *t)
{
	int src, dst;

	return near_ends(v, g, i, &src, &dst) && try_pair(v, g, src, dst, t);
}

/* A flow that splits group g into *best: near ones first (one fitting a
 * round already opened taken at once), else the first of every source to
 * d0 and every destination from s0. */
static bool find_flow(struct sep *v, const struct route_pack *x, int g,
		      struct cand *best)
{
	int s0 = v->id->src[v->lead[g]], d0 = v->id->dst[v->lead[g]];
	int i, k, tries = 0;
	struct cand t;
	bool have = false;

	for (i = 0; i < 8 * v->n_off && tries < NEAR_TRIES; i++) {
		if (!near_pair(v, g, i, &t))
			continue;
		tries++;
		t.fit = route_pack_fit(x, t.src, t.dst, t.path, t.n);
		if (!have || t.fit < best->fit) {
			*best = t;
			have = true;
		}
		if (best->fit < x->n || !x->n)
			return true;
	}
	for (k = 0; !have && k < v->ncas && v->budget > 0; k++, v->budget -= 2)
		have = try_pair(v, g, k, d0, best) ||
		       try_pair(v, g, s0, k, best);
	return have;
}

static int pack_rest(struct sep *v, struct burnin_schedule *s)
{
	struct route_pack x;
	struct cand t;
	int g, rc = 0;

	route_pack_init(&x, v->c, s, INT_MAX);
	for (g = 0; rc >= 0 && g < v->n_groups; g++)
		while (open_group(v, g) && find_flow(v, &x, g, &t)) {
			rc = route_pack_place(&x, t.src, t.dst, t.path, t.n,
					      -1);
			if (rc < 0)
				break;
			take(v, t.path, t.n);
		}
	if (rc >= 0)
		rc = route_pack_finish(&x, s);
	route_pack_free(&x);
	return rc < 0 ? rc : 0;
}

/* ---- into the plan's rounds, where ports and cables are free ---- */

#define EXIST_ROUNDS 64

/* Per resource (sends, receives, cables) the rounds of s using it. */
static uint64_t *occupancy(const struct sep *v, const struct burnin_schedule *s)
{
	size_t nres = 2 * (size_t)v->ncas + (size_t)v->nc;
	uint64_t *occ = calloc(nres + 1, sizeof(*occ));
	int r, i, j, a, b, n, path[PATH_MAX_CABLES];

	for (r = 0; occ && r < s->n_rounds && r < EXIST_ROUNDS; r++)
		for (i = s->start[r]; i < s->start[r + 1]; i++) {
			a = v->c->ca_of_inv[s->pairs[i].a];
			b = v->c->ca_of_inv[s->pairs[i].b];
			if (a < 0 || b < 0)
				continue;
			occ[a] |= 1ull << r;
			occ[v->ncas + b] |= 1ull << r;
			n = burnin_routes_path(v->c->r, a, b, path,
					       PATH_MAX_CABLES);
			for (j = 0; j < n; j++)
				occ[2 * v->ncas + path[j]] |= 1ull << r;
		}
	return occ;
}

/* The first round of s where t's resources are all free, -1 none. */
static int free_round(const struct sep *v, const uint64_t *occ, int rounds,
		      const struct cand *t, bool take_it)
{
	uint64_t used = occ[t->src] | occ[v->ncas + t->dst];
	uint64_t *o = (uint64_t *)occ;
	int i, r;

	for (i = 0; i < t->n; i++)
		used |= occ[2 * v->ncas + t->path[i]];
	if (!~used)
		return -1;
	r = __builtin_ctzll(~used);
	if (r >= rounds)
		return -1;
	if (take_it) {
		o[t->src] |= 1ull << r;
		o[v->ncas + t->dst] |= 1ull << r;
		for (i = 0; i < t->n; i++)
			o[2 * v->ncas + t->path[i]] |= 1ull << r;
	}
	return r;
}

static int fill_rounds(struct sep *v, struct burnin_schedule *s)
{
	int rounds = s->n_rounds < EXIST_ROUNDS ? s->n_rounds : EXIST_ROUNDS;
	uint64_t *occ = occupancy(v, s);
	uint64_t all = rounds == 64 ? ~0ull : (1ull << rounds) - 1;
	struct route_pack x;
	struct cand t;
	int g, i, r, a, b, rc = 0;

	if (!occ)
		return -ENOMEM;
	route_pack_init(&x, v->c, s, INT_MAX);
	for (g = 0; rc >= 0 && g < v->n_groups; g++)
		for (i = 0;
		     open_group(v, g) && i < 8 * v->n_off && i < 8 * NEAR_TRIES;
		     i++) {
			/* the ports first: no path where they are busy */
			if (!near_ends(v, g, i, &a, &b) ||
			    !(~(occ[a] | occ[v->ncas + b]) & all) ||
			    !try_pair(v, g, a, b, &t) ||
			    (r = free_round(v, occ, rounds, &t, true)) < 0)
				continue;
			if ((rc = route_pack_home(&x, r, t.src, t.dst)) < 0)
				break;
			take(v, t.path, t.n);
		}
	if (rc >= 0)
		rc = route_pack_finish(&x, s);
	route_pack_free(&x);
	free(occ);
	return rc < 0 ? rc : 0;
}

/* ---- the two ways for what is left, the one of fewer rounds kept ---- */

static int copy_schedule(const struct burnin_schedule *from,
			 struct burnin_schedule *to)
{
	int r, i, rc = 0;

	memset(to, 0, sizeof(*to));
	to->duplex = from->duplex;
	to->rail_bound = from->rail_bound;
	for (r = 0; !rc && r < from->n_rounds; r++) {
		rc = burnin_schedule_new_round(to);
		for (i = from->start[r]; !rc && i < from->start[r + 1]; i++)
			rc = burnin_schedule_add(to, from->pairs[i].a,
						 from->pairs[i].b);
	}
	if (rc)
		burnin_schedule_free(to);
	return rc;
}

/*
 * Rotations then packing (regular trees: whole rounds of one pattern),
 * and where the host order has holes (hosts missing: the rotations break
 * there) also packing alone; the fewer rounds kept.
 */
static int rest(struct sep *v, struct burnin_schedule *s)
{
	size_t nc = (size_t)v->n_groups + 1, ncls = 0;
	int *sv_ncls = malloc(nc * sizeof(int)), sv_open = v->n_open, g, rc;
	uint64_t *sv_cls = NULL;
	struct burnin_schedule b;

	for (g = 0; g < v->c->n_slots; g++)
		if (v->c->slot_inv[g] < 0 ||
		    v->c->ca_of_inv[v->c->slot_inv[g]] < 0)
			break;
	if (g == v->c->n_slots) { /* no hole */
		free(sv_ncls);
		rc = shift_rounds(v, s);
		return !rc && v->n_open ? pack_rest(v, s) : rc;
	}
	for (g = 0; g < v->n_groups; g++)
		ncls += (size_t)members(v, g);
	sv_cls = malloc((ncls + 1) * sizeof(*sv_cls));
	rc = sv_ncls && sv_cls ? copy_schedule(s, &b) : -ENOMEM;
	if (!rc) {
		memcpy(sv_ncls, v->ncls, nc * sizeof(int));
		memcpy(sv_cls, v->cls, (ncls + 1) * sizeof(*sv_cls));
		rc = shift_rounds(v, s);
		if (!rc && v->n_open)
			rc = pack_rest(v, s);
		memcpy(v->ncls, sv_ncls, nc * sizeof(int));
		memcpy(v->cls, sv_cls, (ncls + 1) * sizeof(*sv_cls));
		v->n_open = sv_open;
		if (!rc)
			rc = pack_rest(v, &b);
		if (!rc && b.n_rounds < s->n_rounds) {
			burnin_schedule_free(s);
			*s = b;
		} else
			burnin_schedule_free(&b);
	}
	free(sv_ncls);
	free(sv_cls);
	return rc;
}

/* ---- setup ---- */

static int init_groups(struct sep *v)
{
	const struct route_ident *id = v->id;
	int k, g = 0, n = 0;

	for (k = 0; k < v->nc; k++) {
		v->gid[k] = -1;
		if (id->leader[k] == k && id->size[k] > 1 &&
		    id->size[k] <= MAX_MEMBERS) {
			v->n_groups++;
			n += id->size[k];
		}
	}
	v->lead = malloc(((size_t)v->n_groups + 1) * sizeof(int));
	v->cls0 = malloc(((size_t)v->n_groups + 1) * sizeof(int));
	v->ncls = malloc(((size_t)v->n_groups + 1) * sizeof(int));
	v->cls = malloc(((size_t)n + 1) * sizeof(uint64_t));
	if (!v->lead || !v->cls0 || !v->ncls || !v->cls)
		return -ENOMEM;
	for (k = 0, n = 0; k < v->nc; k++) {
		if (id->leader[k] != k || id->size[k] < 2 ||
		    id->size[k] > MAX_MEMBERS)
			continue;
		v->gid[k] = g;
		v->lead[g] = k;
		v->cls0[g] = n;
		v->ncls[g] = 1;
		v->cls[n] =
			id->size[k] == 64 ? ~0ull : (1ull << id->size[k]) - 1;
		n += id->size[k];
		g++;
	}
	v->n_open = v->n_groups;
	for (k = 0; k < v->ncas; k++)
		v->slot_of_ca[k] = -1;
	for (k = 0; k < v->c->n_slots; k++)
		if (v->c->slot_inv[k] >= 0 &&
		    v->c->ca_of_inv[v->c->slot_inv[k]] >= 0)
			v->slot_of_ca[v->c->ca_of_inv[v->c->slot_inv[k]]] = k;
	make_offsets(v);
	make_rots(v);
	return 0;
}

static void sep_free(struct sep *v)
{
	free(v->slot_of_ca);
	free(v->gid);
	free(v->lead);
	free(v->cls0);
	free(v->ncls);
	free(v->cls);
	free(v->stamp);
	free(v->pairs);
	free(v->best);
}

int route_separate(const struct route_ctx *c, struct burnin_schedule *s)
{
	struct sep v = { .c = c, .budget = SEARCH_BUDGET };
	struct route_cert cert;
	size_t ns = (size_t)c->n_slots + 1;
	int rc;

	if (c->n_slots < 2)
		return 0;
	if ((rc = route_cert_build(c, s, &cert)))
		return rc;
	v.id = &cert.ident;
	v.ncas = burnin_routes_n_cas(c->r);
	v.nc = burnin_routes_n_cables(c->r);
	v.slot_of_ca = malloc(((size_t)v.ncas + 1) * sizeof(int));
	v.gid = malloc(((size_t)v.nc + 1) * sizeof(int));
	v.stamp = calloc(2 * (size_t)v.ncas + (size_t)v.nc + 1, sizeof(int));
	v.pairs = malloc(ns * sizeof(*v.pairs));
	v.best = malloc(ns * sizeof(*v.best));
	rc = -ENOMEM;
	if (v.slot_of_ca && v.gid && v.stamp && v.pairs && v.best &&
	    !init_groups(&v)) {
		rc = fill_rounds(&v, s);
		if (!rc && v.n_open)
			rc = rest(&v, s);
	}
	sep_free(&v);
	route_cert_free(&cert);
	return rc;
}
