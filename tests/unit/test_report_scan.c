// SPDX-License-Identifier: MIT
/*
 * The fast path for pair records takes only lines the record reader
 * accepts, with the same values; everything doubtful is left to the reader.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "common/record.h"
#include "reports/report_scan.h"

#define HEAD \
	"{\"schema\":\"ibproof/1\",\"kind\":\"pair\",\"time\":\"2026-12-02T15:04:05.123Z\",\"host\":\"n1\",\"version\":\"0.1.0\","
#define REFS \
	"\"a\":{\"host\":\"n1\",\"ca\":\"mlx5_0\",\"port\":1,\"guid\":\"0x0000000000001234\"},\"b\":{\"host\":\"n2\",\"ca\":\"mlx5_1\",\"port\":2,\"guid\":\"0x0000000000005678\"},"
/* as burnin writes them: added fields, counters as flat objects */
#define BURNIN                                                    \
	HEAD "\"round\":1,\"test\":\"read\",\"dir\":\"bi\"," REFS \
	     "\"gbps\":9.5,\"gbps_min\":9,\"expected_gbps\":10.0,\"status\":\"error\",\"retest\":false,\"seconds\":1.5,\"counters_a\":{\"symbol_error\":0,\"link_downed\":2},\"counters_b\":{},\"error\":\"stalled: 3 outstanding\"}\n"
#define GOOD                                                        \
	HEAD "\"round\":3,\"test\":\"write\",\"dir\":\"uni\"," REFS \
	     "\"gbps\":97.5,\"gbps_min\":91,\"expected_gbps\":1e2,\"status\":\"ok\"}\n"

/* a routed pair as burnin --routes writes it: the path both ways */
#define ROUTED                                                     \
	HEAD "\"round\":2,\"test\":\"write\",\"dir\":\"bi\"," REFS \
	     "\"gbps\":40.5,\"gbps_min\":39,\"expected_gbps\":100,\"status\":\"ok\",\"cables\":[\"0x0000000000001234:1\",\"0x0008f10300000004:17\",\"0x0008f10300000008:5\",\"0x0008f10300000006:3\"],\"cables_ba\":[ \"0x0000000000005678:2\" , \"0x0008f10300000006:18\"],\"seconds\":1.0}\n"
#define ROUTED_HEAD                                                 \
	HEAD "\"round\":2,\"test\":\"write\",\"dir\":\"uni\"," REFS \
	     "\"gbps\":1,\"gbps_min\":1,\"expected_gbps\":1,\"status\":\"ok\","

/* What the reader's validation says of a line. */
static int reader_accepts(const char *line)
{
	json_error_t err;
	char why[256];
	json_t *rec = json_loads(line, JSON_REJECT_DUPLICATES, &err);
	int ok = rec && !record_validate(rec, why, sizeof(why));

	json_decref(rec);
	return ok;
}

static void test_plain_pair_taken(void **state)
{
	struct scan_pair p;

	(void)state;
	assert_true(reader_accepts(GOOD));
	assert_int_equal(1, report_scan_pair(GOOD, strlen(GOOD), &p));
	assert_int_equal(3, p.round);
	assert_true(p.gbps == 97.5 && p.gbps_min == 91 && p.expected == 100);
	assert_true(scan_eq(&p.a.ca, "mlx5_0") && scan_eq(&p.b.host, "n2"));
	assert_int_equal(2, p.b.port);
	assert_true(scan_eq(&p.a.guid, "0x0000000000001234"));
}

/* Each of these is left to the reader, valid or not. */
static const char *const refused[] = {
	/* escapes and non-ASCII: valid, but for jansson to decode */
	HEAD
	"\"round\":3,\"test\":\"write\",\"dir\":\"uni\"," REFS
	"\"gbps\":1,\"gbps_min\":1,\"expected_gbps\":1,\"status\":\"ok\",\"note\":\"a\\\"b\"}",
	HEAD
	"\"round\":3,\"test\":\"write\",\"dir\":\"uni\"," REFS
	"\"gbps\":1,\"gbps_min\":1,\"expected_gbps\":1,\"status\":\"ok\",\"note\":\"caf\xc3\xa9\"}",
	/* deeper nesting and arrays in added fields */
	HEAD
	"\"round\":3,\"test\":\"write\",\"dir\":\"uni\"," REFS
	"\"gbps\":1,\"gbps_min\":1,\"expected_gbps\":1,\"status\":\"ok\",\"counters\":{\"x\":{\"y\":1}}}",
	HEAD
	"\"round\":3,\"test\":\"write\",\"dir\":\"uni\"," REFS
	"\"gbps\":1,\"gbps_min\":1,\"expected_gbps\":1,\"status\":\"ok\",\"counters\":[1]}",
	/* a duplicate key inside an added object */
	HEAD
	"\"round\":3,\"test\":\"write\",\"dir\":\"uni\"," REFS
	"\"gbps\":1,\"gbps_min\":1,\"expected_gbps\":1,\"status\":\"ok\",\"counters_a\":{\"x\":1,\"x\":2}}",
	/* invalid: duplicate keys, known and added */
	HEAD "\"round\":3,\"round\":4,\"test\":\"write\",\"dir\":\"uni\"," REFS
	     "\"gbps\":1,\"gbps_min\":1,\"expected_gbps\":1,\"status\":\"ok\"}",
	HEAD
	"\"x\":1,\"x\":2,\"round\":3,\"test\":\"write\",\"dir\":\"uni\"," REFS
	"\"gbps\":1,\"gbps_min\":1,\"expected_gbps\":1,\"status\":\"ok\"}",
	/* invalid: types, values, missing fields, schema */
	HEAD "\"round\":3.0,\"test\":\"write\",\"dir\":\"uni\"," REFS
	     "\"gbps\":1,\"gbps_min\":1,\"expected_gbps\":1,\"status\":\"ok\"}",
	HEAD "\"round\":3,\"test\":\"send\",\"dir\":\"uni\"," REFS
	     "\"gbps\":1,\"gbps_min\":1,\"expected_gbps\":1,\"status\":\"ok\"}",
	HEAD
	"\"round\":3,\"test\":\"write\",\"dir\":\"uni\"," REFS
	"\"gbps\":1,\"gbps_min\":1,\"expected_gbps\":1,\"status\":\"error\"}",
	HEAD
	"\"round\":3,\"test\":\"write\",\"dir\":\"uni\"," REFS
	"\"gbps\":\"1\",\"gbps_min\":1,\"expected_gbps\":1,\"status\":\"ok\"}",
	HEAD "\"round\":3,\"test\":\"write\",\"dir\":\"uni\"," REFS
	     "\"gbps_min\":1,\"expected_gbps\":1,\"status\":\"ok\"}",
	"{\"schema\":\"ibproof/2\",\"kind\":\"pair\",\"time\":\"t\",\"host\":\"h\",\"version\":\"v\",\"round\":3,\"test\":\"write\",\"dir\":\"uni\"," REFS
	"\"gbps\":1,\"gbps_min\":1,\"expected_gbps\":1,\"status\":\"ok\"}",
	/* invalid JSON: numbers, commas, trailing text, truncation */
	HEAD "\"round\":03,\"test\":\"write\",\"dir\":\"uni\"," REFS
	     "\"gbps\":1,\"gbps_min\":1,\"expected_gbps\":1,\"status\":\"ok\"}",
	HEAD
	"\"round\":3,\"test\":\"write\",\"dir\":\"uni\"," REFS
	"\"gbps\":1.,\"gbps_min\":1,\"expected_gbps\":1,\"status\":\"ok\"}",
	HEAD
	"\"round\":3,\"test\":\"write\",\"dir\":\"uni\"," REFS
	"\"gbps\":1,\"gbps_min\":1,\"expected_gbps\":1,\"status\":\"ok\",}",
	HEAD
	"\"round\":3,\"test\":\"write\",\"dir\":\"uni\"," REFS
	"\"gbps\":1,\"gbps_min\":1,\"expected_gbps\":1,\"status\":\"ok\"} x",
	HEAD "\"round\":3,\"test\":\"write\",\"dir\":\"uni\"," REFS
	     "\"gbps\":1,\"gbps_min\":1,\"expected_gbps\":1,\"status\":\"ok\"",
	HEAD
	"\"round\":99999999999999999999,\"test\":\"write\",\"dir\":\"uni\"," REFS
	"\"gbps\":1,\"gbps_min\":1,\"expected_gbps\":1,\"status\":\"ok\"}",
	HEAD
	"\"round\":3,\"test\":\"write\",\"dir\":\"uni\"," REFS
	"\"gbps\":1e999,\"gbps_min\":1,\"expected_gbps\":1,\"status\":\"ok\"}",
	/* paths the fast path does not take: not strings, nested, too long
	 * (17 ids; an id of 49 characters), twice, not an array */
	ROUTED_HEAD "\"cables\":[\"0x1:1\",2]}",
	ROUTED_HEAD "\"cables\":[[\"0x1:1\"]]}",
	ROUTED_HEAD
	"\"cables\":[\"a\",\"a\",\"a\",\"a\",\"a\",\"a\",\"a\",\"a\","
	"\"a\",\"a\",\"a\",\"a\",\"a\",\"a\",\"a\",\"a\",\"a\"]}",
	ROUTED_HEAD
	"\"cables\":[\"0123456789012345678901234567890123456789012345678\"]}",
	ROUTED_HEAD "\"cables\":[\"0x1:1\"],\"cables\":[\"0x1:1\"]}",
	ROUTED_HEAD "\"cables\":null}",
	ROUTED_HEAD "\"cables_ba\":\"0x1:1\"}",
	ROUTED_HEAD "\"cables\":[\"0x1:1\",]}",
	ROUTED_HEAD "\"cables\":[\"a\\\"b\"]}",
	/* another kind */
	"{\"schema\":\"ibproof/1\",\"kind\":\"run\",\"time\":\"t\",\"host\":\"h\",\"version\":\"v\",\"tool\":\"x\",\"event\":\"start\"}",
};

static void test_burnin_pair_taken(void **state)
{
	struct scan_pair p;

	(void)state;
	assert_true(reader_accepts(BURNIN));
	assert_int_equal(1, report_scan_pair(BURNIN, strlen(BURNIN), &p));
	assert_true(scan_eq(&p.str[SF_STATUS], "error"));
	assert_true(scan_eq(&p.str[SF_ERROR], "stalled: 3 outstanding"));
	assert_true(scan_eq(&p.str[SF_TEST], "read") &&
		    scan_eq(&p.str[SF_DIR], "bi"));
}

/* The scanned path of each direction is jansson's array, id by id. */
static void assert_path_as_jansson(const struct scan_path *path,
				   const json_t *arr)
{
	assert_true(path->present);
	assert_int_equal(json_array_size(arr), path->n);
	for (int k = 0; k < path->n; k++)
		assert_true(scan_eq(
			&path->id[k],
			json_string_value(json_array_get(arr, (size_t)k))));
}

static void test_routed_pair_taken_as_jansson(void **state)
{
	json_t *rec = json_loads(ROUTED, JSON_REJECT_DUPLICATES, NULL);
	struct scan_pair p;

	(void)state;
	assert_non_null(rec);
	assert_true(reader_accepts(ROUTED));
	assert_int_equal(1, report_scan_pair(ROUTED, strlen(ROUTED), &p));
	assert_path_as_jansson(&p.path[0], json_object_get(rec, "cables"));
	assert_path_as_jansson(&p.path[1], json_object_get(rec, "cables_ba"));
	assert_true(scan_eq(&p.path[1].id[1], "0x0008f10300000006:18"));
	json_decref(rec);
	/* a line without paths: none present */
	assert_int_equal(1, report_scan_pair(GOOD, strlen(GOOD), &p));
	assert_false(p.path[0].present || p.path[1].present);
	/* an empty path is a path of no cables, as for jansson */
	assert_int_equal(
		1, report_scan_pair(ROUTED_HEAD "\"cables\":[]}",
				    strlen(ROUTED_HEAD "\"cables\":[]}"), &p));
	assert_true(p.path[0].present && !p.path[0].n);
}

static void test_doubtful_lines_left_to_reader(void **state)
{
	struct scan_pair p;

	(void)state;
	for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
		if (report_scan_pair(refused[i], strlen(refused[i]), &p)) {
			fprintf(stderr, "taken: %s\n", refused[i]);
			fail();
		}
	}
}

/* Every prefix and every one-byte change of a good line: whatever the
 * scanner takes, the reader accepts too. */
static void mutate(const char *good)
{
	static const char subst[] = "\"{}[],:0123456789.-+eE \\ax\x01\x80";
	char line[1024];
	struct scan_pair p;
	size_t n = strlen(good);

	assert_true(n < sizeof(line));
	for (size_t cut = 0; cut < n; cut++) {
		memcpy(line, good, cut);
		line[cut] = '\0';
		if (report_scan_pair(line, cut, &p))
			assert_true(reader_accepts(line));
	}
	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < sizeof(subst) - 1; k++) {
			memcpy(line, good, n + 1);
			line[i] = subst[k];
			if (report_scan_pair(line, n, &p) &&
			    !reader_accepts(line)) {
				fprintf(stderr, "taken but invalid: %s\n",
					line);
				fail();
			}
		}
}

static void test_mutations_never_wrongly_taken(void **state)
{
	(void)state;
	mutate(GOOD);
	mutate(BURNIN);
	mutate(ROUTED);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plain_pair_taken),
		cmocka_unit_test(test_burnin_pair_taken),
		cmocka_unit_test(test_routed_pair_taken_as_jansson),
		cmocka_unit_test(test_doubtful_lines_left_to_reader),
		cmocka_unit_test(test_mutations_never_wrongly_taken),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
