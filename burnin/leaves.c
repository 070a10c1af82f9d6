// SPDX-License-Identifier: MIT
/*
 * Leaves: the switch each inventory port's cable lands on, looked up by
 * port GUID in the operator's ibnetdiscover topology file (read by the
 * fabric parser, fabric/fabric_topo.c). Rank 0 fills them in before it
 * builds the schedule, so schedules stay pure functions of the inventory;
 * node:HOST spreads a target port's partners over them.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "burnin/burnin.h"
#include "common/log.h"
#include "common/text.h"
#include "fabric/fabric_spec.h"
#include "fabric/fabric_topo.h"

struct guid_port {
	uint64_t guid;
	const struct fabric_port *port;
};

static int guid_port_cmp(const void *x, const void *y)
{
	const struct guid_port *a = x, *b = y;

	return a->guid < b->guid ? -1 : a->guid > b->guid;
}

/* The ports of the model that carry a port GUID (CA, router), sorted. */
static struct guid_port *index_ports(const struct fabric *f, size_t *n_out)
{
	struct guid_port *idx = calloc(f->nports_total + 1, sizeof(*idx));
	size_t n = 0;

	if (!idx)
		return NULL;
	for (size_t i = 0; i < f->nnodes; i++)
		for (int p = 1; p <= f->nodes[i]->nports; p++) {
			const struct fabric_port *fp = &f->nodes[i]->ports[p];

			if (!fp->guid)
				continue;
			idx[n].guid = fp->guid;
			idx[n++].port = fp;
		}
	qsort(idx, n, sizeof(*idx), guid_port_cmp);
	*n_out = n;
	return idx;
}

/* Why a port has no leaf, or NULL when it has one. */
static const char *leaf_unknown(const struct fabric_port *fp)
{
	if (!fp)
		return "its port GUID is not in the topology";
	if (!fp->remote)
		return "its cable leads nowhere in the topology";
	if (fp->remote->node->type != FABRIC_NODE_SWITCH)
		return "its cable does not land on a switch";
	return NULL;
}

static void set_leaf(struct dpath_port *p, const struct fabric_port *fp)
{
	char name[2 * DPATH_NAME_MAX + 16];
	const char *why = leaf_unknown(fp);

	p->leaf_guid = 0;
	p->leaf_port = 0;
	p->leaf_name[0] = '\0';
	if (why) {
		burnin_port_name(p, name, sizeof(name));
		log_info("%s (port GUID 0x%016llx): leaf unknown: %s", name,
			 (unsigned long long)p->guid, why);
		return;
	}
	p->leaf_guid = fp->remote->node->guid;
	p->leaf_port = fp->remote->num;
	if (snprintf(p->leaf_name, sizeof(p->leaf_name), "%s",
		     fp->remote->node->desc) >= (int)sizeof(p->leaf_name))
		text_trim(p->leaf_name); /* cut, but still text */
}

int burnin_leaves_assign(const struct fabric *f, struct dpath_port *ports,
			 int n)
{
	struct guid_port key = { 0 }, *hit, *idx;
	size_t n_idx = 0;
	int known = 0;

	idx = index_ports(f, &n_idx);
	if (!idx)
		return -ENOMEM;
	for (int i = 0; i < n; i++) {
		key.guid = ports[i].guid;
		hit = NULL;
		if (key.guid)
			hit = bsearch(&key, idx, n_idx, sizeof(*idx),
				      guid_port_cmp);
		set_leaf(&ports[i], hit ? hit->port : NULL);
		known += ports[i].leaf_guid != 0;
	}
	free(idx);
	return known;
}

static int guid_cmp(const void *x, const void *y)
{
	const uint64_t *a = x, *b = y;

	return *a < *b ? -1 : *a > *b;
}

/* How many different known leaves the ports are on; -ENOMEM. */
static int count_leaves(const struct dpath_port *ports, int n)
{
	uint64_t *g = malloc((size_t)(n ? n : 1) * sizeof(*g));
	int k = 0;

	if (!g)
		return -ENOMEM;
	for (int i = 0; i < n; i++)
		g[i] = ports[i].leaf_guid;
	qsort(g, (size_t)n, sizeof(*g), guid_cmp);
	for (int i = 0; i < n; i++)
		k += g[i] && (!i || g[i] != g[i - 1]);
	free(g);
	return k;
}

int burnin_leaves_load(const char *path, struct dpath_port *ports, int n)
{
	char err[FABRIC_ERR_LEN];
	struct fabric *f = NULL;
	int ret = fabric_topo_load(path, &f, err, sizeof(err));

	if (ret) {
		log_error("%s", err);
		return ret;
	}
	ret = burnin_leaves_assign(f, ports, n);
	fabric_free(f);
	if (ret < 0) {
		log_error("--topology %s: %s", path, strerror(-ret));
		return ret;
	}
	log_info("%s: leaf known for %d of %d ports, %d leaves", path, ret, n,
		 count_leaves(ports, n));
	return 0;
}
