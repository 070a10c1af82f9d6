// SPDX-License-Identifier: MIT
/*
 * Kernel log events -> findings (klog.h): flaps counted per port within
 * --window, HCA health, cable module events, storage-path errors per peer
 * NID, hung tasks. Pure: events in, finding records out.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/record.h"
#include "node/klog.h"
#include "node/node.h"

/* 9999-12-31T23:59:59Z: later is no time a log line means (and would
 * not fit a time_t's conversion) */
#define KLOG_TIME_MAX 253402300799.0

char *klog_time_str(const struct klog_event *ev, char buf[40])
{
	struct tm tm;
	time_t t;

	if (ev->time > KLOG_TIME_MAX) {
		snprintf(buf, 40, "time out of range");
	} else if (ev->time >= 0) {
		t = (time_t)ev->time;
		if (gmtime_r(&t, &tm))
			strftime(buf, 40, "%Y-%m-%dT%H:%M:%SZ", &tm);
		else
			snprintf(buf, 40, "time out of range");
	} else if (ev->mono >= 0) {
		snprintf(buf, 40, "uptime %.1f s", ev->mono);
	} else {
		snprintf(buf, 40, "time unknown");
	}
	return buf;
}

/* The time axis of an event: UTC when known, else seconds since boot. */
static double axis(const struct klog_event *ev)
{
	return ev->time >= 0 ? ev->time : ev->mono >= 0 ? ev->mono : 0;
}

/* Within the window before now, or of unknown age: counts as fresh. */
static bool fresh(const struct klog_event *ev, const struct klog_params *p)
{
	return ev->time < 0 || p->now <= 0 || ev->time >= p->now - p->window_s;
}

static const struct node_port *port_of(const struct klog_params *p,
				       const struct klog_event *ev)
{
	return p->port_of ? p->port_of(p->port_arg, ev) : NULL;
}

static json_t *subject_of(const struct klog_params *p,
			  const struct klog_event *ev)
{
	const struct node_port *port = port_of(p, ev);
	json_t *s = port ? node_port_ref(p->host, port)
			 : json_pack("{s:s}", "host", p->host);

	json_object_set_new(s, "device", json_string(ev->device));
	if (ev->bdf[0])
		json_object_set_new(s, "bdf", json_string(ev->bdf));
	return s;
}

/* "mlx5_0 port 1 (ens1f0np0)" or the device name. */
static void port_name(const struct klog_params *p, const struct klog_event *ev,
		      char *buf, size_t len)
{
	const struct node_port *port = port_of(p, ev);

	if (port && strcmp(port->ca, ev->device))
		snprintf(buf, len, "%s port %d (%s)", port->ca, port->port,
			 ev->device);
	else if (port)
		snprintf(buf, len, "%s port %d", port->ca, port->port);
	else
		snprintf(buf, len, "%s", ev->device);
}

/* ---- link flapping ---- */

/* A cable unplugged takes the link down with it. */
static bool is_unplug(const struct klog_event *ev)
{
	return ev->kind == KLOG_TRANSCEIVER && !strcmp(ev->what, "unplugged");
}

/* A line about the state of a port's link (down, up, init, ...). */
static bool is_link(const struct klog_event *ev)
{
	return ev->kind == KLOG_LINK || is_unplug(ev);
}

static bool same_port(const struct klog_params *p, const struct klog_event *a,
		      const struct klog_event *b)
{
	const struct node_port *pa = port_of(p, a), *pb = port_of(p, b);

	if (pa || pb)
		return pa == pb;
	if (a->port && b->port && a->port != b->port)
		return false;
	return !strcmp(a->device, b->device);
}

/* Time order; lines of one instant in the order of the log. */
static int cmp_axis(const void *x, const void *y)
{
	const struct klog_event *ea = *(const struct klog_event *const *)x;
	const struct klog_event *eb = *(const struct klog_event *const *)y;
	double a = axis(ea), b = axis(eb);

	if (a != b)
		return a < b ? -1 : 1;
	return ea->line < eb->line ? -1 : ea->line > eb->line;
}

static void flap_finding(const struct klog_params *p,
			 const struct klog_event **d, int n, json_t *findings,
			 int *fails)
{
	bool fail = n >= p->flap_fail && fresh(d[n - 1], p);
	json_t *times = json_array();
	char name[160], t0[40], t1[40], sh[240];

	for (int i = 0; i < n; i++) {
		char t[40];

		json_array_append_new(times,
				      json_string(klog_time_str(d[i], t)));
	}
	port_name(p, d[0], name, sizeof(name));
	klog_time_str(d[0], t0);
	klog_time_str(d[n - 1], t1);
	snprintf(sh, sizeof(sh), "%s flapping (%d downs in %.0f h)", name, n,
		 p->window_s / 3600);
	*fails += fail;
	json_array_append_new(
		findings,
		record_finding(
			fail ? "fail" : "warn", "link-flapping",
			subject_of(p, d[0]),
			json_pack("{s:i, s:f, s:o, s:s, s:s, s:s, s:b}",
				  "downs", n, "window_s", p->window_s, "times",
				  times, "first", t0, "last", t1, "short", sh,
				  "fresh", fresh(d[n - 1], p)),
			fail ? "reseat" : "none",
			"%s %s: the link went down %d time%s %s %s%s%s "
			"(kernel log; %d or more within %.0f h is "
			"flapping)%s",
			p->host, name, n, n == 1 ? "" : "s",
			n == 1 ? "at" : "between", t0, n == 1 ? "" : " and ",
			n == 1 ? "" : t1, p->flap_fail, p->window_s / 3600,
			fail ? ": reseat or replace the cable, then check "
			       "again"
			: n >= p->flap_fail ? ": before the last window, watch "
					      "it"
					    : ""));
}

/*
 * Downs of one port, sorted: first every window of window_s that holds
 * flap_fail or more (the fullest first), then the rest in windows from the
 * earliest down on.
 */
static void judge_port_flaps(const struct klog_params *p,
			     const struct klog_event **d, int n,
			     json_t *findings, int *fails)
{
	bool *used = calloc((size_t)n, sizeof(*used));
	const struct klog_event **w = calloc((size_t)n, sizeof(*w));

	if (!used || !w)
		goto out;
	for (;;) {
		int best = -1, best_n = 0, k;

		for (int i = 0; i < n; i++) {
			int c = 0;

			for (int j = i; !used[i] && j < n &&
					axis(d[j]) - axis(d[i]) < p->window_s;
			     j++)
				c += !used[j];
			if (c > best_n)
				best = i, best_n = c;
		}
		if (best < 0 || best_n < p->flap_fail)
			break;
		k = 0;
		for (int j = best;
		     j < n && axis(d[j]) - axis(d[best]) < p->window_s; j++)
			if (!used[j])
				used[j] = true, w[k++] = d[j];
		flap_finding(p, w, k, findings, fails);
	}
	for (int i = 0; i < n;) {
		int k = 0, j;

		if (used[i]) {
			i++;
			continue;
		}
		for (j = i; j < n && axis(d[j]) - axis(d[i]) < p->window_s; j++)
			if (!used[j])
				used[j] = true, w[k++] = d[j];
		flap_finding(p, w, k, findings, fails);
		i = j;
	}
out:
	free(used);
	free(w);
}

/* The link as one source (a table row) last saw it. */
enum link_seen {
	SEEN_NONE,
	SEEN_UP,
	SEEN_DOWN,
	SEEN_INIT, /* INIT or ARMED, not after ACTIVE */
	SEEN_INIT_AFTER_UP, /* INIT or ARMED right after ACTIVE: a flap */
};

struct flap_source {
	const char *pattern;
	enum link_seen seen;
};

#define KLOG_FLAP_SOURCES 8

static struct flap_source *flap_source(struct flap_source *src, int *n,
				       const char *pattern)
{
	for (int i = 0; i < *n; i++)
		if (!strcmp(src[i].pattern, pattern))
			return &src[i];
	if (*n == KLOG_FLAP_SOURCES)
		return &src[*n - 1];
	src[*n] = (struct flap_source){ .pattern = pattern };
	return &src[(*n)++];
}

/*
 * Does ev take the link down, as its source saw it? Every down or unplug
 * does (two downs with no up logged between are two: the up went
 * unlogged), except the DOWN that follows an INIT that already counted;
 * ib_core's INIT or ARMED does when the source last saw the port ACTIVE
 * (so DOWN -> INIT -> ACTIVE is one flap, and ACTIVE -> INIT -> DOWN too;
 * INIT -> ACTIVE at boot none). Updates the source.
 */
static bool takes_down(struct flap_source *s, const struct klog_event *ev)
{
	enum link_seen was = s->seen;

	if (!strcmp(ev->what, "up")) {
		s->seen = SEEN_UP;
		return false;
	}
	if (!strcmp(ev->what, "init") || !strcmp(ev->what, "armed")) {
		if (was == SEEN_INIT_AFTER_UP)
			return false;
		s->seen = was == SEEN_UP ? SEEN_INIT_AFTER_UP : SEEN_INIT;
		return was == SEEN_UP;
	}
	if (!strcmp(ev->what, "down") || is_unplug(ev)) {
		s->seen = SEEN_DOWN;
		return was != SEEN_INIT_AFTER_UP;
	}
	return false;
}

/*
 * The flaps of one port's link lines l (sorted): each source's downs, and
 * a down from another source within KLOG_FLAP_MERGE_S of the last flap's
 * first line, when that flap has none from this source yet, is the same
 * flap (a RoCE port: ib_core, its netdev and bonding log each). Writes the
 * first line of each flap to d; returns how many.
 */
static int port_flaps(const struct klog_event **l, int n,
		      const struct klog_event **d)
{
	struct flap_source src[KLOG_FLAP_SOURCES];
	unsigned in_last = 0; /* sources in the last flap, by index */
	int nsrc = 0, k = 0;

	for (int i = 0; i < n; i++) {
		struct flap_source *s = flap_source(src, &nsrc, l[i]->pattern);
		unsigned bit = 1u << (s - src);

		if (!takes_down(s, l[i]))
			continue;
		if (k && !(in_last & bit) &&
		    axis(l[i]) - axis(d[k - 1]) <= KLOG_FLAP_MERGE_S) {
			in_last |= bit;
			continue;
		}
		d[k++] = l[i];
		in_last = bit;
	}
	return k;
}

static int judge_flaps(const struct klog_event *ev, int n,
		       const struct klog_params *p, json_t *findings)
{
	const struct klog_event **l = calloc((size_t)n + 1, sizeof(*l));
	const struct klog_event **d = calloc((size_t)n + 1, sizeof(*d));
	bool *done = calloc((size_t)n + 1, sizeof(*done));
	int fails = 0;

	for (int i = 0; l && d && done && i < n; i++) {
		int k = 0;

		if (done[i] || !is_link(&ev[i]))
			continue;
		for (int j = i; j < n; j++)
			if (!done[j] && is_link(&ev[j]) &&
			    same_port(p, &ev[i], &ev[j]))
				done[j] = true, l[k++] = &ev[j];
		qsort(l, (size_t)k, sizeof(*l), cmp_axis);
		k = port_flaps(l, k, d);
		if (k)
			judge_port_flaps(p, d, k, findings, &fails);
	}
	free(l);
	free(d);
	free(done);
	return fails;
}

/* ---- events grouped by a key: health, modules, storage, hung tasks ---- */

struct group {
	const struct klog_event *first, *last;
	int n;
	json_t *whats; /* what -> count */
	json_t *targets; /* target -> true */
	const char *target_type; /* of the first event that names one */
	bool any_fresh;
};

static const char *group_key(const struct klog_event *ev)
{
	switch (ev->kind) {
	case KLOG_STORAGE:
		return ev->peer[0] ? ev->peer : ev->target;
	case KLOG_HUNG_TASK:
		return ev->process;
	default:
		return ev->device;
	}
}

static void group_add(struct group *g, const struct klog_event *ev,
		      const struct klog_params *p)
{
	json_int_t c = json_integer_value(json_object_get(g->whats, ev->what));

	if (!g->n)
		g->first = ev;
	g->last = ev;
	g->n++;
	g->any_fresh |= fresh(ev, p);
	json_object_set_new(g->whats, ev->what, json_integer(c + 1));
	if (ev->target[0])
		json_object_set_new(g->targets, ev->target, json_true());
	if (!g->target_type)
		g->target_type = ev->target_type;
}

static json_int_t what_n(const struct group *g, const char *what)
{
	return json_integer_value(json_object_get(g->whats, what));
}

static void whats_text(const struct group *g, char *buf, size_t len)
{
	const char *k;
	json_t *v;
	size_t o = 0;

	buf[0] = '\0';
	json_object_foreach(g->whats, k, v)
	{
		int w = snprintf(buf + o, len - o, "%s%s x%lld", o ? ", " : "",
				 k, (long long)json_integer_value(v));

		if (w < 0 || (size_t)w >= len - o)
			break;
		o += (size_t)w;
	}
}

static int health_finding(const struct klog_params *p, struct group *g,
			  json_t *findings)
{
	char name[160], t0[40], t1[40], what[200], sh[400];
	bool fail = g->any_fresh;

	port_name(p, g->first, name, sizeof(name));
	whats_text(g, what, sizeof(what));
	snprintf(sh, sizeof(sh), "%s HCA health (%s)", name, what);
	json_array_append_new(
		findings,
		record_finding(fail ? "fail" : "warn", "hca-health",
			       subject_of(p, g->first),
			       json_pack("{s:O, s:s, s:s, s:s, s:s, s:b}",
					 "events", g->whats, "first",
					 klog_time_str(g->first, t0), "last",
					 klog_time_str(g->last, t1), "short",
					 sh, "line", g->first->text, "fresh",
					 g->any_fresh),
			       fail ? "drain-node" : "none",
			       "%s %s: the HCA reported %s between %s and %s "
			       "(kernel log): %s",
			       p->host, name, what, t0, t1,
			       fail ? "drain the node; check the firmware "
				      "and the card (mlxfwreset, mlxdump)"
				    : "before the last window"));
	return fail;
}

static void module_finding(const struct klog_params *p, struct group *g,
			   json_t *findings)
{
	char name[160], t0[40], t1[40], what[200];
	bool bad = what_n(g, "error") || what_n(g, "high-temperature");

	if (what_n(g, "plugged") == g->n)
		return; /* a module found present (every HCA at boot): no fault */
	port_name(p, g->first, name, sizeof(name));
	whats_text(g, what, sizeof(what));
	json_array_append_new(
		findings,
		record_finding(
			"warn", "transceiver-event", subject_of(p, g->first),
			json_pack("{s:O, s:i, s:s, s:s, s:s?}", "events",
				  g->whats, "module", g->first->module, "first",
				  klog_time_str(g->first, t0), "last",
				  klog_time_str(g->last, t1), "detail",
				  g->first->detail[0] ? g->first->detail
						      : NULL),
			bad ? "reseat" : "none",
			"%s %s: cable module events %s between %s and %s "
			"(kernel log)%s",
			p->host, name, what, t0, t1,
			bad ? ": reseat the module; replace it if it comes "
			      "back"
			    : ""));
}

static json_t *key_list(const json_t *set)
{
	json_t *a = json_array(), *v;
	const char *k;

	json_object_foreach((json_t *)set, k, v)
		json_array_append_new(a, json_string(k));
	return a;
}

/* "at T" or "between T0 and T1" */
static void span_text(const struct group *g, char *buf, size_t len)
{
	char t0[40], t1[40];

	klog_time_str(g->first, t0);
	klog_time_str(g->last, t1);
	if (!strcmp(t0, t1))
		snprintf(buf, len, "at %s", t0);
	else
		snprintf(buf, len, "between %s and %s", t0, t1);
}

static void storage_finding(const struct klog_params *p, struct group *g,
			    json_t *findings)
{
	bool intermittent =
		what_n(g, "lost") >= 2 && what_n(g, "restored") >= 2;
	const struct klog_event *e = g->first;
	char t0[40], t1[40], what[200], span[100], name[200];

	if (e->peer[0] && e->target[0])
		snprintf(name, sizeof(name), "storage peer %s (%s)", e->peer,
			 e->target);
	else if (e->peer[0] && g->target_type)
		snprintf(name, sizeof(name), "storage peer %s (%s)", e->peer,
			 g->target_type);
	else if (e->peer[0])
		snprintf(name, sizeof(name), "storage peer %s", e->peer);
	else if (e->target[0])
		snprintf(name, sizeof(name), "storage target %s", e->target);
	else
		snprintf(name, sizeof(name), "LNet (no peer named)");
	whats_text(g, what, sizeof(what));
	span_text(g, span, sizeof(span));
	json_array_append_new(
		findings,
		record_finding(
			"warn", "storage-path-errors",
			json_pack("{s:s, s:s}", "host", p->host, "peer",
				  e->peer[0] ? e->peer : "none"),
			json_pack("{s:O, s:o, s:s, s:s, s:b}", "events",
				  g->whats, "targets", key_list(g->targets),
				  "first", klog_time_str(g->first, t0), "last",
				  klog_time_str(g->last, t1), "intermittent",
				  intermittent),
			"none",
			"%s %s: %s %s (kernel log)%s; the cause may be the "
			"servers or the path to them: `ibproof report` says "
			"whether other nodes saw it too",
			p->host, name, what, span,
			intermittent ? ", lost and restored again and again: "
				       "an intermittent path"
				     : ""));
}

static void hung_finding(const struct klog_params *p, struct group *g,
			 json_t *findings)
{
	char t0[40];

	json_array_append_new(
		findings,
		record_finding(
			"info", "hung-task",
			json_pack("{s:s, s:s}", "host", p->host, "process",
				  g->first->process),
			json_pack("{s:i, s:I, s:I, s:s}", "times", g->n, "pid",
				  (json_int_t)g->first->pid, "seconds",
				  (json_int_t)g->first->seconds, "first",
				  klog_time_str(g->first, t0)),
			"none",
			"task %s (pid %ld) blocked for more than %ld s "
			"(%d report%s from %s; kernel log)",
			g->first->process, g->first->pid, g->first->seconds,
			g->n, g->n == 1 ? "" : "s", t0));
}

static int judge_groups(const struct klog_event *ev, int n, enum klog_kind kind,
			const struct klog_params *p, json_t *findings)
{
	bool *done = calloc((size_t)n + 1, sizeof(*done));
	int fails = 0;

	for (int i = 0; done && i < n; i++) {
		struct group g = { 0 };

		if (done[i] || ev[i].kind != kind ||
		    (kind == KLOG_TRANSCEIVER && is_unplug(&ev[i])))
			continue;
		g.whats = json_object();
		g.targets = json_object();
		for (int j = i; j < n; j++)
			if (!done[j] && ev[j].kind == kind &&
			    !(kind == KLOG_TRANSCEIVER && is_unplug(&ev[j])) &&
			    !strcmp(group_key(&ev[i]), group_key(&ev[j])))
				done[j] = true, group_add(&g, &ev[j], p);
		if (kind == KLOG_HCA_HEALTH)
			fails += health_finding(p, &g, findings);
		else if (kind == KLOG_TRANSCEIVER)
			module_finding(p, &g, findings);
		else if (kind == KLOG_STORAGE)
			storage_finding(p, &g, findings);
		else if (kind == KLOG_HUNG_TASK)
			hung_finding(p, &g, findings);
		json_decref(g.whats);
		json_decref(g.targets);
	}
	free(done);
	return fails;
}

int klog_judge(const struct klog_event *ev, int n, const struct klog_params *p,
	       json_t *findings)
{
	int fails = judge_flaps(ev, n, p, findings);

	fails += judge_groups(ev, n, KLOG_HCA_HEALTH, p, findings);
	judge_groups(ev, n, KLOG_TRANSCEIVER, p, findings);
	judge_groups(ev, n, KLOG_STORAGE, p, findings);
	judge_groups(ev, n, KLOG_HUNG_TASK, p, findings);
	return fails;
}

json_t *klog_event_record(const char *host, const struct klog_event *ev,
			  const struct node_port *port, const char *source)
{
	json_t *rec = record_new("event"), *subj;
	char t[40];

	subj = port ? node_port_ref(host, port)
		    : json_pack("{s:s}", "host", host);
	json_object_set_new(subj, "device", json_string(ev->device));
	if (!port && ev->port)
		json_object_set_new(subj, "port", json_integer(ev->port));
	if (ev->bdf[0])
		json_object_set_new(subj, "bdf", json_string(ev->bdf));
	if (ev->module >= 0)
		json_object_set_new(subj, "module", json_integer(ev->module));
	json_object_set_new(rec, "category",
			    json_string(klog_kind_name(ev->kind)));
	json_object_set_new(rec, "what", json_string(ev->what));
	json_object_set_new(rec, "pattern", json_string(ev->pattern));
	json_object_set_new(rec, "subject", subj);
	if (ev->time >= 0)
		json_object_set_new(rec, "at",
				    json_string(klog_time_str(ev, t)));
	if (ev->mono >= 0)
		json_object_set_new(rec, "uptime_s",
				    json_real(round(ev->mono * 1e6) / 1e6));
	if (ev->peer[0])
		json_object_set_new(rec, "peer", json_string(ev->peer));
	if (ev->target[0])
		json_object_set_new(rec, "target", json_string(ev->target));
	if (ev->target_type)
		json_object_set_new(rec, "target_type",
				    json_string(ev->target_type));
	if (ev->process[0]) {
		json_object_set_new(rec, "process", json_string(ev->process));
		json_object_set_new(rec, "pid", json_integer(ev->pid));
		json_object_set_new(rec, "seconds", json_integer(ev->seconds));
	}
	if (ev->detail[0])
		json_object_set_new(rec, "detail", json_string(ev->detail));
	json_object_set_new(rec, "text", json_string(ev->text));
	json_object_set_new(rec, "source",
			    json_pack("{s:s, s:I}", "file", source, "line",
				      (json_int_t)ev->line));
	return rec;
}
