// SPDX-License-Identifier: MIT
/*
 * The load proof's pure logic (burnin/load_proof.c): counter deltas (64-bit
 * extended, 32-bit saturating, cleared meanwhile: never a wrapped
 * difference), the cables a step's flows load, a cable's verdict against
 * half of what its flows moved, its error rises through the counter
 * limits (issue 35), and its records.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "burnin/load_proof.h"
#include "common/ibport.h"
#include "common/record.h"

static void test_delta_extended_and_32bit(void **state)
{
	uint64_t d;

	(void)state;
	/* 64-bit: past 2^32 exactly. */
	assert_int_equal(BURNIN_DELTA_EXACT,
			 burnin_counter_delta(IB_PC_XMIT_DATA, 10, true,
					      (1ull << 33) + 10, true, &d));
	assert_int_equal(1ull << 33, d);
	/* 32-bit at its maximum: saturated, at least the rise seen. */
	assert_int_equal(BURNIN_DELTA_AT_LEAST,
			 burnin_counter_delta(IB_PC_XMIT_DATA, 100, false,
					      0xffffffffu, false, &d));
	assert_int_equal(0xffffffffu - 100, d);
	/* 32-bit under its maximum: exact. */
	assert_int_equal(BURNIN_DELTA_EXACT,
			 burnin_counter_delta(IB_PC_XMIT_DATA, 100, false, 300,
					      false, &d));
	assert_int_equal(200, d);
	/* Extended before, 32-bit after: no comparison. */
	assert_int_equal(BURNIN_DELTA_UNKNOWN,
			 burnin_counter_delta(IB_PC_XMIT_DATA, 100, true, 300,
					      false, &d));
	assert_int_equal(0, d);
}

/* Lower after than before: cleared (perfmgr), never a wrap. */
static void test_delta_cleared_is_not_a_wrap(void **state)
{
	uint64_t d;

	(void)state;
	assert_int_equal(BURNIN_DELTA_AT_LEAST,
			 burnin_counter_delta(IB_PC_XMIT_DATA, 0xfffffff0u,
					      false, 5, false, &d));
	assert_int_equal(5, d); /* not 2^32 - 0xfffffff0 + 5 */
	assert_int_equal(BURNIN_DELTA_AT_LEAST,
			 burnin_counter_delta(IB_PC_XMIT_DATA, UINT64_MAX - 3,
					      true, 2, true, &d));
	assert_int_equal(2, d);
	/* Error counters keep their widths: 16-bit SymbolErrorCounter. */
	assert_int_equal(BURNIN_DELTA_AT_LEAST,
			 burnin_counter_delta(IB_PC_SYMBOL_ERRORS, 65000, true,
					      65535, true, &d));
	assert_int_equal(535, d);
	assert_int_equal(
		BURNIN_DELTA_EXACT,
		burnin_counter_delta(IB_PC_LINK_DOWNED, 3, false, 5, true, &d));
	assert_int_equal(2, d);
}

/*
 * Three flows over five cables: cables 2 and 4 carry two flows each
 * (their rates add, capped at the cable's capacity), the others one.
 */
static void three_flows(struct burnin_step_loads *l)
{
	static const double cap[] = { 100, 100, 150, 100, 100 };
	const int p0[] = { 0, 2, 3 }, p1[] = { 1, 2, 4 }, p2[] = { 4 };

	assert_int_equal(0, burnin_loads_add_flow(l, 0, 1, 100, p0, 3));
	assert_int_equal(0, burnin_loads_add_flow(l, 2, 3, 100, p1, 3));
	assert_int_equal(0, burnin_loads_add_flow(l, 4, 5, 40, p2, 1));
	assert_int_equal(0, burnin_loads_index(l, cap, 5, 2.0));
}

static const struct burnin_cable_load *
load_of(const struct burnin_step_loads *l, int cable)
{
	for (int s = 0; s < l->n_cables; s++)
		if (l->cables[s].cable == cable)
			return &l->cables[s];
	fail_msg("cable %d not loaded", cable);
	return NULL;
}

static void test_loads_of_a_step(void **state)
{
	struct burnin_step_loads l = { 0 };

	(void)state;
	three_flows(&l);
	assert_int_equal(5, l.n_cables);
	assert_int_equal(2, load_of(&l, 2)->flows);
	/* 200 Gb/s of flows capped at 150 Gb/s, 2 s: 37.5 GB. */
	assert_true(load_of(&l, 2)->expected_bytes == 150e9 / 8 * 2);
	assert_true(load_of(&l, 4)->expected_bytes == 100e9 / 8 * 2);
	assert_int_equal(2, load_of(&l, 4)->flows);
	assert_true(load_of(&l, 0)->expected_bytes == 100e9 / 8 * 2);
	l.flows[0].moved_bytes = 1000;
	l.flows[1].moved_bytes = 500;
	l.flows[2].moved_bytes = 7;
	burnin_loads_add_moved(&l);
	assert_true(load_of(&l, 2)->moved_bytes == 1500);
	assert_true(load_of(&l, 4)->moved_bytes == 507);
	/* Reset keeps nothing of the step before. */
	burnin_loads_reset(&l);
	three_flows(&l);
	assert_true(load_of(&l, 2)->moved_bytes == 0);
	burnin_loads_free(&l);
}

static void counters(struct burnin_cable_counters *c, uint64_t before,
		     uint64_t after, bool ext)
{
	memset(c, 0, sizeof(*c));
	c->read = c->to_read = true;
	c->from_before.ext = c->from_after.ext = ext;
	c->from_before.v[IB_PC_XMIT_DATA] = before;
	c->from_after.v[IB_PC_XMIT_DATA] = after;
}

static void test_verdicts(void **state)
{
	struct burnin_cable_load load = { .cable = 3,
					  .flows = 1,
					  .moved_bytes = 4000 };
	struct burnin_cable_counters c;
	struct burnin_cable_proof p;

	(void)state;
	counters(&c, 100, 100 + 500, true); /* 2000 bytes: half exactly */
	burnin_cable_prove(&load, &c, &p);
	assert_int_equal(BURNIN_CABLE_LOADED, p.status);
	assert_int_equal(2000, p.sent_bytes);
	counters(&c, 100, 100 + 499, true); /* 1996 bytes: under half */
	burnin_cable_prove(&load, &c, &p);
	assert_int_equal(BURNIN_CABLE_NOT_LOADED, p.status);
	/* Saturated 32-bit counter: a lower bound under half proves nothing
	 * either way; one over half proves the load. */
	counters(&c, 0xffffffffu - 10, 0xffffffffu, false);
	burnin_cable_prove(&load, &c, &p);
	assert_int_equal(BURNIN_CABLE_UNPROVEN, p.status);
	counters(&c, 0xffffffffu - 1000, 0xffffffffu, false);
	burnin_cable_prove(&load, &c, &p);
	assert_int_equal(BURNIN_CABLE_LOADED, p.status);
	/* Nothing moved through it: no verdict. */
	load.moved_bytes = 0;
	counters(&c, 0, 0, true);
	burnin_cable_prove(&load, &c, &p);
	assert_int_equal(BURNIN_CABLE_IDLE, p.status);
	/* The egress end did not answer. */
	c.read = false;
	burnin_cable_prove(&load, &c, &p);
	assert_int_equal(BURNIN_CABLE_UNREAD, p.status);
}

static void test_error_deltas_at_both_ends(void **state)
{
	struct burnin_cable_load load = { .cable = 0,
					  .flows = 1,
					  .moved_bytes = 8 };
	struct burnin_cable_counters c;
	struct burnin_cable_proof p;

	(void)state;
	counters(&c, 0, 10, true);
	c.from_before.v[IB_PC_XMIT_DISCARDS] = 4;
	c.from_after.v[IB_PC_XMIT_DISCARDS] = 9;
	c.to_before.v[IB_PC_SYMBOL_ERRORS] = 100;
	c.to_after.v[IB_PC_SYMBOL_ERRORS] = 130;
	c.to_after.v[IB_PC_RCV_ERRORS] = 2;
	burnin_cable_prove(&load, &c, &p);
	assert_int_equal(5, p.from_errors[IB_PC_XMIT_DISCARDS]);
	assert_int_equal(0, p.from_errors[IB_PC_SYMBOL_ERRORS]);
	assert_int_equal(30, p.to_errors[IB_PC_SYMBOL_ERRORS]);
	assert_int_equal(2, p.to_errors[IB_PC_RCV_ERRORS]);
}

/*
 * Issue 35: a cable's error rises in a step go through the counter limits
 * with the bits the step carried. 50 symbol errors at the ingress end of
 * a 4x EDR cable (100 Gb/s): over a 1 s step (at least 10^11 bits) a BER
 * of 5e-10, over the 1e-12 bound: they count; over 10^15 bits received
 * (or a step of 10^4 s) 5e-14: they do not. On HDR the bound is 1e-14.
 * A link that went down in the step counts (events per step); discards
 * under 100 do not (a warning in `fabric counters`, no cable action).
 */
static void test_errors_judged_per_bit_of_the_step(void **state)
{
	struct burnin_cable_load load = { .cable = 0,
					  .flows = 1,
					  .moved_bytes = 8 };
	struct burnin_cable_link edr = { .speed = IB_SPEED_EDR,
					 .lanes = 4,
					 .seconds = 1 };
	struct burnin_cable_counters c;
	struct burnin_cable_proof p;

	(void)state;
	counters(&c, 0, 10, true);
	c.to_before.ext = c.to_after.ext = true;
	c.to_after.v[IB_PC_SYMBOL_ERRORS] = 50;
	burnin_cable_prove(&load, &c, &p);
	burnin_cable_judge_errors(&c, &edr, &p);
	assert_true(p.to_over[IB_PC_SYMBOL_ERRORS]);
	assert_int_equal(50, p.errors_over);
	/* the same count over 10^15 bits received (3.125e13 words) */
	c.to_after.v[IB_PC_RCV_DATA] = 31250000000000ULL;
	burnin_cable_prove(&load, &c, &p);
	burnin_cable_judge_errors(&c, &edr, &p);
	assert_int_equal(50, p.to_errors[IB_PC_SYMBOL_ERRORS]);
	assert_false(p.to_over[IB_PC_SYMBOL_ERRORS]);
	assert_int_equal(0, p.errors_over);
	/* ... or over a long step with no data counted: the line's bits */
	c.to_after.v[IB_PC_RCV_DATA] = 0;
	edr.seconds = 1e4;
	burnin_cable_prove(&load, &c, &p);
	burnin_cable_judge_errors(&c, &edr, &p);
	assert_int_equal(0, p.errors_over);
	/* HDR (200 Gb/s) bounds 1e-14: 50 over 2x10^15 bits count there */
	edr.speed = IB_SPEED_HDR;
	burnin_cable_judge_errors(&c, &edr, &p);
	assert_int_equal(50, p.errors_over);
	/* fewer than 3 errors are chance, whatever the bits */
	edr = (struct burnin_cable_link){ .speed = IB_SPEED_EDR,
					  .lanes = 4,
					  .seconds = 1e-3 };
	c.to_after.v[IB_PC_SYMBOL_ERRORS] = 2;
	burnin_cable_prove(&load, &c, &p);
	burnin_cable_judge_errors(&c, &edr, &p);
	assert_int_equal(0, p.errors_over);
	/* a link down in the step counts; 5 discards do not */
	c.from_after.v[IB_PC_LINK_DOWNED] = 1;
	c.from_after.v[IB_PC_XMIT_DISCARDS] = 5;
	burnin_cable_prove(&load, &c, &p);
	burnin_cable_judge_errors(&c, &edr, &p);
	assert_true(p.from_over[IB_PC_LINK_DOWNED]);
	assert_false(p.from_over[IB_PC_XMIT_DISCARDS]);
	assert_int_equal(1, p.errors_over);
	/* an unread ingress end: nothing judged there */
	c.to_read = false;
	c.to_after.v[IB_PC_SYMBOL_ERRORS] = 50;
	burnin_cable_prove(&load, &c, &p);
	burnin_cable_judge_errors(&c, &edr, &p);
	assert_int_equal(1, p.errors_over);
}

static void test_records_follow_the_contract(void **state)
{
	struct burnin_cable_ref ref = { .name = "leaf01:17->spine03:5",
					.from_name = "leaf01",
					.to_name = "spine03",
					.from_guid = 0xa01,
					.to_guid = 0xb03,
					.from_port = 17,
					.to_port = 5,
					.from_lid = 2,
					.to_lid = 9,
					.inter_switch = true };
	struct burnin_cable_load load = { .cable = 0,
					  .flows = 2,
					  .expected_bytes = 5e9,
					  .moved_bytes = 4e9 };
	struct burnin_cable_counters c;
	struct burnin_cable_proof p;
	char why[256];
	json_t *r, *f;

	(void)state;
	counters(&c, 0, 1000, true);
	c.to_after.v[IB_PC_SYMBOL_ERRORS] = 3;
	burnin_cable_prove(&load, &c, &p);
	assert_int_equal(BURNIN_CABLE_NOT_LOADED, p.status);
	r = burnin_cable_load_record(0, "write", &ref, &load, &p);
	assert_non_null(r);
	assert_int_equal(0, record_validate(r, why, sizeof(why)));
	assert_string_equal("cable-load",
			    json_string_value(json_object_get(r, "kind")));
	assert_int_equal(1, json_integer_value(json_object_get(r, "round")));
	assert_int_equal(4000,
			 json_integer_value(json_object_get(r, "sent_bytes")));
	assert_string_equal("not-loaded",
			    json_string_value(json_object_get(r, "status")));
	assert_int_equal(3, json_integer_value(json_object_get(
				    json_object_get(r, "errors_to"),
				    "SymbolErrorCounter")));
	/* not judged yet: none over its limit */
	assert_int_equal(
		0, json_object_size(json_object_get(r, "errors_over_to")));
	json_decref(r);
	burnin_cable_judge_errors(
		&c,
		&(struct burnin_cable_link){
			.speed = IB_SPEED_EDR, .lanes = 4, .seconds = 1 },
		&p);
	r = burnin_cable_load_record(0, "write", &ref, &load, &p);
	assert_int_equal(3, json_integer_value(json_object_get(
				    json_object_get(r, "errors_over_to"),
				    "SymbolErrorCounter")));
	assert_int_equal(
		0, json_object_size(json_object_get(r, "errors_over_from")));
	f = burnin_cable_not_loaded_finding(0, "write", &ref, &load, &p);
	assert_non_null(f);
	assert_int_equal(0, record_validate(f, why, sizeof(why)));
	assert_string_equal("cable-not-loaded",
			    json_string_value(json_object_get(f, "category")));
	json_decref(r);
	json_decref(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_delta_extended_and_32bit),
		cmocka_unit_test(test_delta_cleared_is_not_a_wrap),
		cmocka_unit_test(test_loads_of_a_step),
		cmocka_unit_test(test_verdicts),
		cmocka_unit_test(test_error_deltas_at_both_ends),
		cmocka_unit_test(test_errors_judged_per_bit_of_the_step),
		cmocka_unit_test(test_records_follow_the_contract),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
