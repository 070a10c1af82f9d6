// SPDX-License-Identifier: MIT
/*
 * bench_route_plan: the route-aware planner at scale (issue 16). Fat trees
 * generated in memory and routed d-mod-k as opensm's ftree does: two
 * levels up to 4,096 hosts (32 hosts and 32 up-links per leaf, 32
 * spines), three levels from 8,192 (pods of 32 leaves and 32 aggregation
 * switches, 32 planes of 32 cores). Per size: the model, the derived host
 * order, cover and route-aware all-pairs (not past 4,096 hosts: N^2
 * paths), rounds, cables loaded / contended / unreachable, cables the
 * plan tells apart (identifiable, host links included, issue 31), peak
 * RSS.
 *
 * --minhop routes as opensm's minhop balances: every switch gives each
 * destination LID, in LID order, the least-used of its min-hop ports,
 * with the host LIDs in a seeded random order (a subnet manager numbers
 * them as its sweep finds them, not leaf by leaf). Destinations then
 * reach a leaf through different spines from different leaves, so some
 * down-links carry more flows than all-pairs has shifts: all-pairs packs
 * extra rounds.
 *
 * --max-rounds N caps all-pairs' rounds as burnin's option does.
 *
 *   bench_route_plan [--minhop] [--max-rounds N] [HOSTS...]
 *                    default 1024 2048 4096 32768
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "burnin/route_plan.h"
#include "common/clock.h"
#include "common/ibport.h"
#include "common/ibrate.h"
#include "fabric/fabric_model.h"
#include "fabric/fabric_route.h"

#define K 32 /* hosts per leaf, up-links per switch */

static bool minhop; /* --minhop */
static int max_rounds; /* --max-rounds N */

struct tree {
	struct fabric *m;
	struct fabric_routes fr;
	int hosts, pods, levels;
	struct fabric_node **ca, **leaf, **agg, **core;
	int n_leaf, n_agg, n_core;
};

static void port_up(struct fabric_port *p, uint16_t lid)
{
	p->valid = true;
	p->lid = lid;
	p->state = IB_PORT_STATE_ACTIVE;
	p->phys_state = IB_PHYS_STATE_LINKUP;
	p->width = 4;
	p->speed = IB_SPEED_NDR;
	p->guid = p->node->guid + (uint64_t)p->num;
}

static void cable(struct fabric_node *a, int pa, struct fabric_node *b, int pb)
{
	port_up(&a->ports[pa], a->type == FABRIC_NODE_SWITCH ? 0 : a->lid);
	port_up(&b->ports[pb], b->type == FABRIC_NODE_SWITCH ? 0 : b->lid);
	fabric_connect(&a->ports[pa], &b->ports[pb]);
}

static struct fabric_node *sw(struct tree *t, uint64_t id, const char *what,
			      int i, int nports, uint16_t lid)
{
	char name[48];
	struct fabric_node *n;

	snprintf(name, sizeof(name), "%s%04d", what, i);
	n = fabric_add_node(t->m, 0x0002c90300000000ULL + id * 256,
			    FABRIC_NODE_SWITCH, name, nports);
	if (!n) {
		fprintf(stderr, "out of memory\n");
		exit(1);
	}
	n->lid = lid;
	n->ports[0].lid = lid;
	n->ports[0].valid = true;
	return n;
}

/* The host LIDs in a seeded random order (Fisher-Yates, splitmix64). */
static void shuffle_lids(struct tree *t)
{
	uint64_t x = 16, z;
	uint16_t lid;
	int i, j;

	for (i = t->hosts - 1; i > 0; i--) {
		z = (x += 0x9e3779b97f4a7c15ull);
		z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
		z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
		j = (int)((z ^ (z >> 31)) % (uint64_t)(i + 1));
		lid = t->ca[i]->lid;
		t->ca[i]->lid = t->ca[j]->lid;
		t->ca[j]->lid = lid;
	}
}

static void make_nodes(struct tree *t)
{
	char name[48];
	int i, lid = 1, id = 1;
	int down = t->levels == 2 ? t->n_leaf : K;
	int up = t->levels == 2 ? 0 : t->pods;

	t->ca = calloc((size_t)t->hosts, sizeof(*t->ca));
	t->leaf = calloc((size_t)t->n_leaf, sizeof(*t->leaf));
	t->agg = calloc((size_t)t->n_agg + 1, sizeof(*t->agg));
	t->core = calloc((size_t)t->n_core + 1, sizeof(*t->core));
	for (i = 0; i < t->hosts; i++) {
		snprintf(name, sizeof(name), "node%05d mlx5_0", i + 1);
		t->ca[i] = fabric_add_node(
			t->m, 0x0008f10400000000ULL + (uint64_t)i * 16,
			FABRIC_NODE_CA, name, 1);
		t->ca[i]->lid = (uint16_t)lid++;
	}
	if (minhop)
		shuffle_lids(t);
	for (i = 0; i < t->n_leaf; i++)
		t->leaf[i] = sw(t, (uint64_t)id++, "leaf", i, 2 * K,
				(uint16_t)lid++);
	for (i = 0; i < t->n_agg; i++)
		t->agg[i] =
			sw(t, (uint64_t)id++, t->levels == 2 ? "spine" : "agg",
			   i, t->levels == 2 ? down : 2 * K, (uint16_t)lid++);
	for (i = 0; i < t->n_core; i++)
		t->core[i] =
			sw(t, (uint64_t)id++, "core", i, up, (uint16_t)lid++);
}

/* Leaf l port 1..K hosts, K+1..2K up; agg a of pod p: 1..K leaves,
 * K+1..2K cores; two levels: spine s port l+1 is leaf l's up-link s. */
static void make_cables(struct tree *t)
{
	int i, l, a, c, p;

	for (i = 0; i < t->hosts; i++)
		cable(t->ca[i], 1, t->leaf[i / K], i % K + 1);
	for (l = 0; l < t->n_leaf; l++)
		for (a = 0; a < K; a++) {
			p = t->levels == 2 ? 0 : l / K;
			cable(t->leaf[l], K + 1 + a, t->agg[p * K + a],
			      t->levels == 2 ? l + 1 : l % K + 1);
		}
	for (i = 0; t->levels == 3 && i < t->n_agg; i++)
		for (c = 0; c < K; c++)
			cable(t->agg[i], K + 1 + c, t->core[(i % K) * K + c],
			      i / K + 1);
}

/* d-mod-k: up through (d / K^level) mod K, down straight to d. */
static int route_to(const struct tree *t, const struct fabric_node *n, int kind,
		    int idx, int d)
{
	int leaf = d / K, pod = d / (K * K);

	if (kind == 0) /* leaf */
		return leaf == idx ? d % K + 1 : K + 1 + d % K;
	if (kind == 1 && t->levels == 2) /* spine */
		return leaf + 1;
	if (kind == 1) /* agg */
		return pod == idx / K ? leaf % K + 1 : K + 1 + leaf % K;
	(void)n;
	return pod + 1; /* core */
}

/* minhop: an up-port (K+1..2K) is the least used so far, the lowest on a
 * tie; a way down is the one port. Destinations in LID order. */
static void minhop_table(struct tree *t, struct fabric_node *n, int kind,
			 int idx, uint8_t *ports)
{
	int used[256] = { 0 }, lid, d, p, best;
	int *of_lid = calloc((size_t)t->hosts + 2, sizeof(int));

	if (!of_lid) {
		fprintf(stderr, "out of memory\n");
		exit(1);
	}
	for (d = 0; d < t->hosts; d++)
		of_lid[t->ca[d]->lid] = d;
	for (lid = 1; lid <= t->hosts; lid++) {
		d = of_lid[lid];
		best = route_to(t, n, kind, idx, d);
		if (best > K && (kind == 0 || (kind == 1 && t->levels == 3)))
			for (p = K + 1; p <= 2 * K; p++)
				if (used[p] < used[best] ||
				    (used[p] == used[best] && p < best))
					best = p;
		used[best]++;
		ports[lid] = (uint8_t)best;
	}
	free(of_lid);
}

static void set_table(struct tree *t, struct fabric_node *n, int kind, int idx,
		      uint8_t *ports, uint16_t top)
{
	int d;

	memset(ports, FABRIC_LFT_NONE, (size_t)top + 1);
	for (d = 0; !minhop && d < t->hosts; d++)
		ports[t->ca[d]->lid] = (uint8_t)route_to(t, n, kind, idx, d);
	if (minhop)
		minhop_table(t, n, kind, idx, ports);
	ports[n->lid] = 0;
	if (fabric_routes_set(&t->fr, n, top, ports)) {
		fprintf(stderr, "out of memory\n");
		exit(1);
	}
}

static void make_tables(struct tree *t)
{
	uint16_t top = (uint16_t)(t->hosts + t->n_leaf + t->n_agg + t->n_core);
	uint8_t *ports = malloc((size_t)top + 1);
	int i;

	if (!ports || fabric_routes_init(&t->fr, t->m)) {
		fprintf(stderr, "out of memory\n");
		exit(1);
	}
	for (i = 0; i < t->n_leaf; i++)
		set_table(t, t->leaf[i], 0, i, ports, top);
	for (i = 0; i < t->n_agg; i++)
		set_table(t, t->agg[i], 1, i, ports, top);
	for (i = 0; i < t->n_core; i++)
		set_table(t, t->core[i], 2, i, ports, top);
	free(ports);
}

static struct burnin_routes *generate(int hosts)
{
	struct tree t = { .hosts = hosts };
	struct burnin_routes *r;

	t.m = fabric_new();
	t.n_leaf = hosts / K;
	t.levels = hosts > 4096 ? 3 : 2;
	t.pods = t.levels == 3 ? t.n_leaf / K : 1;
	t.n_agg = t.levels == 3 ? t.pods * K : K;
	t.n_core = t.levels == 3 ? K * K : 0;
	make_nodes(&t);
	make_cables(&t);
	make_tables(&t);
	free(t.ca);
	free(t.leaf);
	free(t.agg);
	free(t.core);
	if (burnin_routes_adopt(t.m, &t.fr, &r)) {
		fprintf(stderr, "out of memory\n");
		exit(1);
	}
	return r;
}

static struct dpath_port *inventory(const struct burnin_routes *r)
{
	int i, n = burnin_routes_n_cas(r);
	struct dpath_port *inv = calloc((size_t)n, sizeof(*inv));

	for (i = 0; inv && i < n; i++) {
		snprintf(inv[i].host, sizeof(inv[i].host), "node%05d", i + 1);
		snprintf(inv[i].ca, sizeof(inv[i].ca), "mlx5_0");
		inv[i].port = 1;
		inv[i].guid = burnin_routes_ca(r, i)->port_guid;
	}
	return inv;
}

static long rss_mib(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_maxrss / 1024;
}

static void report(const char *what, int hosts, double secs,
		   const struct route_ctx *c, const struct burnin_schedule *s)
{
	struct route_cert cert;
	double t0 = clock_mono_now();

	if (route_cert_build(c, s, &cert)) {
		fprintf(stderr, "out of memory\n");
		exit(1);
	}
	printf("%6d %-9s %8.2f s %5d rounds  cables %6d loaded %6d contended "
	       "%4d (in %d rounds) unreachable %4d up-single %4d identifiable "
	       "%d of %d (%d groups)  (certificate %.2f s) RSS %ld MiB\n",
	       hosts, what, secs, s->n_rounds, cert.inter, cert.loaded,
	       cert.contended_cables, cert.contended_rounds, cert.unreachable,
	       cert.up_single, cert.ident.identifiable, cert.ident.loaded,
	       cert.ident.groups, clock_mono_now() - t0, rss_mib());
	fflush(stdout);
	route_cert_free(&cert);
}

static void bench(int hosts)
{
	struct burnin_schedule s = { 0 };
	struct burnin_routes *r;
	struct dpath_port *inv;
	struct route_bound b;
	struct route_ctx c;
	char err[256];
	double t0 = clock_mono_now(), t1;

	r = generate(hosts);
	inv = inventory(r);
	if (!inv || route_ctx_init(&c, r, inv, hosts) ||
	    route_order_build(&c, NULL, err, sizeof(err))) {
		fprintf(stderr, "%d hosts: setup failed\n", hosts);
		exit(1);
	}
	t1 = clock_mono_now();
	printf("%6d model     %8.2f s  %d cables, %d CA ports, order %d slots\n",
	       hosts, t1 - t0, burnin_routes_n_cables(r),
	       burnin_routes_n_cas(r), c.n_slots);
	if (route_cover(&c, 0, &s))
		exit(1);
	report("cover", hosts, clock_mono_now() - t1, &c, &s);
	burnin_schedule_free(&s);
	if (hosts <= 4096) {
		t1 = clock_mono_now();
		if (route_all_pairs(&c, max_rounds, &s, &b))
			exit(1);
		report("all-pairs", hosts, clock_mono_now() - t1, &c, &s);
		printf("%6d all-pairs lower bound %d rounds (busiest cable %d "
		       "flows): %d shifts + %d packed, %d flows sharing\n",
		       hosts, b.lower, b.flows, b.shifts, b.extra, b.shared);
		burnin_schedule_free(&s);
	}
	route_ctx_free(&c);
	burnin_routes_free(r);
	free(inv);
}

int main(int argc, char **argv)
{
	static const int sizes[] = { 1024, 2048, 4096, 32768 };
	int i, n;
	char *end;

	if (argc > 1 && !strcmp(argv[1], "--minhop")) {
		minhop = true;
		argc--;
		argv++;
	}
	if (argc > 2 && !strcmp(argv[1], "--max-rounds")) {
		max_rounds = (int)strtol(argv[2], &end, 10);
		if (*end || max_rounds < 1) {
			fprintf(stderr, "--max-rounds: expected N >= 1\n");
			return 2;
		}
		argc -= 2;
		argv += 2;
	}
	for (i = 1; i < argc; i++) {
		n = (int)strtol(argv[i], &end, 10);
		if (*end || n < 2 * K || n % (K * K) || n > K * K * K) {
			fprintf(stderr,
				"%s: expected hosts, a multiple of %d up to "
				"%d\n",
				argv[i], K * K, K * K * K);
			return 2;
		}
		bench(n);
	}
	for (i = 0; argc == 1 && i < 4; i++)
		bench(sizes[i]);
	return 0;
}
