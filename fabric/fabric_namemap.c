// SPDX-License-Identifier: MIT
/*
 * fabric_namemap.c: rdma-core's node-name-map (lines `0xGUID "name"`,
 * `#` comments) and the spec made from a model (topology file as spec).
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabric_spec.h"
#include "fabric_util.h"

static int map_add(struct fabric_namemap *m, uint64_t guid, const char *name,
		   size_t len)
{
	struct fabric_namemap_entry *e;

	if (fabric_reserve(&m->entries, &m->cap, m->n, sizeof(*e)))
		return -ENOMEM;
	e = &m->entries[m->n];
	e->guid = guid;
	e->name = strndup(name, len);
	if (!e->name)
		return -ENOMEM;
	m->n++;
	return 0;
}

/* One line: 0xGUID "name" or 0xGUID name. */
static int map_line(struct fabric_namemap *m, char *p)
{
	char *end;
	uint64_t guid;
	size_t len;

	if (p[0] != '0' || (p[1] != 'x' && p[1] != 'X') ||
	    !isxdigit((unsigned char)p[2]))
		return -EINVAL;
	errno = 0;
	guid = strtoull(p, &end, 16);
	if (errno || !isspace((unsigned char)*end))
		return -EINVAL;
	while (isspace((unsigned char)*end))
		end++;
	if (*end == '"') {
		p = ++end;
		end = strchr(p, '"');
		if (!end || end == p)
			return -EINVAL;
		len = end - p;
	} else {
		p = end;
		len = strcspn(p, "\r\n");
		while (len && isspace((unsigned char)p[len - 1]))
			len--;
		if (!len)
			return -EINVAL;
	}
	return map_add(m, guid, p, len);
}

static int cmp_entry(const void *a, const void *b)
{
	const struct fabric_namemap_entry *x = a, *y = b;

	return x->guid < y->guid ? -1 : x->guid > y->guid;
}

struct map_parse {
	struct fabric_namemap *m;
	const char *path;
	char *err;
	size_t errlen;
};

static int map_parse_line(void *arg, char *line, int lineno)
{
	struct map_parse *mp = arg;
	int rc = map_line(mp->m, line);

	if (rc == -EINVAL)
		snprintf(mp->err, mp->errlen, "%s:%d: expected 0xGUID \"name\"",
			 mp->path, lineno);
	return rc;
}

int fabric_namemap_parse(const char *path, const char *text,
			 struct fabric_namemap **out, char *err,
			 size_t errlen)
{
	struct fabric_namemap *m = calloc(1, sizeof(*m));
	struct map_parse mp = { m, path, err, errlen };
	int rc;

	if (!m)
		return -ENOMEM;
	rc = fabric_each_line(text, map_parse_line, &mp);
	if (rc) {
		fabric_namemap_free(m);
		return rc;
	}
	qsort(m->entries, m->n, sizeof(*m->entries), cmp_entry);
	*out = m;
	return 0;
}

int fabric_namemap_load(const char *path, struct fabric_namemap **out,
			char *err, size_t errlen)
{
	char *text;
	int rc = fabric_read_text(path, &text, err, errlen);

	if (rc)
		return rc;
	rc = fabric_namemap_parse(path, text, out, err, errlen);
	free(text);
	return rc;
}

const char *fabric_namemap_lookup(const struct fabric_namemap *m,
				  uint64_t guid)
{
	struct fabric_namemap_entry key = { .guid = guid }, *e;

	if (!m || !m->n)
		return NULL;
	e = bsearch(&key, m->entries, m->n, sizeof(key), cmp_entry);
	return e ? e->name : NULL;
}

void fabric_namemap_free(struct fabric_namemap *m)
{
	size_t i;

	if (!m)
		return;
	for (i = 0; i < m->n; i++)
		free(m->entries[i].name);
	free(m->entries);
	free(m);
}

int fabric_apply_namemap(struct fabric *f, const struct fabric_namemap *m)
{
	struct fabric_node *n;
	const char *name;
	size_t i;

	for (i = 0; i < f->nnodes; i++) {
		n = f->nodes[i];
		name = fabric_namemap_lookup(m, n->guid);
		if (!name)
			continue;
		free(n->map_name);
		n->map_name = strdup(name);
		if (!n->map_name)
			return -ENOMEM;
		n->name = n->map_name;
	}
	return 0;
}

static int spec_end_set(struct fabric_spec_end *e, const struct fabric_port *p)
{
	e->node = strdup(p->node->name);
	e->guid = p->node->guid;
	e->port = p->num;
	return e->node ? 0 : -ENOMEM;
}

static int spec_add_link(struct fabric_spec *s, const struct fabric_port *p)
{
	struct fabric_cable *cb = fabric_spec_add(s);

	if (!cb)
		return -ENOMEM;
	cb->speed = p->speed;
	cb->width = p->width;
	cb->label = strdup("");
	cb->rack = strdup("");
	if (!cb->label || !cb->rack || spec_end_set(&cb->a, p) ||
	    spec_end_set(&cb->z, p->remote))
		return -ENOMEM;
	return 0;
}

/* Every link of a known-good model becomes a cable (ends keep GUIDs). */
int fabric_spec_from_model(const struct fabric *f, const char *path,
			   struct fabric_spec **out)
{
	struct fabric_spec *s = calloc(1, sizeof(*s));
	const struct fabric_port *p;
	size_t i;
	int n;

	if (!s || !(s->path = strdup(path)))
		goto fail;
	for (i = 0; i < f->nnodes; i++) {
		for (n = 1; n <= f->nodes[i]->nports; n++) {
			p = &f->nodes[i]->ports[n];
			if (!p->remote || p->remote->id < p->id)
				continue;
			if (spec_add_link(s, p))
				goto fail;
		}
	}
	*out = s;
	return 0;
fail:
	fabric_spec_free(s);
	return -ENOMEM;
}
