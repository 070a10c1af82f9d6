// SPDX-License-Identifier: MIT
/*
 * route_pack.c: extra rounds packed first-fit with flows that must stay
 * alone on their cables: a flow goes into the first extra round where its
 * source does not send yet, its destination does not receive yet and
 * none of its cables is loaded; else into a new one. Past a limit of
 * rounds, into the first where its ports are free, sharing cables.
 * Cover puts its one-flow-per-cable flows here, all-pairs the flows a
 * shift could not take without sharing a cable.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "burnin/route_plan.h"

static size_t row_len(const struct route_pack *p)
{
	return (size_t)(2 * p->ncas + p->nc);
}

static unsigned char *row(const struct route_pack *p, int r)
{
	return p->busy + (size_t)r * row_len(p);
}

void route_pack_init(struct route_pack *p, const struct route_ctx *c,
		     const struct burnin_schedule *s, int max_rounds)
{
	memset(p, 0, sizeof(*p));
	p->c = c;
	p->nc = burnin_routes_n_cables(c->r);
	p->ncas = burnin_routes_n_cas(c->r);
	p->first_round = s->n_rounds;
	p->max_rounds = max_rounds;
}

void route_pack_free(struct route_pack *p)
{
	free(p->busy);
	p->busy = NULL;
}

static int grow(struct route_pack *p, struct burnin_schedule *s)
{
	unsigned char *b;

	if (p->n == p->cap) {
		p->cap = p->cap ? 2 * p->cap : 4;
		b = realloc(p->busy, row_len(p) * (size_t)p->cap);
		if (!b)
			return -ENOMEM;
		p->busy = b;
	}
	memset(row(p, p->n), 0, row_len(p));
	p->n++;
	return burnin_schedule_new_round(s);
}

/* Inserts pair (a, b) at the end of round r of s (later rounds move). */
static int insert_pair(struct burnin_schedule *s, int r, int a, int b)
{
	int i, at = s->start[r + 1], rc = burnin_schedule_add(s, a, b);

	if (rc)
		return rc;
	memmove(&s->pairs[at + 1], &s->pairs[at],
		(size_t)(s->n_pairs - 1 - at) * sizeof(*s->pairs));
	s->pairs[at] = (struct burnin_pair){ a, b };
	for (i = r + 1; i < s->n_rounds; i++)
		s->start[i]++;
	s->start[s->n_rounds] = s->n_pairs;
	return 0;
}

static bool fits(const struct route_pack *p, const unsigned char *b, int src,
		 int dst, const int *path, int n, bool share)
{
	int i;

	if (b[src] || b[p->ncas + dst])
		return false;
	for (i = 0; !share && i < n; i++)
		if (b[2 * p->ncas + path[i]])
			return false;
	return true;
}

int route_pack_place(struct route_pack *p, struct burnin_schedule *s, int src,
		     int dst, const int *path, int n)
{
	unsigned char *b;
	int r, i, rc;

	for (r = 0; r < p->n; r++)
		if (fits(p, row(p, r), src, dst, path, n, false))
			break;
	/* past the limit: the first round the ports fit, cables shared */
	for (r = r < p->n || p->n < p->max_rounds ? r : 0; r < p->n; r++)
		if (fits(p, row(p, r), src, dst, path, n, true))
			break;
	if (r == p->n && (rc = grow(p, s)))
		return rc;
	b = row(p, r);
	b[src] = b[p->ncas + dst] = 1;
	for (i = 0; i < n; i++)
		b[2 * p->ncas + path[i]] = 1;
	rc = insert_pair(s, p->first_round + r, p->c->inv_of_ca[src],
			 p->c->inv_of_ca[dst]);
	return rc ? rc : 1;
}
