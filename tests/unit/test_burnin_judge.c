// SPDX-License-Identifier: MIT
/* burnin judging: floor, class outliers, blame only with two partners that
 * were fine elsewhere, suspects and their retest round. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "burnin/burnin.h"

#define MAXP 16
#define MAXM 256

static struct burnin_measure m[MAXM];
static struct burnin_port_verdict v[MAXP];
static struct dpath_port ports[MAXP];
static int n_m;

static void reset(void)
{
	n_m = 0;
	memset(m, 0, sizeof(m));
	memset(v, 0, sizeof(v));
	memset(ports, 0, sizeof(ports));
}

static void add(int a, int b, double gbps, double gbps_min, double expected)
{
	m[n_m++] = (struct burnin_measure){ .round = n_m,
					    .a = a,
					    .b = b,
					    .status = BURNIN_PAIR_OK,
					    .gbps = gbps,
					    .gbps_min = gbps_min,
					    .expected_gbps = expected };
}

/* All pairs of n ports; pairs touching slow run at factor x. */
static void all_pairs(int n, int slow, double x)
{
	for (int a = 0; a < n; a++)
		for (int b = a + 1; b < n; b++) {
			double g = a == slow || b == slow ? 95 * x : 95;

			add(a, b, g, g, 100);
		}
}

static void judge(int n)
{
	struct burnin_judge_params jp;

	burnin_judge_defaults(&jp);
	burnin_judge(&jp, m, n_m, v, n);
}

static void test_all_fine(void **state)
{
	(void)state;
	reset();
	all_pairs(8, -1, 1);
	judge(8);
	for (int p = 0; p < 8; p++) {
		assert_int_equal(0, v[p].blame);
		assert_false(v[p].suspect);
		assert_true(v[p].tested);
	}
}

static void test_slow_port_blamed_alone(void **state)
{
	(void)state;
	reset();
	all_pairs(8, 3, 0.5);
	judge(8);
	for (int p = 0; p < 8; p++) {
		assert_int_equal(p == 3 ? BURNIN_BLAME_LOW : 0, v[p].blame);
		assert_false(
			v[p].suspect); /* partners: low only with the blamed port */
	}
	assert_int_equal(7, v[3].low_partners);
}

static void test_one_bad_pair_blames_nobody(void **state)
{
	struct burnin_schedule s = { 0 };
	int seen[MAXP] = { 0 };

	(void)state;
	reset();
	/* 0-1 low; every other pair fine: either end could be at fault */
	for (int a = 0; a < 6; a++)
		for (int b = a + 1; b < 6; b++)
			if (!(a == 0 && b == 2) && !(a == 1 && b == 3))
				add(a, b, a == 0 && b == 1 ? 40 : 95, 90, 100);
	judge(6);
	for (int p = 0; p < 6; p++)
		assert_int_equal(0, v[p].blame);
	assert_true(v[0].suspect && v[1].suspect);
	assert_false(v[2].suspect);
	/* retest: 0 and 1 each meet a fine port they have not met (2 and 3) */
	assert_int_equal(
		2, burnin_judge_retest_round(m, n_m, v, ports, 6, false, &s));
	assert_int_equal(1, s.n_rounds);
	for (int i = 0; i < s.n_pairs; i++) {
		seen[s.pairs[i].a]++;
		seen[s.pairs[i].b]++;
	}
	assert_int_equal(0, s.pairs[0].a);
	assert_int_equal(2, s.pairs[0].b);
	assert_int_equal(1, s.pairs[1].a);
	assert_int_equal(3, s.pairs[1].b);
	burnin_schedule_free(&s);
	/* the retest confirms port 0: low again with a new partner */
	add(0, 2, 40, 38, 100);
	add(1, 3, 95, 90, 100);
	judge(6);
	assert_int_equal(BURNIN_BLAME_LOW, v[0].blame);
	assert_int_equal(0, v[1].blame);
	assert_false(v[1].suspect);
}

/* Schedule rail (separate planes): a suspect is retested on its own rail
 * only; with no fine stranger there, no retest rather than an impossible
 * cross-rail pair. */
static void test_retest_stays_on_rail(void **state)
{
	struct burnin_schedule s = { 0 };

	(void)state;
	reset();
	for (int p = 0; p < 4; p++)
		ports[p].rail = p % 2; /* rail 0: 0, 2; rail 1: 1, 3 */
	add(0, 2, 0, 0, 100);
	m[n_m - 1].status = BURNIN_PAIR_ERROR;
	add(1, 3, 95, 95, 100);
	judge(4);
	assert_true(v[0].suspect && v[2].suspect);
	assert_int_equal(
		0, burnin_judge_retest_round(m, n_m, v, ports, 4, true, &s));
	assert_int_equal(0, s.n_rounds);
	/* one fabric: the other rail's fine ports are strangers to meet */
	assert_int_equal(
		2, burnin_judge_retest_round(m, n_m, v, ports, 4, false, &s));
	for (int i = 0; i < s.n_pairs; i++)
		assert_int_not_equal(ports[s.pairs[i].a].rail,
				     ports[s.pairs[i].b].rail);
	burnin_schedule_free(&s);
}

/* A suspect's retest partner sits on a leaf that its bad partners are not
 * on (when leaves are known): a second bad pair behind the same leaf could
 * be that leaf's fault, not the port's. */
static void test_retest_prefers_a_new_leaf(void **state)
{
	static const uint64_t leaf[6] = { 0xa, 0xb, 0xb, 0xb, 0xc, 0xc };
	struct burnin_schedule s = { 0 };

	(void)state;
	reset();
	add(0, 1, 40, 40, 100); /* 0 (leaf a) low with 1 (leaf b) */
	add(1, 2, 95, 95, 100);
	add(2, 3, 95, 95, 100);
	add(3, 4, 95, 95, 100);
	add(4, 5, 95, 95, 100);
	add(5, 2, 95, 95, 100);
	judge(6);
	assert_true(v[0].suspect && v[1].suspect);
	/* leaves unknown: the first fine stranger */
	assert_int_equal(
		2, burnin_judge_retest_round(m, n_m, v, ports, 6, false, &s));
	assert_int_equal(0, s.pairs[0].a);
	assert_int_equal(2, s.pairs[0].b);
	burnin_schedule_free(&s);
	/* leaves known: 0 meets leaf c, not leaf b again; 1 meets 3 (b is
	 * new to it: its bad partner 0 is on a) */
	for (int p = 0; p < 6; p++)
		ports[p].leaf_guid = leaf[p];
	assert_int_equal(
		2, burnin_judge_retest_round(m, n_m, v, ports, 6, false, &s));
	assert_int_equal(0, s.pairs[0].a);
	assert_int_equal(4, s.pairs[0].b);
	assert_int_equal(1, s.pairs[1].a);
	assert_int_equal(3, s.pairs[1].b);
	burnin_schedule_free(&s);
}

/* All-pairs: everyone met the blamed slow port 7. A pair 0-1 that was low
 * once still gets retested, against ports whose only bad pair is with 7. */
static void test_retest_despite_a_blamed_port(void **state)
{
	struct burnin_schedule s = { 0 };

	(void)state;
	reset();
	all_pairs(8, 7, 0.4);
	for (int j = 0; j < n_m; j++)
		if (m[j].a == 0 && m[j].b == 1)
			m[j].gbps = m[j].gbps_min = 40;
	judge(8);
	assert_int_equal(BURNIN_BLAME_LOW, v[7].blame);
	assert_true(v[0].suspect && v[1].suspect);
	assert_int_equal(
		2, burnin_judge_retest_round(m, n_m, v, ports, 8, false, &s));
	for (int i = 0; i < s.n_pairs; i++) {
		int a = s.pairs[i].a, b = s.pairs[i].b;

		assert_true(a == 0 || a == 1);
		assert_true(b >= 2 && b <= 6);
	}
	burnin_schedule_free(&s);
}

/* node:HOST with one port per node: target 0 slow with references 1, 2, 3,
 * which met nobody else, so none is fine elsewhere. Retests pair the
 * target with an unused reference and the references among themselves or
 * with unused ones; their fine pairs then confirm the target. */
static void target_slow_with_three(void)
{
	reset();
	for (int ref = 1; ref <= 3; ref++)
		add(0, ref, 40, 40, 100);
}

static void test_retest_node_references(void **state)
{
	struct burnin_schedule s = { 0 };

	(void)state;
	target_slow_with_three();
	judge(6); /* 4 and 5: references the schedule left out */
	assert_int_equal(0, v[0].blame);
	assert_true(v[0].suspect && v[1].suspect && v[2].suspect &&
		    v[3].suspect);
	assert_int_equal(
		3, burnin_judge_retest_round(m, n_m, v, ports, 6, false, &s));
	assert_int_equal(0, s.pairs[0].a); /* the target: an unused reference */
	assert_int_equal(4, s.pairs[0].b);
	assert_int_equal(1, s.pairs[1].a);
	assert_int_equal(5, s.pairs[1].b);
	assert_int_equal(2, s.pairs[2].a); /* no unused one left: a suspect */
	assert_int_equal(3, s.pairs[2].b);
	burnin_schedule_free(&s);
	add(0, 4, 40, 40, 100);
	add(1, 5, 95, 95, 100);
	add(2, 3, 95, 95, 100);
	judge(6);
	assert_int_equal(BURNIN_BLAME_LOW, v[0].blame);
	for (int p = 1; p < 6; p++)
		assert_true(!v[p].blame && !v[p].suspect);
	/* no unused reference: two references meet, which is enough */
	target_slow_with_three();
	judge(4);
	assert_int_equal(
		1, burnin_judge_retest_round(m, n_m, v, ports, 4, false, &s));
	assert_int_equal(1, s.pairs[0].a);
	assert_int_equal(2, s.pairs[0].b);
	burnin_schedule_free(&s);
	add(1, 2, 95, 95, 100);
	judge(4);
	assert_int_equal(BURNIN_BLAME_LOW, v[0].blame);
}

/* A link that trained down is slower than what 3/4 of its peers (same link
 * layer and rail) run at; a mixed cluster's even split is not. */
static void test_link_rate_reference(void **state)
{
	struct burnin_judge_params jp;
	int n_peers, n_at;

	(void)state;
	reset();
	burnin_judge_defaults(&jp);
	for (int p = 0; p < 8; p++)
		ports[p].rate_gbps = 100;
	ports[3].rate_gbps = 50;
	ports[5].rate_gbps = 200; /* faster is not degraded */
	assert_true(burnin_link_rate_reference(&jp, ports, 8, 3, &n_peers,
					       &n_at) >= 0);
	assert_int_equal(7, n_peers);
	assert_int_equal(6, n_at);
	assert_int_equal(-1, burnin_link_rate_reference(&jp, ports, 8, 5,
							&n_peers, &n_at));
	assert_int_equal(-1, burnin_link_rate_reference(&jp, ports, 8, 0,
							&n_peers, &n_at));
	/* another rail, or RoCE, are not peers: port 3 alone on rail 1 */
	ports[3].rail = 1;
	assert_int_equal(-1, burnin_link_rate_reference(&jp, ports, 8, 3,
							&n_peers, &n_at));
	assert_int_equal(0, n_peers);
	ports[3].rail = 0;
	ports[3].ethernet = true;
	assert_int_equal(-1, burnin_link_rate_reference(&jp, ports, 8, 3,
							&n_peers, &n_at));
	ports[3].ethernet = false;
	/* 4 nodes of one kind, 4 of another: nobody is degraded */
	for (int p = 0; p < 8; p++)
		ports[p].rate_gbps = p < 4 ? 100 : 200;
	for (int p = 0; p < 8; p++)
		assert_int_equal(-1,
				 burnin_link_rate_reference(&jp, ports, 8, p,
							    &n_peers, &n_at));
	/* --link-rate 200: the 100s are; --link-rate off: none */
	jp.link_rate = 200;
	assert_int_equal(0, burnin_link_rate_reference(&jp, ports, 8, 0,
						       &n_peers, &n_at));
	assert_int_equal(-1, burnin_link_rate_reference(&jp, ports, 8, 4,
							&n_peers, &n_at));
	jp.link_rate = 0;
	ports[0].rate_gbps = 1;
	assert_int_equal(-1, burnin_link_rate_reference(&jp, ports, 8, 0,
							&n_peers, &n_at));
}

/* The class median is the round's when the round has enough pairs of the
 * class: a round slowed as a whole (another job's traffic) marks nobody,
 * its own outlier still stands out. Small rounds use the run's figures. */
static void test_outlier_of_the_round(void **state)
{
	int low = 0;

	(void)state;
	reset();
	for (int r = 0; r < 3; r++)
		for (int i = 0; i < 10; i++) {
			double g = r == 1 ? 50 + i * 0.1 : 95 + i * 0.1;

			if (r == 1 && i == 9)
				g = 20; /* the round's real outlier */
			add(i % 8, (i + 3) % 8, g, g, 0);
			m[n_m - 1].round = r;
		}
	judge(8);
	for (int j = 0; j < n_m; j++)
		low += m[j].low;
	assert_int_equal(1, low);
	assert_true(m[19].low);
	/* rounds of 4 pairs: the run's class, so the slow round is low */
	reset();
	for (int r = 0; r < 5; r++)
		for (int i = 0; i < 4; i++) {
			add(2 * i, 2 * i + 1, r == 1 ? 50 : 95, 95, 0);
			m[n_m - 1].round = r;
		}
	judge(8);
	for (int j = 0; j < n_m; j++)
		assert_int_equal(m[j].round == 1, m[j].low);
}

/* All-pairs, so every partner is an acquaintance: the next retest goes to
 * the fine partner met least, not the same one again. */
static void test_retest_spreads_acquaintances(void **state)
{
	struct burnin_schedule s = { 0 };

	(void)state;
	reset();
	all_pairs(6, -1, 1);
	for (int j = 0; j < n_m; j++)
		if (m[j].a == 0 && m[j].b == 5)
			m[j].status = BURNIN_PAIR_ERROR;
	judge(6);
	assert_int_equal(
		2, burnin_judge_retest_round(m, n_m, v, ports, 6, false, &s));
	assert_int_equal(1, s.pairs[0].b); /* 0 meets 1 again, 5 meets 2 */
	assert_int_equal(2, s.pairs[1].b);
	add(0, 1, 95, 95, 100);
	add(5, 2, 95, 95, 100);
	judge(6);
	assert_int_equal(
		2, burnin_judge_retest_round(m, n_m, v, ports, 6, false, &s));
	assert_int_equal(0, s.pairs[2].a); /* not 1 again: 2, met once */
	assert_int_equal(2, s.pairs[2].b);
	assert_int_equal(5, s.pairs[3].a);
	assert_int_equal(1, s.pairs[3].b);
	burnin_schedule_free(&s);
}

/* make demo's lossy rail, its records as judged (Soft-RoCE, no expected
 * rate, --floor 0 --dip-floor 0): port 1 (10% loss)
 * errors with 0 and is low with 2 (READ from it); 0's one WRITE with 2 is
 * a noise outlier of a 3-pair class. Mixed blame goes strongest evidence
 * first (1: 3 of 4 pairs bad, 0: 3 of 6), so 1 is blamed and explains 0's
 * errors; in port order 0 was blamed and 1 only warned. */
static void test_mixed_blame_strongest_first(void **state)
{
	struct burnin_judge_params jp;

	(void)state;
	reset();
	add(2, 1, 0.34182153043799546, 0.1039036879008067, 0);
	add(2, 1, 0.020463243046101573, 0.006951739310431936, 0);
	m[n_m - 1].test = DPATH_TEST_READ;
	add(1, 0, 0, 0, 0);
	m[n_m - 1].status = BURNIN_PAIR_ERROR;
	m[n_m - 1].error_completions = 35;
	add(1, 0, 0.22103450728271315, 0.22103450728271315, 0);
	m[n_m - 1].test = DPATH_TEST_READ;
	m[n_m - 1].status = BURNIN_PAIR_ERROR;
	m[n_m - 1].error_completions = 16;
	add(0, 2, 0.19682743978454303, 0.1471716753261992, 0);
	add(0, 2, 0.28992216310296115, 0.06671652251089288, 0);
	m[n_m - 1].test = DPATH_TEST_READ;
	add(0, 2, 0.32647708743586257, 0.15857855983499475, 0); /* retest */
	add(0, 2, 0.4455141888722971, 0.3592567753472189, 0);
	m[n_m - 1].test = DPATH_TEST_READ;
	burnin_judge_defaults(&jp);
	jp.pairs.floor = jp.pairs.dip_floor =
		0; /* scripts/demo-cluster's options */
	burnin_judge(&jp, m, n_m, v, 3);
	assert_true(v[1].blame & BURNIN_BLAME_ERRORS);
	assert_int_equal(0, v[0].blame);
	assert_int_equal(0, v[2].blame);
}

/* The link-down case of the vm tier: 3 ports on a rail, the pair 0-2 fails;
 * 0 has more fine pairs than 2, so 2 gets the one fine partner left. */
static void test_retest_least_proven_first(void **state)
{
	struct burnin_schedule s = { 0 };

	(void)state;
	reset();
	add(2, 1, 95, 95, 100);
	add(1, 0, 95, 95, 100);
	add(1, 0, 95, 95, 100);
	add(0, 2, 0, 0, 100);
	m[n_m - 1].status = BURNIN_PAIR_ERROR;
	judge(3);
	assert_true(v[0].suspect && v[2].suspect && !v[1].suspect);
	assert_int_equal(
		1, burnin_judge_retest_round(m, n_m, v, ports, 3, false, &s));
	assert_int_equal(2, s.pairs[0].a);
	assert_int_equal(1, s.pairs[0].b);
	burnin_schedule_free(&s);
	/* 2 fails again with 1, which is fine with 0: 2 is blamed, 0 cleared */
	add(2, 1, 0, 0, 100);
	m[n_m - 1].status = BURNIN_PAIR_ERROR;
	judge(3);
	assert_int_equal(BURNIN_BLAME_ERRORS, v[2].blame);
	assert_int_equal(0, v[0].blame);
	assert_false(v[0].suspect);
}

static void test_partner_must_be_fine_elsewhere(void **state)
{
	(void)state;
	reset();
	/* 0 low with 1 and 2; 1 is fine with 3, but 2 is low everywhere */
	add(0, 1, 40, 40, 100);
	add(0, 2, 40, 40, 100);
	add(1, 3, 95, 95, 100);
	add(2, 3, 40, 40, 100);
	add(3, 4, 95, 95, 100);
	add(1, 4, 95, 95, 100);
	judge(5);
	assert_int_equal(1, v[0].low_partners);
	assert_int_equal(0, v[0].blame);
	assert_true(v[0].suspect);
}

static void add_error(int a, int b)
{
	add(a, b, 0, 0, 100);
	m[n_m - 1].status = BURNIN_PAIR_ERROR;
	m[n_m - 1].error_completions = 1;
}

/*
 * Two intermittent bad ports (fine with one partner each) and a good port
 * that met both: the bad ones are blamed, and the good one is not, though
 * both its bad partners were "fine elsewhere": their blame explains it.
 */
static void test_blamed_partners_do_not_confirm(void **state)
{
	/* port 0: errors with 2, 3, 4; port 1: errors with 2, 6, 7 */
	static const int errors[][2] = { { 0, 2 }, { 0, 3 }, { 0, 4 },
					 { 1, 2 }, { 1, 6 }, { 1, 7 } };
	/* everyone fine with somebody: 0 with 5, 1 with 8, 2 with 5 and 8 */
	static const int fine[][2] = { { 0, 5 }, { 1, 8 }, { 2, 5 }, { 2, 8 },
				       { 3, 5 }, { 4, 5 }, { 6, 8 }, { 7, 8 } };

	(void)state;
	reset();
	for (size_t i = 0; i < sizeof(errors) / sizeof(errors[0]); i++)
		add_error(errors[i][0], errors[i][1]);
	for (size_t i = 0; i < sizeof(fine) / sizeof(fine[0]); i++)
		add(fine[i][0], fine[i][1], 95, 95, 100);
	judge(9);
	assert_int_equal(BURNIN_BLAME_ERRORS, v[0].blame);
	assert_int_equal(BURNIN_BLAME_ERRORS, v[1].blame);
	assert_int_equal(0, v[2].blame);
	assert_int_equal(0, v[2].err_partners);
	assert_false(v[2].suspect);
	for (int p = 3; p < 9; p++)
		assert_int_equal(0, v[p].blame);
}

static void test_floor_and_class_outlier(void **state)
{
	struct burnin_judge_params jp;

	(void)state;
	reset();
	add(0, 1, 85, 85, 100); /* under 90% of expected */
	add(2, 3, 95, 95, 100);
	add(4, 5, 95, 95, 0); /* class of unknown rate (Soft-RoCE) */
	add(6, 7, 96, 96, 0);
	add(8, 9, 94, 94, 0);
	add(10, 11, 60, 60, 0); /* outlier: under median - 3 MAD */
	judge(12);
	assert_true(m[0].low);
	assert_false(m[1].low);
	assert_false(m[2].low || m[3].low || m[4].low);
	assert_true(m[5].low);
	burnin_judge_defaults(&jp);
	jp.pairs.floor = 0; /* --floor 0: only outliers */
	burnin_judge(&jp, m, n_m, v, 12);
	assert_false(m[0].low);
}

static void test_intermittent_and_errors(void **state)
{
	(void)state;
	reset();
	all_pairs(6, -1, 1);
	/* 0-1, 0-2, 0-3: average fine, one window deep down. Three, as
	 * partner 1 is blamed for errors and so no witness (docs/judging.md:
	 * a blamed port is never a witness) */
	m[0].gbps_min = 20;
	m[1].gbps_min = 20;
	m[2].gbps_min = 20;
	m[5].status = BURNIN_PAIR_ERROR; /* 1-2 */
	m[5].error_completions = 4;
	m[6].status = BURNIN_PAIR_ERROR; /* 1-3 */
	judge(6);
	assert_true(m[0].dip && !m[0].low);
	assert_int_equal(BURNIN_BLAME_DIP, v[0].blame);
	assert_int_equal(BURNIN_BLAME_ERRORS, v[1].blame);
	assert_int_equal(0, v[2].blame);
}

/*
 * The demo's lossy Soft-RoCE port: rates unknown (no floor), a noisy class
 * whose MAD hides everything, one pair 20x under the median and one error.
 */
static void test_noisy_class_low_and_error_blamed(void **state)
{
	struct burnin_judge_params jp;

	(void)state;
	reset();
	add(2, 1, 0.0058, 0.0058, 0); /* node3-node2 read: lossy */
	add(1, 0, 0, 0, 0); /* node2-node1 write: retry exceeded */
	m[n_m - 1].status = BURNIN_PAIR_ERROR;
	add(0, 2, 0.238, 0.238, 0);
	add(0, 2, 0.132, 0.132, 0);
	add(0, 2, 0.201, 0.201, 0);
	add(0, 2, 0.126, 0.126, 0);
	burnin_judge_defaults(&jp);
	jp.pairs.floor = 0;
	jp.pairs.dip_floor = 0;
	burnin_judge(&jp, m, n_m, v, 3);
	assert_true(m[0].low);
	assert_int_equal(BURNIN_BLAME_LOW | BURNIN_BLAME_ERRORS, v[1].blame);
	assert_int_equal(0, v[0].blame);
	assert_int_equal(0, v[2].blame);

	jp.pairs.class_floor =
		0; /* --class-floor 0: the MAD alone sees nothing */
	burnin_judge(&jp, m, n_m, v, 3);
	assert_false(m[0].low);
	assert_int_equal(0, v[1].blame);
}

static void test_dip_floor_off(void **state)
{
	struct burnin_judge_params jp;

	(void)state;
	reset();
	all_pairs(6, -1, 1);
	for (int i = 0; i < n_m; i++)
		m[i].gbps_min = 2; /* bursty everywhere, as TCG guests are */
	burnin_judge_defaults(&jp);
	burnin_judge(&jp, m, n_m, v, 6);
	assert_true(m[0].dip);
	jp.pairs.dip_floor = 0; /* --dip-floor 0 */
	burnin_judge(&jp, m, n_m, v, 6);
	for (int i = 0; i < n_m; i++)
		assert_false(m[i].dip);
	for (int p = 0; p < 6; p++)
		assert_false(v[p].blame || v[p].suspect);
}

static void test_not_tested_port(void **state)
{
	(void)state;
	reset();
	add(0, 1, 95, 95, 100);
	m[n_m] = m[0];
	m[n_m].a = 2;
	m[n_m++].status = BURNIN_PAIR_NOT_TESTED;
	judge(3);
	assert_false(v[2].tested);
	assert_true(v[0].tested);
	assert_int_equal(0, v[2].blame);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_all_fine),
		cmocka_unit_test(test_slow_port_blamed_alone),
		cmocka_unit_test(test_one_bad_pair_blames_nobody),
		cmocka_unit_test(test_retest_least_proven_first),
		cmocka_unit_test(test_partner_must_be_fine_elsewhere),
		cmocka_unit_test(test_blamed_partners_do_not_confirm),
		cmocka_unit_test(test_floor_and_class_outlier),
		cmocka_unit_test(test_intermittent_and_errors),
		cmocka_unit_test(test_noisy_class_low_and_error_blamed),
		cmocka_unit_test(test_dip_floor_off),
		cmocka_unit_test(test_not_tested_port),
		cmocka_unit_test(test_retest_stays_on_rail),
		cmocka_unit_test(test_retest_prefers_a_new_leaf),
		cmocka_unit_test(test_retest_despite_a_blamed_port),
		cmocka_unit_test(test_retest_node_references),
		cmocka_unit_test(test_link_rate_reference),
		cmocka_unit_test(test_outlier_of_the_round),
		cmocka_unit_test(test_retest_spreads_acquaintances),
		cmocka_unit_test(test_mixed_blame_strongest_first),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
