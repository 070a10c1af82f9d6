// SPDX-License-Identifier: MIT
/*
 * test_fabric_scope.c: MAD status meanings (IBTA 13.4.7), --accept-untested
 * names, the scope block, and ibdiag.conf read with rdma-core's rules
 * (infiniband-diags ibdiag_common.c read_ibdiag_config) plus FILE:LINE
 * errors where rdma-core would read garbage.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "fabric/fabric_ibdiag_conf.h"
#include "fabric/fabric_scope.h"

static const char *text(unsigned st)
{
	static char buf[128];

	return fabric_mad_status_text(st, buf, sizeof(buf));
}

static void test_mad_status_text(void **state)
{
	(void)state;
	assert_string_equal("busy", text(0x0001));
	assert_string_equal("redirect", text(0x0002));
	assert_string_equal("unsupported class/version", text(0x0004));
	assert_string_equal("unsupported method", text(0x0008));
	assert_string_equal("unsupported attribute or modifier", text(0x000c));
	assert_string_equal("invalid field", text(0x001c));
	assert_string_equal("reserved code 5", text(0x0014));
	assert_string_equal("busy, invalid field", text(0x001d));
	/* CableInfo puts its own status in the class-specific byte */
	assert_string_equal("class-specific 0x03", text(0x0300));
	assert_string_equal("reserved bits 0x0020", text(0x0020));
	assert_string_equal("success", text(0));
}

/* A tiny fabric: a switch and a CA on its port 1. */
static struct fabric *two_nodes(void)
{
	struct fabric *m = fabric_new();
	struct fabric_node *sw, *ca;

	assert_non_null(m);
	sw = fabric_add_node(m, 0x0008f10300000004ULL, FABRIC_NODE_SWITCH,
			     "leaf01", 4);
	ca = fabric_add_node(m, 0x0008f10400000010ULL, FABRIC_NODE_CA,
			     "node01 mlx5_0", 1);
	assert_non_null(sw);
	assert_non_null(ca);
	fabric_connect(&sw->ports[1], &ca->ports[1]);
	return m;
}

static void test_untested_and_accept(void **state)
{
	struct fabric *m = two_nodes();
	struct fabric_node *sw = fabric_find_guid(m, 0x0008f10300000004ULL);
	struct fabric_node *ca = fabric_find_guid(m, 0x0008f10400000010ULL);
	struct fabric_findings fs = { 0 };
	struct fabric_scope s = { 0 };
	struct fabric_gap busy = { .part = FABRIC_PART_PORTS,
				   .reason = "mad-status",
				   .mad_status = 1,
				   .what = "PortCounters" };
	struct fabric_gap silent = { .part = FABRIC_PART_PORTS,
				     .reason = "no-answer",
				     .what = "PortCounters" };
	char names[] = "node01 mlx5_0:1,0x8f10300000004:3";
	json_t *j;

	(void)state;
	assert_int_equal(0, fabric_scope_accept_arg(&s, names));
	assert_int_equal(2, s.naccept);
	fabric_scope_tested(&s, FABRIC_PART_PORTS);
	assert_non_null(fabric_scope_untested(&s, &fs, &sw->ports[2], &busy));
	assert_non_null(fabric_scope_untested(&s, &fs, &ca->ports[1], &silent));
	/* by GUID without leading zeros */
	assert_non_null(fabric_scope_untested(&s, &fs, &sw->ports[3], &silent));
	assert_int_equal(3, fs.n);
	assert_string_equal("warn", fs.v[0].severity);
	assert_string_equal("retest", fs.v[0].action); /* busy */
	assert_string_equal("info", fs.v[1].severity); /* accepted */
	assert_string_equal("check-access", fs.v[1].action);
	assert_string_equal("info", fs.v[2].severity);
	assert_non_null(strstr(fs.v[0].message, "MAD status 0x0001 (busy)"));
	assert_int_equal(1, fabric_scope_gaps(&s));
	j = fabric_scope_json(&s);
	assert_non_null(j);
	assert_int_equal(4, json_integer_value(json_object_get(
				    json_object_get(j, "ports"), "in_scope")));
	assert_int_equal(1, json_integer_value(json_object_get(
				    json_object_get(j, "ports"), "tested")));
	assert_int_equal(3,
			 json_integer_value(json_object_get(
				 json_object_get(j, "ports"), "not_tested")));
	assert_int_equal(2, json_integer_value(json_object_get(
				    json_object_get(j, "ports"), "accepted")));
	assert_null(json_object_get(j, "links")); /* not in this scope */
	json_decref(j);
	fabric_scope_accept_free(&s);
	fabric_findings_free(&fs);
	fabric_free(m);
}

/* Writes text to a temporary file; its path in path. */
static void conf_file(char *path, const char *text)
{
	int fd = mkstemp(path);

	assert_true(fd >= 0);
	assert_int_equal((ssize_t)strlen(text), write(fd, text, strlen(text)));
	close(fd);
}

static int conf(const char *text, struct fabric_mkey *k, char *err,
		size_t errlen)
{
	char path[] = "/tmp/ibproof-ibdiag-XXXXXX";
	int rc;

	conf_file(path, text);
	memset(k, 0, sizeof(*k));
	rc = fabric_ibdiag_conf_read(path, true, k, err, errlen);
	unlink(path);
	return rc;
}

static void test_ibdiag_conf(void **state)
{
	struct fabric_mkey k;
	char err[512];

	(void)state;
	/* Debian's shipped file: everything commented out, no key */
	assert_int_equal(0, conf("# define a default m_key\n#m_key=0x00\n"
				 "#sa_key=0x00\n\nCA=mlx5_0\nPort=1\n",
				 &k, err, sizeof(err)));
	assert_false(k.set);
	assert_int_equal(
		0, conf("m_key=0x1122334455667788\n", &k, err, sizeof(err)));
	assert_true(k.set);
	assert_true(k.key == 0x1122334455667788ull);
	/* strtoull base 0: octal and decimal; the last line wins; a name
	 * that starts with m_key counts (rdma-core's strncmp) */
	assert_int_equal(0,
			 conf("m_key=010\nm_key2=12\n", &k, err, sizeof(err)));
	assert_true(k.key == 12);
	assert_int_equal(0, conf("m_key=010\n", &k, err, sizeof(err)));
	assert_true(k.key == 8);
	assert_int_equal(0, conf("m_key = 0x10 \n", &k, err, sizeof(err)));
	assert_true(k.key == 16);
	/* other names ignored, a key of 0 is a key */
	assert_int_equal(0, conf("timeout=50\nsa_key=0x5\nm_key=0\n", &k, err,
				 sizeof(err)));
	assert_true(k.set && k.key == 0);
	/* where rdma-core reads garbage (or crashes): FILE:LINE, and never
	 * the value */
	assert_int_equal(-EINVAL, conf("# x\nm_key=0xzz99secret\n", &k, err,
				       sizeof(err)));
	assert_non_null(strstr(err, ":2: m_key: expected a number"));
	assert_null(strstr(err, "secret"));
	assert_int_equal(-EINVAL, conf("m_key\n", &k, err, sizeof(err)));
	assert_non_null(strstr(err, ":1: expected m_key=KEY"));
	assert_int_equal(-EINVAL, conf("m_key=-1\n", &k, err, sizeof(err)));
	assert_int_equal(-EINVAL, conf("m_key=0x1ffffffffffffffff\n", &k, err,
				       sizeof(err)));
	assert_non_null(strstr(err, ":1: m_key: more than 64 bits"));
	assert_int_equal(-EINVAL,
			 conf("m_key_files=/etc/keys\n", &k, err, sizeof(err)));
	assert_non_null(strstr(err, ":1: m_key_files"));
	/* a missing file: ignored unless asked for by name */
	memset(&k, 0, sizeof(k));
	assert_int_equal(0,
			 fabric_ibdiag_conf_read("/nonexistent/ibdiag.conf",
						 false, &k, err, sizeof(err)));
	assert_false(k.set);
	assert_true(fabric_ibdiag_conf_read("/nonexistent/ibdiag.conf", true,
					    &k, err, sizeof(err)) < 0);
}

static void test_mkey_parse(void **state)
{
	uint64_t k;

	(void)state;
	assert_int_equal(0, fabric_mkey_parse("0xffffffffffffffff", &k));
	assert_true(k == UINT64_MAX);
	assert_int_equal(0, fabric_mkey_parse("42", &k));
	assert_true(k == 42);
	assert_int_equal(-ERANGE,
			 fabric_mkey_parse("18446744073709551616", &k));
	assert_int_equal(-EINVAL, fabric_mkey_parse("", &k));
	assert_int_equal(-EINVAL, fabric_mkey_parse("0x12g", &k));
	assert_int_equal(-EINVAL, fabric_mkey_parse("+5", &k));
	assert_int_equal(-EINVAL, fabric_mkey_parse("key", &k));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mad_status_text),
		cmocka_unit_test(test_untested_and_accept),
		cmocka_unit_test(test_ibdiag_conf),
		cmocka_unit_test(test_mkey_parse),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
