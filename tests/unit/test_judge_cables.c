// SPDX-License-Identifier: MIT
/*
 * Judging by route (judge/cablejudge.h): a two-level fat tree of 4 leaves,
 * 4 spines and 4 hosts a leaf, routed as opensm's ftree does (the flow to
 * host i of a leaf goes up to spine i, so each spine-to-leaf cable carries
 * the traffic of exactly one host), bidirectional all-pairs (both
 * directions' cables on each pair's path). A planted slow up-link blames
 * that cable and no HCA; a slow HCA blames the HCA and no cable; a slow
 * down-link blames the cable when the host's intra-leaf pairs are fine,
 * and is ambiguous (naming the cable and the host) without them; an
 * erroring cable is blamed from its counters. Two cables with the same
 * pairs are one ambiguous group, in either order of the pairs. A host bad
 * receiving (its sends fine) keeps the down-link into it clear.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "judge/cablejudge.h"

#define LEAVES 8
#define SPINES 8
#define HOSTS 8 /* a leaf */
#define PORTS (LEAVES * HOSTS)
#define N_UP (LEAVES * SPINES)
#define N_CABLES (2 * N_UP + 2 * PORTS) /* up, down, host links */
#define MAX_PAIRS (PORTS * PORTS)
#define MAX_PATH 8

static uint32_t up(int leaf, int spine)
{
	return (uint32_t)(leaf * SPINES + spine);
}

static uint32_t down(int spine, int leaf)
{
	return (uint32_t)(N_UP + spine * LEAVES + leaf);
}

static uint32_t host_link(int port, int to_leaf)
{
	return (uint32_t)(2 * N_UP + 2 * port + to_leaf);
}

struct fabric {
	struct judge_pair pairs[MAX_PAIRS];
	uint32_t path_start[MAX_PAIRS + 1];
	uint32_t path_cables[MAX_PAIRS * MAX_PATH];
	struct judge_cable_in cables[N_CABLES];
	size_t n_pairs;
	/* the fault */
	int slow_port;
	uint32_t slow_cable;
};

/* The directed path a -> b, appended. */
static void route(struct fabric *f, uint32_t *n, int a, int b)
{
	int la = a / HOSTS, lb = b / HOSTS, spine = b % HOSTS;

	f->path_cables[(*n)++] = host_link(a, 1);
	if (la != lb) {
		f->path_cables[(*n)++] = up(la, spine);
		f->path_cables[(*n)++] = down(spine, lb);
	}
	f->path_cables[(*n)++] = host_link(b, 0);
}

static bool crosses(const struct fabric *f, size_t i, uint32_t c)
{
	for (uint32_t j = f->path_start[i]; j < f->path_start[i + 1]; j++)
		if (f->path_cables[j] == c)
			return true;
	return false;
}

/* Bidirectional all-pairs, intra-leaf pairs or not. */
static void build(struct fabric *f, bool intra_leaf, int slow_port,
		  uint32_t slow_cable)
{
	uint32_t n = 0;

	memset(f, 0, sizeof(*f));
	for (uint32_t c = 0; c < N_CABLES; c++)
		f->cables[c] =
			(struct judge_cable_in){ .inter_switch = c < 2 * N_UP,
						 .has_counters = true };
	for (int a = 0; a < PORTS; a++)
		for (int b = a + 1; b < PORTS; b++) {
			struct judge_pair *p = &f->pairs[f->n_pairs];

			if (!intra_leaf && a / HOSTS == b / HOSTS)
				continue;
			*p = (struct judge_pair){ .a = (uint32_t)a,
						  .b = (uint32_t)b,
						  .bidir = 1,
						  .expected = 100,
						  .gbps = 97,
						  .gbps_min = 95 };
			f->path_start[f->n_pairs] = n;
			route(f, &n, a, b);
			route(f, &n, b, a);
			f->n_pairs++;
		}
	f->path_start[f->n_pairs] = n;
	for (size_t i = 0; i < f->n_pairs; i++) {
		struct judge_pair *p = &f->pairs[i];

		if ((int)p->a == slow_port || (int)p->b == slow_port ||
		    (slow_cable != UINT32_MAX && crosses(f, i, slow_cable)))
			p->gbps = p->gbps_min = 48;
	}
}

struct verdicts {
	struct judge_result res;
	struct judge_cable_result cab;
};

static void judge(struct fabric *f, struct verdicts *v)
{
	struct judge_params jp;
	struct judge_cable_params cp;
	struct judge_routes rt = { f->path_start, f->path_cables, f->cables,
				   N_CABLES };

	judge_defaults(&jp);
	judge_cable_defaults(&cp);
	assert_int_equal(judge_pairs(&jp, f->pairs, f->n_pairs, PORTS, &v->res),
			 0);
	assert_int_equal(judge_cables(&cp, f->pairs, &rt, &v->res, &v->cab), 0);
}

static int n_blamed_ports(const struct verdicts *v)
{
	int n = 0;

	for (size_t p = 0; p < v->res.n_ports; p++)
		n += v->res.ports[p].blame != 0;
	return n;
}

static int n_cables_with(const struct verdicts *v, uint8_t verdict)
{
	int n = 0;

	for (size_t c = 0; c < v->cab.n_cables; c++)
		n += v->cab.cables[c].verdict == verdict;
	return n;
}

static void done(struct verdicts *v)
{
	judge_cable_result_free(&v->cab);
	judge_result_free(&v->res);
}

static struct fabric fab;

static void slow_uplink_blames_cable_not_hca(void **state)
{
	struct verdicts v;
	uint32_t c = up(0, 1);

	(void)state;
	build(&fab, true, -1, c);
	judge(&fab, &v);
	assert_int_equal(v.cab.cables[c].verdict, JUDGE_CABLE_BLAMED);
	assert_true(v.cab.cables[c].by & JUDGE_CABLE_BY_ROUTE);
	assert_int_equal(v.cab.cables[c].or_port, JUDGE_NO_PORT);
	assert_true(v.cab.cables[c].fine_ends >= 2);
	assert_true(v.cab.cables[c].bad & JUDGE_LOW);
	assert_int_equal(n_cables_with(&v, JUDGE_CABLE_BLAMED), 1);
	assert_int_equal(n_cables_with(&v, JUDGE_CABLE_AMBIGUOUS), 0);
	assert_int_equal(n_blamed_ports(&v), 0);
	for (size_t p = 0; p < PORTS; p++)
		assert_false(v.res.ports[p].suspect);
	done(&v);
}

static void slow_hca_blames_hca_not_cable(void **state)
{
	struct verdicts v;
	int h = 1 * HOSTS + 2;

	(void)state;
	build(&fab, true, h, UINT32_MAX);
	judge(&fab, &v);
	assert_int_equal(n_cables_with(&v, JUDGE_CABLE_BLAMED), 0);
	assert_int_equal(n_cables_with(&v, JUDGE_CABLE_AMBIGUOUS), 0);
	/* its down-link: every pair through it is the host's, bad too
	 * within the leaf: the port's */
	assert_int_equal(v.cab.cables[down(2, 1)].verdict, JUDGE_CABLE_PORT);
	assert_int_equal(v.cab.cables[down(2, 1)].or_port, (uint32_t)h);
	assert_true(v.res.ports[h].blame & JUDGE_LOW);
	assert_int_equal(n_blamed_ports(&v), 1);
	assert_int_equal(v.cab.cleared[h], 0);
	done(&v);
}

static void slow_downlink_with_intra_leaf_blames_cable(void **state)
{
	struct verdicts v;
	uint32_t c = down(2, 3);
	int h = 3 * HOSTS + 2;

	(void)state;
	build(&fab, true, -1, c);
	judge(&fab, &v);
	assert_int_equal(v.cab.cables[c].verdict, JUDGE_CABLE_BLAMED);
	assert_int_equal(v.cab.cables[c].or_port, (uint32_t)h);
	assert_int_equal(v.cab.cables[c].or_port_meas, HOSTS - 1);
	assert_int_equal(v.cab.cables[c].or_port_bad, 0);
	assert_int_equal(n_cables_with(&v, JUDGE_CABLE_BLAMED), 1);
	assert_int_equal(n_blamed_ports(&v), 0);
	done(&v);
}

static void slow_downlink_without_intra_leaf_is_ambiguous(void **state)
{
	struct verdicts v;
	uint32_t c = down(2, 3);
	int h = 3 * HOSTS + 2;

	(void)state;
	build(&fab, false, -1, c);
	judge(&fab, &v);
	assert_int_equal(v.cab.cables[c].verdict, JUDGE_CABLE_AMBIGUOUS);
	assert_int_equal(v.cab.cables[c].or_port, (uint32_t)h);
	assert_int_equal(v.cab.cables[c].or_port_meas, 0);
	assert_int_equal(v.cab.n_ambiguous, 1);
	assert_int_equal(n_cables_with(&v, JUDGE_CABLE_BLAMED), 0);
	/* never the HCA alone */
	assert_int_equal(n_blamed_ports(&v), 0);
	assert_false(v.res.ports[h].suspect);
	done(&v);
}

/* One a -> b pair (unidirectional), slow if it crosses cable slow. */
static void one_way(struct fabric *f, uint32_t *n, int a, int b, uint32_t slow)
{
	size_t i = f->n_pairs++;

	f->pairs[i] = (struct judge_pair){ .a = (uint32_t)a,
					   .b = (uint32_t)b,
					   .expected = 100,
					   .gbps = 97,
					   .gbps_min = 95 };
	f->path_start[i] = *n;
	route(f, n, a, b);
	f->path_start[i + 1] = *n;
	if (crosses(f, i, slow))
		f->pairs[i].gbps = f->pairs[i].gbps_min = 48;
}

/*
 * h only receives, from three other leaves, all down the slow cable: the
 * up-links those flows took carry one bad pair each, which the ambiguous
 * down-link explains. They were blamed: with h fine on no pair of its
 * own, weigh() took h off fine_ends it was never counted in (underflow).
 */
static void ambiguous_downlink_explains_the_uplinks(void **state)
{
	struct verdicts v;
	uint32_t c = down(2, 3), n = 0;
	int h = 3 * HOSTS + 2;

	(void)state;
	memset(&fab, 0, sizeof(fab));
	for (uint32_t k = 0; k < N_CABLES; k++)
		fab.cables[k].inter_switch = k < 2 * N_UP;
	for (int l = 0; l < 3; l++) {
		one_way(&fab, &n, l * HOSTS, h, c);
		one_way(&fab, &n, l * HOSTS, ((l + 1) % 3) * HOSTS + 1, c);
	}
	judge(&fab, &v);
	assert_int_equal(v.cab.cables[c].verdict, JUDGE_CABLE_AMBIGUOUS);
	assert_int_equal(v.cab.cables[c].or_port, (uint32_t)h);
	for (int l = 0; l < 3; l++)
		assert_int_not_equal(v.cab.cables[up(l, 2)].verdict,
				     JUDGE_CABLE_BLAMED);
	assert_int_equal(n_cables_with(&v, JUDGE_CABLE_BLAMED), 0);
	assert_int_equal(n_blamed_ports(&v), 0);
	done(&v);
}

/* One directed pair a -> b, slow or not, appended to f. */
static void add_pair(struct fabric *f, uint32_t *n, int a, int b, bool slow)
{
	f->pairs[f->n_pairs] = (struct judge_pair){
		.a = (uint32_t)a,
		.b = (uint32_t)b,
		.expected = 100,
		.gbps = slow ? 48 : 97,
		.gbps_min = slow ? 48 : 95,
	};
	f->path_start[f->n_pairs++] = *n;
	route(f, n, a, b);
	f->path_start[f->n_pairs] = *n;
}

/*
 * A slow down-link to h, two senders x1, x2 on two leaves, h with no pair
 * off it: the down-link is ambiguous and explains both bad pairs. x1's
 * up-link carries only x1 -> h: its one bad pair is explained, so it is
 * not blamed (its shared port x1 is fine elsewhere; counting that as a
 * fine end it never had wrapped the count and blamed it).
 */
static void explained_uplink_is_not_blamed(void **state)
{
	int h = 3 * HOSTS + 2, x1 = 5, x2 = HOSTS + 5;
	struct verdicts v;
	uint32_t n = 0;

	(void)state;
	memset(&fab, 0, sizeof(fab));
	for (uint32_t c = 0; c < N_CABLES; c++)
		fab.cables[c] =
			(struct judge_cable_in){ .inter_switch = c < 2 * N_UP };
	add_pair(&fab, &n, x1, h, true);
	add_pair(&fab, &n, x2, h, true);
	add_pair(&fab, &n, x1, 2 * HOSTS + 1, false);
	add_pair(&fab, &n, 4 * HOSTS + 1, x1, false);
	add_pair(&fab, &n, x2, 5 * HOSTS + 1, false);
	add_pair(&fab, &n, 6 * HOSTS + 1, x2, false);
	judge(&fab, &v);
	assert_int_equal(v.cab.cables[down(2, 3)].verdict,
			 JUDGE_CABLE_AMBIGUOUS);
	assert_int_not_equal(v.cab.cables[up(0, 2)].verdict,
			     JUDGE_CABLE_BLAMED);
	assert_int_not_equal(v.cab.cables[up(1, 2)].verdict,
			     JUDGE_CABLE_BLAMED);
	assert_int_equal(n_cables_with(&v, JUDGE_CABLE_BLAMED), 0);
	assert_int_equal(n_blamed_ports(&v), 0);
	done(&v);
}

/*
 * Flows into h = 3 * HOSTS + 2: from three other leaves (down-link
 * down(2, 3), slow), and from local, on h's leaf (slow or not); h sends to
 * six hosts (fine), and each sender has fine pairs of its own.
 */
static void into_h(struct fabric *f, bool local_slow)
{
	int h = 3 * HOSTS + 2, local = 3 * HOSTS;
	uint32_t n = 0;

	memset(f, 0, sizeof(*f));
	for (uint32_t k = 0; k < N_CABLES; k++)
		f->cables[k] =
			(struct judge_cable_in){ .inter_switch = k < 2 * N_UP };
	for (int l = 0; l < 3; l++) {
		int x = l * HOSTS + 5;

		add_pair(f, &n, x, h, true);
		add_pair(f, &n, x, ((l + 1) % 3) * HOSTS + 1, false);
		add_pair(f, &n, 4 * HOSTS + l, x, false);
	}
	add_pair(f, &n, local, h, local_slow);
	add_pair(f, &n, local, 5 * HOSTS + 1, false);
	add_pair(f, &n, 5 * HOSTS + 2, local, false);
	for (int k = 0; k < 6; k++)
		add_pair(f, &n, h, (4 + k % 4) * HOSTS + 3 + k / 4, false);
}

/*
 * h's receive side is slow (its HCA, or its host link from the leaf):
 * every flow into h is slow, its sends fine. The down-link's bad pairs all
 * have h in common, and h is bad off it on the side it has in them
 * (receiving): h explains them, the down-link is cleared (verdict port).
 * Counting h's sends as "fine elsewhere" (1 bad of 7) blamed the good
 * down-link beside h.
 */
static void port_bad_receiving_clears_its_downlink(void **state)
{
	uint32_t c = down(2, 3), h = 3 * HOSTS + 2;
	struct verdicts v;

	(void)state;
	into_h(&fab, true);
	judge(&fab, &v);
	assert_int_equal(v.cab.cables[c].or_port, h);
	assert_int_equal(v.cab.cables[c].verdict, JUDGE_CABLE_PORT);
	assert_int_equal(n_cables_with(&v, JUDGE_CABLE_BLAMED), 0);
	assert_int_equal(n_cables_with(&v, JUDGE_CABLE_AMBIGUOUS), 0);
	assert_true(v.res.ports[h].blame & JUDGE_LOW);
	assert_int_equal(v.cab.cleared[h], 0);
	assert_int_equal(n_blamed_ports(&v), 1);
	done(&v);
}

/* The down-link slow and h's flow within its leaf fine: the down-link. */
static void downlink_slow_port_fine_receiving_blames_cable(void **state)
{
	uint32_t c = down(2, 3);
	struct verdicts v;

	(void)state;
	into_h(&fab, false);
	judge(&fab, &v);
	assert_int_equal(v.cab.cables[c].verdict, JUDGE_CABLE_BLAMED);
	assert_int_equal(n_cables_with(&v, JUDGE_CABLE_BLAMED), 1);
	assert_int_equal(n_blamed_ports(&v), 0);
	done(&v);
}

static void counters_separate_the_confound(void **state)
{
	struct verdicts v;
	uint32_t c = down(2, 3);

	(void)state;
	build(&fab, false, -1, c);
	fab.cables[c].err_delta = 40;
	judge(&fab, &v);
	assert_int_equal(v.cab.cables[c].verdict, JUDGE_CABLE_BLAMED);
	assert_int_equal(v.cab.cables[c].by,
			 JUDGE_CABLE_BY_COUNTERS | JUDGE_CABLE_BY_ROUTE);
	assert_int_equal(n_cables_with(&v, JUDGE_CABLE_AMBIGUOUS), 0);
	assert_int_equal(n_blamed_ports(&v), 0);
	done(&v);
}

static void erroring_cable_blamed_from_counters(void **state)
{
	struct verdicts v;
	uint32_t c = up(2, 3);

	(void)state;
	build(&fab, true, -1, UINT32_MAX);
	fab.cables[c].err_delta = 7;
	fab.cables[up(1, 0)].err_delta = 5;
	fab.cables[up(1, 0)].has_counters = false; /* not read: no word */
	judge(&fab, &v);
	assert_int_equal(v.cab.cables[c].verdict, JUDGE_CABLE_BLAMED);
	assert_int_equal(v.cab.cables[c].by, JUDGE_CABLE_BY_COUNTERS);
	assert_int_equal(v.cab.cables[c].err_delta, 7);
	assert_int_equal(v.cab.cables[c].n_bad, 0);
	assert_int_equal(n_cables_with(&v, JUDGE_CABLE_BLAMED), 1);
	assert_int_equal(n_blamed_ports(&v), 0);
	done(&v);
}

/* An HCA behind the up-link's traffic: the cable and the HCA, and not the
 * ports bad only with the one or the other. */
static void slow_uplink_and_hca_blame_both(void **state)
{
	struct verdicts v;
	uint32_t c = up(0, 1);
	int h = 2 * HOSTS + 1;

	(void)state;
	build(&fab, true, h, c);
	judge(&fab, &v);
	assert_int_equal(v.cab.cables[c].verdict, JUDGE_CABLE_BLAMED);
	assert_int_equal(n_cables_with(&v, JUDGE_CABLE_BLAMED), 1);
	assert_int_equal(n_cables_with(&v, JUDGE_CABLE_AMBIGUOUS), 0);
	assert_true(v.res.ports[h].blame & JUDGE_LOW);
	assert_int_equal(n_blamed_ports(&v), 1);
	done(&v);
}

static void fine_fabric_blames_nothing(void **state)
{
	struct verdicts v;

	(void)state;
	build(&fab, true, -1, UINT32_MAX);
	judge(&fab, &v);
	assert_int_equal(n_cables_with(&v, JUDGE_CABLE_BLAMED), 0);
	assert_int_equal(n_cables_with(&v, JUDGE_CABLE_AMBIGUOUS), 0);
	assert_int_equal(n_cables_with(&v, JUDGE_CABLE_FINE), 2 * N_UP);
	assert_int_equal(n_blamed_ports(&v), 0);
	done(&v);
}

static void cable_id_out_of_range_is_einval(void **state)
{
	struct judge_params jp;
	struct judge_cable_params cp;
	struct judge_result res;
	struct judge_cable_result out;
	struct judge_pair p = { .a = 0, .b = 1, .expected = 100, .gbps = 99 };
	uint32_t start[2] = { 0, 1 }, cab[1] = { 5 };
	struct judge_cable_in in[2] = { { .inter_switch = true } };
	struct judge_routes rt = { start, cab, in, 2 };

	(void)state;
	judge_defaults(&jp);
	judge_cable_defaults(&cp);
	assert_int_equal(judge_pairs(&jp, &p, 1, 2, &res), 0);
	assert_int_equal(judge_cables(&cp, &p, &rt, &res, &out), -EINVAL);
	assert_null(out.cables);
	judge_result_free(&res);
}

/*
 * Twin cables (issue 31): C0 and C1 carry the same measured pairs, 0->3
 * and 1->3, both slow; 2->3, not tested, crosses C1 only; every host is
 * fine on C2 and C3 (pairs that cross no twin). One group, ambiguous,
 * both cables in id order (C1's id is the lower), no port (3 is fine
 * off them), the retest 2 <-> 3; the same with the pairs reversed.
 */
static void twins(bool reversed, struct judge_result *res,
		  struct judge_cable_result *out)
{
	static const uint32_t path[][2] = { { 0, 1 }, { 0, 1 }, { 1, 9 },
					    { 2, 9 }, { 2, 9 }, { 3, 9 },
					    { 3, 9 } };
	static const uint32_t ends[][2] = { { 0, 3 }, { 1, 3 }, { 2, 3 },
					    { 0, 1 }, { 1, 2 }, { 3, 0 },
					    { 2, 0 } };
	const size_t n = sizeof(ends) / sizeof(ends[0]);
	struct judge_pair pairs[7];
	uint32_t start[8], cables[14], k = 0;
	struct judge_cable_in in[4] = {
		{ .inter_switch = true, .id_guid = 0x20, .id_port = 1 },
		{ .inter_switch = true, .id_guid = 0x10, .id_port = 1 },
		{ .inter_switch = true, .id_guid = 0x30, .id_port = 1 },
		{ .inter_switch = true, .id_guid = 0x40, .id_port = 1 },
	};
	uint64_t keys[4] = { 0x100, 0x200, 0x300, 0x400 };
	struct judge_routes rt = { start, cables, in, 4, keys };
	struct judge_params jp;
	struct judge_cable_params cp;

	for (size_t j = 0; j < n; j++) {
		size_t i = reversed ? n - 1 - j : j;
		float g = i < 2 ? 45 : 97;

		pairs[j] = (struct judge_pair){
			.a = ends[i][0],
			.b = ends[i][1],
			.expected = 100,
			.gbps = g,
			.gbps_min = g - 1,
			.status = i == 2 ? JUDGE_PAIR_NOT_TESTED : JUDGE_PAIR_OK
		};
		start[j] = k;
		cables[k++] = path[i][0];
		if (path[i][1] != 9)
			cables[k++] = path[i][1];
	}
	start[n] = k;
	judge_defaults(&jp);
	judge_cable_defaults(&cp);
	assert_int_equal(judge_pairs(&jp, pairs, n, 4, res), 0);
	assert_int_equal(judge_cables(&cp, pairs, &rt, res, out), 0);
}

static void twin_cables_are_one_ambiguous_group(void **state)
{
	(void)state;
	for (int reversed = 0; reversed < 2; reversed++) {
		struct judge_result res;
		struct judge_cable_result out;
		const struct judge_cable_group *g;

		twins(reversed, &res, &out);
		assert_int_equal(1, (int)out.n_groups);
		g = &out.groups[0];
		assert_int_equal(JUDGE_CABLE_AMBIGUOUS, g->verdict);
		assert_int_equal(2, (int)g->n);
		assert_int_equal(1, (int)out.members[g->first]); /* id 0x10 */
		assert_int_equal(0, (int)out.members[g->first + 1]);
		assert_int_equal(JUDGE_NO_PORT, g->or_port);
		assert_int_equal(JUDGE_CABLE_AMBIGUOUS, out.cables[0].verdict);
		assert_int_equal(JUDGE_CABLE_AMBIGUOUS, out.cables[1].verdict);
		assert_int_equal(0, (int)out.n_blamed);
		assert_int_equal(2, (int)out.n_ambiguous);
		assert_int_not_equal(JUDGE_NO_PAIR, g->retest);
		assert_int_equal(2, (int)g->retest_a); /* key 0x300 < 0x400 */
		assert_int_equal(3, (int)g->retest_b);
		for (int p = 0; p < 4; p++) /* explained: nobody blamed */
			assert_int_equal(0, res.ports[p].blame);
		judge_cable_result_free(&out);
		judge_result_free(&res);
	}
}

/*
 * Equal evidence with different fine pairs: C0 and C1 carry the same four
 * bad pairs (0..3 -> 4), and each one fine pair of its own (5->6 on C0,
 * 5->7 on C1): 4 of 5 bad on each, no port in common. Neither fits the
 * evidence better: one ambiguous group of both, in either pair order (the
 * judge before issue 31 blamed whichever had the lower index).
 */
static void equal_evidence_is_one_group(void **state)
{
	static const uint32_t ends[][3] = {
		/* a, b, path: 0 C0+C1, 1 C0, 2 C1, 3 C2 */
		{ 0, 4, 0 }, { 1, 4, 0 }, { 2, 4, 0 }, { 3, 4, 0 }, { 5, 6, 1 },
		{ 5, 7, 2 }, { 0, 1, 3 }, { 2, 3, 3 }, { 4, 5, 3 }, { 6, 7, 3 },
	};
	const size_t n = sizeof(ends) / sizeof(ends[0]);
	struct judge_cable_in in[3] = {
		{ .inter_switch = true, .id_guid = 0x10, .id_port = 1 },
		{ .inter_switch = true, .id_guid = 0x10, .id_port = 2 },
		{ .inter_switch = true, .id_guid = 0x30, .id_port = 1 },
	};

	(void)state;
	for (int reversed = 0; reversed < 2; reversed++) {
		struct judge_pair pairs[10];
		uint32_t start[11], cables[20], k = 0;
		struct judge_routes rt = { start, cables, in, 3, NULL };
		struct judge_params jp;
		struct judge_cable_params cp;
		struct judge_result res;
		struct judge_cable_result out;

		for (size_t j = 0; j < n; j++) {
			size_t i = reversed ? n - 1 - j : j;
			float g = i < 4 ? 45 : 97;

			pairs[j] = (struct judge_pair){ .a = ends[i][0],
							.b = ends[i][1],
							.expected = 100,
							.gbps = g,
							.gbps_min = g - 1 };
			start[j] = k;
			if (ends[i][2] == 0 || ends[i][2] == 1)
				cables[k++] = 0;
			if (ends[i][2] == 0 || ends[i][2] == 2)
				cables[k++] = 1;
			if (ends[i][2] == 3)
				cables[k++] = 2;
		}
		start[n] = k;
		judge_defaults(&jp);
		judge_cable_defaults(&cp);
		assert_int_equal(judge_pairs(&jp, pairs, n, 8, &res), 0);
		assert_int_equal(judge_cables(&cp, pairs, &rt, &res, &out), 0);
		assert_int_equal(1, (int)out.n_groups);
		assert_int_equal(JUDGE_CABLE_AMBIGUOUS, out.groups[0].verdict);
		assert_int_equal(2, (int)out.groups[0].n);
		assert_int_equal(0, (int)out.members[0]);
		assert_int_equal(1, (int)out.members[1]);
		assert_int_equal(JUDGE_NO_PORT, out.groups[0].or_port);
		judge_cable_result_free(&out);
		judge_result_free(&res);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(slow_uplink_blames_cable_not_hca),
		cmocka_unit_test(slow_hca_blames_hca_not_cable),
		cmocka_unit_test(slow_downlink_with_intra_leaf_blames_cable),
		cmocka_unit_test(slow_downlink_without_intra_leaf_is_ambiguous),
		cmocka_unit_test(ambiguous_downlink_explains_the_uplinks),
		cmocka_unit_test(explained_uplink_is_not_blamed),
		cmocka_unit_test(port_bad_receiving_clears_its_downlink),
		cmocka_unit_test(
			downlink_slow_port_fine_receiving_blames_cable),
		cmocka_unit_test(counters_separate_the_confound),
		cmocka_unit_test(erroring_cable_blamed_from_counters),
		cmocka_unit_test(slow_uplink_and_hca_blame_both),
		cmocka_unit_test(fine_fabric_blames_nothing),
		cmocka_unit_test(cable_id_out_of_range_is_einval),
		cmocka_unit_test(twin_cables_are_one_ambiguous_group),
		cmocka_unit_test(equal_evidence_is_one_group),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
