// SPDX-License-Identifier: MIT
/* The report's model: interned strings, index maps, ports, links, pairs. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/log.h"
#include "common/namemap.h"
#include "common/record.h"
#include "reports/report.h"

#define ARENA_CHUNK (64 * 1024)

struct arena_chunk {
	struct arena_chunk *next;
	size_t used, size;
	char data[];
};

struct report_strtab {
	const char **slots;
	size_t cap, n;
	struct arena_chunk *chunks;
};

uint64_t report_hash_str(uint64_t h, const char *s)
{
	if (!h)
		h = 1469598103934665603ULL;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ULL;
	return (h ^ 0xff) * 1099511628211ULL; /* the end of each string */
}

struct report_strtab *report_strtab_new(void)
{
	struct report_strtab *t = calloc(1, sizeof(*t));

	if (!t)
		return NULL;
	t->cap = 1024;
	t->slots = calloc(t->cap, sizeof(*t->slots));
	if (!t->slots) {
		free(t);
		return NULL;
	}
	return t;
}

void report_strtab_free(struct report_strtab *t)
{
	if (!t)
		return;
	while (t->chunks) {
		struct arena_chunk *c = t->chunks;

		t->chunks = c->next;
		free(c);
	}
	free(t->slots);
	free(t);
}

static char *arena_copy(struct report_strtab *t, const char *s)
{
	size_t len = strlen(s) + 1;
	struct arena_chunk *c = t->chunks;

	if (!c || c->size - c->used < len) {
		size_t size = len > ARENA_CHUNK ? len : ARENA_CHUNK;

		c = malloc(sizeof(*c) + size);
		if (!c)
			return NULL;
		c->size = size;
		c->used = 0;
		c->next = t->chunks;
		t->chunks = c;
	}
	memcpy(c->data + c->used, s, len);
	c->used += len;
	return c->data + c->used - len;
}

static int strtab_grow(struct report_strtab *t)
{
	size_t cap = t->cap * 2;
	const char **slots = calloc(cap, sizeof(*slots));

	if (!slots)
		return -ENOMEM;
	for (size_t i = 0; i < t->cap; i++) {
		size_t j;

		if (!t->slots[i])
			continue;
		j = report_hash_str(0, t->slots[i]) & (cap - 1);
		while (slots[j])
			j = (j + 1) & (cap - 1);
		slots[j] = t->slots[i];
	}
	free(t->slots);
	t->slots = slots;
	t->cap = cap;
	return 0;
}

const char *report_intern(struct report_strtab *t, const char *s)
{
	size_t j;

	if (!s)
		return NULL;
	if (2 * (t->n + 1) > t->cap && strtab_grow(t))
		return NULL;
	j = report_hash_str(0, s) & (t->cap - 1);
	for (; t->slots[j]; j = (j + 1) & (t->cap - 1))
		if (!strcmp(t->slots[j], s))
			return t->slots[j];
	t->slots[j] = arena_copy(t, s);
	if (t->slots[j])
		t->n++;
	return t->slots[j];
}

static uint64_t mix64(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ULL;
	return x ^ (x >> 33);
}

/* Key 0 marks an empty slot; a real key 0 is stored as ~0. */
static uint64_t map_key(uint64_t key)
{
	return key ? key : ~0ULL;
}

static int map_grow(struct report_map *m)
{
	size_t cap = m->cap ? 2 * m->cap : 256;
	uint64_t *keys = calloc(cap, sizeof(*keys));
	uint32_t *vals = calloc(cap, sizeof(*vals));

	if (!keys || !vals) {
		free(keys);
		free(vals);
		return -ENOMEM;
	}
	for (size_t i = 0; i < m->cap; i++) {
		size_t j;

		if (!m->keys[i])
			continue;
		j = mix64(m->keys[i]) & (cap - 1);
		while (keys[j])
			j = (j + 1) & (cap - 1);
		keys[j] = m->keys[i];
		vals[j] = m->vals[i];
	}
	free(m->keys);
	free(m->vals);
	m->keys = keys;
	m->vals = vals;
	m->cap = cap;
	return 0;
}

int report_map_put(struct report_map *m, uint64_t key, uint32_t val)
{
	size_t j;

	if (2 * (m->n + 1) > m->cap && map_grow(m))
		return -ENOMEM;
	key = map_key(key);
	j = mix64(key) & (m->cap - 1);
	for (; m->keys[j]; j = (j + 1) & (m->cap - 1))
		if (m->keys[j] == key)
			break;
	if (!m->keys[j])
		m->n++;
	m->keys[j] = key;
	m->vals[j] = val;
	return 0;
}

bool report_map_get(const struct report_map *m, uint64_t key, uint32_t *val)
{
	size_t j;

	if (!m->cap)
		return false;
	key = map_key(key);
	j = mix64(key) & (m->cap - 1);
	for (; m->keys[j]; j = (j + 1) & (m->cap - 1))
		if (m->keys[j] == key) {
			*val = m->vals[j];
			return true;
		}
	return false;
}

void report_map_free(struct report_map *m)
{
	free(m->keys);
	free(m->vals);
	memset(m, 0, sizeof(*m));
}

/* Grows an array of elem-sized items to hold one more. */
static int grow(void **arr, size_t *cap, size_t n, size_t elem)
{
	void *p;
	size_t c;

	if (n < *cap)
		return 0;
	c = *cap ? *cap * 2 : 64;
	p = realloc(*arr, c * elem);
	if (!p)
		return -ENOMEM;
	*arr = p;
	*cap = c;
	return 0;
}

static uint64_t name_key(const char *host, const char *ca, int port)
{
	return report_hash_str(report_hash_str(0, host), ca) ^ mix64((uint64_t)port);
}

/* An HCA port by GUID (or host/ca/port when the GUID is 0), added if new. */
int report_hport_get(struct report *r, const char *host, const char *ca,
		     int port, uint64_t guid, uint32_t *idx)
{
	uint64_t nk = name_key(host, ca, port);
	struct report_hport *h;

	if ((guid && report_map_get(&r->hport_by_guid, guid, idx)) ||
	    (!guid && report_map_get(&r->hport_by_name, nk, idx)))
		return 0;
	if (grow((void **)&r->hports, &r->cap_hports, r->n_hports, sizeof(*h)))
		return -ENOMEM;
	h = &r->hports[r->n_hports];
	memset(h, 0, sizeof(*h));
	h->host = report_intern(r->strs, host);
	h->ca = report_intern(r->strs, ca);
	h->port = port;
	h->guid = guid;
	h->rail = -1;
	h->link = -1;
	h->min_gbps = -1;
	if (!h->host || !h->ca)
		return -ENOMEM;
	*idx = (uint32_t)r->n_hports;
	if ((guid && report_map_put(&r->hport_by_guid, guid, *idx)) ||
	    report_map_put(&r->hport_by_name, nk, *idx))
		return -ENOMEM;
	r->n_hports++;
	return 0;
}

uint64_t report_end_key(uint64_t guid, int port)
{
	return mix64(guid) ^ (uint64_t)port * 0x9e3779b97f4a7c15ULL;
}

/* Ties an HCA end of a link to the HCA port it names. */
static void link_hport(struct report *r, const struct report_end *e, int li)
{
	uint32_t idx;

	if (e->type != 'c')
		return;
	if ((e->guid && report_map_get(&r->hport_by_guid, e->guid, &idx)) ||
	    (e->host && e->ca && report_map_get(&r->hport_by_name,
			name_key(e->host, e->ca, e->port), &idx)))
		r->hports[idx].link = li;
}

int report_link_add(struct report *r, const struct report_link *l)
{
	int li = report_link_find(r, l->a.guid, l->a.port);

	if (li < 0)
		li = report_link_find(r, l->b.guid, l->b.port);
	if (li < 0) {
		if (grow((void **)&r->links, &r->cap_links, r->n_links,
			 sizeof(*l)))
			return -ENOMEM;
		li = (int)r->n_links++;
	}
	r->links[li] = *l;
	if (report_map_put(&r->link_by_end, report_end_key(l->a.guid, l->a.port),
			   (uint32_t)li) ||
	    report_map_put(&r->link_by_end, report_end_key(l->b.guid, l->b.port),
			   (uint32_t)li))
		return -ENOMEM;
	link_hport(r, &l->a, li);
	link_hport(r, &l->b, li);
	return 0;
}

int report_link_find(const struct report *r, uint64_t guid, int port)
{
	uint32_t li;

	if (!guid || !report_map_get(&r->link_by_end, report_end_key(guid, port),
				     &li))
		return -1;
	return (int)li;
}

int report_pair_add(struct report *r, const struct attr_pair *p,
		    const struct report_meas *m)
{
	if (r->n_pairs == r->cap_pairs) {
		size_t cap = r->cap_pairs ? 2 * r->cap_pairs : 65536;
		struct attr_pair *np = realloc(r->pairs, cap * sizeof(*np));
		struct report_meas *nm;

		if (!np)
			return -ENOMEM;
		r->pairs = np;
		nm = realloc(r->meas, cap * sizeof(*nm));
		if (!nm)
			return -ENOMEM;
		r->meas = nm;
		r->cap_pairs = cap;
	}
	r->pairs[r->n_pairs] = *p;
	r->meas[r->n_pairs++] = *m;
	return 0;
}

/* Once every file is read: HCA ends of links to the ports they name. */
void report_link_hports(struct report *r)
{
	for (size_t i = 0; i < r->n_links; i++) {
		link_hport(r, &r->links[i].a, (int)i);
		link_hport(r, &r->links[i].b, (int)i);
	}
}

/* A stable key naming a finding's subject and category, for dedup. */
static char *finding_key(const json_t *rec)
{
	const char *cat = json_string_value(json_object_get(rec, "category"));
	char *subj = json_dumps(json_object_get(rec, "subject"),
				JSON_SORT_KEYS | JSON_COMPACT);
	char *key = NULL;

	if (subj && asprintf(&key, "%s|%s", cat, subj) < 0)
		key = NULL;
	free(subj);
	return key;
}

/* Takes a finding in (a new reference is kept); the same one twice counts. */
int report_finding_take(struct report *r, json_t *rec)
{
	char *key = finding_key(rec);
	json_t *known;
	int ret = -ENOMEM;

	if (!key)
		return -ENOMEM;
	known = json_object_get(r->finding_keys, key);
	if (known) {
		r->findings[json_integer_value(known)].count++;
		ret = 0;
		goto out;
	}
	if (grow((void **)&r->findings, &r->cap_findings, r->n_findings,
		 sizeof(*r->findings)))
		goto out;
	if (json_object_set_new(r->finding_keys, key,
				json_integer((json_int_t)r->n_findings)))
		goto out;
	r->findings[r->n_findings].rec = json_incref(rec);
	r->findings[r->n_findings].own = false;
	r->findings[r->n_findings++].count = 1;
	ret = 0;
out:
	free(key);
	return ret;
}

const char *report_node_name(struct report *r, uint64_t guid,
			     const char *fallback)
{
	const char *name = guid ? namemap_lookup(r->node_names, guid) : NULL;

	return name ? name : fallback;
}

int report_load_node_name_map(struct report *r, const char *path)
{
	namemap_free(r->node_names);
	r->node_names = NULL;
	return namemap_load(path, &r->node_names, r->error, sizeof(r->error));
}
