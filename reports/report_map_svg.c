// SPDX-License-Identifier: MIT
/*
 * The fabric map drawn (the model is report_map.c): leaves side by side as
 * wide as their HCA ports, the tiers above spread over the same width,
 * cables as lines (curves within a tier), what was found drawn last; above
 * MAP_MAX_HCAS ports one bundle per switch pair and one block per leaf.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "reports/report.h"
#include "reports/report_map.h"

#define HOST_W 7
#define LEAF_GAP 14
#define TIER_H 300
#define HOST_DROP 120
#define MAP_TOP 24
#define MAP_LEFT 10

static const struct report_map *sort_map;

static int node_order(const void *x, const void *y)
{
	const struct report_map_node *a = &sort_map->nodes[*(const int *)x];
	const struct report_map_node *b = &sort_map->nodes[*(const int *)y];
	int c;

	if (a->is_sw != b->is_sw)
		return a->is_sw ? -1 : 1;
	if (a->is_sw)
		return strverscmp(a->name, b->name);
	if (a->leaf != b->leaf)
		return a->leaf < b->leaf ? -1 : 1;
	c = a->leaf_port - b->leaf_port;
	return c ? c : strverscmp(a->key, b->key);
}

/* Places one tier of switches evenly across the width. */
static void place_tier(struct report_map *m, const int *order, size_t n,
		       int tier)
{
	size_t k = 0, count = 0;
	double slot, y = MAP_TOP + (m->max_tier - tier) * m->tier_h;

	for (size_t i = 0; i < n; i++)
		count += m->nodes[order[i]].is_sw &&
			 m->nodes[order[i]].tier == tier;
	if (!count)
		return;
	slot = (m->width - MAP_LEFT) / (double)count;
	for (size_t i = 0; i < n; i++) {
		struct report_map_node *s = &m->nodes[order[i]];

		if (!s->is_sw || s->tier != tier)
			continue;
		s->w = slot - LEAF_GAP < 24 ? slot * 0.8 : slot - LEAF_GAP;
		s->x = MAP_LEFT + (double)k++ * slot + (slot - s->w) / 2;
		s->y = y;
	}
}

/* Leaves side by side, each as wide as its hosts; HCA ports below. */
static int map_layout(struct report_map *m)
{
	int *order = malloc((m->n_nodes + 1) * sizeof(*order));
	double x = MAP_LEFT, leaf_y;
	double host_w = m->aggregate ? 1.5 : HOST_W;
	int leaf = -2, rank = 0;

	if (!order)
		return -ENOMEM;
	for (size_t i = 0; i < m->n_nodes; i++)
		order[i] = (int)i;
	sort_map = m;
	qsort(order, m->n_nodes, sizeof(*order), node_order);
	/* a wide map gets taller tiers, so that it stays readable scaled */
	for (size_t i = 0; i < m->n_nodes; i++)
		if (m->nodes[i].is_sw && m->nodes[i].tier == 1)
			m->tier_h +=
				(m->nodes[i].n_hosts > 6 ? m->nodes[i].n_hosts
							 : 6) *
					host_w +
				LEAF_GAP;
	m->tier_h = m->tier_h * 0.12 > TIER_H ? m->tier_h * 0.12 : TIER_H;
	leaf_y = MAP_TOP + (m->max_tier - 1) * m->tier_h;
	for (size_t i = 0; i < m->n_nodes; i++) {
		struct report_map_node *n = &m->nodes[order[i]];

		if (n->is_sw && n->tier != 1)
			continue;
		if (n->is_sw) { /* its hosts come after all switches */
			n->x = x;
			n->y = leaf_y;
			n->w = (n->n_hosts > 6 ? n->n_hosts : 6) * host_w;
			x += n->w + LEAF_GAP;
			continue;
		}
		rank = n->leaf == leaf ? rank + 1 : 0;
		leaf = n->leaf;
		if (n->leaf >= 0) {
			n->x = m->nodes[n->leaf].x + rank * host_w;
		} else {
			if (!m->n_orphans++)
				m->orphan_x = x;
			n->x = x;
			x += host_w;
		}
		n->w = host_w > 3 ? host_w - 2 : host_w;
		n->y = leaf_y + HOST_DROP;
	}
	m->width = x + MAP_LEFT;
	for (int t = 2; t <= m->max_tier; t++)
		place_tier(m, order, m->n_nodes, t);
	m->height = leaf_y + HOST_DROP + 60;
	free(order);
	return 0;
}

/* "leaf02:20" or "node059 mlx5_0:1": one end, as faults.txt writes it. */
static void end_name(struct report_buf *b, const struct report_map *m, int node,
		     int port)
{
	const struct report_map_node *n = &m->nodes[node];

	if (n->is_sw)
		report_buf_printf(b, "%s:%d", n->name, port);
	else
		report_buf_puts(b, n->key);
}

static void ends_attr(struct report_buf *b, const struct report_map *m,
		      const struct report_map_cable *c)
{
	struct report_buf e[2] = { { 0 }, { 0 } };
	bool swap;

	end_name(&e[0], m, c->node[0], c->port[0]);
	end_name(&e[1], m, c->node[1], c->port[1]);
	swap = e[0].s && e[1].s && strcmp(e[0].s, e[1].s) > 0;
	report_buf_puts(b, " data-ends=\"");
	report_html_escape(b, e[swap].s);
	report_buf_puts(b, "|");
	report_html_escape(b, e[!swap].s);
	report_buf_puts(b, "\"");
	report_buf_free(&e[0]);
	report_buf_free(&e[1]);
}

static void xcvr_text(struct report_buf *t, const struct report_xcvr *x)
{
	if (!x || (!x->vendor && !x->part_number && !x->serial))
		return;
	report_buf_printf(t, " [transceiver %s %s SN %s]",
			  x->vendor ? x->vendor : "?",
			  x->part_number ? x->part_number : "?",
			  x->serial ? x->serial : "?");
}

/* Both ends, transceivers, the link's state and what was found on it. */
static void cable_title(struct report_buf *b, const struct report_map *m,
			const struct report_map_cable *c)
{
	struct report_buf t = { 0 };

	for (int s = 0; s < 2; s++) {
		const struct report_map_node *n = &m->nodes[c->node[s]];

		report_buf_puts(&t, s ? " - " : "");
		if (c->link) {
			const struct report_end *e =
				s ? &c->link->b : &c->link->a;

			report_end_text(&t, e);
			xcvr_text(&t, e->xcvr.vendor || e->xcvr.serial
					      ? &e->xcvr
					      : n->xcvr);
		} else if (n->is_sw) {
			report_buf_printf(&t, "%s port %d", n->name,
					  c->port[s]);
		} else {
			report_buf_puts(&t, n->key);
			xcvr_text(&t, n->xcvr);
		}
	}
	if (c->link)
		report_buf_printf(&t, ": %s %s %s",
				  c->link->width ? c->link->width : "",
				  c->link->speed ? c->link->speed : "",
				  c->link->state ? c->link->state : "");
	else
		report_buf_puts(&t, ": not discovered");
	for (int i = 0; i < c->n_classes; i++)
		report_buf_printf(&t, "%s%s",
				  i ? ", " : "; found: ", c->classes[i]);
	report_buf_puts(b, "<title>");
	report_html_escape(b, t.s ? t.s : "");
	report_buf_puts(b, "</title>");
	report_buf_free(&t);
}

/* A category as a class name: [a-z0-9-] only, the rest '-'. */
static void class_name(struct report_buf *b, const char *s)
{
	char buf[64];
	size_t i = 0;

	for (; s && *s && i + 1 < sizeof(buf); s++)
		buf[i++] = (*s >= 'a' && *s <= 'z') ||
					   (*s >= '0' && *s <= '9') || *s == '-'
				   ? *s
				   : '-';
	buf[i] = '\0';
	report_buf_printf(b, " %s", buf);
}

static void cable_classes(struct report_buf *b,
			  const struct report_map_cable *c)
{
	static const char *const level[] = { "", " f-warn", " f-fail" };

	report_buf_puts(b, " class=\"cable");
	for (int i = 0; i < c->n_classes; i++)
		class_name(b, c->classes[i]);
	report_buf_printf(b, "%s%s\"", level[c->worst],
			  c->link ? "" : " absent");
}

/* Where a cable meets a node: a switch port on its edge, an HCA's top. */
static void end_point(const struct report_map *m, int node, int port, bool up,
		      double *x, double *y)
{
	const struct report_map_node *n = &m->nodes[node];
	int max = n->max_port > 0 ? n->max_port : 1;

	if (!n->is_sw) {
		*x = n->x + n->w / 2;
		*y = n->y;
		return;
	}
	*x = n->x + n->w * ((port > 0 ? port : 1) - 0.5) / max;
	*y = up ? n->y : n->y + MAP_SW_H;
}

static void cable_draw(struct report_buf *b, const struct report_map *m,
		       const struct report_map_cable *c)
{
	const struct report_map_node *a = &m->nodes[c->node[0]];
	const struct report_map_node *z = &m->nodes[c->node[1]];
	double x1, y1, x2, y2;

	end_point(m, c->node[0], c->port[0], a->y > z->y, &x1, &y1);
	end_point(m, c->node[1], c->port[1], z->y > a->y, &x2, &y2);
	if (a->y == z->y) /* within a tier: a curve below it */
		report_buf_printf(b,
				  "<path d=\"M%.1f %.1fQ%.1f %.1f %.1f %.1f\"",
				  x1, y1, (x1 + x2) / 2, y1 + 50, x2, y2);
	else
		report_buf_printf(
			b,
			"<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"",
			x1, y1, x2, y2);
	cable_classes(b, c);
	ends_attr(b, m, c);
	report_buf_puts(b, ">");
	cable_title(b, m, c);
	report_buf_puts(b, a->y == z->y ? "</path>" : "</line>");
}

static void node_draw(struct report_buf *b, const struct report_map *m,
		      const struct report_map_node *n)
{
	const struct report *r = m->r;
	struct report_buf t = { 0 };

	if (n->is_sw) {
		report_buf_printf(
			b,
			"<rect class=\"switch tier%d\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%d\" data-node=\"",
			n->tier, n->x, n->y, n->w, MAP_SW_H);
		report_html_escape(b, n->name);
		report_buf_puts(b, "\"><title>");
		report_html_escape(b, n->name);
		report_buf_printf(
			b,
			"</title></rect><text class=\"sw-label\" x=\"%.1f\" y=\"%.1f\">",
			n->x + n->w / 2, n->tier == 1 ? n->y + 28 : n->y - 4);
		report_html_escape(b, n->name);
		report_buf_puts(b, "</text>");
		return;
	}
	report_buf_printf(b, "<rect class=\"hca");
	if (n->hport >= 0 && r->attr && r->attr[n->hport].blame)
		report_buf_puts(b, " blamed");
	if (n->hport >= 0 && r->hports[n->hport].n_untested &&
	    !r->hports[n->hport].n_ok && !r->hports[n->hport].n_low)
		report_buf_puts(b, " not-tested");
	report_buf_printf(
		b,
		"\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"24\" data-port=\"",
		n->x, n->y, n->w);
	report_html_escape(b, n->key);
	report_buf_puts(b, "\">");
	report_buf_puts(&t, n->key);
	xcvr_text(&t, n->xcvr);
	if (n->hport >= 0 && r->hports[n->hport].rail >= 0)
		report_buf_printf(&t, ", rail %d", r->hports[n->hport].rail);
	report_buf_puts(b, "<title>");
	report_html_escape(b, t.s ? t.s : "");
	report_buf_puts(b, "</title></rect>");
	report_buf_free(&t);
}

static int group_of(const struct report_map *m, int node)
{
	const struct report_map_node *n = &m->nodes[node];

	return n->is_sw ? node : n->leaf;
}

static int bundle_order(const void *x, const void *y)
{
	const struct report_map *m = sort_map;
	const struct report_map_cable *a = &m->cables[*(const int *)x];
	const struct report_map_cable *b = &m->cables[*(const int *)y];
	int ka[2] = { group_of(m, a->node[0]), group_of(m, a->node[1]) };
	int kb[2] = { group_of(m, b->node[0]), group_of(m, b->node[1]) };

	if (ka[0] > ka[1])
		ka[0] ^= ka[1], ka[1] ^= ka[0], ka[0] ^= ka[1];
	if (kb[0] > kb[1])
		kb[0] ^= kb[1], kb[1] ^= kb[0], kb[0] ^= kb[1];
	if (ka[0] != kb[0])
		return ka[0] < kb[0] ? -1 : 1;
	if (ka[1] != kb[1])
		return ka[1] < kb[1] ? -1 : 1;
	return *(const int *)x - *(const int *)y;
}

static bool same_bundle(const struct report_map *m,
			const struct report_map_cable *a,
			const struct report_map_cable *b)
{
	int ga0 = group_of(m, a->node[0]), ga1 = group_of(m, a->node[1]);
	int gb0 = group_of(m, b->node[0]), gb1 = group_of(m, b->node[1]);

	return (ga0 == gb0 && ga1 == gb1) || (ga0 == gb1 && ga1 == gb0);
}

/* One line for the cables between two switches (or a leaf and its
 * hosts), with counts; its members show on a click. */
static void bundle_draw(struct report_buf *b, const struct report_map *m,
			const int *idx, size_t n)
{
	const struct report_map_cable *c0 = &m->cables[idx[0]];
	int worst = 0,
	    g[2] = { group_of(m, c0->node[0]), group_of(m, c0->node[1]) };
	size_t found = 0;
	double x[2], y[2];

	for (size_t k = 0; k < n; k++) {
		worst = m->cables[idx[k]].worst > worst
				? m->cables[idx[k]].worst
				: worst;
		found += m->cables[idx[k]].n_classes > 0;
	}
	for (int s = 0; s < 2; s++) {
		const struct report_map_node *sw =
			g[s] >= 0 ? &m->nodes[g[s]] : NULL;

		x[s] = sw ? sw->x + sw->w / 2 : m->orphan_x;
		y[s] = sw ? sw->y : m->height - 60;
	}
	if (g[0] == g[1]) /* a leaf and its hosts */
		y[1] = y[0] + HOST_DROP, y[0] += MAP_SW_H;
	else if (y[0] < y[1])
		y[0] += MAP_SW_H;
	else
		y[1] += MAP_SW_H;
	report_buf_printf(
		b,
		"<g class=\"bundle\"><line class=\"bundle-line%s\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" data-count=\"%zu\"><title>",
		worst == 2   ? " f-fail"
		: worst == 1 ? " f-warn"
			     : "",
		x[0], y[0], x[1], y[1], n);
	report_html_escape(b, g[0] >= 0 ? m->nodes[g[0]].name : "?");
	report_buf_puts(b, " - ");
	report_html_escape(b, g[1] == g[0] ? "its HCA ports"
			      : g[1] >= 0  ? m->nodes[g[1]].name
					   : "?");
	report_buf_printf(
		b,
		": %zu cables, %zu with findings (click to show them)</title></line><g class=\"members\" display=\"none\">",
		n, found);
	for (size_t k = 0; k < n; k++)
		cable_draw(b, m, &m->cables[idx[k]]);
	report_buf_puts(b, "</g></g>");
}

static int cables_draw(struct report_buf *b, const struct report_map *m)
{
	int *idx = malloc((m->n_cables + 1) * sizeof(*idx));
	size_t start = 0;

	if (!idx)
		return -ENOMEM;
	for (size_t i = 0; i < m->n_cables; i++)
		idx[i] = (int)i;
	if (!m->aggregate) { /* what was found drawn last, on top */
		for (int level = 0; level <= 2; level++)
			for (size_t i = 0; i < m->n_cables; i++)
				if (m->cables[i].worst == level)
					cable_draw(b, m, &m->cables[i]);
		free(idx);
		return 0;
	}
	sort_map = m;
	qsort(idx, m->n_cables, sizeof(*idx), bundle_order);
	for (size_t i = 1; i <= m->n_cables; i++)
		if (i == m->n_cables || !same_bundle(m, &m->cables[idx[start]],
						     &m->cables[idx[i]])) {
			bundle_draw(b, m, idx + start, i - start);
			start = i;
		}
	free(idx);
	return 0;
}

static void nodes_draw(struct report_buf *b, const struct report_map *m)
{
	int leaf = -2;

	for (size_t i = 0; i < m->n_nodes; i++)
		if (m->nodes[i].is_sw)
			node_draw(b, m, &m->nodes[i]);
	/* HCA ports: in the aggregated map, one block per leaf */
	for (size_t i = 0; i < m->n_nodes; i++) {
		const struct report_map_node *n = &m->nodes[i];

		if (n->is_sw || (m->aggregate && n->leaf == leaf))
			continue;
		if (!m->aggregate) {
			node_draw(b, m, n);
			continue;
		}
		leaf = n->leaf;
		report_buf_printf(
			b,
			"<g class=\"bundle\"><rect class=\"hca-group\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"24\"><title>",
			leaf >= 0 ? m->nodes[leaf].x : m->orphan_x, n->y,
			leaf >= 0 ? m->nodes[leaf].w : 1.5 * m->n_orphans);
		report_html_escape(b, leaf >= 0 ? m->nodes[leaf].name
						: "no cable known");
		report_buf_printf(
			b,
			": %d HCA ports (click to show them)</title></rect><g class=\"members\" display=\"none\">",
			leaf >= 0 ? m->nodes[leaf].n_hosts : (int)m->n_orphans);
		for (size_t k = 0; k < m->n_nodes; k++)
			if (!m->nodes[k].is_sw && m->nodes[k].leaf == leaf)
				node_draw(b, m, &m->nodes[k]);
		report_buf_puts(b, "</g></g>");
	}
}

int report_svg_map(struct report_buf *b, const struct report *r)
{
	struct report_map m;
	int ret;

	ret = report_map_build(&m, r);
	if (!ret && !m.n_nodes)
		report_buf_puts(
			b,
			"<p class=\"note\">No link records, HCA ports or cables in the input: nothing to draw (ibproof fabric discover --records gives the cables).</p>\n");
	if (ret || !m.n_nodes)
		goto out;
	ret = map_layout(&m);
	if (ret)
		goto out;
	report_buf_printf(
		b,
		"<svg id=\"fabric-map\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 %.0f %.0f\" width=\"%.0f\" role=\"img\" aria-label=\"fabric map\">",
		m.width, m.height, m.width);
	ret = cables_draw(b, &m);
	nodes_draw(b, &m);
	report_buf_puts(b, "</svg>\n");
	report_buf_printf(
		b,
		"<p class=\"note\">%zu switches in %d tiers, %zu HCA ports, %zu cables (%s). Red: a failing finding on the cable, orange: a warning, dashed: named by a finding but not discovered; hover a cable or port for its ends, transceivers and findings.%s</p>\n",
		m.n_nodes - m.n_hcas, m.max_tier, m.n_hcas, m.n_cables,
		"from the link records and the findings",
		m.aggregate
			? " Above " MAP_MAX_HCAS_TEXT
			  " HCA ports the map draws one line per switch pair and one block per leaf, with counts: click one to show its cables or ports."
			: "");
out:
	report_map_free(&m);
	return ret;
}
