// SPDX-License-Identifier: MIT
/* The route fields of pair records and the cable records (route_judge.h). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "burnin/route_judge.h"
#include "common/record.h"
#include "fabric/ar_info.h"

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

bool burnin_path_adaptive(const struct burnin_routes *r, const int *cables,
			  int n, int sl)
{
	for (int k = 0; k < n; k++) {
		const struct fabric_ar *ar =
			burnin_routes_cable_ar(r, cables[k]);

		if (ar && fabric_ar_for(ar, sl, FABRIC_AR_RC) == FABRIC_AR_ON)
			return true;
	}
	return false;
}

/* The path src -> dst as an array of ids into *out (*adaptive: on SL sl,
 * burnin_path_adaptive()); <0 why not. */
static int path_json(const struct burnin_routes *r, int src, int dst, int sl,
		     json_t **out, bool *adaptive)
{
	int cables[MAX_PATH], n;
	json_t *arr;

	if (src < 0 || dst < 0)
		return -EINVAL;
	n = burnin_routes_path(r, src, dst, cables, MAX_PATH);
	if (n < 0)
		return n;
	*adaptive |= burnin_path_adaptive(r, cables, n, sl);
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
			     int ca_a, int ca_b, bool bidir, int sl)
{
	json_t *ab = NULL, *ba = NULL;
	bool adaptive = false;
	int ret = path_json(r, ca_a, ca_b, sl, &ab, &adaptive);

	if (!ret && bidir)
		ret = path_json(r, ca_b, ca_a, sl, &ba, &adaptive);
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
	    (ba && json_object_set_new(rec, "cables_ba", ba)) ||
	    (adaptive && json_object_set_new(rec, "adaptive", json_true())))
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
	if (ev && v->n_no_route)
		json_object_set_new(ev, "no_route_evidence",
				    json_integer(v->n_no_route));
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
