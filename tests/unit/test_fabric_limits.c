// SPDX-License-Identifier: MIT
/*
 * Issue 35: the counter limits table (errors per bit by link class, events
 * per window, XmitWait as a share of the window's ticks). The 64-bit
 * error counters from MAD images: test_fabric_counters.c.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "fabric/fabric_counters.h"
#include "fabric/fabric_limits.h"

static struct fabric_limit_out judge(int id, uint64_t count, double data_bits,
				     double seconds, enum ib_speed speed)
{
	struct fabric_limit_in in = { .count = count,
				      .data_bits = data_bits,
				      .seconds = seconds,
				      .speed = speed,
				      .lanes = 4,
				      .threshold = 10 };
	struct fabric_limit_out o;

	fabric_limit_judge(id, &in, &o);
	return o;
}

/* The same 50 errors: under the bound over 10^15 bits, over it at 10^10. */
static void test_ber_by_bits(void **state)
{
	struct fabric_limit_out o;

	(void)state;
	o = judge(IB_PC_SYMBOL_ERRORS, 50, 1e15, 0, IB_SPEED_EDR);
	assert_int_equal(FABRIC_JUDGED_BER, o.how);
	assert_null(o.severity);
	assert_true(o.figure > 4.99e-14 && o.figure < 5.01e-14);
	o = judge(IB_PC_SYMBOL_ERRORS, 50, 1e10, 0, IB_SPEED_EDR);
	assert_string_equal("fail", o.severity);
	assert_true(o.limit == 1e-12);
	/* HDR and faster: the post-FEC bound is 1e-14 */
	o = judge(IB_PC_SYMBOL_ERRORS, 50, 1e15, 0, IB_SPEED_NDR);
	assert_string_equal("fail", o.severity);
	assert_true(o.limit == 1e-14);
	assert_non_null(strstr(o.source, "UFM"));
	/* two errors over few bits are chance, not a rate */
	o = judge(IB_PC_RCV_ERRORS, 2, 1e3, 0, IB_SPEED_EDR);
	assert_int_equal(FABRIC_JUDGED_BER, o.how);
	assert_null(o.severity);
	o = judge(IB_PC_RCV_ERRORS, 3, 1e3, 0, IB_SPEED_EDR);
	assert_string_equal("fail", o.severity);
}

/* In a window the link signalled at its rate: the floor of the bits. */
static void test_ber_window_floor(void **state)
{
	struct fabric_limit_out o;

	(void)state;
	o = judge(IB_PC_SYMBOL_ERRORS, 50, 0, 1, IB_SPEED_EDR);
	assert_true(o.bits == 100e9); /* 4x EDR: 100 Gb/s for 1 s */
	o = judge(IB_PC_SYMBOL_ERRORS, 50, 1e15, 1, IB_SPEED_EDR);
	assert_true(o.bits == 1e15);
	/* no bits at all (since a clear, data unknown): the count */
	o = judge(IB_PC_SYMBOL_ERRORS, 11, -1, 0, IB_SPEED_EDR);
	assert_int_equal(FABRIC_JUDGED_COUNT, o.how);
	assert_string_equal("fail", o.severity);
	o = judge(IB_PC_SYMBOL_ERRORS, 10, -1, 0, IB_SPEED_EDR);
	assert_null(o.severity);
}

/* XmitWait: a share of the window's ticks (a tick is at least a byte on a
 * lane: 0.32 ns at EDR's 25 Gb/s); congestion, never a cable action. */
static void test_xmit_wait_share(void **state)
{
	struct fabric_limit_out o;

	(void)state;
	assert_string_equal("none", fabric_limits[IB_PC_XMIT_WAIT].action);
	o = judge(IB_PC_XMIT_WAIT, 500000000, -1, 1, IB_SPEED_EDR);
	assert_int_equal(FABRIC_JUDGED_WAIT, o.how);
	assert_true(o.figure > 0.159 && o.figure < 0.161);
	assert_string_equal("warn", o.severity);
	o = judge(IB_PC_XMIT_WAIT, 100000000, -1, 1, IB_SPEED_EDR);
	assert_string_equal("info", o.severity);
	o = judge(IB_PC_XMIT_WAIT, 1000000, -1, 1, IB_SPEED_EDR);
	assert_null(o.severity);
	/* since a clear: no window to share; the count threshold */
	o = judge(IB_PC_XMIT_WAIT, 1000000, -1, 0, IB_SPEED_EDR);
	assert_int_equal(FABRIC_JUDGED_COUNT, o.how);
}

static void test_events_per_window(void **state)
{
	struct fabric_thresholds since, win;

	(void)state;
	fabric_thresholds_default(&since);
	fabric_thresholds_default_window(&win);
	assert_int_equal(10, since.v[IB_PC_LINK_DOWNED]);
	assert_int_equal(0, win.v[IB_PC_LINK_DOWNED]);
	assert_string_equal("reseat", fabric_limits[IB_PC_LINK_DOWNED].action);
	assert_string_equal("fail", fabric_severity_max("info", "fail"));
	assert_string_equal("warn", fabric_severity_max(NULL, "warn"));
	assert_null(fabric_severity_max(NULL, NULL));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ber_by_bits),
		cmocka_unit_test(test_ber_window_floor),
		cmocka_unit_test(test_xmit_wait_share),
		cmocka_unit_test(test_events_per_window),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
