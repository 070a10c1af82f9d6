// SPDX-License-Identifier: MIT
/*
 * bench_judge_routes [PORTS...]: judging by route at scale (issue 16,
 * target: 8.4 M pairs <= 30 s). All-pairs of PORTS ports (default 4096:
 * 8,386,560 pairs), bidirectional, on a two-level fat tree of leaves of
 * 32 hosts and 32 spines routed as opensm's ftree does (the flow to host
 * i of a leaf goes up to spine i), each pair with the directed cables of
 * both directions. Planted: a slow up-link (leaf 0 -> spine 1), a slow
 * HCA (port 1000) and a slow down-link (spine 5 -> the leaf before the
 * last, with its host's intra-leaf pairs). Times judge_pairs() and judge_cables() and
 * prints what they blamed; asserts nothing (the verdicts are the unit
 * test's).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "common/clock.h"
#include "judge/cablejudge.h"

#define HOSTS 32 /* a leaf */
#define SPINES 32

struct tree {
	int ports, leaves;
	size_t n_cables;
};

static uint32_t up(const struct tree *t, int leaf, int spine)
{
	(void)t;
	return (uint32_t)(leaf * SPINES + spine);
}

static uint32_t down(const struct tree *t, int spine, int leaf)
{
	return (uint32_t)(t->leaves * SPINES + spine * t->leaves + leaf);
}

static uint32_t host_link(const struct tree *t, int port, int to_leaf)
{
	return (uint32_t)(2 * t->leaves * SPINES + 2 * port + to_leaf);
}

static uint32_t route(const struct tree *t, uint32_t *out, int a, int b)
{
	int la = a / HOSTS, lb = b / HOSTS, spine = b % HOSTS;
	uint32_t n = 0;

	out[n++] = host_link(t, a, 1);
	if (la != lb) {
		out[n++] = up(t, la, spine);
		out[n++] = down(t, spine, lb);
	}
	out[n++] = host_link(t, b, 0);
	return n;
}

struct input {
	struct judge_pair *pairs;
	uint32_t *start, *cables;
	struct judge_cable_in *in;
	size_t n_pairs;
};

static bool slow(const struct tree *t, const uint32_t *path, uint32_t n, int a,
		 int b)
{
	if (a == 1000 || b == 1000)
		return true;
	for (uint32_t j = 0; j < n; j++)
		if (path[j] == up(t, 0, 1) ||
		    path[j] == down(t, 5, t->leaves - 2))
			return true;
	return false;
}

static int generate(const struct tree *t, struct input *in)
{
	size_t max = (size_t)t->ports * (t->ports - 1) / 2, k = 0;
	uint32_t n = 0;

	in->pairs = calloc(max, sizeof(*in->pairs));
	in->start = malloc((max + 1) * sizeof(*in->start));
	in->cables = malloc(max * 8 * sizeof(*in->cables));
	in->in = calloc(t->n_cables, sizeof(*in->in));
	if (!in->pairs || !in->start || !in->cables || !in->in)
		return -1;
	for (size_t c = 0; c < t->n_cables; c++)
		in->in[c].inter_switch = c < (size_t)2 * t->leaves * SPINES;
	for (int a = 0; a < t->ports; a++)
		for (int b = a + 1; b < t->ports; b++, k++) {
			uint32_t first = n;
			float g;

			in->start[k] = n;
			n += route(t, in->cables + n, a, b);
			n += route(t, in->cables + n, b, a);
			g = slow(t, in->cables + first, n - first, a, b)
				    ? 45
				    : 95 + (float)(k % 7) * 0.1f;
			in->pairs[k] = (struct judge_pair){
				.a = (uint32_t)a,
				.b = (uint32_t)b,
				.round = (uint32_t)((a + b) % (t->ports - 1)),
				.bidir = 1,
				.expected = 100,
				.gbps = g,
				.gbps_min = g - 1,
			};
		}
	in->start[k] = n;
	in->n_pairs = k;
	return 0;
}

static void name_cable(const struct tree *t, uint32_t c, char *buf, size_t len)
{
	uint32_t n_up = (uint32_t)(t->leaves * SPINES);

	if (c < n_up)
		snprintf(buf, len, "leaf%u->spine%u", c / SPINES, c % SPINES);
	else
		snprintf(buf, len, "spine%u->leaf%u", (c - n_up) / t->leaves,
			 (c - n_up) % t->leaves);
}

static void print_verdicts(const struct tree *t, const struct judge_result *r,
			   const struct judge_cable_result *cr)
{
	char name[64];

	printf("  blamed ports:");
	for (size_t p = 0; p < r->n_ports; p++)
		if (r->ports[p].blame)
			printf(" %zu", p);
	printf("\n  cables:");
	for (uint32_t c = 0; c < cr->n_cables; c++) {
		const struct judge_cable *v = &cr->cables[c];

		if (v->verdict != JUDGE_CABLE_BLAMED &&
		    v->verdict != JUDGE_CABLE_AMBIGUOUS)
			continue;
		name_cable(t, c, name, sizeof(name));
		printf(" %s %s (%u/%u bad)", name,
		       judge_cable_verdict_name(v->verdict), v->n_bad,
		       v->n_meas);
	}
	printf("\n");
}

static int bench(int ports)
{
	struct tree t = { .ports = ports, .leaves = ports / HOSTS };
	struct judge_params jp;
	struct judge_cable_params cp;
	struct judge_result res;
	struct judge_cable_result cr;
	struct input in = { 0 };
	struct judge_routes rt;
	struct rusage ru;
	double t0, t_pairs, t_cables, cpu_pairs, cpu_cables;
	clock_t c0;

	t.n_cables = (size_t)2 * t.leaves * SPINES + 2 * (size_t)ports;
	if (ports < 2 * HOSTS || ports % HOSTS || generate(&t, &in)) {
		printf("%d ports: cannot generate (a multiple of %d, >= %d)\n",
		       ports, HOSTS, 2 * HOSTS);
		return 1;
	}
	rt = (struct judge_routes){ in.start, in.cables, in.in, t.n_cables };
	judge_defaults(&jp);
	judge_cable_defaults(&cp);
	c0 = clock();
	t0 = clock_mono_now();
	if (judge_pairs(&jp, in.pairs, in.n_pairs, (size_t)ports, &res))
		return 1;
	t_pairs = clock_mono_now() - t0;
	cpu_pairs = (double)(clock() - c0) / CLOCKS_PER_SEC;
	c0 = clock();
	t0 = clock_mono_now();
	if (judge_cables(&cp, in.pairs, &rt, &res, &cr))
		return 1;
	t_cables = clock_mono_now() - t0;
	cpu_cables = (double)(clock() - c0) / CLOCKS_PER_SEC;
	getrusage(RUSAGE_SELF, &ru);
	printf("%5d ports, %8zu pairs, %9u path cables: judge_pairs %6.2f s, judge_cables %6.2f s, total %6.2f s, peak RSS %5.0f MB\n",
	       ports, in.n_pairs, in.start[in.n_pairs], t_pairs, t_cables,
	       t_pairs + t_cables, ru.ru_maxrss / 1024.0);
	/* the CPU the thread used: on a shared host, what the wall hides */
	printf("  CPU: judge_pairs %6.2f s, judge_cables %6.2f s\n", cpu_pairs,
	       cpu_cables);
	print_verdicts(&t, &res, &cr);
	judge_cable_result_free(&cr);
	judge_result_free(&res);
	free(in.pairs);
	free(in.start);
	free(in.cables);
	free(in.in);
	return 0;
}

int main(int argc, char **argv)
{
	int ret = 0;

	if (argc < 2)
		return bench(4096);
	for (int i = 1; i < argc; i++) {
		char *end;
		long ports = strtol(argv[i], &end, 10);

		if (*end || ports < 0 || ports > 65536) {
			fprintf(stderr,
				"bench_judge_routes: '%s': expected a port count\n",
				argv[i]);
			return 2;
		}
		ret |= bench((int)ports);
	}
	return ret;
}
