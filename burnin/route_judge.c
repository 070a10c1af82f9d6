// SPDX-License-Identifier: MIT
/* Judging by route on rank 0: the paths of the pairs from the routes,
 * then the one cable judge (route_judge.h). */
#include <errno.h>
#include <stdlib.h>

#include "burnin/burnin.h"
#include "burnin/route_judge.h"
#include "common/array.h"

#define MAX_PATH 64

struct paths {
	uint32_t *start, *cables;
	size_t n, cap;
};

/* Appends the path of CA src to CA dst; none when the routes lack it. */
static int add_path(const struct burnin_routes *r, int src, int dst,
		    struct paths *p)
{
	int cables[MAX_PATH], n;

	if (src < 0 || dst < 0)
		return 0;
	n = burnin_routes_path(r, src, dst, cables, MAX_PATH);
	if (n <= 0)
		return 0;
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
	if (!p->start)
		return -ENOMEM;
	for (size_t i = 0; i < n_pairs; i++) {
		const struct judge_pair *pr = &pairs[i];
		int a = pr->a < n_ports ? ca[pr->a] : -1;
		int b = pr->b < n_ports ? ca[pr->b] : -1;

		p->start[i] = (uint32_t)p->n;
		if (add_path(r, a, b, p) || (pr->bidir && add_path(r, b, a, p)))
			return -ENOMEM;
	}
	p->start[n_pairs] = (uint32_t)p->n;
	return 0;
}

int burnin_route_judge(const struct burnin_routes *r, const int *ca,
		       size_t n_ports, const struct judge_pair *pairs,
		       const uint64_t *err_delta, struct judge_result *res,
		       struct judge_cable_result *out)
{
	size_t n_cables = (size_t)burnin_routes_n_cables(r);
	struct judge_cable_in *in = calloc(n_cables + 1, sizeof(*in));
	uint64_t *key = malloc((n_ports + 1) * sizeof(*key));
	struct paths p = { 0 };
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
		&(struct judge_routes){ p.start, p.cables, in, n_cables, key },
		res, out);
out:
	free(in);
	free(key);
	free(p.start);
	free(p.cables);
	return ret;
}
