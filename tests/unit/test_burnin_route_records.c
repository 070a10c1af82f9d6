// SPDX-License-Identifier: MIT
/*
 * The route fields of pair records and the cable records
 * (burnin/route_judge.h) on the plan fixture's fabric (4 CAs on 2 leaves,
 * 3 spines): the path of a pair across leaves, both directions for a
 * bidirectional test; a port not in the routes named; a cable record
 * that passes the record schema.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "burnin/route_judge.h"
#include "burnin/coord.h"
#include "common/record.h"

#define RECORDS FIXTURES_DIR "/fabric/plan/small.records"

static struct burnin_routes *load(void)
{
	struct burnin_routes *r = NULL;
	char err[256];

	assert_int_equal(
		burnin_routes_load(RECORDS, NULL, &r, err, sizeof(err)), 0);
	return r;
}

/* Two CAs on different leaves. */
static void across_leaves(const struct burnin_routes *r, int *a, int *b)
{
	int n = burnin_routes_n_cas(r), cables[16];

	for (*a = 0; *a < n; (*a)++)
		for (*b = 0; *b < n; (*b)++)
			if (*a != *b &&
			    burnin_routes_path(r, *a, *b, cables, 16) == 4)
				return;
	fail_msg("no pair across leaves");
}

static void pair_gets_both_paths(void **state)
{
	struct burnin_routes *r = load();
	json_t *rec = json_object(), *ab, *ba;
	char id[BURNIN_CABLE_ID_LEN];
	int a = 0, b = 0, cables[16];

	(void)state;
	across_leaves(r, &a, &b);
	assert_int_equal(burnin_pair_route_fields(rec, r, a, b, true, 0), 0);
	ab = json_object_get(rec, "cables");
	ba = json_object_get(rec, "cables_ba");
	assert_int_equal(json_array_size(ab), 4);
	assert_int_equal(json_array_size(ba), 4);
	assert_int_equal(burnin_routes_path(r, b, a, cables, 16), 4);
	burnin_cable_id(r, cables[1], id, sizeof(id));
	assert_string_equal(json_string_value(json_array_get(ba, 1)), id);
	assert_int_equal(strlen(id), 2 + 16 + 2);
	assert_null(json_object_get(rec, "route"));
	json_decref(rec);
	rec = json_object();
	assert_int_equal(burnin_pair_route_fields(rec, r, a, b, false, 0), 0);
	assert_null(json_object_get(rec, "cables_ba"));
	json_decref(rec);
	burnin_routes_free(r);
}

static void port_not_in_routes_is_named(void **state)
{
	struct burnin_routes *r = load();
	json_t *rec = json_object();

	(void)state;
	assert_int_equal(burnin_pair_route_fields(rec, r, 0, -1, true, 0), 0);
	assert_null(json_object_get(rec, "cables"));
	assert_string_equal(json_string_value(json_object_get(rec, "route")),
			    "not-in-routes");
	json_decref(rec);
	burnin_routes_free(r);
}

static void cable_record_passes_schema(void **state)
{
	struct burnin_routes *r = load();
	struct judge_cable v = { .verdict = JUDGE_CABLE_AMBIGUOUS,
				 .by = JUDGE_CABLE_BY_ROUTE,
				 .n_pairs = 3,
				 .n_meas = 3,
				 .n_bad = 3,
				 .hit_ratio = 1,
				 .fine_ends = 2,
				 .or_port = 1,
				 .worst_gbps = 45 };
	char why[256] = "";
	json_t *rec;
	int c;

	(void)state;
	for (c = 0; !burnin_routes_cable(r, c)->inter_switch; c++)
		;
	rec = burnin_cable_record(r, c, &v,
				  record_port_ref("node01", "mlx5_0", 1, 0x21));
	assert_non_null(rec);
	assert_int_equal(record_validate(rec, why, sizeof(why)), 0);
	assert_string_equal(json_string_value(json_object_get(rec, "verdict")),
			    "ambiguous");
	assert_non_null(json_object_get(rec, "or_port"));
	json_object_del(rec, "to");
	assert_int_not_equal(record_validate(rec, why, sizeof(why)), 0);
	assert_non_null(strstr(why, "to"));
	json_decref(rec);
	burnin_routes_free(r);
}

/* Rank 0's hooks with --routes: a pair record's paths from the
 * inventory's GUIDs; a cable record per judged cable, a finding per
 * group of the judge's (a blamed cable, a cable or the port behind it). */
static void coord_hooks(void **state)
{
	struct dpath_port inv[4] = { 0 };
	struct burnin_config cfg = { 0 }; /* SL 0 */
	struct burnin_ctx ctx = { .cfg = &cfg };
	struct burnin_coord co = { .ctx = &ctx, .inv = inv, .n_inv = 4 };
	struct burnin_measure m = { .a = 0, .b = 3, .bidir = false };
	struct judge_cable_result cr = { 0 };
	json_t *rec = json_object(), *out = json_array();
	int n_fail = 0, c;
	uint32_t member;
	struct judge_cable_group group = { .verdict = JUDGE_CABLE_BLAMED,
					   .n = 1,
					   .or_port = JUDGE_NO_PORT,
					   .retest = JUDGE_NO_PAIR };

	(void)state;
	co.routes = load();
	for (int p = 0; p < 4; p++) {
		snprintf(inv[p].host, sizeof(inv[p].host), "node%03d", p + 1);
		snprintf(inv[p].ca, sizeof(inv[p].ca), "mlx5_0");
		inv[p].port = 1;
		inv[p].guid = 0x0008f10400000001ull + 0x10ull * (uint64_t)p;
	}
	assert_int_equal(burnin_coord_route_fields(&co, &m, rec), 0);
	assert_true(json_array_size(json_object_get(rec, "cables")) >= 2);
	assert_null(json_object_get(rec, "cables_ba"));
	cr.n_cables = (size_t)burnin_routes_n_cables(co.routes);
	cr.cables = calloc(cr.n_cables, sizeof(*cr.cables));
	assert_non_null(cr.cables);
	for (c = 0; !burnin_routes_cable(co.routes, c)->inter_switch; c++)
		;
	cr.cables[c] = (struct judge_cable){ .verdict = JUDGE_CABLE_BLAMED,
					     .by = JUDGE_CABLE_BY_ROUTE,
					     .n_meas = 2,
					     .n_bad = 2,
					     .or_port = JUDGE_NO_PORT };
	member = (uint32_t)c; /* its finding: the judge's group of one */
	cr.members = &member;
	cr.groups = &group;
	cr.n_groups = 1;
	assert_int_equal(burnin_cable_records(&co, &cr, out, &n_fail), 0);
	assert_int_equal(n_fail, 1);
	assert_int_equal(json_array_size(out), 2); /* record, finding */
	assert_string_equal(json_string_value(json_object_get(
				    json_array_get(out, 1), "action")),
			    "replace-cable");
	assert_string_equal(json_string_value(json_object_get(
				    json_array_get(out, 0), "kind")),
			    "cable");
	/* ambiguous: the finding names the HCA port behind the cable */
	cr.cables[c] = (struct judge_cable){ .verdict = JUDGE_CABLE_AMBIGUOUS,
					     .by = JUDGE_CABLE_BY_ROUTE,
					     .n_meas = 2,
					     .n_bad = 2,
					     .or_port = 2 };
	group.verdict = JUDGE_CABLE_AMBIGUOUS;
	group.or_port = 2;
	json_array_clear(out);
	assert_int_equal(burnin_cable_records(&co, &cr, out, &n_fail), 0);
	assert_string_equal(json_string_value(json_object_get(
				    json_array_get(out, 1), "category")),
			    "cable-or-port");
	assert_string_equal(json_string_value(json_object_get(
				    json_array_get(out, 1), "action")),
			    "locate");
	assert_string_equal(
		json_string_value(json_object_get(
			json_object_get(json_object_get(json_array_get(out, 1),
							"evidence"),
					"or_port"),
			"host")),
		"node003");
	assert_non_null(strstr(json_string_value(json_object_get(
				       json_array_get(out, 1), "message")),
			       "node003:mlx5_0:1"));
	free(cr.cables);
	json_decref(rec);
	json_decref(out);
	burnin_coord_routes_free(&co);
	assert_null(co.routes);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(pair_gets_both_paths),
		cmocka_unit_test(port_not_in_routes_is_named),
		cmocka_unit_test(cable_record_passes_schema),
		cmocka_unit_test(coord_hooks),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
