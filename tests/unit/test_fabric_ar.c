// SPDX-License-Identifier: MIT
/*
 * AdaptiveRoutingInfo (fabric/ar_info.h): raw attribute images, written
 * byte by byte from the published layout (ar_info.c cites it), decode to
 * the state burnin trusts: enabled for every SL; enabled only for the SLs
 * of a mask that lacks the run's SL; RC excluded; capable but off; and the
 * lft record's "ar" object read back the same.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "fabric/ar_info.h"

/* E = 1, GroupCap = 16, every SL. */
static const uint8_t on_all[FABRIC_AR_INFO_BYTES] = {
	0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x10,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
};

/* E = 1, BySLCap = BySLEn = 1, EnableBySLMask = SLs 1 and 3. */
static const uint8_t on_sl_1_3[FABRIC_AR_INFO_BYTES] = {
	0x18, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x10,
	0x00, 0x0a, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
};

/* E = 1, every SL, ByTransportDisable = RC. */
static const uint8_t on_not_rc[FABRIC_AR_INFO_BYTES] = {
	0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x10,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02,
};

/* GroupCap = 16 but E = 0: capable, off. */
static const uint8_t capable_off[FABRIC_AR_INFO_BYTES] = {
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x10,
};

/* E = 1 with GroupCap = 0: no AR groups, so no adaptive path. */
static const uint8_t no_groups[FABRIC_AR_INFO_BYTES] = {
	0x00,
	0x00,
	0x00,
	0x01,
};

static void test_enabled_every_sl(void **state)
{
	struct fabric_ar ar;

	(void)state;
	fabric_ar_decode(on_all, &ar);
	assert_int_equal(FABRIC_AR_ON, ar.state);
	for (int sl = 0; sl < 16; sl++)
		assert_int_equal(FABRIC_AR_ON,
				 fabric_ar_for(&ar, sl, FABRIC_AR_RC));
}

static void test_by_sl_mask(void **state)
{
	struct fabric_ar ar;

	(void)state;
	fabric_ar_decode(on_sl_1_3, &ar);
	assert_true(ar.by_sl);
	assert_int_equal(0x000a, ar.sl_mask);
	assert_int_equal(FABRIC_AR_OFF, fabric_ar_for(&ar, 0, FABRIC_AR_RC));
	assert_int_equal(FABRIC_AR_ON, fabric_ar_for(&ar, 1, FABRIC_AR_RC));
	assert_int_equal(FABRIC_AR_OFF, fabric_ar_for(&ar, 2, FABRIC_AR_RC));
	assert_int_equal(FABRIC_AR_ON, fabric_ar_for(&ar, 3, FABRIC_AR_RC));
}

static void test_rc_excluded(void **state)
{
	struct fabric_ar ar;

	(void)state;
	fabric_ar_decode(on_not_rc, &ar);
	assert_int_equal(FABRIC_AR_OFF, fabric_ar_for(&ar, 0, FABRIC_AR_RC));
	assert_int_equal(FABRIC_AR_ON, fabric_ar_for(&ar, 0, FABRIC_AR_UD));
}

static void test_off(void **state)
{
	struct fabric_ar ar;

	(void)state;
	fabric_ar_decode(capable_off, &ar);
	assert_true(ar.capable);
	assert_int_equal(FABRIC_AR_OFF, fabric_ar_for(&ar, 0, FABRIC_AR_RC));
	fabric_ar_decode(no_groups, &ar);
	assert_false(ar.capable);
	assert_int_equal(FABRIC_AR_OFF, fabric_ar_for(&ar, 0, FABRIC_AR_RC));
}

/* Not answered: unknown for every SL, never off. */
static void test_unknown(void **state)
{
	struct fabric_ar ar;

	(void)state;
	fabric_ar_unknown(&ar, "no answer");
	assert_int_equal(FABRIC_AR_UNKNOWN,
			 fabric_ar_for(&ar, 0, FABRIC_AR_RC));
	assert_null(fabric_ar_json(&ar));
	assert_string_equal("unknown", fabric_ar_state_name(ar.state));
}

/* What fabric routes writes, burnin reads back the same. */
static void test_record_round_trip(void **state)
{
	const uint8_t *images[] = { on_all, on_sl_1_3, on_not_rc, capable_off };
	struct fabric_ar ar, back;

	(void)state;
	for (size_t i = 0; i < sizeof(images) / sizeof(images[0]); i++) {
		json_t *lft = json_object();

		fabric_ar_decode(images[i], &ar);
		json_object_set_new(
			lft, "adaptive_routing",
			json_string(fabric_ar_state_name(ar.state)));
		json_object_set_new(lft, "ar", fabric_ar_json(&ar));
		assert_int_equal(0, fabric_ar_from_json(lft, &back));
		for (int sl = 0; sl < 16; sl++)
			for (int t = 0; t < 4; t++)
				assert_int_equal(fabric_ar_for(&ar, sl, t),
						 fabric_ar_for(&back, sl, t));
		json_decref(lft);
	}
}

static void test_record_refused(void **state)
{
	struct fabric_ar ar;
	json_t *bad = json_pack("{s:s}", "adaptive_routing", "maybe");
	json_t *bad_sl = json_pack("{s:s, s:{s:[i]}}", "adaptive_routing", "on",
				   "ar", "sls", 16);

	(void)state;
	assert_int_equal(-1, fabric_ar_from_json(bad, &ar));
	assert_int_equal(-1, fabric_ar_from_json(bad_sl, &ar));
	json_decref(bad);
	json_decref(bad_sl);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_enabled_every_sl),
		cmocka_unit_test(test_by_sl_mask),
		cmocka_unit_test(test_rc_excluded),
		cmocka_unit_test(test_off),
		cmocka_unit_test(test_unknown),
		cmocka_unit_test(test_record_round_trip),
		cmocka_unit_test(test_record_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
