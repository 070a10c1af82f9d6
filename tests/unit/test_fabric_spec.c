// SPDX-License-Identifier: MIT
/* The cabling spec (CSV) and topology text parsers. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "fabric/fabric_spec.h"
#include "fabric/fabric_topo.h"

#define FX FIXTURES_DIR "/fabric/"

static struct fabric_spec *parse_ok(const char *text)
{
	struct fabric_spec *s = NULL;
	char err[FABRIC_ERR_LEN] = "";

	assert_int_equal(
		0, fabric_spec_parse_csv("t.csv", text, &s, err, sizeof(err)));
	assert_non_null(s);
	return s;
}

static void expect_error(const char *text, const char *msg)
{
	struct fabric_spec *s = NULL;
	char err[FABRIC_ERR_LEN] = "";

	assert_int_equal(-22, fabric_spec_parse_csv("t.csv", text, &s, err,
						    sizeof(err)));
	assert_null(s);
	assert_string_equal(msg, err);
}

static void test_port_syntax(void **state)
{
	(void)state;
	assert_int_equal(17, fabric_port_parse("17"));
	assert_int_equal(33, fabric_port_parse("17/1"));
	assert_int_equal(34, fabric_port_parse("17/2"));
	assert_int_equal(1, fabric_port_parse("1/1"));
	assert_true(fabric_port_parse("17/3") < 0);
	assert_true(fabric_port_parse("0") < 0);
	assert_true(fabric_port_parse("256") < 0);
	assert_true(fabric_port_parse("p1") < 0);
	assert_true(fabric_port_parse("1/") < 0);
	assert_true(fabric_port_parse("") < 0);
}

static void test_good_file(void **state)
{
	char err[FABRIC_ERR_LEN] = "";
	struct fabric_spec *s = NULL;

	(void)state;
	assert_int_equal(0,
			 fabric_spec_load(FX "good.csv", &s, err, sizeof(err)));
	assert_int_equal(3, s->ncables);
	assert_string_equal("leaf01", s->cables[0].a.node);
	assert_int_equal(1, s->cables[0].a.port);
	assert_string_equal("node001 mlx5_0", s->cables[0].z.node);
	assert_int_equal(IB_SPEED_EDR, s->cables[0].speed);
	assert_int_equal(4, s->cables[0].width);
	assert_string_equal("C1", s->cables[0].label);
	assert_int_equal(3, s->cables[0].line);
	/* spaces trimmed, case-insensitive rates, cage/lane 1/2 = port 2 */
	assert_int_equal(2, s->cables[1].a.port);
	assert_int_equal(IB_SPEED_EDR, s->cables[1].speed);
	assert_int_equal(4, s->cables[1].width);
	assert_string_equal("leaf, with comma", s->cables[2].a.node);
	assert_int_equal(0, s->cables[2].speed);
	fabric_spec_free(s);
}

static void test_columns_any_order(void **state)
{
	struct fabric_spec *s;

	(void)state;
	s = parse_ok("z_port,z_node,a_port,a_node,width\n"
		     "3,spine01,1/1,leaf01,1x\n");
	assert_string_equal("leaf01", s->cables[0].a.node);
	assert_int_equal(1, s->cables[0].a.port);
	assert_string_equal("spine01", s->cables[0].z.node);
	assert_int_equal(3, s->cables[0].z.port);
	assert_int_equal(1, s->cables[0].width);
	fabric_spec_free(s);
}

static void test_errors(void **state)
{
	(void)state;
	expect_error("", "t.csv:1: expected a header line "
			 "a_node,a_port,z_node,z_port[,...], got none");
	expect_error("a_node,a_port,z_node\n",
		     "t.csv:1: header lacks column z_port (expected "
		     "a_node,a_port,z_node,z_port[,speed,width,label,rack])");
	expect_error("a_node,a_port,z_node,z_port\nx,1,y\n",
		     "t.csv:2: expected 4 columns as in the header, got 3");
	expect_error("a_node,a_port,z_node,z_port\nx,1,y,2,3\n",
		     "t.csv:2: expected 4 columns as in the header, got 5");
	expect_error("a_node,a_port,z_node,z_port\n,1,y,2\n",
		     "t.csv:2: a_node: expected a node name, got nothing");
	expect_error("a_node,a_port,z_node,z_port\nx,1,y,two\n",
		     "t.csv:2: z_port: expected a port number (1-255) or "
		     "cage/lane like 17/1, got \"two\"");
	expect_error("a_node,a_port,z_node,z_port\nx,3,x,3\n",
		     "t.csv:2: cable from x port 3 to itself");
	expect_error("a_node,a_port,z_node,z_port\nx,3,y,1\n#\nz,1,x,2/1\n",
		     "t.csv:4: x port 3 is already in the cable at line 2");
	expect_error("a_node,a_port,z_node,z_port,width\nx,3,y,1,3x\n",
		     "t.csv:2: width: expected 1x, 2x, 4x, 8x or 12x, got "
		     "\"3x\"");
	expect_error("a_node,a_port,z_node,z_port\n\"x,3,y,1\n",
		     "t.csv:2: unbalanced double quote");
}

static void test_fixture_errors(void **state)
{
	char err[FABRIC_ERR_LEN] = "";
	struct fabric_spec *s = NULL;

	(void)state;
	assert_int_equal(
		-22, fabric_spec_load(FX "dup-port.csv", &s, err, sizeof(err)));
	assert_non_null(strstr(err, "dup-port.csv:6: leaf01 port 5 is "
				    "already in the cable at line 4"));
	assert_true(fabric_spec_load(FX "nonexistent.csv", &s, err,
				     sizeof(err)) < 0);
	assert_non_null(strstr(err, "cannot read"));
}

/*
 * D8: one NUL byte in a spec used to cut it short there, so a degraded
 * link after it was never checked and `fabric check` passed.
 */
static void test_d8_nul_in_spec_is_error(void **state)
{
	static const char spec[] = "a_node,a_port,z_node,z_port\n"
				   "x,1,y,1\n\0z,1,y,2\n";
	char path[] = "/tmp/ibproof-test-spec-XXXXXX";
	char err[FABRIC_ERR_LEN] = "", want[FABRIC_ERR_LEN + 64];
	struct fabric_spec *s = NULL;
	int fd = mkstemp(path);

	(void)state;
	assert_true(fd >= 0);
	assert_int_equal((ssize_t)sizeof(spec) - 1,
			 write(fd, spec, sizeof(spec) - 1));
	close(fd);
	assert_int_equal(-22, fabric_spec_load(path, &s, err, sizeof(err)));
	assert_null(s);
	snprintf(want, sizeof(want), "%s:3: NUL byte at byte 1 of the line",
		 path);
	assert_string_equal(want, err);
	unlink(path);
}

/*
 * D15: ends were keyed on their first 159 bytes, so two long names sharing
 * that prefix were "already in the cable at line N".
 */
static void test_d15_long_names_not_cut(void **state)
{
	char name[201], text[1024];
	struct fabric_spec *s;

	(void)state;
	memset(name, 'n', 200);
	name[200] = '\0';
	snprintf(text, sizeof(text),
		 "a_node,a_port,z_node,z_port\n%sA,1,y,1\n%sB,1,y,2\n", name,
		 name);
	s = parse_ok(text);
	assert_int_equal(2, s->ncables);
	fabric_spec_free(s);
}

static void test_topology(void **state)
{
	char err[FABRIC_ERR_LEN] = "";
	struct fabric *f = NULL;
	struct fabric_node *leaf2;
	struct fabric_port *p;

	(void)state;
	assert_int_equal(
		0, fabric_topo_load(FX "small.topo", &f, err, sizeof(err)));
	assert_int_equal(7, f->nnodes);
	assert_int_equal(6, fabric_count_links(f));
	leaf2 = fabric_find_guid(f, 0x0008f10300000005ULL);
	assert_non_null(leaf2);
	assert_string_equal("leaf02", leaf2->desc);
	assert_int_equal(FABRIC_NODE_SWITCH, leaf2->type);
	assert_int_equal(3, leaf2->lid);
	p = &leaf2->ports[3];
	assert_int_equal(IB_SPEED_FDR, p->speed);
	assert_int_equal(4, p->width);
	assert_string_equal("spine01", p->remote->node->desc);
	assert_int_equal(2, p->remote->num);
	assert_false(leaf2->ports[4].valid);
	assert_int_equal(
		7, fabric_find_guid(f, 0x0008f10400000030ULL)->ports[1].lid);
	/* CA port lines carry the port GUID: "[1](8f10400000031)" */
	assert_int_equal(
		0x0008f10400000031ULL,
		fabric_find_guid(f, 0x0008f10400000030ULL)->ports[1].guid);
	assert_int_equal(0, p->guid);
	fabric_free(f);
}

static void test_topology_errors(void **state)
{
	char err[FABRIC_ERR_LEN] = "";
	struct fabric *f = NULL;

	(void)state;
	assert_true(fabric_topo_detect("#\n# Topology file\n\nvendid=0x0\n"));
	assert_false(fabric_topo_detect("a_node,a_port,z_node,z_port\n"));
	assert_int_equal(-22,
			 fabric_topo_parse_opts(
				 "t.topo",
				 "switchguid=0x10\nSwitch 4 \"S-10\" # \"a\"\n"
				 "[1] \"S-20\"[1] # \"b\" lid 2 4xEDR\n",
				 true, &f, err, sizeof(err)));
	assert_string_equal("t.topo:3: link to \"S-20\", a node the file "
			    "never defines (--strict)",
			    err);
	assert_int_equal(
		-22,
		fabric_topo_parse(
			"t.topo",
			"switchguid=0x10\nSwitch 4 \"S-10\" # \"a\"\n[9] \"S-10\"[1]\n",
			&f, err, sizeof(err)));
	assert_string_equal("t.topo:3: expected a port line like [1] "
			    "\"S-guid\"[2] (node has 4 ports)",
			    err);
	assert_int_equal(-22, fabric_topo_parse("t.topo", "Switch 4 \"S-x\"\n",
						&f, err, sizeof(err)));
	assert_string_equal("t.topo:1: no GUID for node \"S-x\"", err);
	/* Numbers that atoi() used to read as 0 are errors. */
	assert_int_equal(
		-22,
		fabric_topo_parse(
			"t.topo",
			"switchguid=0x10\nSwitch 4 \"S-10\" # \"a\" lid x\n",
			&f, err, sizeof(err)));
	assert_string_equal("t.topo:2: expected a LID after \"lid\"", err);
	assert_int_equal(
		-22,
		fabric_topo_parse(
			"t.topo",
			"switchguid=0x10\nSwitch 4 \"S-10\" # \"a\"\n[1] \"S-10\"[]\n",
			&f, err, sizeof(err)));
	assert_string_equal("t.topo:3: expected a port line like [1] "
			    "\"S-guid\"[2] (node has 4 ports)",
			    err);
}

/* A topology file as spec: every link a cable, ends with GUIDs. */
static void test_topology_as_spec(void **state)
{
	char err[FABRIC_ERR_LEN] = "";
	struct fabric_spec *s = NULL;

	(void)state;
	assert_int_equal(
		0, fabric_spec_load(FX "small.topo", &s, err, sizeof(err)));
	assert_int_equal(6, s->ncables);
	assert_true(s->cables[0].a.guid != 0);
	assert_true(s->cables[0].z.guid != 0);
	fabric_spec_free(s);
}

static void test_large_spec(void **state)
{
	size_t len = 0, cap = 64 * 10001 + 128;
	char *text = malloc(cap);
	struct fabric_spec *s;
	int i;

	(void)state;
	len += snprintf(text, cap, "a_node,a_port,z_node,z_port,speed\n");
	for (i = 0; i < 10000; i++)
		len += snprintf(text + len, cap - len,
				"leaf%04d,%d,node%05d mlx5_0,1,NDR\n", i / 32,
				i % 32 + 1, i);
	s = parse_ok(text);
	assert_int_equal(10000, s->ncables);
	fabric_spec_free(s);
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_port_syntax),
		cmocka_unit_test(test_good_file),
		cmocka_unit_test(test_columns_any_order),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_fixture_errors),
		cmocka_unit_test(test_d8_nul_in_spec_is_error),
		cmocka_unit_test(test_d15_long_names_not_cut),
		cmocka_unit_test(test_topology),
		cmocka_unit_test(test_topology_errors),
		cmocka_unit_test(test_topology_as_spec),
		cmocka_unit_test(test_large_spec),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
