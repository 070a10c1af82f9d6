// SPDX-License-Identifier: MIT
/*
 * The one node-name-map parser (common/namemap.c) and the line reader under
 * it (common/lines.c): rdma-core's grammar, errors naming FILE:LINE, and the
 * same name for a node in `fabric check` and in `report`.
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

#include "common/cli.h"
#include "common/lines.h"
#include "common/namemap.h"
#include "common/record.h"
#include "fabric/fabric_run.h"
#include "fabric/fabric_model.h"
#include "reports/report.h"

#define FX FIXTURES_DIR "/fabric/"
#define LEAF02 0x0008f10300000145ULL

static char *write_temp(const char *text)
{
	char *path = strdup("/tmp/ibproof-test-namemap-XXXXXX");
	size_t len = strlen(text);
	int fd;

	assert_non_null(path);
	fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal((ssize_t)len, write(fd, text, len));
	close(fd);
	return path;
}

static struct namemap *parse_ok(const char *text)
{
	struct namemap *m = NULL;
	char err[256] = "";

	assert_int_equal(0, namemap_parse("t.map", text, &m, err, sizeof(err)));
	assert_string_equal("", err);
	assert_non_null(m);
	return m;
}

static void expect_error(const char *text, const char *msg)
{
	struct namemap *m = NULL;
	char err[256] = "";

	assert_int_equal(-EINVAL,
			 namemap_parse("t.map", text, &m, err, sizeof(err)));
	assert_null(m);
	assert_string_equal(msg, err);
}

static void test_quoted(void **state)
{
	struct namemap *m;

	(void)state;
	m = parse_ok("0x0008f10300000144 \"leaf01\"\n"
		     "0x0008F10300000146\t\"rack #3 leaf\"  # comment\n"
		     "0X1 \" spaced \"\n");
	assert_string_equal("leaf01", namemap_lookup(m, 0x0008f10300000144));
	assert_string_equal("rack #3 leaf",
			    namemap_lookup(m, 0x0008f10300000146));
	assert_string_equal(" spaced ", namemap_lookup(m, 1));
	assert_null(namemap_lookup(m, 2));
	assert_null(namemap_lookup(NULL, 1));
	namemap_free(m);
}

static void test_unquoted(void **state)
{
	struct namemap *m;

	(void)state;
	m = parse_ok("0x0008f10300000145 leaf 02\n"
		     "0x0008f10300000146   leaf 03 \t # the spine side\n"
		     "0x0008f10300000147 leaf 04\r\n"
		     "0x0008f10300000148 leaf#05\n");
	assert_string_equal("leaf 02", namemap_lookup(m, LEAF02));
	assert_string_equal("leaf 03", namemap_lookup(m, 0x0008f10300000146));
	assert_string_equal("leaf 04", namemap_lookup(m, 0x0008f10300000147));
	assert_string_equal("leaf", namemap_lookup(m, 0x0008f10300000148));
	namemap_free(m);
}

static void test_comments_blanks_duplicates(void **state)
{
	struct namemap *m;

	(void)state;
	m = parse_ok("# node-name-map\n"
		     "\n"
		     "   \t\n"
		     "   # indented comment 0x2 \"not a name\"\n"
		     "  0x2 \"two\"\n"
		     "0x2 \"second name of two\"\n");
	assert_string_equal("two", namemap_lookup(m, 2));
	namemap_free(m);
	m = parse_ok("");
	assert_null(namemap_lookup(m, 2));
	namemap_free(m);
}

static void test_errors(void **state)
{
	(void)state;
	/* No 0x: rdma-core would read 0008f1... as octal, 145 as decimal. */
	expect_error("# ok\n0008f10300000145 \"leaf02\"\n",
		     "t.map:2: expected 0xGUID \"name\"");
	expect_error("145 leaf02\n", "t.map:1: expected 0xGUID \"name\"");
	expect_error("leaf02 0x0008f10300000145\n",
		     "t.map:1: expected 0xGUID \"name\"");
	expect_error("0x \"x\"\n", "t.map:1: expected 0xGUID \"name\"");
	expect_error("0x0008g10300000145 x\n",
		     "t.map:1: expected 0xGUID \"name\"");
	expect_error("0x10008f10300000145 x\n",
		     "t.map:1: expected 0xGUID \"name\"");
	/* strtoull alone would take these as 0x12 and 0x1 */
	expect_error("0x0x12 a\n", "t.map:1: expected 0xGUID \"name\"");
	expect_error("0x00000000000000001 a\n",
		     "t.map:1: expected 0xGUID \"name\"");
	expect_error("0x1 a\n\n0x2\n", "t.map:3: expected 0xGUID \"name\"");
	expect_error("0x1 \"x\"\n0x2 # no name\n",
		     "t.map:2: expected 0xGUID \"name\": the name is missing");
	expect_error("0x1 \"leaf01\n",
		     "t.map:1: expected 0xGUID \"name\": no closing quote");
	expect_error("0x1 \"\"\n",
		     "t.map:1: expected 0xGUID \"name\": the name is empty");
	expect_error("0x1 \"a\" b\n", "t.map:1: expected 0xGUID \"name\": "
				      "text after the closing quote");
	expect_error("0x1 a\"b\n", "t.map:1: expected 0xGUID \"name\": "
				   "a quote inside an unquoted name");
}

static void test_files(void **state)
{
	struct namemap *m = NULL;
	char err[256] = "";

	(void)state;
	assert_int_equal(0, namemap_load(FX "good.map", &m, err, sizeof(err)));
	assert_string_equal("leaf01", namemap_lookup(m, 0x0008f10300000144));
	assert_string_equal("leaf02", namemap_lookup(m, LEAF02));
	assert_string_equal("node001 mlx5_0",
			    namemap_lookup(m, 0x0008f10400000000));
	assert_null(namemap_lookup(m, 1));
	namemap_free(m);
	m = NULL;
	assert_int_equal(-EINVAL,
			 namemap_load(FX "bad.map", &m, err, sizeof(err)));
	assert_null(m);
	assert_string_equal(FX "bad.map:2: expected 0xGUID \"name\"", err);
	assert_int_equal(-ENOENT,
			 namemap_load(FX "no-such.map", &m, err, sizeof(err)));
	assert_string_equal(FX "no-such.map: cannot read: "
			       "No such file or directory",
			    err);
}

/* Lines longer than any fixed buffer, and errors naming the line. */
static void test_lines(void **state)
{
	size_t n = LINES_MAX; /* the longest line taken (D8: the limit) */
	char *text = malloc(n + 32), *line, err[256];
	struct lines in;

	(void)state;
	assert_non_null(text);
	memset(text, 'a', n);
	memcpy(text + n, "\n# c\n\n  b\r\nc", 13);
	lines_open_text(&in, "x", text, err, sizeof(err));
	assert_int_equal(1, lines_next(&in, &line));
	assert_int_equal(n, strlen(line));
	assert_int_equal(1, in.line);
	assert_int_equal(1, lines_next(&in, &line));
	assert_string_equal("b", line);
	assert_int_equal(4, in.line);
	assert_int_equal(-EINVAL, lines_error(&in, "expected %s", "c"));
	assert_string_equal("x:4: expected c", err);
	assert_int_equal(1, lines_next(&in, &line));
	assert_string_equal("c", line);
	assert_int_equal(0, lines_next(&in, &line));
	lines_close(&in);
	lines_close(&in);
	free(text);

	/* fopen() takes a directory; the first read fails and says so. */
	assert_int_equal(0, lines_open(&in, FX, err, sizeof(err)));
	assert_int_equal(-EISDIR, lines_next(&in, &line));
	assert_string_equal(FX ":1: read error: Is a directory", err);
	lines_close(&in);
}

static char *write_temp_bytes(const char *bytes, size_t len)
{
	char *path = strdup("/tmp/ibproof-test-lines-XXXXXX");
	int fd;

	assert_non_null(path);
	fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal((ssize_t)len, write(fd, bytes, len));
	close(fd);
	return path;
}

/*
 * D8: a NUL byte used to end the text silently (a spec cut short passed
 * `fabric check`); it is "FILE:LINE: NUL byte", from a file or a buffer.
 */
static void test_d8_nul_in_text_input_is_error(void **state)
{
	static const char bytes[] = "a\n  b\0c\nd\n";
	char *path = write_temp_bytes(bytes, sizeof(bytes) - 1), *line;
	char err[256], want[512];
	struct lines in;

	(void)state;
	assert_int_equal(0, lines_open(&in, path, err, sizeof(err)));
	assert_int_equal(1, lines_next(&in, &line));
	assert_string_equal("a", line);
	assert_int_equal(-EINVAL, lines_next(&in, &line));
	snprintf(want, sizeof(want), "%s:2: NUL byte at byte 4 of the line",
		 path);
	assert_string_equal(want, err);
	lines_close(&in);
	assert_int_equal(-EINVAL,
			 lines_check_text("t", bytes, sizeof(bytes) - 1, err,
					  sizeof(err)));
	assert_string_equal("t:2: NUL byte at byte 4 of the line", err);
	assert_int_equal(0, lines_check_text("t", bytes, 5, err, sizeof(err)));
	unlink(path);
	free(path);
}

/* D8: a line over LINES_MAX is refused, not read into unbounded memory. */
static void test_d8_line_over_limit_is_error(void **state)
{
	size_t n = LINES_MAX + 1;
	char *text = malloc(n + 8), *path, *line, err[256], want[512];
	struct lines in;

	(void)state;
	assert_non_null(text);
	memcpy(text, "ok\r\n", 4);
	memset(text + 4, 'a', n);
	memcpy(text + 4 + n, "\n", 2);
	lines_open_text(&in, "x", text, err, sizeof(err));
	assert_int_equal(1, lines_next(&in, &line));
	assert_int_equal(-EINVAL, lines_next(&in, &line));
	assert_string_equal("x:2: line longer than 65536 bytes", err);
	lines_close(&in);
	assert_int_equal(-EINVAL,
			 lines_check_text("x", text, n + 5, err, sizeof(err)));
	assert_string_equal("x:2: line longer than 65536 bytes", err);
	path = write_temp_bytes(text, n + 5);
	assert_int_equal(0, lines_open(&in, path, err, sizeof(err)));
	assert_int_equal(1, lines_next(&in, &line));
	assert_int_equal(-EINVAL, lines_next(&in, &line));
	snprintf(want, sizeof(want), "%s:2: line longer than 65536 bytes",
		 path);
	assert_string_equal(want, err);
	assert_true(in.cap < 2 * (size_t)LINES_MAX);
	lines_close(&in);
	unlink(path);
	free(path);
	free(text);
}

static const char *report_name(const char *map)
{
	static char name[64];
	struct report r;
	char g[19];
	json_t *link;

	assert_int_equal(0, report_init(&r));
	assert_int_equal(0, report_load_node_name_map(&r, map));
	link = json_pack("{s:s,s:{s:s,s:s,s:i,s:s},s:{s:s,s:s,s:i,s:s}}",
			 "kind", "link", "a", "name",
			 "SwitchIB Mellanox Technologies", "guid",
			 record_guid_str(LEAF02, g), "port", 1, "type",
			 "switch", "b", "name", "spine", "guid",
			 "0x0008f10300000200", "port", 1, "type", "switch");
	assert_non_null(link);
	assert_int_equal(0, report_ingest_record(&r, link));
	json_decref(link);
	assert_int_equal(1, r.n_links);
	snprintf(name, sizeof(name), "%s", r.links[0].a.name);
	report_fini(&r);
	return name;
}

static const char *fabric_name(const char *map)
{
	static char name[64];
	struct fabric_args a = { .common.node_name_map = map };
	struct fabric *f = fabric_new();
	struct fabric_node *n;

	assert_non_null(f);
	n = fabric_add_node(f, LEAF02, FABRIC_NODE_SWITCH,
			    "SwitchIB Mellanox Technologies", 36);
	assert_non_null(n);
	assert_int_equal(IBP_EXIT_PASS, fabric_apply_map_file(&a, f));
	snprintf(name, sizeof(name), "%s", n->name);
	fabric_free(f);
	return name;
}

/* Issue 13: `fabric check` and `report` used to give two names here. */
static void test_fabric_and_report_agree(void **state)
{
	static const char *const maps[] = {
		"0x0008f10300000145 leaf 02\n",
		"0x0008f10300000145 leaf 02   # spine side\n",
		"0x0008f10300000145 \"leaf 02\"\n",
	};
	size_t i;
	char *path;

	(void)state;
	for (i = 0; i < sizeof(maps) / sizeof(maps[0]); i++) {
		path = write_temp(maps[i]);
		assert_string_equal("leaf 02", fabric_name(path));
		assert_string_equal("leaf 02", report_name(path));
		unlink(path);
		free(path);
	}
}

/*
 * D17: `fabric` and `report` had a parser each and disagreed on two maps
 * (shared/inputs-defects/namemap-parsers-disagree): a blank line ending in
 * CRLF (report refused it, fabric read on) and a GUID without 0x (report
 * took it, fabric refused it). Both read the one parser now: the CRLF map
 * loads with the same name, the GUID without 0x is FILE:LINE in both.
 */
static void test_d17_crlf_and_bare_guid_alike(void **state)
{
	char *crlf =
		write_temp("# map\r\n\r\n0x0008f10300000145 \"leaf 02\"\r\n");
	char *nohex = write_temp("0008f10300000145 \"leaf 02\"\n");
	struct fabric_args a = { .common.node_name_map = nohex };
	struct fabric *f = fabric_new();
	char where[300];
	struct report r;

	(void)state;
	assert_string_equal("leaf 02", fabric_name(crlf));
	assert_string_equal("leaf 02", report_name(crlf));

	assert_non_null(f);
	assert_int_not_equal(IBP_EXIT_PASS, fabric_apply_map_file(&a, f));
	fabric_free(f);
	assert_int_equal(0, report_init(&r));
	assert_int_not_equal(0, report_load_node_name_map(&r, nohex));
	snprintf(where, sizeof(where), "%s:1: expected 0xGUID", nohex);
	assert_non_null(strstr(r.error, where));
	report_fini(&r);
	unlink(crlf);
	unlink(nohex);
	free(crlf);
	free(nohex);
}

/*
 * D22: a map with no entries (an empty file, or only comments) reached
 * qsort(NULL, 0, ...), undefined behaviour that UBSan reports in the ASan
 * build; an empty map loads, and every lookup misses.
 */
static void test_d22_empty_map_no_qsort_of_null(void **state)
{
	const char *texts[] = { "", "# only a comment\n\n" };
	struct namemap *m;
	char err[256] = "";

	(void)state;
	for (size_t i = 0; i < sizeof(texts) / sizeof(*texts); i++) {
		char *path = write_temp(texts[i]);

		m = NULL;
		assert_int_equal(0, namemap_load(path, &m, err, sizeof(err)));
		assert_string_equal("", err);
		assert_non_null(m);
		assert_null(namemap_lookup(m, LEAF02));
		namemap_free(m);
		m = parse_ok(texts[i]);
		assert_null(namemap_lookup(m, 0));
		namemap_free(m);
		unlink(path);
		free(path);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_quoted),
		cmocka_unit_test(test_unquoted),
		cmocka_unit_test(test_comments_blanks_duplicates),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_files),
		cmocka_unit_test(test_lines),
		cmocka_unit_test(test_d8_nul_in_text_input_is_error),
		cmocka_unit_test(test_d8_line_over_limit_is_error),
		cmocka_unit_test(test_fabric_and_report_agree),
		cmocka_unit_test(test_d17_crlf_and_bare_guid_alike),
		cmocka_unit_test(test_d22_empty_map_no_qsort_of_null),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
