// SPDX-License-Identifier: MIT
/* rdma/port_sysfs.c against the fixture trees of tests/fixtures/sysfs-ib. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "rdma/cm_addr.h"
#include "rdma/port_sysfs.h"

#define ROOT(name) FIXTURES_DIR "/sysfs-ib/" name

static struct dpath_port port_of(const char *ca, int port, bool ethernet)
{
	struct dpath_port p;

	memset(&p, 0, sizeof(p));
	snprintf(p.ca, sizeof(p.ca), "%s", ca);
	p.port = port;
	p.ethernet = ethernet;
	return p;
}

static void test_gid_parse(void **state)
{
	uint8_t g[16];

	(void)state;
	assert_int_equal(
		0,
		dpath_gid_parse("fe80:0000:0000:0000:0c42:a103:00a1:b2c1", g));
	assert_int_equal(0xfe, g[0]);
	assert_int_equal(0x80, g[1]);
	assert_int_equal(0xc1, g[15]);
	assert_int_equal(-EINVAL, dpath_gid_parse("fe80::1", g));
	assert_int_equal(-EINVAL,
			 dpath_gid_parse("fe80:0:0:0:0:0:0:1 trailing", g));
}

static void test_infiniband_port(void **state)
{
	struct dpath_port p = port_of("mlx5_0", 1, false);

	(void)state;
	assert_int_equal(0, dpath_port_sysfs_fill(ROOT("ib-node"), &p));
	assert_int_equal(-1, p.gid_index);
	assert_true(p.guid == 0x0c42a10300a1b2c1ull);
	assert_int_equal(0xfe, p.gid[0]);
	assert_string_equal("0000:c1:00.0", p.pci_addr);
	assert_int_equal(1, p.numa_node);
	assert_string_equal("", p.netdev);
	assert_float_equal(200.0, dpath_port_rate_gbps(0, 64, 2, 0), 1e-9);
}

/* --cm rdmacm on InfiniBand: the IPoIB netdev carrying the port's GID. */
static void test_ipoib_netdev_by_gid(void **state)
{
	struct dpath_port p = port_of("mlx5_1", 1, false);
	char netdev[32];
	uint8_t gid[16];

	(void)state;
	assert_int_equal(0, dpath_port_sysfs_fill(ROOT("ib-node"), &p));
	assert_int_equal(0,
			 dpath_port_sysfs_ipoib_netdev(ROOT("ib-node"), p.gid,
						       netdev, sizeof(netdev)));
	assert_string_equal("ib1", netdev);
	p = port_of("mlx5_0", 1, false);
	assert_int_equal(0, dpath_port_sysfs_fill(ROOT("ib-node"), &p));
	assert_int_equal(0,
			 dpath_port_sysfs_ipoib_netdev(ROOT("ib-node"), p.gid,
						       netdev, sizeof(netdev)));
	assert_string_equal("ib0", netdev); /* before its child ib0.8001 */
	memcpy(gid, p.gid, 16);
	gid[15] ^= 1; /* no such port */
	assert_int_equal(-ENOENT,
			 dpath_port_sysfs_ipoib_netdev(ROOT("ib-node"), gid,
						       netdev, sizeof(netdev)));
	assert_int_equal(-ENOENT,
			 dpath_port_sysfs_ipoib_netdev(ROOT("rxe-node"), gid,
						       netdev, sizeof(netdev)));
}

/* The address the RDMA CM listens on: RoCE v2's IPv4 GID. */
static void test_cm_addr(void **state)
{
	struct dpath_port p = port_of("mlx5_2", 1, true);
	struct sockaddr_storage a;
	char err[160], text[64];

	(void)state;
	assert_int_equal(0, dpath_port_sysfs_fill(ROOT("roce-node"), &p));
	assert_int_equal(0, dpath_port_cm_addr(ROOT("roce-node"), &p, &a, err,
					       sizeof(err)));
	dpath_sockaddr_str(&a, text, sizeof(text));
	assert_string_equal("10.12.0.7", text);
	p.gid_index = -1; /* RoCE without an IPv4 GID */
	assert_int_equal(-ENOENT, dpath_port_cm_addr(ROOT("roce-node"), &p, &a,
						     err, sizeof(err)));
	assert_string_equal(
		"mlx5_2 port 1: no RoCE v2 GID with an IPv4 address", err);
	/* InfiniBand: ib1 exists only in the fixture, so it has no address */
	p = port_of("mlx5_1", 1, false);
	assert_int_equal(0, dpath_port_sysfs_fill(ROOT("ib-node"), &p));
	assert_int_equal(
		-EADDRNOTAVAIL,
		dpath_port_cm_addr(ROOT("ib-node"), &p, &a, err, sizeof(err)));
	assert_string_equal(
		"mlx5_1 port 1: its IPoIB interface ib1 has no IPv4 address",
		err);
	p.gid[15] ^= 1;
	assert_int_equal(-ENOENT, dpath_port_cm_addr(ROOT("ib-node"), &p, &a,
						     err, sizeof(err)));
	assert_string_equal("mlx5_1 port 1: no IPoIB interface carries its GID",
			    err);
}

static void test_roce_picks_ipv4_v2_gid(void **state)
{
	struct dpath_port p = port_of("mlx5_2", 1, true);
	long mbps;

	(void)state;
	assert_int_equal(0, dpath_port_sysfs_fill(ROOT("roce-node"), &p));
	assert_int_equal(3, p.gid_index);
	assert_int_equal(0xff, p.gid[10]);
	assert_int_equal(0x0a, p.gid[12]);
	assert_int_equal(0x07, p.gid[15]);
	assert_true(p.guid == 0x0c42a10300556670ull);
	assert_string_equal("ens1f0", p.netdev);
	assert_string_equal("0000:41:00.0", p.pci_addr);
	assert_int_equal(0, p.numa_node);
	mbps = dpath_netdev_speed_mbps(ROOT("roce-node"), p.netdev);
	assert_int_equal(100000, mbps);
	/* RoCE: the netdev's speed, not verbs' nominal speed x width. */
	assert_float_equal(100.0, dpath_port_rate_gbps(1, 32, 2, mbps), 1e-9);
}

static void test_rxe_port(void **state)
{
	struct dpath_port p = port_of("rxe0", 1, true);
	long mbps;

	(void)state;
	assert_int_equal(0, dpath_port_sysfs_fill(ROOT("rxe-node"), &p));
	assert_int_equal(1, p.gid_index); /* Soft-RoCE: index 1 */
	assert_string_equal("eth1", p.netdev);
	/* No device link of its own: the PCI function behind eth1. */
	assert_string_equal("0000:00:05.0", p.pci_addr);
	assert_int_equal(-1, p.numa_node);
	mbps = dpath_netdev_speed_mbps(ROOT("rxe-node"), "eth1");
	assert_int_equal(0, mbps); /* virtio says -1: unknown */
	assert_float_equal(0.0, dpath_port_rate_gbps(1, 1, 1, mbps), 1e-9);
}

static void test_missing_port(void **state)
{
	struct dpath_port p = port_of("mlx5_9", 1, false);
	uint8_t g[16];

	(void)state;
	assert_int_equal(-ENOENT, dpath_port_sysfs_fill(ROOT("ib-node"), &p));
	p = port_of("mlx5_0", 2, false);
	assert_int_equal(-ENOENT, dpath_port_sysfs_fill(ROOT("ib-node"), &p));
	/* InfiniBand has no RoCE GID. */
	assert_int_equal(-ENOENT, dpath_port_sysfs_roce_gid(ROOT("ib-node"),
							    "mlx5_0", 1, g));
	assert_int_equal(0, dpath_netdev_speed_mbps(ROOT("ib-node"), "ib0"));
}

static void mkfile(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

/*
 * A CA link that leaves the root (here absolute, to a port tree that
 * exists) is not followed out of it: the port and its counters are missing.
 * (rdma's own fopen() reader followed it.)
 */
static void test_root_confined(void **state)
{
	static const char *const dirs[] = { "out",
					    "out/mlx5_0",
					    "out/mlx5_0/ports",
					    "out/mlx5_0/ports/1",
					    "out/mlx5_0/ports/1/counters",
					    "root",
					    "root/class",
					    "root/class/infiniband" };
	char top[] = "/tmp/ibproof-test-port-XXXXXX", p[256], t[256];
	char names[8][DPATH_COUNTER_NAME_MAX];
	struct dpath_port bp = port_of("mlx5_0", 1, false);
	uint64_t v[8];
	int n;

	(void)state;
	assert_non_null(mkdtemp(top));
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		snprintf(p, sizeof(p), "%s/%s", top, dirs[i]);
		assert_int_equal(0, mkdir(p, 0755));
	}
	snprintf(p, sizeof(p), "%s/out/mlx5_0/ports/1/state", top);
	mkfile(p, "4: ACTIVE\n");
	snprintf(p, sizeof(p), "%s/out/mlx5_0/ports/1/counters/symbol_error",
		 top);
	mkfile(p, "3\n");
	snprintf(t, sizeof(t), "%s/out/mlx5_0", top);
	snprintf(p, sizeof(p), "%s/root/class/infiniband/mlx5_0", top);
	assert_int_equal(0, symlink(t, p));
	snprintf(p, sizeof(p), "%s/root", top);
	assert_int_equal(-ENOENT, dpath_port_sysfs_fill(p, &bp));
	assert_int_equal(-ENOENT, dpath_port_sysfs_counters(p, "mlx5_0", 1,
							    names, v, 8, &n));
	snprintf(p, sizeof(p), "rm -rf '%s'", top);
	assert_int_equal(0, system(p));
}

static int find(char (*names)[DPATH_COUNTER_NAME_MAX], int n, const char *name)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(names[i], name))
			return i;
	return -1;
}

static void test_counters(void **state)
{
	char names[64][DPATH_COUNTER_NAME_MAX];
	uint64_t v[64];
	int n, i;

	(void)state;
	assert_int_equal(0, dpath_port_sysfs_counters(ROOT("ib-node"), "mlx5_0",
						      1, names, v, 64, &n));
	assert_int_equal(7 + 4, n); /* VL15_dropped "N/A" skipped */
	assert_int_equal(-1, find(names, n, "VL15_dropped"));
	i = find(names, n, "port_xmit_data");
	assert_true(i >= 0 && v[i] == 123456789);
	i = find(names, n, "symbol_error");
	assert_true(i >= 0 && v[i] == 3);
	i = find(names, n, "link_downed");
	assert_true(i >= 0 && v[i] == 1);
	i = find(names, n, "hw_link_downed"); /* repeated in hw_counters */
	assert_true(i >= 0 && v[i] == 4);
	i = find(names, n, "out_of_buffer");
	assert_true(i >= 0 && v[i] == 17);
	/* rxe: only hw_counters/. */
	assert_int_equal(0, dpath_port_sysfs_counters(ROOT("rxe-node"), "rxe0",
						      1, names, v, 64, &n));
	assert_int_equal(5, n);
	i = find(names, n, "retry_exceeded_err");
	assert_true(i >= 0 && v[i] == 2);
	/* max is honoured. */
	assert_int_equal(0, dpath_port_sysfs_counters(ROOT("ib-node"), "mlx5_0",
						      1, names, v, 3, &n));
	assert_int_equal(3, n);
	assert_int_equal(-ENOENT,
			 dpath_port_sysfs_counters(ROOT("ib-node"), "mlx5_1", 1,
						   names, v, 64, &n));
}

static void test_counter_deltas(void **state)
{
	const char before_n[3][DPATH_COUNTER_NAME_MAX] = { "symbol_error",
							   "port_xmit_data",
							   "link_downed" };
	const uint64_t before[3] = { 10, 1000, 200 };
	const char after_n[4][DPATH_COUNTER_NAME_MAX] = {
		"port_xmit_data", "symbol_error", "link_downed", "new_one"
	};
	const uint64_t after[4] = { 5000, 10, 3, 7 };
	uint64_t d[4];

	(void)state;
	dpath_counters_delta(before_n, before, 3, after_n, after, 4, d);
	assert_true(d[0] == 4000);
	assert_true(d[1] == 0);
	assert_true(d[2] == 3); /* went down: reset in between */
	assert_true(d[3] == 7); /* not there before: from 0 */
}

static void test_filter_and_names(void **state)
{
	(void)state;
	assert_true(dpath_port_filter_match(NULL, "mlx5_0", 1));
	assert_true(dpath_port_filter_match("", "mlx5_0", 1));
	assert_true(dpath_port_filter_match("mlx5_1:1,mlx5_0:2", "mlx5_0", 2));
	assert_false(dpath_port_filter_match("mlx5_1:1,mlx5_0:2", "mlx5_0", 1));
	assert_true(dpath_port_filter_match("mlx5_0", "mlx5_0", 2));
	assert_false(dpath_port_filter_match("mlx5_0", "mlx5_01", 1));
	assert_false(dpath_port_filter_match("mlx5_01:1", "mlx5_0", 1));
	assert_false(dpath_port_filter_match("mlx5_0:1x", "mlx5_0", 1));
	assert_false(dpath_port_filter_match("mlx5_0:", "mlx5_0", 1));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_gid_parse),
		cmocka_unit_test(test_infiniband_port),
		cmocka_unit_test(test_roce_picks_ipv4_v2_gid),
		cmocka_unit_test(test_ipoib_netdev_by_gid),
		cmocka_unit_test(test_cm_addr),
		cmocka_unit_test(test_rxe_port),
		cmocka_unit_test(test_missing_port),
		cmocka_unit_test(test_root_confined),
		cmocka_unit_test(test_counters),
		cmocka_unit_test(test_counter_deltas),
		cmocka_unit_test(test_filter_and_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
