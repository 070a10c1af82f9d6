// SPDX-License-Identifier: MIT
/*
 * ibproof pcie from its command line: exit codes, and records that the
 * common reader accepts (every line validated against the contract).
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

#include "common/cli.h"
#include "common/record.h"
#include "common/subcommands.h"

static int pcie(const char *tree, const char *records, const char *extra)
{
	char root[512];
	char *argv[12] = { "pcie", "--sysfs-root", root, "--no-dma" };
	int argc = 4;

	snprintf(root, sizeof(root), "%s/sysfs/%s", GEN_FIXTURES_DIR, tree);
	if (records) {
		argv[argc++] = "--records";
		argv[argc++] = (char *)records;
	}
	if (extra)
		argv[argc++] = (char *)extra;
	return pcie_main(argc, argv);
}

/* Counts records by kind; every one must pass the reader's checks. */
static void count_kinds(const char *path, int *pcie_n, int *finding_n,
			int *run_n)
{
	struct record_reader *r = record_reader_open(path);
	json_t *rec;
	int ret;

	assert_non_null(r);
	*pcie_n = *finding_n = *run_n = 0;
	while ((ret = record_reader_next(r, &rec)) == 1) {
		const char *k = json_string_value(json_object_get(rec, "kind"));

		*pcie_n += !strcmp(k, "pcie");
		*finding_n += !strcmp(k, "finding");
		*run_n += !strcmp(k, "run");
		json_decref(rec);
	}
	assert_int_equal(ret, 0);
	record_reader_close(r);
}

static void test_records_of_a_failing_node(void **state)
{
	char path[] = "/tmp/ibproof-test-pcie-cli-XXXXXX";
	int fd = mkstemp(path), p, f, r;

	(void)state;
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(pcie("acs", path, NULL), IBP_EXIT_FAIL);
	count_kinds(path, &p, &f, &r);
	assert_int_equal(p, 44); /* 8 HCA, 8 GPU, 2 NVMe, 26 bridges */
	assert_int_equal(f, 4);
	assert_int_equal(r, 2); /* start and end */
	assert_int_equal(pcie("clean", path, NULL), IBP_EXIT_PASS);
	count_kinds(path, &p, &f, &r);
	assert_int_equal(f, 0);
	unlink(path);
}

static void test_usage_errors(void **state)
{
	(void)state;
	assert_int_equal(pcie("clean", NULL, "--samples=0"), IBP_EXIT_USAGE);
	assert_int_equal(pcie("clean", NULL, "stray"), IBP_EXIT_USAGE);
	assert_int_equal(pcie("no-such-tree", NULL, NULL), IBP_EXIT_USAGE);
	assert_int_equal(pcie("clean", "/no/such/dir/r.jsonl", NULL),
			 IBP_EXIT_USAGE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_records_of_a_failing_node),
		cmocka_unit_test(test_usage_errors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
