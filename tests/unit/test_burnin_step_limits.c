// SPDX-License-Identifier: MIT
/*
 * Issue 35: burnin's per-step counter rises go through the counter limits
 * with the bits the step carried: the same 50 symbol errors are a finding
 * after a short, idle step and none after a step that received 10^15 bits;
 * a link that went down during a step is one whatever it carried.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "burnin/step_limits.h"

static void add(struct wire_result *r, const char *name, uint64_t delta)
{
	struct wire_counter *c = &r->counters[r->n_counters++];

	snprintf(c->name, sizeof(c->name), "%s", name);
	c->delta = delta;
}

static void test_rise_per_bit(void **state)
{
	struct dpath_port port = { .width = 4 };
	struct wire_result r = { 0 };

	(void)state;
	snprintf(port.speed, sizeof(port.speed), "EDR");
	r.res.seconds = 0.01; /* 10^9 bits of signalling at 100 Gb/s */
	add(&r, "symbol_error", 50);
	add(&r, "port_xmit_data", 1000);
	assert_true(burnin_step_rise_fails(&port, &r, &r.counters[0]));
	add(&r, "port_rcv_data", 31250000000000ull); /* 10^15 bits */
	assert_false(burnin_step_rise_fails(&port, &r, &r.counters[0]));
	/* NDR: the post-FEC bound is 1e-14: 5e-14 fails */
	snprintf(port.speed, sizeof(port.speed), "NDR");
	assert_true(burnin_step_rise_fails(&port, &r, &r.counters[0]));
	/* two errors are no rate */
	r.counters[0].delta = 2;
	r.n_counters = 1;
	assert_false(burnin_step_rise_fails(&port, &r, &r.counters[0]));
	/* a data counter is no error */
	assert_false(burnin_step_rise_fails(&port, &r, &r.counters[1]));
}

static void test_link_downed_in_a_step(void **state)
{
	struct dpath_port port = { .width = 4 };
	struct wire_result r = { 0 };

	(void)state;
	snprintf(port.speed, sizeof(port.speed), "HDR");
	r.res.seconds = 30;
	add(&r, "link_downed", 1);
	add(&r, "port_rcv_data", 31250000000000ull);
	assert_true(burnin_step_rise_fails(&port, &r, &r.counters[0]));
	r.counters[0].delta = 0;
	assert_false(burnin_step_rise_fails(&port, &r, &r.counters[0]));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rise_per_bit),
		cmocka_unit_test(test_link_downed_in_a_step),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
