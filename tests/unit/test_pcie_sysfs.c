// SPDX-License-Identifier: MIT
/*
 * The pieces under ibproof pcie: attribute parsing, the extended capability
 * walk, kernel "limited by" lines and the bandwidth floors. The rooted sysfs
 * reader under it is tested in test_sysfs.c.
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
	uint8_t cfg[4096] = { 0 };

	(void)state;
	put32(cfg, 0x100, 0x0001 | 2u << 16 | 0x148u << 20); /* AER */
	put32(cfg, 0x148, 0x000d | 1u << 16 | 0x200u << 20); /* ACS */
	put32(cfg, 0x200, 0x000b | 1u << 16); /* VSEC, end */
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
	double odd[] = { 5, 1, 3 }, even[] = { 4, 1, 3, 2 };
	struct pcie_dma_sample_stats s;

	(void)state;
	pcie_dma_stats(odd, 3, &s);
	assert_true(s.median == 3 && s.min == 1 && s.max == 5);
	assert_true(odd[0] == 5); /* input left as it was */
	pcie_dma_stats(even, 4, &s);
	assert_true(s.median == 2.5 && s.min == 1 && s.max == 4);
}

/* A captured tree of PCI devices at the given paths (like mk.sh). */
static void make_tree(const char *root, const char *const *bdf_path, int n)
{
	char cmd[4096];
	int used;

	used = snprintf(cmd, sizeof(cmd),
			"rm -rf '%s' && mkdir -p '%s/bus/pci/devices'", root,
			root);
	for (int i = 0; i < n; i++) {
		const char *bdf = bdf_path[2 * i], *rel = bdf_path[2 * i + 1];

		used += snprintf(
			cmd + used, sizeof(cmd) - (size_t)used,
			" && d='%s/%s' && mkdir -p \"$d\""
			" && echo 0x15b3 > \"$d/vendor\""
			" && echo 0x060400 > \"$d/class\""
			" && ln -s '../../../%s' '%s/bus/pci/devices/%s'",
			root, rel, rel, root, bdf);
	}
	assert_true(used < (int)sizeof(cmd));
	assert_int_equal(system(cmd), 0);
}

/*
 * D2: a bridge whose folder above carries its own BDF (or two that lie
 * below each other) made every walk up the tree loop forever; the scan
 * refuses such a tree with -ELOOP (exit 2).
 */
static void test_d2_parent_cycle_is_refused(void **state)
{
	static const char *const self[] = {
		"0000:00:01.0", "devices/pci0000:00/0000:00:01.0/0000:00:01.0"
	};
	static const char *const cycle[] = {
		"0000:00:01.0", "devices/pci0000:00/0000:00:02.0/0000:00:01.0",
		"0000:00:02.0", "devices/pci0000:00/0000:00:01.0/0000:00:02.0"
	};
	static const char *const ok[] = {
		"0000:00:01.0", "devices/pci0000:00/0000:00:01.0",
		"0000:01:00.0", "devices/pci0000:00/0000:00:01.0/0000:01:00.0"
	};
	char root[] = "/tmp/ibproof-test-pcie-loop-XXXXXX", cmd[128];
	struct pcie_topo t;

	(void)state;
	assert_non_null(mkdtemp(root));
	alarm(20); /* a hang fails the test instead of stalling ctest */
	make_tree(root, self, 1);
	assert_int_equal(pcie_topo_scan(root, &t), -ELOOP);
	make_tree(root, cycle, 2);
	assert_int_equal(pcie_topo_scan(root, &t), -ELOOP);
	make_tree(root, ok, 2);
	assert_int_equal(pcie_topo_scan(root, &t), 0);
	assert_int_equal(t.n, 2);
	assert_int_equal(t.devs[1].parent, 0);
	assert_int_equal(pcie_topo_common_ancestor(&t, 1, 1), 0);
	pcie_topo_free(&t);
	alarm(0);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	assert_int_equal(system(cmd), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_gts),
		cmocka_unit_test(test_ext_cap_walk),
		cmocka_unit_test(test_acs_names),
		cmocka_unit_test(test_kmsg_lines),
		cmocka_unit_test(test_floors),
		cmocka_unit_test(test_stats),
		cmocka_unit_test(test_d2_parent_cycle_is_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
