// SPDX-License-Identifier: MIT
/* Judging by route on rank 0: the paths of the pairs from the routes,
 * then the one cable judge (route_judge.h); and the retests that tell
 * apart the candidates of its ambiguous findings. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "burnin/burnin.h"
#include "burnin/route_judge.h"
#include "common/array.h"

#define MAX_PATH 64
/* Where a group's separating pairs end: at most this many of the CAs its
 * cables carry traffic to (each is tried with every free port: a group
 * no pair separates costs MAX_ENDS x ports paths) */
#define MAX_ENDS 16

struct paths {
	uint32_t *start, *cables;
	size_t n, cap;
	uint8_t *adaptive; /* per pair: burnin_path_adaptive() */
	int sl;
};

/* Appends the path of CA src to CA dst (pair i's); none when the routes
 * lack it. */
static int add_path(const struct burnin_routes *r, int src, int dst,
		    struct paths *p, size_t i)
{
	int cables[MAX_PATH], n;

	if (src < 0 || dst < 0)
		return 0;
	n = burnin_routes_path(r, src, dst, cables, MAX_PATH);
	if (n <= 0)
		return 0;
	p->adaptive[i] |= burnin_path_adaptive(r, cables, n, p->sl);
	if (array_reserve(&p->cables, &p->cap, p->n + (size_t)n,
			  sizeof(*p->cables)))
		return -ENOMEM;
	for (int k = 0; k < n; k++)
		p->cables[p->n++] = (uint32_t)cables[k];
	return 0;
}

static int pair_paths(const struct burnin_routes *r, const int *ca,
		      size_t n_ports, const struct judge_pair *pairs,
		      size_t n_pairs, struct paths *p)
{
	p->start = malloc((n_pairs + 1) * sizeof(*p->start));
	p->adaptive = calloc(n_pairs + 1, 1);
	if (!p->start || !p->adaptive)
		return -ENOMEM;
	for (size_t i = 0; i < n_pairs; i++) {
		const struct judge_pair *pr = &pairs[i];
		int a = pr->a < n_ports ? ca[pr->a] : -1;
		int b = pr->b < n_ports ? ca[pr->b] : -1;

		p->start[i] = (uint32_t)p->n;
		if (add_path(r, a, b, p, i) ||
		    (pr->bidir && add_path(r, b, a, p, i)))
			return -ENOMEM;
	}
	p->start[n_pairs] = (uint32_t)p->n;
	return 0;
}

int burnin_route_judge(const struct burnin_routes *r, const int *ca,
		       size_t n_ports, const struct judge_pair *pairs,
		       const uint64_t *err_delta,
		       const struct burnin_route_trust *trust,
		       struct judge_result *res, struct judge_cable_result *out)
{
	size_t n_cables = (size_t)burnin_routes_n_cables(r);
	struct judge_cable_in *in = calloc(n_cables + 1, sizeof(*in));
	uint64_t *key = malloc((n_ports + 1) * sizeof(*key));
	struct paths p = { .sl = trust ? trust->sl : 0 };
	struct judge_cable_params cp;
	int ret = -ENOMEM;

	if (!in || !key || pair_paths(r, ca, n_ports, pairs, res->n_pairs, &p))
		goto out;
	for (size_t q = 0; q < n_ports; q++) /* as the report keys them */
		key[q] = ca[q] >= 0 ? burnin_routes_ca(r, ca[q])->port_guid
				    : UINT64_MAX - q;
	for (size_t c = 0; c < n_cables; c++)
		in[c] = (struct judge_cable_in){
			.id_guid = burnin_routes_cable(r, (int)c)->from_guid,
			.id_port = (uint32_t)burnin_routes_cable(r, (int)c)
					   ->from_port,
			.inter_switch =
				burnin_routes_cable(r, (int)c)->inter_switch,
			.has_counters = err_delta &&
					err_delta[c] != BURNIN_CABLE_ERR_UNREAD,
			.err_delta =
				err_delta && err_delta[c] !=
							BURNIN_CABLE_ERR_UNREAD
					? err_delta[c]
					: 0,
		};
	judge_cable_defaults(&cp);
	ret = judge_cables(
		&cp, pairs,
		&(struct judge_routes){
			.path_start = p.start,
			.path_cables = p.cables,
			.cables = in,
			.n_cables = n_cables,
			.port_key = key,
			.adaptive = p.adaptive,
			.unfollowed = trust ? trust->unfollowed : NULL,
			.n_unfollowed = trust ? trust->n_unfollowed : 0,
		},
		res, out);
out:
	free(in);
	free(key);
	free(p.adaptive);
	free(p.start);
	free(p.cables);
	return ret;
}

/* ---- retests that tell apart what the evidence fits equally ---- */

struct separate {
	const struct burnin_routes *r;
	const int *ca;
	int n_ports;
	bool bidir;
	int sl; /* a path adaptive on it separates nothing */
	int *port_of; /* per CA of the routes: its port, -1 none */
	int *cand; /* per cable: its candidate index + 1 in the group */
	uint64_t sig[64]; /* per candidate: the pairs taken that cross it */
	int n_cand, or_port; /* or_port: the port candidate, -1 none */
};

/* Marks in hit[] the candidates the flow CA src -> CA dst crosses; false
 * when the routes have no path for it (another rail's fabric, a dead port)
 * or its path is adaptive (not the one it would take). */
static bool crossed(const struct separate *x, int src, int dst, bool *hit)
{
	int cables[MAX_PATH],
		n = burnin_routes_path(x->r, src, dst, cables, MAX_PATH);

	if (n > 0 && burnin_path_adaptive(x->r, cables, n, x->sl))
		return false;
	for (int k = 0; k < n; k++)
		if (x->cand[cables[k]])
			hit[x->cand[cables[k]] - 1] = true;
	return n > 0;
}

/* Does pair (a, b), routed, split two candidates no pair taken tells
 * apart? Then it is taken: their signatures get its bit. */
static bool splits(struct separate *x, int a, int b, int bit)
{
	bool hit[64] = { false }, any = false;

	if (!crossed(x, x->ca[a], x->ca[b], hit) ||
	    (x->bidir && !crossed(x, x->ca[b], x->ca[a], hit)))
		return false;
	if (x->or_port >= 0)
		hit[x->n_cand - 1] = a == x->or_port || b == x->or_port;
	for (int i = 0; i < x->n_cand && !any; i++)
		for (int j = i + 1; j < x->n_cand && !any; j++)
			any = x->sig[i] == x->sig[j] && hit[i] != hit[j];
	for (int i = 0; any && i < x->n_cand; i++)
		x->sig[i] |= (uint64_t)hit[i] << bit;
	return any;
}

static bool told_apart(const struct separate *x)
{
	for (int i = 0; i < x->n_cand; i++)
		for (int j = i + 1; j < x->n_cand; j++)
			if (x->sig[i] == x->sig[j])
				return false;
	return true;
}

/* The CAs the group's cables carry traffic to (and its port's), as
 * ports: the ends a separating pair is looked for at. */
static int group_ends(const struct separate *x, const uint32_t *cables,
		      uint32_t n, int *ends, int max)
{
	int k = 0, cas[64];

	if (x->or_port >= 0)
		ends[k++] = x->or_port;
	for (uint32_t m = 0; m < n && k < max; m++) {
		int got =
			burnin_routes_cable_dsts(x->r, (int)cables[m], cas, 64);

		for (int i = 0; i < got && i < 64 && k < max; i++)
			if (x->port_of[cas[i]] >= 0)
				ends[k++] = x->port_of[cas[i]];
	}
	return k;
}

/* Pairs for one group: ends where its cables' traffic goes, any partner. */
static int separate_group(struct separate *x,
			  const struct judge_cable_result *cr,
			  const struct judge_cable_group *g, bool *used,
			  struct burnin_schedule *s)
{
	const uint32_t *cables = cr->members + g->first;
	int ends[MAX_ENDS], n_ends, added = 0;

	x->or_port = g->or_port != JUDGE_NO_PORT && (int)g->or_port < x->n_ports
			     ? (int)g->or_port
			     : -1;
	x->n_cand = (int)g->n + (x->or_port >= 0);
	if (x->n_cand < 2 || x->n_cand > 63)
		return 0;
	memset(x->sig, 0, sizeof(x->sig));
	for (uint32_t m = 0; m < g->n; m++)
		x->cand[cables[m]] = (int)m + 1;
	n_ends = group_ends(x, cables, g->n, ends, MAX_ENDS);
	for (int e = 0; e < n_ends && !told_apart(x); e++)
		for (int q = 0; q < x->n_ports && !told_apart(x); q++) {
			int b = ends[e];

			if (used[b] || used[q] || q == b || x->ca[q] < 0 ||
			    x->ca[b] < 0 || !splits(x, q, b, added))
				continue;
			if (burnin_schedule_add(s, q, b))
				return -ENOMEM;
			used[q] = used[b] = true;
			added++;
		}
	for (uint32_t m = 0; m < g->n; m++)
		x->cand[cables[m]] = 0;
	return added;
}

int burnin_route_separate(const struct burnin_routes *r, const int *ca,
			  int n_ports, const struct judge_cable_result *cr,
			  bool bidir, int sl, bool *used,
			  struct burnin_schedule *s)
{
	int n_cas = burnin_routes_n_cas(r), added = 0;
	struct separate x = {
		.r = r,
		.ca = ca,
		.n_ports = n_ports,
		.bidir = bidir,
		.sl = sl,
		.port_of = malloc((size_t)(n_cas + 1) * sizeof(int)),
		.cand = calloc((size_t)burnin_routes_n_cables(r) + 1,
			       sizeof(int)),
	};

	if (!x.port_of || !x.cand) {
		added = -ENOMEM;
		goto out;
	}
	for (int c = 0; c < n_cas; c++)
		x.port_of[c] = -1;
	for (int p = 0; p < n_ports; p++)
		if (ca[p] >= 0 && ca[p] < n_cas)
			x.port_of[ca[p]] = p;
	for (size_t g = 0; g < cr->n_groups && added >= 0; g++) {
		int n;

		if (cr->groups[g].verdict != JUDGE_CABLE_AMBIGUOUS)
			continue;
		n = separate_group(&x, cr, &cr->groups[g], used, s);
		added = n < 0 ? n : added + n;
	}
out:
	free(x.port_of);
	free(x.cand);
	return added;
}
