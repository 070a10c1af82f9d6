// SPDX-License-Identifier: MIT
/*
 * fabric_diff_class.c: what a link's class runs at. A link's class is the
 * pair of tiers of its ends: a CA (or router) is tier 0, a switch is one
 * more than its nearest CA (leaf 1, spine 2, core 3). When the spec gives
 * no rate, a link below the width (speed) that at least 3/4 of its class,
 * and 2 links or more, run at trained down: the plurality rule of
 * common/ibrate.h (ib_quorum()), which burnin applies to HCA ports against
 * their rail. Pure.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/ibrate.h"
#include "fabric/fabric_diff_priv.h"

static int class_of(const struct fabric_classes *k, const struct fabric_port *a)
{
	int t1 = k->tier[a->node->idx], t2 = k->tier[a->remote->node->idx];
	int lo = t1 < t2 ? t1 : t2, hi = t1 < t2 ? t2 : t1;

	return lo * FABRIC_CLASS_TIERS + hi;
}

/* Multi-source breadth-first walk from every CA and router. */
static void set_tiers(struct fabric_classes *k, const struct fabric *m,
		      size_t *queue)
{
	const struct fabric_node *n;
	const struct fabric_port *p;
	size_t head = 0, tail = 0, i;
	int j, t;

	for (i = 0; i < m->nnodes; i++) {
		k->tier[i] = -1;
		if (m->nodes[i]->type != FABRIC_NODE_SWITCH) {
			k->tier[i] = 0;
			queue[tail++] = i;
		}
	}
	while (head < tail) {
		n = m->nodes[queue[head++]];
		t = k->tier[n->idx] + 1;
		for (j = 1; j <= n->nports; j++) {
			p = n->ports[j].remote;
			if (!p || k->tier[p->node->idx] >= 0)
				continue;
			k->tier[p->node->idx] = t;
			queue[tail++] = (size_t)p->node->idx;
		}
	}
	for (i = 0; i < m->nnodes; i++) /* no CA reached: its own tier */
		if (k->tier[i] < 0 || k->tier[i] >= FABRIC_CLASS_TIERS)
			k->tier[i] = FABRIC_CLASS_TIERS - 1;
}

int fabric_classes_build(struct fabric_classes *k, const struct fabric *m)
{
	const struct fabric_port *p;
	size_t *queue, i;
	int j, cl, w, s;

	memset(k, 0, sizeof(*k));
	k->tier = calloc(m->nnodes + 1, sizeof(*k->tier));
	queue = calloc(m->nnodes + 1, sizeof(*queue));
	if (!k->tier || !queue) {
		free(queue);
		return -ENOMEM;
	}
	set_tiers(k, m, queue);
	free(queue);
	for (i = 0; i < m->nnodes; i++) {
		for (j = 1; j <= m->nodes[i]->nports; j++) {
			p = &m->nodes[i]->ports[j];
			if (!p->remote || p->id > p->remote->id)
				continue; /* each link once */
			cl = class_of(k, p);
			k->links[cl]++;
			w = p->width < p->remote->width ? p->width
							: p->remote->width;
			s = p->speed < p->remote->speed ? p->speed
							: p->remote->speed;
			if (w < FABRIC_CLASS_WIDTHS)
				k->width[cl][w]++;
			if (s < FABRIC_CLASS_SPEEDS)
				k->speed[cl][s]++;
		}
	}
	return 0;
}

void fabric_classes_free(struct fabric_classes *k)
{
	free(k->tier);
	k->tier = NULL;
}

/* The value most links of the histogram hold (the higher on a tie) when
 * at least 2 links and 3/4 of the class hold it; 0 otherwise. */
static int quorum(const int *count, int nvals, int links)
{
	int v, best = 0;

	for (v = 1; v < nvals; v++)
		if (count[v] && count[v] >= count[best])
			best = v;
	if (!best || !ib_quorum((size_t)count[best], (size_t)links))
		return 0;
	return best;
}

int fabric_class_want(const struct fabric_classes *k,
		      const struct fabric_port *a, bool width)
{
	int cl = class_of(k, a);

	return width ? quorum(k->width[cl], FABRIC_CLASS_WIDTHS, k->links[cl])
		     : quorum(k->speed[cl], FABRIC_CLASS_SPEEDS, k->links[cl]);
}

static const char *tier_name(int t)
{
	static const char *const names[] = { "CA", "leaf", "spine", "core" };

	return t >= 0 && t < 4 ? names[t] : "switch";
}

const char *fabric_class_name(const struct fabric_classes *k,
			      const struct fabric_port *a, char *buf,
			      size_t len)
{
	int cl = class_of(k, a);

	snprintf(buf, len, "%s-%s", tier_name(cl / FABRIC_CLASS_TIERS),
		 tier_name(cl % FABRIC_CLASS_TIERS));
	return buf;
}
