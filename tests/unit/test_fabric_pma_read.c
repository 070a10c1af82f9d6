// SPDX-License-Identifier: MIT
/*
 * fabric_pma_read_ports() behind a fake PMA: 64-bit data where ClassPortInfo
 * advertises PortCountersExtended, 32-bit PortCounters elsewhere (the
 * fallback), ClassPortInfo asked once per LID and never again, a silent
 * port named and the others read.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "fabric/fabric_pma_read.h"

static int n_cpi, n_ext, n_pc;

/* LID 1: ext; LID 2: 32-bit only; LID 3: silent; LID 4: ext, but the
 * extended read fails. */
static void answer(struct fabric_pma_req *q)
{
	q->status = q->lid == 3 || (q->lid == 4 &&
				    q->kind == FABRIC_PMA_COUNTERS_EXT)
			    ? -ETIMEDOUT
			    : 0;
	if (q->lid == 5) { /* refuses: busy */
		q->status = -EREMOTEIO;
		q->mad_status = 1;
	}
	if (q->status)
		return;
	switch (q->kind) {
	case FABRIC_PMA_CLASS_INFO:
		n_cpi++;
		q->ext = q->lid != 2;
		break;
	case FABRIC_PMA_COUNTERS:
		n_pc++;
		q->out->v[IB_PC_SYMBOL_ERRORS] = q->port;
		q->out->v[IB_PC_XMIT_DATA] = 0xffffffffu;
		break;
	default:
		n_ext++;
		q->out->v[IB_PC_XMIT_DATA] = (1ull << 40) + q->port;
		q->out->ext = true;
	}
}

static int fake_batch(struct fabric_pma *h, struct fabric_pma_req *q, size_t n)
{
	(void)h;
	for (size_t i = 0; i < n; i++)
		answer(&q[i]);
	return 0;
}

static const struct fabric_pma_ops fake = { .batch = fake_batch };

static void test_ext_fallback_and_cache(void **state)
{
	struct fabric_pma_target t[] = {
		{ .lid = 1, .port = 5 }, { .lid = 2, .port = 6 },
		{ .lid = 3, .port = 1 }, { .lid = 1, .port = 7 },
		{ .lid = 4, .port = 2 },
	};

	(void)state;
	assert_int_equal(4, fabric_pma_read_ports(&fake, NULL, t, 5, 0));
	assert_int_equal(3, n_cpi); /* LIDs 1, 2, 4: once each */
	assert_int_equal(2, n_ext);
	assert_true(t[0].pc.ext);
	assert_int_equal((1ull << 40) + 5, t[0].pc.v[IB_PC_XMIT_DATA]);
	assert_int_equal(5, t[0].pc.v[IB_PC_SYMBOL_ERRORS]);
	assert_int_equal((1ull << 40) + 7, t[3].pc.v[IB_PC_XMIT_DATA]);
	assert_false(t[1].pc.ext); /* the 32-bit fallback */
	assert_int_equal(0xffffffffu, t[1].pc.v[IB_PC_XMIT_DATA]);
	assert_int_equal(FABRIC_PMA_EXT_NO, t[1].ext);
	assert_int_equal(-ETIMEDOUT, t[2].status);
	assert_int_equal(FABRIC_PMA_EXT_UNKNOWN, t[2].ext);
	assert_false(t[4].pc.ext); /* its extended read failed */
	assert_int_equal(0xffffffffu, t[4].pc.v[IB_PC_XMIT_DATA]);
	/* Again: no ClassPortInfo but for the silent LID (still silent). */
	n_cpi = 0;
	assert_int_equal(4, fabric_pma_read_ports(&fake, NULL, t, 5, 0));
	assert_int_equal(0, n_cpi);
	assert_true(t[0].pc.ext);
	assert_int_equal(4, n_ext);
}

/* A refusal keeps its MAD status (the load proof says it), apart from a
 * silence. */
static void test_refusal_kept(void **state)
{
	struct fabric_pma_target t[] = {
		{ .lid = 5, .port = 1 },
		{ .lid = 3, .port = 1 },
		{ .lid = 2, .port = 1 },
	};

	(void)state;
	assert_int_equal(1, fabric_pma_read_ports(&fake, NULL, t, 3, 0));
	assert_int_equal(-EREMOTEIO, t[0].status);
	assert_int_equal(1, t[0].mad_status);
	assert_int_equal(-ETIMEDOUT, t[1].status);
	assert_int_equal(0, t[1].mad_status);
	assert_int_equal(0, t[2].status);
}

/* A PMA that takes 20 ms a batch call. */
static int slow_batch(struct fabric_pma *h, struct fabric_pma_req *q, size_t n)
{
	nanosleep(&(struct timespec){ 0, 20 * 1000 * 1000 }, NULL);
	return fake_batch(h, q, n);
}

static const struct fabric_pma_ops slow = { .batch = slow_batch };

/* The budget bounds the whole read: past it nothing more is sent. */
static void test_budget_bounds_the_read(void **state)
{
	static struct fabric_pma_target t[1000];
	int read;

	(void)state;
	for (int i = 0; i < 1000; i++)
		t[i] = (struct fabric_pma_target){ .lid = 1, .port = 1 };
	read = fabric_pma_read_ports(&slow, NULL, t, 1000, 30);
	assert_true(read >= 64 && read < 1000);
	assert_int_equal(0, t[0].status);
	assert_int_equal(-ETIMEDOUT, t[999].status);
	/* No budget: all of them. */
	assert_int_equal(1000, fabric_pma_read_ports(&slow, NULL, t, 1000, 0));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ext_fallback_and_cache),
		cmocka_unit_test(test_refusal_kept),
		cmocka_unit_test(test_budget_bounds_the_read),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
