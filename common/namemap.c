// SPDX-License-Identifier: MIT
/*
 * namemap.c: rdma-core's node-name-map (util/node_name_map.c reads the same
 * lines; see namemap.h for where this reader is stricter).
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/array.h"
#include "common/lines.h"
#include "common/namemap.h"
#include "common/text.h"

struct namemap_entry {
	uint64_t guid;
	size_t seq; /* order in the file: the first name wins */
	char *name;
};

struct namemap {
	struct namemap_entry *v; /* sorted by guid, one per guid */
	size_t n, cap;
};

#define EXPECTED "expected 0xGUID \"name\""

static int map_add(struct namemap *m, uint64_t guid, const char *name,
		   size_t len)
{
	struct namemap_entry *v;

	if (array_reserve(&m->v, &m->cap, m->n, sizeof(*v)))
		return -ENOMEM;
	v = &m->v[m->n];
	v->guid = guid;
	v->seq = m->n;
	v->name = text_dupn(name, len);
	if (!v->name)
		return -ENOMEM;
	m->n++;
	return 0;
}

/* "0x" and 1-16 hex digits, then a blank; *p moves past the digits. */
static int parse_guid(char **p, uint64_t *guid)
{
	char *s = *p, *end;
	size_t digits;

	if (s[0] != '0' || (s[1] != 'x' && s[1] != 'X'))
		return -EINVAL; /* before counting: s may be 1 byte long */
	/* counted first: strtoull would also take a second "0x" or 17+
	 * digits with leading zeros */
	digits = strspn(s + 2, "0123456789abcdefABCDEF");
	if (digits < 1 || digits > 16 || !isblank((unsigned char)s[2 + digits]))
		return -EINVAL;
	*guid = strtoull(s + 2, &end, 16);
	*p = end;
	return 0;
}

/* A quoted name; what follows the closing quote may only be a comment. */
static int parse_quoted(struct lines *in, char *p, char **name, size_t *len)
{
	char *end = strchr(++p, '"');

	if (!end)
		return lines_error(in, EXPECTED ": no closing quote");
	if (end == p)
		return lines_error(in, EXPECTED ": the name is empty");
	*name = p;
	*len = (size_t)(end - p);
	end += 1 + strspn(end + 1, " \t");
	if (*end && *end != '#')
		return lines_error(in, EXPECTED ": text after the closing "
						"quote");
	return 0;
}

/* An unquoted name runs to a '#' comment or the line end. */
static int parse_bare(struct lines *in, char *p, char **name, size_t *len)
{
	size_t n = strcspn(p, "#\"");

	if (p[n] == '"')
		return lines_error(in, EXPECTED ": a quote inside an "
						"unquoted name");
	while (n && isspace((unsigned char)p[n - 1]))
		n--;
	if (!n)
		return lines_error(in, EXPECTED ": the name is missing");
	*name = p;
	*len = n;
	return 0;
}

struct map_parse {
	struct lines *in;
	struct namemap *m;
};

static int parse_line(void *arg, char *line)
{
	struct map_parse *mp = arg;
	struct lines *in = mp->in;
	uint64_t guid;
	char *name = NULL;
	size_t len = 0;
	int rc;

	if (parse_guid(&line, &guid))
		return lines_error(in, EXPECTED);
	line += strspn(line, " \t");
	if (*line == '"')
		rc = parse_quoted(in, line, &name, &len);
	else
		rc = parse_bare(in, line, &name, &len);
	if (rc)
		return rc;
	rc = map_add(mp->m, guid, name, len);
	if (rc)
		snprintf(in->err, in->errlen, "%s: out of memory", in->path);
	return rc;
}

static int cmp_entry(const void *a, const void *b)
{
	const struct namemap_entry *x = a, *y = b;

	if (x->guid != y->guid)
		return x->guid < y->guid ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Sorts by GUID and drops every name but the first of a GUID. */
static void map_finish(struct namemap *m)
{
	size_t i, n = 0;

	if (!m->n)
		return;
	qsort(m->v, m->n, sizeof(*m->v), cmp_entry);
	for (i = 0; i < m->n; i++) {
		if (n && m->v[n - 1].guid == m->v[i].guid)
			free(m->v[i].name);
		else
			m->v[n++] = m->v[i];
	}
	m->n = n;
}

static int map_read(struct lines *in, struct namemap **out)
{
	struct map_parse mp = { .in = in };
	int rc;

	mp.m = calloc(1, sizeof(*mp.m));
	if (!mp.m) {
		snprintf(in->err, in->errlen, "%s: out of memory", in->path);
		return -ENOMEM;
	}
	rc = lines_each(in, parse_line, &mp);
	if (rc) {
		namemap_free(mp.m);
		return rc;
	}
	map_finish(mp.m);
	*out = mp.m;
	return 0;
}

int namemap_load(const char *path, struct namemap **out, char *err,
		 size_t errlen)
{
	struct lines in;
	int rc = lines_open(&in, path, err, errlen);

	if (!rc)
		rc = map_read(&in, out);
	lines_close(&in);
	return rc;
}

int namemap_parse(const char *path, const char *text, struct namemap **out,
		  char *err, size_t errlen)
{
	struct lines in;
	int rc;

	lines_open_text(&in, path, text, err, errlen);
	rc = map_read(&in, out);
	lines_close(&in);
	return rc;
}

static int cmp_guid(const void *key, const void *elem)
{
	const uint64_t *guid = key;
	const struct namemap_entry *e = elem;

	return *guid < e->guid ? -1 : *guid > e->guid;
}

const char *namemap_lookup(const struct namemap *m, uint64_t guid)
{
	const struct namemap_entry *e;

	if (!m || !m->n)
		return NULL;
	e = bsearch(&guid, m->v, m->n, sizeof(*m->v), cmp_guid);
	return e ? e->name : NULL;
}

void namemap_free(struct namemap *m)
{
	size_t i;

	if (!m)
		return;
	for (i = 0; i < m->n; i++)
		free(m->v[i].name);
	free(m->v);
	free(m);
}
