/* SPDX-License-Identifier: MIT */
#ifndef IBPROOF_TESTS_ROUTE_TREE_H
#define IBPROOF_TESTS_ROUTE_TREE_H

/*
 * A two- or three-level fat tree of any size as the tools of the fabric
 * write it (ibnetdiscover topology text, an opensm-lfts.dump), for tests
 * of judging by route (route_fabric.h is the fixed two-level one). pods
 * pods of `leaves` leaves and `aggs` aggregation switches; each leaf has
 * `hosts` hosts and one up-link to each aggregation switch of its pod;
 * with `cores` > 0 (three levels) aggregation switch a of every pod has
 * `cores` up-links, to core switches a * cores .. a * cores + cores - 1.
 * With one pod and no cores it is a two-level tree (the aggregation
 * switches are its spines). Routed per destination as opensm's ftree
 * does: up to aggregation switch h % aggs, then to core (h / aggs) %
 * cores of its group, down by the destination's pod and leaf.
 *
 * Ports: leaf 1 + i host i, 1 + hosts + a its agg a; agg 1 + l leaf l,
 * 1 + leaves + k core k of its group; core 1 + p pod p. Host h:
 * "node%04d mlx5_0", node GUID RT_CA_GUID + 16h, port GUID + 1, LID h + 1.
 * Only hosts' LIDs are routed (the paths between hosts are all the tests
 * read).
 */
#include <stdint.h>
#include <stdio.h>

#include "route_fabric.h" /* rf_switch_head() */

#define RT_LEAF_GUID 0x0008f10300100000ull
#define RT_AGG_GUID 0x0008f10300200000ull
#define RT_CORE_GUID 0x0008f10300300000ull
#define RT_CA_GUID 0x0008f10400100000ull

struct rt_tree {
	int pods, leaves, aggs, hosts, cores; /* cores: a group's */
};

static inline int rt_n_hosts(const struct rt_tree *t)
{
	return t->pods * t->leaves * t->hosts;
}

static inline int rt_n_cores(const struct rt_tree *t)
{
	return t->aggs * t->cores;
}

static inline uint64_t rt_port_guid(int h)
{
	return RT_CA_GUID + 16ull * (uint64_t)h + 1;
}

static inline uint64_t rt_leaf_guid(const struct rt_tree *t, int p, int l)
{
	return RT_LEAF_GUID + (uint64_t)(p * t->leaves + l);
}

static inline uint64_t rt_agg_guid(const struct rt_tree *t, int p, int a)
{
	return RT_AGG_GUID + (uint64_t)(p * t->aggs + a);
}

static inline int rt_lid(const struct rt_tree *t, int kind, int idx)
{
	int base = rt_n_hosts(t) + 1;

	if (kind > 0)
		base += t->pods * t->leaves;
	if (kind > 1)
		base += t->pods * t->aggs;
	return base + idx;
}

static inline void rt_link(FILE *f, int port, uint64_t guid, int peer_port,
			   const char *peer, int lid)
{
	fprintf(f, "[%d]\t\"S-%016llx\"[%d]\t\t# \"%s\" lid %d 4xEDR\n", port,
		(unsigned long long)guid, peer_port, peer, lid);
}

static inline void rt_leaves(const struct rt_tree *t, FILE *f)
{
	char name[32], peer[32];

	for (int p = 0; p < t->pods; p++)
		for (int l = 0; l < t->leaves; l++) {
			int li = p * t->leaves + l;

			snprintf(name, sizeof(name), "leaf%02d%02d", p, l);
			rf_switch_head(f, rt_leaf_guid(t, p, l),
				       t->hosts + t->aggs, name,
				       rt_lid(t, 0, li));
			for (int i = 0; i < t->hosts; i++) {
				int h = li * t->hosts + i;

				fprintf(f,
					"[%d]\t\"H-%016llx\"[1](%llx) \t\t# \"node%04d mlx5_0\" lid %d 4xEDR\n",
					1 + i,
					(unsigned long long)(rt_port_guid(h) -
							     1),
					(unsigned long long)rt_port_guid(h), h,
					h + 1);
			}
			for (int a = 0; a < t->aggs; a++) {
				snprintf(peer, sizeof(peer), "agg%02d%02d", p,
					 a);
				rt_link(f, 1 + t->hosts + a,
					rt_agg_guid(t, p, a), 1 + l, peer,
					rt_lid(t, 1, p * t->aggs + a));
			}
			fputc('\n', f);
		}
}

static inline void rt_aggs(const struct rt_tree *t, FILE *f)
{
	char name[32], peer[32];

	for (int p = 0; p < t->pods; p++)
		for (int a = 0; a < t->aggs; a++) {
			snprintf(name, sizeof(name), "agg%02d%02d", p, a);
			rf_switch_head(f, rt_agg_guid(t, p, a),
				       t->leaves + t->cores, name,
				       rt_lid(t, 1, p * t->aggs + a));
			for (int l = 0; l < t->leaves; l++) {
				snprintf(peer, sizeof(peer), "leaf%02d%02d", p,
					 l);
				rt_link(f, 1 + l, rt_leaf_guid(t, p, l),
					1 + t->hosts + a, peer,
					rt_lid(t, 0, p * t->leaves + l));
			}
			for (int k = 0; k < t->cores; k++) {
				int c = a * t->cores + k;

				snprintf(peer, sizeof(peer), "core%03d", c);
				rt_link(f, 1 + t->leaves + k,
					RT_CORE_GUID + (uint64_t)c, 1 + p, peer,
					rt_lid(t, 2, c));
			}
			fputc('\n', f);
		}
}

static inline void rt_topo(const struct rt_tree *t, FILE *f)
{
	char name[32], peer[32];

	rt_leaves(t, f);
	rt_aggs(t, f);
	for (int c = 0; c < rt_n_cores(t); c++) {
		snprintf(name, sizeof(name), "core%03d", c);
		rf_switch_head(f, RT_CORE_GUID + (uint64_t)c, t->pods, name,
			       rt_lid(t, 2, c));
		for (int p = 0; p < t->pods; p++) {
			snprintf(peer, sizeof(peer), "agg%02d%02d", p,
				 c / t->cores);
			rt_link(f, 1 + p, rt_agg_guid(t, p, c / t->cores),
				1 + t->leaves + c % t->cores, peer,
				rt_lid(t, 1, p * t->aggs + c / t->cores));
		}
		fputc('\n', f);
	}
	for (int h = 0; h < rt_n_hosts(t); h++) {
		unsigned long long node = rt_port_guid(h) - 1;
		int li = h / t->hosts;

		fprintf(f,
			"vendid=0x0\ndevid=0x0\nsysimgguid=0x%llx\ncaguid=0x%llx\n"
			"Ca\t1 \"H-%016llx\"\t\t# \"node%04d mlx5_0\"\n"
			"[1](%llx) \t\"S-%016llx\"[%d]\t\t# lid %d lmc 0 \"leaf%02d%02d\" lid %d 4xEDR\n\n",
			node, node, node, h, node + 1,
			(unsigned long long)(RT_LEAF_GUID + (uint64_t)li),
			1 + h % t->hosts, h + 1, li / t->leaves, li % t->leaves,
			rt_lid(t, 0, li));
	}
}

/* The egress port to host h at a leaf (kind 0), an aggregation switch (1)
 * or a core (2), switch index idx of its kind. */
static inline int rt_route(const struct rt_tree *t, int kind, int idx, int h)
{
	int per_pod = t->leaves * t->hosts, ph = h / per_pod,
	    lh = (h / t->hosts) % t->leaves;

	if (kind == 0)
		return idx == h / t->hosts ? 1 + h % t->hosts
					   : 1 + t->hosts + h % t->aggs;
	if (kind == 1)
		return idx / t->aggs == ph
			       ? 1 + lh
			       : 1 + t->leaves + (h / t->aggs) % t->cores;
	return 1 + ph;
}

static inline void rt_lfts(const struct rt_tree *t, FILE *f)
{
	int n[3] = { t->pods * t->leaves, t->pods * t->aggs, rt_n_cores(t) };
	static const char *const kinds[] = { "leaf", "agg", "core" };

	for (int kind = 0; kind < 3; kind++)
		for (int idx = 0; idx < n[kind]; idx++) {
			uint64_t guid = kind == 0 ? RT_LEAF_GUID + (uint64_t)idx
					: kind == 1
						? RT_AGG_GUID + (uint64_t)idx
						: RT_CORE_GUID + (uint64_t)idx;

			fprintf(f,
				"Unicast lids [0-%d] of switch Lid %d guid 0x%016llx ('%s%d'):\n",
				rt_n_hosts(t), rt_lid(t, kind, idx),
				(unsigned long long)guid, kinds[kind], idx);
			for (int h = 0; h < rt_n_hosts(t); h++)
				fprintf(f, "0x%04x %03d # lid %d\n", h + 1,
					rt_route(t, kind, idx, h), h + 1);
			fprintf(f, "%d lids dumped\n", rt_n_hosts(t));
		}
}

#endif
