// SPDX-License-Identifier: MIT
/*
 * The route-aware planner (burnin/route_plan.h) on trees routed by opensm
 * on ibsim (fixtures/fabric/plan/, made by make-fixtures.sh there): 8
 * leaves x 4 hosts, 4 spines, routed -R ftree (full, and with node006,
 * node011 and node027 unplugged before routing) and -R minhop; the
 * demo's 324-HCA tree (18 leaves x 18, 8 spines, 16 up-links) -R ftree
 * and -R minhop; and a tree generated whose leaves send all traffic to
 * other leaves through one spine (route_fabric.h), so one cable carries
 * more ordered pairs than all-pairs has shifts.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <jansson.h>

#include "burnin/route_plan.h"
#include "route_fabric.h"

#define FX FIXTURES_DIR "/fabric/plan/"

struct plan {
	struct burnin_routes *r;
	struct dpath_port *inv;
	int n;
	struct route_ctx c;
	struct burnin_schedule s;
	struct route_cert cert;
};

static void plan_open(struct plan *p, const char *records, const char *inv,
		      const char *order)
{
	char err[512];

	memset(p, 0, sizeof(*p));
	assert_int_equal(
		burnin_routes_load(records, NULL, &p->r, err, sizeof(err)), 0);
	assert_int_equal(burnin_inventory_load(inv, &p->inv, &p->n), 0);
	assert_int_equal(route_ctx_init(&p->c, p->r, p->inv, p->n), 0);
	assert_int_equal(route_order_build(&p->c, order, err, sizeof(err)), 0);
}

static void plan_close(struct plan *p)
{
	route_cert_free(&p->cert);
	burnin_schedule_free(&p->s);
	route_ctx_free(&p->c);
	burnin_routes_free(p->r);
	free(p->inv);
}

/* Duplex rounds: a port sends at most once and receives at most once. */
static void assert_duplex(const struct burnin_schedule *s, int n)
{
	int r, i, *out = calloc((size_t)n, sizeof(int));
	int *in = calloc((size_t)n, sizeof(int));

	assert_true(s->duplex);
	for (r = 0; r < s->n_rounds; r++) {
		memset(out, 0, (size_t)n * sizeof(int));
		memset(in, 0, (size_t)n * sizeof(int));
		for (i = s->start[r]; i < s->start[r + 1]; i++) {
			assert_int_not_equal(s->pairs[i].a, s->pairs[i].b);
			assert_int_equal(out[s->pairs[i].a]++, 0);
			assert_int_equal(in[s->pairs[i].b]++, 0);
		}
	}
	free(out);
	free(in);
}

/* Every ordered pair exactly once. */
static void assert_all_ordered(const struct burnin_schedule *s, int n)
{
	char *seen = calloc((size_t)n * (size_t)n, 1);
	int i;

	for (i = 0; i < s->n_pairs; i++)
		assert_int_equal(seen[s->pairs[i].a * n + s->pairs[i].b]++, 0);
	assert_int_equal(s->n_pairs, n * (n - 1));
	free(seen);
}

/* The certificate of p's schedule: no cable carries two flows. */
static void certify_clean(struct plan *p)
{
	assert_int_equal(route_cert_build(&p->c, &p->s, &p->cert), 0);
	assert_int_equal(p->cert.contended_cables, 0);
	assert_int_equal(p->cert.contended_rounds, 0);
}

static void all_pairs_clean(const char *records, const char *inv,
			    const char *order, int rounds)
{
	struct route_bound b;
	struct plan p;

	plan_open(&p, records, inv, order);
	assert_int_equal(route_all_pairs(&p.c, 0, &p.s, &b), 0);
	if (rounds > 0)
		assert_int_equal(p.s.n_rounds, rounds);
	assert_true(p.s.n_rounds >= b.lower);
	assert_int_equal(p.s.n_rounds, b.shifts + b.extra);
	assert_duplex(&p.s, p.n);
	assert_all_ordered(&p.s, p.n);
	certify_clean(&p);
	assert_int_equal(p.cert.flows_no_route, 0);
	plan_close(&p);
}

static void test_all_pairs_ftree(void **state)
{
	(void)state;
	all_pairs_clean(FX "tree-ftree.records", FX "tree-inventory.jsonl",
			FX "tree-ftree.ca-order", 31);
	all_pairs_clean(FX "tree-ftree.records", FX "tree-inventory.jsonl",
			NULL, 31);
	all_pairs_clean(FX "tree-minhop.records", FX "tree-inventory.jsonl",
			NULL, 31);
}

/* The demo's tree, 18 hosts and 16 up-links per leaf: the flows a shift
 * cannot keep alone on their cables go to extra rounds. */
static void test_all_pairs_oversubscribed(void **state)
{
	(void)state;
	all_pairs_clean(FX "demo-ftree.records", FX "demo-inventory.jsonl",
			FX "demo-ftree.ca-order", -1);
	/* derived: a leaf whose hosts share up-ports goes by leaf port */
	all_pairs_clean(FX "demo-ftree.records", FX "demo-inventory.jsonl",
			NULL, -1);
}

/* The demo's tree routed -R minhop: a down-link carries 918 ordered pairs,
 * 323 shifts; the plan takes as many rounds as keep each flow alone (it
 * had 651, 305 of them contended, when extra rounds stopped at the
 * shifts' number). */
static void test_all_pairs_minhop_demo(void **state)
{
	struct route_bound b;
	struct plan p;

	(void)state;
	all_pairs_clean(FX "demo-minhop.records", FX "demo-inventory.jsonl",
			NULL, -1);
	plan_open(&p, FX "demo-minhop.records", FX "demo-inventory.jsonl",
		  NULL);
	assert_int_equal(route_all_pairs(&p.c, 0, &p.s, &b), 0);
	assert_int_equal(b.lower, 918);
	assert_int_equal(b.flows, 918);
	assert_int_equal(b.shifts, 323);
	assert_true(p.s.n_rounds <= 918 + 918 / 50);
	burnin_schedule_free(&p.s);
	/* capped at 651: no more rounds, every pair still once */
	assert_int_equal(route_all_pairs(&p.c, 651, &p.s, &b), 0);
	assert_int_equal(p.s.n_rounds, 651);
	assert_all_ordered(&p.s, p.n);
	assert_duplex(&p.s, p.n);
	assert_int_equal(route_cert_build(&p.c, &p.s, &p.cert), 0);
	assert_true(p.cert.contended_rounds > 0);
	plan_close(&p);
}

/* With 3 hosts unplugged: the holes kept, no round contended. */
static void test_all_pairs_missing(void **state)
{
	(void)state;
	all_pairs_clean(FX "tree-missing.records",
			FX "tree-missing-inventory.jsonl",
			FX "tree-missing.ca-order", 31);
	all_pairs_clean(FX "tree-missing.records",
			FX "tree-missing-inventory.jsonl", NULL, 31);
}

/* ---- one cable busier than the shifts (route_pack.c) ---- */

static void load_tree(const struct rf_tree *t, struct plan *p)
{
	char topo[] = "/tmp/route-pack-topo-XXXXXX";
	char lfts[] = "/tmp/route-pack-lfts-XXXXXX", err[512];
	int fd_t = mkstemp(topo), fd_l = mkstemp(lfts);
	FILE *ft = fdopen(fd_t, "w"), *fl = fdopen(fd_l, "w");

	assert_non_null(ft);
	assert_non_null(fl);
	rf_topo(t, ft);
	rf_lfts(t, fl);
	fclose(ft);
	fclose(fl);
	assert_int_equal(
		burnin_routes_load(topo, lfts, &p->r, err, sizeof(err)), 0);
	unlink(topo);
	unlink(lfts);
}

/* 4 leaves x 3 hosts, 3 spines; one_spine: all through spine 0, 3 x 9 =
 * 27 ordered pairs on each of its cables, 11 shifts. */
static void tree_open(struct plan *p, bool one_spine)
{
	struct rf_tree t = { 4, 3, one_spine };
	char err[512];

	memset(p, 0, sizeof(*p));
	load_tree(&t, p);
	p->n = rf_hosts(&t);
	p->inv = calloc((size_t)p->n, sizeof(*p->inv));
	assert_non_null(p->inv);
	for (int h = 0; h < p->n; h++) {
		snprintf(p->inv[h].host, sizeof(p->inv[h].host), "node%03d", h);
		snprintf(p->inv[h].ca, sizeof(p->inv[h].ca), "mlx5_0");
		p->inv[h].port = 1;
		p->inv[h].guid = rf_port_guid(h);
	}
	assert_int_equal(route_ctx_init(&p->c, p->r, p->inv, p->n), 0);
	assert_int_equal(p->c.n_unmapped, 0);
	assert_int_equal(route_order_build(&p->c, NULL, err, sizeof(err)), 0);
}

/* Without a cap every flow alone on its cables, in at least L rounds. */
static void test_busy_cable_alone(void **state)
{
	struct route_bound b;
	struct plan p;

	(void)state;
	tree_open(&p, true);
	assert_int_equal(route_all_pairs(&p.c, 0, &p.s, &b), 0);
	assert_int_equal(b.flows, 27);
	assert_int_equal(b.lower, 27);
	assert_true(burnin_routes_cable(p.r, b.cable)->inter_switch);
	assert_int_equal(b.shifts, p.n - 1);
	assert_int_equal(b.shared, 0);
	assert_int_equal(p.s.n_rounds, b.shifts + b.extra);
	assert_true(p.s.n_rounds >= b.lower);
	assert_true(p.s.n_rounds <= b.lower + b.lower / 4);
	assert_duplex(&p.s, p.n);
	assert_all_ordered(&p.s, p.n);
	certify_clean(&p);
	assert_int_equal(p.cert.flows_no_route, 0);
	plan_close(&p);
}

/* A cap between the shifts and the bound: no more rounds than it, every
 * pair still once, cables shared. */
static void check_cap(int cap)
{
	struct route_bound b;
	struct plan p;

	tree_open(&p, true);
	assert_int_equal(route_all_pairs(&p.c, cap, &p.s, &b), 0);
	assert_true(p.s.n_rounds <= cap);
	assert_int_equal(b.lower, 27);
	assert_true(b.shared > 0);
	assert_duplex(&p.s, p.n);
	assert_all_ordered(&p.s, p.n);
	assert_int_equal(route_cert_build(&p.c, &p.s, &p.cert), 0);
	assert_true(p.cert.contended_rounds > 0);
	plan_close(&p);
}

static void test_max_rounds(void **state)
{
	struct route_bound b;
	struct plan p;

	(void)state;
	check_cap(20);
	check_cap(11); /* the shifts alone */
	/* below the shifts: refused, saying how many */
	tree_open(&p, true);
	assert_int_equal(route_all_pairs(&p.c, 10, &p.s, &b), -ERANGE);
	assert_int_equal(b.shifts, 11);
	plan_close(&p);
}

/* Routed d-mod-k: the shifts keep every flow alone, no extra round. */
static void test_balanced_no_extra(void **state)
{
	struct route_bound b;
	struct plan p;

	(void)state;
	tree_open(&p, false);
	assert_int_equal(route_all_pairs(&p.c, 0, &p.s, &b), 0);
	assert_int_equal(b.lower, p.n - 1);
	assert_int_equal(b.extra, 0);
	assert_int_equal(p.s.n_rounds, p.n - 1);
	certify_clean(&p);
	plan_close(&p);
}

/* The route-blind plan of the same tree does share cables. */
static void test_route_blind_contends(void **state)
{
	struct plan p;

	(void)state;
	plan_open(&p, FX "tree-ftree.records", FX "tree-inventory.jsonl", NULL);
	assert_int_equal(burnin_schedule_all_pairs(p.inv, p.n, 0, &p.s), 0);
	assert_int_equal(route_cert_build(&p.c, &p.s, &p.cert), 0);
	assert_true(p.cert.contended_cables > 0);
	assert_true(p.cert.contended_rounds > 0);
	plan_close(&p);
}

/* Every loaded down-link's flows left their source leaves through two
 * different up-links (path[1]): a slow down-link and the up-link feeding
 * it do not carry the same pairs. */
static void assert_down_links_fed_twice(const struct plan *p)
{
	int nc = burnin_routes_n_cables(p->r), i, j, n, k, path[64];
	int *first = malloc((size_t)nc * sizeof(int));
	bool *two = calloc((size_t)nc, sizeof(bool));

	for (k = 0; k < nc; k++)
		first[k] = -1;
	for (i = 0; i < p->s.n_pairs; i++) {
		n = burnin_routes_path(p->r, p->c.ca_of_inv[p->s.pairs[i].a],
				       p->c.ca_of_inv[p->s.pairs[i].b], path,
				       64);
		for (j = 2; j < n; j++) {
			k = path[j];
			if (p->c.cable_up[k] ||
			    !burnin_routes_cable(p->r, k)->inter_switch)
				continue;
			if (first[k] < 0)
				first[k] = path[1];
			else if (first[k] != path[1])
				two[k] = true;
		}
	}
	for (k = 0; k < nc; k++)
		if (first[k] >= 0 && !two[k])
			fail_msg("down-link %d fed by one up-link only", k);
	free(first);
	free(two);
}

static void cover_check(const char *records, const char *inv, const char *order,
			int max_rounds, int unreachable)
{
	struct plan p;

	plan_open(&p, records, inv, order);
	assert_int_equal(route_cover(&p.c, 0, &p.s), 0);
	assert_duplex(&p.s, p.n);
	assert_true(p.s.n_rounds >= 2);
	assert_true(p.s.n_rounds <= max_rounds);
	certify_clean(&p);
	assert_int_equal(p.cert.inter, 64);
	assert_int_equal(p.cert.loaded, 64 - unreachable);
	assert_int_equal(p.cert.unreachable, unreachable);
	assert_int_equal(p.cert.up_single, 0);
	assert_down_links_fed_twice(&p);
	/* issue 31: every cable a flow crosses told apart from every other,
	 * host links included */
	assert_true(p.cert.ident.loaded >= p.cert.loaded);
	assert_int_equal(p.cert.ident.identifiable, p.cert.ident.loaded);
	assert_int_equal(p.cert.ident.groups, 0);
	plan_close(&p);
}

static void test_cover(void **state)
{
	struct plan p;

	(void)state;
	/* 3 rounds: a host receives once a round; its down-link needs flows
	 * from two other leaves and its host link one from its own leaf */
	cover_check(FX "tree-ftree.records", FX "tree-inventory.jsonl",
		    FX "tree-ftree.ca-order", 3, 0);
	cover_check(FX "tree-ftree.records", FX "tree-inventory.jsonl", NULL, 3,
		    0);
	cover_check(FX "tree-minhop.records", FX "tree-inventory.jsonl", NULL,
		    3, 0);
	/* the down-links to the 3 absent hosts carry nothing */
	cover_check(FX "tree-missing.records",
		    FX "tree-missing-inventory.jsonl", NULL, 6, 3);
	/* the demo's tree: 2 up-links of a leaf to each spine */
	plan_open(&p, FX "demo-ftree.records", FX "demo-inventory.jsonl",
		  FX "demo-ftree.ca-order");
	assert_int_equal(route_cover(&p.c, 0, &p.s), 0);
	assert_int_equal(p.s.n_rounds, 3);
	assert_down_links_fed_twice(&p);
	certify_clean(&p);
	assert_int_equal(p.cert.ident.identifiable, p.cert.ident.loaded);
	plan_close(&p);
}

/* Issue 31: one flow tells none of its cables apart; the pair that would
 * is named. */
static void test_ident_one_flow(void **state)
{
	struct route_why w;
	struct plan p;
	long budget = 1000000;
	int k, lead = -1;

	(void)state;
	plan_open(&p, FX "tree-ftree.records", FX "tree-inventory.jsonl", NULL);
	assert_int_equal(burnin_schedule_new_round(&p.s), 0);
	assert_int_equal(burnin_schedule_add(&p.s, 0, p.n - 1), 0);
	assert_int_equal(route_cert_build(&p.c, &p.s, &p.cert), 0);
	/* host link, up-link, down-link, host link: one group of 4 */
	assert_int_equal(p.cert.ident.loaded, 4);
	assert_int_equal(p.cert.ident.identifiable, 0);
	assert_int_equal(p.cert.ident.groups, 1);
	for (k = 0; k < p.cert.n_cables; k++)
		if (p.cert.ident.leader[k] >= 0)
			lead = p.cert.ident.leader[k];
	assert_int_equal(p.cert.ident.size[lead], 4);
	route_ident_why(&p.c, &p.cert.ident, lead, &budget, &w);
	assert_int_equal(w.why, ROUTE_WHY_UNPLANNED);
	assert_true(w.src >= 0 && w.dst >= 0);
	/* the budget spent: not searched, never a guess */
	budget = 0;
	route_ident_why(&p.c, &p.cert.ident, lead, &budget, &w);
	assert_int_equal(w.why, ROUTE_WHY_UNSEARCHED);
	plan_close(&p);
}

/* Issue 31: hosts drained (in the routes, not in the plan): the cables
 * only they could tell apart are named with one of them. */
static void test_ident_drained(void **state)
{
	struct route_why w;
	struct plan p;
	long budget = 10000000;
	int k, absent = 0;

	(void)state;
	/* the demo's 324-host tree, 32 hosts of two leaves planned */
	plan_open(&p, FX "demo-ftree.records", FX "tree-inventory.jsonl", NULL);
	assert_int_equal(route_cover(&p.c, 0, &p.s), 0);
	certify_clean(&p);
	assert_true(p.cert.ident.groups > 0);
	for (k = 0; k < p.cert.n_cables; k++) {
		if (p.cert.ident.leader[k] != k || p.cert.ident.size[k] < 2)
			continue;
		route_ident_why(&p.c, &p.cert.ident, k, &budget, &w);
		assert_int_equal(w.why, ROUTE_WHY_ABSENT);
		assert_true(p.c.inv_of_ca[w.src] < 0 ||
			    p.c.inv_of_ca[w.dst] < 0);
		absent++;
	}
	assert_int_equal(absent, p.cert.ident.groups);
	plan_close(&p);
}

/* Ports not in the routes: named, kept in the plan, no route. */
static void test_unmapped(void **state)
{
	struct plan p;

	(void)state;
	plan_open(&p, FX "tree-missing.records", FX "tree-inventory.jsonl",
		  NULL);
	assert_int_equal(p.c.n_unmapped, 3);
	assert_int_equal(route_all_pairs(&p.c, 0, &p.s, NULL), 0);
	assert_all_ordered(&p.s, p.n);
	assert_int_equal(route_cert_build(&p.c, &p.s, &p.cert), 0);
	assert_int_equal(p.cert.flows_no_route, 32 * 31 - 29 * 28);
	plan_close(&p);
}

static void test_bad_order(void **state)
{
	struct plan p;
	char path[] = "/tmp/route-plan-XXXXXX", err[512];
	int fd = mkstemp(path);

	(void)state;
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "0x0001\tnode001 mlx5_0\nbogus\n", 28), 28);
	close(fd);
	plan_open(&p, FX "tree-ftree.records", FX "tree-inventory.jsonl", NULL);
	assert_int_equal(route_order_build(&p.c, path, err, sizeof(err)),
			 -EINVAL);
	assert_non_null(strstr(err, ":2: expected \"0xLID<TAB>NAME\""));
	unlink(path);
	plan_close(&p);
}

/* The certificate's lines parse; the summary first; findings last. */
static void test_cert_write(void **state)
{
	struct plan p;
	json_error_t jerr;
	char line[8192];
	FILE *f = tmpfile();
	json_t *o;
	int n = 0, findings = 0;

	(void)state;
	plan_open(&p, FX "tree-missing.records",
		  FX "tree-missing-inventory.jsonl", NULL);
	assert_int_equal(route_cover(&p.c, 0, &p.s), 0);
	assert_int_equal(route_cert_build(&p.c, &p.s, &p.cert), 0);
	assert_int_equal(route_cert_write(&p.c, &p.cert, "cover", f), 0);
	rewind(f);
	while (fgets(line, sizeof(line), f)) {
		o = json_loads(line, 0, &jerr);
		assert_non_null(o);
		if (!n++)
			assert_string_equal(
				json_string_value(json_object_get(o, "kind")),
				"coverage");
		if (!strcmp(json_string_value(json_object_get(o, "kind")),
			    "finding")) {
			findings++;
			assert_string_equal(json_string_value(json_object_get(
						    o, "category")),
					    "not-tested");
			assert_non_null(json_object_get(
				json_object_get(o, "subject"), "b"));
		}
		json_decref(o);
	}
	assert_int_equal(n, 1 + p.cert.n_cables + 3);
	assert_int_equal(findings, 3);
	fclose(f);
	plan_close(&p);
}

/* burnin_plan_keep() hands the loaded routes to rank 0's coordinator. */
static void test_plan_keep(void **state)
{
	struct burnin_config cfg;
	struct burnin_schedule s = { 0 };
	struct burnin_routes *keep = NULL;
	struct dpath_port *inv;
	int n;

	(void)state;
	burnin_config_defaults(&cfg);
	cfg.schedule = "cover";
	assert_int_equal(
		burnin_inventory_load(FX "tree-inventory.jsonl", &inv, &n), 0);
	assert_int_equal(burnin_plan_keep(&cfg, inv, n, &s, &keep), 2);
	assert_null(keep); /* cover without --routes: exit 2 */
	burnin_schedule_free(&s);
	cfg.routes = FX "tree-ftree.records";
	assert_int_equal(burnin_plan_keep(&cfg, inv, n, &s, &keep), 0);
	assert_int_equal(s.n_rounds, 3);
	assert_non_null(keep);
	assert_int_equal(burnin_routes_n_cas(keep), 32);
	burnin_routes_free(keep);
	burnin_schedule_free(&s);
	free(inv);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_all_pairs_ftree),
		cmocka_unit_test(test_all_pairs_missing),
		cmocka_unit_test(test_all_pairs_oversubscribed),
		cmocka_unit_test(test_all_pairs_minhop_demo),
		cmocka_unit_test(test_busy_cable_alone),
		cmocka_unit_test(test_max_rounds),
		cmocka_unit_test(test_balanced_no_extra),
		cmocka_unit_test(test_route_blind_contends),
		cmocka_unit_test(test_cover),
		cmocka_unit_test(test_ident_one_flow),
		cmocka_unit_test(test_ident_drained),
		cmocka_unit_test(test_unmapped),
		cmocka_unit_test(test_bad_order),
		cmocka_unit_test(test_cert_write),
		cmocka_unit_test(test_plan_keep),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
