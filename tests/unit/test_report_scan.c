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

#define HEAD "{\"schema\":\"ibproof/1\",\"kind\":\"pair\",\"time\":\"2026-12-02T15:04:05.123Z\",\"host\":\"n1\",\"version\":\"0.1.0\","
#define REFS "\"a\":{\"host\":\"n1\",\"ca\":\"mlx5_0\",\"port\":1,\"guid\":\"0x0000000000001234\"},\"b\":{\"host\":\"n2\",\"ca\":\"mlx5_1\",\"port\":2,\"guid\":\"0x0000000000005678\"},"
#define GOOD HEAD "\"round\":3,\"test\":\"write\",\"dir\":\"uni\"," REFS "\"gbps\":97.5,\"gbps_min\":91,\"expected_gbps\":1e2,\"status\":\"ok\"}\n"

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
	HEAD "\"round\":3,\"test\":\"write\",\"dir\":\"uni\"," REFS "\"gbps\":1,\"gbps_min\":1,\"expected_gbps\":1,\"status\":\"ok\",\"note\":\"a\\\"b\"}",
	HEAD "\"round\":3,\"test\":\"write\",\"dir\":\"uni\"," REFS "\"gbps\":1,\"gbps_min\":1,\"expected_gbps\":1,\"status\":\"ok\",\"note\":\"caf\xc3\xa9\"}",
	/* nested values in added fields */
	HEAD "\"round\":3,\"test\":\"write\",\"dir\":\"uni\"," REFS "\"gbps\":1,\"gbps_min\":1,\"expected_gbps\":1,\"status\":\"ok\",\"counters\":{\"x\":1}}",
	/* invalid: duplicate keys, known and added */
	HEAD "\"round\":3,\"round\":4,\"test\":\"write\",\"dir\":\"uni\"," REFS "\"gbps\":1,\"gbps_min\":1,\"expected_gbps\":1,\"status\":\"ok\"}",
	HEAD "\"x\":1,\"x\":2,\"round\":3,\"test\":\"write\",\"dir\":\"uni\"," REFS "\"gbps\":1,\"gbps_min\":1,\"expected_gbps\":1,\"status\":\"ok\"}",
	/* invalid: types, values, missing fields, schema */
	HEAD "\"round\":3.0,\"test\":\"write\",\"dir\":\"uni\"," REFS "\"gbps\":1,\"gbps_min\":1,\"expected_gbps\":1,\"status\":\"ok\"}",
	HEAD "\"round\":3,\"test\":\"send\",\"dir\":\"uni\"," REFS "\"gbps\":1,\"gbps_min\":1,\"expected_gbps\":1,\"status\":\"ok\"}",
	HEAD "\"round\":3,\"test\":\"write\",\"dir\":\"uni\"," REFS "\"gbps\":1,\"gbps_min\":1,\"expected_gbps\":1,\"status\":\"error\"}",
	HEAD "\"round\":3,\"test\":\"write\",\"dir\":\"uni\"," REFS "\"gbps\":\"1\",\"gbps_min\":1,\"expected_gbps\":1,\"status\":\"ok\"}",
	HEAD "\"round\":3,\"test\":\"write\",\"dir\":\"uni\"," REFS "\"gbps_min\":1,\"expected_gbps\":1,\"status\":\"ok\"}",
	"{\"schema\":\"ibproof/2\",\"kind\":\"pair\",\"time\":\"t\",\"host\":\"h\",\"version\":\"v\",\"round\":3,\"test\":\"write\",\"dir\":\"uni\"," REFS "\"gbps\":1,\"gbps_min\":1,\"expected_gbps\":1,\"status\":\"ok\"}",
	/* invalid JSON: numbers, commas, trailing text, truncation */
	HEAD "\"round\":03,\"test\":\"write\",\"dir\":\"uni\"," REFS "\"gbps\":1,\"gbps_min\":1,\"expected_gbps\":1,\"status\":\"ok\"}",
	HEAD "\"round\":3,\"test\":\"write\",\"dir\":\"uni\"," REFS "\"gbps\":1.,\"gbps_min\":1,\"expected_gbps\":1,\"status\":\"ok\"}",
	HEAD "\"round\":3,\"test\":\"write\",\"dir\":\"uni\"," REFS "\"gbps\":1,\"gbps_min\":1,\"expected_gbps\":1,\"status\":\"ok\",}",
	HEAD "\"round\":3,\"test\":\"write\",\"dir\":\"uni\"," REFS "\"gbps\":1,\"gbps_min\":1,\"expected_gbps\":1,\"status\":\"ok\"} x",
	HEAD "\"round\":3,\"test\":\"write\",\"dir\":\"uni\"," REFS "\"gbps\":1,\"gbps_min\":1,\"expected_gbps\":1,\"status\":\"ok\"",
	HEAD "\"round\":99999999999999999999,\"test\":\"write\",\"dir\":\"uni\"," REFS "\"gbps\":1,\"gbps_min\":1,\"expected_gbps\":1,\"status\":\"ok\"}",
	HEAD "\"round\":3,\"test\":\"write\",\"dir\":\"uni\"," REFS "\"gbps\":1e999,\"gbps_min\":1,\"expected_gbps\":1,\"status\":\"ok\"}",
	/* another kind */
	"{\"schema\":\"ibproof/1\",\"kind\":\"run\",\"time\":\"t\",\"host\":\"h\",\"version\":\"v\",\"tool\":\"x\",\"event\":\"start\"}",
};

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
static void test_mutations_never_wrongly_taken(void **state)
{
	static const char subst[] = "\"{}[],:0123456789.-+eE \\ax\x01\x80";
	char line[sizeof(GOOD)];
	struct scan_pair p;
	size_t n = strlen(GOOD);

	(void)state;
	for (size_t cut = 0; cut < n; cut++) {
		memcpy(line, GOOD, cut);
		line[cut] = '\0';
		if (report_scan_pair(line, cut, &p))
			assert_true(reader_accepts(line));
	}
	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < sizeof(subst) - 1; k++) {
			memcpy(line, GOOD, n + 1);
			line[i] = subst[k];
			if (report_scan_pair(line, n, &p) && !reader_accepts(line)) {
				fprintf(stderr, "taken but invalid: %s\n", line);
				fail();
			}
		}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plain_pair_taken),
		cmocka_unit_test(test_doubtful_lines_left_to_reader),
		cmocka_unit_test(test_mutations_never_wrongly_taken),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
