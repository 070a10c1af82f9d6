// SPDX-License-Identifier: MIT
/*
 * The report judging by route (reports/report_route.c): pair records with
 * their paths (`cables`, `cables_ba`) on a 6 x 6 fat tree routed as
 * opensm's ftree, a `cable` record and the transceivers of both ends. A
 * slow up-link whose counters rose: one replace-cable entry with both
 * ends, both modules, the route evidence and the counters, and no common
 * cause made of the pairs it explains. A slow down-link without
 * intra-leaf pairs: a retest entry naming the cable and the port.
 */
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "common/record.h"
#include "reports/report.h"

#define N 6 /* leaves = spines = hosts a leaf */
#define LEAF 0x0008f10300000100ull
#define SPINE 0x0008f10300000200ull
#define CA 0x0008f10400001000ull

static json_t *id(uint64_t guid, int port)
{
	char s[40];

	snprintf(s, sizeof(s), "0x%016llx:%d", (unsigned long long)guid, port);
	return json_string(s);
}

static json_t *path(int a, int b)
{
	json_t *p = json_array();

	json_array_append_new(p, id(CA + 16 * (uint64_t)a, 1));
	if (a / N != b / N) {
		json_array_append_new(p, id(LEAF + a / N, 1 + N + b % N));
		json_array_append_new(p, id(SPINE + b % N, 1 + b / N));
	}
	json_array_append_new(p, id(LEAF + b / N, 1 + b % N));
	return p;
}

static bool has(const json_t *p, const char *cable)
{
	for (size_t k = 0; k < json_array_size(p); k++)
		if (!strcmp(json_string_value(json_array_get(p, k)), cable))
			return true;
	return false;
}

static json_t *port_ref(int p)
{
	char host[16];

	snprintf(host, sizeof(host), "node%03d", p);
	return record_port_ref(host, "mlx5_0", 1, CA + 16 * (uint64_t)p + 1);
}

static json_t *pair(int a, int b, const char *slow, int k)
{
	json_t *ab = path(a, b), *ba = path(b, a), *rec = record_new("pair");
	double g = has(ab, slow) || has(ba, slow) ? 45 : 95 + (k % 7) * 0.1;

	json_object_update_new(
		rec, json_pack("{s:i, s:s, s:s, s:o, s:o, s:f, s:f, s:f, s:s}",
			       "round", 1 + k % 35, "test", "write", "dir",
			       "bi", "a", port_ref(a), "b", port_ref(b), "gbps",
			       g, "gbps_min", g - 1, "expected_gbps", 100.0,
			       "status", "ok"));
	json_object_set_new(rec, "cables", ab);
	json_object_set_new(rec, "cables_ba", ba);
	return rec;
}

static json_t *xcvr(uint64_t guid, int port, const char *node,
		    const char *serial)
{
	json_t *rec = record_new("transceiver");
	char g[19];

	json_object_set_new(rec, "port",
			    json_pack("{s:s, s:i, s:s, s:s}", "node", node,
				      "port", port, "type", "switch", "guid",
				      record_guid_str(guid, g)));
	json_object_update_new(rec,
			       json_pack("{s:s, s:b, s:s, s:s, s:s}", "source",
					 "ibdiagnet", "present", 1, "vendor",
					 "Mellanox", "part_number",
					 "MMA1B00-E100", "serial", serial));
	return rec;
}

/* Beyond the records above: what analyse() adds or changes. */
struct extra {
	bool loads; /* the load proof's cable-load records (load_record) */
	/* issue 35: their errors_over_* (burnin's judgement by the counter
	 * limits): 0 none (records from before), 1 the 2-error step's rise
	 * over its limit, 2 no rise over */
	int over;
	bool jansson; /* no fast path: every line through jansson */
	const char *previous; /* --previous REPORT.json */
};

/* A cable-load record of round 1 for the cable leaf -> spine of up-port
 * up, its error rises at the far end (0: none rose); over: -1 no
 * errors_over_* (before issue 35), else whether that rise broke its
 * limit. */
static json_t *load_record(int leaf, int up, int spine, int errors, int over)
{
	json_t *rec = record_new("cable-load");
	char gf[19], gt[19];

	json_object_update_new(
		rec,
		json_pack(
			"{s:i, s:s, s:s, s:{s:s, s:s, s:i, s:i}, s:{s:s, s:s, s:i, s:i}, s:b, s:i, s:f, s:f, s:s, s:i, s:s, s:{}, s:o}",
			"round", 1, "test", "write", "cable", "leaf->spine",
			"from", "name", "leaf", "guid",
			record_guid_str(LEAF + (uint64_t)leaf, gf), "port", up,
			"lid", 2, "to", "name", "spine", "guid",
			record_guid_str(SPINE + (uint64_t)spine, gt), "port",
			1 + leaf, "lid", 9, "inter_switch", 1, "flows", 1,
			"expected_bytes", 1e9, "moved_bytes", 1e9, "status",
			"loaded", "sent_bytes", 1000000000, "sent", "exact",
			"errors_from", "errors_to",
			errors ? json_pack("{s:i}", "SymbolErrorCounter",
					   errors)
			       : json_object()));
	if (over >= 0) {
		json_object_set_new(rec, "errors_over_from", json_object());
		json_object_set_new(
			rec, "errors_over_to",
			over && errors ? json_pack("{s:i}",
						   "SymbolErrorCounter", errors)
				       : json_object());
	}
	return rec;
}

static void write_loads(struct record_writer *w, int over)
{
	int o1 = over ? over == 1 : -1, o2 = over ? 0 : -1;

	/* leaf01 -> spine02 rose in two steps; leaf02 -> spine03 clean */
	assert_int_equal(0, record_writer_emit_steal(
				    w, load_record(1, 1 + N + 3, 2, 2, o1)));
	assert_int_equal(0, record_writer_emit_steal(
				    w, load_record(1, 1 + N + 3, 2, 1, o2)));
	assert_int_equal(0, record_writer_emit_steal(
				    w, load_record(2, 1 + N + 4, 3, 0, o2)));
}

static void write_records(const char *file, bool intra_leaf, const char *slow,
			  bool cable_record, const struct extra *x)
{
	struct record_writer *w = record_writer_open(file, false);
	int k = 0;

	assert_non_null(w);
	for (int a = 0; a < N * N; a++)
		for (int b = a + 1; b < N * N; b++, k++)
			if (intra_leaf || a / N != b / N)
				assert_int_equal(
					0, record_writer_emit_steal(
						   w, pair(a, b, slow, k)));
	if (cable_record)
		assert_int_equal(
			0,
			record_writer_emit_steal(
				w,
				json_pack(
					"{s:s, s:s, s:s, s:s, s:s, s:s, s:{s:s, s:s, s:i}, s:{s:s, s:s, s:i}, s:s, s:{s:i}}",
					"schema", "ibproof/1", "kind", "cable",
					"time", "2026-12-04T00:00:00.000Z",
					"host", "node000", "version", "0.1.0",
					"id", slow, "from", "node", "leaf00",
					"guid", "0x0008f10300000100", "port",
					1 + N + 1, "to", "node", "spine01",
					"guid", "0x0008f10300000201", "port", 1,
					"verdict", "blamed", "evidence",
					"err_delta", 12)));
	assert_int_equal(0,
			 record_writer_emit_steal(
				 w, xcvr(LEAF, 1 + N + 1, "leaf00", "MT0001")));
	assert_int_equal(0,
			 record_writer_emit_steal(
				 w, xcvr(SPINE + 1, 1, "spine01", "MT0002")));
	if (x && x->loads)
		write_loads(w, x->over);
	assert_int_equal(0, record_writer_close(w));
}

/* The records written, then read and judged by the report. */
static void analyse_x(bool intra_leaf, const char *slow, bool cable_record,
		      const struct extra *x, struct report *r)
{
	char file[] = "/tmp/ibproof-report-route-XXXXXX";
	char *files[] = { file };
	int fd = mkstemp(file);

	assert_true(fd >= 0);
	close(fd);
	write_records(file, intra_leaf, slow, cable_record, x);
	assert_int_equal(0, report_init(r));
	r->params.no_fast_path = x && x->jansson;
	judge_defaults(&r->params.judge);
	r->params.group_min = 4; /* the command's default */
	r->params.threads = 1;
	assert_int_equal(0,
			 report_analyse(r, files, 1, x ? x->previous : NULL));
	unlink(file);
}

static void analyse(bool intra_leaf, const char *slow, bool cable_record,
		    struct report *r)
{
	analyse_x(intra_leaf, slow, cable_record, NULL, r);
}

static const struct report_entry *entry(const struct report *r,
					const char *action)
{
	for (size_t i = 0; i < r->n_entries; i++)
		if (!strcmp(r->entries[i].action, action))
			return &r->entries[i];
	fail_msg("no %s entry", action);
	return NULL;
}

static int n_category(const struct report *r, const char *cat)
{
	int n = 0;

	for (size_t i = 0; i < r->n_findings; i++)
		n += !strcmp(json_string_value(json_object_get(
				     r->findings[i].rec, "category")),
			     cat);
	return n;
}

static void slow_uplink_is_replaced_with_both_ends(void **state)
{
	const struct report_entry *e;
	char verdict[256];
	const json_t *ev;
	struct report r;

	(void)state;
	analyse(true, "0x0008f10300000100:8", true, &r);
	e = entry(&r, "replace-cable");
	assert_string_equal(e->port.name, "leaf00");
	assert_int_equal(e->port.port, 8);
	assert_string_equal(e->peer.name, "spine01");
	assert_int_equal(e->peer.port, 1);
	assert_string_equal(e->port.xcvr.serial, "MT0001");
	assert_string_equal(e->peer.xcvr.serial, "MT0002");
	ev = json_object_get(e->evidence, "bad-cable");
	assert_int_equal(30, json_integer_value(json_object_get(
				     json_object_get(ev, "route"), "bad")));
	assert_int_equal(
		12, json_integer_value(json_object_get(
			    json_object_get(ev, "counters"), "err_delta")));
	assert_int_equal(1, (int)r.n_entries);
	assert_int_equal(0, n_category(&r, "common-cause"));
	report_verdict_line(&r, verdict, sizeof(verdict));
	assert_string_equal(verdict,
			    "FAIL: 1 port to disable (1 cable to replace)");
	report_fini(&r);
}

/* The file an output wrote holds text. */
static void output_has(int (*write)(const struct report *, const char *),
		       const struct report *r, const char *text)
{
	char path[] = "/tmp/ibproof-report-out-XXXXXX", buf[65536];
	int fd = mkstemp(path);
	ssize_t n;

	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(0, write(r, path));
	fd = open(path, O_RDONLY);
	assert_true(fd >= 0);
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	unlink(path);
	assert_true(n > 0);
	buf[n] = '\0';
	if (!strstr(buf, text))
		fail_msg("no '%s' in:\n%s", text, buf);
}

static void slow_downlink_alone_is_located(void **state)
{
	const struct report_entry *e;
	const json_t *ev, *cand;
	struct report r;
	char line[256];

	(void)state;
	/* spine 2 -> leaf 3: host 3 x 6 + 2, no intra-leaf pairs */
	analyse(false, "0x0008f10300000202:4", false, &r);
	e = entry(&r, "locate");
	assert_int_equal(e->port.port, 4);
	ev = json_object_get(e->evidence, "cable-or-port");
	assert_string_equal(json_string_value(json_object_get(
				    json_object_get(ev, "or_port"), "host")),
			    "node020");
	/* one entry naming both candidates, the cable and the port */
	cand = e->candidates;
	assert_int_equal(2, (int)json_array_size(cand));
	assert_string_equal(json_string_value(json_object_get(
				    json_array_get(cand, 0), "id")),
			    "0x0008f10300000202:4");
	assert_string_equal(json_string_value(json_object_get(
				    json_array_get(cand, 1), "host")),
			    "node020");
	assert_true(json_is_null(e->retest)); /* no known pair separates */
	assert_int_equal(1, (int)r.n_entries); /* and not the HCA alone */
	report_verdict_line(&r, line, sizeof(line));
	assert_string_equal(line, "FAIL: 1 fault to locate");
	/* every output names both candidates, and disables nothing (no
	 * cable nor link records: the cable is its egress port) */
	output_has(report_write_csv, &r,
		   "one of 2: 0x0008f10300000202 port 4; node020 mlx5_0 port 1 "
		   "(no known pair tells them apart)");
	output_has(report_write_json, &r, "\"candidates\": [");
	output_has(report_write_json, &r, "\"retest\": null");
	output_has(report_write_html, &r,
		   "one of 2: 0x0008f10300000202 port 4");
	output_has(report_write_prometheus, &r, "ibproof_locate_entries 1");
	output_has(report_write_script, &r, "nothing to disable yet");
	report_fini(&r);
}

/* A locate entry disabled nothing: after the repair, --previous neither
 * re-enables it nor lists it as still disabled. */
static void located_fault_has_nothing_to_reenable(void **state)
{
	char prev[] = "/tmp/ibproof-report-prev-XXXXXX";
	int fd = mkstemp(prev);
	struct report r;

	(void)state;
	assert_true(fd >= 0);
	close(fd);
	analyse(false, "0x0008f10300000202:4", false, &r);
	assert_int_equal(0, report_write_json(&r, prev));
	report_fini(&r);
	analyse_x(false, "none", false, &(struct extra){ .previous = prev },
		  &r); /* repaired: nothing slow */
	assert_int_equal(0, (int)r.n_entries);
	assert_int_equal(0, (int)json_array_size(r.reenable));
	assert_int_equal(0, (int)json_array_size(r.still_disabled));
	report_fini(&r);
	unlink(prev);
}

/* The fast scanner's paths judge as jansson's: same entries, same pairs
 * explained. */
static void fast_path_judges_as_jansson(void **state)
{
	struct report fast, slow;

	(void)state;
	analyse_x(true, "0x0008f10300000100:8", true, &(struct extra){ 0 },
		  &fast);
	analyse_x(true, "0x0008f10300000100:8", true,
		  &(struct extra){ .jansson = true }, &slow);
	assert_int_equal(slow.n_pairs, fast.n_pairs);
	assert_int_equal(slow.n_entries, fast.n_entries);
	for (size_t i = 0; i < fast.n_entries; i++) {
		assert_string_equal(slow.entries[i].action,
				    fast.entries[i].action);
		assert_int_equal(slow.entries[i].port.port,
				 fast.entries[i].port.port);
	}
	for (size_t p = 0; p < fast.n_pairs; p++)
		assert_int_equal(report_route_explained(&slow, p),
				 report_route_explained(&fast, p));
	report_fini(&fast);
	report_fini(&slow);
}

/* Only the load proof's counters blame leaf01 -> spine02: every pair is
 * fine. With its cable-load records the report blames it (3 errors over
 * two steps) and not the clean one; without them, nothing. */
static void counters_of_load_proof_blame_cable(void **state)
{
	const struct report_entry *e;
	const json_t *ev;
	struct report r;

	(void)state;
	analyse_x(true, "none", false, &(struct extra){ .loads = true }, &r);
	e = entry(&r, "replace-cable");
	assert_int_equal(1, (int)r.n_entries);
	assert_int_equal(e->port.port, 1 + N + 3);
	ev = json_object_get(e->evidence, "bad-cable");
	assert_int_equal(
		3, json_integer_value(json_object_get(
			   json_object_get(ev, "counters"), "err_delta")));
	report_fini(&r);
	analyse_x(true, "none", false, &(struct extra){ 0 }, &r);
	assert_int_equal(0, (int)r.n_entries);
	report_fini(&r);
	/* issue 35: burnin judged each step's rise by the counter limits:
	 * only the rise over its limit counts (2 of the 3); none over, no
	 * blame */
	analyse_x(true, "none", false,
		  &(struct extra){ .loads = true, .over = 1 }, &r);
	e = entry(&r, "replace-cable");
	assert_int_equal(1, (int)r.n_entries);
	ev = json_object_get(e->evidence, "bad-cable");
	assert_int_equal(
		2, json_integer_value(json_object_get(
			   json_object_get(ev, "counters"), "err_delta")));
	report_fini(&r);
	analyse_x(true, "none", false,
		  &(struct extra){ .loads = true, .over = 2 }, &r);
	assert_int_equal(0, (int)r.n_entries);
	report_fini(&r);
}

/* The JSON report lists ports in one order (host, HCA, port), not in the
 * order the reading threads first met them. */
static void json_ports_in_name_order(void **state)
{
	const int order[][2] = { { 31, 30 }, { 7, 2 }, { 20, 12 } };
	const char *want[] = { "node002", "node007", "node012",
			       "node020", "node030", "node031" };
	struct report r;
	json_t *doc, *ports;

	(void)state;
	assert_int_equal(0, report_init(&r));
	judge_defaults(&r.params.judge);
	for (size_t i = 0; i < 3; i++) {
		json_t *rec = pair(order[i][0], order[i][1], "", (int)i);

		assert_int_equal(0, report_ingest_record(&r, rec));
		json_decref(rec);
	}
	doc = report_to_json(&r);
	ports = json_object_get(doc, "ports");
	assert_int_equal(6, (int)json_array_size(ports));
	for (size_t i = 0; i < 6; i++)
		assert_string_equal(want[i],
				    json_string_value(json_object_get(
					    json_array_get(ports, i), "host")));
	json_decref(doc);
	report_fini(&r);
}

static json_t *finding_on(const char *node)
{
	json_t *f = record_new("finding");

	json_object_update_new(
		f, json_pack("{s:s,s:s,s:{s:s,s:i},s:s,s:s}", "severity",
			     "fail", "category", "symbol-errors", "subject",
			     "node", node, "port", 3, "action", "disable-port",
			     "message", "errors"));
	return f;
}

/*
 * Found by the fuzz campaign (fuzz_report_formats, a LeakSanitizer
 * report): entry keys were cut at 96 bytes, so a long switch name cut
 * inside a UTF-8 character made a key jansson refused, and the whole
 * report exited "Cannot allocate memory" (leaking the entry's arrays);
 * two long names sharing their first 96 bytes would have been one entry.
 */
static void long_names_keep_their_entries(void **state)
{
	char same[200], other[200], cut[200];
	struct report r;

	(void)state;
	memset(same, 's', 150);
	same[150] = '\0';
	memcpy(other, same, 151);
	other[149] = 't';
	memset(cut, 'e', 85); /* "name:" + 85: byte 95 inside an é */
	snprintf(cut + 85, sizeof(cut) - 85,
		 "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9");
	assert_int_equal(0, report_init(&r));
	judge_defaults(&r.params.judge);
	for (int i = 0; i < 3; i++) {
		json_t *f = finding_on(i == 0 ? same : i == 1 ? other : cut);

		assert_int_equal(0, report_ingest_record(&r, f));
		json_decref(f);
	}
	assert_int_equal(0, report_build_disable_list(&r));
	assert_int_equal(3, (int)r.n_entries);
	report_fini(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(slow_uplink_is_replaced_with_both_ends),
		cmocka_unit_test(slow_downlink_alone_is_located),
		cmocka_unit_test(located_fault_has_nothing_to_reenable),
		cmocka_unit_test(fast_path_judges_as_jansson),
		cmocka_unit_test(counters_of_load_proof_blame_cable),
		cmocka_unit_test(json_ports_in_name_order),
		cmocka_unit_test(long_names_keep_their_entries),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
