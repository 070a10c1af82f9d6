// SPDX-License-Identifier: MIT
/*
 * A link that trained down: each port's active rate against its peers'
 * (same link layer and rail), by the plurality rule of common/ibrate.h.
 * Every port in one pass: ports sorted by (link layer, rail, rate), each
 * group's top two rates counted once, and each port judged against them
 * with itself left out. O(n log n). Pure.
 */
#include <errno.h>
#include <stdlib.h>

#include "burnin/burnin.h"
#include "common/ibrate.h"

struct rate_entry {
	int ethernet, rail;
	double gbps;
	int port;
};

static int entry_cmp(const void *x, const void *y)
{
	const struct rate_entry *a = x, *b = y;

	if (a->ethernet != b->ethernet)
		return a->ethernet - b->ethernet;
	if (a->rail != b->rail)
		return a->rail < b->rail ? -1 : 1;
	if (a->gbps != b->gbps)
		return a->gbps < b->gbps ? -1 : 1;
	return a->port - b->port;
}

static bool same_group(const struct rate_entry *a, const struct rate_entry *b)
{
	return a->ethernet == b->ethernet && a->rail == b->rail;
}

/* The first two ports of the group at rate (in inventory order among
 * equal rates): a reference other than the port itself. */
static void ports_at(const struct rate_entry *e, size_t n, double rate,
		     int first[2])
{
	first[0] = first[1] = -1;
	for (size_t k = 0; k < n && first[1] < 0; k++)
		if (e[k].gbps > rate - IB_RATE_EPS &&
		    e[k].gbps < rate + IB_RATE_EPS)
			first[first[0] < 0 ? 0 : 1] = e[k].port;
}

/* One group e[0..n): every port against the others. */
static void judge_group(const struct rate_entry *e, size_t n, double *rates,
			const struct dpath_port *ports,
			struct burnin_rate_ref *out)
{
	struct ib_rate_top top;
	int at[2][2];

	for (size_t k = 0; k < n; k++)
		rates[k] = e[k].gbps;
	ib_rate_top(rates, n, &top);
	for (int t = 0; t < 2; t++)
		ports_at(e, n, top.rate[t], at[t]);
	for (size_t k = 0; k < n; k++) {
		int p = e[k].port;
		struct burnin_rate_ref *o = &out[p];
		double rate;
		size_t count =
			ib_rate_top_without(&top, ports[p].rate_gbps, &rate);
		int t = count && rate != top.rate[0];

		o->n_peers = (int)n - 1;
		o->n_at_rate = (int)count;
		o->ref = -1;
		if (ib_quorum(count, n - 1) &&
		    ports[p].rate_gbps < rate - IB_RATE_EPS)
			o->ref = at[t][0] != p ? at[t][0] : at[t][1];
	}
}

int burnin_link_rate_references(const struct burnin_judge_params *jp,
				const struct dpath_port *ports, int n,
				struct burnin_rate_ref *out)
{
	struct rate_entry *e = calloc((size_t)n + 1, sizeof(*e));
	double *rates = calloc((size_t)n + 1, sizeof(*rates));
	size_t i, j;

	if (!e || !rates) {
		free(e);
		free(rates);
		return -ENOMEM;
	}
	for (int p = 0; p < n; p++) {
		out[p] = (struct burnin_rate_ref){ -1, 0, 0 };
		if (jp->link_rate > 0 &&
		    ports[p].rate_gbps < jp->link_rate - IB_RATE_EPS)
			out[p].ref = p;
		e[p] = (struct rate_entry){ ports[p].ethernet, ports[p].rail,
					    ports[p].rate_gbps, p };
	}
	if (jp->link_rate < 0) {
		qsort(e, (size_t)n, sizeof(*e), entry_cmp);
		for (i = 0; i < (size_t)n; i = j) {
			for (j = i + 1;
			     j < (size_t)n && same_group(&e[i], &e[j]); j++)
				;
			judge_group(&e[i], j - i, rates, ports, out);
		}
	}
	free(e);
	free(rates);
	return 0;
}

int burnin_link_rate_reference(const struct burnin_judge_params *jp,
			       const struct dpath_port *ports, int n, int p,
			       int *n_peers, int *n_at_rate)
{
	struct burnin_rate_ref *out = calloc((size_t)n + 1, sizeof(*out));
	int ref = -1;

	*n_peers = *n_at_rate = 0;
	if (!out || burnin_link_rate_references(jp, ports, n, out)) {
		free(out);
		return -1;
	}
	ref = out[p].ref;
	*n_peers = out[p].n_peers;
	*n_at_rate = out[p].n_at_rate;
	free(out);
	return ref;
}
