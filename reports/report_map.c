// SPDX-License-Identifier: MIT
/*
 * The fabric map of the HTML report, as inline SVG: switches in tiers (a
 * switch with HCA links is a leaf, a switch linked only to switches sits
 * one tier above the lowest switch it reaches), HCA ports under their leaf,
 * every cable one element named by both ends (data-ends) with the classes
 * of what the run found on it: the categories of its findings, `blamed`,
 * `absent` (named by a finding, not discovered). Above MAP_MAX_HCAS ports
 * the cables of each switch pair and the ports of each leaf are drawn as
 * one bundle with counts; a click shows its members.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/array.h"
#include "common/record.h"
#include "common/strtab.h"
#include "reports/report.h"
#include "reports/report_map.h"

#define MAP_MAX_CLASSES 8
#define HOST_W 7
#define LEAF_GAP 14
#define TIER_H 300
#define HOST_DROP 120
#define MAP_TOP 24
#define MAP_LEFT 10

struct map_node { /* a switch, or an HCA port */
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

struct map_cable {
	int node[2], port[2]; /* port: switch port, 0 at an HCA end */
	const struct report_link *link; /* NULL: named by findings only */
	const char *classes[MAP_MAX_CLASSES];
	int n_classes, worst; /* worst: 0 fine, 1 warn, 2 fail */
};

struct map {
	const struct report *r;
	struct strtab keys; /* node and cable keys -> index + 1 */
	struct map_node *nodes;
	size_t n_nodes, cap_nodes;
	struct map_cable *cables;
	size_t n_cables, cap_cables;
	int max_tier;
	bool aggregate; /* bundles per switch pair and per leaf */
	double width, height, orphan_x, tier_h;
	size_t n_hcas, n_orphans;
};

static int node_add(struct map *m, const char *key, struct map_node *proto)
{
	long *v = strtab_get(&m->keys, key);

	if (v)
		return (int)*v - 1;
	if (array_reserve(&m->nodes, &m->cap_nodes, m->n_nodes,
			  sizeof(*m->nodes)) ||
	    strtab_put(&m->keys, key, (long)m->n_nodes + 1) < 0)
		return -1;
	proto->leaf = -1;
	proto->tier = 0;
	m->nodes[m->n_nodes] = *proto;
	return (int)m->n_nodes++;
}

static int switch_node(struct map *m, const char *name, uint64_t guid)
{
	struct map_node n = {
		.name = name, .guid = guid, .is_sw = true, .hport = -1
	};
	char key[128], g[19];

	if (guid)
		snprintf(key, sizeof(key), "s:%s", record_guid_str(guid, g));
	else
		snprintf(key, sizeof(key), "s:n:%s", name ? name : "");
	if (!n.name)
		n.name = guid ? "?" : "";
	return node_add(m, key, &n);
}

static int hca_node(struct map *m, const char *host, const char *ca,
		    const char *name, int port)
{
	struct map_node n = { .port = port, .hport = -1 };
	char key[128];

	if (host && ca)
		snprintf(n.key, sizeof(n.key), "%s %s:%d", host, ca, port);
	else
		snprintf(n.key, sizeof(n.key), "%s:%d", name ? name : "?",
			 port);
	n.name = host ? host : name;
	snprintf(key, sizeof(key), "h:%s", n.key);
	return node_add(m, key, &n);
}

/* A link end as a map node; an end of unknown type that names "host ca"
 * is an HCA port (fabric check names ports it could not find that way). */
static int end_node(struct map *m, const struct report_end *e)
{
	if (e->type == 's' || (e->type != 'c' && e->guid))
		return switch_node(m, e->name, e->guid);
	if (e->type == 'c' || (e->name && strchr(e->name, ' ')))
		return hca_node(m, e->host, e->ca, e->name, e->port);
	return switch_node(m, e->name, e->guid);
}

static void cable_key(struct map *m, const int node[2], const int port[2],
		      char *buf, size_t len)
{
	int lo = node[0] < node[1] || (node[0] == node[1] && port[0] < port[1])
			 ? 0
			 : 1;

	(void)m;
	snprintf(buf, len, "c:%d:%d-%d:%d", node[lo], port[lo], node[!lo],
		 port[!lo]);
}

/* The end key "e:node:port" finds the cable at that end. */
static void end_key(const struct map *m, int node, int port, char *buf,
		    size_t len)
{
	snprintf(buf, len, "e:%d:%d", node, m->nodes[node].is_sw ? port : 0);
}

static int cable_add(struct map *m, const struct report_end *a,
		     const struct report_end *b, const struct report_link *link)
{
	struct map_cable c = { .link = link };
	char key[96], ek[48];
	long *v;

	c.node[0] = end_node(m, a);
	c.node[1] = end_node(m, b);
	if (c.node[0] < 0 || c.node[1] < 0)
		return -ENOMEM;
	c.port[0] = m->nodes[c.node[0]].is_sw ? a->port : 0;
	c.port[1] = m->nodes[c.node[1]].is_sw ? b->port : 0;
	cable_key(m, c.node, c.port, key, sizeof(key));
	v = strtab_get(&m->keys, key);
	if (v)
		return (int)*v - 1;
	if (array_reserve(&m->cables, &m->cap_cables, m->n_cables,
			  sizeof(*m->cables)) ||
	    strtab_put(&m->keys, key, (long)m->n_cables + 1) < 0)
		return -ENOMEM;
	for (int s = 0; s < 2; s++) {
		struct map_node *n = &m->nodes[c.node[s]];
		const struct report_end *e = s ? b : a;

		end_key(m, c.node[s], c.port[s], ek, sizeof(ek));
		if (strtab_put(&m->keys, ek, (long)m->n_cables + 1) < 0)
			return -ENOMEM;
		if (n->is_sw && e->port > n->max_port)
			n->max_port = e->port;
		if (!n->xcvr && (e->xcvr.vendor || e->xcvr.serial))
			n->xcvr = &e->xcvr;
	}
	m->cables[m->n_cables] = c;
	return (int)m->n_cables++;
}

/* A record's port reference, read without changing the report. */
static int ref_end(const json_t *ref, struct report_end *e)
{
	const char *type = json_string_value(json_object_get(ref, "type"));

	memset(e, 0, sizeof(*e));
	if (!json_is_object(ref))
		return -EINVAL;
	if (record_guid_parse(json_string_value(json_object_get(ref, "guid"))
				      ?: "",
			      &e->guid))
		e->guid = 0;
	e->port = (int)json_integer_value(json_object_get(ref, "port"));
	e->host = json_string_value(json_object_get(ref, "host"));
	e->ca = json_string_value(json_object_get(ref, "ca"));
	e->name = json_string_value(json_object_get(ref, "node"))
			  ?: json_string_value(json_object_get(ref, "name"));
	if (e->host && e->ca)
		e->type = 'c';
	else if (type && !strcmp(type, "switch"))
		e->type = 's';
	else if (!type && e->name)
		e->type = 's'; /* a switch port reference has no type */
	if (e->type == 'c')
		e->guid = 0; /* HCA ports are known by name on the map */
	return e->name || e->host || e->guid ? 0 : -EINVAL;
}

static void cable_class(struct map_cable *c, const char *cls, int level)
{
	for (int i = 0; i < c->n_classes; i++)
		if (!strcmp(c->classes[i], cls))
			goto worst;
	if (c->n_classes < MAP_MAX_CLASSES)
		c->classes[c->n_classes++] = cls;
worst:
	if (level > c->worst)
		c->worst = level;
}

static int finding_level(const json_t *f)
{
	const char *sev = json_string_value(json_object_get(f, "severity"));

	return !sev		      ? 0
	       : !strcmp(sev, "fail") ? 2
	       : !strcmp(sev, "warn") ? 1
				      : 0;
}

/*
 * The discovered cable at a switch end of a finding's cable, whatever the
 * finding expected at its far end (a swapped pair names the cables of the
 * spec), as report_blame.c resolves it; -1 when none was discovered.
 */
static int cable_at(struct map *m, const struct report_end *a,
		    const struct report_end *b)
{
	for (int pass = 0; pass < 2; pass++)
		for (int s = 0; s < 2; s++) {
			const struct report_end *e = s ? b : a;
			char ek[48];
			long *v;
			int ni;

			if ((e->type == 's') != (pass == 0))
				continue;
			ni = end_node(m, e);
			if (ni < 0)
				return -1;
			end_key(m, ni, e->port, ek, sizeof(ek));
			v = strtab_get(&m->keys, ek);
			if (v && m->cables[*v - 1].link)
				return (int)*v - 1;
		}
	return -1;
}

/* A finding about a cable (a and b): that cable, drawn even if absent. */
static int finding_cable(struct map *m, const json_t *f, const json_t *subj)
{
	struct report_end a, b;
	const char *cat = json_string_value(json_object_get(f, "category"));
	int ci;

	if (ref_end(json_object_get(subj, "a"), &a) ||
	    ref_end(json_object_get(subj, "b"), &b) || !cat)
		return 0;
	ci = cable_at(m, &a, &b);
	if (ci < 0)
		ci = cable_add(m, &a, &b, NULL);
	if (ci < 0)
		return ci;
	cable_class(&m->cables[ci], cat, finding_level(f));
	return 0;
}

/* A finding about one port: the cable at that port, where there is one. */
static void finding_port(struct map *m, const json_t *f, const json_t *subj)
{
	struct report_end e;
	const char *cat = json_string_value(json_object_get(f, "category"));
	char ek[48];
	long *v;
	int ni;

	if (ref_end(subj, &e) || !cat)
		return;
	ni = end_node(m, &e);
	if (ni < 0)
		return;
	end_key(m, ni, e.port, ek, sizeof(ek));
	v = strtab_get(&m->keys, ek);
	if (v)
		cable_class(&m->cables[*v - 1], cat, finding_level(f));
}

static int map_findings(struct map *m)
{
	const struct report *r = m->r;
	int ret = 0;

	for (int pass = 0; pass < 2 && !ret; pass++)
		for (size_t i = 0; i < r->n_findings && !ret; i++) {
			const json_t *f = r->findings[i].rec;
			const json_t *subj = json_object_get(f, "subject");
			const json_t *other = json_object_get(
				json_object_get(f, "evidence"), "swapped_with");
			bool cable = json_object_get(subj, "a") &&
				     json_object_get(subj, "b");

			if (pass == 0 && cable)
				ret = finding_cable(m, f, subj);
			if (pass == 0 && !ret && other)
				ret = finding_cable(m, f, other);
			if (pass == 1 && !cable)
				finding_port(m, f, subj);
		}
	return ret;
}

/* Every HCA port the records name, every link, every cable of a finding. */
static int map_build(struct map *m)
{
	const struct report *r = m->r;
	int ret;

	for (size_t i = 0; i < r->n_hports; i++) {
		const struct report_hport *h = &r->hports[i];
		int ni = hca_node(m, h->host, h->ca, NULL, h->port);

		if (ni < 0)
			return -ENOMEM;
		m->nodes[ni].hport = (int)i;
		if (h->xcvr.vendor || h->xcvr.serial)
			m->nodes[ni].xcvr = &h->xcvr;
	}
	for (size_t i = 0; i < r->n_links; i++)
		if (cable_add(m, &r->links[i].a, &r->links[i].b, &r->links[i]) <
		    0)
			return -ENOMEM;
	ret = map_findings(m);
	for (size_t i = 0; !ret && i < r->n_hports; i++) {
		const struct report_hport *h = &r->hports[i];
		char key[128], ek[48];
		long *v;

		if (!r->attr || !r->attr[i].blamed)
			continue;
		snprintf(key, sizeof(key), "h:%s %s:%d", h->host, h->ca,
			 h->port);
		v = strtab_get(&m->keys, key);
		if (!v)
			continue;
		end_key(m, (int)*v - 1, 0, ek, sizeof(ek));
		v = strtab_get(&m->keys, ek);
		if (v)
			cable_class(&m->cables[*v - 1], "blamed", 2);
	}
	return ret;
}

/* Tiers: leaves 1, a switch above the lowest switch it is cabled to. */
static void map_tiers(struct map *m)
{
	bool changed = true;

	for (size_t i = 0; i < m->n_cables; i++) {
		const struct map_cable *c = &m->cables[i];

		for (int s = 0; s < 2; s++)
			if (m->nodes[c->node[s]].is_sw &&
			    !m->nodes[c->node[!s]].is_sw) {
				struct map_node *h = &m->nodes[c->node[!s]];

				m->nodes[c->node[s]].has_ca = true;
				m->nodes[c->node[s]].tier = 1;
				if (h->leaf >= 0)
					continue; /* its first cable places it */
				h->leaf = c->node[s];
				h->leaf_port = c->port[s];
				m->nodes[c->node[s]].n_hosts++;
			}
	}
	for (int round = 0; changed && round < 8; round++) {
		changed = false;
		for (size_t i = 0; i < m->n_cables; i++) {
			const struct map_cable *c = &m->cables[i];

			for (int s = 0; s < 2; s++) {
				struct map_node *a = &m->nodes[c->node[s]];
				struct map_node *b = &m->nodes[c->node[!s]];

				if (!a->is_sw || !b->is_sw || a->has_ca ||
				    !b->tier ||
				    (a->tier && a->tier <= b->tier + 1))
					continue;
				a->tier = b->tier + 1;
				changed = true;
			}
		}
	}
	m->max_tier = 1;
	for (size_t i = 0; i < m->n_nodes; i++) {
		if (m->nodes[i].is_sw && !m->nodes[i].tier)
			m->nodes[i].tier = 2;
		if (m->nodes[i].tier > m->max_tier)
			m->max_tier = m->nodes[i].tier;
	}
}

static const struct map *sort_map;

static int node_order(const void *x, const void *y)
{
	const struct map_node *a = &sort_map->nodes[*(const int *)x];
	const struct map_node *b = &sort_map->nodes[*(const int *)y];
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
static void place_tier(struct map *m, const int *order, size_t n, int tier)
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
		struct map_node *s = &m->nodes[order[i]];

		if (!s->is_sw || s->tier != tier)
			continue;
		s->w = slot - LEAF_GAP < 24 ? slot * 0.8 : slot - LEAF_GAP;
		s->x = MAP_LEFT + (double)k++ * slot + (slot - s->w) / 2;
		s->y = y;
	}
}

/* Leaves side by side, each as wide as its hosts; HCA ports below. */
static int map_layout(struct map *m)
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
		struct map_node *n = &m->nodes[order[i]];

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
static void end_name(struct report_buf *b, const struct map *m, int node,
		     int port)
{
	const struct map_node *n = &m->nodes[node];

	if (n->is_sw)
		report_buf_printf(b, "%s:%d", n->name, port);
	else
		report_buf_puts(b, n->key);
}

static void ends_attr(struct report_buf *b, const struct map *m,
		      const struct map_cable *c)
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
static void cable_title(struct report_buf *b, const struct map *m,
			const struct map_cable *c)
{
	struct report_buf t = { 0 };

	for (int s = 0; s < 2; s++) {
		const struct map_node *n = &m->nodes[c->node[s]];

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

static void cable_classes(struct report_buf *b, const struct map_cable *c)
{
	static const char *const level[] = { "", " f-warn", " f-fail" };

	report_buf_puts(b, " class=\"cable");
	for (int i = 0; i < c->n_classes; i++)
		class_name(b, c->classes[i]);
	report_buf_printf(b, "%s%s\"", level[c->worst],
			  c->link ? "" : " absent");
}

/* Where a cable meets a node: a switch port on its edge, an HCA's top. */
static void end_point(const struct map *m, int node, int port, bool up,
		      double *x, double *y)
{
	const struct map_node *n = &m->nodes[node];
	int max = n->max_port > 0 ? n->max_port : 1;

	if (!n->is_sw) {
		*x = n->x + n->w / 2;
		*y = n->y;
		return;
	}
	*x = n->x + n->w * ((port > 0 ? port : 1) - 0.5) / max;
	*y = up ? n->y : n->y + MAP_SW_H;
}

static void cable_draw(struct report_buf *b, const struct map *m,
		       const struct map_cable *c)
{
	const struct map_node *a = &m->nodes[c->node[0]];
	const struct map_node *z = &m->nodes[c->node[1]];
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

static void node_draw(struct report_buf *b, const struct map *m,
		      const struct map_node *n)
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
	if (n->hport >= 0 && r->attr && r->attr[n->hport].blamed)
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

static int group_of(const struct map *m, int node)
{
	const struct map_node *n = &m->nodes[node];

	return n->is_sw ? node : n->leaf;
}

static int bundle_order(const void *x, const void *y)
{
	const struct map *m = sort_map;
	const struct map_cable *a = &m->cables[*(const int *)x];
	const struct map_cable *b = &m->cables[*(const int *)y];
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

static bool same_bundle(const struct map *m, const struct map_cable *a,
			const struct map_cable *b)
{
	int ga0 = group_of(m, a->node[0]), ga1 = group_of(m, a->node[1]);
	int gb0 = group_of(m, b->node[0]), gb1 = group_of(m, b->node[1]);

	return (ga0 == gb0 && ga1 == gb1) || (ga0 == gb1 && ga1 == gb0);
}

/* One line for the cables between two switches (or a leaf and its
 * hosts), with counts; its members show on a click. */
static void bundle_draw(struct report_buf *b, const struct map *m,
			const int *idx, size_t n)
{
	const struct map_cable *c0 = &m->cables[idx[0]];
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
		const struct map_node *sw = g[s] >= 0 ? &m->nodes[g[s]] : NULL;

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

static int cables_draw(struct report_buf *b, const struct map *m)
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

static void nodes_draw(struct report_buf *b, const struct map *m)
{
	int leaf = -2;

	for (size_t i = 0; i < m->n_nodes; i++)
		if (m->nodes[i].is_sw)
			node_draw(b, m, &m->nodes[i]);
	/* HCA ports: in the aggregated map, one block per leaf */
	for (size_t i = 0; i < m->n_nodes; i++) {
		const struct map_node *n = &m->nodes[i];

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
	struct map m = { .r = r };
	int ret;

	ret = map_build(&m);
	if (!ret && !m.n_nodes)
		report_buf_puts(
			b,
			"<p class=\"note\">No link records, HCA ports or cables in the input: nothing to draw (ibproof fabric discover --records gives the cables).</p>\n");
	if (ret || !m.n_nodes)
		goto out;
	for (size_t i = 0; i < m.n_nodes; i++)
		m.n_hcas += !m.nodes[i].is_sw;
	m.aggregate = m.n_hcas > MAP_MAX_HCAS;
	map_tiers(&m);
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
	free(m.nodes);
	free(m.cables);
	strtab_free(&m.keys);
	return ret;
}
