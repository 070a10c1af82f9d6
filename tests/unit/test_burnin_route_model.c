// SPDX-License-Identifier: MIT
/*
 * burnin/route_model.h on the 8-node tree captured from ibsim
 * (fixtures/fabric/routes.topo + routes-lfts.dump, opensm -R ftree: leaf01,
 * leaf02 with two HCAs each, spine01, spine02, three cables from each leaf
 * to each spine) and on its records (fixtures/fabric/plan/small.records,
 * written by `ibproof fabric routes --records` from the two), edited per
 * test.
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

#include "burnin/route_model.h"

#define FX FIXTURES_DIR "/fabric/"
#define RECORDS FX "plan/small.records"
#define NODE1_PORT 0x0008f10400000001ULL
#define NODE3_PORT 0x0008f10400000021ULL

/* Writes text into a new temporary file; its path into path[64]. */
static void write_tmp(char *path, const char *text)
{
	int fd;

	snprintf(path, 64, "/tmp/route-model-XXXXXX");
	fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
}

static char *read_text(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf;
	long n;

	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = calloc(1, (size_t)n + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	return buf;
}

/* The records with the first occurrence of from replaced by to. */
static void edited_records(char *path, const char *from, const char *to)
{
	char *text = read_text(RECORDS), *at = strstr(text, from);
	char *out;

	assert_non_null(at);
	out = calloc(1, strlen(text) + strlen(to) + 1);
	assert_non_null(out);
	memcpy(out, text, (size_t)(at - text));
	strcat(out, to);
	strcat(out, at + strlen(from));
	write_tmp(path, out);
	free(out);
	free(text);
}

static struct burnin_routes *load_records(void)
{
	struct burnin_routes *r = NULL;
	char err[256];

	assert_int_equal(
		burnin_routes_load(RECORDS, NULL, &r, err, sizeof(err)), 0);
	return r;
}

static void test_counts(void **state)
{
	struct burnin_routes *r = load_records();
	int c, inter = 0;

	(void)state;
	assert_int_equal(burnin_routes_n_cas(r), 4);
	/* 4 host links + 12 leaf-spine links, each both ways */
	assert_int_equal(burnin_routes_n_cables(r), 32);
	for (c = 0; c < 32; c++)
		inter += burnin_routes_cable(r, c)->inter_switch;
	assert_int_equal(inter, 24);
	assert_null(burnin_routes_cable(r, 32));
	assert_null(burnin_routes_cable(r, -1));
	burnin_routes_free(r);
}

static void test_reverse_and_capacity(void **state)
{
	struct burnin_routes *r = load_records();
	const struct burnin_cable *k, *b;
	int c;

	(void)state;
	for (c = 0; c < burnin_routes_n_cables(r); c++) {
		k = burnin_routes_cable(r, c);
		assert_true(k->reverse >= 0);
		b = burnin_routes_cable(r, k->reverse);
		assert_int_equal(b->reverse, c);
		assert_true(b->from_guid == k->to_guid);
		assert_int_equal(b->from_port, k->to_port);
		assert_int_equal(b->to_port, k->from_port);
		/* 4x EDR: 4 lanes of 25 Gb/s */
		assert_true(k->capacity_gbps > 99.9 &&
			    k->capacity_gbps < 100.1);
	}
	burnin_routes_free(r);
}

static void test_ca_by_guid(void **state)
{
	struct burnin_routes *r = load_records();
	const struct burnin_route_ca *ca;
	const struct burnin_cable *k;
	int i;

	(void)state;
	i = burnin_routes_ca_by_guid(r, NODE1_PORT);
	assert_true(i >= 0);
	ca = burnin_routes_ca(r, i);
	assert_string_equal(ca->node_name, "node001 mlx5_0");
	assert_int_equal(ca->port, 1);
	assert_int_equal(ca->lid, 1);
	assert_true(ca->rate_gbps > 99.9);
	k = burnin_routes_cable(r, ca->leaf_cable);
	assert_false(k->inter_switch);
	assert_string_equal(k->from_name, "node001 mlx5_0");
	assert_string_equal(k->to_name, "leaf01");
	assert_int_equal(burnin_routes_ca_by_guid(r, 0x1234), -1);
	assert_int_equal(burnin_routes_ca_by_guid(r, 0), -1);
	assert_null(burnin_routes_ca(r, 4));
	burnin_routes_free(r);
}

static void test_path_across(void **state)
{
	struct burnin_routes *r = load_records();
	int s = burnin_routes_ca_by_guid(r, NODE1_PORT);
	int d = burnin_routes_ca_by_guid(r, NODE3_PORT);
	int cables[8], n;

	(void)state;
	n = burnin_routes_path(r, s, d, cables, 8);
	assert_int_equal(n, 4); /* host, leaf01->spine, spine->leaf02, host */
	assert_int_equal(cables[0], burnin_routes_ca(r, s)->leaf_cable);
	assert_int_equal(
		cables[3],
		burnin_routes_cable(r, burnin_routes_ca(r, d)->leaf_cable)
			->reverse);
	assert_true(burnin_routes_cable(r, cables[1])->inter_switch);
	assert_true(burnin_routes_cable(r, cables[2])->inter_switch);
	/* the table dump: leaf01 sends LID 7 out of port 3 */
	assert_string_equal(burnin_routes_cable(r, cables[1])->from_name,
			    "leaf01");
	assert_int_equal(burnin_routes_cable(r, cables[1])->from_port, 3);
	assert_int_equal(burnin_routes_path(r, s, d, cables, 3), -ENOSPC);
	assert_int_equal(burnin_routes_path(r, s, s, cables, 8), 0);
	assert_int_equal(burnin_routes_path(r, s, 9, cables, 8), -EINVAL);
	burnin_routes_free(r);
}

static bool no_ar(uint64_t guid, void *arg)
{
	(void)guid;
	(void)arg;
	return false;
}

static bool ar_named(uint64_t guid, void *arg)
{
	return guid == *(const uint64_t *)arg;
}

/*
 * The fake's adaptive routing: without AR a flow is its static path, all
 * of it on each cable. With AR at leaf01 (three cables to each of two
 * spines) it is spread evenly over its six up-links (a sixth on each);
 * the spines route by their tables, so half of it goes down each spine's
 * one table cable into leaf02; all of it on the two host links.
 */
static void test_spread(void **state)
{
	struct burnin_routes *r = load_records();
	int s = burnin_routes_ca_by_guid(r, NODE1_PORT);
	int d = burnin_routes_ca_by_guid(r, NODE3_PORT);
	int path[8], cables[16], n, i, up = 0, down = 0;
	double share[16], sum_up = 0, sum_down = 0;
	uint64_t leaf01 = 0;

	(void)state;
	n = burnin_routes_path(r, s, d, path, 8);
	assert_int_equal(
		burnin_routes_spread(r, s, d, no_ar, NULL, cables, share, 16),
		n);
	for (i = 0; i < n; i++) {
		assert_int_equal(cables[i], path[i]);
		assert_true(share[i] == 1.0);
	}
	leaf01 = burnin_routes_cable(r, path[1])->from_guid;
	n = burnin_routes_spread(r, s, d, ar_named, &leaf01, cables, share, 16);
	assert_int_equal(n, 10); /* 2 host links, 6 up, 2 down */
	for (i = 0; i < n; i++) {
		const struct burnin_cable *k =
			burnin_routes_cable(r, cables[i]);

		if (!k->inter_switch) {
			assert_float_equal(share[i], 1.0, 1e-12);
		} else if (k->from_guid == leaf01) {
			assert_float_equal(share[i], 1.0 / 6, 1e-12);
			up++;
			sum_up += share[i];
		} else {
			assert_float_equal(share[i], 0.5, 1e-12);
			down++;
			sum_down += share[i];
		}
	}
	assert_int_equal(up, 6);
	assert_int_equal(down, 2);
	assert_float_equal(sum_up, 1.0, 1e-12);
	assert_float_equal(sum_down, 1.0, 1e-12);
	assert_int_equal(burnin_routes_spread(r, s, d, ar_named, &leaf01,
					      cables, share, 3),
			 -ENOSPC);
	burnin_routes_free(r);
}

/* The records and the offline inputs give the same cables and paths. */
static void test_offline_same(void **state)
{
	struct burnin_routes *a = load_records(), *b = NULL;
	int s, d, sb, db, na, nb, i, pa[8], pb[8];
	char err[256], x[128], y[128];

	(void)state;
	assert_int_equal(burnin_routes_load(FX "routes.topo",
					    FX "routes-lfts.dump", &b, err,
					    sizeof(err)),
			 0);
	assert_int_equal(burnin_routes_n_cables(b), 32);
	assert_int_equal(burnin_routes_n_cas(b), 4);
	for (s = 0; s < 4; s++)
		for (d = 0; d < 4; d++) {
			sb = burnin_routes_ca_by_guid(
				b, burnin_routes_ca(a, s)->port_guid);
			db = burnin_routes_ca_by_guid(
				b, burnin_routes_ca(a, d)->port_guid);
			na = burnin_routes_path(a, s, d, pa, 8);
			nb = burnin_routes_path(b, sb, db, pb, 8);
			assert_int_equal(na, nb);
			for (i = 0; i < na; i++) {
				burnin_cable_name(a, pa[i], x, sizeof(x));
				burnin_cable_name(b, pb[i], y, sizeof(y));
				assert_string_equal(x, y);
			}
		}
	burnin_routes_free(a);
	burnin_routes_free(b);
}

static void test_cable_name(void **state)
{
	struct burnin_routes *r = load_records();
	int s = burnin_routes_ca_by_guid(r, NODE1_PORT);
	int d = burnin_routes_ca_by_guid(r, NODE3_PORT);
	int cables[8];
	char buf[64], tiny[8];

	(void)state;
	assert_int_equal(burnin_routes_path(r, s, d, cables, 8), 4);
	burnin_cable_name(r, cables[1], buf, sizeof(buf));
	assert_string_equal(buf, "leaf01:3->spine01:1");
	burnin_cable_name(r, cables[0], buf, sizeof(buf));
	assert_string_equal(buf, "node001 mlx5_0:1->leaf01:1");
	burnin_cable_name(r, cables[1], tiny, sizeof(tiny));
	assert_string_equal(tiny, "leaf01:");
	burnin_routes_free(r);
}

static void test_unsafe_name(void **state)
{
	struct burnin_routes *r = NULL;
	char path[64], err[256], buf[128];
	int c;

	(void)state;
	edited_records(path, "\"name\":\"leaf01\"",
		       "\"name\":\"leaf01\\u001b[2J\"");
	assert_int_equal(burnin_routes_load(path, NULL, &r, err, sizeof(err)),
			 0);
	unlink(path);
	for (c = 0; c < burnin_routes_n_cables(r); c++) {
		burnin_cable_name(r, c, buf, sizeof(buf));
		assert_null(strchr(buf, '\033'));
	}
	burnin_routes_free(r);
}

/* A table entry of 255 for the destination: no route. */
static void test_path_no_route(void **state)
{
	struct burnin_routes *r = NULL;
	char path[64], err[256];
	int s, d, cables[8];

	(void)state;
	/* leaf01 sends LID 1 (node001) out of port 1: to none */
	edited_records(path, "\"lid\":2,\"linear_fdb_top\":8,\"ports\":[255,1,",
		       "\"lid\":2,\"linear_fdb_top\":8,\"ports\":[255,255,");
	assert_int_equal(burnin_routes_load(path, NULL, &r, err, sizeof(err)),
			 0);
	unlink(path);
	s = burnin_routes_ca_by_guid(r, NODE3_PORT);
	d = burnin_routes_ca_by_guid(r, NODE1_PORT);
	assert_int_equal(burnin_routes_path(r, s, d, cables, 8), -ENOENT);
	burnin_routes_free(r);
}

/* A leaf-spine link down: not a cable, and a table pointing at it. */
static void test_path_dead_port(void **state)
{
	struct burnin_routes *r = NULL;
	char path[64], err[256];
	int s, d, cables[8];

	(void)state;
	/* leaf02:3 -> spine01:4 polls */
	edited_records(path,
		       "\"name\":\"spine01\",\"lid\":4},\"width\":\"4x\","
		       "\"speed\":\"EDR\",\"state\":\"ACTIVE\","
		       "\"phys_state\":\"LinkUp\"",
		       "\"name\":\"spine01\",\"lid\":4},\"width\":\"4x\","
		       "\"speed\":\"EDR\",\"state\":\"DOWN\","
		       "\"phys_state\":\"Polling\"");
	assert_int_equal(burnin_routes_load(path, NULL, &r, err, sizeof(err)),
			 0);
	unlink(path);
	assert_int_equal(burnin_routes_n_cables(r), 30);
	/* leaf02 sends LID 1 (node001) out of port 3, the dead one */
	s = burnin_routes_ca_by_guid(r, NODE3_PORT);
	d = burnin_routes_ca_by_guid(r, NODE1_PORT);
	assert_int_equal(burnin_routes_path(r, s, d, cables, 8), -ENOLINK);
	burnin_routes_free(r);
}

static void expect_error(const char *text, const char *lfts, int want,
			 const char *msg)
{
	struct burnin_routes *r = (struct burnin_routes *)1;
	char path[64], err[256];

	write_tmp(path, text);
	assert_int_equal(burnin_routes_load(path, lfts, &r, err, sizeof(err)),
			 want);
	assert_null(r);
	assert_non_null(strstr(err, path));
	if (!strstr(err, msg))
		fail_msg("%s", err);
	unlink(path);
}

static void test_bad_records(void **state)
{
	struct burnin_routes *r = NULL;
	char path[64], err[256];

	(void)state;
	edited_records(path, "\"guid\":\"0x0008f10300000005\"",
		       "\"guid\":\"0x0000000000000000\"");
	assert_int_equal(burnin_routes_load(path, NULL, &r, err, sizeof(err)),
			 -EINVAL);
	assert_null(r);
	if (!strstr(err, ":2: expected a link end"))
		fail_msg("%s", err);
	unlink(path);
	expect_error("", NULL, -EINVAL, "expected link records");
	expect_error("not json\n", NULL, -EINVAL, ":1:");
}

static void test_bad_lft(void **state)
{
	struct burnin_routes *r = NULL;
	char path[64], err[256];

	(void)state;
	edited_records(path, "\"linear_fdb_top\":8,", "\"linear_fdb_top\":9,");
	assert_int_equal(burnin_routes_load(path, NULL, &r, err, sizeof(err)),
			 -EINVAL);
	assert_null(r);
	assert_non_null(strstr(err, "linear_fdb_top + 1"));
	assert_non_null(strstr(err, ":18:"));
	unlink(path);
}

static void test_missing_files(void **state)
{
	struct burnin_routes *r = NULL;
	char err[256];

	(void)state;
	assert_int_equal(burnin_routes_load("/nonexistent/x", NULL, &r, err,
					    sizeof(err)),
			 -ENOENT);
	assert_null(r);
	assert_non_null(strstr(err, "/nonexistent/x"));
	assert_true(burnin_routes_load(FX "routes.topo", "/nonexistent/y", &r,
				       err, sizeof(err)) < 0);
	assert_null(r);
	assert_non_null(strstr(err, "/nonexistent/y"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_counts),
		cmocka_unit_test(test_reverse_and_capacity),
		cmocka_unit_test(test_ca_by_guid),
		cmocka_unit_test(test_path_across),
		cmocka_unit_test(test_spread),
		cmocka_unit_test(test_offline_same),
		cmocka_unit_test(test_cable_name),
		cmocka_unit_test(test_unsafe_name),
		cmocka_unit_test(test_path_no_route),
		cmocka_unit_test(test_path_dead_port),
		cmocka_unit_test(test_bad_records),
		cmocka_unit_test(test_bad_lft),
		cmocka_unit_test(test_missing_files),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
