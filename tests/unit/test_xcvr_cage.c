// SPDX-License-Identifier: MIT
/*
 * Twin-port and split cages (issue 34): the one cage table, the spec's
 * split-port labels, and the transceiver judge reading only the lanes of
 * the port it judges, one finding per module naming every port it serves.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "common/ibcage.h"
#include "fabric/fabric_report.h"
#include "fabric/fabric_spec.h"
#include "fabric/fabric_topo.h"
#include "fabric/xcvr_judge.h"
#include "xcvr_images.h"

static void test_cage_table(void **state)
{
	const struct ib_cage_model *twin = ib_cage_model_of(0xd2f2, 65);
	const struct ib_cage_model *split = ib_cage_model_of(0xd2f2, 129);
	struct ib_cage_pos pos;
	char buf[32];

	(void)state;
	assert_non_null(twin);
	assert_non_null(split);
	assert_null(ib_cage_model_of(0xd2f2, 37)); /* not a mode we know */
	assert_null(ib_cage_model_of(0xcb84, 37));
	ib_cage_position(twin, 33, &pos);
	assert_int_equal(17, pos.cage);
	assert_int_equal(1, pos.port);
	assert_int_equal(0x0f, ib_cage_lane_mask(twin, 33, 8));
	assert_int_equal(0xf0, ib_cage_lane_mask(twin, 34, 8));
	assert_int_equal(33, ib_cage_first_port(twin, 34));
	assert_string_equal("17/2", ib_cage_label(twin, 34, buf));
	ib_cage_position(twin, 65, &pos); /* the aggregation node's port */
	assert_int_equal(0, pos.cage);
	assert_int_equal(0, ib_cage_lane_mask(twin, 65, 8));
	assert_string_equal("", ib_cage_label(twin, 65, buf));
	/* split-ready: IB ports 1-4 are cage 1's four 2-lane halves */
	ib_cage_position(split, 4, &pos);
	assert_int_equal(1, pos.cage);
	assert_int_equal(2, pos.port);
	assert_int_equal(2, pos.split);
	assert_int_equal(0xc0, ib_cage_lane_mask(split, 4, 8));
	assert_int_equal(0x0c, ib_cage_lane_mask(split, 6, 8));
	assert_string_equal("1/2/1/2", ib_cage_label(split, 6, buf));
	assert_int_equal(5, ib_cage_first_port(split, 7));
}

/* The spec takes ports as the switch OS names them. */
static void test_split_labels_parse(void **state)
{
	(void)state;
	assert_int_equal(33, fabric_port_parse("17/1"));
	assert_int_equal(34, fabric_port_parse("1/17/2"));
	assert_int_equal(3, fabric_port_parse("1/2/1"));
	/* split halves: 4 IB ports per cage */
	assert_int_equal(1, fabric_port_parse("1/1/1/1"));
	assert_int_equal(2, fabric_port_parse("1/1/1/2"));
	assert_int_equal(4, fabric_port_parse("1/1/2/2"));
	assert_int_equal(67, fabric_port_parse("1/17/2/1"));
	assert_int_equal(128, fabric_port_parse("1/32/2/2"));
	/* every label the table prints parses back to its port */
	for (int port = 1; port <= 128; port++) {
		char buf[32];

		ib_cage_label(ib_cage_model_of(0xd2f2, 129), port, buf);
		assert_int_equal(port, fabric_port_parse(buf));
		if (port <= 64) {
			ib_cage_label(ib_cage_model_of(0xd2f2, 65), port, buf);
			assert_int_equal(port, fabric_port_parse(buf));
		}
	}
	assert_true(fabric_port_parse("2/17/1") < 0); /* one ASIC */
	assert_true(fabric_port_parse("1/17/3") < 0);
	assert_true(fabric_port_parse("1/17/1/3") < 0);
	assert_true(fabric_port_parse("1/64/1/1") < 0);
	assert_true(fabric_port_parse("1/17/1/1/1") < 0);
	assert_true(fabric_port_parse("p1s1") < 0);
	assert_true(fabric_port_parse("1//1") < 0);
}

/* A clean twin-port OSFP in cage 17 of leaf01: ports 33 and 34. */
static void twin_ports(struct xcvr_port p[2], bool up2)
{
	const struct ib_cage_model *m = ib_cage_model_of(0xd2f2, 65);
	struct fake_module fm;
	struct xcvr_image img;

	fm_cmis(&fm);
	if (!up2) /* port 34 unused: lanes 5-8 dark */
		for (int l = 4; l < 8; l++)
			fm_put16(&fm, 0x11, 186 + 2 * l, 0);
	memset(p, 0, 2 * sizeof(*p));
	assert_int_equal(0, xcvr_read_image(fm_read, &fm, &img));
	assert_int_equal(0, xcvr_decode(&img, &p[0].info));
	p[1].info = p[0].info;
	for (int i = 0; i < 2; i++) {
		snprintf(p[i].ref.name, sizeof(p[i].ref.name), "leaf01");
		p[i].ref.guid = 0x0002c90300001000ULL;
		p[i].ref.port = 33 + i;
		p[i].ref.type = FABRIC_NODE_SWITCH;
		p[i].lanes = ib_cage_lane_mask(m, 33 + i, p[i].info.lanes);
	}
	p[0].link_up = 1;
	p[1].link_up = up2;
}

static void test_dark_sibling_is_no_finding(void **state)
{
	struct fabric_findings fs = { 0 };
	struct xcvr_port p[2];

	(void)state;
	twin_ports(p, false);
	assert_int_equal(8, p[0].info.lanes);
	assert_int_equal(0, xcvr_judge_module(p, 2, NULL, &fs));
	assert_int_equal(0, fs.n);
	/* port 1 judged alone on its own lanes: nothing either */
	assert_int_equal(0, xcvr_judge_module(p, 1, NULL, &fs));
	assert_int_equal(0, fs.n);
	/* the old way (all 8 lanes against port 1's link): a false fault */
	p[0].lanes = 0;
	assert_int_equal(0, xcvr_judge(&p[0], NULL, &fs));
	assert_int_equal(1, fs.n);
	assert_string_equal("transceiver-rx-power-low", fs.v[0].category);
	fabric_findings_free(&fs);
}

/* A hot module: one finding, on port 33, naming port 34 as collateral. */
static void test_one_finding_per_module(void **state)
{
	struct fabric_findings fs = { 0 };
	struct xcvr_port p[2];
	json_t *rec, *col;

	(void)state;
	twin_ports(p, true);
	p[0].info.temp_c = p[1].info.temp_c = 85.0; /* high alarm 80 C */
	assert_int_equal(0, xcvr_judge_module(p, 2, NULL, &fs));
	assert_int_equal(1, fs.n);
	assert_string_equal("transceiver-alarm", fs.v[0].category);
	assert_string_equal("replace-optic", fs.v[0].action);
	assert_non_null(strstr(fs.v[0].message, "module of ports 33, 34"));
	rec = fabric_finding_record(&fs.v[0]);
	assert_non_null(rec);
	assert_int_equal(33, json_integer_value(json_object_get(
				     json_object_get(rec, "subject"), "port")));
	col = json_object_get(json_object_get(rec, "evidence"), "collateral");
	assert_int_equal(1, json_array_size(col));
	assert_int_equal(34, json_integer_value(json_object_get(
				     json_array_get(col, 0), "port")));
	json_decref(rec);
	fabric_findings_free(&fs);
}

/* ibnetdiscover's devid= reaches the model and the link records. */
static void test_topology_devid(void **state)
{
	static const char text[] =
		"vendid=0x2c9\ndevid=0xd2f2\nswitchguid=0x100(100)\n"
		"Switch\t65 \"S-100\"\t# \"leaf01\" enhanced port 0 lid 1 "
		"lmc 0\n"
		"[34]\t\"H-300\"[1](301)\t# \"node1 mlx5_0\" lid 5 4xXDR\n"
		"vendid=0x2c9\ndevid=0x1021\ncaguid=0x300\n"
		"Ca\t1 \"H-300\"\t# \"node1 mlx5_0\"\n"
		"[1](301)\t\"S-100\"[34]\t# lid 5 4xXDR\n";
	char err[FABRIC_ERR_LEN];
	struct fabric *f = NULL;
	json_t *rec, *a;

	(void)state;
	assert_int_equal(
		0, fabric_topo_parse("t.topo", text, &f, err, sizeof(err)));
	assert_int_equal(0xd2f2, fabric_find_guid(f, 0x100)->device_id);
	assert_int_equal(0x1021, fabric_find_guid(f, 0x300)->device_id);
	rec = fabric_link_record(&fabric_find_guid(f, 0x100)->ports[34]);
	assert_non_null(rec);
	assert_string_equal("XDR",
			    json_string_value(json_object_get(rec, "speed")));
	a = json_object_get(rec, "a");
	assert_int_equal(0xd2f2,
			 json_integer_value(json_object_get(a, "devid")));
	assert_string_equal("17/2",
			    json_string_value(json_object_get(a, "alias")));
	assert_null(json_object_get(json_object_get(rec, "b"), "alias"));
	json_decref(rec);
	fabric_free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cage_table),
		cmocka_unit_test(test_split_labels_parse),
		cmocka_unit_test(test_dark_sibling_is_no_finding),
		cmocka_unit_test(test_one_finding_per_module),
		cmocka_unit_test(test_topology_devid),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
