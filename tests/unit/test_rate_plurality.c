// SPDX-License-Identifier: MIT
/*
 * The plurality rule of common/ibrate.h (the rate most of a group run at,
 * held by >= 2 and >= 3/4 of them; the higher on a tie), the group with
 * one member left out, and burnin's link-rate check of every port in one
 * pass against the old per-port count over all ports (kept here as the
 * reference) on random inventories.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "burnin/burnin.h"
#include "common/ibrate.h"

static void test_quorum(void **state)
{
	(void)state;
	assert_false(ib_quorum(1, 1)); /* one alone proves nothing */
	assert_true(ib_quorum(2, 2));
	assert_true(ib_quorum(3, 4));
	assert_false(ib_quorum(2, 3));
	assert_true(ib_quorum(6, 8));
	assert_false(ib_quorum(5, 8));
}

static void test_plurality(void **state)
{
	double r1[] = { 100, 100, 50, 100, 200, 100, 100, 100 };
	double r2[] = { 100, 200, 100, 200, 100, 200, 100, 200 };
	double r3[] = { 100.0, 100.005, 99.999, 25 };
	double r4[] = { 7 };
	size_t count;

	(void)state;
	assert_true(ib_rate_plurality(r1, 8, &count) == 100);
	assert_int_equal(count, 6);
	/* a mixed cluster's even split: the higher, but no quorum */
	assert_true(ib_rate_plurality(r2, 8, &count) == 0);
	assert_int_equal(count, 4);
	/* rates closer than IB_RATE_EPS are one */
	assert_true(ib_rate_plurality(r3, 4, &count) > 99.99);
	assert_int_equal(count, 3);
	assert_true(ib_rate_plurality(r4, 1, &count) == 0);
	assert_int_equal(count, 1);
	assert_true(ib_rate_plurality(r4, 0, &count) == 0);
	assert_int_equal(count, 0);
}

/* One member left out: the top may change hands (the higher on a tie). */
static void test_without(void **state)
{
	double a[] = { 100, 100, 100, 200, 200 };
	double b[] = { 100, 100, 200, 200, 200 };
	double c[] = { 100, 100, 50 };
	double d[] = { 100 };
	struct ib_rate_top top;
	double rate;

	(void)state;
	ib_rate_top(a, 5, &top);
	assert_true(top.rate[0] == 100 && top.count[0] == 3);
	assert_true(top.rate[1] == 200 && top.count[1] == 2);
	assert_int_equal(2, ib_rate_top_without(&top, 100, &rate));
	assert_true(rate == 200); /* 2 and 2: the higher */
	assert_int_equal(3, ib_rate_top_without(&top, 200, &rate));
	assert_true(rate == 100);
	ib_rate_top(b, 5, &top);
	assert_int_equal(2, ib_rate_top_without(&top, 200, &rate));
	assert_true(rate == 200);
	ib_rate_top(c, 3, &top);
	assert_int_equal(2, ib_rate_top_without(&top, 50, &rate));
	assert_true(rate == 100);
	assert_int_equal(1, ib_rate_top_without(&top, 100, &rate));
	assert_true(rate == 100);
	ib_rate_top(d, 1, &top);
	assert_int_equal(0, ib_rate_top_without(&top, 100, &rate));
}

/* The rule as burnin counted it before, port by port over all ports. */
static int reference_old(const struct dpath_port *ports, int n, int p,
			 int *n_peers, int *n_at)
{
	double rates[64];
	int counts[64], first[64], n_r = 0, best = -1;

	*n_peers = *n_at = 0;
	for (int q = 0; q < n; q++) {
		int k = 0;

		if (q == p || ports[q].ethernet != ports[p].ethernet ||
		    ports[q].rail != ports[p].rail)
			continue;
		++*n_peers;
		while (k < n_r && !(ports[q].rate_gbps > rates[k] - 0.01 &&
				    ports[q].rate_gbps < rates[k] + 0.01))
			k++;
		if (k == n_r) {
			rates[n_r] = ports[q].rate_gbps;
			counts[n_r] = 0;
			first[n_r++] = q;
		}
		counts[k]++;
	}
	for (int k = 0; k < n_r; k++)
		if (best < 0 || counts[k] > counts[best] ||
		    (counts[k] == counts[best] && rates[k] > rates[best]))
			best = k;
	if (best < 0)
		return -1;
	*n_at = counts[best];
	if (counts[best] < 2 || 4 * counts[best] < 3 * *n_peers ||
	    ports[p].rate_gbps >= rates[best] - 0.01)
		return -1;
	return first[best];
}

/* Random inventories (2 link layers, 3 rails, 4 rates, mostly one):
 * every port's reference, peers and peers at the rate as before. */
static void test_burnin_one_pass(void **state)
{
	static const double rates[] = { 100, 50, 200, 25 };
	struct dpath_port ports[40];
	struct burnin_rate_ref out[40];
	struct burnin_judge_params jp;

	(void)state;
	srand(14);
	burnin_judge_defaults(&jp);
	for (int trial = 0; trial < 2000; trial++) {
		int n = 1 + rand() % 40;

		memset(ports, 0, sizeof(ports));
		for (int p = 0; p < n; p++) {
			int r = rand() % 10;

			ports[p].ethernet = rand() % 8 == 0;
			ports[p].rail = rand() % 3;
			ports[p].rate_gbps = rates[r < 7 ? 0 : r - 6];
		}
		assert_int_equal(
			0, burnin_link_rate_references(&jp, ports, n, out));
		for (int p = 0; p < n; p++) {
			int peers, at,
				ref = reference_old(ports, n, p, &peers, &at);

			assert_int_equal(out[p].n_peers, peers);
			assert_int_equal(out[p].n_at_rate, at);
			assert_int_equal(out[p].ref < 0, ref < 0);
			if (ref >= 0)
				assert_true(ports[out[p].ref].rate_gbps ==
					    ports[ref].rate_gbps);
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_quorum),
		cmocka_unit_test(test_plurality),
		cmocka_unit_test(test_without),
		cmocka_unit_test(test_burnin_one_pass),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
