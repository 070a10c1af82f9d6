// SPDX-License-Identifier: MIT
/*
 * --previous REPORT.json: the last run's disable list against this run.
 * Entries not there before are marked new; ports disabled before that were
 * tested now and passed go to the re-enable list; ports disabled before and
 * not tested now stay listed as such (never re-enabled unseen).
 */
#include <errno.h>
#include <string.h>

#include "common/ibport.h"
#include "common/log.h"
#include "common/record.h"
#include "reports/report.h"

static const char *str_of(const json_t *o, const char *key)
{
	return json_string_value(json_object_get(o, key));
}

/* An HCA port measured in this run with no fault found: what figures. */
static bool hport_passed(struct report *r, const json_t *port, json_t **why)
{
	struct report_end e;
	uint64_t idx;
	const struct report_hport *h;

	if (report_end_from(r, port, &e) || e.type != 'c' || !e.guid ||
	    !hashmap_get(&r->hport_by_guid, e.guid, &idx))
		return false;
	h = &r->hports[idx];
	if (!h->n_ok || (r->attr && (r->attr[idx].blame != 0)))
		return false;
	*why = json_pack("{s:i,s:i,s:f}", "pairs_ok", (int)h->n_ok, "pairs_low",
			 (int)h->n_low, "avg_gbps",
			 h->sum_gbps / (h->n_ok + h->n_low));
	return true;
}

/* A switch port whose link was discovered up in this run. */
static bool link_passed(struct report *r, const json_t *port, json_t **why)
{
	struct report_end e;
	int li;

	if (report_end_from(r, port, &e) || e.type == 'c')
		return false;
	li = report_link_find(r, e.guid, e.port);
	/* ib_port_state_from_name() also reads "Active": fabric link
	 * records written before the state names had one table on disk. */
	if (li < 0 ||
	    ib_port_state_from_name(r->links[li].state) != IB_PORT_STATE_ACTIVE)
		return false;
	*why = json_pack("{s:s,s:s?,s:s?}", "state", r->links[li].state,
			 "width", r->links[li].width, "speed",
			 r->links[li].speed);
	return true;
}

static bool node_passed(struct report *r, const json_t *node, json_t **why)
{
	const char *host = str_of(node, "host");
	size_t i, n = 0;
	json_t *rec;

	json_array_foreach(r->pcie, i, rec) n +=
		host && !strcmp(host, str_of(rec, "host"));
	if (!n)
		return false;
	*why = json_pack("{s:i}", "pcie_devices_checked", (int)n);
	return true;
}

static int check_old_entry(struct report *r, const json_t *old,
			   json_t *untested)
{
	const json_t *port = json_object_get(old, "port");
	json_t *why = NULL, *item;
	bool passed;

	if (json_object_get(r->entry_keys, str_of(old, "key")))
		return 0; /* still to disable */
	if (!strcmp(str_of(old, "action") ?: "", "locate"))
		return 0; /* it disabled nothing: nothing to re-enable */
	if (json_is_object(port))
		passed = hport_passed(r, port, &why) ||
			 link_passed(r, port, &why);
	else
		passed = node_passed(r, json_object_get(old, "node"), &why);
	item = json_pack("{s:s?,s:O?,s:O?,s:O?,s:s?}", "key",
			 str_of(old, "key"), "port", port, "peer",
			 json_object_get(old, "peer"), "node",
			 json_object_get(old, "node"), "location",
			 port ? str_of(port, "location")
			      : str_of(json_object_get(old, "node"), "host"));
	if (!item)
		return -ENOMEM;
	if (passed)
		json_object_set_new(item, "passed", why);
	return json_array_append_new(passed ? r->reenable : untested, item);
}

int report_apply_previous(struct report *r, const char *path)
{
	json_error_t err;
	json_t *prev = json_load_file(path, 0, &err), *old, *untested;
	const json_t *list;
	size_t i;
	int ret = 0;

	if (!prev) {
		snprintf(r->error, sizeof(r->error), "%s:%d: %s", path,
			 err.line, err.text);
		return -EINVAL;
	}
	list = json_object_get(prev, "disable");
	if (!json_is_array(list)) {
		snprintf(
			r->error, sizeof(r->error),
			"%s:1: expected an ibproof report with a 'disable' array",
			path);
		json_decref(prev);
		return -EINVAL;
	}
	for (i = 0; i < r->n_entries; i++)
		r->entries[i].is_new = true;
	json_array_foreach(list, i, old)
	{
		json_t *k = json_object_get(r->entry_keys,
					    str_of(old, "key") ?: "");

		if (k)
			r->entries[json_integer_value(k)].is_new = false;
	}
	untested = r->still_disabled;
	json_array_foreach(list, i, old) if (!ret) ret =
		check_old_entry(r, old, untested);
	json_decref(prev);
	return ret;
}
