// SPDX-License-Identifier: MIT
/* rdma/verbs_meter.c: the per-100 ms window math behind gbps/gbps_min. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "rdma/verbs_meter.h"

#define MS 1000000ll

static void test_steady_stream(void **state)
{
	struct dpath_meter m;
	double s, g, gmin;

	(void)state;
	assert_int_equal(0, dpath_meter_init(&m, 0, 1000 * MS, 100 * MS));
	for (int t = 1; t <= 1000; t++) /* 1 MB per ms = 8 Gb/s */
		dpath_meter_add(&m, t * MS, 1000000);
	dpath_meter_result(&m, 1000 * MS, &s, &g, &gmin);
	assert_float_equal(1.0, s, 1e-9);
	assert_float_equal(8.0, g, 1e-6);
	assert_float_equal(8.0, gmin, 1e-6);
	dpath_meter_free(&m);
}

static void test_warmup_and_drain_excluded(void **state)
{
	struct dpath_meter m;
	double s, g, gmin;

	(void)state;
	/* Window [500, 1500) ms; traffic from 0 to 2000 ms at 8 Gb/s. */
	assert_int_equal(0,
			 dpath_meter_init(&m, 500 * MS, 1500 * MS, 100 * MS));
	for (int t = 1; t <= 2000; t++)
		dpath_meter_add(&m, t * MS, 1000000);
	dpath_meter_result(&m, 1500 * MS, &s, &g, &gmin);
	assert_float_equal(1e9, m.bytes, 1e-3);
	assert_float_equal(8.0, g, 1e-6);
	assert_float_equal(8.0, gmin, 1e-6);
	dpath_meter_free(&m);
}

/* One 10 MB message every 200 ms: every 100 ms window carries traffic. */
static void test_large_messages_are_spread(void **state)
{
	struct dpath_meter m;
	double s, g, gmin;

	(void)state;
	assert_int_equal(0, dpath_meter_init(&m, 0, 1000 * MS, 100 * MS));
	for (int t = 200; t <= 1000; t += 200)
		dpath_meter_add(&m, t * MS, 10000000);
	dpath_meter_result(&m, 1000 * MS, &s, &g, &gmin);
	assert_float_equal(0.4, g, 1e-9);
	assert_float_equal(0.4, gmin, 1e-9);
	dpath_meter_free(&m);
}

/* Nothing between 300 and 600 ms: the lowest window shows it. */
static void test_gap_lowers_min(void **state)
{
	struct dpath_meter m;
	double s, g, gmin;

	(void)state;
	assert_int_equal(0, dpath_meter_init(&m, 0, 1000 * MS, 100 * MS));
	for (int t = 10; t <= 1000; t += 10)
		if (t <= 300 || t > 600)
			dpath_meter_add(&m, t * MS, 10000000);
	dpath_meter_result(&m, 1000 * MS, &s, &g, &gmin);
	assert_true(g > 5.0);
	assert_true(gmin < 0.1 * g);
	/* The message completing at 610 ms is spread over 300..610 ms. */
	assert_float_equal(10e6 * 100 / 310 * 8 / 1e8, gmin, 1e-6);
	dpath_meter_free(&m);
}

static void test_early_stop_and_same_instant(void **state)
{
	struct dpath_meter m;
	double s, g, gmin;

	(void)state;
	assert_int_equal(0, dpath_meter_init(&m, 0, 1000 * MS, 100 * MS));
	for (int t = 1; t <= 550; t++) {
		dpath_meter_add(&m, t * MS, 500000);
		dpath_meter_add(&m, t * MS, 500000); /* same instant */
	}
	dpath_meter_result(&m, 550 * MS, &s, &g, &gmin);
	assert_float_equal(0.55, s, 1e-9);
	assert_float_equal(8.0, g, 1e-6);
	assert_float_equal(8.0, gmin, 1e-6); /* the partial window left out */
	dpath_meter_free(&m);
	/* Stopped within the first window: min is the average. */
	assert_int_equal(0, dpath_meter_init(&m, 0, 1000 * MS, 100 * MS));
	dpath_meter_add(&m, 50 * MS, 1000000);
	dpath_meter_result(&m, 50 * MS, &s, &g, &gmin);
	assert_float_equal(g, gmin, 1e-12);
	assert_float_equal(0.16, g, 1e-9);
	dpath_meter_free(&m);
	assert_int_equal(-EINVAL, dpath_meter_init(&m, 5, 5, 100 * MS));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_steady_stream),
		cmocka_unit_test(test_warmup_and_drain_excluded),
		cmocka_unit_test(test_large_messages_are_spread),
		cmocka_unit_test(test_gap_lowers_min),
		cmocka_unit_test(test_early_stop_and_same_instant),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
