// SPDX-License-Identifier: MIT
/* IB speed/width tables: the encodings of ib-facts.md. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include "common/ibrate.h"

static void test_verbs_speed_codes(void **state)
{
	(void)state;
	assert_int_equal(IB_SPEED_SDR, ib_speed_from_verbs(1));
	assert_int_equal(IB_SPEED_QDR, ib_speed_from_verbs(4));
	assert_int_equal(IB_SPEED_FDR10, ib_speed_from_verbs(8));
	assert_int_equal(IB_SPEED_EDR, ib_speed_from_verbs(32));
	assert_int_equal(IB_SPEED_NDR, ib_speed_from_verbs(128));
	assert_int_equal(IB_SPEED_UNKNOWN, ib_speed_from_verbs(3));
}

static void test_mad_speed_codes(void **state)
{
	(void)state;
	assert_int_equal(IB_SPEED_QDR, ib_speed_from_mad(4, 0, 0));
	assert_int_equal(IB_SPEED_FDR10, ib_speed_from_mad(4, 0, 1));
	assert_int_equal(IB_SPEED_EDR, ib_speed_from_mad(4, 2, 0));
	assert_int_equal(IB_SPEED_HDR, ib_speed_from_mad(4, 4, 0));
	/* rdma-core's aggregate: LinkSpeedExtActive2 1 (XDR) << 4 */
	assert_int_equal(IB_SPEED_XDR, ib_speed_from_mad(0, 16, 0));
	assert_int_equal(IB_SPEED_UNKNOWN, ib_speed_from_mad(0, 0, 0));
}

static void test_width_codes_not_in_order(void **state)
{
	char buf[8];

	(void)state;
	assert_int_equal(1, ib_width_lanes_from_code(1));
	assert_int_equal(4, ib_width_lanes_from_code(2));
	assert_int_equal(8, ib_width_lanes_from_code(4));
	assert_int_equal(12, ib_width_lanes_from_code(8));
	assert_int_equal(2, ib_width_lanes_from_code(16));
	assert_int_equal(0, ib_width_lanes_from_code(3));
	assert_int_equal(16, ib_width_code_from_lanes(2));
	assert_string_equal("4x", ib_width_name(4, buf));
	assert_int_equal(12, ib_width_from_name("12X"));
	assert_int_equal(0, ib_width_from_name("3x"));
	assert_int_equal(0, ib_width_from_name("4"));
}

static void test_data_rates(void **state)
{
	(void)state;
	assert_float_equal(32.0, ib_data_rate_gbps(IB_SPEED_QDR, 4), 1e-9);
	assert_float_equal(54.5, ib_data_rate_gbps(IB_SPEED_FDR, 4), 1e-9);
	assert_float_equal(100.0, ib_data_rate_gbps(IB_SPEED_EDR, 4), 1e-9);
	assert_float_equal(200.0, ib_data_rate_gbps(IB_SPEED_NDR, 2), 1e-9);
	assert_float_equal(400.0, ib_data_rate_gbps(IB_SPEED_NDR, 4), 1e-9);
	assert_float_equal(50.0, gbps_to_GBps(400.0), 1e-9);
	assert_int_equal(IB_SPEED_HDR, ib_speed_from_name("hdr"));
	assert_string_equal("FDR10", ib_speed_name(IB_SPEED_FDR10));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_verbs_speed_codes),
		cmocka_unit_test(test_mad_speed_codes),
		cmocka_unit_test(test_width_codes_not_in_order),
		cmocka_unit_test(test_data_rates),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
