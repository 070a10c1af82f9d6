// SPDX-License-Identifier: MIT
/*
 * Schedules: which port pairs meet in which round. Pure functions of the
 * sorted inventory, the spec and the seed, so every rank computes the same
 * rounds without talking to the others.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "burnin/burnin.h"
#include "common/array.h"

void burnin_schedule_free(struct burnin_schedule *s)
{
	free(s->start);
	free(s->pairs);
	memset(s, 0, sizeof(*s));
}

int burnin_schedule_round_size(const struct burnin_schedule *s, int round)
{
	return s->start[round + 1] - s->start[round];
}

int burnin_schedule_new_round(struct burnin_schedule *s)
{
	/* start[] has one entry past the last round */
	if (array_reserve(&s->start, &s->cap_rounds, (size_t)s->n_rounds + 1,
			  sizeof(*s->start)))
		return -ENOMEM;
	if (!s->n_rounds)
		s->start[0] = 0;
	s->n_rounds++;
	s->start[s->n_rounds] = s->n_pairs;
	return 0;
}

int burnin_schedule_add(struct burnin_schedule *s, int a, int b)
{
	if (array_reserve(&s->pairs, &s->cap_pairs, (size_t)s->n_pairs,
			  sizeof(*s->pairs)))
		return -ENOMEM;
	s->pairs[s->n_pairs++] = (struct burnin_pair){ a, b };
	s->start[s->n_rounds] = s->n_pairs;
	return 0;
}

/* Drops the last round if it stayed empty. */
static void drop_empty_round(struct burnin_schedule *s)
{
	if (s->n_rounds && !burnin_schedule_round_size(s, s->n_rounds - 1))
		s->n_rounds--;
}

/* splitmix64: a small, portable, seedable generator. */
static uint64_t next_random(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static void shuffle(int *idx, int n, uint64_t *state)
{
	for (int i = n - 1; i > 0; i--) {
		int j = (int)(next_random(state) % (uint64_t)(i + 1));
		int t = idx[i];

		idx[i] = idx[j];
		idx[j] = t;
	}
}

/*
 * Circle method: m = n rounded up to even; position 0 stays, the others
 * rotate; position p meets position m - 1 - p. Element n is the bye.
 */
static int circle_element(int m, int r, int p)
{
	return p ? ((p - 1 + r) % (m - 1)) + 1 : 0;
}

static int circle_add(struct burnin_schedule *s, const int *idx, int n, int r)
{
	int m = n + (n & 1);

	if (r >= m - 1)
		return 0;
	for (int p = 0; p < m / 2; p++) {
		int x = circle_element(m, r, p),
		    y = circle_element(m, r, m - 1 - p);

		if (x >= n || y >= n)
			continue; /* the bye */
		if ((r + p) & 1) { /* balance who initiates */
			int t = x;
			x = y;
			y = t;
		}
		if (burnin_schedule_add(s, idx[x], idx[y]))
			return -ENOMEM;
	}
	return 0;
}

/*
 * All-pairs within each group (group[i] of port i), group round r merged
 * into schedule round r: groups are disjoint, so rounds stay disjoint.
 */
static int grouped_all_pairs(struct burnin_schedule *s, const int *group, int n,
			     uint64_t seed)
{
	int *idx = malloc((size_t)(n ? n : 1) * sizeof(*idx));
	int n_groups = 0, max_size = 0, ret = -ENOMEM;
	uint64_t state = seed;

	if (!idx)
		return -ENOMEM;
	for (int i = 0; i < n; i++)
		n_groups = group[i] + 1 > n_groups ? group[i] + 1 : n_groups;
	for (int g = 0; g < n_groups; g++) {
		int k = 0;

		for (int i = 0; i < n; i++)
			k += group[i] == g;
		max_size = k > max_size ? k : max_size;
	}
	for (int r = 0; r < max_size - 1 + (max_size & 1); r++) {
		if (burnin_schedule_new_round(s))
			goto out;
		for (int g = 0; g < n_groups; g++) {
			int k = 0;

			for (int i = 0; i < n; i++)
				if (group[i] == g)
					idx[k++] = i;
			state = seed + (uint64_t)g;
			if (seed)
				shuffle(idx, k, &state);
			if (circle_add(s, idx, k, r))
				goto out;
		}
		drop_empty_round(s);
	}
	ret = 0;
out:
	free(idx);
	return ret;
}

/* Numbers distinct keys 0..k-1 in order of first appearance. */
static int group_by(const struct dpath_port *ports, int n, int *group,
		    bool by_host)
{
	int k = 0;

	for (int i = 0; i < n; i++) {
		group[i] = -1;
		for (int j = 0; j < i && group[i] < 0; j++)
			if (by_host ? !strcmp(ports[i].host, ports[j].host)
				    : ports[i].rail == ports[j].rail)
				group[i] = group[j];
		if (group[i] < 0)
			group[i] = k++;
	}
	return k;
}

static int build_grouped(const struct dpath_port *ports, int n, uint64_t seed,
			 struct burnin_schedule *s, int mode)
{
	int *group = calloc((size_t)(n ? n : 1), sizeof(*group));
	int ret;

	if (!group)
		return -ENOMEM;
	if (mode == 1)
		group_by(ports, n, group, false);
	else if (mode == 2)
		group_by(ports, n, group, true);
	ret = grouped_all_pairs(s, group, n, seed);
	free(group);
	return ret;
}

int burnin_schedule_all_pairs(const struct dpath_port *ports, int n,
			      uint64_t seed, struct burnin_schedule *s)
{
	return build_grouped(ports, n, seed, s, 0);
}

int burnin_schedule_rail(const struct dpath_port *ports, int n, uint64_t seed,
			 struct burnin_schedule *s)
{
	s->rail_bound = true;
	return build_grouped(ports, n, seed, s, 1);
}

int burnin_schedule_intra(const struct dpath_port *ports, int n, uint64_t seed,
			  struct burnin_schedule *s)
{
	return build_grouped(ports, n, seed, s, 2);
}

/*
 * mpiGraph's shifts: round k (1 .. n-1) has every port i send to i + k
 * (mod n), so each port is initiator once and target once: full-duplex
 * rounds, and n - 1 of them cover every ordered pair.
 */
int burnin_schedule_shift(int n, struct burnin_schedule *s)
{
	s->duplex = true;
	for (int k = 1; k < n; k++) {
		if (burnin_schedule_new_round(s))
			return -ENOMEM;
		for (int i = 0; i < n; i++)
			if (burnin_schedule_add(s, i, (i + k) % n))
				return -ENOMEM;
	}
	return 0;
}

int burnin_schedule_random(int n, long rounds, uint64_t seed,
			   struct burnin_schedule *s)
{
	int *idx = malloc((size_t)(n ? n : 1) * sizeof(*idx));
	uint64_t state = seed;

	if (!idx)
		return -ENOMEM;
	for (long r = 0; r < rounds; r++) {
		for (int i = 0; i < n; i++)
			idx[i] = i;
		shuffle(idx, n, &state);
		if (burnin_schedule_new_round(s))
			goto nomem;
		for (int i = 0; i + 1 < n; i += 2)
			if (burnin_schedule_add(s, idx[i], idx[i + 1]))
				goto nomem;
		drop_empty_round(s);
	}
	free(idx);
	return 0;
nomem:
	free(idx);
	return -ENOMEM;
}
