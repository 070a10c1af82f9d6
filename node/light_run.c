// SPDX-License-Identifier: MIT
/*
 * ibproof node --light: the ports, their error counters and the kernel log
 * since the last run, then the PCIe part (light_pcie.c), the state saved,
 * the verdict and detail printed by node_report(), the textfile written.
 * No traffic except the DMA loopback sample when one is due (light_dma.c).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "rdma/port_sysfs.h"
#include "common/array.h"
#include "common/cli.h"
#include "common/clock.h"
#include "common/ibport.h"
#include "common/kernlog.h"
#include "common/log.h"
#include "common/record.h"
#include "common/text.h"
#include "node/klog.h"
#include "node/light.h"
#include "node/node.h"
#include "node/node_run.h"

#define LIGHT_COUNTERS_MAX 128
#define LIGHT_KLOG_MAX_EVENTS 100000
#define LIGHT_KLOG_MAX_LINES 2000000L

static bool live(const struct light_ctx *x)
{
	return !strcmp(x->c->o->sysfs_root, "/sys");
}

/* ---- ports ---- */

static void port_key(const struct node_port *p, char *buf, size_t len)
{
	char ca[NODE_NAME_LEN * 4];

	text_from_bytes(ca, sizeof(ca), p->ca, strlen(p->ca));
	snprintf(buf, len, "%s:%d", ca, p->port);
}

static void judge_ports(struct light_ctx *x)
{
	struct node_ctx *c = x->c;
	char port[16];

	node_judge_ctx_ports(c);
	for (int i = 0; i < c->n; i++) {
		const struct node_port *p = &c->ports[i];

		snprintf(port, sizeof(port), "%d", p->port);
		light_metric(x->m, "ibproof_port_up",
			     node_port_usable(p) ? 1 : 0, "ca", p->ca, "port",
			     port, NULL);
		light_metric(x->m, "ibproof_port_data_rate_gbps", p->rate_gbps,
			     "ca", p->ca, "port", port, NULL);
	}
}

/* ---- error counters since the last run ---- */

struct light_counters {
	char names[LIGHT_COUNTERS_MAX][DPATH_COUNTER_NAME_MAX];
	uint64_t values[LIGHT_COUNTERS_MAX];
	int n;
};

static void counters_from_state(const json_t *obj, struct light_counters *lc)
{
	const char *name;
	json_t *v;

	lc->n = 0;
	json_object_foreach((json_t *)obj, name, v)
	{
		if (lc->n == LIGHT_COUNTERS_MAX || !json_is_integer(v))
			continue;
		snprintf(lc->names[lc->n], DPATH_COUNTER_NAME_MAX, "%s", name);
		lc->values[lc->n++] = (uint64_t)json_integer_value(v);
	}
}

static json_t *counters_to_state(const struct light_counters *lc)
{
	json_t *obj = json_object();

	for (int k = 0; k < lc->n; k++)
		json_object_set_new(obj, lc->names[k],
				    json_integer((json_int_t)lc->values[k]));
	return obj;
}

/* Error counters of p that went up, as "name +N, ..."; 0 if none. */
static int port_deltas(struct light_ctx *x, const struct node_port *p,
		       const struct light_counters *b,
		       const struct light_counters *a, char *list, size_t len)
{
	uint64_t delta[LIGHT_COUNTERS_MAX];
	size_t off = 0;
	char port[16];
	int up = 0;

	snprintf(port, sizeof(port), "%d", p->port);
	dpath_counters_delta(b->names, b->values, b->n, a->names, a->values,
			     a->n, delta);
	list[0] = '\0';
	for (int k = 0; k < a->n; k++) {
		if (!node_counter_is_error(a->names[k]))
			continue;
		light_metric(x->m, "ibproof_port_error_increase",
			     (double)delta[k], "ca", p->ca, "port", port,
			     "counter", a->names[k], NULL);
		if (!delta[k])
			continue;
		up++;
		if (off < len)
			off += (size_t)snprintf(list + off, len - off,
						"%s%s +%llu", off ? ", " : "",
						a->names[k],
						(unsigned long long)delta[k]);
	}
	return up;
}

static void counter_finding(struct light_ctx *x, const struct node_port *p,
			    const char *list)
{
	char s[96];

	snprintf(s, sizeof(s), "%s port %d error counters up", p->ca, p->port);
	json_array_append_new(
		x->c->findings,
		record_finding("warn", "counter-errors",
			       node_port_ref(x->c->o->host, p),
			       json_pack("{s:s, s:s, s:f}", "short", s,
					 "increase", list, "since", x->last),
			       "reseat",
			       "%s since the last light check: %s; if it "
			       "goes on, reseat or replace the cable",
			       s, list));
}

static void light_counters(struct light_ctx *x)
{
	struct node_ctx *c = x->c;
	json_t *prev = json_object_get(x->state, "counters");
	json_t *next = json_object();
	struct light_counters *b = malloc(sizeof(*b)), *a = malloc(sizeof(*a));
	char key[NODE_NAME_LEN * 4 + 16], list[512];

	for (int i = 0; b && a && i < c->n; i++) {
		const struct node_port *p = &c->ports[i];
		json_t *old;

		if (dpath_port_sysfs_counters(c->o->sysfs_root, p->ca, p->port,
					      a->names, a->values,
					      LIGHT_COUNTERS_MAX, &a->n)) {
			json_array_append_new(
				c->skipped,
				json_sprintf("counters: %s port %d: not "
					     "readable",
					     p->ca, p->port));
			continue;
		}
		port_key(p, key, sizeof(key));
		json_object_set_new(next, key, counters_to_state(a));
		old = json_object_get(prev, key);
		if (!json_is_object(old))
			continue; /* first sight: the next run has deltas */
		counters_from_state(old, b);
		if (port_deltas(x, p, b, a, list, sizeof(list)))
			counter_finding(x, p, list);
	}
	if (!json_is_object(prev) && c->n)
		json_array_append_new(
			c->notes, json_string("counters: first run; the next "
					      "one reports increases"));
	json_object_set_new(x->next, "counters", next);
	free(a);
	free(b);
}

/* ---- kernel-log events since the last run ---- */

struct light_events {
	struct klog_event *ev;
	size_t n, cap;
	int unknown_time;
	double since;
};

/* Keeps the events newer than the last run (unknown time: kept). */
static int take_event(void *arg, const struct kernlog_line *l)
{
	struct light_events *k = arg;
	struct klog_event ev;

	if (!klog_match(l, &ev) || (ev.time >= 0 && ev.time <= k->since) ||
	    k->n >= LIGHT_KLOG_MAX_EVENTS)
		return 0;
	if (array_reserve(&k->ev, &k->cap, k->n, sizeof(ev)))
		return -ENOMEM;
	k->unknown_time += ev.time < 0;
	k->ev[k->n++] = ev;
	return 0;
}

static void events_metrics(struct light_ctx *x, const struct light_events *k)
{
	static const enum klog_kind kinds[] = { KLOG_LINK, KLOG_HCA_HEALTH,
						KLOG_TRANSCEIVER, KLOG_STORAGE,
						KLOG_HUNG_TASK };

	for (size_t j = 0; j < sizeof(kinds) / sizeof(kinds[0]); j++) {
		int n = 0;

		for (size_t i = 0; i < k->n; i++)
			n += k->ev[i].kind == kinds[j];
		light_metric(x->m, "ibproof_kernel_events_new", n, "kind",
			     klog_kind_name(kinds[j]), NULL);
	}
}

static void light_klog(struct light_ctx *x)
{
	struct node_ctx *c = x->c;
	const char *path = c->o->kernel_log ? c->o->kernel_log
			   : live(x)	    ? "/dev/kmsg"
					    : NULL;
	struct kernlog_opts ko = { .timeout_s = 2,
				   .max_lines = LIGHT_KLOG_MAX_LINES,
				   .boot_time = c->o->boot_time,
				   .now = x->now };
	struct light_events k = { .since = x->last };
	struct klog_params p = { .host = c->o->host,
				 .window_s = c->o->window_h * 3600,
				 .flap_fail = 5,
				 .now = x->now,
				 .port_of = node_klog_port_of,
				 .port_arg = c };
	struct kernlog_result res;
	char err[512];
	int ret;

	if (!path) {
		json_array_append_new(c->notes,
				      json_string("kernel log: not read for a "
						  "captured tree (give "
						  "--kernel-log FILE)"));
		return;
	}
	ret = kernlog_read(path, &ko, take_event, &k, &res, err, sizeof(err));
	if (ret && ret != -ETIMEDOUT) {
		json_array_append_new(c->skipped,
				      json_sprintf("kernel log: %s", err));
		free(k.ev);
		return;
	}
	if (ret == -ETIMEDOUT)
		json_array_append_new(c->skipped,
				      json_sprintf("kernel log: %s", err));
	if (!x->last)
		json_array_append_new(
			c->notes, json_sprintf("kernel log: first run; %d "
					       "events of the whole log judged",
					       (int)k.n));
	if (k.unknown_time)
		json_array_append_new(
			c->notes,
			json_sprintf("kernel log: %d events without a time "
				     "counted as new (give --boot-time)",
				     k.unknown_time));
	klog_judge(k.ev, (int)k.n, &p, c->findings);
	events_metrics(x, &k);
	free(k.ev);
}

/* ---- the run ---- */

static void finish_metrics(struct light_ctx *x, int rc, double t0)
{
	static const char *const sev[] = { "fail", "warn", "info" };

	light_metric(x->m, "ibproof_light_run_timestamp_seconds", x->now, NULL);
	light_metric(x->m, "ibproof_light_duration_seconds",
		     clock_mono_now() - t0, NULL);
	light_metric(x->m, "ibproof_light_exit_code", rc, NULL);
	for (size_t i = 0; i < sizeof(sev) / sizeof(sev[0]); i++)
		light_metric(x->m, "ibproof_light_findings",
			     node_count_severity(x->c->findings, sev[i]),
			     "severity", sev[i], NULL);
}

static int load_reference(struct node_ctx *c)
{
	int ret;

	if (!c->o->reference)
		return 0;
	ret = node_ports_load(c->o->reference, &c->ref, &c->n_ref);
	return ret == -EINVAL ? IBP_EXIT_USAGE : ret ? IBP_EXIT_RUNTIME : 0;
}

static int checks(struct light_ctx *x)
{
	int rc = load_reference(x->c);

	if (rc || (rc = node_scan_ports(x->c)))
		return rc;
	judge_ports(x);
	light_counters(x);
	light_klog(x);
	light_pcie(x);
	json_object_set_new(x->next, "last_run", json_real(x->now));
	if (light_state_save(x->lo->state_dir, x->next))
		json_array_append_new(
			x->c->skipped,
			json_sprintf("state %s: not written; the next run has "
				     "no deltas",
				     x->lo->state_dir));
	return 0;
}

static json_t *run_record(const char *event, const char *verdict, int rc)
{
	json_t *rec = record_new("run");

	json_object_set_new(rec, "tool", json_string("node"));
	json_object_set_new(rec, "event", json_string(event));
	json_object_set_new(rec, "params", json_pack("{s:b}", "light", 1));
	if (verdict)
		json_object_set_new(rec, "verdict", json_string(verdict));
	if (verdict)
		json_object_set_new(rec, "exit_code", json_integer(rc));
	return rec;
}

/* --records: the ports, the findings and the verdict of this run. */
static int write_records(const struct node_ctx *c, const char *verdict, int rc)
{
	struct record_writer *w = record_writer_open(c->o->records, false);
	size_t i;
	json_t *f;
	int bad;

	if (!w) {
		log_error("--records %s: %m", c->o->records);
		return -1;
	}
	bad = record_writer_emit_steal(w, run_record("start", NULL, 0));
	for (int k = 0; k < c->n; k++)
		bad |= record_writer_emit_steal(w,
						node_port_record(&c->ports[k]));
	json_array_foreach(c->findings, i, f) bad |= record_writer_emit(w, f);
	bad |= record_writer_emit_steal(w, run_record("end", verdict, rc));
	return record_writer_close(w) || bad ? -1 : 0;
}

static int report(struct light_ctx *x, double t0)
{
	char *verdict = NULL;
	int rc = node_report(x->c, &verdict);

	if (x->c->o->json && verdict && node_report_json(x->c, verdict, rc) &&
	    rc == IBP_EXIT_PASS)
		rc = IBP_EXIT_RUNTIME;
	if (x->c->o->records && verdict && write_records(x->c, verdict, rc) &&
	    rc == IBP_EXIT_PASS)
		rc = IBP_EXIT_RUNTIME;
	free(verdict);
	finish_metrics(x, rc, t0);
	if (x->lo->textfile && light_metrics_save(x->lo->textfile, x->m) &&
	    rc == IBP_EXIT_PASS)
		rc = IBP_EXIT_RUNTIME;
	return rc;
}

int light_run(struct node_run_opts *o, const struct light_opts *lo)
{
	struct node_ctx c = { .o = o,
			      .findings = json_array(),
			      .skipped = json_array(),
			      .notes = json_array() };
	struct light_ctx x = { .c = &c, .lo = lo, .next = json_object() };
	double t0 = clock_mono_now();
	int rc;

	x.now = lo->now > 0 ? lo->now : (double)time(NULL);
	x.m = light_metrics_new();
	x.state = light_state_load(lo->state_dir, c.notes);
	if (!x.state || !x.m || !x.next) {
		rc = IBP_EXIT_RUNTIME;
		goto free_all;
	}
	x.last = json_number_value(json_object_get(x.state, "last_run"));
	rc = checks(&x);
	if (!rc)
		rc = report(&x, t0);
free_all:
	json_decref(x.state);
	json_decref(x.next);
	light_metrics_free(x.m);
	json_decref(c.findings);
	json_decref(c.skipped);
	json_decref(c.notes);
	free(c.ports);
	free(c.ref);
	return rc;
}
