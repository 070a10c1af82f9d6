// SPDX-License-Identifier: MIT
/*
 * The topology text parser (fabric/fabric_topo.c) on hostile input: every
 * refusal names FILE:LINE and what was expected (issue 18, D6 and D21).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
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

#define FX FIXTURES_DIR "/fabric/"

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void end_str(const struct fabric_port *p, char *buf, size_t len)
{
	snprintf(buf, len, "%s:%d:%llx", p->node->desc, p->num,
		 (unsigned long long)p->guid);
}

/* The links of a model as sorted text: "end|end|width|speed" per link,
 * ends "name:port:port GUID" sorted, links one per line. */
static char *canon_links(const struct fabric *f)
{
	char **v = calloc(f->nports_total + 1, sizeof(*v)), a[320], b[320];
	size_t i, n = 0, len = 0;
	char *out;
	int j;

	for (i = 0; i < f->nnodes; i++) {
		for (j = 1; j <= f->nodes[i]->nports; j++) {
			const struct fabric_port *p = &f->nodes[i]->ports[j];

			if (!p->remote)
				continue;
			end_str(p, a, sizeof(a));
			end_str(p->remote, b, sizeof(b));
			if (strcmp(a, b) > 0)
				continue; /* each link once */
			v[n] = malloc(700);
			snprintf(v[n], 700, "%s|%s|%d|%d\n", a, b, p->width,
				 p->speed);
			len += strlen(v[n++]);
		}
	}
	qsort(v, n, sizeof(*v), cmp_str);
	out = calloc(len + 1, 1);
	for (i = 0; i < n; i++) {
		strcat(out, v[i]);
		free(v[i]);
	}
	free(v);
	return out;
}

static char *links_of(const char *path)
{
	char err[FABRIC_ERR_LEN] = "";
	struct fabric *f = NULL;
	char *s;

	if (fabric_topo_load(path, &f, err, sizeof(err)))
		fail_msg("%s", err);
	s = canon_links(f);
	fabric_free(f);
	return s;
}

/* ibnetdiscover -p, iblinkinfo and iblinkinfo --line of the fabric of
 * leaves.topo, captured with the real tools: the same links. */
static void test_formats_same_links(void **state)
{
	static const char *const others[] = { FX "leaves.ports",
					      FX "leaves.linkinfo",
					      FX "leaves.linkinfo-line" };
	char *want = links_of(FX "leaves.topo"), *got;
	size_t i, n;

	(void)state;
	for (i = 0, n = 0; want[i]; i++)
		n += want[i] == '\n';
	assert_int_equal(32, n); /* 24 CA links, 8 uplinks */
	for (i = 0; i < 3; i++) {
		got = links_of(others[i]);
		assert_string_equal(want, got);
		free(got);
	}
	free(want);
}

static void test_format_detect(void **state)
{
	(void)state;
	assert_int_equal(FABRIC_TOPO_IBLINKINFO,
			 fabric_topo_format("# c\nSwitch: 0x0008f10300000018 "
					    "leaf01:\n"));
	assert_int_equal(FABRIC_TOPO_IBLINKINFO,
			 fabric_topo_format("CA: node012 mlx5_0:\n"));
	assert_int_equal(FABRIC_TOPO_IBLINKINFO_LINE,
			 fabric_topo_format("0x0008f104000000b1 \"  a\" 18 1[ "
					    "] ==( 4X\n"));
	assert_int_equal(FABRIC_TOPO_PORTS,
			 fabric_topo_format("CA    18  1 0x0008f104000000b1 4x "
					    "EDR\n"));
	assert_int_equal(FABRIC_TOPO_IBNETDISCOVER,
			 fabric_topo_format("Switch\t8 \"S-1\"\n"));
	assert_int_equal(FABRIC_TOPO_NONE,
			 fabric_topo_format("a_node,a_port\n"));
	assert_string_equal("ibnetdiscover -p",
			    fabric_topo_format_name(FABRIC_TOPO_PORTS));
}

/* An excerpt (a peer never defined) is kept: a link to an unknown node,
 * with a warning; --strict refuses it at FILE:LINE. */
static void test_excerpts(void **state)
{
	static const char text[] =
		"switchguid=0x10\nSwitch 4 \"S-10\" # \"a\"\n"
		"[1] \"S-20\"[3] # \"b\" lid 2 4xEDR\n"
		"[2] \"H-30\"[1](31) # \"c\" lid 2 4xEDR\n";
	char err[FABRIC_ERR_LEN] = "";
	struct fabric *f = NULL;
	struct fabric_node *n;

	(void)state;
	assert_int_equal(
		0, fabric_topo_parse("t.topo", text, &f, err, sizeof(err)));
	assert_int_equal(3, f->nnodes);
	assert_int_equal(2, fabric_count_links(f));
	n = fabric_find_guid(f, 0x20);
	assert_non_null(n);
	assert_true(n->guid_unknown);
	assert_int_equal(FABRIC_NODE_SWITCH, n->type);
	assert_int_equal(3, n->nports);
	assert_int_equal(IB_SPEED_EDR, n->ports[3].speed);
	assert_int_equal(FABRIC_NODE_CA, fabric_find_guid(f, 0x30)->type);
	fabric_free(f);
	assert_int_equal(-22, fabric_topo_parse_opts("t.topo", text, true, &f,
						     err, sizeof(err)));
	assert_string_equal("t.topo:3: link to \"S-20\", a node the file "
			    "never defines (--strict)",
			    err);
	/* iblinkinfo -S: one switch, every peer undefined */
	assert_int_equal(0, fabric_topo_load(FX "leaves.linkinfo-S", &f, err,
					     sizeof(err)));
	assert_int_equal(9, f->nnodes);
	assert_int_equal(8, fabric_count_links(f));
	fabric_free(f);
	assert_int_equal(-22,
			 fabric_topo_load_opts(FX "leaves.linkinfo-S", true, &f,
					       err, sizeof(err)));
	assert_non_null(strstr(err, "leaves.linkinfo-S:11: link to "
				    "\"node001 mlx5_0\" (LID 1), a node the "
				    "file never defines (--strict)"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_d6_port_count),
		cmocka_unit_test(test_d21_strict_guids),
		cmocka_unit_test(test_formats_same_links),
		cmocka_unit_test(test_format_detect),
		cmocka_unit_test(test_excerpts),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
