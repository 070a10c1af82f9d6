// SPDX-License-Identifier: MIT
/* The report's model: interned strings, index maps, ports, links, pairs. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/array.h"
#include "common/log.h"
#include "common/namemap.h"
#include "common/record.h"
#include "reports/report.h"

static uint64_t name_key(const char *host, const char *ca, int port)
{
	return hash_str(hash_str(0, host), ca) ^ hash_u64((uint64_t)port);
}

/* An HCA port by GUID (or host/ca/port when the GUID is 0), added if new. */
int report_hport_get(struct report *r, const char *host, const char *ca,
		     int port, uint64_t guid, uint32_t *idx)
{
	uint64_t nk, known;
	struct report_hport *h;

	/* by GUID without hashing the names: two lookups per pair record */
	if (guid && hashmap_get(&r->hport_by_guid, guid, &known)) {
		*idx = (uint32_t)known;
		return 0;
	}
	nk = name_key(host, ca, port);
	if (!guid && hashmap_get(&r->hport_by_name, nk, &known)) {
		*idx = (uint32_t)known;
		return 0;
	}
	if (array_reserve(&r->hports, &r->cap_hports, r->n_hports, sizeof(*h)))
		return -ENOMEM;
	h = &r->hports[r->n_hports];
	memset(h, 0, sizeof(*h));
	h->host = strtab_intern(&r->strs, host);
	h->ca = strtab_intern(&r->strs, ca);
	h->port = port;
	h->guid = guid;
	h->rail = -1;
	h->link = -1;
	h->min_gbps = -1;
	if (!h->host || !h->ca)
		return -ENOMEM;
	*idx = (uint32_t)r->n_hports;
	if ((guid && hashmap_put(&r->hport_by_guid, guid, *idx)) ||
	    hashmap_put(&r->hport_by_name, nk, *idx))
		return -ENOMEM;
	r->n_hports++;
	return 0;
}

uint64_t report_end_key(uint64_t guid, int port)
{
	return hash_u64(guid) ^ (uint64_t)port * 0x9e3779b97f4a7c15ULL;
}

/* Ties an HCA end of a link to the HCA port it names. */
static void link_hport(struct report *r, const struct report_end *e, int li)
{
	uint64_t idx;

	if (e->type != 'c')
		return;
	if ((e->guid && hashmap_get(&r->hport_by_guid, e->guid, &idx)) ||
	    (e->host && e->ca &&
	     hashmap_get(&r->hport_by_name, name_key(e->host, e->ca, e->port),
			 &idx)))
		r->hports[idx].link = li;
}

int report_link_add(struct report *r, const struct report_link *l)
{
	int li = report_link_find(r, l->a.guid, l->a.port);

	if (li < 0)
		li = report_link_find(r, l->b.guid, l->b.port);
	if (li < 0) {
		if (array_reserve(&r->links, &r->cap_links, r->n_links,
				  sizeof(*l)))
			return -ENOMEM;
		li = (int)r->n_links++;
	}
	r->links[li] = *l;
	if (hashmap_put(&r->link_by_end, report_end_key(l->a.guid, l->a.port),
			(uint32_t)li) ||
	    hashmap_put(&r->link_by_end, report_end_key(l->b.guid, l->b.port),
			(uint32_t)li))
		return -ENOMEM;
	link_hport(r, &l->a, li);
	link_hport(r, &l->b, li);
	return 0;
}

const struct report_xcvr *report_xcvr_at(const struct report *r, uint64_t guid,
					 int port)
{
	uint64_t idx;

	if (!guid ||
	    !hashmap_get(&r->xcvr_by_end, report_end_key(guid, port), &idx))
		return NULL;
	return &r->xcvrs[idx];
}

int report_link_find(const struct report *r, uint64_t guid, int port)
{
	uint64_t li;

	if (!guid ||
	    !hashmap_get(&r->link_by_end, report_end_key(guid, port), &li))
		return -1;
	return (int)li;
}

int report_pair_add(struct report *r, const struct attr_pair *p,
		    const struct report_meas *m)
{
	size_t cap = r->cap_pairs, cap_meas = r->cap_pairs;

	/* two arrays, one capacity: both grow alike from the same cap */
	if (array_reserve(&r->pairs, &cap, r->n_pairs, sizeof(*r->pairs)) ||
	    array_reserve(&r->meas, &cap_meas, r->n_pairs, sizeof(*r->meas)))
		return -ENOMEM;
	r->cap_pairs = cap;
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
	if (array_reserve(&r->findings, &r->cap_findings, r->n_findings,
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
