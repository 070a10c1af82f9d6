// SPDX-License-Identifier: MIT
/*
 * bench_fake_flows [PORTS...]: the fake fabric's flow model
 * (burnin/fake_flows.c) on one round of a two-level fat tree of PORTS
 * hosts (default 1024 2048 4096; 32 hosts per leaf, 32 spines, ftree-like
 * routes: a flow to the host in position j of its leaf goes up through
 * spine j). Two rounds each: a shift (every cable once, no sharing) and
 * a random perfect matching (route-blind: cables shared). Prints the
 * model's time per round (the best of 5), i.e. what each measuring rank pays per window
 * of a flaky run and once per test otherwise. Asserts nothing.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "burnin/fake_flows.h"
#include "common/clock.h"

enum { HOSTS_PER_LEAF = 32, SPINES = 32 };

/* Cables: host up-links, host down-links, leaf->spine, spine->leaf. */
static int up_host(int h)
{
	return h;
}
static int down_host(int n, int h)
{
	return n + h;
}
static int leaf_up(int n, int leaf, int s)
{
	return 2 * n + leaf * SPINES + s;
}
static int spine_down(int n, int leaves, int leaf, int s)
{
	return 2 * n + leaves * SPINES + leaf * SPINES + s;
}

static int route(int n, int src, int dst, int *path)
{
	int leaves = n / HOSTS_PER_LEAF, ls = src / HOSTS_PER_LEAF,
	    ld = dst / HOSTS_PER_LEAF, j = dst % HOSTS_PER_LEAF;

	path[0] = up_host(src);
	if (ls == ld) {
		path[1] = down_host(n, dst);
		return 2;
	}
	path[1] = leaf_up(n, ls, j % SPINES);
	path[2] = spine_down(n, leaves, ld, j % SPINES);
	path[3] = down_host(n, dst);
	return 4;
}

/* The best of 5 (a shared machine's noise only adds). */
static double round_ms(int n, const int *partner, double *cap, int *paths,
		       struct burnin_flow *flows, double *rates)
{
	double best = INFINITY;

	for (int i = 0; i < n; i++) {
		flows[i].path = &paths[4 * i];
		flows[i].n_path = route(n, i, partner[i], &paths[4 * i]);
		flows[i].cap = 0;
	}
	for (int k = 0; k < 5; k++) {
		double t0 = clock_mono_now();

		if (burnin_flows_maxmin(
			    cap, 2 * n + 2 * (n / HOSTS_PER_LEAF) * SPINES,
			    flows, n, rates))
			return NAN;
		best = fmin(best, (clock_mono_now() - t0) * 1e3);
	}
	return best;
}

static void bench(int n)
{
	int n_cables = 2 * n + 2 * (n / HOSTS_PER_LEAF) * SPINES;
	double *cap = malloc(sizeof(*cap) * (size_t)n_cables);
	int *paths = malloc(sizeof(*paths) * 4 * (size_t)n);
	int *partner = calloc((size_t)n, sizeof(*partner));
	struct burnin_flow *flows = malloc(sizeof(*flows) * (size_t)n);
	double *rates = malloc(sizeof(*rates) * (size_t)n), shift, rnd, min;

	if (!cap || !paths || !partner || !flows || !rates)
		goto out;
	for (int c = 0; c < n_cables; c++)
		cap[c] = 400;
	for (int i = 0; i < n; i++)
		partner[i] = (i + HOSTS_PER_LEAF) % n;
	shift = round_ms(n, partner, cap, paths, flows, rates);
	srand(1);
	for (int i = 0; i < n; i++)
		partner[i] = i;
	for (int i = n - 1; i > 0; i--) { /* a random permutation, no self */
		int j = rand() % i, t = partner[i];

		partner[i] = partner[j];
		partner[j] = t;
	}
	rnd = round_ms(n, partner, cap, paths, flows, rates);
	min = rates[0];
	for (int i = 1; i < n; i++)
		min = fmin(min, rates[i]);
	printf("%5d ports, %6d cables: shift round %8.2f ms, random round %8.2f ms (slowest flow %.0f Gb/s)\n",
	       n, n_cables, shift, rnd, min);
out:
	free(rates);
	free(flows);
	free(partner);
	free(paths);
	free(cap);
}

int main(int argc, char **argv)
{
	static const int sizes[] = { 1024, 2048, 4096 };

	if (argc > 1)
		for (int i = 1; i < argc; i++)
			bench((int)strtol(argv[i], NULL, 10) / HOSTS_PER_LEAF *
			      HOSTS_PER_LEAF);
	else
		for (size_t i = 0; i < sizeof(sizes) / sizeof(*sizes); i++)
			bench(sizes[i]);
	return 0;
}
