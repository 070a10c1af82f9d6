// SPDX-License-Identifier: MIT
/*
 * `ibproof node`'s module records (node/node_xcvr.c): an Ethernet/RoCE
 * port's module read through the ethtool seam (a fake with a module
 * image, and the real kernel on lo); an InfiniBand port's, a port without
 * a netdev, and a --sysfs-root tree's each say why they were not read.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "node/node.h"
#include "xcvr_fake_ethtool.h"

static struct node_port roce_port(const char *netdev)
{
	struct node_port p = { .port = 1,
			       .state = 4,
			       .phys_state = 5,
			       .guid = 0x0c42a10300a1b2c4ULL };

	snprintf(p.ca, sizeof(p.ca), "mlx5_2");
	snprintf(p.link_layer, sizeof(p.link_layer), "Ethernet");
	snprintf(p.netdev, sizeof(p.netdev), "%s", netdev);
	return p;
}

static const char *str_at(const json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));

	return s ? s : "";
}

static void test_roce_module_read(void **state)
{
	struct node_port p = roce_port("eth2");
	struct fake_module m;
	json_t *rec, *lanes;

	(void)state;
	fm_sff8636(&m);
	fake = (struct fake_eth){ .m = &m };
	rec = node_xcvr_record(&p, &fake_ops, 5, NULL, NULL);
	assert_non_null(rec);
	assert_string_equal("transceiver", str_at(rec, "kind"));
	assert_string_equal("ethtool-netlink", str_at(rec, "source"));
	assert_true(json_is_true(json_object_get(rec, "present")));
	assert_string_equal("Mellanox", str_at(rec, "vendor"));
	assert_string_equal("MMA1B00-E100", str_at(rec, "part_number"));
	assert_string_equal("MT2231FT0042", str_at(rec, "serial"));
	assert_null(json_object_get(rec, "unreadable"));
	assert_string_equal("mlx5_2",
			    str_at(json_object_get(rec, "port"), "ca"));
	assert_int_equal(1, json_integer_value(json_object_get(
				    json_object_get(rec, "port"), "port")));
	lanes = json_object_get(rec, "lanes");
	assert_int_equal(4, json_array_size(lanes));
	assert_float_equal(0.5,
			   json_real_value(json_object_get(
				   json_array_get(lanes, 0), "rx_power_mw")),
			   1e-9);
	json_decref(rec);
}

static void test_roce_module_unreadable(void **state)
{
	struct node_port p = roce_port("eth2");
	json_t *rec;

	(void)state;
	fake = (struct fake_eth){ .nl_rc = -EOPNOTSUPP,
				  .info_rc = -EOPNOTSUPP };
	rec = node_xcvr_record(&p, &fake_ops, 5, NULL, NULL);
	assert_false(json_is_true(json_object_get(rec, "present")));
	assert_non_null(strstr(str_at(rec, "unreadable"),
			       "eth2: the driver has no module EEPROM ops"));
	json_decref(rec);
}

/* A lane under its low alarm on a RoCE port fails the node. */
static void test_roce_module_judged(void **state)
{
	struct node_port p = roce_port("eth2");
	json_t *findings = json_array(), *rec, *f;
	struct node_module_scope scope = { 0 };
	struct fake_module m;
	char buf[128];

	(void)state;
	fm_sff8636(&m);
	fake = (struct fake_eth){ .m = &m };
	rec = node_xcvr_record(&p, &fake_ops, 5, findings, &scope);
	assert_int_equal(0, json_array_size(findings)); /* clean */
	json_decref(rec);

	fm_put16(&m, 0, 36, 500); /* lane 2: 0.05 mW, low alarm 0.1 mW */
	fake = (struct fake_eth){ .m = &m };
	rec = node_xcvr_record(&p, &fake_ops, 5, findings, &scope);
	json_decref(rec);
	assert_int_equal(1, json_array_size(findings));
	f = json_array_get(findings, 0);
	assert_string_equal("transceiver-rx-power-low", str_at(f, "category"));
	assert_string_equal("fail", str_at(f, "severity"));
	assert_string_equal("replace-optic", str_at(f, "action"));
	assert_string_equal("mlx5_2",
			    str_at(json_object_get(f, "subject"), "ca"));
	assert_string_equal("mlx5_2 port 1 transceiver-rx-power-low",
			    node_finding_short(f, buf, sizeof(buf)));

	assert_int_equal(2, scope.in_scope);
	assert_int_equal(2, scope.tested);

	/* a module the kernel could be asked for but did not return: not
	 * tested (issue 32's fail closed), never a silent pass */
	fake = (struct fake_eth){ .nl_rc = -EIO, .info_rc = -EIO };
	rec = node_xcvr_record(&p, &fake_ops, 5, findings, &scope);
	json_decref(rec);
	assert_int_equal(2, json_array_size(findings));
	f = json_array_get(findings, 1);
	assert_string_equal("not-tested", str_at(f, "category"));
	assert_string_equal("retest", str_at(f, "action"));
	assert_string_equal("modules",
			    str_at(json_object_get(f, "evidence"), "part"));
	assert_non_null(strstr(str_at(f, "message"), "ethtool -m eth2"));
	assert_int_equal(3, scope.in_scope);
	assert_int_equal(2, scope.tested);

	/* a driver without module EEPROM ops has no module to judge: said
	 * by the record, outside the scope */
	fake = (struct fake_eth){ .nl_rc = -EOPNOTSUPP,
				  .info_rc = -EOPNOTSUPP };
	rec = node_xcvr_record(&p, &fake_ops, 5, findings, &scope);
	json_decref(rec);
	assert_int_equal(2, json_array_size(findings));
	assert_int_equal(3, scope.in_scope);
	json_decref(findings);
}

static void test_not_read_said_why(void **state)
{
	struct node_port p = roce_port("eth2");
	json_t *rec;

	(void)state;
	/* a --sysfs-root tree: its netdevs are not this host's */
	fake = (struct fake_eth){ 0 };
	rec = node_xcvr_record(&p, NULL, 5, NULL, NULL);
	assert_string_equal("eth2: not read (the ports come from "
			    "--sysfs-root, not from this host)",
			    str_at(rec, "unreadable"));
	json_decref(rec);
	/* no netdev */
	p = roce_port("");
	rec = node_xcvr_record(&p, &fake_ops, 5, NULL, NULL);
	assert_string_equal("mlx5_2 port 1: no netdev, so no module EEPROM "
			    "API to ask",
			    str_at(rec, "unreadable"));
	json_decref(rec);
	/* InfiniBand: never asked (IPoIB netdevs have no module ops) */
	p = roce_port("ib0");
	snprintf(p.link_layer, sizeof(p.link_layer), "InfiniBand");
	rec = node_xcvr_record(&p, &fake_ops, 5, NULL, NULL);
	assert_string_equal("node", str_at(rec, "source"));
	assert_non_null(strstr(str_at(rec, "unreadable"),
			       "not readable from the host (IPoIB netdevs "
			       "have no module EEPROM ops)"));
	json_decref(rec);
	assert_int_equal(0, fake.nl_reads + fake.flat_reads);
}

/* The real kernel: lo has no module ops; said, not a crash. */
static void test_kernel_loopback(void **state)
{
	struct node_port p = roce_port("lo");
	json_t *rec;

	(void)state;
	rec = node_xcvr_record(&p, &xcvr_ethtool_kernel_ops, 5, NULL, NULL);
	assert_non_null(rec);
	assert_false(json_is_true(json_object_get(rec, "present")));
	assert_non_null(strstr(str_at(rec, "unreadable"),
			       "lo: the driver has no module EEPROM ops"));
	json_decref(rec);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_roce_module_read),
		cmocka_unit_test(test_roce_module_unreadable),
		cmocka_unit_test(test_roce_module_judged),
		cmocka_unit_test(test_not_read_said_why),
		cmocka_unit_test(test_kernel_loopback),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
