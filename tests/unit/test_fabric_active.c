// SPDX-License-Identifier: MIT
/*
 * link-not-active: a link whose ends are LinkUp but INIT or ARMED was never
 * activated by the SM (issue 34). One finding per such link; one for the
 * whole fabric when no port is ACTIVE.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "fabric/fabric_diff.h"

/* One switch, n CAs on its ports 1..n, every port in state/LinkUp. */
static struct fabric *star(int n, int state)
{
	struct fabric *f = fabric_new();
	struct fabric_node *sw, *ca;
	char desc[16];

	assert_non_null(f);
	sw = fabric_add_node(f, 0x100, FABRIC_NODE_SWITCH, "leaf1", n);
	assert_non_null(sw);
	for (int i = 1; i <= n; i++) {
		snprintf(desc, sizeof(desc), "h%d mlx5_0", i);
		ca = fabric_add_node(f, 0x300 + i, FABRIC_NODE_CA, desc, 1);
		assert_non_null(ca);
		assert_int_equal(0,
				 fabric_connect(&sw->ports[i], &ca->ports[1]));
		for (int k = 0; k < 2; k++) {
			struct fabric_port *p =
				k ? &ca->ports[1] : &sw->ports[i];

			p->valid = true;
			p->state = (uint8_t)state;
			p->phys_state = IB_PHYS_STATE_LINKUP;
			p->width = 4;
			p->speed = IB_SPEED_NDR;
		}
	}
	return f;
}

static const char *ev(const struct fabric_finding *f, const char *key)
{
	for (int i = 0; i < f->nev; i++)
		if (!strcmp(f->ev[i].key, key))
			return f->ev[i].str;
	return "";
}

static void test_no_sm_is_one_finding(void **state)
{
	struct fabric *f = star(8, IB_PORT_STATE_INIT);
	struct fabric_findings out = { 0 };

	(void)state;
	assert_int_equal(0, fabric_model_check(f, &out));
	assert_int_equal(1, out.n);
	assert_string_equal("link-not-active", out.v[0].category);
	assert_string_equal("check-sm", out.v[0].action);
	assert_string_equal("fail", out.v[0].severity);
	assert_string_equal("fabric", ev(&out.v[0], "scope"));
	assert_non_null(strstr(out.v[0].message, "no port of the fabric"));
	assert_non_null(strstr(out.v[0].message, "8 links"));
	fabric_findings_free(&out);
	fabric_free(f);
}

static void test_one_armed_link(void **state)
{
	struct fabric *f = star(4, IB_PORT_STATE_ACTIVE);
	struct fabric_findings out = { 0 };
	struct fabric_node *sw = f->nodes[0];

	(void)state;
	sw->ports[3].state = IB_PORT_STATE_ARMED;
	assert_int_equal(0, fabric_model_check(f, &out));
	assert_int_equal(1, out.n);
	assert_string_equal("link-not-active", out.v[0].category);
	assert_string_equal("check-sm", out.v[0].action);
	assert_int_equal(2, out.v[0].nrefs);
	assert_non_null(strstr(out.v[0].message, "leaf1 port 3"));
	assert_non_null(strstr(out.v[0].message, "ARMED"));
	assert_null(strstr(out.v[0].message, "reseat"));
	assert_string_equal("ARMED/LinkUp", ev(&out.v[0], "a_state"));
	fabric_findings_free(&out);

	/* a cable that did not train is not this finding */
	sw->ports[3].state = IB_PORT_STATE_DOWN;
	sw->ports[3].phys_state = IB_PHYS_STATE_POLLING;
	f->nodes[3]->ports[1].state = IB_PORT_STATE_DOWN;
	f->nodes[3]->ports[1].phys_state = IB_PHYS_STATE_POLLING;
	assert_int_equal(0, fabric_model_check(f, &out));
	for (size_t i = 0; i < out.n; i++)
		assert_string_not_equal("link-not-active", out.v[i].category);
	fabric_findings_free(&out);
	fabric_free(f);
}

/* The spec check runs it too. */
static void test_spec_check(void **state)
{
	struct fabric *f = star(2, IB_PORT_STATE_INIT);
	struct fabric_spec spec = { 0 };
	struct fabric_findings out = { 0 };

	(void)state;
	assert_int_equal(0, cabling_diff(f, &spec, &out));
	assert_true(out.n >= 1);
	assert_string_equal("link-not-active", out.v[out.n - 1].category);
	fabric_findings_free(&out);
	fabric_free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_no_sm_is_one_finding),
		cmocka_unit_test(test_one_armed_link),
		cmocka_unit_test(test_spec_check),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
