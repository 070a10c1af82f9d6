// SPDX-License-Identifier: MIT
/*
 * The route-aware planner (burnin/route_plan.h) on trees routed by opensm
 * on ibsim (fixtures/fabric/plan/, made by make-fixtures.sh there): 8
 * leaves x 4 hosts, 4 spines, routed -R ftree (full, and with node006,
 * node011 and node027 unplugged before routing) and -R minhop; the
 * demo's 324-HCA tree (18 leaves x 18, 8 spines, 16 up-links) -R ftree.
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

#define FX FIXTURES_DIR "/fabric/plan/"

struct plan {
	struct burnin_routes *r;
	struct burnin_port *inv;
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
	struct plan p;

	plan_open(&p, records, inv, order);
	assert_int_equal(route_all_pairs(&p.c, 0, &p.s, NULL), 0);
	if (rounds > 0)
		assert_int_equal(p.s.n_rounds, rounds);
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
	plan_close(&p);
}

static void test_cover(void **state)
{
	struct plan p;

	(void)state;
	cover_check(FX "tree-ftree.records", FX "tree-inventory.jsonl",
		    FX "tree-ftree.ca-order", 2, 0);
	cover_check(FX "tree-ftree.records", FX "tree-inventory.jsonl", NULL, 2,
		    0);
	cover_check(FX "tree-minhop.records", FX "tree-inventory.jsonl", NULL,
		    3, 0);
	/* the down-links to the 3 absent hosts carry nothing */
	cover_check(FX "tree-missing.records",
		    FX "tree-missing-inventory.jsonl", NULL, 4, 3);
	/* the demo's tree: 2 up-links of a leaf to each spine */
	plan_open(&p, FX "demo-ftree.records", FX "demo-inventory.jsonl",
		  FX "demo-ftree.ca-order");
	assert_int_equal(route_cover(&p.c, 0, &p.s), 0);
	assert_int_equal(p.s.n_rounds, 2);
	assert_down_links_fed_twice(&p);
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
	struct burnin_port *inv;
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
	assert_int_equal(s.n_rounds, 2);
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
		cmocka_unit_test(test_route_blind_contends),
		cmocka_unit_test(test_cover),
		cmocka_unit_test(test_unmapped),
		cmocka_unit_test(test_bad_order),
		cmocka_unit_test(test_cert_write),
		cmocka_unit_test(test_plan_keep),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
