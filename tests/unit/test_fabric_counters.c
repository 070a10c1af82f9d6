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
#include "fabric/fabric_pma_decode.h"
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
	assert_int_equal(0, fabric_counters_check(m, pcs, &t, NULL, &fs));
	assert_int_equal(2, fs.n);
	assert_string_equal("symbol-errors", fs.v[0].category);
	assert_string_equal("link-downed", fs.v[1].category);
	assert_int_equal(2, fs.v[0].nrefs);
	/* spine01 (parsed first) is end a; its counter saturated */
	assert_string_equal("spine01 port 1 - leaf01 port 3: "
			    "SymbolErrorCounter at least 65535 since the last "
			    "clear, counter saturated at spine01 port 1; 50 "
			    "since the last clear over 3.2e+04 bits (BER "
			    "0.0016) at leaf01 port 3; threshold 10 where the "
			    "bits are not known; BER limit 1e-12 with at least "
			    "3 errors (BER 1e-12: IBTA link BER, ibdiagnet "
			    "--ber_test default)",
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

/* Issue 35: the 64-bit error counters of PortCountersExtended. */
static void put64(uint8_t *p, uint64_t v)
{
	for (int i = 7; i >= 0; i--, v >>= 8)
		p[i] = (uint8_t)v;
}

/* MAD images: the 24-byte header, 40 reserved bytes, then the data. */
#define MAD_DATA 64

static void cpi_image(uint8_t *mad, bool ext, bool ext_err)
{
	memset(mad, 0, 256);
	mad[1] = 4; /* PerfMgt class */
	mad[MAD_DATA + 0] = 1; /* BaseVersion */
	mad[MAD_DATA + 1] = 1; /* ClassVersion */
	mad[MAD_DATA + 2] = ext ? 0x02 : 0; /* CapabilityMask bit 9 */
	/* CapabilityMask2 (27 bits) then RespTimeValue (5 bits): bit 1 of
	 * the mask is bit 6 of the 32-bit word; RespTimeValue 0x12 */
	mad[MAD_DATA + 7] = (ext_err ? 0x40 : 0) | 0x12;
}

static void ext_image(uint8_t *mad)
{
	memset(mad, 0, 256);
	put64(mad + MAD_DATA + 8, 1ULL << 40); /* PortXmitData */
	put64(mad + MAD_DATA + 16, 3ULL << 40); /* PortRcvData */
	put64(mad + MAD_DATA + 72, 100000); /* SymbolErrorCounter */
	put64(mad + MAD_DATA + 88, 300); /* LinkDownedCounter */
	put64(mad + MAD_DATA + 168, 1ULL << 33); /* PortXmitWait */
}

static void test_decode_images(void **state)
{
	uint8_t mad[256];
	struct fabric_pc pc = { 0 };
	bool ext, ext_err;

	(void)state;
	cpi_image(mad, true, true);
	fabric_pma_decode_cpi(mad + MAD_DATA, &ext, &ext_err);
	assert_true(ext && ext_err);
	cpi_image(mad, true, false);
	fabric_pma_decode_cpi(mad + MAD_DATA, &ext, &ext_err);
	assert_true(ext && !ext_err);
	mad[MAD_DATA + 2] = 0;
	mad[MAD_DATA + 3] = 0xff; /* bits 0-7 only */
	mad[MAD_DATA + 7] = 0x3f; /* RespTimeValue and mask bit 0 */
	fabric_pma_decode_cpi(mad + MAD_DATA, &ext, &ext_err);
	assert_true(!ext && !ext_err);

	ext_image(mad);
	pc.v[IB_PC_SYMBOL_ERRORS] = 7;
	fabric_pma_decode_ext(mad + MAD_DATA, false, &pc);
	assert_true(pc.ext && !pc.ext_err);
	assert_int_equal(7, pc.v[IB_PC_SYMBOL_ERRORS]); /* untouched */
	assert_int_equal(3ULL << 40, pc.v[IB_PC_RCV_DATA]);
	fabric_pma_decode_ext(mad + MAD_DATA, true, &pc);
	assert_true(pc.ext_err);
	assert_int_equal(100000, pc.v[IB_PC_SYMBOL_ERRORS]);
	assert_int_equal(300, pc.v[IB_PC_LINK_DOWNED]);
	assert_int_equal(1ULL << 33, pc.v[IB_PC_XMIT_WAIT]);
	assert_int_equal(1ULL << 40, pc.v[IB_PC_XMIT_DATA]);
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

static int fake_ext_err, fake_ext_err_reads;

/* The answers of a PMA that advertises the 64-bit error counters, decoded
 * from MAD images as mad_ops.c does: leaf01 port 1's 16-bit
 * SymbolErrorCounter saturated, 100000 in the 64-bit one. */
static void fake_answer_ext_err(struct fabric_pma_req *q)
{
	uint8_t mad[256];

	q->status = 0;
	if (q->kind == FABRIC_PMA_CLASS_INFO) {
		cpi_image(mad, true, true);
		fabric_pma_decode_cpi(mad + MAD_DATA, &q->ext, &q->ext_err);
	} else if (q->kind == FABRIC_PMA_COUNTERS_EXT) {
		memset(mad, 0, sizeof(mad));
		if (q->lid == 2 && q->port == 1)
			ext_image(mad);
		fake_ext_err_reads += q->ext_err;
		fabric_pma_decode_ext(mad + MAD_DATA, q->ext_err, q->out);
	} else {
		memset(q->out, 0, sizeof(*q->out));
		if (q->lid == 2 && q->port == 1)
			q->out->v[IB_PC_SYMBOL_ERRORS] = 0xffff;
	}
}

static void fake_answer(struct fabric_pma_req *q)
{
	if (fake_ext_err) {
		fake_answer_ext_err(q);
		return;
	}
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
	a.since_clear = true; /* the 40 errors are from before the run */
	assert_int_equal(IBP_EXIT_FAIL, fabric_counters_run(&a));
	/* Extended counters only for the one port with errors. */
	assert_int_equal(1, fake_ext_reads);
	/* Its own snapshot as baseline: nothing new; --reset resets all. */
	a.baseline = recs;
	a.since_clear = false;
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
	a.since_clear = true; /* one read: no window to wait */
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

/* Preferred where advertised: the finding has the 64-bit figure, not the
 * saturated 65535. */
static void test_ext_errors_preferred(void **state)
{
	char recs[] = "/tmp/ibproof-ext-err-XXXXXX", line[8192];
	struct fabric_args a = { 0 };
	int fd = mkstemp(recs);
	bool found = false;
	FILE *f;

	(void)state;
	assert_true(fd >= 0);
	close(fd);
	fabric_disc = &fake_disc;
	fabric_pma = &fake_pma;
	fake_ext_err = 1;
	a.tool = "fabric counters";
	a.common.records = recs;
	a.since_clear = true;
	assert_int_equal(IBP_EXIT_FAIL, fabric_counters_run(&a));
	fake_ext_err = 0;
	assert_true(fake_ext_err_reads > 0);
	f = fopen(recs, "r");
	assert_non_null(f);
	while (fgets(line, sizeof(line), f)) {
		if (!strstr(line, "\"symbol-errors\""))
			continue;
		found = true;
		assert_true(strstr(line, "\"a_value\":100000") ||
			    strstr(line, "\"b_value\":100000"));
		assert_null(strstr(line, "65535"));
	}
	fclose(f);
	unlink(recs);
	assert_true(found);
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
		cmocka_unit_test(test_decode_images),
		cmocka_unit_test(test_ext_errors_preferred),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
