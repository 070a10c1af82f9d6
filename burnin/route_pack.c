// SPDX-License-Identifier: MIT
/*
 * route_pack.c: extra rounds packed first-fit with flows that must stay
 * alone on their cables: a flow goes into the first extra round where its
 * source does not send yet, its destination does not receive yet and
 * none of its cables is loaded; else into a new one. Past a limit of
 * extra rounds, into one where its ports are free and the fewest of its
 * cables loaded, else back into its home round (the shift it came from),
 * sharing cables. Cover puts its one-flow-per-cable flows here, all-pairs
 * the flows a shift could not take without sharing a cable.
 *
 * Near-linear at scale: each resource (a port's sends, a port's receives,
 * a cable) keeps a bitset of the extra rounds that use it and the first
 * round it is still free in; a flow's search starts at the latest of its
 * resources' first free rounds and tests 64 rounds per word. The pairs
 * are kept aside and merged into the schedule once, at the end.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "burnin/route_plan.h"
#include "common/array.h"

#define PATH_MAX_CABLES 64
#define SHARE_CANDIDATES 256

struct route_placed {
	int round; /* in s: < first_round a home round, else extra */
	struct burnin_pair pair;
};

void route_pack_init(struct route_pack *p, const struct route_ctx *c,
		     const struct burnin_schedule *s, int max_rounds)
{
	memset(p, 0, sizeof(*p));
	p->c = c;
	p->nc = burnin_routes_n_cables(c->r);
	p->ncas = burnin_routes_n_cas(c->r);
	p->nres = 2 * p->ncas + p->nc;
	p->first_round = s->n_rounds;
	p->max_rounds = max_rounds;
}

void route_pack_free(struct route_pack *p)
{
	free(p->busy);
	free(p->free_from);
	free(p->placed);
	p->busy = NULL;
	p->free_from = NULL;
	p->placed = NULL;
}

static uint64_t *bits(const struct route_pack *p, int res)
{
	return p->busy + (size_t)res * (size_t)p->words;
}

static bool is_busy(const struct route_pack *p, int res, int r)
{
	return bits(p, res)[r / 64] >> (r % 64) & 1;
}

/* Room for one more extra round: the bitsets twice as long. */
static int grow(struct route_pack *p)
{
	int words = p->words ? 2 * p->words : 1, res;
	uint64_t *b;

	if (!p->free_from) {
		p->free_from = calloc((size_t)p->nres + 1, sizeof(int));
		if (!p->free_from)
			return -ENOMEM;
	}
	if (p->n < 64 * p->words) {
		p->n++;
		return 0;
	}
	b = calloc((size_t)p->nres * (size_t)words + 1, sizeof(*b));
	if (!b)
		return -ENOMEM;
	for (res = 0; p->busy && res < p->nres; res++)
		memcpy(b + (size_t)res * (size_t)words, bits(p, res),
		       (size_t)p->words * sizeof(*b));
	free(p->busy);
	p->busy = b;
	p->words = words;
	p->n++;
	return 0;
}

/* The resources of a flow: its source's sends, its destination's
 * receives, its cables. */
static int resources(int ncas, int src, int dst, const int *path, int n,
		     int *res)
{
	int i, m = 0;

	res[m++] = src;
	res[m++] = ncas + dst;
	for (i = 0; i < n && i < PATH_MAX_CABLES; i++)
		res[m++] = 2 * ncas + path[i];
	return m;
}

/* The first extra round from `from` where none of res[m] is busy; p->n
 * when there is none. */
static int first_fit(const struct route_pack *p, const int *res, int m,
		     int from)
{
	uint64_t used;
	int w, i, r;

	for (w = from / 64; w < p->words && 64 * w < p->n; w++) {
		used = w == from / 64 ? (1ull << (from % 64)) - 1 : 0;
		for (i = 0; i < m && ~used; i++)
			used |= bits(p, res[i])[w];
		if (~used) {
			r = 64 * w + __builtin_ctzll(~used);
			return r < p->n ? r : p->n;
		}
	}
	return p->n;
}

/* How many of res[2..m) round r loads. */
static int shared_in(const struct route_pack *p, const int *res, int m, int r)
{
	int i, k = 0;

	for (i = 2; i < m; i++)
		k += is_busy(p, res[i], r);
	return k;
}

/* Among the first rounds where src and dst are free (tested 64 rounds a
 * word), the one where the fewest cables of res[2..m) are loaded; -1
 * none. */
static int fewest_shared(const struct route_pack *p, const int *res, int m)
{
	int best = -1, best_n = m, seen = 0, w, r, k;
	uint64_t free;

	for (w = 0; w < p->words && 64 * w < p->n && seen < SHARE_CANDIDATES;
	     w++) {
		free = ~(bits(p, res[0])[w] | bits(p, res[1])[w]);
		for (; free && seen < SHARE_CANDIDATES; free &= free - 1) {
			r = 64 * w + __builtin_ctzll(free);
			if (r >= p->n)
				break;
			seen++;
			k = shared_in(p, res, m, r);
			if (k < best_n) {
				best = r;
				best_n = k;
			}
			if (best_n <= 1)
				return best;
		}
	}
	return best;
}

static void mark(struct route_pack *p, const int *res, int m, int r)
{
	int i, *f;

	for (i = 0; i < m; i++) {
		bits(p, res[i])[r / 64] |= 1ull << (r % 64);
		f = &p->free_from[res[i]];
		while (*f < p->n && is_busy(p, res[i], *f))
			(*f)++;
	}
}

static int record(struct route_pack *p, int round, int src, int dst)
{
	if (array_reserve(&p->placed, &p->cap_placed, p->n_placed,
			  sizeof(*p->placed)))
		return -ENOMEM;
	p->placed[p->n_placed++] = (struct route_placed){
		round, { p->c->inv_of_ca[src], p->c->inv_of_ca[dst] }
	};
	return 0;
}

void route_pack_prefetch(const struct route_pack *p, int src, int dst,
			 const int *path, int n)
{
	int res[PATH_MAX_CABLES + 2];
	int i, m = resources(p->ncas, src, dst, path, n, res);

	for (i = 0; p->free_from && i < m; i++)
		__builtin_prefetch(&bits(p, res[i])[p->free_from[res[i]] / 64]);
}

int route_pack_home(struct route_pack *p, int round, int src, int dst)
{
	return record(p, round, src, dst) ? -ENOMEM : 1;
}

int route_pack_fit(const struct route_pack *p, int src, int dst,
		   const int *path, int n)
{
	int res[PATH_MAX_CABLES + 2];
	int m = resources(p->ncas, src, dst, path, n, res);
	int i, from = 0;

	for (i = 0; p->free_from && i < m; i++)
		if (p->free_from[res[i]] > from)
			from = p->free_from[res[i]];
	return from < p->n ? first_fit(p, res, m, from) : p->n;
}

int route_pack_place(struct route_pack *p, int src, int dst, const int *path,
		     int n, int home)
{
	int res[PATH_MAX_CABLES + 2];
	int m = resources(p->ncas, src, dst, path, n, res);
	int i, r, from = 0, rc;

	for (i = 0; p->free_from && i < m; i++)
		if (p->free_from[res[i]] > from)
			from = p->free_from[res[i]];
	r = from < p->n ? first_fit(p, res, m, from) : p->n;
	if (r == p->n && p->n >= p->max_rounds) {
		/* past the limit: cables shared, as few as may be */
		p->shared++;
		r = fewest_shared(p, res, m);
		if (r < 0 && home >= 0)
			return record(p, home, src, dst) ? -ENOMEM : 1;
		if (r < 0)
			r = p->n;
	}
	if (r == p->n && (rc = grow(p)))
		return rc;
	mark(p, res, m, r);
	return record(p, p->first_round + r, src, dst) ? -ENOMEM : 1;
}

/* The pairs placed, in round order (counting sort by round). */
static struct route_placed *by_round(const struct route_pack *p, int rounds,
				     int *first)
{
	struct route_placed *out = malloc((p->n_placed + 1) * sizeof(*out));
	size_t i;
	int r;

	if (!out)
		return NULL;
	memset(first, 0, ((size_t)rounds + 1) * sizeof(int));
	for (i = 0; i < p->n_placed; i++)
		first[p->placed[i].round + 1]++;
	for (r = 0; r < rounds; r++)
		first[r + 1] += first[r];
	for (i = 0; i < p->n_placed; i++)
		out[first[p->placed[i].round]++] = p->placed[i];
	for (r = rounds; r > 0; r--)
		first[r] = first[r - 1];
	first[0] = 0;
	return out;
}

/* s rebuilt: each round's own pairs, then those placed into it. */
static int merge(struct burnin_schedule *s, const struct route_placed *sorted,
		 const int *first, int rounds)
{
	struct burnin_schedule old = *s;
	int r, i, rc = 0;

	memset(s, 0, sizeof(*s));
	s->duplex = old.duplex;
	s->rail_bound = old.rail_bound;
	for (r = 0; !rc && r < rounds; r++) {
		rc = burnin_schedule_new_round(s);
		for (i = r < old.n_rounds ? old.start[r] : 0;
		     !rc && r < old.n_rounds && i < old.start[r + 1]; i++)
			rc = burnin_schedule_add(s, old.pairs[i].a,
						 old.pairs[i].b);
		for (i = first[r]; !rc && i < first[r + 1]; i++)
			rc = burnin_schedule_add(s, sorted[i].pair.a,
						 sorted[i].pair.b);
	}
	if (rc) {
		burnin_schedule_free(s);
		*s = old;
	} else
		burnin_schedule_free(&old);
	return rc;
}

/* The extra rounds appended to s (nothing placed into its rounds). */
static int append(struct route_pack *p, struct burnin_schedule *s,
		  const struct route_placed *sorted, const int *first,
		  int rounds)
{
	int r, i, rc = 0;

	for (r = p->first_round; !rc && r < rounds; r++) {
		rc = burnin_schedule_new_round(s);
		for (i = first[r]; !rc && i < first[r + 1]; i++)
			rc = burnin_schedule_add(s, sorted[i].pair.a,
						 sorted[i].pair.b);
	}
	return rc;
}

int route_pack_finish(struct route_pack *p, struct burnin_schedule *s)
{
	int rounds = p->first_round + p->n, rc = -ENOMEM;
	int *first = malloc(((size_t)rounds + 1) * sizeof(int));
	struct route_placed *sorted = first ? by_round(p, rounds, first) : NULL;

	if (sorted)
		rc = first[p->first_round]
			     ? merge(s, sorted, first, rounds)
			     : append(p, s, sorted, first, rounds);
	free(first);
	free(sorted);
	return rc;
}
