// SPDX-License-Identifier: MIT
/*
 * common/ibport.c: the one table of port states, physical states and PMA
 * counters; a link record as fabric writes it says what docs/records.md
 * documents.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "common/ibport.h"
#include "common/record.h"
#include "fabric/fabric_report.h"
#include "fabric/fabric_topo.h"

#define RECORDS_MD DOCS_DIR "/records.md"

static void test_state_names(void **state)
{
	(void)state;
	assert_string_equal("DOWN", ib_port_state_name(IB_PORT_STATE_DOWN));
	assert_string_equal("ACTIVE", ib_port_state_name(4));
	assert_string_equal("unknown", ib_port_state_name(0));
	assert_string_equal("unknown", ib_port_state_name(9));
	assert_string_equal("LinkUp", ib_phys_state_name(5));
	assert_string_equal("Polling", ib_phys_state_name(2));
	assert_string_equal("unknown", ib_phys_state_name(0));
	assert_string_equal("unknown", ib_phys_state_name(-1));
	for (int i = 1; i <= IB_PORT_STATE_ACTIVE_DEFER; i++)
		assert_int_equal(
			i, ib_port_state_from_name(ib_port_state_name(i)));
	for (int i = 1; i <= IB_PHYS_STATE_PHY_TEST; i++)
		assert_int_equal(
			i, ib_phys_state_from_name(ib_phys_state_name(i)));
	/* link records of earlier fabric versions, exactly as written */
	assert_int_equal(IB_PORT_STATE_ACTIVE,
			 ib_port_state_from_name("Active"));
	assert_int_equal(IB_PORT_STATE_DOWN, ib_port_state_from_name("Down"));
	assert_int_equal(0, ib_port_state_from_name("active"));
	assert_int_equal(0, ib_port_state_from_name("unknown"));
	assert_int_equal(0, ib_port_state_from_name(NULL));
	assert_int_equal(0, ib_phys_state_from_name("linkup"));
}

static void test_counters(void **state)
{
	(void)state;
	assert_int_equal(IB_PC_SYMBOL_ERRORS,
			 ib_pc_index("SymbolErrorCounter"));
	assert_int_equal(IB_PC_RCV_PKTS, ib_pc_index("PortRcvPkts"));
	assert_int_equal(-1, ib_pc_index("symbol_error"));
	assert_int_equal(IB_PC_VL15_DROPPED, ib_pc_sysfs_index("VL15_dropped"));
	assert_true(ib_counter_is_error("symbol_error"));
	assert_true(ib_counter_is_error("VL15_dropped"));
	assert_false(ib_counter_is_error("port_xmit_wait"));
	assert_false(ib_counter_is_error("port_xmit_data"));
	assert_false(ib_counter_is_error("rnr_nak_retry_err"));
	assert_int_equal(4, ib_counter_bits("local_link_integrity_errors"));
	assert_int_equal(8, ib_counter_bits("link_downed"));
	assert_int_equal(0, ib_counter_bits("port_rcv_data"));
	assert_true(ib_counter_saturated("symbol_error", 0xffff));
	assert_false(ib_counter_saturated("symbol_error", 0xfffe));
	assert_true(ib_counter_saturated("link_downed", 0xff));
	assert_false(ib_counter_saturated("port_xmit_data", 0xffffffffULL));
	for (int i = 0; i < IB_PC_COUNT; i++) {
		assert_int_equal(i, ib_pc_index(ib_pc_defs[i].name));
		assert_int_equal(i, ib_pc_sysfs_index(ib_pc_defs[i].sysfs));
	}
}

/* The value of "key":"..." in the first line of records.md holding what. */
static char *documented(const char *what, const char *key)
{
	FILE *f = fopen(RECORDS_MD, "re");
	char *line = NULL, *v = NULL, pat[64];
	size_t cap = 0;

	assert_non_null(f);
	snprintf(pat, sizeof(pat), "\"%s\":\"", key);
	while (!v && getline(&line, &cap, f) >= 0) {
		char *p = strstr(line, what) ? strstr(line, pat) : NULL;

		if (p) {
			p += strlen(pat);
			v = strndup(p, strcspn(p, "\""));
		}
	}
	free(line);
	fclose(f);
	assert_non_null(v);
	return v;
}

static void assert_documented(const json_t *rec, const char *what,
			      const char *key)
{
	char *doc = documented(what, key);

	assert_string_equal(doc, json_string_value(json_object_get(rec, key)));
	free(doc);
}

static void test_link_record_as_documented(void **state)
{
	char err[256], why[256];
	struct fabric *m;
	struct fabric_port *p = NULL;
	json_t *rec;

	(void)state;
	assert_int_equal(0, fabric_topo_load(FIXTURES_DIR "/fabric/small.topo",
					     &m, err, sizeof(err)));
	for (size_t i = 0; !p && i < m->nnodes; i++)
		for (int k = 1; !p && k <= m->nodes[i]->nports; k++)
			if (m->nodes[i]->ports[k].remote)
				p = &m->nodes[i]->ports[k];
	assert_non_null(p);
	rec = fabric_link_record(p);
	assert_non_null(rec);
	assert_int_equal(0, record_validate(rec, why, sizeof(why)));
	assert_documented(rec, "\"kind\":\"link\"", "state");
	assert_documented(rec, "\"kind\":\"link\"", "phys_state");
	json_decref(rec);
	fabric_free(m);
	/* and the port records of burnin and node spell it the same way */
	rec = json_pack("{s:s}", "state",
			ib_port_state_name(IB_PORT_STATE_ACTIVE));
	assert_documented(rec, "\"kind\":\"port\"", "state");
	json_decref(rec);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_state_names),
		cmocka_unit_test(test_counters),
		cmocka_unit_test(test_link_record_as_documented),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
