// SPDX-License-Identifier: MIT
/*
 * The inventory: each rank reports its port to rank 0 (worker.c), which
 * gathers them (coord_inventory.c) and sorts them into the order every
 * schedule is computed over (burnin_inventory_sort() here). --dry-run can
 * read it from `port` records instead (--inventory FILE), touching no
 * device.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "burnin/inventory.h"
#include "common/log.h"
#include "common/record.h"

static int port_cmp(const void *x, const void *y)
{
	const struct dpath_port *a = x, *b = y;
	int c = strcmp(a->host, b->host);

	if (!c)
		c = strcmp(a->ca, b->ca);
	return c ? c : a->port - b->port;
}

void burnin_inventory_sort(struct dpath_port *ports, int n)
{
	if (n > 1) /* an empty inventory may be NULL: no qsort(NULL, 0) */
		qsort(ports, (size_t)n, sizeof(*ports), port_cmp);
}

void burnin_port_name(const struct dpath_port *p, char *buf, size_t len)
{
	snprintf(buf, len, "%s:%s:%d", p->host, p->ca, p->port);
}

int burnin_inventory_find(const struct dpath_port *ports, int n,
			  const char *name)
{
	char buf[2 * DPATH_NAME_MAX + 16];

	for (int i = 0; i < n; i++) {
		burnin_port_name(&ports[i], buf, sizeof(buf));
		if (!strcmp(buf, name))
			return i;
	}
	return -1;
}

/* The optional "leaf" switch port reference of a port record. */
static void leaf_from_record(const json_t *leaf, struct dpath_port *p)
{
	const char *guid = json_string_value(json_object_get(leaf, "guid"));
	const char *name = json_string_value(json_object_get(leaf, "node"));

	if (!guid || record_guid_parse(guid, &p->leaf_guid))
		p->leaf_guid = 0;
	p->leaf_port = (int)json_integer_value(json_object_get(leaf, "port"));
	snprintf(p->leaf_name, sizeof(p->leaf_name), "%s", name ? name : "");
}

static void port_from_record(const json_t *rec, struct dpath_port *p)
{
	const char *s;

	memset(p, 0, sizeof(*p));
	snprintf(p->host, sizeof(p->host), "%s",
		 json_string_value(json_object_get(rec, "host")));
	snprintf(p->ca, sizeof(p->ca), "%s",
		 json_string_value(json_object_get(rec, "ca")));
	p->port = (int)json_integer_value(json_object_get(rec, "port"));
	s = json_string_value(json_object_get(rec, "guid"));
	if (s)
		record_guid_parse(s, &p->guid);
	p->lid = (uint16_t)json_integer_value(json_object_get(rec, "lid"));
	p->ethernet =
		!strcmp(json_string_value(json_object_get(rec, "link_layer")),
			"Ethernet");
	snprintf(p->state, sizeof(p->state), "%s",
		 json_string_value(json_object_get(rec, "state")));
	p->rate_gbps = json_number_value(json_object_get(rec, "rate_gbps"));
	p->width = (int)json_integer_value(json_object_get(rec, "width"));
	s = json_string_value(json_object_get(rec, "speed"));
	snprintf(p->speed, sizeof(p->speed), "%s", s ? s : "");
	p->rail = (int)json_integer_value(json_object_get(rec, "rail"));
	leaf_from_record(json_object_get(rec, "leaf"), p);
	p->numa_node = -1;
	p->gid_index = -1;
}

static bool name_too_long(const json_t *rec, const char *key, size_t size)
{
	return json_string_length(json_object_get(rec, key)) >= size;
}

int burnin_inventory_load(const char *path, struct dpath_port **ports, int *n)
{
	struct record_reader *r = record_reader_open(path);
	struct dpath_port *p = NULL, *grown;
	char name[2 * DPATH_NAME_MAX + 16];
	json_t *rec;
	int k = 0, ret;

	if (!r) {
		log_error("%s: %m", path);
		return -errno;
	}
	while ((ret = record_reader_next(r, &rec)) == 1) {
		if (!strcmp(json_string_value(json_object_get(rec, "kind")),
			    "port")) {
			grown = realloc(p, (size_t)(k + 1) * sizeof(*p));
			if (!grown) {
				json_decref(rec);
				ret = -ENOMEM;
				break;
			}
			p = grown;
			if (name_too_long(rec, "host", sizeof(p->host)) ||
			    name_too_long(rec, "ca", sizeof(p->ca))) {
				/* cut, two ports would merge (D16) */
				log_error("%s:%lu: port record: host or ca "
					  "name longer than %zu bytes",
					  path, record_reader_line(r),
					  sizeof(p->host) - 1);
				json_decref(rec);
				ret = -EINVAL;
				goto out;
			}
			port_from_record(rec, &p[k]);
			burnin_port_name(&p[k], name, sizeof(name));
			if (burnin_inventory_find(p, k, name) < 0)
				k++; /* a resumed file lists its ports again */
		}
		json_decref(rec);
	}
	if (ret == -EINVAL)
		log_error("%s", record_reader_error(r));
out:
	record_reader_close(r);
	if (ret) {
		free(p);
		return ret;
	}
	burnin_inventory_sort(p, k);
	*ports = p;
	*n = k;
	return 0;
}
