// SPDX-License-Identifier: MIT
/*
 * The fabric map of the HTML report, its model (report_map_svg.c draws it):
 * switches in tiers (a switch with HCA links is a leaf, a switch linked
 * only to switches sits one tier above the lowest switch it reaches), HCA
 * ports under their leaf, every cable named by both ends with the classes
 * of what the run found on it: the categories of its findings, `blamed`,
 * `absent` (named by a finding, not discovered).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/array.h"
#include "common/record.h"
#include "common/strtab.h"
#include "reports/report.h"
#include "reports/report_map.h"

static int node_add(struct report_map *m, const char *key,
		    struct report_map_node *proto)
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

static int switch_node(struct report_map *m, const char *name, uint64_t guid)
{
	struct report_map_node n = {
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

static int hca_node(struct report_map *m, const char *host, const char *ca,
		    const char *name, int port)
{
	struct report_map_node n = { .port = port, .hport = -1 };
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
static int end_node(struct report_map *m, const struct report_end *e)
{
	if (e->type == 's' || (e->type != 'c' && e->guid))
		return switch_node(m, e->name, e->guid);
	if (e->type == 'c' || (e->name && strchr(e->name, ' ')))
		return hca_node(m, e->host, e->ca, e->name, e->port);
	return switch_node(m, e->name, e->guid);
}

static void cable_key(struct report_map *m, const int node[2],
		      const int port[2], char *buf, size_t len)
{
	int lo = node[0] < node[1] || (node[0] == node[1] && port[0] < port[1])
			 ? 0
			 : 1;

	(void)m;
	snprintf(buf, len, "c:%d:%d-%d:%d", node[lo], port[lo], node[!lo],
		 port[!lo]);
}

/* The end key "e:node:port" finds the cable at that end. */
static void end_key(const struct report_map *m, int node, int port, char *buf,
		    size_t len)
{
	snprintf(buf, len, "e:%d:%d", node, m->nodes[node].is_sw ? port : 0);
}

static int cable_add(struct report_map *m, const struct report_end *a,
		     const struct report_end *b, const struct report_link *link)
{
	struct report_map_cable c = { .link = link };
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
		struct report_map_node *n = &m->nodes[c.node[s]];
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

static void cable_class(struct report_map_cable *c, const char *cls, int level)
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
static int cable_at(struct report_map *m, const struct report_end *a,
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
static int finding_cable(struct report_map *m, const json_t *f,
			 const json_t *subj)
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
static void finding_port(struct report_map *m, const json_t *f,
			 const json_t *subj)
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

static int map_findings(struct report_map *m)
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
static int map_build(struct report_map *m)
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

		if (!r->attr || !r->attr[i].blame)
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
static void map_tiers(struct report_map *m)
{
	bool changed = true;

	for (size_t i = 0; i < m->n_cables; i++) {
		const struct report_map_cable *c = &m->cables[i];

		for (int s = 0; s < 2; s++)
			if (m->nodes[c->node[s]].is_sw &&
			    !m->nodes[c->node[!s]].is_sw) {
				struct report_map_node *h =
					&m->nodes[c->node[!s]];

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
			const struct report_map_cable *c = &m->cables[i];

			for (int s = 0; s < 2; s++) {
				struct report_map_node *a =
					&m->nodes[c->node[s]];
				struct report_map_node *b =
					&m->nodes[c->node[!s]];

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

int report_map_build(struct report_map *m, const struct report *r)
{
	int ret;

	memset(m, 0, sizeof(*m));
	m->r = r;
	ret = map_build(m);
	for (size_t i = 0; i < m->n_nodes; i++)
		m->n_hcas += !m->nodes[i].is_sw;
	m->aggregate = m->n_hcas > MAP_MAX_HCAS;
	if (!ret)
		map_tiers(m);
	return ret;
}

void report_map_free(struct report_map *m)
{
	free(m->nodes);
	free(m->cables);
	strtab_free(&m->keys);
	memset(m, 0, sizeof(*m));
}
