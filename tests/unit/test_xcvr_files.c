// SPDX-License-Identifier: MIT
/*
 * Module facts from files: the CABLE_INFO section of an ibdiagnet2.db_csv
 * (columns by name; truncated section, missing column, a 10 MB line each
 * a FILE:LINE error) and mlxlink -m output, text and --json, parsed to
 * exactly their figures.
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

#include "fabric/xcvr.h"
#include "xcvr_scratch.h"

#define FX FIXTURES_DIR "/xcvr/"

struct rows {
	struct xcvr_row v[8];
	int n;
};

static int take_row(void *ctx, const struct xcvr_row *row)
{
	struct rows *r = ctx;

	if (r->n == 8)
		return -ENOSPC;
	r->v[r->n++] = *row;
	return 0;
}

static void test_dbcsv_sample(void **state)
{
	struct rows r = { .n = 0 };
	char err[256] = "";
	const struct xcvr_info *x;

	(void)state;
	assert_int_equal(0,
			 xcvr_load_ibdiagnet(FX "ibdiagnet2.db_csv", take_row,
					     &r, err, sizeof(err)));
	assert_int_equal(3, r.n);

	x = &r.v[0].info;
	assert_int_equal(0x0002c90300001000ULL, r.v[0].node_guid);
	assert_int_equal(0x0002c90300001000ULL, r.v[0].port_guid);
	assert_int_equal(1, r.v[0].port);
	assert_int_equal(8, r.v[0].line);
	assert_fixture_sr4(x);
	assert_int_equal(0x11, x->identifier);
	assert_float_equal(0.5, x->lane[XCVR_RX_POWER][0], 1e-9);
	assert_float_equal(6.0, x->lane[XCVR_TX_BIAS][3], 1e-9);
	assert_float_equal(0.6, x->lane[XCVR_TX_POWER][2], 1e-9);
	assert_float_equal(75.0, x->thresh[XCVR_TEMP].high_alarm, 1e-9);
	assert_float_equal(-5.0, x->thresh[XCVR_TEMP].low_alarm, 1e-9);
	assert_float_equal(70.0, x->thresh[XCVR_TEMP].high_warn, 1e-9);
	assert_float_equal(0.1, x->thresh[XCVR_RX_POWER].low_alarm, 1e-9);
	assert_float_equal(15.0, x->thresh[XCVR_TX_BIAS].high_alarm, 1e-9);

	x = &r.v[1].info;
	assert_int_equal(2, r.v[1].port);
	assert_string_equal("MT2231FT0043", x->serial);
	assert_float_equal(0.08, x->lane[XCVR_RX_POWER][1], 1e-9);
	assert_int_equal(XCVR_LALARM | XCVR_LWARN, x->flags[XCVR_RX_POWER][1]);
	assert_int_equal(0, x->flags[XCVR_RX_POWER][0]);

	x = &r.v[2].info; /* a DAC: no monitors, every figure N/A */
	assert_int_equal(0x0002c90300000011ULL, r.v[2].port_guid);
	assert_string_equal("MCP1650-H001E30", x->part_number);
	assert_true(x->one_part);
	assert_false(x->has[XCVR_TEMP]);
	assert_false(x->has[XCVR_RX_POWER]);
	assert_false(x->thresh[XCVR_RX_POWER].valid);
}

static int load_err(const char *path, char *err, size_t len)
{
	struct rows r = { .n = 0 };
	int rc = xcvr_load_ibdiagnet(path, take_row, &r, err, len);

	unlink(path);
	return rc;
}

static void test_dbcsv_errors(void **state)
{
	char err[256], want[400];
	const char *p;

	(void)state;
	p = scratch("trunc.db_csv", "START_CABLE_INFO\n"
				    "NodeGuid,PortNum,Vendor,PN,SN\n"
				    "0x1,1,Mellanox,MMA1B00-E100,MT1\n"
				    "0x1,2,Mellanox,MMA1B00-E100,MT2\n");
	assert_int_equal(-EINVAL, load_err(p, err, sizeof(err)));
	snprintf(want, sizeof(want),
		 "%s:4: truncated: START_CABLE_INFO at line 1 has no "
		 "END_CABLE_INFO",
		 p);
	assert_string_equal(want, err);

	p = scratch("nocol.db_csv", "START_CABLE_INFO\n"
				    "NodeGuid,PortNum,Vendor,PN\n"
				    "0x1,1,Mellanox,MMA1B00-E100\n"
				    "END_CABLE_INFO\n");
	assert_int_equal(-EINVAL, load_err(p, err, sizeof(err)));
	snprintf(want, sizeof(want),
		 "%s:2: CABLE_INFO header has no column 'SN' (columns are "
		 "found by name)",
		 p);
	assert_string_equal(want, err);

	p = scratch("short.db_csv", "START_CABLE_INFO\n"
				    "NodeGuid,PortNum,Vendor,PN,SN\n"
				    "0x1,1,Mellanox,MMA1B00-E100\n"
				    "END_CABLE_INFO\n");
	assert_int_equal(-EINVAL, load_err(p, err, sizeof(err)));
	snprintf(want, sizeof(want),
		 "%s:3: CABLE_INFO row has 4 fields, the header has 5", p);
	assert_string_equal(want, err);

	p = scratch("port.db_csv", "START_CABLE_INFO\n"
				   "NodeGuid,PortNum,Vendor,PN,SN\n"
				   "0x1,300,Mellanox,MMA1B00-E100,MT1\n"
				   "END_CABLE_INFO\n");
	assert_int_equal(-EINVAL, load_err(p, err, sizeof(err)));
	assert_non_null(strstr(err, ":3: PortNum: expected a port number"));

	p = scratch("none.db_csv", "START_NODES\nNodeGUID\n0x1\nEND_NODES\n");
	assert_int_equal(-ENOENT, load_err(p, err, sizeof(err)));
	assert_non_null(strstr(err, "no START_CABLE_INFO section"));
}

/* A 10 MB line is an error with FILE:LINE, read past, never kept. */
static void test_dbcsv_huge_line(void **state)
{
	(void)state;
	expect_huge_line(xcvr_load_ibdiagnet, "huge.db_csv",
			 "START_CABLE_INFO\nNodeGuid,PortNum,Vendor,PN,SN\n"
			 "0x1,1,Mellanox,",
			 ",MT1\nEND_CABLE_INFO\n");
}

static void test_mlxlink_text(void **state)
{
	struct xcvr_info x;
	char err[256] = "";
	int up;

	(void)state;
	assert_int_equal(0, xcvr_load_mlxlink(FX "mlxlink-ndr-osfp.txt", &x,
					      &up, err, sizeof(err)));
	assert_true(x.present);
	assert_int_equal(1, up);
	assert_string_equal("mlxlink", x.source);
	assert_string_equal("FS", x.vendor);
	assert_string_equal("OSFPFL-400G-PC01", x.part_number);
	assert_string_equal("C2604279049-2", x.serial);
	assert_string_equal("00", x.revision);
	assert_string_equal("Nvidia", x.oui);
	assert_string_equal("09_04_26", x.date_code);
	assert_string_equal("Copper cable, passive, unequalized", x.type);
	assert_int_equal(0x19, x.identifier);
	assert_true(x.one_part);
	assert_float_equal(1.0, x.length_m, 1e-9);
	/* "0 [0..0]" and "0,0,0,0 [0..0]": a DAC reports no monitors */
	assert_false(x.has[XCVR_TEMP]);
	assert_false(x.has[XCVR_VCC]);
	assert_false(x.has[XCVR_RX_POWER]);
	assert_false(x.has[XCVR_TX_BIAS]);
	/* Rx LOS [per lane] : 1,0,1,1 */
	assert_true(x.has_rx_los);
	assert_int_equal(0x0d, x.rx_los);
	assert_int_equal(4, x.lanes);
}

static void test_mlxlink_json(void **state)
{
	struct xcvr_info x;
	char err[256] = "";
	int up;

	(void)state;
	assert_int_equal(0, xcvr_load_mlxlink(FX "mlxlink-sr4-optic.json", &x,
					      &up, err, sizeof(err)));
	assert_true(x.present);
	assert_int_equal(1, up);
	assert_string_equal("Mellanox", x.vendor);
	assert_string_equal("MMA1T00-HS", x.part_number);
	assert_string_equal("MT2231FT0042", x.serial);
	assert_string_equal("A3", x.revision);
	assert_int_equal(0x11, x.identifier);
	assert_false(x.one_part);
	assert_float_equal(46.0, x.temp_c, 1e-9);
	assert_float_equal(75.0, x.thresh[XCVR_TEMP].high_alarm, 1e-9);
	assert_float_equal(-5.0, x.thresh[XCVR_TEMP].low_alarm, 1e-9);
	assert_float_equal(3.2916, x.vcc_v, 1e-9);
	assert_float_equal(7.6, x.lane[XCVR_TX_BIAS][1], 1e-9);
	assert_float_equal(-11.2, xcvr_dbm(x.lane[XCVR_RX_POWER][1]), 1e-9);
	assert_float_equal(1.2, xcvr_dbm(x.lane[XCVR_TX_POWER][2]), 1e-9);
	assert_int_equal(0x02, x.rx_los);
	assert_int_equal(4, x.lanes);
}

/* The real MFT 4.34.1 --json output (tests/fixtures/phy/): a 400G DR4
 * OSFP, its vendor name and serial anonymised by its publisher. */
static void test_mlxlink_json_real(void **state)
{
	struct xcvr_info x;
	char err[256] = "";
	int up;

	(void)state;
	assert_int_equal(0, xcvr_load_mlxlink(FIXTURES_DIR
					      "/phy/mlxlink-json-400g-dr4.json",
					      &x, &up, err, sizeof(err)));
	assert_true(x.present);
	assert_int_equal(1, up); /* State : Active */
	assert_string_equal("EXAMPLE", x.vendor);
	assert_string_equal("OSFP-400G-DR4", x.part_number);
	assert_string_equal("S00XXX000000", x.serial);
	assert_string_equal("1A", x.revision);
	assert_float_equal(61.0, x.temp_c, 1e-9);
	assert_float_equal(80.0, x.thresh[XCVR_TEMP].high_alarm, 1e-9);
	assert_float_equal(3.2355, x.vcc_v, 1e-9);
	assert_float_equal(248.416, x.lane[XCVR_TX_BIAS][2], 1e-9);
	assert_float_equal(3.583, xcvr_dbm(x.lane[XCVR_RX_POWER][0]), 1e-3);
	assert_float_equal(1.274, xcvr_dbm(x.lane[XCVR_TX_POWER][3]), 1e-3);
	assert_int_equal(4, x.lanes);
}

static void test_mlxlink_bad(void **state)
{
	struct xcvr_info x;
	char err[256] = "", want[320];
	const char *p;
	int up;

	(void)state;
	p = scratch("bad.json", "{\"result\": {\"output\": \n[}\n");
	assert_int_equal(-EINVAL,
			 xcvr_load_mlxlink(p, &x, &up, err, sizeof(err)));
	snprintf(want, sizeof(want), "%s:2:", p);
	assert_memory_equal(want, err, strlen(want));
	unlink(p);

	p = scratch("empty.txt", "mlxlink: no device\n");
	assert_int_equal(0, xcvr_load_mlxlink(p, &x, &up, err, sizeof(err)));
	assert_false(x.present);
	assert_string_equal("mlxlink output has no module (no Module Info)",
			    x.why);
	unlink(p);
	assert_int_equal(-ENOENT, xcvr_load_mlxlink("/nonexistent/m.txt", &x,
						    &up, err, sizeof(err)));
}

/*
 * Found by fuzz_mlxlink: figures that are not finite numbers ("nan",
 * "inf", or a dBm so large its mW overflow) were read as measured
 * values, and NaN or inf went on to the judge and the records. They count
 * as absent, as N/A does; so does a range that is not finite.
 */
static void test_mlxlink_not_finite(void **state)
{
	struct xcvr_info x;
	char err[256] = "";
	const char *p;
	int up;

	(void)state;
	p = scratch("nan.txt", "Identifier : OSFP\n"
			       "Vendor Name : NVIDIA\n"
			       "Temperature [C] : nan [-5..75]\n"
			       "Voltage [mV] : inf [3000..3600]\n"
			       "Rx Power Current [dBm] : 4000,1 [-10..4]\n"
			       "Tx Power Current [dBm] : 1,2 [-10..4000]\n"
			       "Bias Current [mA] : 7,7 [-inf..15]\n");
	assert_int_equal(0, xcvr_load_mlxlink(p, &x, &up, err, sizeof(err)));
	assert_true(x.present);
	assert_false(x.has[XCVR_TEMP]);
	assert_false(x.has[XCVR_VCC]);
	assert_false(x.has[XCVR_RX_POWER]);
	assert_true(x.has[XCVR_TX_POWER]);
	assert_false(x.thresh[XCVR_TX_POWER].valid);
	assert_true(x.has[XCVR_TX_BIAS]);
	assert_false(x.thresh[XCVR_TX_BIAS].valid);
	unlink(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dbcsv_sample),
		cmocka_unit_test(test_dbcsv_errors),
		cmocka_unit_test(test_dbcsv_huge_line),
		cmocka_unit_test(test_mlxlink_text),
		cmocka_unit_test(test_mlxlink_json),
		cmocka_unit_test(test_mlxlink_json_real),
		cmocka_unit_test(test_mlxlink_bad),
		cmocka_unit_test(test_mlxlink_not_finite),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
