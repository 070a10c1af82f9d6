// SPDX-License-Identifier: MIT
/*
 * PMA counter judgement (saturation, resets, per-cable view, thresholds)
 * and `fabric counters` end to end behind fake discovery/PMA ops.
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

#include "fabric/fabric_counters.h"
#include "fabric/fabric_run.h"
#include "fabric/fabric_spec.h"
#include "fabric/fabric_topo.h"

#define FX FIXTURES_DIR "/fabric/"

static void test_saturation_and_reset(void **state)
{
	struct fabric_port_counters pc = { .valid = true };

	(void)state;
	pc.cur.v[IB_PC_SYMBOL_ERRORS] = 0xffff;
	pc.cur.v[IB_PC_LINK_DOWNED] = 3;
	pc.cur.v[IB_PC_XMIT_DATA] = 0xffffffffULL;
	fabric_pc_compute(&pc);
	assert_true(pc.saturated[IB_PC_SYMBOL_ERRORS]);
	assert_false(pc.saturated[IB_PC_LINK_DOWNED]);
	assert_true(pc.saturated[IB_PC_XMIT_DATA]);
	pc.cur.ext = true; /* 64-bit data counters do not saturate there */
	fabric_pc_compute(&pc);
	assert_false(pc.saturated[IB_PC_XMIT_DATA]);

	pc.has_base = true;
	pc.base.v[IB_PC_LINK_DOWNED] = 1;
	pc.base.v[IB_PC_SYMBOL_ERRORS] = 0xffff;
	pc.cur.v[IB_PC_SYMBOL_ERRORS] = 7; /* reset in between */
	fabric_pc_compute(&pc);
	assert_int_equal(2, pc.delta.v[IB_PC_LINK_DOWNED]);
	assert_int_equal(7, pc.delta.v[IB_PC_SYMBOL_ERRORS]);
	assert_int_equal(15, fabric_pc_max(IB_PC_BUFFER_OVERRUN_ERRORS, false));
}

static void test_thresholds_file(void **state)
{
	struct fabric_thresholds t;
	char err[FABRIC_ERR_LEN] = "";

	(void)state;
	fabric_thresholds_default(&t);
	assert_int_equal(10, t.v[IB_PC_SYMBOL_ERRORS]);
	assert_int_equal(
		0,
		fabric_thresholds_parse(
			"th",
			"# comment\n  SymbolErrorCounter = 0\nPortXmitWait=0x10\n",
			&t, err, sizeof(err)));
	assert_int_equal(0, t.v[IB_PC_SYMBOL_ERRORS]);
	assert_int_equal(16, t.v[IB_PC_XMIT_WAIT]);
	assert_int_equal(-22,
			 fabric_thresholds_parse("th", "\nSymbolErrors=1\n", &t,
						 err, sizeof(err)));
	assert_string_equal("th:2: unknown counter \"SymbolErrors\" (expected "
			    "e.g. SymbolErrorCounter=10)",
			    err);
	assert_int_equal(-22, fabric_thresholds_parse("th",
						      "LinkDownedCounter="
						      "x\n",
						      &t, err, sizeof(err)));
	assert_string_equal("th:1: expected CounterName=number (decimal, or "
			    "hex with 0x; 0 to 2^64-1)",
			    err);
}

/* D14: "-1" wrapped to 2^64-1 (the check off) and "010" was octal 8. */
static void test_d14_thresholds_negative_and_octal(void **state)
{
	struct fabric_thresholds t;
	char err[FABRIC_ERR_LEN] = "";

	(void)state;
	fabric_thresholds_default(&t);
	assert_int_equal(-22, fabric_thresholds_parse("th",
						      "SymbolErrorCounter=-1\n",
						      &t, err, sizeof(err)));
	assert_string_equal("th:1: expected CounterName=number (decimal, or "
			    "hex with 0x; 0 to 2^64-1)",
			    err);
	assert_int_equal(10, t.v[IB_PC_SYMBOL_ERRORS]);
	assert_int_equal(
		-22, fabric_thresholds_parse("th", "SymbolErrorCounter= +5\n",
					     &t, err, sizeof(err)));
	assert_int_equal(0, fabric_thresholds_parse("th",
						    "SymbolErrorCounter=010\n",
						    &t, err, sizeof(err)));
	assert_int_equal(10, t.v[IB_PC_SYMBOL_ERRORS]);
	assert_int_equal(
		-22, fabric_thresholds_parse(
			     "th", "SymbolErrorCounter=18446744073709551616\n",
			     &t, err, sizeof(err)));
}

static struct fabric *small_model(void)
{
	char err[FABRIC_ERR_LEN];
	struct fabric *m = NULL;

	assert_int_equal(
		0, fabric_topo_load(FX "small.topo", &m, err, sizeof(err)));
	return m;
}

/* Every figure of a counter message says what it is (issue 20). */
static void test_counter_message_names_figures(void **state)
{
	struct fabric_port_counters a = { .valid = true, .has_base = true };
	struct fabric_port_counters b = a;
	char msg[512];

	(void)state;
	b.cur.v[IB_PC_LINK_DOWNED] = 15;
	a.cur.v[IB_PC_LINK_DOWNED] = a.base.v[IB_PC_LINK_DOWNED] = 3;
	fabric_pc_compute(&a);
	fabric_pc_compute(&b);
	fabric_counter_message(msg, sizeof(msg), IB_PC_LINK_DOWNED,
			       "leaf10 port 20", &a, "spine02 port 19", &b, 10);
	assert_string_equal("leaf10 port 20 - spine02 port 19: "
			    "LinkDownedCounter rose by 0 during the check "
			    "(3 at the baseline) at leaf10 port 20; rose by 15 "
			    "during the check (0 at the baseline) at spine02 "
			    "port 19; threshold 10",
			    msg);
	fabric_counter_message(msg, sizeof(msg), IB_PC_LINK_DOWNED,
			       "leaf10 port 20", &b, "", NULL, 10);
	assert_string_equal("leaf10 port 20: LinkDownedCounter rose by 15 "
			    "during the check (0 at the baseline) at leaf10 "
			    "port 20; no counters (no far end) at the far end; "
			    "threshold 10",
			    msg);
}

static void test_one_finding_per_cable(void **state)
{
	struct fabric *m = small_model();
	struct fabric_port_counters *pcs =
		calloc(m->nports_total, sizeof(*pcs));
	struct fabric_findings fs = { 0 };
	struct fabric_thresholds t;
	struct fabric_port *a =
		&fabric_find_guid(m, 0x0008f10300000004ULL)->ports[3];
	size_t i;

	(void)state;
	for (i = 0; i < m->nports_total; i++)
		pcs[i].valid = true;
	pcs[a->id].cur.v[IB_PC_SYMBOL_ERRORS] = 50;
	pcs[a->id].cur.v[IB_PC_RCV_DATA] = 1000;
	pcs[a->remote->id].cur.v[IB_PC_SYMBOL_ERRORS] = 0xffff;
	pcs[a->remote->id].cur.v[IB_PC_LINK_DOWNED] = 11;
	for (i = 0; i < m->nports_total; i++)
		fabric_pc_compute(&pcs[i]);
	fabric_thresholds_default(&t);
	assert_int_equal(0, fabric_counters_check(m, pcs, &t, &fs));
	assert_int_equal(2, fs.n);
	assert_string_equal("symbol-errors", fs.v[0].category);
	assert_string_equal("link-downed", fs.v[1].category);
	assert_int_equal(2, fs.v[0].nrefs);
	/* spine01 (parsed first) is end a; its counter saturated */
	assert_string_equal("spine01 port 1 - leaf01 port 3: "
			    "SymbolErrorCounter at least 65535 since the last "
			    "clear, counter saturated at spine01 port 1; 50 "
			    "since the last clear at leaf01 port 3; "
			    "threshold 10",
			    fs.v[0].message);
	/* 50 errors over 1000 words of 32 bits */
	for (i = 0; i < (size_t)fs.v[0].nev; i++)
		if (!strcmp(fs.v[0].ev[i].key, "b_errors_per_bit"))
			break;
	assert_true(i < (size_t)fs.v[0].nev);
	assert_true(fs.v[0].ev[i].real > 0.00156 &&
		    fs.v[0].ev[i].real < 0.00157);
	fabric_findings_free(&fs);
	free(pcs);
	fabric_free(m);
}

/* Fakes behind the ops tables: the fixture model and scripted counters. */
static int fake_fail_all, fake_resets, fake_ext_reads;
/* PortCounters of this LID answer with this MAD status; of LID
 * fake_silent_lid, not at all */
static int fake_refuse_lid, fake_refuse_status, fake_silent_lid;

static int fake_discover(const struct fabric_disc_params *p,
			 struct fabric **out)
{
	(void)p;
	*out = small_model();
	return 0;
}

static int fake_open(const char *ca, int port, unsigned t,
		     struct fabric_pma **out)
{
	(void)ca;
	(void)port;
	(void)t;
	*out = (struct fabric_pma *)&fake_resets;
	return 0;
}

static void fake_answer(struct fabric_pma_req *q)
{
	q->status = fake_fail_all ? -110 : 0;
	if (q->kind == FABRIC_PMA_COUNTERS && q->lid == fake_refuse_lid) {
		q->status = -EREMOTEIO;
		q->mad_status = (uint16_t)fake_refuse_status;
		return;
	}
	if (q->kind == FABRIC_PMA_COUNTERS && q->lid == fake_silent_lid) {
		q->status = -ETIMEDOUT;
		return;
	}
	if (q->kind == FABRIC_PMA_CLASS_INFO) {
		q->ext = true;
		return;
	}
	if (q->kind == FABRIC_PMA_COUNTERS_EXT) {
		q->out->ext = true;
		q->out->v[IB_PC_RCV_DATA] = 1ULL << 40;
		fake_ext_reads++;
		return;
	}
	memset(q->out, 0, sizeof(*q->out));
	if (q->lid == 2 && q->port == 1) /* leaf01 port 1 */
		q->out->v[IB_PC_RCV_ERRORS] = 40;
}

static int fake_batch(struct fabric_pma *h, struct fabric_pma_req *q, size_t n)
{
	(void)h;
	for (size_t i = 0; i < n; i++)
		fake_answer(&q[i]);
	return 0;
}

static int fake_reset(struct fabric_pma *h, uint16_t lid, int port, bool ext)
{
	(void)h;
	(void)lid;
	(void)port;
	(void)ext;
	fake_resets++;
	return 0;
}

static void fake_close(struct fabric_pma *h)
{
	(void)h;
}

static const struct fabric_disc_ops fake_disc = { .discover = fake_discover };
static const struct fabric_pma_ops fake_pma = {
	.open = fake_open,
	.batch = fake_batch,
	.reset = fake_reset,
	.close = fake_close,
};

static void test_counters_run_with_fakes(void **state)
{
	char recs[] = "/tmp/ibproof-counters-XXXXXX";
	struct fabric_args a = { 0 };
	int fd = mkstemp(recs);

	(void)state;
	assert_true(fd >= 0);
	close(fd);
	fabric_disc = &fake_disc;
	fabric_pma = &fake_pma;
	a.tool = "fabric counters";
	a.common.records = recs;
	assert_int_equal(IBP_EXIT_FAIL, fabric_counters_run(&a));
	/* Extended counters only for the one port with errors. */
	assert_int_equal(1, fake_ext_reads);
	/* Its own snapshot as baseline: nothing new; --reset resets all. */
	a.baseline = recs;
	a.common.records = NULL;
	a.reset = true;
	assert_int_equal(IBP_EXIT_PASS, fabric_counters_run(&a));
	assert_int_equal(12, fake_resets);
	/* No port answers: could not test. */
	fake_fail_all = 1;
	assert_int_equal(IBP_EXIT_RUNTIME, fabric_counters_run(&a));
	a.load_cache = "x";
	assert_int_equal(IBP_EXIT_USAGE, fabric_counters_run(&a));
	unlink(recs);
}

static size_t lines_with(const char *path, const char *a, const char *b)
{
	char line[8192];
	size_t n = 0;
	FILE *f = fopen(path, "r");

	assert_non_null(f);
	while (fgets(line, sizeof(line), f))
		n += strstr(line, a) && (!b || strstr(line, b));
	fclose(f);
	return n;
}

/*
 * A PMA that refuses (a MAD status through the seam) and one that is
 * silent: each of their ports is not tested, with the reason and the
 * status's meaning; the run is INCOMPLETE (exit 1) with no fail finding.
 */
static void test_counters_refused_and_silent(void **state)
{
	char recs[] = "/tmp/ibproof-counters-XXXXXX";
	struct fabric_args a = { 0 };
	int fd = mkstemp(recs);

	(void)state;
	assert_true(fd >= 0);
	close(fd);
	fabric_disc = &fake_disc;
	fabric_pma = &fake_pma;
	fake_fail_all = 0;
	fake_refuse_lid = 6; /* node003 mlx5_0 */
	fake_refuse_status = 0x000c;
	fake_silent_lid = 3; /* leaf02: its 3 cabled ports */
	a.tool = "fabric counters";
	a.common.records = recs;
	a.thresholds = NULL;
	assert_int_equal(IBP_EXIT_FAIL, fabric_counters_run(&a));
	assert_int_equal(1, lines_with(recs, "\"reason\":\"mad-status\"",
				       "\"mad_status_text\":\"unsupported "
				       "attribute or modifier\""));
	assert_int_equal(1, lines_with(recs, "\"reason\":\"mad-status\"",
				       "\"node\":\"node003 mlx5_0\""));
	assert_int_equal(3, lines_with(recs, "\"reason\":\"no-answer\"",
				       "\"node\":\"leaf02\""));
	assert_int_equal(4,
			 lines_with(recs, "\"category\":\"not-tested\"", NULL));
	assert_int_equal(
		1, lines_with(recs, "\"kind\":\"run\"", "\"not_tested\":4"));
	fake_refuse_lid = fake_silent_lid = 0;
	unlink(recs);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_d14_thresholds_negative_and_octal),
		cmocka_unit_test(test_saturation_and_reset),
		cmocka_unit_test(test_thresholds_file),
		cmocka_unit_test(test_one_finding_per_cable),
		cmocka_unit_test(test_counter_message_names_figures),
		cmocka_unit_test(test_counters_run_with_fakes),
		cmocka_unit_test(test_counters_refused_and_silent),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
