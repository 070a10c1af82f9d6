// SPDX-License-Identifier: MIT
/*
 * ibproof report from records to the disable list, on synthetic records
 * written here: a bad switch-to-switch cable seen by two tools, one bad HCA
 * port among 64 measured all-pairs (then repaired: --previous re-enables
 * it), noise with no fault, many cables of one switch (a common cause),
 * malformed input with its file:line, and the HTML report's fabric map.
 */
#include <errno.h>
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
#include "reports/report_map.h"

#define LEAF_GUID 0x0002c90310000001ULL
#define SPINE_GUID 0x0002c90320000001ULL
#define HCA_GUID(p) (0x0002c90300000001ULL + (uint64_t)(p))

static char *temp_path(const char *suffix)
{
	char *path;
	int fd;

	assert_true(asprintf(&path, "/tmp/ibproof-test-report-XXXXXX%s",
			     suffix) > 0);
	fd = mkstemps(path, (int)strlen(suffix));
	assert_true(fd >= 0);
	close(fd);
	return path;
}

static void emit(struct record_writer *w, const char *kind, json_t *fields)
{
	json_t *rec = record_new(kind);

	assert_non_null(rec);
	assert_non_null(fields);
	assert_int_equal(0, json_object_update_new(rec, fields));
	assert_int_equal(0, record_writer_emit_steal(w, rec));
}

static json_t *sw_end(const char *name, uint64_t guid, int port)
{
	char g[19];

	return json_pack("{s:s,s:s,s:i,s:s}", "name", name, "guid",
			 record_guid_str(guid, g), "port", port, "type",
			 "switch");
}

static void emit_link_state(struct record_writer *w, json_t *a, json_t *b,
			    const char *state)
{
	emit(w, "link",
	     json_pack("{s:o,s:o,s:s,s:s,s:s,s:s}", "a", a, "b", b, "width",
		       "4x", "speed", "HDR", "state", state, "phys_state",
		       "LinkUp"));
}

static void emit_link(struct record_writer *w, json_t *a, json_t *b)
{
	emit_link_state(w, a, b, "ACTIVE");
}

static json_t *hca_ref(int p)
{
	char host[32];

	snprintf(host, sizeof(host), "node%02d", p / 2 + 1);
	return record_port_ref(host, p % 2 ? "mlx5_1" : "mlx5_0", 1,
			       HCA_GUID(p));
}

/* n HCA ports, two per host, on leaf01 (twin-port cages), all-pairs. */
static void hca_fabric(struct record_writer *w, int n, int bad, double noise)
{
	unsigned int seed = 7;

	for (int p = 0; p < n; p++) {
		json_t *ref = hca_ref(p),
		       *leaf = sw_end("leaf01", LEAF_GUID, p + 1);
		char desc[64];

		json_object_set_new(leaf, "devid", json_integer(0xd2f2));
		snprintf(desc, sizeof(desc), "%s %s",
			 json_string_value(json_object_get(ref, "host")),
			 json_string_value(json_object_get(ref, "ca")));
		emit_link(w, leaf,
			  json_pack("{s:s,s:O,s:i,s:s}", "name", desc, "guid",
				    json_object_get(ref, "guid"), "port", 1,
				    "type", "ca"));
		json_decref(ref);
	}
	for (int a = 0; a < n; a++)
		for (int b = a + 1; b < n; b++) {
			double gbps =
				196 *
				(1 +
				 noise * ((rand_r(&seed) % 2001) / 1000.0 - 1));

			if (a == bad || b == bad)
				gbps = 120;
			emit(w, "pair",
			     json_pack("{s:i,s:s,s:s,s:o,s:o,s:f,s:f,s:f,s:s}",
				       "round", (a + b) % (n - 1), "test",
				       "write", "dir", "uni", "a", hca_ref(a),
				       "b", hca_ref(b), "gbps", gbps,
				       "gbps_min", gbps * 0.98, "expected_gbps",
				       200.0, "status", "ok"));
		}
}

/* One WRITE pair record between the first two HCAs. */
static void emit_pair01(struct record_writer *w, int round, double gbps,
			double gbps_min, double expected)
{
	emit(w, "pair",
	     json_pack("{s:i,s:s,s:s,s:o,s:o,s:f,s:f,s:f,s:s}", "round", round,
		       "test", "write", "dir", "uni", "a", hca_ref(0), "b",
		       hca_ref(1), "gbps", gbps, "gbps_min", gbps_min,
		       "expected_gbps", expected, "status", "ok"));
}

static void analyse(struct report *r, const char *path, const char *previous)
{
	char *files[] = { (char *)path };

	assert_int_equal(0, report_init(r));
	judge_defaults(&r->params.judge);
	r->params.group_min = 4;
	r->params.threads = 2;
	assert_int_equal(0, report_analyse(r, files, 1, previous));
}

/* Four leaf01 - spine01 cables up; the one on leaf01 port 34 is bad. */
static void bad_switch_cable_records(struct record_writer *w)
{
	for (int s = 0; s < 4; s++)
		emit_link(w, sw_end("leaf01", LEAF_GUID, 33 + s),
			  sw_end("spine01", SPINE_GUID + (uint64_t)s, 1));
	/* fabric counters on the leaf side, fabric check on the whole cable */
	emit(w, "finding",
	     json_pack("{s:s,s:s,s:o,s:{s:i},s:s,s:s}", "severity", "fail",
		       "category", "symbol-errors", "subject",
		       record_switch_port_ref("leaf01", LEAF_GUID, 34),
		       "evidence", "symbol_errors", 5000, "action",
		       "replace-cable", "message",
		       "leaf01 port 34: 5000 symbol errors"));
	emit(w, "finding",
	     json_pack("{s:s,s:s,s:{s:o,s:o},s:{s:s},s:s,s:s}", "severity",
		       "fail", "category", "degraded-width", "subject", "a",
		       sw_end("spine01", SPINE_GUID + 1, 1), "b",
		       sw_end("leaf01", LEAF_GUID, 34), "evidence", "width",
		       "1x", "action", "reseat", "message",
		       "spine01 port 1 - leaf01 port 34 at 1x"));
	/* the same fault told again by another tool: still one reason */
	emit(w, "finding",
	     json_pack("{s:s,s:s,s:{s:o,s:o},s:{s:i},s:s,s:s}", "severity",
		       "fail", "category", "symbol-errors", "subject", "a",
		       sw_end("spine01", SPINE_GUID + 1, 1), "b",
		       sw_end("leaf01", LEAF_GUID, 34), "evidence",
		       "symbol_errors", 5000, "action", "replace-cable",
		       "message", "cable: 5000 symbol errors"));
}

static void test_bad_switch_cable(void **state)
{
	char *path = temp_path(".jsonl");
	struct record_writer *w = record_writer_open(path, false);
	struct report r;
	const struct report_entry *e;

	(void)state;
	assert_non_null(w);
	bad_switch_cable_records(w);
	assert_int_equal(0, record_writer_close(w));
	analyse(&r, path, NULL);
	assert_int_equal(1, r.n_entries);
	e = &r.entries[0];
	assert_int_equal(ENTRY_PORT, e->kind);
	assert_string_equal("replace-cable", e->action);
	assert_int_equal(2, json_array_size(e->reasons));
	/* both ends of the cable, whichever tool named which */
	assert_true((e->port.guid == LEAF_GUID && e->port.port == 34 &&
		     e->peer.guid == SPINE_GUID + 1 && e->peer.port == 1) ||
		    (e->peer.guid == LEAF_GUID && e->peer.port == 34 &&
		     e->port.guid == SPINE_GUID + 1 && e->port.port == 1));
	assert_false(report_passed(&r));
	report_fini(&r);
	unlink(path);
	free(path);
}

/* A cable from leaf01 port `lp` to HCA port p, as discovered. */
static void emit_leaf_hca_link(struct record_writer *w, int leaf, int lp, int p)
{
	json_t *ref = hca_ref(p);
	char desc[64], name[16];

	snprintf(desc, sizeof(desc), "%s %s",
		 json_string_value(json_object_get(ref, "host")),
		 json_string_value(json_object_get(ref, "ca")));
	snprintf(name, sizeof(name), "leaf%02d", leaf + 1);
	emit_link(w, sw_end(name, LEAF_GUID + (uint64_t)leaf, lp),
		  json_pack("{s:s,s:O,s:i,s:s}", "name", desc, "guid",
			    json_object_get(ref, "guid"), "port", 1, "type",
			    "ca"));
	json_decref(ref);
}

static void emit_hca_link(struct record_writer *w, int lp, int p)
{
	emit_leaf_hca_link(w, 0, lp, p);
}

/*
 * Two cables crossed (fabric check's `swapped`): both work, so the report
 * has ONE swap-cables entry naming both cables as found, the script
 * disables nothing, and the verdict counts a pair to swap, not ports.
 */
static void test_swapped_cables_one_entry(void **state)
{
	char *path = temp_path(".jsonl"), *script = temp_path(".sh");
	struct record_writer *w = record_writer_open(path, false);
	const struct report_entry *e;
	char verdict[256], *text;
	struct report r;
	FILE *f;
	long len;

	(void)state;
	assert_non_null(w);
	/* the spec: leaf01 port 5 - HCA 0, port 6 - HCA 2; found crossed */
	emit_hca_link(w, 5, 2);
	emit_hca_link(w, 6, 0);
	emit(w, "finding",
	     json_pack("{s:s,s:s,s:{s:o,s:o},s:{s:{s:o,s:o}},s:s,s:s}",
		       "severity", "fail", "category", "swapped", "subject",
		       "a", hca_ref(0), "b", sw_end("leaf01", LEAF_GUID, 5),
		       "evidence", "swapped_with", "a", hca_ref(2), "b",
		       sw_end("leaf01", LEAF_GUID, 6), "action", "swap-cables",
		       "message", "cables ... are swapped: exchange them"));
	assert_int_equal(0, record_writer_close(w));
	analyse(&r, path, NULL);
	assert_int_equal(1, r.n_entries);
	e = &r.entries[0];
	assert_string_equal("swap-cables", e->action);
	/* each cable as found: leaf01 port 5 goes to HCA 2, port 6 to HCA 0 */
	assert_int_equal(LEAF_GUID, e->port.guid);
	assert_int_equal(LEAF_GUID, e->swap_port.guid);
	assert_int_equal(e->port.port == 5 ? HCA_GUID(2) : HCA_GUID(0),
			 e->peer.guid);
	assert_int_equal(e->swap_port.port == 5 ? HCA_GUID(2) : HCA_GUID(0),
			 e->swap_peer.guid);
	assert_int_equal(11, e->port.port + e->swap_port.port);
	report_verdict_line(&r, verdict, sizeof(verdict));
	assert_string_equal("FAIL: 1 pair of cables to swap", verdict);
	assert_int_equal(0, report_write_script(&r, script));
	f = fopen(script, "r");
	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	len = ftell(f);
	rewind(f);
	text = calloc(1, (size_t)len + 1);
	assert_int_equal(len, (long)fread(text, 1, (size_t)len, f));
	fclose(f);
	assert_null(strstr(text, "ibportstate -G"));
	assert_non_null(strstr(text, "nothing to disable"));
	free(text);
	report_fini(&r);
	unlink(path);
	unlink(script);
	free(path);
	free(script);
}

/*
 * The cable is repaired: --previous re-enables its switch port when the
 * new link records say the link is up, in the documented spelling or in
 * the one fabric wrote before (records on disk); not when it is down.
 */
static void test_switch_cable_repaired(void **state)
{
	static const struct {
		const char *state;
		size_t reenabled;
	} runs[] = {
		{ "ACTIVE", 1 }, { "Active", 1 }, { "DOWN", 0 }, { "active", 0 }
	};
	char *path = temp_path(".jsonl"), *json = temp_path(".json");
	struct record_writer *w = record_writer_open(path, false);
	struct report r;

	(void)state;
	bad_switch_cable_records(w);
	assert_int_equal(0, record_writer_close(w));
	analyse(&r, path, NULL);
	assert_int_equal(1, r.n_entries);
	assert_int_equal(0, report_write_json(&r, json));
	report_fini(&r);
	for (size_t i = 0; i < sizeof(runs) / sizeof(runs[0]); i++) {
		w = record_writer_open(path, false);
		for (int s = 0; s < 4; s++)
			emit_link_state(
				w, sw_end("leaf01", LEAF_GUID, 33 + s),
				sw_end("spine01", SPINE_GUID + (uint64_t)s, 1),
				runs[i].state);
		assert_int_equal(0, record_writer_close(w));
		analyse(&r, path, json);
		assert_int_equal(0, r.n_entries);
		assert_int_equal(runs[i].reenabled,
				 json_array_size(r.reenable));
		assert_int_equal(1 - runs[i].reenabled,
				 json_array_size(r.still_disabled));
		report_fini(&r);
	}
	unlink(path);
	unlink(json);
	free(path);
	free(json);
}

static void test_bad_hca_port_then_repaired(void **state)
{
	char *path = temp_path(".jsonl"), *json = temp_path(".json");
	struct record_writer *w = record_writer_open(path, false);
	struct report r;
	const struct report_entry *e;

	(void)state;
	hca_fabric(w, 64, 37, 0.01);
	assert_int_equal(0, record_writer_close(w));
	analyse(&r, path, NULL);
	assert_int_equal(1, r.n_entries);
	e = &r.entries[0];
	assert_int_equal(HCA_GUID(37), e->port.guid);
	assert_string_equal("node19", e->port.host);
	assert_string_equal("disable-port", e->action);
	/* the other end of its cable: leaf01 port 38, cage 19 lane 2 */
	assert_int_equal(LEAF_GUID, e->peer.guid);
	assert_int_equal(38, e->peer.port);
	assert_string_equal("19/2", e->peer.alias);
	assert_int_equal(0, report_write_json(&r, json));
	report_fini(&r);

	w = record_writer_open(path, false);
	hca_fabric(w, 64, -1, 0.01);
	assert_int_equal(0, record_writer_close(w));
	analyse(&r, path, json);
	assert_int_equal(0, r.n_entries);
	assert_true(report_passed(&r));
	assert_int_equal(1, json_array_size(r.reenable));
	assert_string_equal(
		"node19 mlx5_1 port 1",
		json_string_value(json_object_get(json_array_get(r.reenable, 0),
						  "location")));
	report_fini(&r);
	unlink(path);
	unlink(json);
	free(path);
	free(json);
}

static void test_noise_passes(void **state)
{
	char *path = temp_path(".jsonl");
	struct record_writer *w = record_writer_open(path, false);
	struct report r;

	(void)state;
	hca_fabric(w, 32, -1, 0.03);
	assert_int_equal(0, record_writer_close(w));
	analyse(&r, path, NULL);
	assert_int_equal(0, r.n_entries);
	assert_int_equal(0, r.n_findings);
	assert_true(report_passed(&r));
	report_fini(&r);
	unlink(path);
	free(path);
}

/* Four bad cables on one leaf: the switch is named as the common cause. */
static void test_switch_common_cause(void **state)
{
	char *path = temp_path(".jsonl");
	struct record_writer *w = record_writer_open(path, false);
	struct report r;
	size_t groups = 0;

	(void)state;
	for (int p = 1; p <= 4; p++) {
		emit_link(w, sw_end("leaf01", LEAF_GUID, p),
			  sw_end("spine01", SPINE_GUID + (uint64_t)p, 1));
		emit(w, "finding",
		     json_pack("{s:s,s:s,s:o,s:{},s:s,s:s}", "severity", "fail",
			       "category", "link-downed", "subject",
			       record_switch_port_ref("leaf01", LEAF_GUID, p),
			       "evidence", "action", "reseat", "message",
			       "link downed"));
	}
	assert_int_equal(0, record_writer_close(w));
	analyse(&r, path, NULL);
	assert_int_equal(4, r.n_entries);
	for (size_t i = 0; i < r.n_findings; i++)
		groups += !strcmp("common-cause",
				  json_string_value(json_object_get(
					  r.findings[i].rec, "category")));
	assert_int_equal(1, groups);
	assert_string_equal("switch leaf01", r.entries[0].group);
	report_fini(&r);
	unlink(path);
	free(path);
}

/* A file read in parts by 3 threads: the same report, and the line
 * number of a bad line in the last part is that of the whole file. */
static void test_file_read_in_parts(void **state)
{
	char *path = temp_path(".jsonl");
	char *files[] = { path };
	struct record_writer *w = record_writer_open(path, false);
	struct report whole, parts;
	FILE *f;
	char want[300];

	(void)state;
	hca_fabric(w, 40, 11, 0.01);
	assert_int_equal(0, record_writer_close(w));
	analyse(&whole, path, NULL);
	assert_int_equal(0, report_init(&parts));
	parts.params = whole.params;
	parts.params.threads = 3;
	parts.params.split_min = 1024;
	assert_int_equal(0, report_analyse(&parts, files, 1, NULL));
	assert_int_equal(whole.n_pairs, parts.n_pairs);
	assert_int_equal(whole.n_records, parts.n_records);
	assert_int_equal(1, parts.n_entries);
	assert_int_equal(HCA_GUID(11), parts.entries[0].port.guid);
	report_fini(&parts);
	/* 40 links + 780 pairs, then a bad line 821 and one more pair */
	f = fopen(path, "a");
	assert_non_null(f);
	fputs("{\"schema\":\"ibproof/1\",\"kind\":\"pair\"}\n", f);
	fclose(f);
	w = record_writer_open(path, true);
	emit_pair01(w, 1, 1.0, 1.0, 2.0);
	assert_int_equal(0, record_writer_close(w));
	assert_int_equal(0, report_init(&parts));
	parts.params = whole.params;
	parts.params.threads = 3;
	parts.params.split_min = 1024;
	assert_int_equal(-EINVAL, report_analyse(&parts, files, 1, NULL));
	snprintf(want, sizeof(want),
		 "%s:821: a record: missing required field 'time'", path);
	if (strncmp(want, parts.error, strlen(want)))
		fprintf(stderr, "got: %s\n", parts.error);
	assert_memory_equal(want, parts.error, strlen(want));
	report_fini(&parts);
	report_fini(&whole);
	unlink(path);
	free(path);
}

static void test_malformed_input(void **state)
{
	char *path = temp_path(".jsonl");
	char *files[] = { path };
	FILE *f = fopen(path, "w");
	struct report r;
	char want[300];

	(void)state;
	assert_non_null(f);
	fputs("\n{\"schema\":\"ibproof/1\",\"kind\":\"run\",\"time\":\"t\","
	      "\"host\":\"h\",\"version\":\"v\",\"tool\":\"x\",\"event\":\"start\"}\n"
	      "{\"schema\":\"ibproof/1\",\"kind\":\"pair\"\n",
	      f);
	fclose(f);
	assert_int_equal(0, report_init(&r));
	r.params.threads = 1;
	assert_int_equal(-EINVAL, report_analyse(&r, files, 1, NULL));
	snprintf(want, sizeof(want), "%s:3: invalid JSON", path);
	assert_memory_equal(want, r.error, strlen(want));
	report_fini(&r);
	unlink(path);
	free(path);
}

/* The HTML page of the records in PATH (removed), in a static buffer. */
static const char *html_of(char *path)
{
	char *html = temp_path(".html");
	static char buf[1 << 20];
	struct report r;
	size_t n;
	FILE *f;

	analyse(&r, path, NULL);
	assert_int_equal(0, report_write_html(&r, html));
	f = fopen(html, "r");
	assert_non_null(f);
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	assert_true(n > 0 && n < sizeof(buf) - 1);
	report_fini(&r);
	unlink(path);
	unlink(html);
	free(path);
	free(html);
	return buf;
}

/*
 * Found by fuzz_report_formats (check-outputs.py html): the HTML report's
 * data script carried C1 controls, bidi overrides and non-characters raw
 * (jansson writes them as they are), which HTML does not allow in its
 * input. The data is written ASCII-only now (\uXXXX).
 */
static void test_html_data_without_controls(void **state)
{
	char *path = temp_path(".jsonl");
	const char *page;
	FILE *f = fopen(path, "w");

	(void)state;
	assert_non_null(f);
	fputs("{\"schema\":\"ibproof/1\",\"kind\":\"finding\",\"time\":"
	      "\"2026-12-02T15:04:05.123Z\",\"host\":\"n1\",\"version\":"
	      "\"0.1.0\",\"severity\":\"fail\",\"category\":\"x\","
	      "\"subject\":{\"node\":\"a\\u0085b\\u202ec\\ufffed\","
	      "\"guid\":\"0x2c90310000001\",\"port\":3},\"evidence\":{},\"action\":"
	      "\"disable-port\",\"message\":\"m\\u0085\\u202e\\ufffe\"}\n",
	      f);
	fclose(f);
	page = html_of(path);
	assert_null(strstr(page, "\xc2\x85"));
	assert_null(strstr(page, "\xe2\x80\xae"));
	assert_null(strstr(page, "\xef\xbf\xbe"));
}

/*
 * Found by fuzz_report_formats (UBSan): ports on rails 0 and 2 and none on
 * rail 1 made the HTML heatmap divide by zero in the empty rail's panel.
 * A panel is drawn for each rail that has ports, only.
 */
static void test_heatmap_rail_without_ports(void **state)
{
	char *path = temp_path(".jsonl");
	struct record_writer *w = record_writer_open(path, false);
	const char *buf;

	(void)state;
	assert_non_null(w);
	for (int p = 0; p < 4; p++) {
		json_t *ref = hca_ref(p);

		emit(w, "port",
		     json_pack("{s:O,s:O,s:i,s:O,s:i,s:s,s:s,s:f,s:i}", "host",
			       json_object_get(ref, "host"), "ca",
			       json_object_get(ref, "ca"), "port", 1, "guid",
			       json_object_get(ref, "guid"), "lid", p + 1,
			       "link_layer", "InfiniBand", "state", "ACTIVE",
			       "rate_gbps", 200.0, "rail", p < 2 ? 0 : 2));
		json_decref(ref);
	}
	hca_fabric(w, 4, -1, 0);
	assert_int_equal(0, record_writer_close(w));
	buf = html_of(path);
	assert_non_null(strstr(buf, "<h3>Rail 0</h3>"));
	assert_null(strstr(buf, "<h3>Rail 1</h3>"));
	assert_non_null(strstr(buf, "<h3>Rail 2</h3>"));
}

static size_t count_of(const char *s, const char *what)
{
	size_t n = 0;

	for (; (s = strstr(s, what)); s += strlen(what))
		n++;
	return n;
}

/*
 * The report_formats fuzz campaign (stop 28): a pair 1.7e30 times faster
 * than expected made the histogram's bin index a float past size_t's
 * range, undefined behaviour (UBSan: report_svg.c, float-cast-overflow).
 * The ratio is clamped to the last bin (107.5-110 %) before it is
 * converted.
 */
static void test_histogram_huge_ratio(void **state)
{
	char *records = temp_path(".jsonl");
	struct record_writer *w;
	const char *page;

	(void)state;
	w = record_writer_open(records, false);
	assert_non_null(w);
	hca_fabric(w, 4, -1, 0);
	emit_pair01(w, 9, 3.3e32, 197.0, 200.0);
	assert_int_equal(0, record_writer_close(w));
	page = html_of(records);
	assert_non_null(strstr(page, "97.5-100.0%: 6 pairs"));
	assert_non_null(strstr(page, "107.5-110.0%: 1 pairs")); /* the last */
}

/*
 * The HTML report's fabric map: one element per cable and per HCA port,
 * the cable of a finding classed by its categories, a blamed HCA port's
 * cable `blamed`, a cable a finding names that was not discovered drawn
 * `absent`, the spines a tier above the leaf.
 */
static void test_fabric_map(void **state)
{
	char *path = temp_path(".jsonl");
	struct record_writer *w = record_writer_open(path, false);
	struct report_buf b = { 0 };
	struct report r;

	(void)state;
	hca_fabric(w, 16, 5, 0.01);
	bad_switch_cable_records(w);
	emit(w, "finding",
	     json_pack(
		     "{s:s,s:s,s:{s:{s:s,s:i,s:s},s:o},s:{},s:s,s:s}",
		     "severity", "fail", "category", "missing-link", "subject",
		     "a", "node", "node99 mlx5_0", "port", 1, "type", "unknown",
		     "b", sw_end("leaf01", LEAF_GUID, 30), "evidence", "action",
		     "reseat", "message",
		     "node99 mlx5_0 port 1 - leaf01 port 30 is not connected"));
	assert_int_equal(0, record_writer_close(w));
	analyse(&r, path, NULL);
	assert_int_equal(0, report_svg_map(&b, &r));
	assert_false(b.oom);
	assert_int_equal(16 + 4 + 1, count_of(b.s, "class=\"cable"));
	assert_int_equal(16 + 1, count_of(b.s, "data-port="));
	assert_int_equal(4, count_of(b.s, "class=\"switch tier2\""));
	assert_non_null(strstr(
		b.s,
		"class=\"cable degraded-width symbol-errors f-fail\" data-ends=\"leaf01:34|spine01:1\""));
	assert_non_null(strstr(
		b.s,
		"class=\"cable missing-link f-fail absent\" data-ends=\"leaf01:30|node99 mlx5_0:1\""));
	assert_non_null(strstr(
		b.s,
		" blamed f-fail\" data-ends=\"leaf01:6|node03 mlx5_1:1\""));
	assert_null(strstr(b.s, "class=\"bundle"));
	report_buf_free(&b);
	report_fini(&r);
	unlink(path);
	free(path);
}

/*
 * Above MAP_MAX_HCAS ports: one bundle per leaf for its HCA cables (9
 * leaves of 128 HCA ports: a leaf has at most 254 cabled ports).
 */
static void test_fabric_map_bundles(void **state)
{
	char *path = temp_path(".jsonl");
	struct record_writer *w = record_writer_open(path, false);
	struct report_buf b = { 0 };
	struct report r;

	(void)state;
	for (int p = 0; p < 9 * 128; p++)
		emit_leaf_hca_link(w, p / 128, p % 128 + 1, p);
	assert_int_equal(0, record_writer_close(w));
	analyse(&r, path, NULL);
	assert_int_equal(0, report_svg_map(&b, &r));
	assert_false(b.oom);
	assert_int_equal(9, count_of(b.s, "class=\"bundle-line\""));
	assert_int_equal(9, count_of(b.s, "class=\"hca-group\""));
	assert_int_equal(9 * 128, count_of(b.s, "class=\"cable\""));
	assert_int_equal(9 * 128, count_of(b.s, "data-port="));
	assert_non_null(
		strstr(b.s, "its HCA ports: 128 cables, 0 with findings"));
	report_buf_free(&b);
	report_fini(&r);
	unlink(path);
	free(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bad_switch_cable),
		cmocka_unit_test(test_swapped_cables_one_entry),
		cmocka_unit_test(test_switch_cable_repaired),
		cmocka_unit_test(test_bad_hca_port_then_repaired),
		cmocka_unit_test(test_noise_passes),
		cmocka_unit_test(test_switch_common_cause),
		cmocka_unit_test(test_file_read_in_parts),
		cmocka_unit_test(test_malformed_input),
		cmocka_unit_test(test_html_data_without_controls),
		cmocka_unit_test(test_heatmap_rail_without_ports),
		cmocka_unit_test(test_histogram_huge_ratio),
		cmocka_unit_test(test_fabric_map),
		cmocka_unit_test(test_fabric_map_bundles),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
