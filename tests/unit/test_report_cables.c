// SPDX-License-Identifier: MIT
/*
 * The report's per-cable view (issue 35, reports/report_cables.c): a
 * port's counters window and a transceiver record's BER before FEC joined
 * to the cable by node GUID or port GUID and port, figures written
 * exactly, "not read" where none was read (never a blank or a zero), the
 * records' strings escaped in each output.
 */
#include <math.h>
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

static const char *const leaf =
	"{\"node\":\"leaf01\",\"guid\":\"0x0008f10300000004\",\"port\":1,"
	"\"type\":\"switch\"}";
/* the CA's counters and transceiver references: node GUID and port GUID */
static const char *const hca =
	"{\"node\":\"node001 mlx5_0\",\"guid\":\"0x0008f10300000100\","
	"\"port\":1,\"type\":\"ca\",\"host\":\"node001\",\"ca\":\"mlx5_0\","
	"\"port_guid\":\"0x0008f10300000101\"}";

static void take(struct report *r, const char *fmt, ...)
{
	char buf[4096];
	json_error_t err;
	json_t *rec;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	rec = json_loads(buf, 0, &err);
	if (!rec)
		fail_msg("%s: %s", err.text, buf);
	assert_int_equal(0, report_ingest_record(r, rec));
	json_decref(rec);
}

/* The link as burnin-era records name a CA end: by its port GUID. */
static void take_link(struct report *r)
{
	take(r, "{\"kind\":\"link\",\"a\":{\"name\":\"node001 mlx5_0\","
		"\"guid\":\"0x0008f10300000101\",\"port\":1,\"type\":\"ca\"},"
		"\"b\":{\"name\":\"leaf01\",\"guid\":\"0x0008f10300000004\","
		"\"port\":1,\"type\":\"switch\"},\"width\":\"4X\","
		"\"speed\":\"EDR\",\"state\":\"ACTIVE\"}");
}

static void take_window(struct report *r, const char *ref, int symbols)
{
	take(r,
	     "{\"kind\":\"counters\",\"subject\":%s,\"counters\":{},"
	     "\"window\":{\"mode\":\"window\",\"start\":\"2026-12-07T08:00:00Z\","
	     "\"end\":\"2026-12-07T08:00:03Z\",\"seconds\":3.0,"
	     "\"xmit_bits\":2.5e9,\"rcv_bits\":1e10,\"errors\":"
	     "{\"SymbolErrorCounter\":%d,\"LinkDownedCounter\":0},"
	     "\"ber_bits\":3e11,\"ber\":%.17g,\"ber_limit\":1e-12,"
	     "\"ber_limit_source\":\"IBTA\"}}",
	     ref, symbols, symbols / 3e11);
}

static void text_of(const struct report_window *w, const struct report_phy *p,
		    char *out, size_t len)
{
	struct report_buf b = { 0 };

	if (p)
		report_phy_text(&b, p);
	else
		report_window_text(&b, w);
	snprintf(out, len, "%s", b.s ? b.s : "");
	report_buf_free(&b);
}

/* Both ends' windows on one cable, the CA's joined by its port GUID. */
static void test_join_both_ends(void **state)
{
	struct report r;
	char t[512];

	(void)state;
	assert_int_equal(0, report_init(&r));
	take_link(&r);
	take_window(&r, leaf, 50);
	take_window(&r, hca, 0);
	assert_int_equal(0, report_cable_rows_build(&r));
	assert_int_equal(1, r.n_cable_rows);
	assert_int_equal(1, r.n_cable_notable);
	/* ends in one order whatever the link record's: leaf01 first */
	assert_string_equal("leaf01", r.cable_rows[0].a.name);
	assert_int_equal(0, r.cable_rows[0].window[0]);
	assert_int_equal(1, r.cable_rows[0].window[1]);
	text_of(&r.windows[0], NULL, t, sizeof(t));
	assert_string_equal(
		"window 3 s from 2026-12-07T08:00:00Z to 2026-12-07T08:00:03Z: "
		"sent 2.5e+09 bits, received 1e+10 bits; errors: "
		"SymbolErrorCounter 50; BER 1.7e-10 over 3e+11 bits (limit "
		"1e-12)",
		t);
	text_of(&r.windows[1], NULL, t, sizeof(t));
	assert_non_null(strstr(t, "; errors: none; BER 0 over 3e+11 bits"));
	report_fini(&r);
}

/* Nothing counted at either end: a row, not a notable one. */
static void test_clean_cable_not_notable(void **state)
{
	struct report r;

	(void)state;
	assert_int_equal(0, report_init(&r));
	take_link(&r);
	take_window(&r, leaf, 0);
	assert_int_equal(0, report_cable_rows_build(&r));
	assert_int_equal(1, r.n_cable_rows);
	assert_int_equal(0, r.n_cable_notable);
	assert_int_equal(-1, r.cable_rows[0].window[1]);
	report_fini(&r);
}

/* What was not read says so: no bits, no window, no counters at all. */
static void test_not_read_is_said(void **state)
{
	struct report r;
	char t[512];

	(void)state;
	assert_int_equal(0, report_init(&r));
	take(&r,
	     "{\"kind\":\"counters\",\"subject\":%s,\"counters\":{},"
	     "\"window\":{\"mode\":\"since-clear\",\"start\":null,"
	     "\"end\":\"2026-12-07T08:00:03Z\",\"seconds\":null,"
	     "\"xmit_bits\":null,\"rcv_bits\":0.0,\"errors\":"
	     "{\"SymbolErrorCounter\":65535,\"LinkDownedCounter\":12},"
	     "\"errors_saturated\":[\"SymbolErrorCounter\"],"
	     "\"ber_bits\":null,\"ber\":null}}",
	     leaf);
	text_of(&r.windows[0], NULL, t, sizeof(t));
	assert_string_equal(
		"since the last clear, read at 2026-12-07T08:00:03Z: sent: not "
		"known, received 0 bits; errors: SymbolErrorCounter at least "
		"65535, LinkDownedCounter 12; BER: not known (no bits counted; "
		"judged by count)",
		t);
	text_of(NULL, NULL, t, sizeof(t));
	assert_string_equal("counters not read", t);
	/* a record from before issue 35: no window, its values as read */
	take(&r,
	     "{\"kind\":\"counters\",\"subject\":%s,\"counters\":"
	     "{\"SymbolErrorCounter\":7,\"PortXmitData\":99}}",
	     hca);
	text_of(&r.windows[1], NULL, t, sizeof(t));
	assert_string_equal("values as read (the record has no window): sent: "
			    "not known, received: not known; errors: "
			    "SymbolErrorCounter 7; BER: not known (no bits "
			    "in the record)",
			    t);
	/* `ibproof node`'s records: sysfs names, a driver's own counters */
	take(&r, "{\"kind\":\"counters\",\"subject\":{\"host\":\"node1\","
		 "\"ca\":\"rxe0\",\"port\":1,\"guid\":\"0x505400fffeee0101\"},"
		 "\"counters\":{\"link_downed\":2,\"rcvd_seq_err\":9}}");
	text_of(&r.windows[2], NULL, t, sizeof(t));
	assert_non_null(strstr(t, "; errors: LinkDownedCounter 2; "));
	take(&r, "{\"kind\":\"counters\",\"subject\":{\"host\":\"node1\","
		 "\"ca\":\"rxe1\",\"port\":1,\"guid\":\"0x505400fffeee0102\"},"
		 "\"counters\":{\"rcvd_seq_err\":9}}");
	text_of(&r.windows[3], NULL, t, sizeof(t));
	assert_non_null(strstr(t, "; errors: not read; "));
	report_fini(&r);
}

/* mlxlink's BER joined to the same cable; a figure absent is not read. */
static void test_phy_ber(void **state)
{
	struct report r;
	char t[512];
	json_t *doc, *row;

	(void)state;
	assert_int_equal(0, report_init(&r));
	take_link(&r);
	take(&r,
	     "{\"kind\":\"transceiver\",\"port\":%s,\"source\":\"mlxlink\","
	     "\"present\":true,\"vendor\":\"Mellanox\",\"ber\":{\"raw\":"
	     "1.5e-6,\"effective\":2e-13,\"symbol_errors\":0,\"minutes\":12,"
	     "\"speed\":\"NDR\"}}",
	     hca);
	assert_int_equal(0, report_cable_rows_build(&r));
	assert_int_equal(1, r.n_cable_rows);
	assert_int_equal(1, r.n_cable_notable);
	assert_int_equal(0, r.cable_rows[0].phy[1]);
	assert_int_equal(-1, r.cable_rows[0].window[1]);
	text_of(NULL, &r.phys[0], t, sizeof(t));
	assert_string_equal("BER before FEC (mlxlink, NDR, over 12 min): raw "
			    "1.5e-06, effective 2e-13, symbol not read (0 "
			    "symbol errors)",
			    t);
	{
		struct report_buf b = { 0 };

		report_phy_text(&b, NULL);
		assert_string_equal("BER before FEC: not read", b.s);
		report_buf_free(&b);
	}
	/* JSON: figures not read are null, never 0 */
	doc = report_cable_rows_json(&r);
	row = json_array_get(doc, 0);
	assert_true(json_is_null(json_object_get(row, "a_counters")));
	assert_true(json_is_null(json_object_get(
		json_object_get(row, "b_ber_before_fec"), "symbol")));
	assert_true(json_real_value(json_object_get(
			    json_object_get(row, "b_ber_before_fec"), "raw")) ==
		    1.5e-6);
	assert_string_equal("leaf01 port 1",
			    json_string_value(json_object_get(
				    json_object_get(row, "a"), "location")));
	json_decref(doc);
	report_fini(&r);
}

/* A port read on no known cable: a row of its own, far end unknown. */
static void test_port_on_no_cable(void **state)
{
	struct report r;

	(void)state;
	assert_int_equal(0, report_init(&r));
	/* read twice: the later read counts, whatever order they came in */
	take(&r,
	     "{\"kind\":\"counters\",\"subject\":%s,\"counters\":{},"
	     "\"window\":{\"mode\":\"window\",\"end\":\"2026-12-07T08:09:00Z\","
	     "\"errors\":{\"SymbolErrorCounter\":4}}}",
	     leaf);
	take_window(&r, leaf, 5); /* ends 08:00:03 */
	assert_int_equal(0, report_cable_rows_build(&r));
	assert_int_equal(1, r.n_cable_rows);
	assert_int_equal(0, r.cable_rows[0].window[0]);
	assert_int_equal(0, r.cable_rows[0].b.type);
	assert_int_equal(0, r.cable_rows[0].b.guid);
	report_fini(&r);
}

/* Two reads of one port with the same end stamp: the same one is kept,
 * whatever order they came in (the larger figures, a fixed order). */
static void test_same_stamp_any_order(void **state)
{
	struct report r;
	const struct report_window *w;

	(void)state;
	for (int order = 0; order < 2; order++) {
		assert_int_equal(0, report_init(&r));
		take_window(&r, leaf, order ? 9 : 5);
		take_window(&r, leaf, order ? 5 : 9);
		assert_int_equal(0, report_cable_rows_build(&r));
		assert_int_equal(1, r.n_cable_rows);
		w = &r.windows[r.cable_rows[0].window[0]];
		assert_int_equal(9, w->errors[IB_PC_SYMBOL_ERRORS]);
		report_fini(&r);
	}
}

static char *slurp(FILE *f)
{
	long n;
	char *s;

	assert_int_equal(0, fseek(f, 0, SEEK_END));
	n = ftell(f);
	rewind(f);
	s = calloc(1, (size_t)n + 1);
	assert_non_null(s);
	assert_int_equal(n, (long)fread(s, 1, (size_t)n, f));
	return s;
}

/* A hostile window string: escaped in HTML, harmless on a terminal. */
static void test_strings_escaped(void **state)
{
	char path[] = "/tmp/ibproof-test-cables-XXXXXX.html";
	struct report r;
	FILE *f;
	char *s;
	int fd;

	(void)state;
	assert_int_equal(0, report_init(&r));
	take_link(&r);
	take(&r,
	     "{\"kind\":\"counters\",\"subject\":%s,\"counters\":{},"
	     "\"window\":{\"mode\":\"window\",\"start\":\"<script>x\\u001b[2J\","
	     "\"end\":\"e\",\"seconds\":1.0,\"xmit_bits\":1e9,\"rcv_bits\":1e9,"
	     "\"errors\":{\"SymbolErrorCounter\":3},\"ber_bits\":1e11,"
	     "\"ber\":3e-11}}",
	     leaf);
	assert_int_equal(0, report_cable_rows_build(&r));
	f = tmpfile();
	assert_non_null(f);
	assert_int_equal(0, report_print_text(&r, f));
	s = slurp(f);
	fclose(f);
	assert_non_null(strstr(s, "    leaf01 port 1: window 1 s from "));
	assert_null(strchr(s, '\x1b'));
	free(s);
	fd = mkstemps(path, 5);
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(0, report_write_html(&r, path));
	f = fopen(path, "r");
	assert_non_null(f);
	s = slurp(f);
	fclose(f);
	unlink(path);
	assert_non_null(strstr(s, "<table id=\"cables\">"));
	assert_non_null(strstr(s, "from &lt;script&gt;x"));
	assert_null(strstr(s, "<script>x"));
	free(s);
	report_fini(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_join_both_ends),
		cmocka_unit_test(test_clean_cable_not_notable),
		cmocka_unit_test(test_not_read_is_said),
		cmocka_unit_test(test_phy_ber),
		cmocka_unit_test(test_port_on_no_cable),
		cmocka_unit_test(test_same_stamp_any_order),
		cmocka_unit_test(test_strings_escaped),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
