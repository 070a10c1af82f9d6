// SPDX-License-Identifier: MIT
/*
 * XDR ports whose verbs speed is unknown (rdma-core 44 has no
 * active_speed_ex): the rate comes from the kernel's sysfs string, burnin
 * expects 800 Gb/s of them, a port trained down to NDR beside XDR peers is
 * flagged, and the floor rule judges pairs against 800.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "burnin/burnin.h"
#include "common/ibrate.h"
#include "rdma/port_sysfs.h"

#define XDR_ROOT FIXTURES_DIR "/sysfs-ib/xdr-node"

/* A port as verbs_ops.c's port_from_attr fills it: 4x, speed code 0. */
static struct dpath_port xdr_port(int i)
{
	struct dpath_port p;

	memset(&p, 0, sizeof(p));
	snprintf(p.ca, sizeof(p.ca), "mlx5_%d", i);
	snprintf(p.host, sizeof(p.host), "node%d", i);
	p.port = 1;
	dpath_port_set_ib_rate(XDR_ROOT, &p, 2 /* 4x */, 0 /* unknown */);
	return p;
}

static void test_rate_table_knows_xdr(void **state)
{
	double nominal;
	enum ib_speed speed;
	int lanes;

	(void)state;
	assert_float_equal(200.0, ib_speed_lane_gbps(IB_SPEED_XDR), 1e-9);
	assert_float_equal(212.5, ib_speed_signal_gbps(IB_SPEED_XDR), 1e-9);
	assert_float_equal(106.25, ib_speed_signal_gbps(IB_SPEED_NDR), 1e-9);
	assert_string_equal("256b/257b+FEC", ib_speed_encoding(IB_SPEED_XDR));
	assert_float_equal(800.0, ib_data_rate_gbps(IB_SPEED_XDR, 4), 1e-9);
	/* verbs has no code for XDR: never a guess */
	assert_int_equal(IB_SPEED_UNKNOWN, ib_speed_from_verbs(256));
	assert_int_equal(IB_SPEED_UNKNOWN, ib_speed_from_verbs(0));
	assert_int_equal(0, ib_rate_parse_sysfs("800 Gb/sec (4X XDR)", &nominal,
						&lanes, &speed));
	assert_float_equal(800.0, nominal, 1e-9);
	assert_int_equal(4, lanes);
	assert_int_equal(IB_SPEED_XDR, speed);
	assert_int_equal(0, ib_rate_parse_sysfs("400 Gb/sec (2X XDR)", &nominal,
						&lanes, &speed));
	assert_int_equal(2, lanes);
	assert_int_equal(-EINVAL,
			 ib_rate_parse_sysfs("1600 Gb/sec (4X GDR)", &nominal,
					     &lanes, &speed));
	assert_int_equal(IB_SPEED_UNKNOWN, speed);
	assert_float_equal(1600.0, nominal, 1e-9);
	assert_int_equal(-EINVAL, ib_rate_parse_sysfs("garbage", &nominal,
						      &lanes, &speed));
}

static void test_sysfs_fallback(void **state)
{
	struct dpath_port p = xdr_port(0), ndr = xdr_port(2), none;

	(void)state;
	assert_float_equal(800.0, p.rate_gbps, 1e-9);
	assert_int_equal(4, p.width);
	assert_string_equal("XDR", p.speed);
	assert_float_equal(400.0, ndr.rate_gbps, 1e-9);
	assert_string_equal("NDR", ndr.speed);
	/* a known verbs speed wins over sysfs */
	dpath_port_set_ib_rate(XDR_ROOT, &p, 2, 128);
	assert_float_equal(400.0, p.rate_gbps, 1e-9);
	/* neither verbs nor sysfs: no rate, never a guess */
	memset(&none, 0, sizeof(none));
	snprintf(none.ca, sizeof(none.ca), "mlx5_9");
	none.port = 1;
	dpath_port_set_ib_rate(XDR_ROOT, &none, 2, 0);
	assert_float_equal(0.0, none.rate_gbps, 1e-9);
	assert_string_equal("", none.speed);
}

/* Four hosts' rail 0: three XDR, one trained down to NDR. */
static void test_ndr_beside_xdr_peers(void **state)
{
	struct dpath_port ports[4];
	struct burnin_rate_ref ref[4];
	struct burnin_judge_params jp;

	(void)state;
	for (int i = 0; i < 4; i++)
		ports[i] = xdr_port(i);
	burnin_judge_defaults(&jp);
	assert_int_equal(0, burnin_link_rate_references(&jp, ports, 4, ref));
	assert_int_equal(-1, ref[0].ref);
	assert_int_equal(-1, ref[1].ref);
	assert_int_equal(-1, ref[3].ref);
	assert_true(ref[2].ref >= 0 && ref[2].ref != 2);
	assert_float_equal(800.0, ports[ref[2].ref].rate_gbps, 1e-9);
	assert_int_equal(3, ref[2].n_at_rate);
}

/* The floor rule: a pair of XDR ports at 390 Gb/s is low against 800 (it
 * was silently off with an expected rate of 0). */
static void test_floor_applies(void **state)
{
	struct dpath_port a = xdr_port(0), b = xdr_port(1);
	struct burnin_measure m = { .a = 0,
				    .b = 1,
				    .status = BURNIN_PAIR_OK,
				    .gbps = 390,
				    .gbps_min = 390 };
	struct burnin_port_verdict v[2];
	struct burnin_judge_params jp;

	(void)state;
	m.expected_gbps = a.rate_gbps < b.rate_gbps ? a.rate_gbps : b.rate_gbps;
	assert_float_equal(800.0, m.expected_gbps, 1e-9);
	burnin_judge_defaults(&jp);
	assert_int_equal(0, burnin_judge(&jp, &m, 1, v, 2));
	assert_true(m.low);
	m.gbps = m.gbps_min = 780;
	m.low = false;
	assert_int_equal(0, burnin_judge(&jp, &m, 1, v, 2));
	assert_false(m.low);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rate_table_knows_xdr),
		cmocka_unit_test(test_sysfs_fallback),
		cmocka_unit_test(test_ndr_beside_xdr_peers),
		cmocka_unit_test(test_floor_applies),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
