// SPDX-License-Identifier: MIT
/*
 * The module decoder and judge on images built from the byte maps:
 * SFF-8636 and CMIS, clean, one lane's Rx power under its low alarm,
 * temperature over its warning, no module, a CMIS module whose page 11h
 * read fails, a DAC. Exact figures.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "common/record.h"

#include "fabric/fabric_report.h"
#include "fabric/xcvr_judge.h"
#include "xcvr_images.h"

#define EPS 1e-9

static int read_decode(struct fake_module *m, struct xcvr_info *x)
{
	struct xcvr_image img;
	int rc = xcvr_read_image(fm_read, m, &img);

	if (rc && !img.have_lower)
		return xcvr_decode(&img, x);
	return rc ?: xcvr_decode(&img, x);
}

/* Judges a module at "leaf01 port 3" with its link up. */
static void judge(const struct xcvr_info *x, struct fabric_findings *fs,
		  const char *approved)
{
	struct xcvr_port p = { .link_up = 1 };
	struct xcvr_judge_params jp = { .approved_vendors = approved };

	snprintf(p.ref.name, sizeof(p.ref.name), "leaf01");
	p.ref.guid = 0x0002c90300001000ULL;
	p.ref.port = 3;
	p.ref.type = FABRIC_NODE_SWITCH;
	p.info = *x;
	assert_int_equal(0, xcvr_judge(&p, &jp, fs));
}

static const struct fabric_finding *find(const struct fabric_findings *fs,
					 const char *cat)
{
	for (size_t i = 0; i < fs->n; i++)
		if (!strcmp(fs->v[i].category, cat))
			return &fs->v[i];
	return NULL;
}

static const char *ev_str(const struct fabric_finding *f, const char *key)
{
	for (int i = 0; i < f->nev; i++)
		if (!strcmp(f->ev[i].key, key))
			return f->ev[i].str;
	return NULL;
}

static double ev_real(const struct fabric_finding *f, const char *key)
{
	for (int i = 0; i < f->nev; i++)
		if (!strcmp(f->ev[i].key, key))
			return f->ev[i].real;
	return -999;
}

static void test_sff8636_clean(void **state)
{
	struct fake_module m;
	struct xcvr_info x;
	struct fabric_findings fs = { 0 };

	(void)state;
	fm_sff8636(&m);
	assert_int_equal(0, read_decode(&m, &x));
	assert_int_equal(XCVR_MAP_SFF8636, x.map);
	assert_true(x.present);
	assert_int_equal(0x11, x.identifier);
	assert_string_equal("QSFP28", xcvr_identifier_name(x.identifier));
	assert_string_equal("Mellanox", x.vendor);
	assert_string_equal("00:02:c9", x.oui);
	assert_string_equal("MMA1B00-E100", x.part_number);
	assert_string_equal("A0", x.revision);
	assert_string_equal("MT2231FT0042", x.serial);
	assert_string_equal("220805", x.date_code);
	assert_string_equal("850 nm VCSEL", x.type);
	assert_false(x.one_part);
	assert_int_equal(4, x.lanes);
	assert_float_equal(35.0, x.temp_c, EPS);
	assert_float_equal(3.3, x.vcc_v, EPS);
	for (int l = 0; l < 4; l++) {
		assert_float_equal(0.5, x.lane[XCVR_RX_POWER][l], EPS);
		assert_float_equal(6.0, x.lane[XCVR_TX_BIAS][l], EPS);
		assert_float_equal(0.6, x.lane[XCVR_TX_POWER][l], EPS);
		assert_int_equal(0, x.flags[XCVR_RX_POWER][l]);
	}
	assert_float_equal(-3.0103, xcvr_dbm(0.5), 1e-4);
	assert_true(x.thresh[XCVR_TEMP].valid);
	assert_float_equal(75.0, x.thresh[XCVR_TEMP].high_alarm, EPS);
	assert_float_equal(-5.0, x.thresh[XCVR_TEMP].low_alarm, EPS);
	assert_float_equal(70.0, x.thresh[XCVR_TEMP].high_warn, EPS);
	assert_float_equal(3.63, x.thresh[XCVR_VCC].high_alarm, EPS);
	assert_float_equal(3.135, x.thresh[XCVR_VCC].low_warn, EPS);
	assert_float_equal(0.1, x.thresh[XCVR_RX_POWER].low_alarm, EPS);
	assert_float_equal(3.4, x.thresh[XCVR_RX_POWER].high_alarm, EPS);
	assert_float_equal(15.0, x.thresh[XCVR_TX_BIAS].high_alarm, EPS);
	assert_float_equal(3.0, x.thresh[XCVR_TX_BIAS].low_warn, EPS);
	assert_float_equal(0.16, x.thresh[XCVR_TX_POWER].low_warn, EPS);
	assert_string_equal("", x.why);
	judge(&x, &fs, "mellanox, NVIDIA");
	assert_int_equal(0, fs.n);
	fabric_findings_free(&fs);
}

static void test_sff8636_rx_low_lane(void **state)
{
	struct fake_module m;
	struct xcvr_info x;
	struct fabric_findings fs = { 0 };
	const struct fabric_finding *f;

	(void)state;
	fm_sff8636(&m);
	fm_put16(&m, 0, 38, 800); /* lane 3: 0.08 mW, under 0.1 */
	m.lower[10] = 0x40; /* byte 10 bit 6: lane 3 Rx power low alarm */
	assert_int_equal(0, read_decode(&m, &x));
	assert_float_equal(0.08, x.lane[XCVR_RX_POWER][2], EPS);
	assert_int_equal(XCVR_LALARM, x.flags[XCVR_RX_POWER][2]);
	assert_int_equal(0, x.flags[XCVR_RX_POWER][3]);
	judge(&x, &fs, NULL);
	assert_int_equal(1, fs.n);
	f = find(&fs, "transceiver-rx-power-low");
	assert_non_null(f);
	assert_string_equal("fail", f->severity);
	assert_string_equal("replace-optic", f->action);
	assert_string_equal("3", ev_str(f, "lanes"));
	assert_float_equal(-10.969, ev_real(f, "rx_power_dbm"), 1e-3);
	assert_float_equal(-10.0, ev_real(f, "low_alarm_dbm"), 1e-9);
	assert_string_equal("MT2231FT0042", ev_str(f, "serial"));
	assert_non_null(strstr(f->message, "lane 3"));
	fabric_findings_free(&fs);

	/* the same figures on a link that is down: no light, no finding */
	struct xcvr_port p = { .link_up = 0, .info = x };

	snprintf(p.ref.name, sizeof(p.ref.name), "leaf01");
	assert_int_equal(0, xcvr_judge(&p, NULL, &fs));
	assert_int_equal(0, fs.n);
}

static void test_sff8636_temp_warning(void **state)
{
	struct fake_module m;
	struct xcvr_info x;
	struct fabric_findings fs = { 0 };
	const struct fabric_finding *f;

	(void)state;
	fm_sff8636(&m);
	fm_put16(&m, 0, 22, 0x4800); /* 72.0 C: over 70 warning */
	m.lower[6] = 0x20; /* byte 6 bit 5: high temperature warning */
	assert_int_equal(0, read_decode(&m, &x));
	assert_float_equal(72.0, x.temp_c, EPS);
	assert_int_equal(XCVR_HWARN, x.flags[XCVR_TEMP][0]);
	judge(&x, &fs, "Mellanox");
	assert_int_equal(1, fs.n);
	f = find(&fs, "transceiver-warning");
	assert_non_null(f);
	assert_string_equal("warn", f->severity);
	assert_string_equal("reseat", f->action);
	assert_string_equal("temperature 72.0 C (high 75.0 C)",
			    ev_str(f, "warnings"));
	fabric_findings_free(&fs);

	/* 76 C: past its own high alarm threshold, flag or not */
	fm_put16(&m, 0, 22, 0x4c00);
	assert_int_equal(0, read_decode(&m, &x));
	judge(&x, &fs, NULL);
	f = find(&fs, "transceiver-alarm");
	assert_non_null(f);
	assert_string_equal("fail", f->severity);
	assert_string_equal("temperature 76.0 C (high 75.0 C)",
			    ev_str(f, "alarms"));
	fabric_findings_free(&fs);
}

static void test_absent_module(void **state)
{
	struct fake_module m;
	struct xcvr_info x;
	struct fabric_findings fs = { 0 };
	const struct fabric_finding *f;

	(void)state;
	fm_sff8636(&m);
	m.fail_rc = -ENODEV;
	m.fail_why = "cable is not connected";
	assert_int_equal(-ENODEV, read_decode(&m, &x));
	assert_false(x.present);
	assert_string_equal("cable is not connected", x.why);
	judge(&x, &fs, "Mellanox");
	assert_int_equal(1, fs.n);
	f = find(&fs, "transceiver-unreadable");
	assert_non_null(f);
	assert_string_equal("info", f->severity);
	assert_string_equal("cable is not connected", ev_str(f, "reason"));
	fabric_findings_free(&fs);

	/* an empty cage read as bytes: identifier 0 */
	fm_sff8636(&m);
	m.lower[0] = 0;
	assert_int_equal(-ENODEV, read_decode(&m, &x));
	assert_string_equal("no module in the cage", x.why);
}

static void test_cmis_clean(void **state)
{
	struct fake_module m;
	struct xcvr_info x;
	struct fabric_findings fs = { 0 };

	(void)state;
	fm_cmis(&m);
	assert_int_equal(0, read_decode(&m, &x));
	assert_int_equal(XCVR_MAP_CMIS, x.map);
	assert_string_equal("OSFP", xcvr_identifier_name(x.identifier));
	assert_string_equal("NVIDIA", x.vendor);
	assert_string_equal("48:b0:2d", x.oui);
	assert_string_equal("MMA4Z00-NS", x.part_number);
	assert_string_equal("B1", x.revision);
	assert_string_equal("MT2301FT0001", x.serial);
	assert_string_equal("230115", x.date_code);
	assert_int_equal(8, x.lanes);
	assert_float_equal(40.5, x.temp_c, EPS);
	assert_float_equal(3.25, x.vcc_v, EPS);
	for (int l = 0; l < 8; l++) {
		assert_float_equal(0.8, x.lane[XCVR_RX_POWER][l], EPS);
		assert_float_equal(12.0, x.lane[XCVR_TX_BIAS][l], EPS);
		assert_float_equal(1.0, x.lane[XCVR_TX_POWER][l], EPS);
	}
	assert_float_equal(80.0, x.thresh[XCVR_TEMP].high_alarm, EPS);
	assert_float_equal(3.465, x.thresh[XCVR_VCC].high_alarm, EPS);
	assert_float_equal(20.0, x.thresh[XCVR_TX_BIAS].high_alarm, EPS);
	assert_float_equal(0.2, x.thresh[XCVR_TX_POWER].low_alarm, EPS);
	assert_float_equal(0.15, x.thresh[XCVR_RX_POWER].low_warn, EPS);
	judge(&x, &fs, NULL);
	assert_int_equal(0, fs.n);
	fabric_findings_free(&fs);
}

static void test_cmis_lane5_rx_low_and_record(void **state)
{
	struct fake_module m;
	struct xcvr_port p = { .link_up = -1 };
	struct fabric_findings fs = { 0 };
	const struct fabric_finding *f;
	json_t *rec, *lanes;

	(void)state;
	fm_cmis(&m);
	fm_put16(&m, 0x11, 186 + 8, 1100); /* lane 5: 0.11 mW, -9.59 dBm */
	*fm_at(&m, 0x11, 150) = 0x10; /* Rx power low alarm, bit 4 */
	*fm_at(&m, 0x11, 151) = 0x00;
	assert_int_equal(0, read_decode(&m, &p.info));
	assert_int_equal(XCVR_LALARM, p.info.flags[XCVR_RX_POWER][4]);
	snprintf(p.ref.name, sizeof(p.ref.name), "spine02");
	p.ref.port = 17;
	p.ref.type = FABRIC_NODE_SWITCH;
	p.info.source = "test";
	assert_int_equal(0, xcvr_judge(&p, NULL, &fs));
	f = find(&fs, "transceiver-rx-power-low");
	assert_non_null(f);
	assert_string_equal("5", ev_str(f, "lanes"));
	assert_float_equal(-9.586, ev_real(f, "rx_power_dbm"), 1e-3);
	fabric_findings_free(&fs);

	rec = xcvr_record(&p);
	assert_non_null(rec);
	char why[128];

	assert_int_equal(0, record_validate(rec, why, sizeof(why)));
	assert_string_equal("MT2301FT0001",
			    json_string_value(json_object_get(rec, "serial")));
	lanes = json_object_get(rec, "lanes");
	assert_int_equal(8, json_array_size(lanes));
	assert_float_equal(-9.586,
			   json_real_value(json_object_get(
				   json_array_get(lanes, 4), "rx_power_dbm")),
			   1e-3);
	assert_float_equal(12.0,
			   json_real_value(json_object_get(
				   json_array_get(lanes, 0), "tx_bias_ma")),
			   EPS);
	assert_int_equal(17, json_integer_value(json_object_get(
				     json_object_get(rec, "port"), "port")));
	json_decref(rec);
}

static void test_cmis_page11_fails(void **state)
{
	struct fake_module m;
	struct xcvr_info x;
	struct fabric_findings fs = { 0 };
	const struct fabric_finding *f;

	(void)state;
	fm_cmis(&m);
	m.fail_pages = 1u << 0x11;
	m.fail_why = "I2C bus is constantly busy";
	assert_int_equal(0, read_decode(&m, &x));
	assert_true(x.present);
	assert_string_equal("MT2301FT0001", x.serial);
	assert_float_equal(40.5, x.temp_c, EPS);
	assert_false(x.has[XCVR_RX_POWER]);
	assert_false(x.has[XCVR_TX_BIAS]);
	assert_true(x.thresh[XCVR_RX_POWER].valid); /* page 02h was read */
	assert_string_equal("page 11h: I2C bus is constantly busy", x.why);
	judge(&x, &fs, NULL);
	assert_int_equal(1, fs.n);
	f = find(&fs, "transceiver-unreadable");
	assert_non_null(f);
	assert_string_equal("info", f->severity);
	fabric_findings_free(&fs);
}

static void test_dac_and_vendor_list(void **state)
{
	struct fake_module m;
	struct xcvr_info x;
	struct fabric_findings fs = { 0 };
	const struct fabric_finding *f;

	(void)state;
	fm_sff8636(&m);
	*fm_at(&m, 0, 147) = 0xa0; /* copper, unequalized */
	*fm_at(&m, 0, 130) = 0x23; /* no separable connector */
	*fm_at(&m, 0, 146) = 3; /* 3 m */
	fm_str(&m, 0, 148, 16, "Acme\x01Optics");
	m.lower[6] = 0x80; /* high temperature alarm */
	assert_int_equal(0, read_decode(&m, &x));
	assert_true(x.one_part);
	assert_string_equal("copper, unequalized", x.type);
	assert_float_equal(3.0, x.length_m, EPS);
	assert_string_equal("Acme?Optics", x.vendor); /* untrusted bytes */
	judge(&x, &fs, "Mellanox,NVIDIA");
	f = find(&fs, "transceiver-alarm");
	assert_non_null(f);
	assert_string_equal("replace-cable", f->action);
	f = find(&fs, "transceiver-unapproved");
	assert_non_null(f);
	assert_string_equal("warn", f->severity);
	assert_true(xcvr_vendor_approved(" nvidia , Mellanox", "Mellanox"));
	assert_false(xcvr_vendor_approved("Mellanox", "Mellanox2"));
	fabric_findings_free(&fs);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sff8636_clean),
		cmocka_unit_test(test_sff8636_rx_low_lane),
		cmocka_unit_test(test_sff8636_temp_warning),
		cmocka_unit_test(test_absent_module),
		cmocka_unit_test(test_cmis_clean),
		cmocka_unit_test(test_cmis_lane5_rx_low_and_record),
		cmocka_unit_test(test_cmis_page11_fails),
		cmocka_unit_test(test_dac_and_vendor_list),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
