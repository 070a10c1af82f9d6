// SPDX-License-Identifier: MIT
/*
 * One judge, one verdict: the same pair records give the same blamed ports
 * (and the same kinds of blame, and the same suspects) through burnin's
 * entry point (burnin_judge() on measures read back from the records) and
 * through the report (report_analyse() on the files). Over every
 * pair-record fixture in tests/, the demo's records (tests/fixtures/judge/,
 * from a run of scripts/demo) and a generated 512-port all-pairs set with
 * a slow, an intermittent and an erroring port planted (bench_burnin_judge
 * compares the two at 4,096 ports). With routes (issue 16): pair records
 * carrying their paths on a generated fat tree, the same blamed ports and
 * the same blamed and ambiguous cables through burnin_judge() with the
 * routes and through the report. Issue 33: pairs on adaptive paths and
 * pairs of steps whose routes were not followed blame no cable by route on
 * either side (counters still do), and no retest is planned over an
 * adaptive path.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "burnin/burnin.h"
#include "burnin/route_judge.h"
#include "common/record.h"
#include "fabric/ar_info.h"
#include "reports/report.h"
#include "route_fabric.h"

#define MAXP 4096

struct side {
	char *key[MAXP];
	int n;
	struct burnin_measure *m;
	size_t n_m, cap;
};

static int port_index(struct side *s, const json_t *ref)
{
	char key[512];
	int i;

	snprintf(key, sizeof(key), "%s/%s/%lld",
		 json_string_value(json_object_get(ref, "host")),
		 json_string_value(json_object_get(ref, "ca")),
		 (long long)json_integer_value(json_object_get(ref, "port")));
	for (i = 0; i < s->n; i++)
		if (!strcmp(s->key[i], key))
			return i;
	assert_true(s->n < MAXP);
	s->key[s->n] = strdup(key);
	return s->n++;
}

static enum burnin_pair_status status_of(const char *s)
{
	return !strcmp(s, "ok")	     ? BURNIN_PAIR_OK
	       : !strcmp(s, "error") ? BURNIN_PAIR_ERROR
				     : BURNIN_PAIR_NOT_TESTED;
}

static void take(struct side *s, const json_t *rec)
{
	struct burnin_measure *m;

	if (s->n_m == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 1024;
		s->m = realloc(s->m, s->cap * sizeof(*s->m));
		assert_non_null(s->m);
	}
	m = &s->m[s->n_m++];
	*m = (struct burnin_measure){
		.round =
			(int)json_integer_value(json_object_get(rec, "round")) -
			1,
		.a = port_index(s, json_object_get(rec, "a")),
		.b = port_index(s, json_object_get(rec, "b")),
		.test = !strcmp(json_string_value(json_object_get(rec, "test")),
				"read")
				? DPATH_TEST_READ
				: DPATH_TEST_WRITE,
		.bidir = !strcmp(json_string_value(json_object_get(rec, "dir")),
				 "bi"),
		.status = status_of(
			json_string_value(json_object_get(rec, "status"))),
		.gbps = json_number_value(json_object_get(rec, "gbps")),
		.gbps_min = json_number_value(json_object_get(rec, "gbps_min")),
		.expected_gbps = json_number_value(
			json_object_get(rec, "expected_gbps")),
		.error_completions = (uint64_t)json_integer_value(
			json_object_get(rec, "error_completions")),
		.retest = json_is_true(json_object_get(rec, "retest")),
	};
}

/* The burnin side of one file; the number of pairs read. */
static size_t read_side(const char *path, struct side *s)
{
	struct record_reader *rd = record_reader_open(path);
	json_t *rec;

	assert_non_null(rd);
	while (record_reader_next(rd, &rec) > 0) {
		const char *kind =
			json_string_value(json_object_get(rec, "kind"));

		if (kind && !strcmp(kind, "pair"))
			take(s, rec);
		json_decref(rec);
	}
	record_reader_close(rd);
	return s->n_m;
}

/* Both judges over one file, with the given judging options. */
static void same_verdicts(const char *path, const struct judge_params *jp)
{
	struct side s = { 0 };
	struct burnin_port_verdict *v = calloc(MAXP, sizeof(*v));
	struct burnin_judge_params bp;
	struct report r;
	char *files[] = { (char *)path };
	int blamed = 0;

	assert_non_null(v);
	assert_true(read_side(path, &s) > 0);
	burnin_judge_defaults(&bp);
	bp.pairs = *jp;
	assert_int_equal(0, burnin_judge(&bp, s.m, (int)s.n_m, v, s.n));
	assert_int_equal(0, report_init(&r));
	r.params.judge = *jp;
	/* both judge with jp: given, as on report's command line, so that
	 * the report does not take a run start record's options instead */
	r.params.judge_given = (1u << JUDGE_N_OPTIONS) - 1;
	r.params.threads = 1;
	assert_int_equal(0, report_analyse(&r, files, 1, NULL));
	for (size_t i = 0; i < r.n_hports; i++) {
		const struct report_hport *h = &r.hports[i];
		char key[512];
		int p;

		snprintf(key, sizeof(key), "%s/%s/%d", h->host, h->ca, h->port);
		for (p = 0; p < s.n && strcmp(s.key[p], key); p++)
			;
		if (p == s.n) { /* a port record without pairs */
			assert_int_equal(0, r.attr[i].blame);
			continue;
		}
		if (v[p].blame != r.attr[i].blame ||
		    v[p].suspect != r.attr[i].suspect)
			fail_msg(
				"%s: %s: burnin blame %u suspect %d, report blame %u suspect %d",
				path, key, v[p].blame, v[p].suspect,
				r.attr[i].blame, r.attr[i].suspect);
		blamed += v[p].blame != 0;
	}
	printf("%s: %zu pairs, %d ports, %d blamed by both\n", path, s.n_m, s.n,
	       blamed);
	report_fini(&r);
	for (int p = 0; p < s.n; p++)
		free(s.key[p]);
	free(s.m);
	free(v);
}

static void test_fixtures(void **state)
{
	static const char *const files[] = {
		"records/clean-fabric.jsonl",
		"records/evil-fabric.jsonl",
		"sysfs-node/against.jsonl",
	};
	struct judge_params jp;
	char path[1024];

	(void)state;
	judge_defaults(&jp);
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", FIXTURES_DIR, files[i]);
		same_verdicts(path, &jp);
	}
}

/* scripts/demo's Soft-RoCE rails, with the options its burnin ran with
 * (scripts/demo-cluster: --floor 0 --dip-floor 0 --mad-k 0 --class-floor
 * 0.25, and before that without the last two); and the defaults. */
static void test_demo_records(void **state)
{
	struct judge_params jp;
	char path[1024];

	(void)state;
	for (int rail = 0; rail < 2; rail++) {
		snprintf(path, sizeof(path),
			 "%s/judge/demo-burnin-rail%d.jsonl", FIXTURES_DIR,
			 rail);
		judge_defaults(&jp);
		jp.floor = jp.dip_floor = 0;
		same_verdicts(path, &jp);
		jp.mad_k = 0;
		jp.class_floor = 0.25;
		same_verdicts(path, &jp);
		judge_defaults(&jp);
		same_verdicts(path, &jp);
	}
}

static void ref(FILE *f, int p)
{
	fprintf(f,
		"{\"host\":\"node%04d\",\"ca\":\"mlx5_0\",\"port\":1,\"guid\":\"0x%016x\"}",
		p + 1, 0x1000 + p);
}

/* All-pairs of n ports, circle-method rounds; 7 slow, 11 dips, 13 errors;
 * a few noisy pairs. */
static void generate(const char *path, int n)
{
	FILE *f = fopen(path, "w");
	size_t k = 0;

	assert_non_null(f);
	for (int a = 0; a < n; a++)
		for (int b = a + 1; b < n; b++, k++) {
			double g = a == 7 || b == 7 ? 45 : 95 + (k % 7) * 0.1;
			double lo = a == 11 || b == 11 ? 20 : g - 1;
			bool err = a == 13 || b == 13;

			if (k % 997 == 5)
				g = 60; /* noise: a low pair here and there */
			fprintf(f,
				"{\"schema\":\"ibproof/1\",\"kind\":\"pair\",\"time\":\"2026-12-03T00:00:00Z\",\"host\":\"node0001\",\"version\":\"0.1.0\",\"round\":%zu,\"test\":\"write\",\"dir\":\"uni\",\"a\":",
				k % (size_t)(n - 1) + 1);
			ref(f, a);
			fputs(",\"b\":", f);
			ref(f, b);
			fprintf(f,
				",\"gbps\":%.1f,\"gbps_min\":%.1f,\"expected_gbps\":100.0,\"status\":\"%s\"%s,\"error_completions\":%d,\"retest\":false}\n",
				err ? 0 : g, err ? 0 : lo, err ? "error" : "ok",
				err ? ",\"error\":\"a: 3 error completions\""
				    : "",
				err ? 3 : 0);
		}
	assert_int_equal(0, fclose(f));
}

static void test_generated(void **state)
{
	char path[] = "/tmp/ibproof-judge-eq-XXXXXX";
	struct judge_params jp;
	int fd = mkstemp(path);

	(void)state;
	assert_true(fd >= 0);
	close(fd);
	generate(path, 512);
	judge_defaults(&jp);
	same_verdicts(path, &jp);
	unlink(path);
}

/* ---- with routes ---- */

struct routed {
	struct rf_tree t;
	struct burnin_routes *routes;
	int *ca; /* port -> CA index in routes */
	struct burnin_measure *m;
	size_t n_m;
	char path[64];
	/* issue 33: the run's SL and its unfollowed steps (burnin's side;
	 * the report's from the records), a cable's counters */
	struct burnin_route_trust trust;
	const uint64_t *cable_err;
};

static void load_tree(struct routed *x)
{
	char topo[] = "/tmp/ibproof-eq-topo-XXXXXX";
	char lfts[] = "/tmp/ibproof-eq-lfts-XXXXXX";
	int fd_t = mkstemp(topo), fd_l = mkstemp(lfts);
	FILE *ft = fdopen(fd_t, "w"), *fl = fdopen(fd_l, "w");
	char err[512];

	assert_non_null(ft);
	assert_non_null(fl);
	rf_topo(&x->t, ft);
	rf_lfts(&x->t, fl);
	assert_int_equal(0, fclose(ft));
	assert_int_equal(0, fclose(fl));
	if (burnin_routes_load(topo, lfts, &x->routes, err, sizeof(err)))
		fail_msg("routes: %s", err);
	unlink(topo);
	unlink(lfts);
	x->ca = calloc((size_t)rf_hosts(&x->t), sizeof(*x->ca));
	assert_non_null(x->ca);
	for (int p = 0; p < rf_hosts(&x->t); p++) {
		x->ca[p] = burnin_routes_ca_by_guid(x->routes, rf_port_guid(p));
		assert_true(x->ca[p] >= 0);
	}
}

/* The cable leaving switch guid at port, -1 none. */
static int cable_at(const struct burnin_routes *r, uint64_t guid, int port)
{
	for (int c = 0; c < burnin_routes_n_cables(r); c++)
		if (burnin_routes_cable(r, c)->from_guid == guid &&
		    burnin_routes_cable(r, c)->from_port == port)
			return c;
	return -1;
}

static bool crosses(const struct routed *x, int a, int b, int cable)
{
	int path[64],
		n = burnin_routes_path(x->routes, x->ca[a], x->ca[b], path, 64);

	assert_true(n > 0);
	for (int k = 0; k < n; k++)
		if (path[k] == cable)
			return true;
	return false;
}

static json_t *port_json(int p)
{
	char host[16];

	snprintf(host, sizeof(host), "node%03d", p);
	return record_port_ref(host, "mlx5_0", 1, rf_port_guid(p));
}

/* Bidirectional all-pairs (intra-leaf pairs or not), the slow HCA and
 * the slow cable planted; the records (with their paths) and the
 * measures burnin keeps. */
static void routed_pairs(struct routed *x, bool intra_leaf, int slow_port,
			 int slow_cable)
{
	int n = rf_hosts(&x->t), fd;
	struct record_writer *w;
	size_t k = 0;

	snprintf(x->path, sizeof(x->path), "/tmp/ibproof-eq-routed-XXXXXX");
	fd = mkstemp(x->path);
	assert_true(fd >= 0);
	close(fd);
	w = record_writer_open(x->path, false);
	assert_non_null(w);
	x->m = calloc((size_t)n * n, sizeof(*x->m));
	x->n_m = 0;
	for (int a = 0; a < n; a++)
		for (int b = a + 1; b < n; b++, k++) {
			bool slow = a == slow_port || b == slow_port ||
				    (slow_cable >= 0 &&
				     (crosses(x, a, b, slow_cable) ||
				      crosses(x, b, a, slow_cable)));
			double g = slow ? 45 : 95 + (double)(k % 7) * 0.1;
			json_t *rec;

			if (!intra_leaf && a / x->t.spines == b / x->t.spines)
				continue;
			rec = json_pack(
				"{s:s, s:s, s:s, s:s, s:s, s:I, s:s, s:s, s:o, s:o, s:f, s:f, s:f, s:s}",
				"schema", "ibproof/1", "kind", "pair", "time",
				"2026-12-04T00:00:00Z", "host", "node000",
				"version", "0.1.0", "round", (json_int_t)1,
				"test", "write", "dir", "bi", "a", port_json(a),
				"b", port_json(b), "gbps", g, "gbps_min", g - 1,
				"expected_gbps", 100.0, "status", "ok");
			assert_int_equal(
				0, burnin_pair_route_fields(rec, x->routes,
							    x->ca[a], x->ca[b],
							    true, x->trust.sl));
			assert_int_equal(0, record_writer_emit_steal(w, rec));
			x->m[x->n_m++] = (struct burnin_measure){
				.a = a,
				.b = b,
				.test = DPATH_TEST_WRITE,
				.bidir = true,
				.status = BURNIN_PAIR_OK,
				.gbps = (float)g,
				.gbps_min = (float)(g - 1),
				.expected_gbps = 100,
			};
		}
	assert_int_equal(0, record_writer_close(w));
}

/* "0x...:P" of the cables the report blamed (category), sorted by text. */
static void report_cables(const struct report *r, const char *category,
			  char *out, size_t len)
{
	out[0] = '\0';
	for (size_t i = 0; i < r->n_findings; i++) {
		const json_t *f = r->findings[i].rec;

		if (strcmp(json_string_value(json_object_get(f, "category")),
			   category))
			continue;
		strncat(out,
			json_string_value(json_object_get(
				json_object_get(f, "evidence"), "cable")),
			len - strlen(out) - 2);
		strncat(out, " ", len - strlen(out) - 1);
	}
}

static void burnin_cables(const struct routed *x,
			  const struct judge_cable_result *cr, uint8_t verdict,
			  char *out, size_t len)
{
	out[0] = '\0';
	for (size_t c = 0; c < cr->n_cables; c++) {
		char id[BURNIN_CABLE_ID_LEN];

		if (cr->cables[c].verdict != verdict)
			continue;
		burnin_cable_id(x->routes, (int)c, id, sizeof(id));
		strncat(out, id, len - strlen(out) - 2);
		strncat(out, " ", len - strlen(out) - 1);
	}
}

/* The report reads every line through jansson, not the fast scanner. */
static bool jansson_only;

/* Both sides over the routed records: the same ports, the same cables;
 * returns the blamed cables (ids) and ports (count) for the caller. */
static void same_routed_verdicts(struct routed *x, char *blamed_cables,
				 char *ambiguous, int *blamed_ports)
{
	int n = rf_hosts(&x->t);
	struct burnin_port_verdict *v = calloc((size_t)n, sizeof(*v));
	struct judge_cable_result cr;
	struct burnin_judge_params bp;
	char *files[] = { x->path }, rep[1024];
	struct report r;

	assert_non_null(v);
	burnin_judge_defaults(&bp);
	bp.routes = x->routes;
	bp.route_ca = x->ca;
	bp.cables = &cr;
	bp.trust = x->trust;
	bp.cable_err = x->cable_err;
	assert_int_equal(0, burnin_judge(&bp, x->m, (int)x->n_m, v, n));
	assert_int_equal(0, report_init(&r));
	r.params.judge = bp.pairs;
	r.params.threads = 1;
	r.params.no_fast_path = jansson_only;
	assert_int_equal(0, report_analyse(&r, files, 1, NULL));
	*blamed_ports = 0;
	for (size_t i = 0; i < r.n_hports; i++) {
		int p = (int)((r.hports[i].guid - RF_CA_GUID) / 16);

		assert_true(p >= 0 && p < n);
		if (v[p].blame != r.attr[i].blame ||
		    v[p].suspect != r.attr[i].suspect)
			fail_msg(
				"port %d: burnin blame %u suspect %d, report blame %u suspect %d",
				p, v[p].blame, v[p].suspect, r.attr[i].blame,
				r.attr[i].suspect);
		*blamed_ports += v[p].blame != 0;
	}
	burnin_cables(x, &cr, JUDGE_CABLE_BLAMED, blamed_cables, 256);
	report_cables(&r, "bad-cable", rep, sizeof(rep));
	assert_string_equal(blamed_cables, rep);
	burnin_cables(x, &cr, JUDGE_CABLE_AMBIGUOUS, ambiguous, 256);
	report_cables(&r, "cable-or-port", rep, sizeof(rep));
	assert_string_equal(ambiguous, rep);
	judge_cable_result_free(&cr);
	report_fini(&r);
	free(v);
}

static void routed_done(struct routed *x)
{
	unlink(x->path);
	free(x->m);
	free(x->ca);
	burnin_routes_free(x->routes);
}

/* list names cable c alone. */
static void names_only(const struct routed *x, int c, const char *list)
{
	char id[BURNIN_CABLE_ID_LEN + 1];

	burnin_cable_id(x->routes, c, id, sizeof(id) - 1);
	strcat(id, " ");
	assert_string_equal(list, id);
}

static void test_routed(void **state)
{
	struct routed x = { .t = { .leaves = 6, .spines = 6 } };
	char blamed[256], ambiguous[256];
	int ports, up, down;

	(void)state;
	load_tree(&x);
	up = cable_at(x.routes, RF_LEAF_GUID + 0, 1 + 6 + 1);
	down = cable_at(x.routes, RF_SPINE_GUID + 2, 1 + 3);
	assert_true(up >= 0 && down >= 0);
	/* a slow up-link and a slow HCA elsewhere: that cable, that HCA */
	routed_pairs(&x, true, 2 * 6 + 4, up);
	same_routed_verdicts(&x, blamed, ambiguous, &ports);
	names_only(&x, up, blamed);
	assert_string_equal(ambiguous, "");
	assert_int_equal(ports, 1);
	unlink(x.path);
	free(x.m);
	/* a slow down-link, no intra-leaf pairs: ambiguous on both sides */
	routed_pairs(&x, false, -1, down);
	same_routed_verdicts(&x, blamed, ambiguous, &ports);
	names_only(&x, down, ambiguous);
	assert_string_equal(blamed, "");
	assert_int_equal(ports, 0);
	routed_done(&x);
}

/* ---- issue 33: pairs that are no evidence by their route ---- */

/* Switch guid routes every SL adaptively, as a routes file's lft record
 * with "adaptive_routing": "on" says (the loader's reading of it). */
static void ar_on(struct routed *x, int cable)
{
	struct fabric_ar *ar =
		(struct fabric_ar *)burnin_routes_cable_ar(x->routes, cable);
	json_t *lft = json_pack("{s:s}", "adaptive_routing", "on");

	assert_non_null(ar);
	assert_int_equal(0, fabric_ar_from_json(lft, ar));
	json_decref(lft);
}

/* The same for SL sl only ("ar": {"sls": [sl]}). */
static void ar_on_sl(struct routed *x, int cable, int sl)
{
	struct fabric_ar *ar =
		(struct fabric_ar *)burnin_routes_cable_ar(x->routes, cable);
	json_t *lft = json_pack("{s:s, s:{s:b, s:[i], s:[]}}",
				"adaptive_routing", "on", "ar", "capable", 1,
				"sls", sl, "transports_excluded");

	assert_non_null(ar);
	assert_int_equal(0, fabric_ar_from_json(lft, ar));
	json_decref(lft);
}

/* Appends one record to the routed records (for the report's side). */
static void append(const struct routed *x, json_t *rec)
{
	struct record_writer *w = record_writer_open(x->path, true);

	assert_non_null(w);
	assert_int_equal(0, record_writer_emit_steal(w, rec));
	assert_int_equal(0, record_writer_close(w));
}

static json_t *finding_not_followed(int round, const char *test)
{
	return record_finding(
		"warn", "routes-not-followed",
		json_pack("{s:i, s:s}", "round", round, "test", test),
		json_pack("{s:i, s:s, s:i, s:[], s:s, s:i, s:i}", "round",
			  round, "test", test, "cables_not_loaded", 1,
			  "switches", "cause", "tables-changed", "sl", 0,
			  "switches_ar_on", 0),
		"none", "round %d (%s): routes not followed", round, test);
}

/* The load proof's error rise on cable c, as its cable-load record. */
static json_t *cable_load(const struct routed *x, int c, int errors)
{
	const struct burnin_cable *cb = burnin_routes_cable(x->routes, c);
	char id[BURNIN_CABLE_ID_LEN], g[19];

	burnin_cable_id(x->routes, c, id, sizeof(id));
	record_guid_str(cb->from_guid, g);
	return json_pack(
		"{s:s, s:s, s:s, s:s, s:s, s:i, s:s, s:s, s:{s:s, s:i}, s:{}, "
		"s:i, s:f, s:f, s:s, s:b, s:{s:i}, s:{}}",
		"schema", "ibproof/1", "kind", "cable-load", "time",
		"2026-12-04T00:00:00Z", "host", "node000", "version", "0.1.0",
		"round", 1, "test", "write", "cable", id, "from", "guid", g,
		"port", cb->from_port, "to", "flows", 1, "expected_bytes", 1.0,
		"moved_bytes", 1.0, "status", "loaded", "inter_switch", 1,
		"errors_from", "symbol_errors", errors, "errors_to");
}

static void test_routed_trust(void **state)
{
	struct routed x = { .t = { .leaves = 6, .spines = 6 } };
	struct judge_step step = { .run = 0, .round = 0, .test = 0 };
	char blamed[256], ambiguous[256];
	uint64_t *err;
	int ports, up, n_cables;

	(void)state;
	load_tree(&x);
	up = cable_at(x.routes, RF_LEAF_GUID + 0, 1 + 6 + 1);
	assert_true(up >= 0);
	n_cables = burnin_routes_n_cables(x.routes);
	err = malloc((size_t)n_cables * sizeof(*err));
	assert_non_null(err);
	for (int c = 0; c < n_cables; c++)
		err[c] = BURNIN_CABLE_ERR_UNREAD;

	/* the step the slow up-link's pairs ran in did not follow the
	 * routes: nothing blamed by route, both sides (the report reads
	 * the load proof's finding); a finding about another step
	 * withholds nothing (control: today's blame of the up-link) */
	routed_pairs(&x, true, -1, up);
	append(&x, finding_not_followed(2, "write"));
	x.trust = (struct burnin_route_trust){
		.unfollowed = &(struct judge_step){ .round = 1 },
		.n_unfollowed = 1,
	};
	same_routed_verdicts(&x, blamed, ambiguous, &ports);
	names_only(&x, up, blamed);
	append(&x, finding_not_followed(1, "write"));
	x.trust.unfollowed = &step;
	same_routed_verdicts(&x, blamed, ambiguous, &ports);
	assert_string_equal(blamed, "");
	assert_string_equal(ambiguous, "");
	/* its own counters still blame it */
	err[up] = 5;
	x.cable_err = err;
	append(&x, cable_load(&x, up, 5));
	same_routed_verdicts(&x, blamed, ambiguous, &ports);
	names_only(&x, up, blamed);
	unlink(x.path);
	free(x.m);

	/* adaptive routing on at the up-link's leaf: its pairs there
	 * (recorded "adaptive") blame no cable by route, both sides */
	x.trust = (struct burnin_route_trust){ 0 };
	x.cable_err = NULL;
	ar_on(&x, up);
	routed_pairs(&x, true, -1, up);
	same_routed_verdicts(&x, blamed, ambiguous, &ports);
	assert_string_equal(blamed, "");
	assert_string_equal(ambiguous, "");
	jansson_only = true; /* the reader's path takes "adaptive" too */
	same_routed_verdicts(&x, blamed, ambiguous, &ports);
	assert_string_equal(blamed, "");
	jansson_only = false;
	/* on an SL the leaf does not route adaptively: today's blame */
	unlink(x.path);
	free(x.m);
	ar_on_sl(&x, up, 3); /* SL 3 only: SL 0 is static */
	routed_pairs(&x, true, -1, up);
	same_routed_verdicts(&x, blamed, ambiguous, &ports);
	names_only(&x, up, blamed);
	free(err);
	routed_done(&x);
}

/* The retests that would separate two candidates: none over adaptive
 * paths (not the paths their traffic takes), some when the SL is static. */
static void test_separate_adaptive(void **state)
{
	struct routed x = { .t = { .leaves = 6, .spines = 6 } };
	uint32_t members[2];
	struct judge_cable_group g = { .verdict = JUDGE_CABLE_AMBIGUOUS,
				       .n = 2,
				       .or_port = JUDGE_NO_PORT,
				       .retest = JUDGE_NO_PAIR };
	struct judge_cable_result cr = { .members = members,
					 .groups = &g,
					 .n_groups = 1 };
	int n, added[2];

	(void)state;
	load_tree(&x);
	n = rf_hosts(&x.t);
	/* leaf 1's up-link to spine 0, spine 0's down-link to leaf 2 */
	members[0] = (uint32_t)cable_at(x.routes, RF_LEAF_GUID + 1, 1 + 6 + 1);
	members[1] = (uint32_t)cable_at(x.routes, RF_SPINE_GUID + 0, 1 + 2);
	cr.n_cables = (size_t)burnin_routes_n_cables(x.routes);
	for (int sl = 0; sl < 2; sl++) {
		struct burnin_schedule s = { 0 };
		bool *used = calloc((size_t)n, sizeof(*used));

		assert_non_null(used);
		assert_int_equal(0, burnin_schedule_new_round(&s));
		added[sl] = burnin_route_separate(x.routes, x.ca, n, &cr, true,
						  sl, used, &s);
		burnin_schedule_free(&s);
		free(used);
		if (!sl) /* then every leaf routes SL 1 adaptively */
			for (int l = 0; l < x.t.leaves; l++)
				ar_on_sl(&x,
					 cable_at(x.routes, RF_LEAF_GUID + l,
						  1 + 6 + 1),
					 1);
	}
	assert_true(added[0] > 0);
	assert_int_equal(added[1], 0);
	routed_done(&x);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fixtures),
		cmocka_unit_test(test_demo_records),
		cmocka_unit_test(test_generated),
		cmocka_unit_test(test_routed),
		cmocka_unit_test(test_routed_trust),
		cmocka_unit_test(test_separate_adaptive),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
