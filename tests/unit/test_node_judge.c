// SPDX-License-Identifier: MIT
/*
 * The pure parts of `ibproof node`: the judgement of ports against what is
 * expected of them, and the verdict line.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "common/record.h"
#include "common/ibport.h"
#include "node/node.h"

static struct node_port port(const char *ca, int lanes, enum ib_speed speed)
{
	struct node_port p = { .port = 1,
			       .state = 4,
			       .phys_state = 5,
			       .lanes = lanes,
			       .speed = speed };

	snprintf(p.ca, sizeof(p.ca), "%s", ca);
	snprintf(p.link_layer, sizeof(p.link_layer), "InfiniBand");
	snprintf(p.fw_ver, sizeof(p.fw_ver), "28.39.1002");
	snprintf(p.board_id, sizeof(p.board_id), "MT_0000000838");
	p.rate_gbps = ib_data_rate_gbps(speed, lanes);
	return p;
}

static const char *field(json_t *findings, size_t i, const char *key)
{
	json_t *f = json_array_get(findings, i);
	json_t *v = json_object_get(f, key);

	if (!v)
		v = json_object_get(json_object_get(f, "evidence"), key);
	return json_string_value(v);
}

static json_t *judge(struct node_port *v, int n, struct node_expect *ex,
		     int want_fail)
{
	json_t *findings = json_array();
	struct node_expect none = { 0 };

	assert_int_equal(
		node_judge_ports("gpu017", v, n, ex ? ex : &none, findings),
		want_fail);
	return findings;
}

static void test_healthy(void **state)
{
	struct node_port v[] = { port("mlx5_0", 4, IB_SPEED_NDR),
				 port("mlx5_1", 4, IB_SPEED_NDR) };
	json_t *f = judge(v, 2, NULL, 0);

	(void)state;
	assert_int_equal(json_array_size(f), 0);
	json_decref(f);
}

static void test_width_from_peers(void **state)
{
	struct node_port v[] = { port("mlx5_0", 4, IB_SPEED_NDR),
				 port("mlx5_3", 2, IB_SPEED_NDR) };
	json_t *f = judge(v, 2, NULL, 1);

	(void)state;
	assert_string_equal(field(f, 0, "category"), "degraded-width");
	assert_string_equal(field(f, 0, "short"), "mlx5_3 port 1 at 2x width");
	assert_string_equal(field(f, 0, "expected"), "4x");
	assert_string_equal(field(f, 0, "action"), "replace-cable");
	json_decref(f);
}

static void test_other_model_not_a_peer(void **state)
{
	struct node_port v[] = { port("mlx5_0", 4, IB_SPEED_NDR),
				 port("mlx5_1", 4, IB_SPEED_HDR) };
	json_t *f;

	(void)state;
	snprintf(v[1].board_id, sizeof(v[1].board_id), "MT_0000000223");
	f = judge(v, 2, NULL, 0);
	json_decref(f);
	v[1].board_id[0] = '\0';
	snprintf(v[1].board_id, sizeof(v[1].board_id), "MT_0000000838");
	f = judge(v, 2, NULL, 1);
	assert_string_equal(field(f, 0, "category"), "degraded-speed");
	assert_string_equal(field(f, 0, "short"), "mlx5_1 port 1 at HDR speed");
	json_decref(f);
}

static void test_down_reasons(void **state)
{
	struct node_port v[] = { port("mlx5_0", 4, IB_SPEED_NDR),
				 port("mlx5_1", 4, IB_SPEED_NDR) };
	json_t *f;

	(void)state;
	v[1].state = 1;
	v[1].phys_state = 2;
	f = judge(v, 2, NULL, 1);
	assert_string_equal(field(f, 0, "category"), "port-down");
	assert_string_equal(field(f, 0, "short"), "mlx5_1 port 1 DOWN/Polling");
	assert_non_null(strstr(field(f, 0, "message"), "no cable"));
	json_decref(f);
	v[1].phys_state = 3;
	f = judge(v, 2, NULL, 1);
	assert_non_null(strstr(field(f, 0, "message"), "turned the port off"));
	json_decref(f);
	v[1].state = 2; /* INIT/LinkUp: no SM */
	v[1].phys_state = 5;
	f = judge(v, 2, NULL, 1);
	assert_non_null(strstr(field(f, 0, "message"), "subnet manager"));
	assert_string_equal(field(f, 0, "category"), "link-not-active");
	assert_string_equal(field(f, 0, "action"), "check-sm");
	json_decref(f);
	v[1].state = 3; /* ARMED/LinkUp: not a cable to reseat (issue 34) */
	f = judge(v, 2, NULL, 1);
	assert_string_equal(field(f, 0, "category"), "link-not-active");
	assert_string_equal(field(f, 0, "action"), "check-sm");
	assert_null(strstr(field(f, 0, "message"), "reseat"));
	json_decref(f);
}

static void test_reference(void **state)
{
	struct node_port ref[] = { port("mlx5_0", 4, IB_SPEED_NDR),
				   port("mlx5_1", 4, IB_SPEED_NDR),
				   port("mlx5_2", 4, IB_SPEED_NDR) };
	struct node_port v[] = { port("mlx5_0", 4, IB_SPEED_NDR),
				 port("mlx5_1", 4, IB_SPEED_NDR) };
	struct node_expect ex = { .ref = ref, .n_ref = 3 };
	json_t *f;

	(void)state;
	snprintf(v[1].fw_ver, sizeof(v[1].fw_ver), "28.36.1010");
	/* every port here at 1x HDR: its peers agree, the reference not */
	v[0] = port("mlx5_0", 1, IB_SPEED_HDR);
	f = judge(v, 2, &ex, 4);
	assert_string_equal(field(f, 0, "short"), "mlx5_1 firmware 28.36.1010");
	assert_string_equal(field(f, 0, "expected"), "28.39.1002");
	assert_string_equal(field(f, 1, "short"), "mlx5_2 port 1 missing");
	assert_string_equal(field(f, 1, "action"), "drain-node");
	assert_string_equal(field(f, 2, "category"), "degraded-width");
	assert_string_equal(field(f, 3, "category"), "degraded-speed");
	json_decref(f);
}

static void test_expect_ports_and_rate(void **state)
{
	struct node_port v[] = { port("mlx5_0", 4, IB_SPEED_NDR),
				 port("mlx5_1", 4, IB_SPEED_HDR) };
	struct node_expect ex = { .min_ports = 4, .min_rate_gbps = 400 };
	json_t *f = judge(v, 2, &ex, 2);

	(void)state;
	assert_string_equal(field(f, 0, "short"), "2 of 4 expected ports");
	assert_string_equal(field(f, 1, "short"), "mlx5_1 port 1 at 200 Gb/s");
	json_decref(f);
}

static void test_parse_rate(void **state)
{
	struct node_port p = { 0 };

	(void)state;
	node_parse_rate("100 Gb/sec (2X HDR)", &p);
	assert_int_equal(p.lanes, 2);
	assert_int_equal(p.speed, IB_SPEED_HDR);
	node_parse_rate("40 Gb/sec (4X QDR)", &p);
	assert_int_equal(p.lanes, 4);
	assert_int_equal(p.speed, IB_SPEED_QDR);
	node_parse_rate("garbage", &p);
	assert_int_equal(p.lanes, 0);
	assert_int_equal(p.speed, IB_SPEED_UNKNOWN);
	assert_int_equal(ib_state_from_sysfs("4: ACTIVE"), 4);
}

static json_t *finding(const char *sev, const char *cat, json_t *subject,
		       json_t *evidence)
{
	return record_finding(sev, cat, subject, evidence, "none", "m %s", cat);
}

static void test_verdict_line(void **state)
{
	json_t *f = json_array();
	char *line;

	(void)state;
	line = node_verdict_line("gpu017", f);
	assert_string_equal(line, "node gpu017: PASS");
	free(line);
	json_array_append_new(
		f, finding("warn", "low-bandwidth",
			   record_port_ref("gpu001", "mlx5_0", 1, 0), NULL));
	line = node_verdict_line("gpu017", f);
	assert_string_equal(line, "node gpu017: PASS");
	free(line);
	json_array_append_new(f,
			      finding("fail", "degraded-width",
				      record_port_ref("gpu017", "mlx5_3", 1, 0),
				      json_pack("{s:s}", "short",
						"mlx5_3 port 1 at 2x width")));
	json_array_append_new(
		f, finding("fail", "pcie-degraded-speed",
			   json_pack("{s:s}", "bdf", "0000:c1:00.0"),
			   json_pack("{s:f}", "current_speed_GTps", 2.5)));
	json_array_append_new(
		f, finding("fail", "low-bandwidth",
			   record_port_ref("gpu017", "mlx5_3", 1, 0), NULL));
	json_array_append_new(f,
			      finding("fail", "degraded-width",
				      record_port_ref("gpu017", "mlx5_3", 1, 0),
				      json_pack("{s:s}", "short",
						"mlx5_3 port 1 at 2x width")));
	line = node_verdict_line("gpu017", f);
	assert_string_equal(line,
			    "node gpu017: FAIL \u2014 mlx5_3 port 1 at 2x "
			    "width; PCIe 0000:c1:00.0 at Gen1; mlx5_3 port 1 "
			    "low-bandwidth");
	free(line);
	json_decref(f);
}

static void test_counter_names(void **state)
{
	(void)state;
	assert_true(node_counter_is_error("symbol_error"));
	assert_true(node_counter_is_error("hw_link_downed"));
	assert_true(node_counter_is_error("rcvd_seq_err"));
	assert_false(node_counter_is_error("port_xmit_data"));
	assert_false(node_counter_is_error("sent_pkts"));
	assert_false(node_counter_is_error("completer_retry_err"));
	assert_true(node_counter_is_error("retry_exceeded_err"));
	assert_false(node_counter_is_error("_err"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_healthy),
		cmocka_unit_test(test_width_from_peers),
		cmocka_unit_test(test_other_model_not_a_peer),
		cmocka_unit_test(test_down_reasons),
		cmocka_unit_test(test_reference),
		cmocka_unit_test(test_expect_ports_and_rate),
		cmocka_unit_test(test_parse_rate),
		cmocka_unit_test(test_verdict_line),
		cmocka_unit_test(test_counter_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
