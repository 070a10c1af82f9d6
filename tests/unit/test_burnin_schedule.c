// SPDX-License-Identifier: MIT
/* burnin schedules: coverage, disjoint rounds, odd n, rails, determinism,
 * node mode partners and their leaves, pairs:FILE errors with file:line. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <errno.h>

#include <cmocka.h>

#include "burnin/burnin.h"

#define MAXP 64

static struct dpath_port ports[MAXP];

/* n ports spread over hosts h0.. with per_host ports each (rail = index). */
static int make_ports(int n_hosts, int per_host)
{
	int n = 0;

	memset(ports, 0, sizeof(ports));
	for (int h = 0; h < n_hosts; h++)
		for (int i = 0; i < per_host; i++, n++) {
			snprintf(ports[n].host, sizeof(ports[n].host), "h%02d",
				 h);
			snprintf(ports[n].ca, sizeof(ports[n].ca), "mlx5_%d",
				 i);
			ports[n].port = 1;
			ports[n].rail = i;
			ports[n].rate_gbps = 100;
		}
	burnin_inventory_sort(ports, n);
	return n;
}

static void build_ok(const char *spec, int n, uint64_t seed,
		     struct burnin_schedule *s)
{
	char err[512] = "";
	int ret = burnin_schedule_build(spec, ports, n, seed, s, err,
					sizeof(err));

	if (ret)
		fail_msg("%s: %s", spec, err);
}

static void assert_disjoint(const struct burnin_schedule *s, int n)
{
	int seen[MAXP];

	for (int r = 0; r < s->n_rounds; r++) {
		memset(seen, 0, sizeof(seen));
		assert_true(burnin_schedule_round_size(s, r) > 0);
		for (int i = s->start[r]; i < s->start[r + 1]; i++) {
			const struct burnin_pair *p = &s->pairs[i];

			assert_true(p->a >= 0 && p->a < n && p->b >= 0 &&
				    p->b < n);
			assert_int_not_equal(p->a, p->b);
			assert_int_equal(0, seen[p->a]++);
			assert_int_equal(0, seen[p->b]++);
		}
	}
}

/* count[a][b] of unordered pairs */
static void count_pairs(const struct burnin_schedule *s, int count[MAXP][MAXP])
{
	memset(count, 0, sizeof(int) * MAXP * MAXP);
	for (int i = 0; i < s->n_pairs; i++) {
		int a = s->pairs[i].a, b = s->pairs[i].b;

		count[a < b ? a : b][a < b ? b : a]++;
	}
}

static void test_all_pairs_every_pair_once(void **state)
{
	static int count[MAXP][MAXP];

	(void)state;
	for (int n = 2; n <= 17; n++) {
		struct burnin_schedule s;

		make_ports(n, 1);
		build_ok("all-pairs", n, 0, &s);
		assert_disjoint(&s, n);
		assert_int_equal(s.n_rounds,
				 n & 1 ? n : n - 1); /* a bye when odd */
		count_pairs(&s, count);
		for (int a = 0; a < n; a++)
			for (int b = a + 1; b < n; b++)
				assert_int_equal(1, count[a][b]);
		assert_int_equal(s.n_pairs, n * (n - 1) / 2);
		burnin_schedule_free(&s);
	}
}

static void test_all_pairs_deterministic_by_seed(void **state)
{
	struct burnin_schedule s1, s2, s3;
	int n = make_ports(4, 3);

	(void)state;
	build_ok("all-pairs", n, 42, &s1);
	build_ok("all-pairs", n, 42, &s2); /* another rank computes the same */
	build_ok("all-pairs", n, 7, &s3);
	assert_int_equal(s1.n_rounds, s2.n_rounds);
	assert_int_equal(s1.n_pairs, s2.n_pairs);
	assert_memory_equal(s1.pairs, s2.pairs,
			    sizeof(*s1.pairs) * (size_t)s1.n_pairs);
	assert_memory_equal(s1.start, s2.start,
			    sizeof(int) * (size_t)(s1.n_rounds + 1));
	assert_int_equal(s1.n_pairs, s3.n_pairs);
	assert_memory_not_equal(s1.pairs, s3.pairs,
				sizeof(*s1.pairs) * (size_t)s1.n_pairs);
	assert_disjoint(&s3, n);
	burnin_schedule_free(&s1);
	burnin_schedule_free(&s2);
	burnin_schedule_free(&s3);
}

static void test_rail_pairs_stay_on_rail(void **state)
{
	static int count[MAXP][MAXP];
	struct burnin_schedule s;
	int n = make_ports(5, 2); /* 5 ports per rail: odd */

	(void)state;
	build_ok("all-pairs", n, 3, &s);
	assert_false(s.rail_bound);
	burnin_schedule_free(&s);
	build_ok("rail", n, 3, &s);
	assert_true(s.rail_bound); /* retests stay on the rail too */
	assert_disjoint(&s, n);
	assert_int_equal(5, s.n_rounds);
	count_pairs(&s, count);
	for (int a = 0; a < n; a++)
		for (int b = a + 1; b < n; b++)
			assert_int_equal(ports[a].rail == ports[b].rail,
					 count[a][b]);
	burnin_schedule_free(&s);
}

static void test_intra_pairs_stay_on_host(void **state)
{
	struct burnin_schedule s;
	int n = make_ports(3, 4);

	(void)state;
	build_ok("intra", n, 0, &s);
	assert_disjoint(&s, n);
	assert_int_equal(3 * 6, s.n_pairs);
	for (int i = 0; i < s.n_pairs; i++)
		assert_string_equal(ports[s.pairs[i].a].host,
				    ports[s.pairs[i].b].host);
	burnin_schedule_free(&s);
}

/* In a full-duplex round a port is at most once A and at most once B. */
static void assert_duplex(const struct burnin_schedule *s, int n)
{
	int as_a[MAXP], as_b[MAXP];

	assert_true(s->duplex);
	for (int r = 0; r < s->n_rounds; r++) {
		memset(as_a, 0, sizeof(as_a));
		memset(as_b, 0, sizeof(as_b));
		for (int i = s->start[r]; i < s->start[r + 1]; i++) {
			const struct burnin_pair *p = &s->pairs[i];

			assert_true(p->a >= 0 && p->a < n && p->b >= 0 &&
				    p->b < n);
			assert_int_not_equal(p->a, p->b);
			assert_int_equal(0, as_a[p->a]++);
			assert_int_equal(0, as_b[p->b]++);
		}
	}
}

/* shift is mpiGraph's: n - 1 full-duplex rounds, round k has every port
 * send to the one k after it, and every ordered pair comes once. */
static void test_shift_every_ordered_pair(void **state)
{
	(void)state;
	for (int n = 2; n <= 9; n++) {
		static int seen[MAXP][MAXP];
		struct burnin_schedule s;

		make_ports(n, 1);
		build_ok("shift", n, 0, &s);
		assert_int_equal(n - 1, s.n_rounds);
		assert_duplex(&s, n);
		memset(seen, 0, sizeof(seen));
		for (int r = 0; r < s.n_rounds; r++) {
			assert_int_equal(n, burnin_schedule_round_size(&s, r));
			for (int i = s.start[r]; i < s.start[r + 1]; i++) {
				seen[s.pairs[i].a][s.pairs[i].b]++;
				assert_int_equal((s.pairs[i].a + r + 1) % n,
						 s.pairs[i].b);
			}
		}
		for (int a = 0; a < n; a++)
			for (int b = 0; b < n; b++)
				assert_int_equal(a != b, seen[a][b]);
		burnin_schedule_free(&s);
	}
}

static void test_random_matchings(void **state)
{
	struct burnin_schedule s;
	int n = make_ports(7, 1);

	(void)state;
	build_ok("random:5", n, 9, &s);
	assert_int_equal(5, s.n_rounds);
	assert_disjoint(&s, n);
	for (int r = 0; r < 5; r++)
		assert_int_equal(3, burnin_schedule_round_size(&s, r));
	burnin_schedule_free(&s);
}

static void test_node_meets_three_partners(void **state)
{
	struct burnin_schedule s;
	int n = make_ports(6, 2), partners[MAXP][MAXP] = { { 0 } };

	(void)state;
	build_ok("node:h02", n, 0, &s);
	assert_disjoint(&s, n);
	for (int i = 0; i < s.n_pairs; i++) {
		const struct burnin_pair *p = &s.pairs[i];

		assert_string_equal("h02",
				    ports[p->a].host); /* target initiates */
		assert_string_not_equal("h02", ports[p->b].host);
		assert_int_equal(ports[p->a].rail, ports[p->b].rail);
		partners[p->a][p->b]++;
	}
	for (int t = 0; t < n; t++) {
		int k = 0;

		for (int q = 0; q < n; q++) {
			assert_true(partners[t][q] <= 1);
			k += partners[t][q];
		}
		assert_int_equal(strcmp(ports[t].host, "h02") ? 0 : 3, k);
	}
	burnin_schedule_free(&s);
}

/* Sets the leaf of every port of host h to leaf (0: unknown). */
static void set_host_leaf(int n, int h, uint64_t leaf)
{
	char host[16];

	snprintf(host, sizeof(host), "h%02d", h);
	for (int i = 0; i < n; i++)
		if (!strcmp(ports[i].host, host))
			ports[i].leaf_guid = leaf;
}

/* How many different known leaves the partners of target t are on. */
static int partner_leaves(const struct burnin_schedule *s, int t, int *partners)
{
	uint64_t seen[MAXP];
	int k = 0;

	*partners = 0;
	for (int i = 0; i < s->n_pairs; i++) {
		uint64_t leaf = ports[s->pairs[i].b].leaf_guid;
		int j = 0;

		if (s->pairs[i].a != t)
			continue;
		++*partners;
		while (j < k && seen[j] != leaf)
			j++;
		if (leaf && j == k)
			seen[k++] = leaf;
	}
	return k;
}

/* The ports of h00 meet 3 partners on 3 leaves, though inventory order
 * puts h01..h03 (one leaf) first. */
static void test_node_spreads_over_leaves(void **state)
{
	struct burnin_schedule s;
	int n = make_ports(7, 2), k;

	(void)state;
	for (int h = 1; h <= 6; h++) /* 12 reference ports, 4 leaves */
		set_host_leaf(n, h, 0xa0 + (h <= 3 ? 1 : h - 2));
	build_ok("node:h00", n, 0, &s);
	assert_disjoint(&s, n);
	assert_int_equal(6, s.n_pairs);
	for (int i = 0; i < s.n_pairs; i++)
		assert_int_equal(ports[s.pairs[i].a].rail,
				 ports[s.pairs[i].b].rail);
	for (int t = 0; t < 2; t++) {
		assert_int_equal(3, partner_leaves(&s, t, &k));
		assert_int_equal(3, k);
	}
	burnin_schedule_free(&s);
}

/* Without leaves node mode keeps its order: the next hosts, rail by rail. */
static void test_node_leaves_unknown_as_before(void **state)
{
	static const char *const want[] = { "h01", "h02", "h03" };
	struct burnin_schedule s;
	int n = make_ports(7, 2);

	(void)state;
	build_ok("node:h00", n, 0, &s);
	assert_int_equal(3, s.n_rounds);
	for (int r = 0; r < 3; r++) {
		assert_int_equal(2, burnin_schedule_round_size(&s, r));
		for (int i = s.start[r]; i < s.start[r + 1]; i++)
			assert_string_equal(want[r], ports[s.pairs[i].b].host);
	}
	burnin_schedule_free(&s);
}

static void test_node_fewer_leaves_than_partners(void **state)
{
	struct burnin_schedule s;
	int n = make_ports(7, 1), k;

	(void)state;
	for (int h = 1; h <= 6; h++)
		set_host_leaf(n, h, h == 6 ? 0xb2 : 0xb1);
	build_ok("node:h00", n, 0, &s);
	assert_int_equal(2, partner_leaves(&s, 0, &k));
	assert_int_equal(3, k);
	burnin_schedule_free(&s);
}

static uint32_t lcg(uint32_t *x)
{
	*x = *x * 1103515245u + 12345u;
	return *x >> 16;
}

/* Known leaves among the partners t may meet (same rail when it has any). */
static int eligible_leaves(int n, int t, const char *hosts, int *eligible)
{
	uint64_t seen[MAXP];
	int k = 0, same_rail = 0;

	for (int q = 0; q < n; q++)
		same_rail += !strstr(hosts, ports[q].host) &&
			     ports[q].rail == ports[t].rail;
	*eligible = 0;
	for (int q = 0; q < n; q++) {
		int j = 0;

		if (strstr(hosts, ports[q].host) ||
		    (same_rail && ports[q].rail != ports[t].rail))
			continue;
		++*eligible;
		while (j < k && seen[j] != ports[q].leaf_guid)
			j++;
		if (ports[q].leaf_guid && j == k)
			seen[k++] = ports[q].leaf_guid;
	}
	return k;
}

/*
 * Random leaves (some unknown), one or two target hosts competing for the
 * same reference ports: every target port meets min(3, eligible) partners
 * on min(3, leaves there) leaves, in disjoint rounds, the same every time.
 */
static void test_node_leaves_property(void **state)
{
	static const char *const specs[] = { "node:h00", "node:h00,h01",
					     "node:h02,h05,h07" };
	uint32_t x = 1;

	(void)state;
	for (int iter = 0; iter < 300; iter++) {
		const char *spec = specs[iter % 3];
		int n = make_ports(8 + iter % 5, 1 + iter % 3), targets = 0;
		struct burnin_schedule s, again;

		for (int i = 0; i < n; i++)
			ports[i].leaf_guid = lcg(&x) % (2 + iter % 5);
		build_ok(spec, n, 0, &s);
		build_ok(spec, n, 0, &again);
		assert_disjoint(&s, n);
		assert_int_equal(s.n_pairs, again.n_pairs);
		assert_memory_equal(s.pairs, again.pairs,
				    sizeof(*s.pairs) * (size_t)s.n_pairs);
		for (int t = 0; t < n; t++) {
			int eligible, k, want_leaves;

			if (!strstr(spec, ports[t].host))
				continue;
			targets++;
			want_leaves = eligible_leaves(n, t, spec, &eligible);
			assert_int_equal(want_leaves < 3 ? want_leaves : 3,
					 partner_leaves(&s, t, &k));
			assert_int_equal(eligible < 3 ? eligible : 3, k);
		}
		assert_true(s.n_rounds <= 3 * targets);
		burnin_schedule_free(&s);
		burnin_schedule_free(&again);
	}
}

static void test_bad_specs(void **state)
{
	struct burnin_schedule s;
	char err[512];
	int n = make_ports(2, 2);

	(void)state;
	assert_int_equal(-EINVAL, burnin_schedule_build("rings", ports, n, 0,
							&s, err, sizeof(err)));
	assert_non_null(strstr(err, "unknown schedule 'rings'"));
	assert_int_equal(-EINVAL, burnin_schedule_build("random:0", ports, n, 0,
							&s, err, sizeof(err)));
	assert_int_equal(-EINVAL, burnin_schedule_build("node:h09", ports, n, 0,
							&s, err, sizeof(err)));
	assert_non_null(strstr(err, "no port of host 'h09'"));
}

static char *write_file(const char *text)
{
	char *path = strdup("/tmp/ibproof-test-pairs-XXXXXX");
	int fd = mkstemp(path);

	assert_true(fd >= 0);
	assert_int_equal((ssize_t)strlen(text), write(fd, text, strlen(text)));
	close(fd);
	return path;
}

static void expect_file_error(const char *text, int line, const char *what)
{
	char *path = write_file(text), spec[600], want[600], err[512] = "";
	struct burnin_schedule s;

	snprintf(spec, sizeof(spec), "pairs:%s", path);
	assert_int_equal(-EINVAL, burnin_schedule_build(spec, ports, 4, 0, &s,
							err, sizeof(err)));
	snprintf(want, sizeof(want), "%s:%d: %s", path, line, what);
	if (strncmp(err, want, strlen(want)))
		fail_msg("got '%s', want '%s...'", err, want);
	unlink(path);
	free(path);
}

static void test_pairs_file(void **state)
{
	char *path, spec[600], err[512] = "";
	struct burnin_schedule s;

	(void)state;
	make_ports(2, 2);
	path = write_file("# explicit rounds\n2 h00:mlx5_0:1 h01:mlx5_0:1\n\n"
			  "1 h00:mlx5_1:1 h01:mlx5_1:1  # rail 1\n"
			  "1 h00:mlx5_0:1 h01:mlx5_0:1\n");
	snprintf(spec, sizeof(spec), "pairs:%s", path);
	assert_int_equal(0, burnin_schedule_build(spec, ports, 4, 0, &s, err,
						  sizeof(err)));
	assert_int_equal(2, s.n_rounds);
	assert_int_equal(2, burnin_schedule_round_size(&s, 0));
	assert_int_equal(1, burnin_schedule_round_size(&s, 1));
	burnin_schedule_free(&s);
	unlink(path);
	free(path);
	expect_file_error("1 h00:mlx5_0:1\n", 1,
			  "expected 'ROUND A_HOST:CA:PORT B_HOST:CA:PORT'");
	expect_file_error("\n1 h00:mlx5_0:1 h01:mlx5_0:1 extra\n", 2,
			  "expected");
	expect_file_error("1 h00:mlx5_0:1 h07:mlx5_0:1\n", 1,
			  "port 'h07:mlx5_0:1' is not in the inventory");
	expect_file_error("1 h00:mlx5_0:1 h00:mlx5_0:1\n", 1,
			  "a port cannot meet itself");
	expect_file_error(
		"1 h00:mlx5_0:1 h01:mlx5_0:1\n1 h00:mlx5_0:1 h00:mlx5_1:1\n", 2,
		"port already A (initiator) in a pair of round 1");
	expect_file_error(
		"1 h00:mlx5_0:1 h01:mlx5_0:1\n1 h00:mlx5_1:1 h01:mlx5_0:1\n", 2,
		"port already B (target) in a pair of round 1");
	expect_file_error("# nothing\n", 1, "no pairs in the file");
}

/* Builds pairs:FILE from text over make_ports(2, 2). */
static void build_pairs_text(const char *text, struct burnin_schedule *s)
{
	char *path = write_file(text), spec[600];

	snprintf(spec, sizeof(spec), "pairs:%s", path);
	build_ok(spec, make_ports(2, 2), 0, s);
	unlink(path);
	free(path);
}

/* A round of pairs:FILE may be full-duplex: a port once A and once B
 * (h01:mlx5_0:1 receives from h00 and sends to h00:mlx5_1). */
static void test_pairs_file_duplex(void **state)
{
	struct burnin_schedule s;

	(void)state;
	build_pairs_text("1 h00:mlx5_0:1 h01:mlx5_0:1\n"
			 "1 h01:mlx5_0:1 h00:mlx5_1:1\n"
			 "2 h00:mlx5_0:1 h01:mlx5_1:1\n",
			 &s);
	assert_int_equal(2, s.n_rounds);
	assert_int_equal(2, burnin_schedule_round_size(&s, 0));
	assert_duplex(&s, 4);
	burnin_schedule_free(&s);
	/* disjoint rounds only: not duplex (--bidir stays allowed) */
	build_pairs_text("1 h00:mlx5_0:1 h01:mlx5_0:1\n", &s);
	assert_false(s.duplex);
	burnin_schedule_free(&s);
}

/* D23: a round past LONG_MAX was read by sscanf's %ld (no defined result)
 * and accepted; it is refused as a bad line. */
static void test_d23_pairs_round_overflow_refused(void **state)
{
	(void)state;
	make_ports(2, 2);
	expect_file_error("99999999999999999999 h00:mlx5_0:1 h01:mlx5_0:1\n", 1,
			  "expected 'ROUND A_HOST:CA:PORT B_HOST:CA:PORT'");
	expect_file_error("1 h00:mlx5_0:1 h01:mlx5_0:1\n"
			  "9223372036854775808 h00:mlx5_1:1 h01:mlx5_1:1\n",
			  2, "expected 'ROUND A_HOST:CA:PORT B_HOST:CA:PORT'");
}

/* D23: an empty pairs file was reported at line 0 ("FILE:0: ..."); it is
 * "FILE: no pairs in the file", and a schedule error (exit 2). */
static void test_d23_pairs_empty_file_no_line_0(void **state)
{
	char *path = write_file(""), spec[600], want[600], err[512] = "";
	struct burnin_schedule s;

	(void)state;
	make_ports(2, 2);
	snprintf(spec, sizeof(spec), "pairs:%s", path);
	assert_int_equal(-EINVAL, burnin_schedule_build(spec, ports, 4, 0, &s,
							err, sizeof(err)));
	snprintf(want, sizeof(want), "%s: no pairs in the file", path);
	assert_string_equal(want, err);
	unlink(path);
	free(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_all_pairs_every_pair_once),
		cmocka_unit_test(test_all_pairs_deterministic_by_seed),
		cmocka_unit_test(test_rail_pairs_stay_on_rail),
		cmocka_unit_test(test_intra_pairs_stay_on_host),
		cmocka_unit_test(test_shift_every_ordered_pair),
		cmocka_unit_test(test_random_matchings),
		cmocka_unit_test(test_node_meets_three_partners),
		cmocka_unit_test(test_node_spreads_over_leaves),
		cmocka_unit_test(test_node_leaves_unknown_as_before),
		cmocka_unit_test(test_node_fewer_leaves_than_partners),
		cmocka_unit_test(test_node_leaves_property),
		cmocka_unit_test(test_bad_specs),
		cmocka_unit_test(test_pairs_file),
		cmocka_unit_test(test_pairs_file_duplex),
		cmocka_unit_test(test_d23_pairs_round_overflow_refused),
		cmocka_unit_test(test_d23_pairs_empty_file_no_line_0),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
