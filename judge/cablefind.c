// SPDX-License-Identifier: MIT
/*
 * The findings of the cable judge's groups (cablefind.h): one shape, one
 * wording, whichever tool judged.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "common/record.h"
#include "judge/cablefind.h"

#define NAME_LEN 192
#define TEXT_LEN 1024

struct namer_ctx {
	const struct judge_cable_result *cr;
	const struct judge_cable_group *g;
	const struct judge_cable_namer *nm;
};

/* "leaf01:5" of a switch port reference; "?" unknown. */
static void ref_text(const json_t *ref, char *buf, size_t len)
{
	const char *node = json_string_value(json_object_get(ref, "node"));

	if (!ref) {
		snprintf(buf, len, "?");
		return;
	}
	snprintf(buf, len, "%s:%d", node ? node : "?",
		 (int)json_integer_value(json_object_get(ref, "port")));
}

/* "node003:mlx5_0:1" of a port reference. */
static void port_text(const json_t *ref, char *buf, size_t len)
{
	snprintf(buf, len, "%s:%s:%d",
		 json_string_value(json_object_get(ref, "host")) ?: "?",
		 json_string_value(json_object_get(ref, "ca")) ?: "?",
		 (int)json_integer_value(json_object_get(ref, "port")));
}

/* A cable as a subject ({a, b}, or its egress end alone) and its name
 * "leaf01:5->spine01:1"; NULL when it cannot be named. */
static json_t *cable_subject(const struct namer_ctx *x, uint32_t c, char *name,
			     size_t len)
{
	json_t *from = x->nm->cable_end(x->nm->arg, c, true);
	json_t *to = from ? x->nm->cable_end(x->nm->arg, c, false) : NULL;
	char a[NAME_LEN / 2 - 2], b[NAME_LEN / 2 - 2];

	if (!from)
		return NULL;
	ref_text(from, a, sizeof(a));
	ref_text(to, b, sizeof(b));
	snprintf(name, len, "%s->%s", a, b);
	return to ? json_pack("{s:o, s:o}", "a", from, "b", to) : from;
}

static json_t *route_figures(const struct judge_cable *v)
{
	json_t *f = json_pack(
		"{s:i, s:i, s:i, s:f, s:i, s:i, s:f, s:b, s:b}", "pairs",
		(json_int_t)v->n_pairs, "measured", (json_int_t)v->n_meas,
		"bad", (json_int_t)v->n_bad, "hit_ratio", (double)v->hit_ratio,
		"fine_ends", (json_int_t)v->fine_ends, "bad_ends",
		(json_int_t)v->bad_ends, "worst_gbps", (double)v->worst_gbps,
		"by_route", !!(v->by & JUDGE_CABLE_BY_ROUTE), "by_counters",
		!!(v->by & JUDGE_CABLE_BY_COUNTERS));

	if (f && v->n_no_route) /* adaptive or off their routes (issue 33) */
		json_object_set_new(f, "no_route_evidence",
				    json_integer(v->n_no_route));
	return f;
}

static uint32_t member(const struct namer_ctx *x, uint32_t k)
{
	return x->cr->members[x->g->first + k];
}

/* The candidates: each cable ({kind, id, a, b}), then the port; their
 * names joined into text. NULL when a cable cannot be named. */
static json_t *candidates(const struct namer_ctx *x, char *text, size_t len)
{
	json_t *arr = json_array();

	text[0] = '\0';
	for (uint32_t k = 0; arr && k < x->g->n; k++) {
		char id[64], name[NAME_LEN];
		json_t *subj = cable_subject(x, member(x, k), name,
					     sizeof(name)),
		       *o;

		if (!subj) {
			json_decref(arr);
			return NULL;
		}
		x->nm->cable_id(x->nm->arg, member(x, k), id, sizeof(id));
		o = json_object_get(subj, "a")
			    ? json_pack("{s:s, s:s, s:O, s:O}", "kind", "cable",
					"id", id, "a",
					json_object_get(subj, "a"), "b",
					json_object_get(subj, "b"))
			    : json_pack("{s:s, s:s, s:O}", "kind", "cable",
					"id", id, "a", subj);
		json_decref(subj);
		json_array_append_new(arr, o);
		snprintf(text + strlen(text), len - strlen(text), "%scable %s",
			 k ? ", " : "", name);
	}
	if (arr && x->g->or_port != JUDGE_NO_PORT) {
		json_t *p = x->nm->port_ref(x->nm->arg, x->g->or_port);
		char name[NAME_LEN];

		port_text(p, name, sizeof(name));
		json_object_set_new(p, "kind", json_string("port"));
		json_array_append_new(arr, p);
		snprintf(text + strlen(text), len - strlen(text),
			 "%sthe HCA port %s behind %s", x->g->n ? " or " : "",
			 name, x->g->n > 1 ? "them" : "it");
	}
	return arr;
}

/* The retest that separates them, and its words. */
static json_t *retest(const struct namer_ctx *x, char *text, size_t len)
{
	const struct judge_cable_group *g = x->g;
	char a[NAME_LEN], b[NAME_LEN];
	json_t *ra, *rb;

	if (g->retest == JUDGE_NO_PAIR) {
		snprintf(text, len,
			 "no known pair crosses some of them and not the "
			 "others: run one that does (burnin --routes plans "
			 "such pairs in its retest rounds when ports are "
			 "free), or check each candidate");
		return json_null();
	}
	ra = x->nm->port_ref(x->nm->arg, g->retest_a);
	rb = x->nm->port_ref(x->nm->arg, g->retest_b);
	port_text(ra, a, sizeof(a));
	port_text(rb, b, sizeof(b));
	snprintf(text, len, "run the pair %s <-> %s to tell them apart", a, b);
	return json_pack("{s:o, s:o}", "a", ra, "b", rb);
}

static json_t *blamed(const struct namer_ctx *x)
{
	const struct judge_cable *v = &x->cr->cables[member(x, 0)];
	char id[64], name[NAME_LEN];
	json_t *subj = cable_subject(x, member(x, 0), name, sizeof(name)), *ev;

	if (!subj)
		return json_null();
	x->nm->cable_id(x->nm->arg, member(x, 0), id, sizeof(id));
	ev = json_pack("{s:s, s:o}", "cable", id, "route", route_figures(v));
	if (ev && (v->by & JUDGE_CABLE_BY_COUNTERS))
		json_object_set_new(ev, "counters",
				    json_pack("{s:I}", "err_delta",
					      (json_int_t)v->err_delta));
	return record_finding("fail", "bad-cable", subj, ev, "replace-cable",
			      "cable %s: %u of %u pairs through it bad (%s)",
			      name, v->n_bad, v->n_meas,
			      v->by & JUDGE_CABLE_BY_COUNTERS
				      ? "its error counters rose"
				      : "their hosts fine elsewhere");
}

/* Several candidates: one finding naming them all. */
static json_t *ambiguous(const struct namer_ctx *x)
{
	const struct judge_cable *v = &x->cr->cables[member(x, 0)];
	char names[TEXT_LEN], how[TEXT_LEN], id[64];
	json_t *cand = candidates(x, names, sizeof(names)), *ev, *subj, *ids;

	if (!cand)
		return json_null();
	ids = json_array();
	for (uint32_t k = 0; ids && k < x->g->n; k++) {
		x->nm->cable_id(x->nm->arg, member(x, k), id, sizeof(id));
		json_array_append_new(ids, json_string(id));
	}
	x->nm->cable_id(x->nm->arg, member(x, 0), id, sizeof(id));
	ev = json_pack("{s:s, s:o, s:O, s:o}", "cable", id, "cables", ids,
		       "candidates", cand, "route", route_figures(v));
	if (ev)
		json_object_set_new(ev, "retest", retest(x, how, sizeof(how)));
	if (ev && x->g->or_port != JUDGE_NO_PORT) {
		json_object_set_new(ev, "or_port",
				    x->nm->port_ref(x->nm->arg, x->g->or_port));
		json_object_set_new(ev, "or_port_measured",
				    json_integer(v->or_port_meas));
	}
	if (x->g->n == 1) { /* the cable is the subject, as a bad one's */
		subj = json_object();
		json_object_set(subj, "a",
				json_object_get(json_array_get(cand, 0), "a"));
		if (json_object_get(json_array_get(cand, 0), "b"))
			json_object_set(
				subj, "b",
				json_object_get(json_array_get(cand, 0), "b"));
	} else {
		subj = json_pack("{s:O}", "candidates", cand);
	}
	json_decref(cand);
	return record_finding(
		"fail", x->g->n == 1 ? "cable-or-port" : "ambiguous-cables",
		subj, ev, "locate",
		"%s: %u of %u pairs through %s bad, and no pair tells %s apart; %s",
		names, v->n_bad, v->n_meas, x->g->n > 1 ? "them" : "it",
		x->g->n > 1 || x->g->or_port != JUDGE_NO_PORT ? "them" : "it",
		how);
}

int judge_cable_findings(const struct judge_cable_result *cr,
			 const struct judge_cable_namer *nm, json_t *out)
{
	for (size_t g = 0; g < cr->n_groups; g++) {
		struct namer_ctx x = { cr, &cr->groups[g], nm };
		json_t *f = cr->groups[g].verdict == JUDGE_CABLE_BLAMED
				    ? blamed(&x)
				    : ambiguous(&x);

		if (!f)
			return -ENOMEM;
		if (json_is_null(f))
			continue; /* a cable the tool cannot name */
		if (json_array_append_new(out, f))
			return -ENOMEM;
	}
	return 0;
}
