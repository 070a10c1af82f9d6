// SPDX-License-Identifier: MIT
/*
 * Scope of kernel log events (`event` records of `ibproof node`), the rule
 * of the operators' runbooks: the same storage peer NID on many nodes, or
 * the same kind of event on many nodes within 2 minutes, is one
 * `common-cause` finding; on one node it stays that node's. The kernel log
 * findings taken in say which ("scope": "node" or "common-cause").
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/record.h"
#include "reports/report.h"

#define EVENT_WINDOW_S 120.0

static const char *str(const json_t *o, const char *k)
{
	return json_string_value(json_object_get(o, k));
}

static const char *event_host(const json_t *ev)
{
	const char *h = str(json_object_get(ev, "subject"), "host");

	return h ? h : str(ev, "host");
}

/* "2026-12-03T04:16:33Z" -> seconds; -1 when absent or malformed. */
static double event_time(const json_t *ev)
{
	const char *at = str(ev, "at");
	struct tm tm = { 0 };
	char *end;

	if (!at)
		return -1;
	end = strptime(at, "%Y-%m-%dT%H:%M:%S", &tm);
	if (!end)
		return -1;
	return (double)timegm(&tm);
}

static void hhmm(double t, char buf[16])
{
	time_t s = (time_t)t;
	struct tm tm;

	gmtime_r(&s, &tm);
	strftime(buf, 16, "%H:%M", &tm);
}

static char *ranges_of(const json_t *set)
{
	const char **hosts = calloc(json_object_size(set) + 1, sizeof(*hosts));
	struct report_buf b = { 0 };
	const char *key;
	json_t *v;
	size_t n = 0;

	if (!hosts)
		return NULL;
	json_object_foreach((json_t *)set, key, v) hosts[n++] = key;
	report_host_ranges(&b, hosts, n);
	free(hosts);
	if (b.oom) {
		report_buf_free(&b);
		return NULL;
	}
	return b.s ? b.s : strdup("");
}

/* Storage events that say the path to a peer failed (not "restored"). */
static bool storage_trouble(const json_t *ev)
{
	return !strcmp(str(ev, "category"), "storage") && str(ev, "peer") &&
	       strcmp(str(ev, "what"), "restored");
}

struct scope_group {
	json_t *hosts; /* host -> true */
	json_t *whats; /* what -> count */
	double first, last;
};

static void group_note(struct scope_group *g, const json_t *ev)
{
	const char *what = str(ev, "what");
	double t = event_time(ev);

	json_object_set_new(g->hosts, event_host(ev), json_true());
	json_object_set_new(g->whats, what,
			    json_integer(json_integer_value(json_object_get(
						 g->whats, what)) +
					 1));
	if (t >= 0 && (g->first < 0 || t < g->first))
		g->first = t;
	if (t > g->last)
		g->last = t;
}

static int peer_finding(struct report *r, const char *peer,
			struct scope_group *g, json_t *grouped)
{
	size_t n = json_object_size(g->hosts);
	bool lost = json_object_get(g->whats, "lost") != NULL;
	char t0[16] = "?", t1[16] = "?", *ranges;
	json_t *f;

	if (n < r->params.group_min)
		return 0;
	ranges = ranges_of(g->hosts);
	if (!ranges)
		return -ENOMEM;
	if (g->first >= 0) {
		hhmm(g->first, t0);
		hhmm(g->last, t1);
	}
	f = record_finding(
		"fail", "common-cause",
		json_pack("{s:s, s:s, s:s}", "scope", "peer", "peer", peer,
			  "hosts", ranges),
		json_pack("{s:i, s:O, s:s, s:s}", "nodes", (int)n, "events",
			  g->whats, "first", t0, "last", t1),
		"none",
		"storage server %s: %zu nodes (%s) %s between %s and %s (kernel "
		"log): a common cause (the server or the fabric path to it), "
		"not each node",
		peer, n, ranges, lost ? "lost it" : "logged errors for it", t0,
		t1);
	free(ranges);
	if (!f)
		return -ENOMEM;
	json_object_set_new(grouped, peer, json_true());
	json_array_append(r->groups, f);
	return report_add_finding(r, f);
}

/* Rule 1: the same peer NID on group_min or more nodes. */
static int group_peers(struct report *r, json_t *grouped)
{
	json_t *peers = json_object(), *g;
	const char *peer;
	size_t i;
	int ret = 0;

	if (!peers)
		return -ENOMEM;
	for (i = 0; i < json_array_size(r->events); i++) {
		const json_t *ev = json_array_get(r->events, i);

		if (!storage_trouble(ev))
			continue;
		g = json_object_get(peers, str(ev, "peer"));
		if (!g) {
			g = json_pack("{s:{}, s:{}, s:f, s:f}", "hosts",
				      "whats", "first", -1.0, "last", -1.0);
			json_object_set_new(peers, str(ev, "peer"), g);
		}
		{
			struct scope_group sg = {
				json_object_get(g, "hosts"),
				json_object_get(g, "whats"),
				json_real_value(json_object_get(g, "first")),
				json_real_value(json_object_get(g, "last")),
			};

			group_note(&sg, ev);
			json_object_set_new(g, "first", json_real(sg.first));
			json_object_set_new(g, "last", json_real(sg.last));
		}
	}
	json_object_foreach(peers, peer, g)
	{
		struct scope_group sg = {
			json_object_get(g, "hosts"),
			json_object_get(g, "whats"),
			json_real_value(json_object_get(g, "first")),
			json_real_value(json_object_get(g, "last")),
		};

		if (!ret)
			ret = peer_finding(r, peer, &sg, grouped);
	}
	json_decref(peers);
	return ret;
}

/* Rule 2 input: events of one kind, with a time, and no peer. */
struct timed {
	const json_t *ev;
	double t;
};

static int cmp_timed(const void *x, const void *y)
{
	const struct timed *a = x, *b = y;
	int c = strcmp(str(a->ev, "category"), str(b->ev, "category"));

	if (!c)
		c = strcmp(str(a->ev, "what"), str(b->ev, "what"));
	return c ? c : (a->t > b->t) - (a->t < b->t);
}

static int kind_finding(struct report *r, const struct timed *tv, size_t n,
			json_t *grouped)
{
	struct scope_group g = { json_object(), json_object(), -1, -1 };
	const char *cat = str(tv[0].ev, "category");
	const char *what = str(tv[0].ev, "what");
	char t0[16], t1[16], key[160], *ranges = NULL;
	size_t nh;
	int ret = 0;

	for (size_t i = 0; i < n; i++)
		group_note(&g, tv[i].ev);
	nh = json_object_size(g.hosts);
	if (nh >= r->params.group_min) {
		json_t *f;
		const char *h;
		json_t *v;

		ret = -ENOMEM;
		ranges = ranges_of(g.hosts);
		if (!ranges)
			goto out;
		hhmm(g.first, t0);
		hhmm(g.last, t1);
		f = record_finding(
			"fail", "common-cause",
			json_pack("{s:s, s:s, s:s, s:s}", "scope", "time",
				  "category", cat, "what", what, "hosts",
				  ranges),
			json_pack("{s:i, s:s, s:s}", "nodes", (int)nh, "first",
				  t0, "last", t1),
			"none",
			"%zu nodes (%s) logged %s %s within 2 minutes "
			"(%s-%s, kernel log): a common cause (a switch, the "
			"fabric, power) rather than each node",
			nh, ranges, cat, what, t0, t1);
		if (!f)
			goto out;
		json_object_foreach(g.hosts, h, v)
		{
			snprintf(key, sizeof(key), "%s %s", h, cat);
			json_object_set_new(grouped, key, json_true());
		}
		json_array_append(r->groups, f);
		ret = report_add_finding(r, f);
	}
out:
	free(ranges);
	json_decref(g.hosts);
	json_decref(g.whats);
	return ret;
}

/* Rule 2: the same kind within 2 minutes on group_min or more nodes. */
static int group_kinds(struct report *r, json_t *grouped)
{
	size_t n = 0, cap = json_array_size(r->events);
	struct timed *tv = calloc(cap + 1, sizeof(*tv));
	int ret = 0;

	if (!tv)
		return -ENOMEM;
	for (size_t i = 0; i < cap; i++) {
		const json_t *ev = json_array_get(r->events, i);
		double t = event_time(ev);

		if (t < 0 || str(ev, "peer") ||
		    !strcmp(str(ev, "category"), "hung-task") ||
		    !strcmp(str(ev, "what"), "up") ||
		    !strcmp(str(ev, "what"), "init") ||
		    !strcmp(str(ev, "what"), "armed") ||
		    !strcmp(str(ev, "what"), "plugged"))
			continue;
		tv[n].ev = ev;
		tv[n++].t = t;
	}
	qsort(tv, n, sizeof(*tv), cmp_timed);
	for (size_t i = 0, j; !ret && i < n; i = j) {
		for (j = i + 1;
		     j < n &&
		     !strcmp(str(tv[j].ev, "category"),
			     str(tv[i].ev, "category")) &&
		     !strcmp(str(tv[j].ev, "what"), str(tv[i].ev, "what")) &&
		     tv[j].t - tv[i].t <= EVENT_WINDOW_S;
		     j++)
			;
		ret = kind_finding(r, &tv[i], j - i, grouped);
	}
	free(tv);
	return ret;
}

static const char *const klog_categories[] = { "link-flapping", "hca-health",
					       "transceiver-event",
					       "storage-path-errors", NULL };

static const char *klog_event_category(const char *finding_category)
{
	if (!strcmp(finding_category, "link-flapping"))
		return "link";
	if (!strcmp(finding_category, "transceiver-event"))
		return "transceiver";
	return finding_category;
}

/* Marks each kernel log finding taken in with its scope. */
static void mark_scopes(struct report *r, const json_t *grouped)
{
	for (size_t i = 0; i < r->n_findings; i++) {
		json_t *f = r->findings[i].rec;
		const char *cat = str(f, "category"), *host, *peer;
		bool common = false;
		char key[160];
		int k;

		for (k = 0; klog_categories[k]; k++)
			if (!strcmp(cat, klog_categories[k]))
				break;
		if (r->findings[i].own || !klog_categories[k])
			continue;
		host = str(json_object_get(f, "subject"), "host");
		peer = str(json_object_get(f, "subject"), "peer");
		if (peer && json_object_get(grouped, peer))
			common = true;
		snprintf(key, sizeof(key), "%s %s", host ? host : "",
			 klog_event_category(cat));
		if (json_object_get(grouped, key))
			common = true;
		json_object_set_new(
			f, "scope",
			json_string(common ? "common-cause" : "node"));
	}
}

int report_group_events(struct report *r)
{
	json_t *grouped = json_object();
	int ret;

	if (!grouped)
		return -ENOMEM;
	ret = group_peers(r, grouped) ?: group_kinds(r, grouped);
	if (!ret)
		mark_scopes(r, grouped);
	json_decref(grouped);
	return ret;
}
