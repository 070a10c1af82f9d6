// SPDX-License-Identifier: MIT
/*
 * Judging the pairs: every pair record once through the one pair judge
 * (judge/pairjudge.h, docs/judging.md; burnin's rank 0 uses the same),
 * then the report's own findings about the ports it blames or suspects.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/array.h"
#include "common/clock.h"
#include "common/log.h"
#include "common/record.h"
#include "reports/report.h"

#define WORST_PAIRS 8

static void port_figures(struct report_hport *h, const struct report_meas *m,
			 uint8_t verdict)
{
	if (verdict == ATTR_UNTESTED) {
		h->n_untested++;
		return;
	}
	if (verdict == ATTR_LOW)
		h->n_low++;
	else
		h->n_ok++;
	if (m->status)
		return;
	h->sum_gbps += m->gbps;
	if (h->min_gbps < 0 || m->gbps < h->min_gbps)
		h->min_gbps = m->gbps;
}

static struct judge_pair judge_pair_of(const struct attr_pair *p,
				       const struct report_meas *m)
{
	return (struct judge_pair){
		.a = p->a,
		.b = p->b,
		.run = m->run,
		.round = m->round,
		.test = m->test,
		.bidir = m->dir,
		.status = m->status == 0   ? JUDGE_PAIR_OK
			  : m->status == 1 ? JUDGE_PAIR_ERROR
					   : JUDGE_PAIR_NOT_TESTED,
		.retest = m->retest,
		.expected = m->expected,
		.gbps = m->gbps,
		.gbps_min = m->gbps_min,
		.error_completions = m->error_completions,
	};
}

static int judge_routes(struct report *r, const struct judge_pair *in,
			struct judge_result *res)
{
	json_t *findings = json_array();
	int ret = findings ? report_route_judge(r, in, res, findings) : -ENOMEM;

	for (size_t k = 0; !ret && k < json_array_size(findings); k++)
		if (!json_is_null(json_array_get(findings, k)))
			ret = report_add_finding(
				r, json_incref(json_array_get(findings, k)));
	json_decref(findings);
	if (ret)
		judge_result_free(res);
	return ret;
}

/* Every pair record through the one pair judge, once. */
static int judge_records(struct report *r)
{
	struct judge_pair *in = calloc(r->n_pairs + 1, sizeof(*in));
	struct judge_result res;
	int ret;

	if (!in)
		return -ENOMEM;
	for (size_t i = 0; i < r->n_pairs; i++)
		in[i] = judge_pair_of(&r->pairs[i], &r->meas[i]);
	ret = judge_pairs(&r->params.judge, in, r->n_pairs, r->n_hports, &res);
	if (!ret) /* with routes: the cables, and the ports they clear */
		ret = judge_routes(r, in, &res);
	free(in);
	if (ret)
		return ret;
	for (size_t i = 0; i < r->n_pairs; i++) {
		struct report_meas *m = &r->meas[i];
		struct attr_pair *p = &r->pairs[i];

		m->why = res.out[i].why;
		p->verdict = m->why == JUDGE_WHY_NOT_TESTED ? ATTR_UNTESTED
			     : res.out[i].bad		    ? ATTR_LOW
							    : ATTR_OK;
		if (p->a >= r->n_hports || p->b >= r->n_hports)
			continue;
		port_figures(&r->hports[p->a], m, p->verdict);
		port_figures(&r->hports[p->b], m, p->verdict);
	}
	r->attr = res.ports; /* kept: the verdicts, per hport */
	res.ports = NULL;
	judge_result_free(&res);
	return 0;
}

struct worst {
	size_t idx[WORST_PAIRS];
	size_t n;
};

static double ratio(const struct report_meas *m)
{
	return m->expected > 0 ? m->gbps / m->expected : m->gbps;
}

static void worst_add(struct worst *w, const struct report_meas *meas, size_t i)
{
	size_t k;

	if (w->n < WORST_PAIRS) {
		w->idx[w->n++] = i;
		return;
	}
	for (k = 0; k < w->n; k++)
		if (ratio(&meas[i]) < ratio(&meas[w->idx[k]])) {
			w->idx[k] = i;
			return;
		}
}

/* The low pairs behind each blamed port, worst first. */
static struct worst *collect_worst(const struct report *r)
{
	struct worst *w = calloc(r->n_hports + 1, sizeof(*w));

	if (!w)
		return NULL;
	for (size_t i = 0; i < r->n_pairs; i++) {
		const struct attr_pair *p = &r->pairs[i];

		if (p->verdict != ATTR_LOW)
			continue;
		if ((r->attr[p->a].blame != 0))
			worst_add(&w[p->a], r->meas, i);
		if ((r->attr[p->b].blame != 0))
			worst_add(&w[p->b], r->meas, i);
	}
	return w;
}

static json_t *hport_ref(const struct report_hport *h)
{
	return record_port_ref(h->host, h->ca, h->port, h->guid);
}

static json_t *pair_evidence(const struct report *r, uint32_t self, size_t i)
{
	const struct attr_pair *p = &r->pairs[i];
	const struct report_meas *m = &r->meas[i];
	const struct report_hport *o = &r->hports[p->a == self ? p->b : p->a];
	json_t *e = json_pack(
		"{s:o,s:i,s:s,s:s,s:f,s:f,s:f,s:s}", "partner", hport_ref(o),
		"round", (int)m->round, "test", m->test ? "read" : "write",
		"dir", m->dir ? "bi" : "uni", "gbps", (double)m->gbps,
		"gbps_min", (double)m->gbps_min, "expected_gbps",
		(double)m->expected, "judged", judge_why_name(m->why));

	if (e && m->error)
		json_object_set_new(e, "error", json_string(m->error));
	return e;
}

/* The category that names what most of its low pairs showed. */
static const char *blame_category(const struct report *r, const struct worst *w)
{
	unsigned int n[JUDGE_WHY_NOT_TESTED + 1] = { 0 };

	for (size_t k = 0; k < w->n; k++)
		n[r->meas[w->idx[k]].why]++;
	if (n[JUDGE_WHY_ERROR] > w->n / 2)
		return "completion-errors";
	if (n[JUDGE_WHY_DIP] > w->n / 2)
		return "intermittent";
	return "low-bandwidth";
}

static int blame_finding(struct report *r, uint32_t p, const struct worst *w)
{
	const struct report_hport *h = &r->hports[p];
	const struct judge_port *a = &r->attr[p];
	unsigned int witnesses = a->witnesses[JUDGE_N_KINDS];
	json_t *pairs = json_array(), *ev, *f;
	double avg =
		h->n_ok + h->n_low ? h->sum_gbps / (h->n_ok + h->n_low) : 0;

	for (size_t k = 0; pairs && k < w->n; k++)
		json_array_append_new(pairs, pair_evidence(r, p, w->idx[k]));
	ev = json_pack("{s:i,s:i,s:i,s:i,s:f,s:f,s:o}", "low_pairs",
		       (int)a->n_bad, "measured_pairs", (int)a->n_meas,
		       "low_partners", (int)a->bad_partners, "witnesses",
		       (int)witnesses, "confidence", (double)a->confidence,
		       "avg_gbps", avg, "pairs", pairs);
	const char *cat = blame_category(r, w);
	const char *what = !strcmp(cat, "completion-errors") ? "errors"
			   : !strcmp(cat, "intermittent")    ? "dips"
							     : "low bandwidth";

	f = record_finding(
		"fail", cat, hport_ref(h), ev, "disable-port",
		"%s %s port %d: %s with %u partners that were fine with others (%u of %u pairs bad, average %.1f Gb/s); take the port out of service and check its cable and HCA",
		h->host, h->ca, h->port, what, witnesses, a->n_bad, a->n_meas,
		avg);
	return report_add_finding(r, f);
}

static int suspect_finding(struct report *r, uint32_t p)
{
	const struct report_hport *h = &r->hports[p];
	const struct judge_port *a = &r->attr[p];
	json_t *f = record_finding(
		"warn", "unattributed-low-pairs", hport_ref(h),
		json_pack("{s:i,s:i,s:i}", "low_pairs", (int)a->n_bad,
			  "measured_pairs", (int)a->n_meas, "low_partners",
			  (int)a->bad_partners),
		"none",
		"%s %s port %d: low with %u partners that were not fine elsewhere either; retest it against new partners (ibproof burnin --schedule node:%s)",
		h->host, h->ca, h->port, a->bad_partners, h->host);

	return report_add_finding(r, f);
}

static int untested_finding(struct report *r, uint32_t p)
{
	const struct report_hport *h = &r->hports[p];
	json_t *f = record_finding(
		"fail", "not-tested", hport_ref(h),
		json_pack("{s:i}", "not_tested_pairs", (int)h->n_untested),
		"none",
		"%s %s port %d: none of its %u pairs was measured; it is not certified",
		h->host, h->ca, h->port, h->n_untested);

	r->n_untested_ports++;
	return report_add_finding(r, f);
}

static int port_findings(struct report *r)
{
	struct worst *w = collect_worst(r);
	int ret = 0;

	if (!w)
		return -ENOMEM;
	for (uint32_t p = 0; !ret && p < r->n_hports; p++) {
		const struct report_hport *h = &r->hports[p];

		if (r->attr[p].blame)
			ret = blame_finding(r, p, &w[p]);
		else if (r->attr[p].suspect &&
			 r->attr[p].bad_partners >=
				 r->params.judge.min_witnesses)
			ret = suspect_finding(r, p);
		else if (h->n_untested && !h->n_ok && !h->n_low)
			ret = untested_finding(r, p);
	}
	free(w);
	return ret;
}

int report_judge(struct report *r)
{
	double t0 = clock_mono_now();
	clock_t c0 = clock();
	int ret = judge_records(r);

	if (!ret)
		log_info(
			"judged %zu pair records of %zu ports in %.3f s (CPU %.3f s)",
			r->n_pairs, r->n_hports, clock_mono_now() - t0,
			(double)(clock() - c0) / CLOCKS_PER_SEC);
	if (!ret)
		ret = port_findings(r);
	if (!ret)
		ret = report_group_rounds(r);
	return ret;
}
