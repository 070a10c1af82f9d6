// SPDX-License-Identifier: MIT
/*
 * The load proof around a step (burnin/load_proof_run.c) on the routes of
 * the 8-node tree (fixtures/fabric/routes.topo + routes-lfts.dump, opensm
 * -R ftree) behind a fake PMA whose counters the test moves: a flow whose
 * bytes cross its planned cables proves them loaded; a flow whose
 * switch-to-switch bytes went elsewhere leaves those cables not-loaded
 * (one cable-not-loaded finding each); error counters that rose at a
 * cable's ingress end reach its record and the per-cable totals.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "burnin/load_proof_run.h"
#include "burnin/route_model.h"
#include "common/ibport.h"
#include "common/record.h"

#define FX FIXTURES_DIR "/fabric/"
#define MAX_LID 16
#define MAX_PORT 16

static struct fabric_pc pcs[MAX_LID][MAX_PORT];
static bool silent_open;

static int fake_open(const char *ca, int port, unsigned timeout_ms,
		     struct fabric_pma **out)
{
	(void)ca;
	(void)port;
	(void)timeout_ms;
	*out = (struct fabric_pma *)&pcs;
	return silent_open ? -EIO : 0;
}

static int fake_batch(struct fabric_pma *h, struct fabric_pma_req *q, size_t n)
{
	(void)h;
	for (size_t i = 0; i < n; i++) {
		if (q[i].lid >= MAX_LID || q[i].port >= MAX_PORT) {
			q[i].status = -ETIMEDOUT;
			continue;
		}
		q[i].status = 0;
		if (q[i].kind == FABRIC_PMA_CLASS_INFO)
			q[i].ext = true;
		else
			*q[i].out = pcs[q[i].lid][q[i].port];
	}
	return 0;
}

static void fake_close(struct fabric_pma *h)
{
	(void)h;
}

static const struct fabric_pma_ops fake_pma = {
	.open = fake_open,
	.batch = fake_batch,
	.close = fake_close,
};

/* The inventory: the four CA ports of the fixture, by port GUID. */
static void inventory(struct dpath_port *inv)
{
	static const uint64_t guids[] = { 0x8f10400000001, 0x8f10400000011,
					  0x8f10400000021, 0x8f10400000031 };

	memset(inv, 0, 4 * sizeof(*inv));
	for (int i = 0; i < 4; i++) {
		snprintf(inv[i].host, sizeof(inv[i].host), "node%03d", i + 1);
		snprintf(inv[i].ca, sizeof(inv[i].ca), "mlx5_0");
		inv[i].port = 1;
		inv[i].guid = guids[i];
		inv[i].rate_gbps = 100;
	}
}

/* The flow's bytes on the egress counters of its path; inter-switch
 * cables skipped when diverted (the traffic went another way). */
static void carry(const struct burnin_routes *r, uint64_t src_guid,
		  uint64_t dst_guid, uint64_t bytes, bool diverted)
{
	int path[16], n;

	n = burnin_routes_path(r, burnin_routes_ca_by_guid(r, src_guid),
			       burnin_routes_ca_by_guid(r, dst_guid), path, 16);
	assert_true(n >= 2);
	for (int i = 0; i < n; i++) {
		const struct burnin_cable *c = burnin_routes_cable(r, path[i]);

		if (diverted && c->inter_switch)
			continue;
		pcs[c->from_lid][c->from_port].v[IB_PC_XMIT_DATA] += bytes / 4;
	}
}

static json_t *read_all(const char *path)
{
	struct record_reader *rd = record_reader_open(path);
	json_t *all = json_array(), *rec;

	assert_non_null(rd);
	while (record_reader_next(rd, &rec) == 1)
		json_array_append_new(all, rec);
	record_reader_close(rd);
	return all;
}

static int count(json_t *all, const char *kind, const char *field,
		 const char *value)
{
	size_t i;
	json_t *rec;
	int n = 0;

	json_array_foreach(all, i, rec)
	{
		if (strcmp(json_string_value(json_object_get(rec, "kind")),
			   kind))
			continue;
		n += !field ||
		     !strcmp(json_string_value(json_object_get(rec, field)),
			     value);
	}
	return n;
}

static void test_step_proves_and_names_diverted_cables(void **state)
{
	const struct burnin_load_proof_params p = { .ops = &fake_pma,
						    .timeout_s = 1 };
	const struct burnin_pair pairs[] = { { 0, 2 }, { 1, 3 } };
	const uint64_t ab[] = { 10000000, 10000000 }, ba[] = { 0, 0 };
	struct burnin_load_step s = { .round = 0,
				      .test = "write",
				      .seconds = 1,
				      .pairs = pairs,
				      .n_pairs = 2 };
	char recs[] = "/tmp/ibproof-proof-XXXXXX", why[400];
	struct burnin_load_proof *lp;
	struct burnin_routes *r;
	struct dpath_port inv[4];
	struct record_writer *w;
	int fd = mkstemp(recs), up = -1;
	uint64_t total;
	json_t *all;

	(void)state;
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(0, burnin_routes_load(FX "routes.topo",
					       FX "routes-lfts.dump", &r, why,
					       sizeof(why)));
	inventory(inv);
	memset(pcs, 0, sizeof(pcs));
	for (int l = 0; l < MAX_LID; l++)
		for (int q = 0; q < MAX_PORT; q++)
			pcs[l][q].v[IB_PC_XMIT_DATA] = 1000 + 7 * l + q;
	assert_int_equal(0, burnin_load_proof_open(r, inv, 4, &p, &lp, why,
						   sizeof(why)));
	assert_int_equal(0, burnin_load_proof_begin(lp, &s));
	carry(r, inv[0].guid, inv[2].guid, ab[0], false);
	carry(r, inv[1].guid, inv[3].guid, ab[1], true);
	/* Symbol errors at the ingress end of node001's host link. */
	pcs[2][1].v[IB_PC_SYMBOL_ERRORS] += 5;
	s.moved_ab = ab;
	s.moved_ba = ba;
	w = record_writer_open(recs, false);
	assert_non_null(w);
	assert_int_equal(0, burnin_load_proof_end(lp, &s, w));
	assert_int_equal(0, record_writer_close(w));
	all = read_all(recs);
	/* 2 flows x (2 host links + 2 switch-to-switch cables). */
	assert_int_equal(8, count(all, "cable-load", NULL, NULL));
	assert_int_equal(6, count(all, "cable-load", "status", "loaded"));
	assert_int_equal(2, count(all, "cable-load", "status", "not-loaded"));
	assert_int_equal(2,
			 count(all, "finding", "category", "cable-not-loaded"));
	assert_int_equal(2, burnin_load_proof_not_loaded(lp));
	/* node001's host link: the errors at its ingress (leaf01 port 1). */
	for (int c = 0; c < burnin_routes_n_cables(r); c++) {
		const struct burnin_cable *k = burnin_routes_cable(r, c);

		if (k->from_lid == 1 && k->from_port == 1)
			up = c;
	}
	assert_true(up >= 0);
	assert_int_equal(
		5, burnin_load_proof_cable_errors(lp, up)[IB_PC_SYMBOL_ERRORS]);
	assert_int_equal(0,
			 burnin_load_proof_cable_error_total(lp, up, &total));
	assert_int_equal(5, total);
	/* Issue 35: 5 more in a step of 10^6 s (10^17 bits at least) are
	 * within the limit: counted, not over it. */
	s.seconds = 1e6;
	assert_int_equal(0, burnin_load_proof_begin(lp, &s));
	pcs[2][1].v[IB_PC_SYMBOL_ERRORS] += 5;
	assert_int_equal(0, burnin_load_proof_end(lp, &s, NULL));
	assert_int_equal(10, burnin_load_proof_cable_errors(
				     lp, up)[IB_PC_SYMBOL_ERRORS]);
	assert_int_equal(0,
			 burnin_load_proof_cable_error_total(lp, up, &total));
	assert_int_equal(5, total);
	/* A cable of no flow of the step: never read. */
	for (int c = 0; c < burnin_routes_n_cables(r); c++) {
		const struct burnin_cable *k = burnin_routes_cable(r, c);

		if (k->from_lid == 7 || k->from_lid == 8) /* node003/4 send */
			assert_int_equal(-ENODATA,
					 burnin_load_proof_cable_error_total(
						 lp, c, &total));
	}
	json_decref(all);
	burnin_load_proof_close(lp);
	burnin_routes_free(r);
	unlink(recs);
}

static void test_open_says_why(void **state)
{
	const struct burnin_load_proof_params p = {
		.ops = &fake_pma, .ca = "mlx5_9", .port = 1, .timeout_s = 1
	};
	struct burnin_load_proof *lp = (void *)1;
	struct burnin_routes *r;
	struct dpath_port inv[4];
	char why[400];

	(void)state;
	assert_int_equal(0, burnin_routes_load(FX "routes.topo",
					       FX "routes-lfts.dump", &r, why,
					       sizeof(why)));
	inventory(inv);
	silent_open = true;
	assert_int_equal(-EIO, burnin_load_proof_open(r, inv, 4, &p, &lp, why,
						      sizeof(why)));
	assert_null(lp);
	assert_non_null(strstr(why, "cannot open umad on mlx5_9 port 1"));
	silent_open = false;
	burnin_routes_free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_step_proves_and_names_diverted_cables),
		cmocka_unit_test(test_open_says_why),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
