// SPDX-License-Identifier: MIT
/*
 * pcie/capture-sysfs copies what ibproof pcie reads: a capture of a fixture
 * tree must give the same findings as the tree itself.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "common/cli.h"
#include "pcie/pcie.h"

static int audit(const char *root, json_t **categories)
{
	struct pcie_options o = { .sysfs_root = root, .no_dma = true };
	struct pcie_topo t;
	struct pcie_audit a;
	size_t i;
	json_t *f;
	int rc;

	assert_int_equal(pcie_audit_init(&a), 0);
	rc = pcie_run(&o, &t, &a, NULL);
	*categories = json_array();
	json_array_foreach(a.findings, i, f) json_array_append_new(
		*categories,
		json_sprintf("%s %s %s",
			     json_string_value(json_object_get(f, "severity")),
			     json_string_value(json_object_get(f, "category")),
			     json_string_value(json_object_get(
				     json_object_get(f, "subject"), "bdf"))));
	pcie_topo_free(&t);
	pcie_audit_free(&a);
	return rc;
}

static void capture_and_compare(const char *tree, size_t want)
{
	char src[512], dst[] = "/tmp/ibproof-test-capture-XXXXXX", cmd[1200];
	json_t *a, *b;

	snprintf(src, sizeof(src), "%s/sysfs/%s", GEN_FIXTURES_DIR, tree);
	assert_non_null(mkdtemp(dst));
	snprintf(cmd, sizeof(cmd),
		 "'%s/../../pcie/capture-sysfs' '%s' '%s' "
		 ">/dev/null",
		 FIXTURES_DIR, dst, src);
	assert_int_equal(system(cmd), 0);
	assert_int_equal(audit(src, &a), audit(dst, &b));
	assert_int_equal(json_array_size(a), want);
	assert_true(json_equal(a, b));
	json_decref(a);
	json_decref(b);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dst);
	assert_int_equal(system(cmd), 0);
}

static void test_capture_acs(void **state)
{
	(void)state;
	capture_and_compare("acs", 4);
}

static void test_capture_aer(void **state)
{
	(void)state;
	capture_and_compare("aer", 4);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_capture_acs),
		cmocka_unit_test(test_capture_aer),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
