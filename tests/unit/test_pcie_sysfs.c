// SPDX-License-Identifier: MIT
/*
 * The pieces under ibproof pcie: the rooted sysfs reader (links resolved
 * inside the root, loops caught), attribute parsing, the extended
 * capability walk, kernel "limited by" lines and the bandwidth floors.
 */
#include <setjmp.h>
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "pcie/pcie.h"

static char root[64];

static void put(const char *rel, const char *text)
{
	char p[256];
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", root, rel);
	f = fopen(p, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void dir(const char *rel)
{
	char p[256];

	snprintf(p, sizeof(p), "%s/%s", root, rel);
	assert_int_equal(mkdir(p, 0755), 0);
}

static void lnk(const char *target, const char *rel)
{
	char p[256];

	snprintf(p, sizeof(p), "%s/%s", root, rel);
	assert_int_equal(symlink(target, p), 0);
}

static int setup_root(void **state)
{
	(void)state;
	snprintf(root, sizeof(root), "/tmp/ibproof-test-sysfs-XXXXXX");
	assert_non_null(mkdtemp(root));
	dir("devices");
	dir("devices/pci0000:00");
	dir("devices/pci0000:00/0000:00:01.0");
	put("devices/pci0000:00/0000:00:01.0/vendor", "0x15b3\n");
	dir("etc");
	put("etc/secret", "inside the root\n");
	dir("bus");
	lnk("../devices/pci0000:00/0000:00:01.0", "bus/dev");
	lnk("../../../../../../../../etc", "bus/up");
	lnk("/sys/devices/pci0000:00", "bus/abs");
	lnk("loop2", "bus/loop1");
	lnk("loop1", "bus/loop2");
	return 0;
}

static int teardown_root(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	return system(cmd) == 0 ? 0 : -1;
}

static void test_resolve(void **state)
{
	char out[256], buf[64];

	(void)state;
	assert_int_equal(
	    pcie_sysfs_resolve(root, "bus/dev/vendor", out, sizeof(out)), 0);
	assert_string_equal(out, "devices/pci0000:00/0000:00:01.0/vendor");
	assert_int_equal(
	    pcie_sysfs_read(root, "bus/dev/vendor", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "0x15b3");
	/* ".." above the root stays at the root: this is root's etc */
	assert_int_equal(
	    pcie_sysfs_resolve(root, "bus/up/secret", out, sizeof(out)), 0);
	assert_string_equal(out, "etc/secret");
	assert_int_equal(
	    pcie_sysfs_resolve(root, "../../../etc/secret", out, sizeof(out)),
	    0);
	assert_string_equal(out, "etc/secret");
	/* absolute "/sys/..." targets mean the root's */
	assert_int_equal(
	    pcie_sysfs_resolve(root, "bus/abs/0000:00:01.0", out, sizeof(out)),
	    0);
	assert_string_equal(out, "devices/pci0000:00/0000:00:01.0");
	assert_int_equal(
	    pcie_sysfs_resolve(root, "bus/loop1/x", out, sizeof(out)), -ELOOP);
	assert_int_equal(
	    pcie_sysfs_read(root, "bus/dev/nothing", buf, sizeof(buf)),
	    -ENOENT);
	assert_int_equal(pcie_sysfs_read(root, "bus/dev", buf, sizeof(buf)),
			 -EISDIR);
}

static int collect_port(void *ctx, const char *ca, int port)
{
	char *buf = ctx;
	size_t len = strlen(buf);

	snprintf(buf + len, 256 - len, "%s:%d ", ca, port);
	return 0;
}

static int stop_at_first(void *ctx, const char *ca, int port)
{
	(void)ctx;
	(void)ca;
	(void)port;
	return -EINTR;
}

/* One walk of class/infiniband for node and pcie: order, filter, errors. */
static void test_ib_ports(void **state)
{
	const char *tree = GEN_FIXTURES_DIR "/sysfs-node/healthy";
	char buf[256] = "";

	(void)state;
	assert_int_equal(0, pcie_sysfs_ib_ports(tree, NULL, collect_port, buf));
	assert_string_equal("mlx5_0:1 mlx5_1:1 ", buf);
	buf[0] = '\0';
	assert_int_equal(0, pcie_sysfs_ib_ports(tree, "mlx5_1", collect_port, buf));
	assert_string_equal("mlx5_1:1 ", buf);
	assert_int_equal(-EINTR, pcie_sysfs_ib_ports(tree, NULL, stop_at_first, NULL));
	assert_int_equal(-ENOENT, pcie_sysfs_ib_ports("/nonexistent", NULL,
						      collect_port, buf));
}

static void test_parse_gts(void **state)
{
	(void)state;
	assert_true(pcie_parse_gts("16.0 GT/s PCIe") == 16.0);
	assert_true(pcie_parse_gts("2.5 GT/s") == 2.5);
	assert_true(pcie_parse_gts("8 GT/s") == 8.0);
	assert_true(pcie_parse_gts("Unknown") == 0);
	assert_true(pcie_parse_gts("Unknown speed") == 0);
	assert_true(pcie_parse_gts("") == 0);
}

static void put32(uint8_t *cfg, int pos, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		cfg[pos + i] = (uint8_t)(v >> (8 * i));
}

static void test_ext_cap_walk(void **state)
{
	uint8_t cfg[4096] = {0};

	(void)state;
	put32(cfg, 0x100, 0x0001 | 2u << 16 | 0x148u << 20); /* AER */
	put32(cfg, 0x148, 0x000d | 1u << 16 | 0x200u << 20); /* ACS */
	put32(cfg, 0x200, 0x000b | 1u << 16);		     /* VSEC, end */
	assert_int_equal(pcie_config_find_ext_cap(cfg, sizeof(cfg), 0x0d),
			 0x148);
	assert_int_equal(pcie_config_find_ext_cap(cfg, sizeof(cfg), 0x10),
			 -ENOENT);
	/* 64 bytes, as a user reads it: nothing */
	assert_int_equal(pcie_config_find_ext_cap(cfg, 64, 0x0d), -ENOENT);
	/* a list that points at itself ends */
	put32(cfg, 0x200, 0x000b | 1u << 16 | 0x200u << 20);
	assert_int_equal(pcie_config_find_ext_cap(cfg, sizeof(cfg), 0x10),
			 -ENOENT);
}

static void test_acs_names(void **state)
{
	char buf[96];

	(void)state;
	assert_string_equal(pcie_acs_names(0x001d, buf, sizeof(buf)),
			    "SrcValid+ ReqRedir+ CmpltRedir+ UpstreamFwd+");
	assert_string_equal(pcie_acs_names(0, buf, sizeof(buf)), "none");
	assert_true((0x001d & PCIE_ACS_P2P_BREAKING) != 0);
	assert_true((0x0001 & PCIE_ACS_P2P_BREAKING) == 0);
}

static void test_kmsg_lines(void **state)
{
	char bdf[PCIE_BDF_LEN];

	(void)state;
	assert_true(pcie_kmsg_parse(
	    "mlx5_core 0000:c1:00.0: 31.504 Gb/s available PCIe bandwidth, "
	    "limited by 8.0 GT/s PCIe x4 link at 0000:c0:01.1 (capable of "
	    "63.012 Gb/s with 8.0 GT/s PCIe x8 link)",
	    bdf));
	assert_string_equal(bdf, "0000:c1:00.0");
	assert_false(
	    pcie_kmsg_parse("mlx5_core 0000:c1:00.0: firmware 28.1", bdf));
	assert_false(pcie_kmsg_parse("limited by PCIe with no device", bdf));
}

static void test_floors(void **state)
{
	(void)state;
	/* Gen4 x16: 16 GT/s * 16 lanes * 128/130 / 8 = 31.51 GB/s */
	assert_float_equal(pcie_usable_GBps(16.0, 16), 31.5077, 1e-3);
	assert_float_equal(pcie_usable_GBps(32.0, 16), 63.0154, 1e-3);
	assert_float_equal(pcie_usable_GBps(2.5, 1), 0.25, 1e-9);
	assert_float_equal(pcie_usable_GBps(5.0, 8), 4.0, 1e-9);
	assert_float_equal(pcie_dma_floor_GBps(16.0, 16), 25.2062, 1e-3);
	assert_float_equal(pcie_usable_GBps(0, 16), 0, 0);
}

static void test_stats(void **state)
{
	double odd[] = {5, 1, 3}, even[] = {4, 1, 3, 2};
	struct pcie_dma_sample_stats s;

	(void)state;
	pcie_dma_stats(odd, 3, &s);
	assert_true(s.median == 3 && s.min == 1 && s.max == 5);
	assert_true(odd[0] == 5); /* input left as it was */
	pcie_dma_stats(even, 4, &s);
	assert_true(s.median == 2.5 && s.min == 1 && s.max == 4);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ib_ports),
	    cmocka_unit_test_setup_teardown(test_resolve, setup_root,
					    teardown_root),
	    cmocka_unit_test(test_parse_gts),
	    cmocka_unit_test(test_ext_cap_walk),
	    cmocka_unit_test(test_acs_names),
	    cmocka_unit_test(test_kmsg_lines),
	    cmocka_unit_test(test_floors),
	    cmocka_unit_test(test_stats),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
