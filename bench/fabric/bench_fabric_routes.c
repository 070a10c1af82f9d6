// SPDX-License-Identifier: MIT
/*
 * bench_fabric_routes MODEL.topo LFTS: prints how long loading the tables
 * and computing the path of every ordered pair of CA ports take (pure: no
 * MAD), and how many cables the paths cross. The inputs are ibnetdiscover
 * topology text and opensm-lfts.dump (or dump_fts output) of one fabric.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "fabric/fabric_route.h"
#include "fabric/fabric_topo.h"

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	static struct fabric_path p;
	const struct fabric_port **ca = NULL;
	struct fabric_routes r;
	struct fabric *m;
	size_t nca = 0, i, j, pairs = 0, hops = 0, bad = 0;
	char err[512];
	double t0, t1, t2;
	int k;

	if (argc != 3) {
		fprintf(stderr, "usage: %s MODEL.topo LFTS\n", argv[0]);
		return 2;
	}
	t0 = now_s();
	if (fabric_topo_load(argv[1], &m, err, sizeof(err)) ||
	    fabric_routes_init(&r, m) ||
	    fabric_lft_load(&r, argv[2], err, sizeof(err))) {
		fprintf(stderr, "%s\n", err);
		return 2;
	}
	ca = calloc(m->nports_total, sizeof(*ca));
	if (!ca)
		return 3;
	for (i = 0; i < m->nnodes; i++)
		for (k = 1; m->nodes[i]->type == FABRIC_NODE_CA &&
			    k <= m->nodes[i]->nports;
		     k++)
			if (m->nodes[i]->ports[k].remote)
				ca[nca++] = &m->nodes[i]->ports[k];
	t1 = now_s();
	for (i = 0; i < nca; i++) {
		for (j = 0; j < nca; j++) {
			if (i == j)
				continue;
			pairs++;
			if (fabric_route_path(&r, ca[i], ca[j]->lid, &p))
				bad++;
			hops += (size_t)p.n;
		}
	}
	t2 = now_s();
	printf("routes: %zu CA ports, %zu switches' tables loaded in %.3f s\n",
	       nca, m->nnodes - nca, t1 - t0);
	printf("routes: %zu ordered pairs' paths in %.3f s (%.0f ns a path), "
	       "%.2f cables a path, %zu without a route\n",
	       pairs, t2 - t1, (t2 - t1) * 1e9 / (double)(pairs ? pairs : 1),
	       (double)hops / (double)(pairs ? pairs : 1), bad);
	free(ca);
	fabric_routes_free(&r);
	fabric_free(m);
	return 0;
}
