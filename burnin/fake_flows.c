// SPDX-License-Identifier: MIT
/*
 * Max-min fair rates by progressive filling (Bertsekas and Gallager, Data
 * Networks, 6.5.2): every flow not yet frozen grows at the same pace; when
 * a cable fills up, or a flow reaches its own cap, those flows freeze at
 * the level reached and the rest grow on. Each pass freezes at least one
 * flow, so n_flows passes at most, each over the cables and the paths.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "burnin/fake_flows.h"

struct fill {
	double *rem; /* capacity left on each cable */
	double *active; /* shares of the flows not frozen on each cable */
	bool *frozen;
	int left; /* flows not frozen */
};

double burnin_flow_share(const struct burnin_flow *f, int k)
{
	return f->share ? f->share[k] : 1.0;
}

static bool paths_valid(int n_cables, const struct burnin_flow *flows,
			int n_flows)
{
	for (int f = 0; f < n_flows; f++)
		for (int k = 0; k < flows[f].n_path; k++)
			if (flows[f].path[k] < 0 ||
			    flows[f].path[k] >= n_cables)
				return false;
	return true;
}

static bool saturated(const struct fill *s, const double *capacity, int c)
{
	return s->rem[c] <= 1e-9 * fmax(capacity[c], 1.0);
}

/* The largest step every unfrozen flow can still take together. */
static double next_step(const struct fill *s, int n_cables,
			const struct burnin_flow *flows, int n_flows,
			double level)
{
	double d = INFINITY;

	for (int c = 0; c < n_cables; c++)
		if (s->active[c] > 1e-12)
			d = fmin(d, s->rem[c] / s->active[c]);
	for (int f = 0; f < n_flows; f++)
		if (!s->frozen[f] && flows[f].cap > 0)
			d = fmin(d, flows[f].cap - level);
	return d > 0 ? d : 0;
}

static void freeze(struct fill *s, const struct burnin_flow *fl, int f,
		   double level, double *rates)
{
	rates[f] = level;
	s->frozen[f] = true;
	s->left--;
	for (int k = 0; k < fl->n_path; k++)
		s->active[fl->path[k]] -= burnin_flow_share(fl, k);
}

static bool must_freeze(const struct fill *s, const double *capacity,
			const struct burnin_flow *fl, double level)
{
	if (fl->cap > 0 && fl->cap - level <= 1e-9 * fl->cap)
		return true;
	for (int k = 0; k < fl->n_path; k++)
		if (saturated(s, capacity, fl->path[k]))
			return true;
	return false;
}

static void fill_run(struct fill *s, const double *capacity, int n_cables,
		     const struct burnin_flow *flows, int n_flows,
		     double *rates)
{
	double level = 0;

	while (s->left > 0) {
		double d = next_step(s, n_cables, flows, n_flows, level);
		int before = s->left;

		if (isfinite(d)) {
			level += d;
			for (int c = 0; c < n_cables; c++)
				s->rem[c] -= d * s->active[c];
		}
		for (int f = 0; f < n_flows; f++)
			if (!s->frozen[f] &&
			    must_freeze(s, capacity, &flows[f], level))
				freeze(s, &flows[f], f, level, rates);
		if (s->left == before) /* rounding (or a NaN): stop here */
			for (int f = 0; f < n_flows; f++)
				if (!s->frozen[f])
					freeze(s, &flows[f], f, level, rates);
	}
}

int burnin_flows_maxmin(const double *capacity, int n_cables,
			const struct burnin_flow *flows, int n_flows,
			double *rates)
{
	struct fill s = { 0 };
	int ret = -ENOMEM;

	if (!paths_valid(n_cables, flows, n_flows))
		return -EINVAL;
	s.rem = calloc((size_t)n_cables + 1, sizeof(*s.rem));
	s.active = calloc((size_t)n_cables + 1, sizeof(*s.active));
	s.frozen = calloc((size_t)n_flows + 1, sizeof(*s.frozen));
	if (!s.rem || !s.active || !s.frozen)
		goto out;
	for (int c = 0; c < n_cables; c++)
		s.rem[c] = capacity[c] > 0 ? capacity[c] : 0;
	s.left = n_flows;
	for (int f = 0; f < n_flows; f++) {
		for (int k = 0; k < flows[f].n_path; k++)
			s.active[flows[f].path[k]] +=
				burnin_flow_share(&flows[f], k);
		if (!flows[f].n_path && flows[f].cap <= 0)
			freeze(&s, &flows[f], f, 0, rates); /* goes nowhere */
	}
	fill_run(&s, capacity, n_cables, flows, n_flows, rates);
	ret = 0;
out:
	free(s.frozen);
	free(s.active);
	free(s.rem);
	return ret;
}

static uint64_t splitmix64(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ull;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
	return x ^ (x >> 31);
}

bool burnin_flows_dip(uint64_t seed, int cable, long window)
{
	uint64_t h =
		splitmix64(seed ^ splitmix64((uint64_t)cable + 1) ^
			   splitmix64((uint64_t)window * 0x100000001b3ull));

	return h % 4 == 0;
}

void burnin_flows_capacities(const double *base,
			     const struct burnin_flow_fault *faults, int n,
			     uint64_t seed, long window, double *out)
{
	for (int c = 0; c < n; c++) {
		out[c] = base[c];
		if (!faults)
			continue;
		out[c] *= faults[c].slow;
		if (faults[c].flaky != 1 && burnin_flows_dip(seed, c, window))
			out[c] *= faults[c].flaky;
	}
}

bool burnin_flows_any_flaky(const struct burnin_flow_fault *faults,
			    const struct burnin_flow *flows, int n_flows)
{
	for (int f = 0; faults && f < n_flows; f++)
		for (int k = 0; k < flows[f].n_path; k++)
			if (faults[flows[f].path[k]].flaky != 1)
				return true;
	return false;
}

uint32_t burnin_flow_errors(const struct burnin_flow_fault *faults,
			    const struct burnin_flow *flow)
{
	uint32_t n = 0;

	for (int k = 0; faults && k < flow->n_path; k++)
		if (faults[flow->path[k]].errors > n)
			n = faults[flow->path[k]].errors;
	return n;
}
