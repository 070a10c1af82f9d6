// SPDX-License-Identifier: MIT
/*
 * Scope, as operators reason about it: many ports of one switch in the
 * disable list, or many nodes failing at the same time, point to a common
 * cause (the switch, a spine, the fabric or storage side) rather than each
 * port or node. The report groups them and says so.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/record.h"
#include "reports/report.h"

/* Sorted host names of a set (object keys), for ranges. */
static const char **set_hosts(const json_t *set, size_t *n)
{
	const char **hosts = calloc(json_object_size(set) + 1, sizeof(*hosts));
	const char *key;
	json_t *v;

	*n = 0;
	if (!hosts)
		return NULL;
	json_object_foreach((json_t *)set, key, v) hosts[(*n)++] = key;
	return hosts;
}

static char *host_ranges(const json_t *set)
{
	struct report_buf b = { 0 };
	size_t n;
	const char **hosts = set_hosts(set, &n);

	if (hosts)
		report_host_ranges(&b, hosts, n);
	free(hosts);
	if (!b.s || b.oom) {
		report_buf_free(&b);
		return NULL;
	}
	return b.s;
}

static int group_add(struct report *r, json_t *finding)
{
	if (!finding)
		return -ENOMEM;
	json_array_append(r->groups, finding);
	return report_add_finding(r, finding);
}

/* The round and the time groups: note(keys, r, i) files item i < n under
 * its key (or skips it), then group(r, key, value) makes each key's
 * common-cause finding. */
static int group_by_key(struct report *r, size_t n,
			int (*note)(json_t *keys, const struct report *r,
				    size_t i),
			int (*group)(struct report *r, const char *key,
				     const json_t *value))
{
	json_t *keys = json_object(), *value;
	const char *key;
	int ret = 0;

	if (!keys)
		return -ENOMEM;
	for (size_t i = 0; !ret && i < n; i++)
		ret = note(keys, r, i);
	json_object_foreach(keys, key, value) if (!ret) ret =
		group(r, key, value);
	json_decref(keys);
	return ret;
}

static int round_group(struct report *r, const char *round, const json_t *g)
{
	json_t *hosts = json_object_get(g, "hosts");
	json_int_t low = json_integer_value(json_object_get(g, "low"));
	char *ranges;
	int ret;

	if (json_object_size(hosts) < r->params.group_min)
		return 0;
	ranges = host_ranges(hosts);
	if (!ranges)
		return -ENOMEM;
	ret = group_add(
		r,
		record_finding(
			"fail", "common-cause",
			json_pack("{s:s,s:s,s:s}", "scope", "round", "round",
				  round, "hosts", ranges),
			json_pack("{s:I,s:i}", "low_pairs", low, "nodes",
				  (int)json_object_size(hosts)),
			"none",
			"round %s: %lld pairs low at the same time on %zu nodes (%s) that are not to blame: a common cause (a spine, the fabric or storage side, an SM sweep) rather than these nodes",
			round, (long long)low, json_object_size(hosts),
			ranges));
	free(ranges);
	return ret;
}

/* A low pair that no blamed port nor cable explains, under its round. */
static int round_note(json_t *rounds, const struct report *r, size_t i)
{
	const struct attr_pair *p = &r->pairs[i];
	char key[16];
	json_t *g;

	if (p->verdict != ATTR_LOW || r->attr[p->a].blame != 0 ||
	    r->attr[p->b].blame != 0 || report_route_explained(r, i))
		return 0;
	snprintf(key, sizeof(key), "%u", r->meas[i].round);
	g = json_object_get(rounds, key);
	if (!g) {
		g = json_pack("{s:{},s:i}", "hosts", "low", 0);
		if (!g || json_object_set_new(rounds, key, g))
			return -ENOMEM;
	}
	json_object_set_new(json_object_get(g, "hosts"), r->hports[p->a].host,
			    json_true());
	json_object_set_new(json_object_get(g, "hosts"), r->hports[p->b].host,
			    json_true());
	return json_integer_set(json_object_get(g, "low"),
				json_integer_value(json_object_get(g, "low")) +
					1);
}

/* Low pairs that no blamed port explains, grouped by round (= time). */
int report_group_rounds(struct report *r)
{
	return group_by_key(r, r->n_pairs, round_note, round_group);
}

/* The switch an entry's cable ends on, or NULL. */
static const struct report_end *entry_switch(const struct report_entry *e)
{
	if (e->kind != ENTRY_PORT)
		return NULL;
	if (e->port.type == 's')
		return &e->port;
	return e->peer.type == 's' ? &e->peer : NULL;
}

static int switch_group(struct report *r, const struct report_end *sw,
			unsigned int n)
{
	char g[19], label[300];
	const char *name = sw->name ? sw->name : record_guid_str(sw->guid, g);

	record_guid_str(sw->guid, g);
	snprintf(label, sizeof(label), "switch %s", name);
	for (size_t i = 0; i < r->n_entries; i++) {
		const struct report_end *s = entry_switch(&r->entries[i]);

		if (s && s->guid == sw->guid)
			r->entries[i].group = strtab_intern(&r->strs, label);
	}
	return group_add(
		r,
		record_finding(
			"fail", "common-cause",
			json_pack("{s:s,s:s,s:s}", "scope", "switch", "node",
				  name, "guid", g),
			json_pack("{s:i}", "ports", (int)n), "none",
			"%s: %u of its ports are in the disable list: check the switch itself (power, firmware, a line card or spine uplinks) before its cables",
			name, n));
}

static int group_switches(struct report *r)
{
	struct hashmap seen = { 0 };
	int ret = 0;

	for (size_t i = 0; !ret && i < r->n_entries; i++) {
		const struct report_end *sw = entry_switch(&r->entries[i]);
		unsigned int n = 0;

		if (!sw || hashmap_get(&seen, sw->guid, NULL))
			continue;
		ret = hashmap_put(&seen, sw->guid, 1);
		for (size_t k = i; k < r->n_entries; k++) {
			const struct report_end *o =
				entry_switch(&r->entries[k]);

			n += o && o->guid == sw->guid;
		}
		if (!ret && n >= r->params.group_min)
			ret = switch_group(r, sw, n);
	}
	hashmap_free(&seen);
	return ret;
}

/* The host a node wrote a finding about itself (pcie, node checks), or NULL. */
static const char *self_host(const json_t *f)
{
	const json_t *subj = json_object_get(f, "subject");
	const char *h = json_string_value(json_object_get(subj, "host"));
	const char *writer = json_string_value(json_object_get(f, "host"));

	return h && writer && !strcmp(h, writer) ? h : NULL;
}

/* "2026-12-02T15:04" at the start of an RFC 3339 time: 16 ASCII bytes. */
static bool rfc3339_minute(const char *t)
{
	static const char form[] = "dddd-dd-ddTdd:dd";

	for (size_t i = 0; i < sizeof(form) - 1; i++)
		if (form[i] == 'd' ? !isdigit((unsigned char)t[i])
				   : t[i] != form[i])
			return false;
	return true;
}

/* A fail finding a node wrote about itself, under its minute and category.
 * D7: the key is cut only after a whole minute, never inside a character,
 * and holds the whole category. */
static int time_note(json_t *slots, const struct report *r, size_t i)
{
	const json_t *f = r->findings[i].rec;
	const char *sev = json_string_value(json_object_get(f, "severity"));
	const char *cat = json_string_value(json_object_get(f, "category"));
	const char *time = json_string_value(json_object_get(f, "time"));
	struct report_buf key = { 0 };
	json_t *set;
	int ret;

	if (r->findings[i].own || strcmp(sev, "fail") || !self_host(f) ||
	    !strcmp(cat, "common-cause") || !rfc3339_minute(time))
		return 0;
	report_buf_printf(&key, "%.16s %s", time, cat);
	if (key.oom) {
		report_buf_free(&key);
		return -ENOMEM;
	}
	set = json_object_get(slots, key.s);
	if (!set) {
		set = json_object();
		if (!set || json_object_set_new(slots, key.s, set)) {
			report_buf_free(&key);
			return -ENOMEM;
		}
	}
	ret = json_object_set_new(set, self_host(f), json_true());
	report_buf_free(&key);
	return ret;
}

static int time_group(struct report *r, const char *key, const json_t *hosts)
{
	char *ranges;
	int ret;

	if (json_object_size(hosts) < r->params.group_min)
		return 0;
	ranges = host_ranges(hosts);
	if (!ranges)
		return -ENOMEM;
	ret = group_add(
		r,
		record_finding(
			"fail", "common-cause",
			json_pack("{s:s,s:s#,s:s,s:s}", "scope", "time",
				  "minute", key, 16, "category", key + 17,
				  "hosts", ranges),
			json_pack("{s:i}", "nodes",
				  (int)json_object_size(hosts)),
			"none",
			"%zu nodes (%s) reported %s within the same minute (%.16s): a common cause (the fabric, a spine, storage or power) rather than each node",
			json_object_size(hosts), ranges, key + 17, key));
	free(ranges);
	return ret;
}

static int group_times(struct report *r)
{
	return group_by_key(r, r->n_findings, time_note, time_group);
}

int report_group_common_causes(struct report *r)
{
	return group_switches(r) ?: group_times(r);
}
