// SPDX-License-Identifier: MIT
/*
 * From the judge's verdicts to finding records (and the lines of the human
 * summary): low-bandwidth, intermittent, completion-errors, counter-errors,
 * not-tested, degraded-width and degraded-speed (a link that trained down).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "burnin/coord.h"
#include "burnin/route_judge.h"
#include "burnin/route_plan.h"
#include "burnin/scope.h"

struct finding_ctx {
	struct burnin_coord *co;
	FILE *summary;
	int n_fail, n_emitted;
	int n_unproven; /* not-tested cables without a load proof: one line */
	bool *scheduled; /* per port: the schedule gave it a pair */
	struct burnin_rate_ref *rates; /* per port: link_rate.c */
};

static int put(struct finding_ctx *fc, json_t *f)
{
	int ret = 0;

	if (!f)
		return -ENOMEM;
	fprintf(fc->summary, "  %s %s: %s\n",
		json_string_value(json_object_get(f, "severity")),
		json_string_value(json_object_get(f, "category")),
		json_string_value(json_object_get(f, "message")));
	fc->n_fail += !strcmp(json_string_value(json_object_get(f, "severity")),
			      "fail");
	fc->n_emitted++;
	if (fc->co->w)
		ret = record_writer_emit(fc->co->w, f);
	json_decref(f);
	return ret;
}

/*
 * A not-tested cable from the route planner (route_plan.h). Those not
 * proven loaded (no load proof) are as many as the cables the plan
 * loads: one summary line says them all, their records name each.
 */
static int put_route(void *arg, json_t *finding)
{
	struct finding_ctx *fc = arg;
	const char *why = json_string_value(json_object_get(
		json_object_get(finding, "evidence"), "reason"));
	int ret = 0;

	if (!why || (strcmp(why, "no-load-proof") && strcmp(why, "not-proven")))
		return put(fc, finding);
	fc->n_unproven++;
	fc->n_emitted++;
	if (fc->co->w)
		ret = record_writer_emit(fc->co->w, finding);
	json_decref(finding);
	return ret;
}

static json_t *subject(const struct dpath_port *p)
{
	return record_port_ref(p->host, p->ca, p->port, p->guid);
}

/* The worst pair of port p that is bad in the given way, for evidence. */
static json_t *evidence(struct burnin_coord *co, int p,
			const struct burnin_port_verdict *v, int partners)
{
	json_t *bad = json_array();
	char name[2 * DPATH_NAME_MAX + 16];

	for (int i = 0; bad && i < co->n_m; i++) {
		const struct burnin_measure *m = &co->m[i];
		int q = m->a == p ? m->b : m->b == p ? m->a : -1;

		if (q < 0 || !(m->low || m->dip || m->error_completions ||
			       m->status == BURNIN_PAIR_ERROR))
			continue;
		burnin_port_name(&co->inv[q], name, sizeof(name));
		json_array_append_new(
			bad,
			json_pack("{s:i,s:s,s:s,s:f,s:f,s:f,s:I}", "round",
				  m->round + 1, "partner", name, "test",
				  burnin_test_name(m->test), "gbps", m->gbps,
				  "gbps_min", m->gbps_min, "expected_gbps",
				  m->expected_gbps, "error_completions",
				  (json_int_t)m->error_completions));
	}
	return json_pack("{s:i,s:i,s:i,s:i,s:f,s:o}", "partners", partners,
			 "pairs_ok", v->n_ok, "pairs_low", v->n_low,
			 "pairs_with_errors", v->n_err, "worst_gbps",
			 v->worst_gbps, "bad_pairs", bad ? bad : json_array());
}

static int blamed(struct finding_ctx *fc, int p,
		  const struct burnin_port_verdict *v)
{
	struct burnin_coord *co = fc->co;
	char name[2 * DPATH_NAME_MAX + 16];
	int ret = 0;

	burnin_port_name(&co->inv[p], name, sizeof(name));
	if (v->blame & BURNIN_BLAME_LOW)
		ret |= put(
			fc,
			record_finding(
				"fail", "low-bandwidth", subject(&co->inv[p]),
				evidence(co, p, v, v->low_partners),
				"disable-port",
				"%s was slow with %d partners that were fine elsewhere (worst %.1f Gb/s): disable the port and check its cable and HCA",
				name, v->low_partners, v->worst_gbps));
	if (v->blame & BURNIN_BLAME_DIP)
		ret |= put(
			fc,
			record_finding(
				"fail", "intermittent", subject(&co->inv[p]),
				evidence(co, p, v, v->dip_partners), "reseat",
				"%s dropped far below its rate in some 100 ms windows with %d partners: reseat the cable, then run burnin node:%s",
				name, v->dip_partners, co->inv[p].host));
	if (v->blame & BURNIN_BLAME_ERRORS)
		ret |= put(
			fc,
			record_finding(
				"fail", "completion-errors",
				subject(&co->inv[p]),
				evidence(co, p, v, v->err_partners),
				"disable-port",
				"%s had errors with %d partners that were fine elsewhere: disable the port and check its cable",
				name, v->err_partners));
	return ret;
}

static int unresolved(struct finding_ctx *fc, int p,
		      const struct burnin_port_verdict *v)
{
	struct burnin_coord *co = fc->co;
	char name[2 * DPATH_NAME_MAX + 16];

	burnin_port_name(&co->inv[p], name, sizeof(name));
	return put(
		fc,
		record_finding(
			"warn",
			v->n_err ? "completion-errors" : "low-bandwidth",
			subject(&co->inv[p]), evidence(co, p, v, 0), "none",
			"%s was in a bad pair, but no second partner confirmed it: run more rounds (--retests) or burnin node:%s",
			name, co->inv[p].host));
}

/* "4x EDR (100 Gb/s)", or as much of it as is known. */
static const char *link_str(const struct dpath_port *p, char *buf, size_t len)
{
	if (p->width && p->speed[0])
		snprintf(buf, len, "%dx %s (%.1f Gb/s)", p->width, p->speed,
			 p->rate_gbps);
	else if (p->width)
		snprintf(buf, len, "%dx (%.1f Gb/s)", p->width, p->rate_gbps);
	else
		snprintf(buf, len, "%.1f Gb/s", p->rate_gbps);
	return buf;
}

/*
 * A link that trained down (fewer lanes, a lower speed): its pairs look
 * fine against its own lower rate, so the judge of pairs never sees it.
 */
static int rate_finding(struct finding_ctx *fc, int p)
{
	struct burnin_coord *co = fc->co;
	const struct burnin_judge_params *jp = &co->ctx->cfg->judge;
	const struct dpath_port *me = &co->inv[p], *ref;
	char name[2 * DPATH_NAME_MAX + 16], have[64], want[64];
	int n_peers = fc->rates[p].n_peers, n_at = fc->rates[p].n_at_rate,
	    r = fc->rates[p].ref;
	bool given = r == p;
	json_t *ev;

	if (r < 0)
		return 0;
	ref = &co->inv[r];
	burnin_port_name(me, name, sizeof(name));
	link_str(me, have, sizeof(have));
	ev = json_pack("{s:f,s:f,s:i,s:s,s:i,s:s,s:i,s:i}", "rate_gbps",
		       me->rate_gbps, "expected_rate_gbps",
		       given ? jp->link_rate : ref->rate_gbps, "width",
		       me->width, "speed", me->speed, "expected_width",
		       given ? 0 : ref->width, "expected_speed",
		       given ? "" : ref->speed, "peers", n_peers,
		       "peers_at_rate", n_at);
	if (given)
		return put(
			fc,
			record_finding(
				"fail", "degraded-speed", subject(me), ev,
				"reseat",
				"%s runs at %s, below --link-rate %.1f Gb/s: reseat or replace the cable",
				name, have, jp->link_rate));
	return put(
		fc,
		record_finding(
			"fail",
			me->width && ref->width && me->width < ref->width
				? "degraded-width"
				: "degraded-speed",
			subject(me), ev, "reseat",
			"%s runs at %s where %d of its %d peers (%s, rail %d) run at %s: reseat or replace the cable",
			name, have, n_at, n_peers,
			me->ethernet ? "Ethernet" : "InfiniBand", me->rail,
			link_str(ref, want, sizeof(want))));
}

/*
 * Error counters that grew during the run (fail), or that sit at their
 * maximum and so count nothing more (warn: errors would go unseen).
 */
static int counter_finding(struct finding_ctx *fc, int p, json_t *counters,
			   json_t *sat)
{
	const struct dpath_port *port = &fc->co->inv[p];
	bool grew = counters && json_object_size(counters);
	char name[2 * DPATH_NAME_MAX + 16];
	json_t *ev = json_object();

	burnin_port_name(port, name, sizeof(name));
	if (ev) {
		json_object_set_new(ev, "deltas",
				    counters ? json_incref(counters)
					     : json_object());
		json_object_set_new(ev, "saturated",
				    sat ? json_incref(sat) : json_array());
	}
	if (grew)
		return put(
			fc,
			record_finding(
				"fail", "counter-errors", subject(port), ev,
				"replace-cable",
				"%s counted link errors during burnin: check or replace its cable",
				name));
	return put(
		fc,
		record_finding(
			"warn", "counter-errors", subject(port), ev, "none",
			"%s: error counters at their maximum (%s) count nothing more: clear them (perfquery -R) and run burnin again",
			name, json_string_value(json_array_get(sat, 0))));
}

/*
 * Which ports the schedule gave any pair (node:HOST leaves most references
 * out): one pass over the pairs, not one per port (4,096 ports all-pairs
 * have 8.4 M pairs). NULL when out of memory.
 */
static bool *scheduled_ports(const struct burnin_coord *co)
{
	bool *in = calloc((size_t)co->n_inv + 1, sizeof(*in));

	for (int i = 0; in && i < co->sched.n_pairs; i++) {
		in[co->sched.pairs[i].a] = true;
		in[co->sched.pairs[i].b] = true;
	}
	return in;
}

static int port_findings(struct finding_ctx *fc, int p,
			 const struct burnin_port_verdict *v,
			 struct burnin_scope_count *ports)
{
	struct burnin_coord *co = fc->co;
	char name[2 * DPATH_NAME_MAX + 16];
	json_t *counters = co->port_counters ? co->port_counters[p] : NULL;
	json_t *sat = co->port_saturated ? co->port_saturated[p] : NULL;
	int ret = 0;

	burnin_port_name(&co->inv[p], name, sizeof(name));
	if (fc->scheduled[p] || !co->alive[co->inv_rank[p]]) {
		ports->in_scope++;
		if (v->tested && co->alive[co->inv_rank[p]])
			ports->tested++;
		else
			ports->not_tested++;
	}
	if (!v->tested && fc->scheduled[p])
		ret |= put(
			fc,
			record_finding(
				"fail", "not-tested", subject(&co->inv[p]),
				json_pack("{s:s,s:s,s:i}", "part", "ports",
					  "reason", "never-measured", "rank",
					  co->inv_rank[p]),
				"none",
				"%s was never measured (its rank or its partners failed): see the pair records' errors and run burnin again",
				name));
	else if (!co->alive[co->inv_rank[p]])
		ret |= put(
			fc,
			record_finding(
				"fail", "not-tested", subject(&co->inv[p]),
				json_pack("{s:s,s:s,s:i,s:i}", "part", "ports",
					  "reason", "rank-lost", "rank",
					  co->inv_rank[p], "pairs_ok", v->n_ok),
				"none",
				"%s: its rank %d stopped responding during the run, so its remaining pairs were not tested: check the node, then burnin node:%s",
				name, co->inv_rank[p], co->inv[p].host));
	ret |= rate_finding(fc, p);
	if (v->blame)
		ret |= blamed(fc, p, v);
	else if (v->suspect)
		ret |= unresolved(fc, p, v);
	if ((counters && json_object_size(counters)) ||
	    (sat && json_array_size(sat)))
		ret |= counter_finding(fc, p, counters, sat);
	return ret;
}

/*
 * With --routes: each judged cable's record, and the findings of the
 * blamed or ambiguous ones through the summary (route_judge.h).
 */
static int cable_findings(struct finding_ctx *fc,
			  const struct judge_cable_result *cables)
{
	json_t *recs = json_array();
	int n = 0, ret = recs ? burnin_cable_records(fc->co, cables, recs, &n)
			      : -ENOMEM;

	for (size_t k = 0; !ret && k < json_array_size(recs); k++) {
		json_t *rec = json_incref(json_array_get(recs, k));
		const char *kind =
			json_string_value(json_object_get(rec, "kind"));

		if (kind && !strcmp(kind, "finding")) {
			ret = put(fc, rec);
		} else {
			if (fc->co->w)
				ret = record_writer_emit(fc->co->w, rec);
			json_decref(rec);
		}
	}
	json_decref(recs);
	return ret;
}

/* The pairs of the run: measured (ok or error) or not tested. */
static void pair_scope(const struct burnin_coord *co,
		       struct burnin_scope_count *pairs)
{
	pairs->in_scope = co->n_m;
	for (int i = 0; i < co->n_m; i++)
		pairs->not_tested += co->m[i].status == BURNIN_PAIR_NOT_TESTED;
	pairs->tested = pairs->in_scope - pairs->not_tested;
}

/*
 * Why the cables a route-aware plan loads are not proven loaded: on the
 * real transport the load proof is what shows the traffic took the routes
 * (issue 32); NULL when it ran, or on the fake (a model, not a fabric).
 */
static const char *unproven_why(const struct burnin_coord *co)
{
	const struct burnin_config *cfg = co->ctx->cfg;

	if (co->proof || !strcmp(cfg->ops->name, "fake"))
		return NULL;
	return cfg->prove_load
		       ? "the load proof could not start: see its warning"
		       : "--no-prove-load";
}

int burnin_emit_findings(struct burnin_coord *co,
			 const struct burnin_port_verdict *v,
			 const struct judge_cable_result *cables, int *n_fail,
			 struct burnin_scope *scope)
{
	struct finding_ctx fc = {
		co, co->ctx->cfg->records && !strcmp(co->ctx->cfg->records, "-")
			    ? stderr
			    : stdout
	};
	int ret = 0;

	fc.rates = calloc((size_t)co->n_inv + 1, sizeof(*fc.rates));
	fc.scheduled = scheduled_ports(co);
	if (!fc.rates || !fc.scheduled ||
	    burnin_link_rate_references(&co->ctx->cfg->judge, co->inv,
					co->n_inv, fc.rates)) {
		free(fc.rates);
		free(fc.scheduled);
		return -ENOMEM;
	}
	fprintf(fc.summary, "findings:\n");
	*scope = (struct burnin_scope){ .has = { true, true, false } };
	scope->has[BURNIN_PART_CABLES] = co->ctx->cfg->routes != NULL;
	if (co->ctx->cfg->routes) /* the cables not tested, and why */
		ret |= burnin_route_not_tested(
			co->ctx->cfg, co->inv, co->n_inv, &co->sched,
			unproven_why(co), co->proof,
			&scope->part[BURNIN_PART_CABLES], put_route, &fc);
	if (fc.n_unproven)
		fprintf(fc.summary,
			"  warn not-tested: %d cables loaded as planned, not proven by a load proof (%s): their not-tested records name each\n",
			fc.n_unproven,
			unproven_why(co) ? unproven_why(co)
					 : "their counters proved nothing");
	for (int p = 0; p < co->n_inv; p++)
		ret |= port_findings(&fc, p, &v[p],
				     &scope->part[BURNIN_PART_PORTS]);
	pair_scope(co, &scope->part[BURNIN_PART_PAIRS]);
	if (cables)
		ret |= cable_findings(&fc, cables);
	free(fc.rates);
	free(fc.scheduled);
	if (!fc.n_emitted)
		fprintf(fc.summary, "  none\n");
	*n_fail = fc.n_fail;
	return ret ? -EIO : 0;
}
