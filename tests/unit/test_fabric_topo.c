// SPDX-License-Identifier: MIT
/*
 * The topology text parser (fabric/fabric_topo.c) on hostile input: every
 * refusal names FILE:LINE and what was expected (issue 18, D6 and D21).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "fabric/fabric_topo.h"
#include "fabric/fabric_spec.h"

/* Parses text that must be refused; err must be exactly want. */
static void refused(const char *text, const char *want)
{
	char err[FABRIC_ERR_LEN];
	struct fabric *f = NULL;

	memset(err, 'U', sizeof(err) - 1);
	err[sizeof(err) - 1] = '\0';
	assert_int_equal(
		-22, fabric_topo_parse("t.topo", text, &f, err, sizeof(err)));
	assert_null(f);
	assert_string_equal(want, err);
}

static struct fabric *accepted(const char *text)
{
	char err[FABRIC_ERR_LEN] = "";
	struct fabric *f = NULL;

	assert_int_equal(
		0, fabric_topo_parse("t.topo", text, &f, err, sizeof(err)));
	assert_non_null(f);
	return f;
}

/* D6: a port count past 254, or none before the id (digits inside the id
 * were taken for it), is refused with a message, never stack garbage. */
static void test_d6_port_count(void **state)
{
	struct fabric *f;

	(void)state;
	refused("switchguid=0x10\nSwitch 300 \"S-10\" # \"a\"\n",
		"t.topo:2: expected a port count 1-254 after \"Switch\"");
	refused("switchguid=0x10\nSwitch 255 \"S-10\" # \"a\"\n",
		"t.topo:2: expected a port count 1-254 after \"Switch\"");
	refused("caguid=0x10\nCa \"]-555\"\n",
		"t.topo:2: expected a port count 1-254 after \"Ca\"");
	refused("caguid=0x10\nCa \"]-55\"\n",
		"t.topo:2: expected a port count 1-254 after \"Ca\"");
	refused("caguid=0x10\nCa 0 \"H-10\"\n",
		"t.topo:2: expected a port count 1-254 after \"Ca\"");
	refused("caguid=0x10\nCa 2x \"H-10\"\n",
		"t.topo:2: expected a port count 1-254 after \"Ca\"");
	refused("caguid=0x10\nCa 2\n",
		"t.topo:2: expected Switch|Ca|Rt N \"id\" # \"desc\"");
	f = accepted("switchguid=0x10\nSwitch\t254 \"S-10\" # \"a\"\n");
	assert_int_equal(254, f->nodes[0]->nports);
	fabric_free(f);
}

/* D21: an empty file is no fabric; GUIDs are at most 64 bits of hex with
 * nothing else on the token. */
static void test_d21_strict_guids(void **state)
{
	struct fabric *f;

	(void)state;
	refused("", "t.topo:1: no node in the topology (expected Switch, Ca "
		    "or Rt lines)");
	refused("#\n# Topology file\n\n",
		"t.topo:3: no node in the topology (expected Switch, Ca "
		"or Rt lines)");
	refused("switchguid=0x1ffffffffffffffff\nSwitch 4 \"S-10\"\n",
		"t.topo:1: expected a GUID of at most 16 hex digits after "
		"'='");
	refused("switchguid=0x9c05zz\nSwitch 4 \"S-10\"\n",
		"t.topo:1: expected a GUID of at most 16 hex digits after "
		"'='");
	refused("switchguid=0x10(10)junk\nSwitch 4 \"S-10\"\n",
		"t.topo:1: expected a GUID of at most 16 hex digits after "
		"'='");
	refused("caguid=\nCa 1 \"H-10\"\n",
		"t.topo:1: expected a GUID of at most 16 hex digits after "
		"'='");
	refused("Switch 4 \"S-1ffffffffffffffff\"\n",
		"t.topo:1: no GUID for node \"S-1ffffffffffffffff\"");
	refused("Switch 4 \"S-10q\"\n", "t.topo:1: no GUID for node \"S-10q\"");
	refused("caguid=0x10\nCa 1 \"H-10\"\n[1](1ffffffffffffffff) \"S-20\"[1]\n",
		"t.topo:3: expected a port GUID of at most 16 hex digits in "
		"\"[N](GUID)\"");
	refused("caguid=0x10\nCa 1 \"H-10\"\n[1](9c05x) \"S-20\"[1]\n",
		"t.topo:3: expected a port GUID of at most 16 hex digits in "
		"\"[N](GUID)\"");
	f = accepted("switchguid=0x10(10)\nSwitch 4 \"S-10\" # \"a\"\n"
		     "[1] \"H-ffffffffffffffff\"[1]\n"
		     "caguid=0xffffffffffffffff\nCa 1 \"H-ffffffffffffffff\"\n"
		     "[1](ffffffffffffffff) \"S-10\"[1] # lid 3 4xEDR\n");
	assert_int_equal(2, f->nnodes);
	assert_non_null(fabric_find_guid(f, UINT64_MAX));
	assert_int_equal(UINT64_MAX,
			 fabric_find_guid(f, UINT64_MAX)->ports[1].guid);
	fabric_free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_d6_port_count),
		cmocka_unit_test(test_d21_strict_guids),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
