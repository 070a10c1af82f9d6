// SPDX-License-Identifier: MIT
/*
 * One faulty twin-port module (issue 34): `fabric cables` makes one
 * finding on the first port with the sibling as collateral; the report
 * makes one disable entry naming both ports and both far ends, and its
 * disable script takes both ports out of service together.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "common/ibcage.h"
#include "fabric/fabric_report.h"
#include "fabric/xcvr_judge.h"
#include "reports/report.h"
#include "xcvr_images.h"

#define LEAF_GUID 0x0002c90300001000ULL

/* leaf01 (Quantum-2, 65 ports): 33 -> node1 mlx5_0, 34 -> node2 mlx5_0. */
static struct fabric *leaf(void)
{
	struct fabric *f = fabric_new();
	struct fabric_node *sw, *ca;

	assert_non_null(f);
	sw = fabric_add_node(f, LEAF_GUID, FABRIC_NODE_SWITCH, "leaf01", 65);
	assert_non_null(sw);
	sw->device_id = IB_CAGE_DEVID_QUANTUM2;
	for (int i = 0; i < 2; i++) {
		char desc[32];

		snprintf(desc, sizeof(desc), "node%d mlx5_0", i + 1);
		ca = fabric_add_node(f, 0x0008f10400000100ULL + 16 * i,
				     FABRIC_NODE_CA, desc, 1);
		assert_non_null(ca);
		ca->ports[1].guid = ca->guid + 1;
		assert_int_equal(
			0, fabric_connect(&sw->ports[33 + i], &ca->ports[1]));
		for (int k = 0; k < 2; k++) {
			struct fabric_port *p =
				k ? &ca->ports[1] : &sw->ports[33 + i];

			p->valid = true;
			p->state = IB_PORT_STATE_ACTIVE;
			p->phys_state = IB_PHYS_STATE_LINKUP;
			p->width = 4;
			p->speed = IB_SPEED_NDR;
		}
	}
	return f;
}

/* The alarm of the module in cage 17 as `fabric cables` records it. */
static json_t *module_finding(const struct fabric *f)
{
	const struct ib_cage_model *m = ib_cage_model_of(0xd2f2, 65);
	struct fabric_findings fs = { 0 };
	struct xcvr_port p[2];
	struct fake_module fm;
	struct xcvr_image img;
	json_t *rec;

	fm_cmis(&fm);
	fm_put16(&fm, 0, 14, 0x5500); /* 85 C: past the 80 C alarm */
	memset(p, 0, sizeof(p));
	assert_int_equal(0, xcvr_read_image(fm_read, &fm, &img));
	assert_int_equal(0, xcvr_decode(&img, &p[0].info));
	p[1].info = p[0].info;
	for (int i = 0; i < 2; i++) {
		struct fabric_finding tmp = { 0 };

		fabric_finding_port(&tmp, &f->nodes[0]->ports[33 + i]);
		p[i].ref = tmp.refs[0];
		p[i].link_up = 1;
		p[i].lanes = ib_cage_lane_mask(m, 33 + i, p[i].info.lanes);
	}
	assert_int_equal(0, xcvr_judge_module(p, 2, NULL, &fs));
	assert_int_equal(1, fs.n);
	rec = fabric_finding_record(&fs.v[0]);
	fabric_findings_free(&fs);
	return rec;
}

static char *slurp(const char *path)
{
	FILE *in = fopen(path, "r");
	char *buf = calloc(1, 65536);

	assert_non_null(in);
	assert_non_null(buf);
	assert_true(fread(buf, 1, 65535, in) > 0);
	fclose(in);
	return buf;
}

static void test_one_entry_names_both_ports(void **state)
{
	struct fabric *f = leaf();
	struct report r;
	json_t *rec, *j;
	char path[] = "/tmp/ibproof-cage-XXXXXX", *script;
	const struct report_entry *e;
	int fd;

	(void)state;
	assert_int_equal(0, report_init(&r));
	judge_defaults(&r.params.judge);
	for (int i = 0; i < 2; i++) {
		rec = fabric_link_record(&f->nodes[0]->ports[33 + i]);
		assert_non_null(rec);
		assert_int_equal(0xd2f2,
				 json_integer_value(json_object_get(
					 json_object_get(rec, "a"), "devid")));
		assert_string_equal(
			i ? "17/2" : "17/1",
			json_string_value(json_object_get(
				json_object_get(rec, "a"), "alias")));
		assert_int_equal(0, report_ingest_record(&r, rec));
		json_decref(rec);
	}
	rec = module_finding(f);
	assert_int_equal(0, report_ingest_record(&r, rec));
	json_decref(rec);
	assert_int_equal(0, report_build_disable_list(&r));
	assert_int_equal(1, (int)r.n_entries);
	e = &r.entries[0];
	assert_string_equal("replace-optic", e->action);
	assert_int_equal(33, e->port.port);
	assert_string_equal("node1", e->peer.host);
	assert_int_equal(1, e->n_also);
	assert_int_equal(34, e->also[0].port);
	assert_string_equal("node2", e->also_peer[0].host);

	j = report_entry_json(e);
	assert_int_equal(1, json_array_size(json_object_get(j, "same_module")));
	json_decref(j);

	fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(0, report_write_script(&r, path));
	script = slurp(path);
	assert_non_null(
		strstr(script,
		       "ibportstate -G ${IBPROOF_M_KEY:+-y \"$IBPROOF_M_KEY\"} "
		       "'0x0002c90300001000' "
		       "'33' 'disable'"));
	assert_non_null(
		strstr(script,
		       "ibportstate -G ${IBPROOF_M_KEY:+-y \"$IBPROOF_M_KEY\"} "
		       "'0x0002c90300001000' "
		       "'34' 'disable'"));
	assert_non_null(strstr(script, "2 ports to disable (1 optic"));
	assert_non_null(strstr(script, "same module serves leaf01 port 34 "
				       "(cage 17/2) <-> node2 mlx5_0 port 1"));
	free(script);
	unlink(path);
	report_fini(&r);
	fabric_free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_one_entry_names_both_ports),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
