// SPDX-License-Identifier: MIT
/*
 * Judging the pairs: each measurement against its link class (same expected
 * rate, test and direction) — an absolute floor, an outlier rule (median -
 * k * MAD), the lowest window, and errors — then attribution of the low ones
 * to ports (attribute.c) and the report's own findings about them.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/array.h"
#include "common/record.h"
#include "reports/report.h"

#define MAX_CLASSES 256
#define WORST_PAIRS 8

struct link_class {
	float expected;
	uint8_t test, dir;
	float *vals;
	size_t n, cap;
	double median, mad;
};

struct classes {
	struct link_class c[MAX_CLASSES];
	size_t n;
};

const char *report_low_why_name(uint8_t why)
{
	static const char *const names[] = {
		[LOW_NONE] = "ok",
		[LOW_ERROR] = "error",
		[LOW_FLOOR] = "below-floor",
		[LOW_OUTLIER] = "outlier",
		[LOW_INTERMITTENT] = "intermittent",
	};

	return why < sizeof(names) / sizeof(names[0]) ? names[why] : "?";
}

static struct link_class *class_of(struct classes *cs,
				   const struct report_meas *m)
{
	for (size_t i = 0; i < cs->n; i++)
		if (cs->c[i].expected == m->expected &&
		    cs->c[i].test == m->test && cs->c[i].dir == m->dir)
			return &cs->c[i];
	if (cs->n == MAX_CLASSES)
		return NULL;
	cs->c[cs->n] = (struct link_class){ .expected = m->expected,
					    .test = m->test,
					    .dir = m->dir };
	return &cs->c[cs->n++];
}

static int class_add(struct link_class *c, float v)
{
	if (array_reserve(&c->vals, &c->cap, c->n, sizeof(*c->vals)))
		return -ENOMEM;
	c->vals[c->n++] = v;
	return 0;
}

static void swapf(float *a, float *b)
{
	float t = *a;

	*a = *b;
	*b = t;
}

/* k-th smallest of v[0..n), reordering v (three-way quickselect). */
static float select_kth(float *v, size_t n, size_t k)
{
	size_t lo = 0, hi = n;

	while (hi - lo > 1) {
		float pivot = v[lo + (hi - lo) / 2];
		size_t lt = lo, i = lo, gt = hi;

		while (i < gt) {
			if (v[i] < pivot)
				swapf(&v[lt++], &v[i++]);
			else if (v[i] > pivot)
				swapf(&v[i], &v[--gt]);
			else
				i++;
		}
		if (k < lt)
			hi = lt;
		else if (k >= gt)
			lo = gt;
		else
			return pivot;
	}
	return v[lo];
}

static void class_stats(struct link_class *c)
{
	if (!c->n)
		return;
	c->median = select_kth(c->vals, c->n, c->n / 2);
	for (size_t i = 0; i < c->n; i++)
		c->vals[i] = fabsf(c->vals[i] - (float)c->median);
	c->mad = select_kth(c->vals, c->n, c->n / 2);
	free(c->vals);
	c->vals = NULL;
}

static int build_classes(struct report *r, struct classes *cs)
{
	for (size_t i = 0; i < r->n_pairs; i++) {
		struct link_class *c = class_of(cs, &r->meas[i]);

		if (c && !r->meas[i].status && class_add(c, r->meas[i].gbps))
			return -ENOMEM;
	}
	for (size_t i = 0; i < cs->n; i++)
		class_stats(&cs->c[i]);
	return 0;
}

static uint8_t judge_one(const struct report_params *pp,
			 const struct link_class *c,
			 const struct report_meas *m)
{
	double margin;

	if (m->status == 1)
		return LOW_ERROR;
	if (m->expected > 0 && m->gbps < pp->floor * m->expected)
		return LOW_FLOOR;
	if (c && c->n >= 8) {
		margin = fmax(pp->mad_k * 1.4826 * c->mad,
			      pp->outlier_min * c->median);
		if (m->gbps < c->median - margin)
			return LOW_OUTLIER;
	}
	if (m->expected > 0 && m->gbps_min < pp->min_frac * m->expected)
		return LOW_INTERMITTENT;
	return LOW_NONE;
}

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

static void judge_pairs(struct report *r, struct classes *cs)
{
	for (size_t i = 0; i < r->n_pairs; i++) {
		struct report_meas *m = &r->meas[i];
		struct attr_pair *p = &r->pairs[i];

		if (m->status == 2) {
			p->verdict = ATTR_UNTESTED;
		} else {
			m->why = judge_one(&r->params, class_of(cs, m), m);
			p->verdict = m->why ? ATTR_LOW : ATTR_OK;
		}
		port_figures(&r->hports[p->a], m, p->verdict);
		port_figures(&r->hports[p->b], m, p->verdict);
	}
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
		if (r->attr[p->a].blamed)
			worst_add(&w[p->a], r->meas, i);
		if (r->attr[p->b].blamed)
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
		(double)m->expected, "judged", report_low_why_name(m->why));

	if (e && m->error)
		json_object_set_new(e, "error", json_string(m->error));
	return e;
}

/* The category that names what most of its low pairs showed. */
static const char *blame_category(const struct report *r, const struct worst *w)
{
	unsigned int n[LOW_INTERMITTENT + 1] = { 0 };

	for (size_t k = 0; k < w->n; k++)
		n[r->meas[w->idx[k]].why]++;
	if (n[LOW_ERROR] > w->n / 2)
		return "completion-errors";
	if (n[LOW_INTERMITTENT] > w->n / 2)
		return "intermittent";
	return "low-bandwidth";
}

static int blame_finding(struct report *r, uint32_t p, const struct worst *w)
{
	const struct report_hport *h = &r->hports[p];
	const struct attr_port *a = &r->attr[p];
	json_t *pairs = json_array(), *ev, *f;
	double avg =
		h->n_ok + h->n_low ? h->sum_gbps / (h->n_ok + h->n_low) : 0;

	for (size_t k = 0; pairs && k < w->n; k++)
		json_array_append_new(pairs, pair_evidence(r, p, w->idx[k]));
	ev = json_pack("{s:i,s:i,s:i,s:i,s:f,s:f,s:o}", "low_pairs",
		       (int)a->n_low, "measured_pairs", (int)a->n_meas,
		       "low_partners", (int)a->n_low_partners, "witnesses",
		       (int)a->witnesses, "confidence", (double)a->confidence,
		       "avg_gbps", avg, "pairs", pairs);
	f = record_finding(
		"fail", blame_category(r, w), hport_ref(h), ev, "disable-port",
		"%s %s port %d: low with %u partners that were fine with others (%u of %u pairs low, average %.1f Gb/s); take the port out of service",
		h->host, h->ca, h->port, a->witnesses, a->n_low, a->n_meas,
		avg);
	return report_add_finding(r, f);
}

static int suspect_finding(struct report *r, uint32_t p)
{
	const struct report_hport *h = &r->hports[p];
	const struct attr_port *a = &r->attr[p];
	json_t *f = record_finding(
		"warn", "unattributed-low-pairs", hport_ref(h),
		json_pack("{s:i,s:i,s:i}", "low_pairs", (int)a->n_low,
			  "measured_pairs", (int)a->n_meas, "low_partners",
			  (int)a->n_low_partners),
		"none",
		"%s %s port %d: low with %u partners that were not fine elsewhere either; retest it against new partners (ibproof burnin --schedule node:%s)",
		h->host, h->ca, h->port, a->n_low_partners, h->host);

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

		if (r->attr[p].blamed)
			ret = blame_finding(r, p, &w[p]);
		else if (r->attr[p].suspect)
			ret = suspect_finding(r, p);
		else if (h->n_untested && !h->n_ok && !h->n_low)
			ret = untested_finding(r, p);
	}
	free(w);
	return ret;
}

int report_judge(struct report *r)
{
	struct classes *cs = calloc(1, sizeof(*cs));
	int ret = -ENOMEM;

	r->attr = calloc(r->n_hports + 1, sizeof(*r->attr));
	if (!cs || !r->attr)
		goto out;
	ret = build_classes(r, cs);
	if (ret)
		goto out;
	judge_pairs(r, cs);
	ret = attribute_ports(r->pairs, r->n_pairs, r->attr, r->n_hports,
			      &r->params.attr);
	if (!ret)
		ret = port_findings(r);
	if (!ret)
		ret = report_group_rounds(r);
out:
	for (size_t i = 0; cs && i < cs->n; i++)
		free(cs->c[i].vals);
	free(cs);
	return ret;
}
