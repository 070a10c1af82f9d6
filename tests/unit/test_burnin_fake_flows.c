// SPDX-License-Identifier: MIT
/* The fake fabric's flow model (burnin/fake_flows.c): max-min fair rates
 * with exact figures, and the planted cable faults. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "burnin/fake_flows.h"

#define EPS 1e-9

static void two_flows_share_a_cable_at_half(void **state)
{
	const double cap[] = { 100, 100, 100 };
	const int a[] = { 0, 1 }, b[] = { 2, 1 };
	struct burnin_flow f[] = { { a, 2, 0 }, { b, 2, 0 } };
	double r[2];

	(void)state;
	assert_int_equal(burnin_flows_maxmin(cap, 3, f, 2, r), 0);
	assert_float_equal(r[0], 50, EPS);
	assert_float_equal(r[1], 50, EPS);
}

static void a_flow_bottlenecked_elsewhere_leaves_the_rest(void **state)
{
	const double cap[] = { 20, 100, 100 };
	const int a[] = { 0, 1 }, b[] = { 2, 1 };
	struct burnin_flow f[] = { { a, 2, 0 }, { b, 2, 0 } };
	double r[2];

	(void)state;
	assert_int_equal(burnin_flows_maxmin(cap, 3, f, 2, r), 0);
	assert_float_equal(r[0], 20, EPS);
	assert_float_equal(r[1], 80, EPS);
}

static void a_flows_own_cap_leaves_the_rest(void **state)
{
	const double cap[] = { 100, 100, 100 };
	const int a[] = { 0, 1 }, b[] = { 2, 1 };
	struct burnin_flow f[] = { { a, 2, 30 }, { b, 2, 0 } };
	double r[2];

	(void)state;
	assert_int_equal(burnin_flows_maxmin(cap, 3, f, 2, r), 0);
	assert_float_equal(r[0], 30, EPS);
	assert_float_equal(r[1], 70, EPS);
}

/* The textbook case: a long flow over two cables, one short flow on each. */
static void a_long_flow_and_two_short_ones(void **state)
{
	const double cap[] = { 10, 20 };
	const int lng[] = { 0, 1 }, s0[] = { 0 }, s1[] = { 1 };
	struct burnin_flow f[] = { { lng, 2, 0 }, { s0, 1, 0 }, { s1, 1, 0 } };
	double r[3];

	(void)state;
	assert_int_equal(burnin_flows_maxmin(cap, 2, f, 3, r), 0);
	assert_float_equal(r[0], 5, EPS);
	assert_float_equal(r[1], 5, EPS);
	assert_float_equal(r[2], 15, EPS);
}

static void flows_alone_run_at_their_cable_or_cap(void **state)
{
	const double cap[] = { 100, 200 };
	const int a[] = { 0 }, b[] = { 1 };
	struct burnin_flow f[] = { { a, 1, 0 }, { b, 1, 150 }, { NULL, 0, 0 } };
	double r[3];

	(void)state;
	assert_int_equal(burnin_flows_maxmin(cap, 2, f, 3, r), 0);
	assert_float_equal(r[0], 100, EPS);
	assert_float_equal(r[1], 150, EPS);
	assert_float_equal(r[2], 0, EPS);
}

static void a_slow_cable_slows_every_flow_through_it(void **state)
{
	const double base[] = { 100, 100, 100 };
	struct burnin_flow_fault faults[] = { { 1, 1, 0 },
					      { 0.5, 1, 0 },
					      { 1, 1, 0 } };
	const int a[] = { 0, 1 }, b[] = { 2, 1 }, c[] = { 2 };
	struct burnin_flow f[] = { { a, 2, 0 }, { b, 2, 0 }, { c, 1, 0 } };
	double cap[3], r[3];

	(void)state;
	burnin_flows_capacities(base, faults, 3, 0, 7, cap);
	assert_float_equal(cap[1], 50, EPS);
	assert_int_equal(burnin_flows_maxmin(cap, 3, f, 3, r), 0);
	assert_float_equal(r[0], 25, EPS);
	assert_float_equal(r[1], 25, EPS);
	assert_float_equal(r[2], 75, EPS); /* cable 2 left to it */
	assert_false(burnin_flows_any_flaky(faults, f, 3));
}

static void a_flaky_cable_dips_in_some_windows(void **state)
{
	const double base[] = { 100, 100 };
	struct burnin_flow_fault faults[] = { { 1, 1, 0 }, { 1, 0.25, 0 } };
	const int a[] = { 1 };
	struct burnin_flow f[] = { { a, 1, 0 } };
	int dips = 0, dips_other_seed = 0, same = 0;
	double cap[2];

	(void)state;
	for (long w = 0; w < 1000; w++) {
		bool dip = burnin_flows_dip(42, 1, w);

		burnin_flows_capacities(base, faults, 2, 42, w, cap);
		assert_float_equal(cap[1], dip ? 25 : 100, EPS);
		assert_float_equal(cap[0], 100, EPS);
		dips += dip;
		dips_other_seed += burnin_flows_dip(43, 1, w);
		same += dip == burnin_flows_dip(42, 1, w); /* deterministic */
	}
	assert_int_equal(same, 1000);
	assert_in_range(dips, 200, 300); /* about 1 window in 4 */
	assert_in_range(dips_other_seed, 200, 300);
	assert_true(burnin_flows_any_flaky(faults, f, 1));
}

static void errors_are_the_worst_on_the_path(void **state)
{
	struct burnin_flow_fault faults[] = { { 1, 1, 0 },
					      { 1, 1, 7 },
					      { 1, 1, 3 } };
	const int a[] = { 0, 1, 2 }, b[] = { 0 };
	struct burnin_flow f[] = { { a, 3, 0 }, { b, 1, 0 } };

	(void)state;
	assert_int_equal(burnin_flow_errors(faults, &f[0]), 7);
	assert_int_equal(burnin_flow_errors(faults, &f[1]), 0);
	assert_int_equal(burnin_flow_errors(NULL, &f[0]), 0);
}

static void a_path_outside_the_cables_is_refused(void **state)
{
	const double cap[] = { 100 };
	const int a[] = { 0, 1 };
	struct burnin_flow f[] = { { a, 2, 0 } };
	double r[1];

	(void)state;
	assert_int_equal(burnin_flows_maxmin(cap, 1, f, 1, r), -EINVAL);
}

/*
 * Adaptive routing sprays each flow evenly over two up-links (share 0.5
 * each): with both at 100 the two flows run at 100 each (a flow needs
 * only half of each); with one up-link at 40 every packet half still
 * crosses it, so each flow is held to 2 x 40 / 2 = 40 — the slow cable
 * slows every flow AR spreads over it, and no flow avoids it.
 */
static void a_spread_flow_is_held_by_its_slowest_share(void **state)
{
	const int a[] = { 0, 1, 2 }, b[] = { 3, 1, 2 };
	const double half[] = { 1, 0.5, 0.5 };
	struct burnin_flow f[] = { { a, 3, 0, half }, { b, 3, 0, half } };
	double cap[] = { 100, 100, 100, 100 }, r[2];

	(void)state;
	assert_int_equal(burnin_flows_maxmin(cap, 4, f, 2, r), 0);
	assert_float_equal(r[0], 100, EPS);
	assert_float_equal(r[1], 100, EPS);
	cap[2] = 40;
	assert_int_equal(burnin_flows_maxmin(cap, 4, f, 2, r), 0);
	assert_float_equal(r[0], 40, EPS);
	assert_float_equal(r[1], 40, EPS);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(a_spread_flow_is_held_by_its_slowest_share),
		cmocka_unit_test(two_flows_share_a_cable_at_half),
		cmocka_unit_test(a_flow_bottlenecked_elsewhere_leaves_the_rest),
		cmocka_unit_test(a_flows_own_cap_leaves_the_rest),
		cmocka_unit_test(a_long_flow_and_two_short_ones),
		cmocka_unit_test(flows_alone_run_at_their_cable_or_cap),
		cmocka_unit_test(a_slow_cable_slows_every_flow_through_it),
		cmocka_unit_test(a_flaky_cable_dips_in_some_windows),
		cmocka_unit_test(errors_are_the_worst_on_the_path),
		cmocka_unit_test(a_path_outside_the_cables_is_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
