// SPDX-License-Identifier: MIT
/*
 * Issue 35: `mlxlink -c` "Physical Counters and BER Info" from real public
 * outputs (tests/fixtures/phy/README in tests/fixtures/README.md) to exact
 * figures, as text and as --json; malformed figures refused with
 * FILE:LINE; a raw BER over the speed's limit gives the warning however
 * clean the symbol count.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "fabric/phy_ber.h"

#define FX FIXTURES_DIR "/phy/"

static void test_forum_cx4(void **state)
{
	struct phy_ber b;
	char err[512] = "";

	(void)state;
	assert_int_equal(0, phy_ber_load_mlxlink(FX "mlxlink-c-cx4-100gbe.txt",
						 &b, err, sizeof(err)));
	assert_true(b.present);
	assert_int_equal(IB_SPEED_UNKNOWN, b.speed); /* 100GbE: Ethernet */
	assert_true(b.minutes == 1715.4);
	assert_true(b.has_eff_errors && b.eff_errors == 0);
	assert_true(b.has_eff && b.eff_ber == 15e-255);
	assert_true(b.has_raw && b.raw_ber == 3e-12);
	assert_false(b.has_sym);
	assert_int_equal(4, b.lanes);
	assert_int_equal(26711, b.lane_errors[0]);
	assert_int_equal(0, b.lane_errors[1]);
	assert_int_equal(9108, b.lane_errors[3]);
	assert_int_equal(-1, b.link_down);
}

static void test_sichek_400g(void **state)
{
	struct phy_ber b;
	struct fabric_findings fs = { 0 };
	char err[512] = "";

	(void)state;
	assert_int_equal(0, phy_ber_load_mlxlink(FX "mlxlink-c-400g.txt", &b,
						 err, sizeof(err)));
	assert_true(b.minutes == 348349.5);
	assert_true(b.eff_ber == 15e-255);
	assert_true(b.raw_ber == 2e-9);
	assert_int_equal(4, b.lanes);
	assert_int_equal(5120336064ull, b.lane_errors[1]); /* > 2^32 */
	assert_int_equal(7692183445ull, b.lane_errors[2]);
	assert_int_equal(0, b.link_down);
	assert_int_equal(0, b.link_recovery);
	/* healthy at NDR: raw 2e-9, nothing after FEC */
	assert_int_equal(0, phy_ber_judge(&b, IB_SPEED_NDR, NULL, "x", &fs));
	assert_int_equal(0, fs.n);
	fabric_findings_free(&fs);
}

static char *fixture_with(const char *key, const char *value)
{
	static char text[4096];
	char line[256];
	FILE *f = fopen(FX "mlxlink-c-400g.txt", "r");
	size_t used = 0;

	assert_non_null(f);
	text[0] = '\0';
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, key, strlen(key)))
			snprintf(line, sizeof(line), "%-35s: %s\n", key, value);
		used += (size_t)snprintf(text + used, sizeof(text) - used, "%s",
					 line);
	}
	fclose(f);
	return text;
}

/* The real capture with one figure changed: raw BER 5E-6 on an NDR link
 * whose symbol count is clean: the warning, with the figure. */
static void test_raw_over_limit_clean_symbols(void **state)
{
	struct phy_ber b;
	struct fabric_findings fs = { 0 };
	struct fabric_ref ref = { .port = 17 };
	char err[512] = "", *text;

	(void)state;
	snprintf(ref.name, sizeof(ref.name), "leaf01");
	text = fixture_with("Raw Physical BER", "5E-6");
	assert_int_equal(
		0, phy_ber_parse_text("x.txt", text, &b, err, sizeof(err)));
	b.has_sym_errors = true; /* "Symbol Errors : 0" */
	assert_int_equal(0, phy_ber_judge(&b, IB_SPEED_NDR, &ref,
					  "leaf01 port 17", &fs));
	assert_int_equal(1, fs.n);
	assert_string_equal("warn", fs.v[0].severity);
	assert_string_equal("ber-raw", fs.v[0].category);
	assert_string_equal("reseat", fs.v[0].action);
	assert_non_null(strstr(fs.v[0].message, "raw BER 5e-06"));
	assert_non_null(strstr(fs.v[0].message, "no symbol errors yet"));
	fabric_findings_free(&fs);
	memset(&fs, 0, sizeof(fs));
	/* at the FEC's limit: fail */
	text = fixture_with("Raw Physical BER", "3E-4");
	assert_int_equal(
		0, phy_ber_parse_text("x.txt", text, &b, err, sizeof(err)));
	assert_int_equal(0, phy_ber_judge(&b, IB_SPEED_HDR, &ref, "w", &fs));
	assert_string_equal("fail", fs.v[0].severity);
	assert_string_equal("replace-cable", fs.v[0].action);
	fabric_findings_free(&fs);
	memset(&fs, 0, sizeof(fs));
	/* errors after FEC at NDR: 1e-13 > 1e-14 */
	text = fixture_with("Effective Physical BER", "1E-13");
	assert_int_equal(
		0, phy_ber_parse_text("x.txt", text, &b, err, sizeof(err)));
	b.eff_errors = 12;
	assert_int_equal(0, phy_ber_judge(&b, IB_SPEED_NDR, &ref, "w", &fs));
	assert_int_equal(1, fs.n);
	assert_string_equal("ber-post-fec", fs.v[0].category);
	fabric_findings_free(&fs);
}

static void test_malformed_refused(void **state)
{
	static const struct {
		const char *key, *value;
	} bad[] = {
		{ "Raw Physical BER", "N/A" },
		{ "Raw Physical BER", "nan" },
		{ "Effective Physical BER", "1E400" },
		{ "Effective Physical BER", "15E-999" },
		{ "Raw Physical BER", "-3E-12" },
		{ "Raw Physical Errors Per Lane", "1,2,3,4,5,6,7,8,9" },
		{ "Raw Physical Errors Per Lane", "1,,3" },
		{ "Effective Physical Errors", "99999999999999999999999" },
		{ "Time Since Last Clear [Min]", "inf" },
	};
	struct phy_ber b;
	char err[512];

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = '\0';
		assert_int_equal(-EINVAL,
				 phy_ber_parse_text(
					 "cap.txt",
					 fixture_with(bad[i].key, bad[i].value),
					 &b, err, sizeof(err)));
		assert_non_null(strstr(err, "cap.txt:"));
		assert_non_null(strstr(err, bad[i].key));
	}
	/* a file with no such block: nothing read, no error */
	assert_int_equal(0, phy_ber_parse_text("m.txt", "Module Info\n", &b,
					       err, sizeof(err)));
	assert_false(b.present);
}

#define JSON_FX FX "mlxlink-json-400g-dr4.json"

/* The real --json capture with one piece of text replaced (the replacement
 * must occur in it). */
static char *json_with(const char *from, const char *to)
{
	static char text[8192];
	char orig[8192], *at;
	FILE *f = fopen(JSON_FX, "r");
	size_t n;

	assert_non_null(f);
	n = fread(orig, 1, sizeof(orig) - 1, f);
	fclose(f);
	orig[n] = '\0';
	at = strstr(orig, from);
	assert_non_null(at);
	snprintf(text, sizeof(text), "%.*s%s%s", (int)(at - orig), orig, to,
		 at + strlen(from));
	return text;
}

/* mlxlink -m -c --json, MFT 4.34.1, a 400G Ethernet link on a DR4 OSFP:
 * every figure of its "Physical Counters and BER Info" section. */
static void test_json_400g_dr4(void **state)
{
	struct phy_ber b;
	struct fabric_findings fs = { 0 };
	char err[512] = "";

	(void)state;
	assert_int_equal(0,
			 phy_ber_load_mlxlink(JSON_FX, &b, err, sizeof(err)));
	assert_true(b.present);
	assert_int_equal(IB_SPEED_UNKNOWN, b.speed); /* "400G": Ethernet */
	assert_true(b.minutes == 2718.1);
	assert_true(b.has_eff_errors && b.eff_errors == 0);
	assert_true(b.has_eff && b.eff_ber == 15e-255);
	assert_true(b.has_raw && b.raw_ber == 5e-10);
	assert_false(b.has_sym);
	assert_false(b.has_sym_errors);
	assert_int_equal(4, b.lanes);
	assert_int_equal(3017647, b.lane_errors[0]);
	assert_int_equal(15132549, b.lane_errors[1]);
	assert_int_equal(7368641, b.lane_errors[2]);
	assert_int_equal(9233545, b.lane_errors[3]);
	assert_int_equal(0, b.link_down);
	assert_int_equal(0, b.link_recovery);
	/* healthy at NDR: raw 5e-10, nothing after FEC */
	assert_int_equal(0, phy_ber_judge(&b, IB_SPEED_NDR, NULL, "x", &fs));
	assert_int_equal(0, fs.n);
	/* the same text from memory, and an IB speed where it says one */
	assert_int_equal(0,
			 phy_ber_parse_text("m.json",
					    json_with("\"Speed\" : \"400G\"",
						      "\"Speed\" : \"IB-NDR\""),
					    &b, err, sizeof(err)));
	assert_int_equal(IB_SPEED_NDR, b.speed);
	assert_true(b.raw_ber == 5e-10 && b.lane_errors[3] == 9233545);
	/* raw 5E-6 on NDR, no errors after FEC: the warning */
	assert_int_equal(0,
			 phy_ber_parse_text("m.json",
					    json_with("\"Raw Physical BER\" : "
						      "\"5E-10\"",
						      "\"Raw Physical BER\" : "
						      "\"5E-6\""),
					    &b, err, sizeof(err)));
	assert_int_equal(0, phy_ber_judge(&b, IB_SPEED_NDR, NULL, "x", &fs));
	assert_int_equal(1, fs.n);
	assert_string_equal("ber-raw", fs.v[0].category);
	assert_string_equal("warn", fs.v[0].severity);
	fabric_findings_free(&fs);
}

static void test_json_malformed_refused(void **state)
{
	static const struct {
		const char *from, *to, *want;
	} bad[] = {
		{ "\"5E-10\",", "\"N/A\",", "x.json:180: Raw Physical BER" },
		{ "\"5E-10\",", "\"nan\",", "x.json:180: Raw Physical BER" },
		{ "\"15E-255\"", "\"15E-999\"", "x.json:176: Effective" },
		{ "\"15E-255\"", "\"1E400\"", "x.json:176: Effective" },
		{ "\"5E-10\",", "5E-10,", "(a JSON number)" },
		{ "\"7368641\"", "\"N/A\"", "x.json:191: Raw Physical Errors" },
		{ "\"3017647\",", "\"1\",\"2\",\"3\",\"4\",\"5\",\"6\",",
		  "x.json:191: Raw Physical Errors" },
		{ "\"2718.1\"", "\"inf\"", "x.json:201: Time Since" },
		{ "\"Link Down Counter\" : \"0\"",
		  "\"Link Down Counter\" : \"-1\"", "x.json:178: Link Down" },
		{ "\"Link Down Counter\" : \"0\"",
		  "\"Raw Physical BER\" : \"0\"", "x.json:180: invalid JSON" },
		{ "\"status\" :", "\"status\" ", "x.json:251: invalid JSON" },
	};
	struct phy_ber b;
	char err[512];

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = '\0';
		assert_int_equal(
			-EINVAL,
			phy_ber_parse_text("x.json",
					   json_with(bad[i].from, bad[i].to),
					   &b, err, sizeof(err)));
		if (!strstr(err, bad[i].want))
			fail_msg("case %zu: \"%s\" does not name \"%s\"", i,
				 err, bad[i].want);
	}
	/* a section that is not an object; a document that is not one */
	assert_int_equal(
		-EINVAL,
		phy_ber_parse_text("y.json",
				   "{\"Physical Counters and BER Info\": [1]}",
				   &b, err, sizeof(err)));
	assert_non_null(strstr(err, "y.json:1: \"Physical Counters"));
	/* --json without the section (mlxlink -m --json): nothing read */
	assert_int_equal(0, phy_ber_parse_text("z.json",
					       "{\"result\":{\"output\":{}}}",
					       &b, err, sizeof(err)));
	assert_false(b.present);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_forum_cx4),
		cmocka_unit_test(test_sichek_400g),
		cmocka_unit_test(test_raw_over_limit_clean_symbols),
		cmocka_unit_test(test_malformed_refused),
		cmocka_unit_test(test_json_400g_dr4),
		cmocka_unit_test(test_json_malformed_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
