// SPDX-License-Identifier: MIT
/* common/hashmap.c, common/strtab.c, common/array.c: the one of each. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "common/array.h"
#include "common/hashmap.h"
#include "common/strtab.h"

static void test_hashmap(void **state)
{
	struct hashmap m = { 0 };
	uint64_t v = 0;

	(void)state;
	assert_false(hashmap_get(&m, 7, &v));
	assert_false(hashmap_get(&m, 0, &v));
	/* 0 and ~0 are two keys (an older map stored 0 as ~0) */
	assert_int_equal(0, hashmap_put(&m, 0, 10));
	assert_int_equal(0, hashmap_put(&m, ~0ULL, 20));
	assert_true(hashmap_get(&m, 0, &v));
	assert_int_equal(10, v);
	assert_true(hashmap_get(&m, ~0ULL, &v));
	assert_int_equal(20, v);
	assert_int_equal(0, hashmap_put(&m, ~0ULL, 21)); /* replaces */
	assert_true(hashmap_get(&m, ~0ULL, &v));
	assert_int_equal(21, v);
	for (uint64_t k = 1; k <= 100000; k++)
		assert_int_equal(0, hashmap_put(&m, k << 20, k * 3));
	assert_int_equal(100001, m.n); /* ~0 and the 100,000 */
	assert_true(m.cap >= 2 * m.n);
	for (uint64_t k = 1; k <= 100000; k++) {
		assert_true(hashmap_get(&m, k << 20, &v));
		assert_int_equal(k * 3, v);
	}
	assert_false(hashmap_get(&m, 100001ULL << 20, NULL));
	assert_true(hashmap_get(&m, 0, NULL));
	hashmap_free(&m);
	assert_false(hashmap_get(&m, 0, NULL));
	assert_false(hashmap_get(&m, 1ULL << 20, NULL));
	assert_int_not_equal(hash_str(hash_str(0, "ab"), "c"),
			     hash_str(hash_str(0, "a"), "bc"));
}

static void test_strtab(void **state)
{
	struct strtab t = { 0 };
	char buf[32];
	const char *a;

	(void)state;
	assert_null(strtab_get(&t, "x"));
	assert_null(strtab_intern(&t, NULL));
	assert_int_equal(0, strtab_put(&t, "leaf01", 5));
	assert_int_equal(5, strtab_put(&t, "leaf01", 9)); /* kept */
	assert_int_equal(5, *strtab_get(&t, "leaf01"));
	*strtab_get(&t, "leaf01") = -1;
	assert_int_equal(-1, *strtab_get(&t, "leaf01"));
	a = strtab_intern(&t, "leaf01");
	snprintf(buf, sizeof(buf), "leaf%02d", 1);
	assert_ptr_equal(a, strtab_intern(&t, buf));
	assert_string_equal("leaf01", a);
	assert_int_equal(0, strtab_put(&t, "", 3));
	assert_int_equal(3, *strtab_get(&t, ""));
	for (int i = 0; i < 50000; i++) {
		snprintf(buf, sizeof(buf), "node%05d mlx5_%d", i, i % 8);
		assert_int_equal(0, strtab_put(&t, buf, i + 1));
	}
	for (int i = 0; i < 50000; i++) {
		snprintf(buf, sizeof(buf), "node%05d mlx5_%d", i, i % 8);
		assert_int_equal(i + 1, *strtab_get(&t, buf));
		assert_string_equal(buf, strtab_intern(&t, buf));
	}
	assert_int_equal(50002, t.n);
	strtab_free(&t);
	assert_null(strtab_get(&t, "leaf01"));
}

static void test_array_reserve(void **state)
{
	int *v = NULL;
	size_t cap = 0;

	(void)state;
	for (size_t n = 0; n < 1000; n++) {
		assert_int_equal(0, array_reserve(&v, &cap, n, sizeof(*v)));
		assert_true(cap > n);
		v[n] = (int)n;
	}
	assert_int_equal(1024, cap);
	for (size_t n = 0; n < 1000; n++)
		assert_int_equal((int)n, v[n]);
	/* a capacity whose bytes overflow size_t is refused, unchanged */
	assert_int_equal(-ENOMEM,
			 array_reserve(&v, &cap, SIZE_MAX / 2, sizeof(*v)));
	assert_int_equal(-ENOMEM, array_reserve(&v, &cap, SIZE_MAX, 1));
	assert_int_equal(1024, cap);
	free(v);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hashmap),
		cmocka_unit_test(test_strtab),
		cmocka_unit_test(test_array_reserve),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
