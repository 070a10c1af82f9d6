/* SPDX-License-Identifier: MIT */
#ifndef IBPROOF_TESTS_ROUTE_FABRIC_H
#define IBPROOF_TESTS_ROUTE_FABRIC_H

/*
 * A two-level fat tree as the tools of the fabric write it, for tests of
 * judging by route: ibnetdiscover topology text and an opensm-lfts.dump
 * routed as opensm's ftree does (the flow to host i of a leaf goes up to
 * spine i; with as many spines as hosts a leaf, each spine-to-leaf cable
 * carries one host's traffic). Leaf l port 1 + i: host i of the leaf;
 * port 1 + HOSTS + s: spine s. Spine s port 1 + l: leaf l. Host h:
 * "node%03d mlx5_0", node GUID RF_CA_GUID + 16h, port GUID + 1, LID h + 1.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define RF_LEAF_GUID 0x0008f10300000100ull
#define RF_SPINE_GUID 0x0008f10300000200ull
#define RF_CA_GUID 0x0008f10400001000ull

struct rf_tree {
	int leaves, spines; /* hosts a leaf = spines */
	/* every leaf sends all its traffic to other leaves up through
	 * spine 0: each of spine 0's cables carries hosts x (all - hosts)
	 * ordered pairs, more than all-pairs has shifts */
	bool one_spine;
};

static inline int rf_hosts(const struct rf_tree *t)
{
	return t->leaves * t->spines;
}

static inline uint64_t rf_port_guid(int h)
{
	return RF_CA_GUID + 16ull * (uint64_t)h + 1;
}

static inline int rf_leaf_lid(const struct rf_tree *t, int l)
{
	return rf_hosts(t) + 1 + l;
}

static inline int rf_spine_lid(const struct rf_tree *t, int s)
{
	return rf_hosts(t) + t->leaves + 1 + s;
}

static inline void rf_switch_head(FILE *f, uint64_t guid, int ports,
				  const char *name, int lid)
{
	fprintf(f,
		"vendid=0x0\ndevid=0x0\nsysimgguid=0x%llx\nswitchguid=0x%llx(%llx)\n"
		"Switch\t%d \"S-%016llx\"\t\t# \"%s\" base port 0 lid %d lmc 0\n",
		(unsigned long long)guid, (unsigned long long)guid,
		(unsigned long long)guid, ports, (unsigned long long)guid, name,
		lid);
}

static inline void rf_topo(const struct rf_tree *t, FILE *f)
{
	int h = t->spines;
	char name[32];

	for (int l = 0; l < t->leaves; l++) {
		snprintf(name, sizeof(name), "leaf%02d", l);
		rf_switch_head(f, RF_LEAF_GUID + l, h + t->spines, name,
			       rf_leaf_lid(t, l));
		for (int i = 0; i < h; i++)
			fprintf(f,
				"[%d]\t\"H-%016llx\"[1](%llx) \t\t# \"node%03d mlx5_0\" lid %d 4xEDR\n",
				1 + i,
				(unsigned long long)(rf_port_guid(l * h + i) -
						     1),
				(unsigned long long)rf_port_guid(l * h + i),
				l * h + i, l * h + i + 1);
		for (int s = 0; s < t->spines; s++)
			fprintf(f,
				"[%d]\t\"S-%016llx\"[%d]\t\t# \"spine%02d\" lid %d 4xEDR\n",
				1 + h + s,
				(unsigned long long)(RF_SPINE_GUID + s), 1 + l,
				s, rf_spine_lid(t, s));
		fputc('\n', f);
	}
	for (int s = 0; s < t->spines; s++) {
		snprintf(name, sizeof(name), "spine%02d", s);
		rf_switch_head(f, RF_SPINE_GUID + s, t->leaves, name,
			       rf_spine_lid(t, s));
		for (int l = 0; l < t->leaves; l++)
			fprintf(f,
				"[%d]\t\"S-%016llx\"[%d]\t\t# \"leaf%02d\" lid %d 4xEDR\n",
				1 + l, (unsigned long long)(RF_LEAF_GUID + l),
				1 + h + s, l, rf_leaf_lid(t, l));
		fputc('\n', f);
	}
	for (int x = 0; x < rf_hosts(t); x++) {
		unsigned long long node = rf_port_guid(x) - 1;

		fprintf(f,
			"vendid=0x0\ndevid=0x0\nsysimgguid=0x%llx\ncaguid=0x%llx\n"
			"Ca\t1 \"H-%016llx\"\t\t# \"node%03d mlx5_0\"\n"
			"[1](%llx) \t\"S-%016llx\"[%d]\t\t# lid %d lmc 0 \"leaf%02d\" lid %d 4xEDR\n\n",
			node, node, node, x, node + 1,
			(unsigned long long)(RF_LEAF_GUID + x / h), 1 + x % h,
			x + 1, x / h, rf_leaf_lid(t, x / h));
	}
}

/* The egress port at switch (leaf l, or spine s when l < 0) to LID d. */
static inline int rf_route(const struct rf_tree *t, int l, int s, int d)
{
	int h = t->spines, n = rf_hosts(t);

	if (l >= 0) {
		if (d <= n) /* a host */
			return (d - 1) / h == l ? 1 + (d - 1) % h
			       : t->one_spine	? 1 + h
						: 1 + h + (d - 1) % h;
		if (d == rf_leaf_lid(t, l))
			return 0;
		if (d <= n + t->leaves) /* another leaf, through spine 0 */
			return 1 + h;
		return 1 + h + (d - rf_spine_lid(t, 0));
	}
	if (d <= n)
		return 1 + (d - 1) / h;
	if (d <= n + t->leaves)
		return 1 + (d - rf_leaf_lid(t, 0));
	return d == rf_spine_lid(t, s) ? 0 : 1; /* another spine: leaf 0 */
}

static inline void rf_lfts(const struct rf_tree *t, FILE *f)
{
	int top = rf_spine_lid(t, t->spines - 1);

	for (int k = 0; k < t->leaves + t->spines; k++) {
		bool leaf = k < t->leaves;
		int idx = leaf ? k : k - t->leaves;

		fprintf(f,
			"Unicast lids [0-%d] of switch Lid %d guid 0x%016llx ('%s%02d'):\n",
			top, leaf ? rf_leaf_lid(t, idx) : rf_spine_lid(t, idx),
			(unsigned long long)(leaf ? RF_LEAF_GUID + idx
						  : RF_SPINE_GUID + idx),
			leaf ? "leaf" : "spine", idx);
		for (int d = 1; d <= top; d++)
			fprintf(f, "0x%04x %03d # lid %d\n", d,
				rf_route(t, leaf ? idx : -1, leaf ? -1 : idx,
					 d),
				d);
		fprintf(f, "%d lids dumped\n", top);
	}
}

#endif
