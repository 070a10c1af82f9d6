// SPDX-License-Identifier: MIT
/*
 * cabling_diff(): one finding per fault, right category, right ends. The
 * model is the 7-node fabric captured from ibsim (fixtures/fabric/
 * small.topo: leaf02 - spine01 runs at FDR), rewired per test.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "common/namemap.h"
#include "fabric/fabric_diff.h"
#include "fabric/fabric_namemap.h"
#include "fabric/fabric_topo.h"

#define FX FIXTURES_DIR "/fabric/"
#define LEAF1 0x0008f10300000004ULL
#define LEAF2 0x0008f10300000005ULL
#define SPINE 0x0008f10300000006ULL
#define NODE(n) (0x0008f10400000000ULL + (((n)-1) << 4))

struct ctx {
	struct fabric *m;
	struct fabric_spec *spec;
	struct fabric_findings fs;
};

static int setup(void **state)
{
	static struct ctx c;
	char err[FABRIC_ERR_LEN];

	memset(&c, 0, sizeof(c));
	if (fabric_topo_load(FX "small.topo", &c.m, err, sizeof(err)) ||
	    fabric_spec_load(FX "small.csv", &c.spec, err, sizeof(err)))
		return -1;
	*state = &c;
	return 0;
}

static int teardown(void **state)
{
	struct ctx *c = *state;

	fabric_findings_free(&c->fs);
	fabric_spec_free(c->spec);
	fabric_free(c->m);
	return 0;
}

static struct fabric_port *P(struct ctx *c, uint64_t guid, int port)
{
	return &fabric_find_guid(c->m, guid)->ports[port];
}

static void unplug(struct fabric_port *p)
{
	if (p->remote) {
		p->remote->remote = NULL;
		p->remote->phys_state = IB_PHYS_STATE_POLLING;
		p->remote->state = IB_PORT_STATE_DOWN;
	}
	p->remote = NULL;
	p->valid = true;
	p->phys_state = IB_PHYS_STATE_POLLING;
	p->state = IB_PORT_STATE_DOWN;
}

static void plug(struct fabric_port *a, struct fabric_port *b)
{
	struct fabric_port *e[2] = { a, b };
	int i;

	for (i = 0; i < 2; i++) {
		e[i]->valid = true;
		e[i]->phys_state = IB_PHYS_STATE_LINKUP;
		e[i]->state = IB_PORT_STATE_ACTIVE;
		e[i]->width = 4;
		e[i]->speed = IB_SPEED_EDR;
	}
	assert_int_equal(0, fabric_connect(a, b));
}

/* Runs the diff and returns the findings, the FDR link's dropped. */
static struct fabric_findings *diff(struct ctx *c)
{
	size_t i, j = 0;

	assert_int_equal(0, cabling_diff(c->m, c->spec, &c->fs));
	for (i = 0; i < c->fs.n; i++) {
		if (!strcmp(c->fs.v[i].category, "degraded-speed") &&
		    c->fs.v[i].refs[0].guid == LEAF2)
			continue;
		c->fs.v[j++] = c->fs.v[i];
	}
	c->fs.n = j;
	return &c->fs;
}

static bool has_end(const struct fabric_finding *f, const char *name, int port)
{
	int i;

	for (i = 0; i < f->nrefs; i++)
		if (!strcmp(f->refs[i].name, name) && f->refs[i].port == port)
			return true;
	return false;
}

static void test_degraded_speed_vs_spec(void **state)
{
	struct ctx *c = *state;
	struct fabric_finding *f;

	assert_int_equal(0, cabling_diff(c->m, c->spec, &c->fs));
	assert_int_equal(1, c->fs.n);
	f = &c->fs.v[0];
	assert_string_equal("degraded-speed", f->category);
	assert_string_equal("fail", f->severity);
	assert_true(has_end(f, "leaf02", 3) && has_end(f, "spine01", 2));
	assert_string_equal("leaf02 port 3 - spine01 port 2 runs at FDR, "
			    "expected EDR (spec): reseat or replace the cable",
			    f->message);
}

static void test_topology_as_spec_is_clean(void **state)
{
	struct ctx *c = *state;

	fabric_spec_free(c->spec);
	assert_int_equal(0, fabric_spec_from_model(c->m, "m", &c->spec));
	assert_int_equal(0, cabling_diff(c->m, c->spec, &c->fs));
	assert_int_equal(0, c->fs.n);
}

static void test_swapped_is_one_finding(void **state)
{
	struct ctx *c = *state;
	struct fabric_findings *fs;

	unplug(P(c, LEAF1, 1));
	unplug(P(c, LEAF1, 2));
	plug(P(c, NODE(1), 1), P(c, LEAF1, 2));
	plug(P(c, NODE(2), 1), P(c, LEAF1, 1));
	fs = diff(c);
	assert_int_equal(1, fs->n);
	assert_string_equal("swapped", fs->v[0].category);
	assert_int_equal(4, fs->v[0].nrefs);
	assert_true(has_end(&fs->v[0], "node001 mlx5_0", 1));
	assert_true(has_end(&fs->v[0], "node002 mlx5_0", 1));
	assert_true(has_end(&fs->v[0], "leaf01", 1));
	assert_true(has_end(&fs->v[0], "leaf01", 2));
}

static void test_wrong_port(void **state)
{
	struct ctx *c = *state;
	struct fabric_findings *fs;

	unplug(P(c, LEAF2, 1));
	plug(P(c, NODE(3), 1), P(c, LEAF2, 4));
	fs = diff(c);
	assert_int_equal(1, fs->n);
	assert_string_equal("wrong-port", fs->v[0].category);
	assert_true(has_end(&fs->v[0], "node003 mlx5_0", 1));
	assert_true(has_end(&fs->v[0], "leaf02", 4));
	assert_string_equal("leaf02 port 4 is cabled to node003 mlx5_0 port "
			    "1; the spec wants node003 mlx5_0 port 1 to leaf02 "
			    "port 1 (line 5): move the cable",
			    fs->v[0].message);
}

static void test_miswired(void **state)
{
	struct ctx *c = *state;
	struct fabric_findings *fs;

	unplug(P(c, LEAF2, 2));
	plug(P(c, NODE(4), 1), P(c, LEAF1, 4));
	fs = diff(c);
	assert_int_equal(1, fs->n);
	assert_string_equal("miswired", fs->v[0].category);
	assert_true(has_end(&fs->v[0], "leaf01", 4));
	assert_true(has_end(&fs->v[0], "node004 mlx5_0", 1));
}

static void test_missing_link(void **state)
{
	struct ctx *c = *state;
	struct fabric_findings *fs;

	unplug(P(c, LEAF1, 2));
	fs = diff(c);
	assert_int_equal(1, fs->n);
	assert_string_equal("missing-link", fs->v[0].category);
	assert_true(has_end(&fs->v[0], "node002 mlx5_0", 1));
	assert_true(has_end(&fs->v[0], "leaf01", 2));
}

static void test_port_disabled(void **state)
{
	struct ctx *c = *state;
	struct fabric_findings *fs;

	unplug(P(c, LEAF1, 2));
	P(c, LEAF1, 2)->phys_state = IB_PHYS_STATE_DISABLED;
	fs = diff(c);
	assert_int_equal(1, fs->n);
	assert_string_equal("port-disabled", fs->v[0].category);
	assert_true(has_end(&fs->v[0], "leaf01", 2));
}

static void test_unreachable(void **state)
{
	struct ctx *c = *state;
	struct fabric_findings *fs;
	struct fabric_port *p = P(c, LEAF1, 2);

	unplug(p);
	P(c, NODE(2), 1)->valid = false;
	p->phys_state = IB_PHYS_STATE_LINKUP; /* up, but nobody answers */
	fs = diff(c);
	assert_int_equal(1, fs->n);
	/* not a fault of the node: a link that could not be tested */
	assert_string_equal("not-tested", fs->v[0].category);
	assert_string_equal("warn", fs->v[0].severity);
	assert_string_equal("check-access", fs->v[0].action);
	for (int i = 0; i < fs->v[0].nev; i++)
		if (!strcmp(fs->v[0].ev[i].key, "reason"))
			assert_string_equal("no-answer", fs->v[0].ev[i].str);
		else if (!strcmp(fs->v[0].ev[i].key, "part"))
			assert_string_equal("links", fs->v[0].ev[i].str);
	assert_true(has_end(&fs->v[0], "node002 mlx5_0", 1));
}

static void test_unexpected_link(void **state)
{
	struct ctx *c = *state;
	struct fabric_findings *fs;

	plug(P(c, LEAF1, 4), P(c, LEAF2, 4));
	fs = diff(c);
	assert_int_equal(1, fs->n);
	assert_string_equal("unexpected-link", fs->v[0].category);
	assert_string_equal("warn", fs->v[0].severity);
}

static void test_node_replaced(void **state)
{
	struct ctx *c = *state;
	struct fabric_findings *fs;

	fabric_spec_free(c->spec);
	assert_int_equal(0, fabric_spec_from_model(c->m, "m", &c->spec));
	for (size_t i = 0; i < c->spec->ncables; i++)
		if (c->spec->cables[i].a.guid == NODE(3))
			c->spec->cables[i].a.guid = 0x1234;
		else if (c->spec->cables[i].z.guid == NODE(3))
			c->spec->cables[i].z.guid = 0x1234;
	fs = diff(c);
	assert_int_equal(1, fs->n);
	assert_string_equal("node-replaced", fs->v[0].category);
	assert_string_equal("info", fs->v[0].severity);
}

static void test_ambiguous_names(void **state)
{
	struct ctx *c = *state;
	struct fabric_findings *fs;
	struct namemap *map;
	char err[FABRIC_ERR_LEN];
	size_t i;

	for (i = 0; i < c->m->nnodes; i++)
		if (c->m->nodes[i]->type == FABRIC_NODE_SWITCH)
			snprintf(c->m->nodes[i]->desc,
				 sizeof(c->m->nodes[i]->desc), "SwitchX");
	fabric_spec_free(c->spec);
	assert_int_equal(
		0,
		fabric_spec_parse_csv(
			"s.csv",
			"a_node,a_port,z_node,z_port\nnode001 mlx5_0,1,SwitchX,1\n",
			&c->spec, err, sizeof(err)));
	fs = diff(c);
	assert_int_equal(1, fs->n);
	assert_string_equal("ambiguous-name", fs->v[0].category);
	assert_non_null(strstr(fs->v[0].message, "matches 3 nodes"));
	fabric_findings_free(&c->fs);

	/* Names from a map make the CSV spec usable again. */
	fabric_spec_free(c->spec);
	assert_int_equal(0, fabric_spec_load(FX "small.csv", &c->spec, err,
					     sizeof(err)));
	assert_int_equal(
		0,
		namemap_parse(
			"m",
			"0x0008f10300000004 \"leaf01\"\n0x0008f10300000005 leaf02\n"
			"0x0008f10300000006 \"spine01\"\n",
			&map, err, sizeof(err)));
	assert_int_equal(0, fabric_apply_namemap(c->m, map));
	namemap_free(map);
	assert_int_equal(0, diff(c)->n);
}

static void test_no_spec_checks(void **state)
{
	struct ctx *c = *state;
	struct fabric_port *a = P(c, LEAF1, 1), *b = a->remote;

	a->width_enabled = b->width_enabled = (1u << 1) | (1u << 4);
	a->width = b->width = 1;
	assert_int_equal(0, fabric_model_check(c->m, &c->fs));
	assert_int_equal(1, c->fs.n);
	assert_string_equal("degraded-width", c->fs.v[0].category);
	assert_non_null(strstr(c->fs.v[0].message, "(both ends enable it)"));
}

#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_degraded_speed_vs_spec),
		T(test_topology_as_spec_is_clean),
		T(test_swapped_is_one_finding),
		T(test_wrong_port),
		T(test_miswired),
		T(test_missing_link),
		T(test_port_disabled),
		T(test_unreachable),
		T(test_unexpected_link),
		T(test_node_replaced),
		T(test_ambiguous_names),
		T(test_no_spec_checks),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
