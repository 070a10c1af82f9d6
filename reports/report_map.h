/* SPDX-License-Identifier: MIT */
#ifndef IBPROOF_REPORTS_REPORT_MAP_H
#define IBPROOF_REPORTS_REPORT_MAP_H

#include "reports/report.h"

/* Above this many HCA ports the map bundles cables and ports. */
#define MAP_MAX_HCAS 1024
#define MAP_MAX_HCAS_TEXT "1,024"
#define MAP_SW_H 16

#define MAP_MAX_CLASSES 8

/* The map's model, built from a report (report_map.c). */
struct report_map_node { /* a switch, or an HCA port */
	const char *name; /* switch name, or "host ca" */
	char key[96]; /* "name:port" of an HCA port (data-port) */
	uint64_t guid;
	int port; /* HCA port number */
	bool is_sw, has_ca;
	int tier, max_port, leaf, leaf_port; /* leaf: HCA's switch, or -1 */
	int n_hosts;
	double x, w, y;
	int hport; /* index in r->hports, or -1 */
	const struct report_xcvr *xcvr;
};

struct report_map_cable {
	int node[2], port[2]; /* port: switch port, 0 at an HCA end */
	const struct report_link *link; /* NULL: named by findings only */
	const char *classes[MAP_MAX_CLASSES];
	int n_classes, worst; /* worst: 0 fine, 1 warn, 2 fail */
};

struct report_map {
	const struct report *r;
	struct strtab keys; /* node and cable keys -> index + 1 */
	struct report_map_node *nodes;
	size_t n_nodes, cap_nodes;
	struct report_map_cable *cables;
	size_t n_cables, cap_cables;
	int max_tier;
	bool aggregate; /* bundles per switch pair and per leaf */
	double width, height, orphan_x, tier_h;
	size_t n_hcas, n_orphans;
};

/* Nodes, cables with their classes, tiers; 0 or -ENOMEM (free it then too). */
int report_map_build(struct report_map *m, const struct report *r);
void report_map_free(struct report_map *m);

/* The fabric map as inline SVG (report_map_svg.c); 0, or -ENOMEM. */
int report_svg_map(struct report_buf *b, const struct report *r);

#endif
