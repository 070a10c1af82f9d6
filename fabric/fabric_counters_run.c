// SPDX-License-Identifier: MIT
/*
 * fabric_counters_run.c: `ibproof fabric counters`: discover, read every
 * port's PMA counters through the ops table, subtract a baseline, judge.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "common/array.h"
#include "common/clock.h"
#include "common/log.h"
#include "common/progress.h"
#include "common/record.h"
#include "fabric/fabric_report.h"
#include "fabric/fabric_run.h"
#include "fabric/fabric_spec.h"
#include "fabric/fabric_util.h"

struct counters_run {
	const struct fabric_args *a;
	struct fabric *m;
	struct fabric_pma *pma;
	struct fabric_port_counters *pcs; /* by port id */
	struct fabric_thresholds t;
	struct fabric_window w;
	bool all_ext; /* a window: 64-bit data counters of every port */
	size_t read, failed, refused;
	/* by port id: asked for PortCounters, and the first failing answer's
	 * status of the run (a window's port needs both reads) */
	bool *asked;
	int *status;
	uint16_t *mad_status;
	struct fabric_scope scope; /* ports */
};

static uint16_t port_lid(const struct fabric_port *p)
{
	return p->node->type == FABRIC_NODE_SWITCH ? p->node->lid : p->lid;
}

/* PortCountersExtended only where it adds something: a 32-bit data
 * counter saturated, or errors whose rate per bit we want. This keeps a
 * fabric read to about one MAD per port. */
static bool wants_ext(const struct fabric_pc *pc)
{
	int i;

	for (i = IB_PC_XMIT_DATA; i < IB_PC_COUNT; i++)
		if (pc->v[i] == fabric_pc_max(i, false))
			return true;
	for (i = 0; i < FABRIC_PC_ERRORS_END; i++)
		if (pc->v[i])
			return true;
	return false;
}

struct req_list {
	struct fabric_pma_req *v;
	size_t n, cap;
};

static struct fabric_pma_req *
req_add(struct req_list *l, const struct fabric_port *p, int kind, int tag)
{
	struct fabric_pma_req *q;

	if (array_reserve(&l->v, &l->cap, l->n, sizeof(*l->v)))
		return NULL;
	q = memset(&l->v[l->n++], 0, sizeof(*q));
	q->lid = port_lid(p);
	q->port = (uint8_t)p->num;
	q->kind = (uint8_t)kind;
	q->tag = tag;
	return q;
}

/*
 * The batch in slices, so that a person at a terminal sees how far the
 * read is (a slice still keeps many queries in flight).
 */
static void batch_with_progress(struct counters_run *r, struct req_list *l)
{
	const size_t slice = 512;
	struct progress prog;

	progress_start(&prog, "counters", "ports", l->n);
	for (size_t at = 0; at < l->n; at += slice) {
		size_t n = l->n - at < slice ? l->n - at : slice;

		fabric_pma->batch(r->pma, l->v + at, n);
		progress_add(&prog, n);
	}
	progress_end(&prog);
}

/* Phase 1: PortCounters of every port that has a LID. */
static int read_counters(struct counters_run *r, struct req_list *l)
{
	const struct fabric_port *p;
	struct fabric_pma_req *q;
	size_t i, k;
	int j;

	for (i = 0; i < r->m->nnodes; i++) {
		for (j = 1; j <= r->m->nodes[i]->nports; j++) {
			p = &r->m->nodes[i]->ports[j];
			if (!p->valid || !port_lid(p))
				continue;
			q = req_add(l, p, FABRIC_PMA_COUNTERS, p->id);
			if (!q)
				return -ENOMEM;
			q->out = &r->pcs[p->id].cur;
			memset(q->out, 0, sizeof(*q->out));
		}
	}
	batch_with_progress(r, l);
	for (k = 0; k < l->n; k++) {
		r->asked[l->v[k].tag] = true;
		if (!r->status[l->v[k].tag]) { /* a window: the first failure */
			r->status[l->v[k].tag] = l->v[k].status;
			r->mad_status[l->v[k].tag] = l->v[k].mad_status;
		}
		if (l->v[k].status) {
			log_debug("lid %u port %u: PMA query failed",
				  l->v[k].lid, l->v[k].port);
			if (l->v[k].status == -EREMOTEIO)
				r->refused++;
			else
				r->failed++;
			continue;
		}
		r->pcs[l->v[k].tag].valid = true;
		r->read++;
	}
	return 0;
}

static bool port_wants_ext(const struct counters_run *r,
			   const struct fabric_port *p)
{
	return r->pcs[p->id].valid &&
	       (r->all_ext || wants_ext(&r->pcs[p->id].cur));
}

static const struct fabric_port *first_wanting_ext(const struct counters_run *r,
						   const struct fabric_node *n)
{
	int j;

	for (j = 1; j <= n->nports; j++)
		if (port_wants_ext(r, &n->ports[j]))
			return &n->ports[j];
	return NULL;
}

/* Phases 2 and 3: ClassPortInfo of the nodes with ports that want more,
 * then PortCountersExtended of those ports where it is advertised. */
static int read_extended(struct counters_run *r, struct req_list *cpi,
			 struct req_list *ext)
{
	const struct fabric_port *p;
	const struct fabric_node *n;
	struct fabric_pma_req *q;
	size_t i, k;
	int j;

	for (i = 0; i < r->m->nnodes; i++) {
		p = first_wanting_ext(r, r->m->nodes[i]);
		if (p && !req_add(cpi, p, FABRIC_PMA_CLASS_INFO, (int)i))
			return -ENOMEM;
	}
	fabric_pma->batch(r->pma, cpi->v, cpi->n);
	for (k = 0; k < cpi->n; k++) {
		if (cpi->v[k].status || !cpi->v[k].ext)
			continue;
		n = r->m->nodes[cpi->v[k].tag];
		for (j = 1; j <= n->nports; j++) {
			p = &n->ports[j];
			if (!port_wants_ext(r, p))
				continue;
			q = req_add(ext, p, FABRIC_PMA_COUNTERS_EXT, p->id);
			if (!q)
				return -ENOMEM;
			q->out = &r->pcs[p->id].cur;
			q->ext_err = cpi->v[k].ext_err; /* preferred */
		}
	}
	return fabric_pma->batch(r->pma, ext->v, ext->n);
}

/* Queries go out in batches, several in flight (fabric_pma_ops.batch):
 * reading a fabric is bound by round trips, not by work. */
static int read_all(struct counters_run *r)
{
	struct req_list pc = { 0 }, cpi = { 0 }, ext = { 0 };
	struct timespec t0, t1;
	int rc;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	rc = read_counters(r, &pc);
	if (!rc)
		rc = read_extended(r, &cpi, &ext);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	log_info("PMA: %zu ports read in %.3f s (%zu ClassPortInfo, %zu "
		 "PortCountersExtended)",
		 r->read,
		 (double)(t1.tv_sec - t0.tv_sec) +
			 (t1.tv_nsec - t0.tv_nsec) / 1e9,
		 cpi.n, ext.n);
	free(pc.v);
	free(cpi.v);
	free(ext.v);
	if (rc)
		return rc;
	if (r->failed)
		log_warn("PMA: %zu ports did not answer", r->failed);
	if (r->refused)
		log_warn("PMA: %zu ports answered with a MAD status (refused)",
			 r->refused);
	if (!r->read) {
		log_error("PMA: no port answered (no LIDs? run an SM first)");
		return -EIO;
	}
	return 0;
}

static void base_from_record(struct counters_run *r, json_t *rec)
{
	const char *g = json_string_value(json_object_get(rec, "node_guid"));
	json_t *c = json_object_get(rec, "counters");
	struct fabric_port_counters *pc;
	struct fabric_node *n;
	uint64_t guid;
	int i, port = (int)json_integer_value(json_object_get(rec, "port"));

	if (!g || record_guid_parse(g, &guid) ||
	    !(n = fabric_find_guid(r->m, guid)) || !fabric_port(n, port))
		return;
	pc = &r->pcs[n->ports[port].id];
	for (i = 0; i < IB_PC_COUNT; i++)
		pc->base.v[i] = (uint64_t)json_integer_value(
			json_object_get(c, ib_pc_defs[i].name));
	pc->base.ext = json_is_true(json_object_get(rec, "extended"));
	pc->base.ext_err =
		json_is_true(json_object_get(rec, "extended_errors"));
	pc->has_base = true;
}

static int load_baseline(struct counters_run *r, const char *path)
{
	struct record_reader *rd = record_reader_open(path);
	json_t *rec;
	int rc;

	if (!rd) {
		log_error("%s: cannot read baseline: %m", path);
		return -EINVAL;
	}
	while ((rc = record_reader_next(rd, &rec)) == 1) {
		if (!strcmp(json_string_value(json_object_get(rec, "kind")),
			    "counters"))
			base_from_record(r, rec);
		json_decref(rec);
	}
	if (rc < 0)
		log_error("%s", record_reader_error(rd));
	record_reader_close(rd);
	return rc < 0 ? -EINVAL : 0;
}

static int load_thresholds(struct counters_run *r, const char *path)
{
	char err[FABRIC_ERR_LEN], *text;
	int rc;

	if (r->w.mode == FABRIC_WINDOW_TIMED)
		fabric_thresholds_default_window(&r->t);
	else
		fabric_thresholds_default(&r->t);
	if (!path)
		return 0;
	rc = fabric_read_text(path, &text, err, sizeof(err));
	if (!rc)
		rc = fabric_thresholds_parse(path, text, &r->t, err,
					     sizeof(err));
	if (rc)
		log_error("%s", err);
	free(text);
	return rc;
}

static int emit_snapshot(struct counters_run *r, struct record_writer *w)
{
	const struct fabric_port *p;
	size_t i;
	int j, rc = 0;

	for (i = 0; w && i < r->m->nnodes && !rc; i++) {
		for (j = 1; j <= r->m->nodes[i]->nports && !rc; j++) {
			p = &r->m->nodes[i]->ports[j];
			if (r->pcs[p->id].valid)
				rc = record_writer_emit_steal(
					w, fabric_counters_record(
						   p, &r->pcs[p->id], &r->w));
		}
	}
	return rc;
}

/* Resets the counters of every port read; a port whose reset failed is
 * not judged in a window. Returns how many failed. */
static int reset_all(struct counters_run *r)
{
	const struct fabric_port *p;
	size_t i;
	int j, failed = 0;

	for (i = 0; i < r->m->nnodes; i++) {
		for (j = 1; j <= r->m->nodes[i]->nports; j++) {
			p = &r->m->nodes[i]->ports[j];
			if ((r->pcs[p->id].valid || r->pcs[p->id].has_base) &&
			    fabric_pma->reset(r->pma, port_lid(p), p->num,
					      r->pcs[p->id].cur.ext)) {
				log_warn("%s port %d: counter reset failed",
					 p->node->name, p->num);
				r->pcs[p->id].has_base = false;
				failed++;
			}
		}
	}
	return failed;
}

/* Since the last clear, or against a baseline: one read. */
static int read_once(struct counters_run *r)
{
	record_time_now(r->w.end);
	return read_all(r);
}

/* A window's first read becomes every port's base; a port is judged only
 * when both reads answered. */
static void start_window(struct counters_run *r)
{
	for (size_t i = 0; i < r->m->nports_total; i++) {
		struct fabric_port_counters *pc = &r->pcs[i];

		pc->has_base = pc->valid;
		pc->base = pc->cur;
		pc->valid = false;
	}
	r->read = r->failed = r->refused = 0;
}

/* With --reset the window starts at zero: a port whose reset failed is
 * not judged (its values are not the window's). */
static void zero_bases(struct counters_run *r)
{
	for (size_t i = 0; i < r->m->nports_total; i++) {
		struct fabric_port_counters *pc = &r->pcs[i];
		bool ext = pc->base.ext, ext_err = pc->base.ext_err;

		if (!pc->has_base)
			continue;
		memset(&pc->base, 0, sizeof(pc->base));
		pc->base.ext = ext;
		pc->base.ext_err = ext_err;
	}
}

/* Read, wait, read; or read, reset, wait, read (docs/fabric.md). */
static int read_window(struct counters_run *r)
{
	struct progress prog;
	double t0, left;
	int rc;

	if ((rc = read_all(r)))
		return rc;
	start_window(r);
	if (r->a->reset) {
		reset_all(r);
		zero_bases(r);
	}
	record_time_now(r->w.start);
	t0 = clock_mono_now();
	log_info("counters: window of %.0f s started", r->a->window_s);
	/* on a terminal, a line counts the window's seconds down */
	progress_start(&prog, "window", "s", (uint64_t)r->a->window_s);
	while ((left = t0 + r->a->window_s - clock_mono_now()) > 0) {
		usleep(left > 1 ? 1000000 : (useconds_t)(left * 1e6) + 1);
		progress_add(&prog, left >= 1 ? 1 : 0);
	}
	progress_end(&prog);
	if ((rc = read_all(r)))
		return rc;
	record_time_now(r->w.end);
	r->w.seconds = clock_mono_now() - t0;
	for (size_t i = 0; i < r->m->nports_total; i++)
		if (r->pcs[i].valid && !r->pcs[i].has_base)
			r->pcs[i].valid = false; /* its first read failed */
	return 0;
}

/* One port of the scope: read, or not tested with the reason. */
static int scope_port(struct counters_run *r, const struct fabric_port *p,
		      struct fabric_findings *fs)
{
	struct fabric_gap g = { .part = FABRIC_PART_PORTS,
				.reason = "no-answer",
				.what = "PortCounters" };

	if (r->asked[p->id] && !r->status[p->id]) {
		fabric_scope_tested(&r->scope, FABRIC_PART_PORTS);
		return 0;
	}
	if (!r->asked[p->id] && p->info_unread && p->remote) {
		g.what = "PortInfo (its LID)";
	} else if (!r->asked[p->id] &&
		   (!p->valid || port_lid(p) || !fabric_port_up(p))) {
		return 0; /* down and without a LID: nothing to read */
	} else if (!r->asked[p->id]) {
		g.reason = "no-lid";
	} else if (r->status[p->id] == -EREMOTEIO) {
		g.reason = "mad-status";
		g.mad_status = r->mad_status[p->id];
	}
	return fabric_scope_untested(&r->scope, fs, p, &g) ? 0 : -ENOMEM;
}

/* Every port asked for (and every up port without a LID): in scope. */
static int scope_ports(struct counters_run *r, struct fabric_findings *fs)
{
	int rc = 0;

	fabric_scope_init(r->a, &r->scope);
	fabric_scope_use(&r->scope, FABRIC_PART_PORTS);
	for (size_t i = 0; i < r->m->nnodes && !rc; i++)
		for (int j = 1; j <= r->m->nodes[i]->nports && !rc; j++)
			rc = scope_port(r, &r->m->nodes[i]->ports[j], fs);
	return rc;
}

static int judge(struct counters_run *r, struct fabric_findings *fs)
{
	size_t i;

	for (i = 0; i < r->m->nports_total; i++)
		if (r->pcs[i].valid)
			fabric_pc_compute(&r->pcs[i]);
	return fabric_counters_check(r->m, r->pcs, &r->t, &r->w, fs);
}

static int setup(struct counters_run *r)
{
	const struct fabric_args *a = r->a;
	int rc;

	if (a->load_cache || a->topology) {
		log_error("fabric counters reads live counters: no "
			  "--load-cache/--topology");
		return IBP_EXIT_USAGE;
	}
	r->w.mode = a->baseline	     ? FABRIC_WINDOW_BASELINE
		    : a->since_clear ? FABRIC_WINDOW_SINCE_CLEAR
				     : FABRIC_WINDOW_TIMED;
	r->all_ext = r->w.mode != FABRIC_WINDOW_SINCE_CLEAR;
	if (!!a->baseline + a->since_clear + a->window_given > 1) {
		log_error("fabric counters: --window, --since-clear and "
			  "--baseline judge different things: give one");
		return IBP_EXIT_USAGE;
	}
	if (load_thresholds(r, a->thresholds))
		return IBP_EXIT_USAGE;
	if ((rc = fabric_load_model(a, &r->m)) ||
	    (rc = fabric_apply_map_file(a, r->m)))
		return rc;
	r->pcs = calloc(r->m->nports_total + 1, sizeof(*r->pcs));
	r->asked = calloc(r->m->nports_total + 1, sizeof(*r->asked));
	r->status = calloc(r->m->nports_total + 1, sizeof(*r->status));
	r->mad_status = calloc(r->m->nports_total + 1, sizeof(*r->mad_status));
	if (!r->pcs || !r->asked || !r->status || !r->mad_status)
		return IBP_EXIT_RUNTIME;
	if (a->baseline && load_baseline(r, a->baseline))
		return IBP_EXIT_USAGE;
	if (fabric_pma->open(a->common.ca, a->common.port,
			     (unsigned)(a->common.timeout_s * 1000), &r->pma))
		return IBP_EXIT_RUNTIME;
	return IBP_EXIT_PASS;
}

int fabric_counters_run(const struct fabric_args *a)
{
	struct counters_run r = { .a = a };
	struct fabric_findings fs = { 0 };
	struct record_writer *w = NULL;
	int rc;

	if ((rc = setup(&r)))
		goto out;
	if ((r.w.mode == FABRIC_WINDOW_TIMED ? read_window(&r)
					     : read_once(&r)) ||
	    judge(&r, &fs) || scope_ports(&r, &fs)) {
		rc = IBP_EXIT_RUNTIME;
		goto out;
	}
	if ((rc = fabric_open_records(a, &w)))
		goto out;
	if (emit_snapshot(&r, w)) {
		log_error("%s: writing records failed", a->common.records);
		record_writer_close(w);
		rc = IBP_EXIT_RUNTIME;
		goto out;
	}
	if (a->reset && r.w.mode != FABRIC_WINDOW_TIMED)
		reset_all(&r);
	rc = fabric_finish_scope(a, w, "fabric counters", r.m, &fs, &r.scope);
out:
	if (r.pma)
		fabric_pma->close(r.pma);
	fabric_findings_free(&fs);
	free(r.asked);
	free(r.status);
	free(r.mad_status);
	free(r.pcs);
	fabric_free(r.m);
	return rc;
}
