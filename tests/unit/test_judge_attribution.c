// SPDX-License-Identifier: MIT
/*
 * Attribution scenarios on plain arrays through the one pair judge
 * (judge/pairjudge.c; once reports/attribute.c's): one bad HCA port among
 * 64; two bad ports sharing a partner; noise with no fault (the noise
 * guard); a single low pair; a port low with only one partner.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "judge/pairjudge.h"

enum { ATTR_OK, ATTR_LOW, ATTR_UNTESTED };

struct attr_pair {
	uint32_t a, b;
	uint8_t verdict;
};

struct scenario {
	struct attr_pair *pairs;
	size_t n, cap;
};

static void add(struct scenario *s, uint32_t a, uint32_t b, uint8_t verdict)
{
	if (s->n == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 256;
		s->pairs = realloc(s->pairs, s->cap * sizeof(*s->pairs));
		assert_non_null(s->pairs);
	}
	s->pairs[s->n++] = (struct attr_pair){ a, b, verdict };
}

static uint64_t rng = 12345;

static double uniform(void)
{
	rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
	return (double)(rng >> 11) / 9007199254740992.0;
}

/* All pairs of n ports; pairs touching a bad port are low. */
static void all_pairs(struct scenario *s, uint32_t n, const int *bad,
		      double noise)
{
	for (uint32_t a = 0; a < n; a++)
		for (uint32_t b = a + 1; b < n; b++) {
			int low = bad[a] || bad[b] || uniform() < noise;

			add(s, a, b, low ? ATTR_LOW : ATTR_OK);
		}
}

/* A low pair at a tenth of its expected rate, a fine one at 95 %. */
static struct judge_port *run(struct scenario *s, size_t nports)
{
	struct judge_pair *in = calloc(s->n + 1, sizeof(*in));
	struct judge_port *ports = calloc(nports, sizeof(*ports));
	struct judge_params p;
	struct judge_result res;

	assert_non_null(in);
	assert_non_null(ports);
	for (size_t i = 0; i < s->n; i++) {
		float g = s->pairs[i].verdict == ATTR_LOW ? 10 : 95;

		in[i] = (struct judge_pair){
			.a = s->pairs[i].a,
			.b = s->pairs[i].b,
			.status = s->pairs[i].verdict == ATTR_UNTESTED
					  ? JUDGE_PAIR_NOT_TESTED
					  : JUDGE_PAIR_OK,
			.expected = 100,
			.gbps = g,
			.gbps_min = g,
		};
	}
	judge_defaults(&p);
	assert_int_equal(0, judge_pairs(&p, in, s->n, nports, &res));
	memcpy(ports, res.ports, nports * sizeof(*ports));
	judge_result_free(&res);
	free(in);
	return ports;
}

static size_t blamed_count(const struct judge_port *ports, size_t n)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++)
		k += ports[i].blame != 0;
	return k;
}

static void test_one_bad_port_among_64(void **state)
{
	struct scenario s = { 0 };
	int bad[64] = { 0 };
	struct judge_port *ports;

	(void)state;
	bad[17] = 1;
	all_pairs(&s, 64, bad, 0);
	ports = run(&s, 64);
	assert_int_equal(1, blamed_count(ports, 64));
	assert_true(ports[17].blame);
	assert_int_equal(63, ports[17].witnesses[JUDGE_N_KINDS]);
	assert_int_equal(63, ports[17].bad_partners);
	assert_true(ports[17].confidence > 0.99f);
	for (int i = 0; i < 64; i++)
		assert_false(ports[i].suspect);
	free(ports);
	free(s.pairs);
}

/* X and Y are bad; Z met both (and others, fine with them). */
static void test_two_bad_ports_sharing_a_partner(void **state)
{
	enum { X, Y, Z, A, B, C, D, N };
	struct scenario s = { 0 };
	struct judge_port *ports;

	(void)state;
	add(&s, X, Z, ATTR_LOW);
	add(&s, X, A, ATTR_LOW);
	add(&s, X, B, ATTR_LOW);
	add(&s, Y, Z, ATTR_LOW);
	add(&s, Y, C, ATTR_LOW);
	add(&s, Y, D, ATTR_LOW);
	add(&s, Z, A, ATTR_OK);
	add(&s, Z, C, ATTR_OK);
	add(&s, A, B, ATTR_OK);
	add(&s, C, D, ATTR_OK);
	add(&s, A, D, ATTR_OK);
	add(&s, B, C, ATTR_OK);
	ports = run(&s, N);
	assert_true(ports[X].blame);
	assert_true(ports[Y].blame);
	assert_int_equal(2, blamed_count(ports, N));
	assert_false(ports[Z].suspect);
	/* Z was low with Y too when X was judged: A and B vouch for it */
	assert_int_equal(2, ports[X].witnesses[JUDGE_N_KINDS]);
	free(ports);
	free(s.pairs);
}

/* The same with all-pairs on 32 ports: every port shares both of them. */
static void test_two_bad_ports_all_pairs(void **state)
{
	struct scenario s = { 0 };
	int bad[32] = { 0 };
	struct judge_port *ports;

	(void)state;
	bad[3] = bad[9] = 1;
	all_pairs(&s, 32, bad, 0);
	ports = run(&s, 32);
	assert_int_equal(2, blamed_count(ports, 32));
	assert_true(ports[3].blame && ports[9].blame);
	free(ports);
	free(s.pairs);
}

/* 1 % of pairs low at random, several measurements each: nobody blamed. */
static void test_noise_blames_nobody(void **state)
{
	int bad[64] = { 0 };

	(void)state;
	for (int seed = 1; seed <= 20; seed++) {
		struct scenario s = { 0 };
		struct judge_port *ports;

		rng = (uint64_t)seed * 7919;
		all_pairs(&s, 64, bad, 0.01);
		all_pairs(&s, 64, bad, 0.01);
		ports = run(&s, 64);
		assert_int_equal(0, blamed_count(ports, 64));
		free(ports);
		free(s.pairs);
	}
}

/* One low pair blames no one; a port low with one partner only is not
 * blamed either, however often that pair was measured. */
static void test_one_pair_blames_no_one(void **state)
{
	struct scenario s = { 0 };
	int bad[8] = { 0 };
	struct judge_port *ports;

	(void)state;
	all_pairs(&s, 8, bad, 0);
	for (int i = 0; i < 5; i++)
		add(&s, 2, 5, ATTR_LOW);
	ports = run(&s, 8);
	assert_int_equal(0, blamed_count(ports, 8));
	free(ports);
	free(s.pairs);
}

/* Untested pairs count for nothing. */
static void test_untested_pairs_ignored(void **state)
{
	struct scenario s = { 0 };
	struct judge_port *ports;

	(void)state;
	for (uint32_t b = 1; b < 10; b++)
		add(&s, 0, b, ATTR_UNTESTED);
	ports = run(&s, 10);
	assert_int_equal(0, blamed_count(ports, 10));
	assert_int_equal(0, ports[0].n_meas);
	free(ports);
	free(s.pairs);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_one_bad_port_among_64),
		cmocka_unit_test(test_two_bad_ports_sharing_a_partner),
		cmocka_unit_test(test_two_bad_ports_all_pairs),
		cmocka_unit_test(test_noise_blames_nobody),
		cmocka_unit_test(test_one_pair_blames_no_one),
		cmocka_unit_test(test_untested_pairs_ignored),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
