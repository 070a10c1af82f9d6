// SPDX-License-Identifier: MIT
/* Escaping of fabric-supplied strings in every output format, and host
 * ranges (reports/report_escape.c, report_text.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "reports/report.h"

#define EVIL "\"><script>alert(1)</script>;rm -rf / 'x' & \\ \n#"

typedef void (*escape_fn)(struct report_buf *b, const char *s);

static void expect(escape_fn fn, const char *in, const char *want)
{
	struct report_buf b = { 0 };

	fn(&b, in);
	assert_false(b.oom);
	assert_string_equal(want, b.s ? b.s : "");
	report_buf_free(&b);
}

static void test_html(void **state)
{
	(void)state;
	expect(report_html_escape, EVIL,
	       "&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;;rm -rf / "
	       "&#39;x&#39; &amp; \\ \n#");
	expect(report_html_escape, "node01", "node01");
}

/*
 * Found by fuzz_report_formats (check-outputs.py html): the HTML let
 * control characters through (ESC, BEL, C1), which HTML has no way to
 * write, not even as references; bidi overrides that reorder what the
 * page shows; non-characters; bytes that are not UTF-8. Each byte of
 * such a character is written "\xNN", as the terminal text does; TAB,
 * LF and CR stay.
 */
static void test_html_controls(void **state)
{
	(void)state;
	expect(report_html_escape, "a\x1b[31mb\x07\x7f",
	       "a\\x1b[31mb\\x07\\x7f");
	expect(report_html_escape, "c1 \xc2\x85 bidi \xe2\x80\xae x",
	       "c1 \\xc2\\x85 bidi \\xe2\\x80\\xae x");
	expect(report_html_escape, "nonchar \xef\xbf\xbe \xef\xb7\x90",
	       "nonchar \\xef\\xbf\\xbe \\xef\\xb7\\x90");
	expect(report_html_escape, "bad \xff utf-8 \xc3",
	       "bad \\xff utf-8 \\xc3");
	expect(report_html_escape, "tab\tlf\ncr\r \xc3\xa9 <&>",
	       "tab\tlf\ncr\r \xc3\xa9 &lt;&amp;&gt;");
}

static void test_xml(void **state)
{
	(void)state;
	expect(report_xml_escape, "a<b>&\"c\"\x01\n",
	       "a&lt;b&gt;&amp;&quot;c&quot;?&#10;");
}

static void test_shell(void **state)
{
	(void)state;
	expect(report_shell_quote, EVIL,
	       "'\"><script>alert(1)</script>;rm -rf / '\\''x'\\'' & \\ \n#'");
	expect(report_shell_quote, "", "''");
}

static void test_csv(void **state)
{
	(void)state;
	expect(report_csv_field, "plain", "plain");
	expect(report_csv_field, "a,b", "\"a,b\"");
	expect(report_csv_field, "say \"hi\"\nbye", "\"say \"\"hi\"\"\nbye\"");
	expect(report_csv_field, "=cmd()", "\"'=cmd()\"");
}

/*
 * Found by the fuzz campaign (fuzz_report_formats, check-outputs.py csv):
 * a node name holding NEL (U+0085) went into disable.csv unquoted, and a
 * reader that splits lines first (Python's splitlines(), and with it
 * csv.reader over them) saw the row cut in three. A cell holding a
 * control, NEL or U+2028/U+2029 is quoted, so it stays one field.
 */
static void test_csv_line_break_like(void **state)
{
	(void)state;
	expect(report_csv_field,
	       "a\xc2\x85"
	       "b",
	       "\"a\xc2\x85"
	       "b\"");
	expect(report_csv_field, "ls\xe2\x80\xa8ps\xe2\x80\xa9",
	       "\"ls\xe2\x80\xa8ps\xe2\x80\xa9\"");
	expect(report_csv_field, "esc\x1b[1m", "\"esc\x1b[1m\"");
	expect(report_csv_field, "bidi \xe2\x80\xae ok",
	       "bidi \xe2\x80\xae ok");
	expect(report_csv_field, "\xc3\xa9t\xc3\xa9", "\xc3\xa9t\xc3\xa9");
}

static void test_prometheus(void **state)
{
	(void)state;
	expect(report_prom_label, "a\"b\\c\nd", "a\\\"b\\\\c\\nd");
}

static void test_comment(void **state)
{
	(void)state;
	expect(report_comment_text, "line1\nrm -rf /\r\x1b[31m",
	       "line1 rm -rf /  [31m");
}

static void test_script_json(void **state)
{
	(void)state;
	expect(report_script_json, "{\"d\":\"</script><!-- & x\"}",
	       "{\"d\":\"\\u003c/script\\u003e\\u003c!-- \\u0026 x\"}");
	/* found by the fuzz campaign: a key holding DEL reached the page */
	expect(report_script_json,
	       "{\"gui\x7f"
	       "d\":\"a\x7f\"}",
	       "{\"gui\\u007fd\":\"a\\u007f\"}");
}

static void ranges(const char **hosts, size_t n, const char *want)
{
	struct report_buf b = { 0 };

	report_host_ranges(&b, hosts, n);
	assert_string_equal(want, b.s ? b.s : "");
	report_buf_free(&b);
}

static void test_host_ranges(void **state)
{
	const char *a[] = { "node03", "node01", "node02", "node16", "node04",
			    "node05", "node06", "node07", "node08", "node09",
			    "node10", "node11", "node12", "node13", "node14",
			    "node15", "node02" };
	const char *b[] = { "gpu7", "node01", "login", "node03", "gpu8" };
	const char *c[] = { "n9", "n10" };

	(void)state;
	ranges(a, 17, "node[01-16]");
	ranges(b, 5, "gpu[7-8],login,node[01,03]");
	ranges(c, 2, "n9,n10");
	ranges(a, 1, "node03");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_html),
		cmocka_unit_test(test_html_controls),
		cmocka_unit_test(test_xml),
		cmocka_unit_test(test_shell),
		cmocka_unit_test(test_csv),
		cmocka_unit_test(test_csv_line_break_like),
		cmocka_unit_test(test_prometheus),
		cmocka_unit_test(test_comment),
		cmocka_unit_test(test_script_json),
		cmocka_unit_test(test_host_ranges),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
