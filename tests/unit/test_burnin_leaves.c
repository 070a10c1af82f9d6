// SPDX-License-Identifier: MIT
/*
 * burnin's leaves (--topology): port GUID -> the switch its cable lands
 * on, from real ibnetdiscover output (fixtures/fabric/leaves.topo, made on
 * ibsim; see its header); the `leaf` of port records and its way back in
 * through --inventory; --resume refusing a node schedule over other
 * leaves. A whole run that records leaves: test_burnin_fake.c.
 */
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

#include "rdma/fake_transport.h"
#include "burnin/coord.h"
#include "burnin/resume.h"
#include "common/cli.h"
#include "common/subcommands.h"
#include "fabric/fabric_spec.h"
#include "fabric/fabric_topo.h"

#define FX FIXTURES_DIR "/"

static char *temp_path(void)
{
	char *path = strdup("/tmp/ibproof-test-leaves-XXXXXX");
	int fd = mkstemp(path);

	assert_true(fd >= 0);
	close(fd);
	return path;
}

static char *write_temp(const char *text)
{
	char *path = temp_path();
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	return path;
}

static const struct dpath_port *find(const struct dpath_port *p, int n,
				     const char *name)
{
	int i = burnin_inventory_find(p, n, name);

	if (i < 0)
		fail_msg("%s not in the inventory", name);
	return &p[i];
}

static void assert_leaf(const struct dpath_port *p, uint64_t guid, int port,
			const char *name)
{
	assert_int_equal(guid, p->leaf_guid);
	assert_int_equal(port, p->leaf_port);
	assert_string_equal(name, p->leaf_name);
}

/* The inventory fixture: the 24 CA ports of leaves.topo, plus node013. */
static void test_leaves_from_ibnetdiscover(void **state)
{
	struct dpath_port *inv;
	int n;

	(void)state;
	assert_int_equal(
		0, burnin_inventory_load(FX "records/leaves-inventory.jsonl",
					 &inv, &n));
	assert_int_equal(26, n);
	assert_int_equal(0,
			 burnin_leaves_load(FX "fabric/leaves.topo", inv, n));
	assert_leaf(find(inv, n, "node001:mlx5_0:1"), 0x0008f10300000018ULL, 1,
		    "leaf01");
	assert_leaf(find(inv, n, "node003:mlx5_1:1"), 0x0008f10300000018ULL, 6,
		    "leaf01");
	assert_leaf(find(inv, n, "node005:mlx5_0:1"), 0x0008f10300000019ULL, 3,
		    "leaf02");
	assert_leaf(find(inv, n, "node012:mlx5_1:1"), 0x0008f1030000001bULL, 6,
		    "leaf04");
	assert_leaf(find(inv, n, "node013:mlx5_0:1"), 0, 0, "");
	free(inv);
}

/* A port on no switch: its GUID is absent, 0, or its cable ends on a CA. */
static void test_leaves_unknown(void **state)
{
	static const char topo[] =
		"caguid=0x100\n"
		"Ca\t1 \"H-0000000000000100\"\t\t# \"a mlx5_0\"\n"
		"[1](101) \t\"H-0000000000000200\"[1] (201) \t\t# lid 1 lmc 0 \"b mlx5_0\" lid 2 4xEDR\n"
		"\n"
		"caguid=0x200\n"
		"Ca\t1 \"H-0000000000000200\"\t\t# \"b mlx5_0\"\n"
		"[1](201) \t\"H-0000000000000100\"[1] (101) \t\t# lid 2 lmc 0 \"a mlx5_0\" lid 1 4xEDR\n";
	char err[FABRIC_ERR_LEN] = "";
	struct dpath_port p[3] = { { .guid = 0x101, .leaf_guid = 7 },
				   { .guid = 0x999, .leaf_guid = 7 },
				   { .guid = 0, .leaf_guid = 7 } };
	struct fabric *f = NULL;

	(void)state;
	assert_int_equal(
		0, fabric_topo_parse("b2b.topo", topo, &f, err, sizeof(err)));
	assert_int_equal(0x201, fabric_find_guid(f, 0x200)->ports[1].guid);
	assert_int_equal(0, burnin_leaves_assign(f, p, 3));
	for (int i = 0; i < 3; i++)
		assert_leaf(&p[i], 0, 0, "");
	fabric_free(f);
}

static void test_bad_topology(void **state)
{
	char *path = write_temp("switchguid=0x10\nSwitch 4 \"S-10\" # \"a\"\n"
				"[9] \"S-10\"[1]\n");
	struct dpath_port p = { .guid = 1 };

	(void)state;
	assert_int_equal(-EINVAL, burnin_leaves_load(path, &p, 1));
	assert_int_equal(-ENOENT,
			 burnin_leaves_load("/nonexistent/t.topo", &p, 1));
	unlink(path);
	free(path);
}

/* A port record carries its leaf; --inventory reads it back. */
static void test_port_record_leaf_round_trip(void **state)
{
	struct dpath_port p = { .host = "node001",
				.ca = "mlx5_0",
				.port = 1,
				.guid = 0x0008f10400000001ULL,
				.state = "ACTIVE",
				.rate_gbps = 100,
				.leaf_guid = 0x0008f10300000018ULL,
				.leaf_port = 17,
				.leaf_name = "leaf01" };
	struct dpath_port q = p, *inv;
	char *path = temp_path(), why[256];
	struct record_writer *w = record_writer_open(path, false);
	json_t *rec = burnin_port_record(&p, "fake", 0);
	int n;

	(void)state;
	assert_int_equal(0, record_validate(rec, why, sizeof(why)));
	assert_int_equal(0, record_writer_emit(w, rec));
	json_decref(rec);
	snprintf(q.ca, sizeof(q.ca), "mlx5_1");
	q.leaf_guid = 0; /* unknown: no leaf field */
	rec = burnin_port_record(&q, "fake", 1);
	assert_null(json_object_get(rec, "leaf"));
	assert_int_equal(0, record_writer_emit_steal(w, rec));
	assert_int_equal(0, record_writer_close(w));
	assert_int_equal(0, burnin_inventory_load(path, &inv, &n));
	assert_int_equal(2, n);
	assert_leaf(&inv[0], 0x0008f10300000018ULL, 17, "leaf01");
	assert_leaf(&inv[1], 0, 0, "");
	free(inv);
	unlink(path);
	free(path);
}

/*
 * D16: host names longer than the inventory's field were cut, and two
 * distinct ports merged into one; such an inventory is refused.
 */
static void test_d16_long_host_not_cut(void **state)
{
	char path[] = "/tmp/ibproof-test-inv-XXXXXX", host[101];
	struct dpath_port *inv = NULL;
	FILE *f;
	int n = 0, fd = mkstemp(path);

	(void)state;
	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	assert_non_null(f);
	memset(host, 'h', 100);
	host[100] = '\0';
	for (int i = 0; i < 2; i++)
		fprintf(f,
			"{\"schema\":\"ibproof/1\",\"kind\":\"port\","
			"\"time\":\"2026-12-02T15:04:05.123Z\",\"host\":"
			"\"%s%d\",\"version\":\"0.1.0\",\"ca\":\"mlx5_0\","
			"\"port\":1,\"guid\":\"0x000000000000000%d\",\"lid\":%d,"
			"\"link_layer\":\"InfiniBand\",\"state\":\"ACTIVE\","
			"\"rate_gbps\":100.0,\"rail\":0}\n",
			host, i, i + 1, i + 1);
	fclose(f);
	assert_int_equal(-EINVAL, burnin_inventory_load(path, &inv, &n));
	assert_null(inv);
	unlink(path);
}

/* Rank 0 of a run that never started: its ctx and its state. */
struct rank0 {
	struct burnin_ctx ctx;
	struct burnin_coord co;
};

/* Rank 0's view after a plan: enough for burnin_resume_load(). */
static void resume_ctx(struct rank0 *r0, struct burnin_config *cfg,
		       struct dpath_port *inv, int n)
{
	memset(&r0->ctx, 0, sizeof(r0->ctx));
	r0->ctx.cfg = cfg;
	burnin_coord_init(&r0->co, &r0->ctx);
	r0->co.inv = inv;
	r0->co.n_inv = n;
	assert_int_equal(IBP_EXIT_PASS,
			 burnin_plan(cfg, inv, n, &r0->co.sched));
	r0->co.n_main_rounds = r0->co.sched.n_rounds;
}

static void resume_ctx_free(struct rank0 *r0)
{
	burnin_schedule_free(&r0->co.sched);
	free(r0->co.done_steps);
	free(r0->co.m);
}

/* The records a run over co starts with: its ports, then the start. */
static char *write_run_start(const struct burnin_coord *co)
{
	char *path = temp_path();
	struct record_writer *w = record_writer_open(path, false);

	assert_non_null(w);
	for (int i = 0; i < co->n_inv; i++)
		record_writer_emit_steal(
			w, burnin_port_record(&co->inv[i], "fake", i));
	record_writer_emit_steal(w, burnin_run_record(co, "start"));
	assert_int_equal(0, record_writer_close(w));
	return path;
}

/* Resumes the run in path with the config now: burnin_resume_load()'s result. */
static int resume_with(struct burnin_config *cfg, const char *path)
{
	struct dpath_port *inv;
	struct rank0 r0;
	int n, ret;

	assert_int_equal(
		0, burnin_inventory_load(FX "records/leaves-inventory.jsonl",
					 &inv, &n));
	resume_ctx(&r0, cfg, inv, n);
	ret = burnin_resume_load(&r0.co, path);
	resume_ctx_free(&r0);
	free(inv);
	return ret;
}

/* node:HOST over other leaves is another schedule: --resume refuses it. */
static void test_resume_needs_same_leaves(void **state)
{
	struct burnin_config cfg;
	struct dpath_port *inv;
	struct rank0 r0;
	char *node_run, *pairs_run;
	int n;

	(void)state;
	assert_int_equal(
		0, burnin_inventory_load(FX "records/leaves-inventory.jsonl",
					 &inv, &n));
	burnin_config_defaults(&cfg);
	cfg.ops = &dpath_fake_ops;
	cfg.topology = FX "fabric/leaves.topo";
	cfg.schedule = "node:node001";
	resume_ctx(&r0, &cfg, inv, n);
	node_run = write_run_start(&r0.co);
	resume_ctx_free(&r0);
	cfg.schedule = "all-pairs";
	resume_ctx(&r0, &cfg, inv, n);
	pairs_run = write_run_start(&r0.co);
	resume_ctx_free(&r0);

	cfg.schedule = "node:node001";
	assert_int_equal(0, resume_with(&cfg, node_run));
	cfg.topology = NULL; /* leaves unknown now: another node schedule */
	assert_int_equal(-EINVAL, resume_with(&cfg, node_run));
	cfg.schedule = "all-pairs"; /* leaves do not change it */
	assert_int_equal(0, resume_with(&cfg, pairs_run));
	free(inv);
	unlink(node_run);
	unlink(pairs_run);
	free(node_run);
	free(pairs_run);
}

/* Appends m's pair record (no counters) to the records at path. */
static void append_pair(const char *path, const struct burnin_coord *co,
			const struct burnin_measure *m)
{
	struct wire_result none = { 0 };
	struct record_writer *w = record_writer_open(path, true);

	assert_non_null(w);
	record_writer_emit_steal(w,
				 burnin_pair_record(co, m, NULL, &none, &none));
	assert_int_equal(0, record_writer_close(w));
}

/* A pair record whose round this schedule cannot have is FILE:LINE bad
 * input, not an index: the round once became an array index. */
static void test_resume_round_out_of_range(void **state)
{
	struct burnin_measure m = { .a = 0, .b = 1, .status = BURNIN_PAIR_OK };
	struct burnin_config cfg;
	struct dpath_port *inv;
	struct rank0 r0;
	char *run;
	int n;

	(void)state;
	assert_int_equal(
		0, burnin_inventory_load(FX "records/leaves-inventory.jsonl",
					 &inv, &n));
	burnin_config_defaults(&cfg);
	cfg.ops = &dpath_fake_ops;
	cfg.n_tests = 2; /* write,read: round x tests overflowed an int */
	cfg.tests[1] = DPATH_TEST_READ;
	resume_ctx(&r0, &cfg, inv, n);
	run = write_run_start(&r0.co);
	m.round = r0.co.sched.n_rounds - 1; /* the last main round: fine */
	append_pair(run, &r0.co, &m);
	assert_int_equal(0, resume_with(&cfg, run));
	m.round = 1500000000;
	append_pair(run, &r0.co, &m);
	assert_int_equal(-EINVAL, resume_with(&cfg, run));
	resume_ctx_free(&r0);
	free(inv);
	unlink(run);
	free(run);
}

/*
 * D23: `burnin --dry-run --inventory EMPTY` planned 0 ports and exited 0;
 * an inventory of fewer than 2 ports is refused, exit 2, as a run is.
 */
static void test_d23_dry_run_empty_inventory_refused(void **state)
{
	char path[] = "/tmp/ibproof-test-inv-XXXXXX";
	char *argv[] = { "burnin", "--dry-run", "--inventory", path, NULL };
	int fd = mkstemp(path);
	FILE *f;

	(void)state;
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(IBP_EXIT_USAGE, burnin_main(4, argv));
	f = fopen(path, "w"); /* one port: still no pair to plan */
	assert_non_null(f);
	fprintf(f, "{\"schema\":\"ibproof/1\",\"kind\":\"port\","
		   "\"time\":\"2026-12-02T15:04:05.123Z\",\"host\":\"h0\","
		   "\"version\":\"0.1.0\",\"ca\":\"mlx5_0\",\"port\":1,"
		   "\"guid\":\"0x0000000000000001\",\"lid\":1,"
		   "\"link_layer\":\"InfiniBand\",\"state\":\"ACTIVE\","
		   "\"rate_gbps\":100.0,\"rail\":0}\n");
	fclose(f);
	assert_int_equal(IBP_EXIT_USAGE, burnin_main(4, argv));
	unlink(path);
}

/*
 * Found by fuzz_resume: a pair record whose ends name one port (same
 * host:ca:port, other GUIDs, so the record contract lets it by) became a
 * measure of a port with itself. --resume refuses it, naming FILE:LINE.
 */
static void test_resume_pair_with_itself(void **state)
{
	struct burnin_config cfg;
	char *path = write_temp(
		"{\"schema\":\"ibproof/1\",\"kind\":\"pair\","
		"\"time\":\"2026-12-02T15:04:05.123Z\",\"host\":\"node001\","
		"\"version\":\"0.1.0\",\"round\":1,\"test\":\"write\","
		"\"dir\":\"uni\",\"a\":{\"host\":\"node001\",\"ca\":"
		"\"mlx5_0\",\"port\":1,\"guid\":\"0x0008f10400000001\"},"
		"\"b\":{\"host\":\"node001\",\"ca\":\"mlx5_0\",\"port\":1,"
		"\"guid\":\"0x0008f10400000002\"},\"gbps\":90.0,"
		"\"gbps_min\":88.0,\"expected_gbps\":100.0,"
		"\"status\":\"ok\"}\n");

	(void)state;
	burnin_config_defaults(&cfg);
	cfg.ops = &dpath_fake_ops;
	cfg.schedule = "all-pairs";
	assert_int_equal(-EINVAL, resume_with(&cfg, path));
	unlink(path);
	free(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_leaves_from_ibnetdiscover),
		cmocka_unit_test(test_leaves_unknown),
		cmocka_unit_test(test_bad_topology),
		cmocka_unit_test(test_port_record_leaf_round_trip),
		cmocka_unit_test(test_resume_needs_same_leaves),
		cmocka_unit_test(test_resume_pair_with_itself),
		cmocka_unit_test(test_resume_round_out_of_range),
		cmocka_unit_test(test_d16_long_host_not_cut),
		cmocka_unit_test(test_d23_dry_run_empty_inventory_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
