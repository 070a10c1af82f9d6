/* SPDX-License-Identifier: MIT */
#ifndef IBPROOF_BURNIN_FAKE_FLOWS_H
#define IBPROOF_BURNIN_FAKE_FLOWS_H

/*
 * The fake fabric's flow model (issue 16): directed cables with a
 * capacity, flows each crossing a list of cables and optionally capped on
 * their own (the HCA's rate, a planted slow HCA). Every flow gets its
 * max-min fair rate: no flow can go faster without slowing one that is
 * no faster. Pure: no I/O, no globals; the fake transport's fabric
 * (fake_fabric.c) feeds it the routes of one step's flows.
 *
 * Planted cable faults act on the capacities: slow (capacity x F for the
 * whole run), flaky (capacity x F in some 100 ms windows, which ones a
 * pure function of the seed, the cable and the window), errors (N error
 * completions for each flow through the cable).
 *
 * A flow spread over several paths (adaptive routing, packet by packet,
 * evenly) crosses each of its cables with a share: at rate R it puts
 * R x share on the cable. The filling is then weighted by the shares.
 */
#include <stdbool.h>
#include <stdint.h>

struct burnin_flow {
	const int *path; /* cable indexes, in order */
	int n_path;
	double cap; /* the flow's own limit in Gb/s; <= 0: none */
	/* spread by adaptive routing (burnin_routes_spread()): each cable
	 * once with the share of the flow it carries; NULL: 1 on each */
	const double *share;
};

/* The share of flow f on its k-th cable. */
double burnin_flow_share(const struct burnin_flow *f, int k);

/* A cable's planted faults; burnin_flow_cable_none() is a healthy one. */
struct burnin_flow_fault {
	double slow; /* capacity factor, 1: healthy */
	double flaky; /* capacity factor in its dip windows, 1: none */
	uint32_t errors; /* error completions per flow through it */
};

/*
 * rates[f] = flow f's max-min fair rate over capacity[n_cables] (Gb/s).
 * A flow with no cable and no cap gets 0 (it goes nowhere). 0; -EINVAL a
 * path naming a cable outside 0..n_cables-1; -ENOMEM.
 */
int burnin_flows_maxmin(const double *capacity, int n_cables,
			const struct burnin_flow *flows, int n_flows,
			double *rates);

/* Whether a flaky cable dips in window w (about 1 window in 4). */
bool burnin_flows_dip(uint64_t seed, int cable, long window);

/*
 * The capacities of window w: base x slow, x flaky where the cable dips
 * (faults NULL: base as it is).
 */
void burnin_flows_capacities(const double *base,
			     const struct burnin_flow_fault *faults, int n,
			     uint64_t seed, long window, double *out);

/* Whether any flow's path crosses a flaky cable (windows differ). */
bool burnin_flows_any_flaky(const struct burnin_flow_fault *faults,
			    const struct burnin_flow *flows, int n_flows);

/* The error completions planted on a flow's path (the largest). */
uint32_t burnin_flow_errors(const struct burnin_flow_fault *faults,
			    const struct burnin_flow *flow);

#endif
