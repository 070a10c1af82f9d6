// SPDX-License-Identifier: MIT
/* The route fields of pair records and the cable records (route_judge.h). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "burnin/load_proof_run.h"
#include "burnin/route_judge.h"
#include "burnin/run.h"
#include "common/record.h"

#define MAX_PATH 64

void burnin_cable_id(const struct burnin_routes *r, int c, char *buf,
		     size_t len)
{
	const struct burnin_cable *cb = burnin_routes_cable(r, c);

	snprintf(buf, len, "0x%016" PRIx64 ":%d", cb->from_guid, cb->from_port);
}

static const char *route_error(int err)
{
	switch (err) {
	case -ENOLINK:
		return "dead-port";
	case -ELOOP:
		return "loop";
	case -EINVAL:
		return "not-in-routes";
	default:
		return "no-route";
	}
}

/* The path src -> dst as an array of ids into *out; <0 why not. */
static int path_json(const struct burnin_routes *r, int src, int dst,
		     json_t **out)
{
	int cables[MAX_PATH], n;
	json_t *arr;

	if (src < 0 || dst < 0)
		return -EINVAL;
	n = burnin_routes_path(r, src, dst, cables, MAX_PATH);
	if (n < 0)
		return n;
	arr = json_array();
	for (int i = 0; arr && i < n; i++) {
		char id[BURNIN_CABLE_ID_LEN];

		burnin_cable_id(r, cables[i], id, sizeof(id));
		if (json_array_append_new(arr, json_string(id))) {
			json_decref(arr);
			arr = NULL;
		}
	}
	*out = arr;
	return arr ? 0 : -ENOMEM;
}

int burnin_pair_route_fields(json_t *rec, const struct burnin_routes *r,
			     int ca_a, int ca_b, bool bidir)
{
	json_t *ab = NULL, *ba = NULL;
	int ret = path_json(r, ca_a, ca_b, &ab);

	if (!ret && bidir)
		ret = path_json(r, ca_b, ca_a, &ba);
	if (ret == -ENOMEM) {
		json_decref(ab);
		return ret;
	}
	if (ret) {
		json_decref(ab);
		return json_object_set_new(rec, "route",
					   json_string(route_error(ret)))
			       ? -ENOMEM
			       : 0;
	}
	if (json_object_set_new(rec, "cables", ab) ||
	    (ba && json_object_set_new(rec, "cables_ba", ba)))
		return -ENOMEM;
	return 0;
}

static json_t *cable_evidence(const struct judge_cable *v)
{
	json_t *by = json_array(), *ev;

	if (by && (v->by & JUDGE_CABLE_BY_ROUTE))
		json_array_append_new(by, json_string("route"));
	if (by && (v->by & JUDGE_CABLE_BY_COUNTERS))
		json_array_append_new(by, json_string("counters"));
	ev = json_pack("{s:i, s:i, s:i, s:f, s:i, s:i, s:f, s:o}", "pairs",
		       (json_int_t)v->n_pairs, "measured",
		       (json_int_t)v->n_meas, "bad", (json_int_t)v->n_bad,
		       "hit_ratio", (double)v->hit_ratio, "fine_ends",
		       (json_int_t)v->fine_ends, "bad_ends",
		       (json_int_t)v->bad_ends, "worst_gbps",
		       (double)v->worst_gbps, "by", by);
	if (ev && v->err_delta)
		json_object_set_new(ev, "err_delta",
				    json_integer((json_int_t)v->err_delta));
	if (ev && v->or_port != JUDGE_NO_PORT) {
		json_object_set_new(ev, "or_port_measured",
				    json_integer(v->or_port_meas));
		json_object_set_new(ev, "or_port_bad",
				    json_integer(v->or_port_bad));
	}
	return ev;
}

json_t *burnin_cable_record(const struct burnin_routes *r, int c,
			    const struct judge_cable *v, json_t *or_port)
{
	const struct burnin_cable *cb = burnin_routes_cable(r, c);
	json_t *rec = record_new("cable");
	char id[BURNIN_CABLE_ID_LEN];

	burnin_cable_id(r, c, id, sizeof(id));
	if (!rec) {
		json_decref(or_port);
		return NULL;
	}
	if ((or_port && json_object_set_new(rec, "or_port", or_port)) ||
	    json_object_set_new(rec, "id", json_string(id)) ||
	    json_object_set_new(rec, "from",
				record_switch_port_ref(cb->from_name,
						       cb->from_guid,
						       cb->from_port)) ||
	    json_object_set_new(rec, "to",
				record_switch_port_ref(cb->to_name, cb->to_guid,
						       cb->to_port)) ||
	    json_object_set_new(
		    rec, "verdict",
		    json_string(judge_cable_verdict_name(v->verdict))) ||
	    json_object_set_new(rec, "evidence", cable_evidence(v))) {
		json_decref(rec);
		return NULL;
	}
	return rec;
}

int burnin_coord_route_fields(const struct burnin_coord *co,
			      const struct burnin_measure *m, json_t *rec)
{
	int a, b;

	if (!co->routes || m->a < 0 || m->b < 0 || m->a >= co->n_inv ||
	    m->b >= co->n_inv)
		return 0;
	a = co->route_ca
		    ? co->route_ca[m->a]
		    : burnin_routes_ca_by_guid(co->routes, co->inv[m->a].guid);
	b = co->route_ca
		    ? co->route_ca[m->b]
		    : burnin_routes_ca_by_guid(co->routes, co->inv[m->b].guid);
	return burnin_pair_route_fields(rec, co->routes, a, b, m->bidir);
}

static json_t *or_port_ref(const struct burnin_coord *co,
			   const struct judge_cable *v)
{
	const struct dpath_port *p;

	if (v->or_port == JUDGE_NO_PORT || (int)v->or_port >= co->n_inv)
		return NULL;
	p = &co->inv[v->or_port];
	return record_port_ref(p->host, p->ca, p->port, p->guid);
}

/* The finding of a blamed or ambiguous cable, as the report makes it. */
static json_t *cable_finding(const struct burnin_coord *co, int c,
			     const struct judge_cable *v, const json_t *rec)
{
	bool ambiguous = v->verdict == JUDGE_CABLE_AMBIGUOUS;
	json_t *ev = json_deep_copy(json_object_get(rec, "evidence"));
	const json_t *port = json_object_get(rec, "or_port");
	char name[96], hca[160] = "?";
	json_t *subj;

	burnin_cable_name(co->routes, c, name, sizeof(name));
	if (ambiguous && port && ev) { /* the finding names both, as the
					* report's does */
		json_object_set(ev, "or_port", (json_t *)port);
		snprintf(
			hca, sizeof(hca), "%s:%s:%d",
			json_string_value(json_object_get(port, "host")),
			json_string_value(json_object_get(port, "ca")),
			(int)json_integer_value(json_object_get(port, "port")));
	}
	subj = json_pack("{s:O, s:O}", "a", json_object_get(rec, "from"), "b",
			 json_object_get(rec, "to"));
	if (ambiguous)
		return record_finding("fail", "cable-or-port", subj, ev,
				      "retest",
				      "cable %s or the HCA port %s behind it: "
				      "%u of %u pairs through it bad, none of "
				      "that port off it",
				      name, hca, v->n_bad, v->n_meas);
	return record_finding("fail", "bad-cable", subj, ev, "replace-cable",
			      "cable %s: %u of %u pairs through it bad", name,
			      v->n_bad, v->n_meas);
}

int burnin_cable_records(const struct burnin_coord *co,
			 const struct judge_cable_result *cables, json_t *out,
			 int *n_fail)
{
	for (size_t c = 0; co->routes && c < cables->n_cables; c++) {
		const struct judge_cable *v = &cables->cables[c];
		bool bad = v->verdict == JUDGE_CABLE_BLAMED ||
			   v->verdict == JUDGE_CABLE_AMBIGUOUS;
		json_t *rec;

		if (!burnin_routes_cable(co->routes, (int)c)->inter_switch ||
		    v->verdict == JUDGE_CABLE_UNUSED)
			continue;
		rec = burnin_cable_record(co->routes, (int)c, v,
					  or_port_ref(co, v));
		if (!rec ||
		    (bad && json_array_append_new(
				    out, cable_finding(co, (int)c, v, rec))) ||
		    json_array_append_new(out, rec))
			return -ENOMEM;
		*n_fail += bad;
	}
	return 0;
}

/* Each inventory port's CA in the routes, once. */
static int route_cas(struct burnin_coord *co)
{
	if (co->route_ca)
		return 0;
	co->route_ca = malloc((size_t)(co->n_inv > 0 ? co->n_inv : 1) *
			      sizeof(*co->route_ca));
	if (!co->route_ca)
		return -ENOMEM;
	for (int p = 0; p < co->n_inv; p++)
		co->route_ca[p] =
			burnin_routes_ca_by_guid(co->routes, co->inv[p].guid);
	return 0;
}

/*
 * The load proof's error deltas per route cable for the cable judge
 * (burnin_judge_params.cable_err), malloc'd; NULL without a proof. The
 * proof's cables are those of co->routes.
 */
static uint64_t *proof_cable_errors(const struct burnin_coord *co)
{
	int n = co->proof ? burnin_routes_n_cables(co->routes) : 0;
	uint64_t *err = n > 0 ? malloc((size_t)n * sizeof(*err)) : NULL;

	for (int c = 0; err && c < n; c++)
		if (burnin_load_proof_cable_error_total(co->proof, c, &err[c]))
			err[c] = BURNIN_CABLE_ERR_UNREAD;
	return err;
}

int burnin_coord_judge(struct burnin_coord *co, struct burnin_port_verdict *v,
		       struct judge_cable_result *cables)
{
	struct burnin_judge_params jp = co->ctx->cfg->judge;
	uint64_t *err = NULL;
	int ret;

	if (co->routes && !route_cas(co)) {
		jp.routes = co->routes;
		jp.route_ca = co->route_ca;
		jp.cables = cables;
		err = proof_cable_errors(co);
		jp.cable_err = err; /* the load proof's counters */
	}
	ret = burnin_judge(&jp, co->m, co->n_m, v, co->n_inv);
	free(err);
	return ret;
}

void burnin_coord_routes_free(struct burnin_coord *co)
{
	burnin_routes_free(co->routes);
	free(co->route_ca);
	co->routes = NULL;
	co->route_ca = NULL;
}
