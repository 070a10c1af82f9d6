// SPDX-License-Identifier: MIT
/* The report as one JSON document (docs/records.md, "The report"). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/log.h"
#include "common/record.h"
#include "reports/report.h"

static void xcvr_set(json_t *o, const char *key, const char *v)
{
	if (v)
		json_object_set_new(o, key, json_string(v));
}

/* The transceiver at one end: its location always, facts where known. */
static json_t *xcvr_json(const struct report_end *e, const char *which)
{
	struct report_buf loc = { 0 };
	json_t *o;

	report_end_text(&loc, e);
	o = json_pack("{s:s,s:s}", "end", which, "location",
		      loc.s ? loc.s : "");
	report_buf_free(&loc);
	if (!o)
		return NULL;
	xcvr_set(o, "vendor", e->xcvr.vendor);
	xcvr_set(o, "part_number", e->xcvr.part_number);
	xcvr_set(o, "serial", e->xcvr.serial);
	if (!e->xcvr.vendor && !e->xcvr.part_number && !e->xcvr.serial) {
		struct report_buf t = { 0 };

		report_xcvr_text(&t, &e->xcvr);
		xcvr_set(o, "unreadable", t.s);
		report_buf_free(&t);
	}
	return o;
}

json_t *report_entry_json(const struct report_entry *e)
{
	json_t *o = json_pack("{s:s,s:s,s:O,s:O,s:f,s:b}", "key", e->key,
			      "action", e->action, "reasons", e->reasons,
			      "evidence", e->evidence, "confidence",
			      e->confidence, "new", e->is_new);

	if (!o)
		return NULL;
	if (e->group)
		json_object_set_new(o, "group", json_string(e->group));
	if (e->kind == ENTRY_NODE) {
		json_object_set_new(o, "node",
				    json_pack("{s:s,s:s}", "host", e->host,
					      "device", e->device));
		json_object_set_new(o, "port", json_null());
		json_object_set_new(o, "peer", json_null());
		return o;
	}
	json_object_set_new(o, "port", report_end_json(&e->port));
	json_object_set_new(o, "peer", report_end_json(&e->peer));
	if (e->n_also) {
		json_t *a = json_array();

		for (int i = 0; a && i < e->n_also; i++)
			json_array_append_new(
				a,
				json_pack("{s:o,s:o}", "port",
					  report_end_json(&e->also[i]), "peer",
					  report_end_json(&e->also_peer[i])));
		json_object_set_new(o, "same_module", a);
	}
	if (e->candidates) { /* locate: all of them, and the retest */
		json_object_set(o, "candidates", e->candidates);
		json_object_set(o, "retest", e->retest ?: json_null());
	}
	if (e->swap_port.type || e->swap_port.guid)
		json_object_set_new(o, "swap_with",
				    json_pack("{s:o,s:o}", "port",
					      report_end_json(&e->swap_port),
					      "peer",
					      report_end_json(&e->swap_peer)));
	json_object_set_new(o, "transceivers",
			    json_pack("[o,o*]", xcvr_json(&e->port, "port"),
				      e->peer.type || e->peer.guid
					      ? xcvr_json(&e->peer, "peer")
					      : NULL));
	if (e->swap_port.type || e->swap_port.guid) { /* the second cable's */
		json_t *x = json_object_get(o, "transceivers");

		json_array_append_new(x, xcvr_json(&e->swap_port, "swap_port"));
		json_array_append_new(x, xcvr_json(&e->swap_peer, "swap_peer"));
	}
	return o;
}

static json_t *findings_json(const struct report *r)
{
	json_t *a = json_array();

	for (size_t i = 0; a && i < r->n_findings; i++) {
		json_t *f = json_deep_copy(r->findings[i].rec);

		if (f && r->findings[i].count > 1)
			json_object_set_new(f, "count",
					    json_integer(r->findings[i].count));
		json_array_append_new(a, f);
	}
	return a;
}

static json_t *hport_json(const struct report *r, size_t i)
{
	const struct report_hport *h = &r->hports[i];
	unsigned int n = h->n_ok + h->n_low;
	json_t *o = record_port_ref(h->host, h->ca, h->port, h->guid);

	if (!o)
		return NULL;
	json_object_update_new(
		o,
		json_pack("{s:i,s:i,s:i,s:i,s:f,s:f,s:b}", "rail", h->rail,
			  "pairs_ok", (int)h->n_ok, "pairs_low", (int)h->n_low,
			  "pairs_not_tested", (int)h->n_untested, "avg_gbps",
			  n ? h->sum_gbps / n : 0.0, "min_gbps",
			  h->min_gbps < 0 ? 0.0 : (double)h->min_gbps, "blamed",
			  r->attr ? (r->attr[i].blame != 0) : 0));
	return o;
}

static int name_cmp(const char *a, const char *b)
{
	return strcmp(a ? a : "", b ? b : "");
}

/* Ports by host, HCA, port and GUID: the same order whatever thread read
 * which record first. */
static int hport_cmp(const void *x, const void *y, void *arg)
{
	const struct report *r = arg;
	const struct report_hport *a = &r->hports[*(const size_t *)x];
	const struct report_hport *b = &r->hports[*(const size_t *)y];
	int c = name_cmp(a->host, b->host) ?: name_cmp(a->ca, b->ca);

	if (c || a->port != b->port)
		return c ? c : a->port < b->port ? -1 : 1;
	return a->guid < b->guid ? -1 : a->guid > b->guid;
}

static json_t *ports_json(const struct report *r)
{
	size_t *order = malloc((r->n_hports + 1) * sizeof(*order));
	json_t *ports = order ? json_array() : NULL;

	for (size_t i = 0; order && i < r->n_hports; i++)
		order[i] = i;
	if (order)
		qsort_r(order, r->n_hports, sizeof(*order), hport_cmp,
			(void *)r);
	for (size_t i = 0; ports && i < r->n_hports; i++)
		json_array_append_new(ports, hport_json(r, order[i]));
	free(order);
	return ports;
}

json_t *report_to_json(const struct report *r)
{
	char verdict[1024], now[32];
	json_t *doc, *disable = json_array(), *ports = ports_json(r);

	report_verdict_line(r, verdict, sizeof(verdict));
	for (size_t i = 0; disable && i < r->n_entries; i++)
		json_array_append_new(disable,
				      report_entry_json(&r->entries[i]));
	doc = json_pack(
		"{s:s,s:s,s:s,s:s,s:s,s:s,s:{s:I,s:I,s:I,s:I},"
		"s:o,s:O,s:O,s:o,s:O,s:o}",
		"schema", RECORD_SCHEMA, "kind", "report", "version",
		IBPROOF_VERSION, "time", record_time_now(now), "verdict",
		report_passed(r)		      ? "pass"
		: !strncmp(verdict, "INCOMPLETE", 10) ? "incomplete"
						      : "fail",
		"summary", verdict, "counts", "pair_records",
		(json_int_t)r->n_pairs, "other_records",
		(json_int_t)r->n_records, "hca_ports", (json_int_t)r->n_hports,
		"links", (json_int_t)r->n_links, "disable", disable, "reenable",
		r->reenable, "still_disabled_untested", r->still_disabled,
		"findings", findings_json(r), "groups", r->groups, "ports",
		ports);
	if (doc) /* per tool and part: in scope, tested, not (issue 32) */
		json_object_set_new(doc, "coverage", report_coverage_json(r));
	if (doc) /* the per-cable view: windows, bits, errors, BER */
		json_object_set_new(doc, "cables", report_cable_rows_json(r));
	if (doc && r->judging) /* the options pairs were judged with */
		json_object_set(doc, "judging", r->judging);
	return doc;
}

int report_write_json(const struct report *r, const char *path)
{
	json_t *doc = report_to_json(r);
	int ret;

	if (!doc) {
		log_error("%s: could not build the JSON report", path);
		return -ENOMEM;
	}
	ret = json_dump_file(doc, path, JSON_INDENT(1) | JSON_SORT_KEYS);
	json_decref(doc);
	if (ret) {
		log_error("%s: could not write the JSON report: %m", path);
		return -EIO;
	}
	return 0;
}
