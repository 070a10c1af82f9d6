// SPDX-License-Identifier: MIT
/*
 * The DMA part of ibproof pcie behind its ops table: ports found through
 * class/infiniband, floors from the narrowest hop and the port rate, the
 * judgement of K samples, and a failing measurement reported as skipped.
 * (The real loopback runs in the vm tier.)
 */
#include <setjmp.h>
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "common/cli.h"
#include "pcie/pcie.h"

static double fake_GBps = 45.0;
static const char *slow_ca; /* this one measures 20 GB/s */
static int calls, last_samples;

static int fake_measure(const char *ca, int port, enum pcie_dma_test test,
			int samples, double *GBps, char *err, size_t errlen)
{
	(void)port;
	(void)test;
	calls++;
	last_samples = samples;
	if (fake_GBps < 0) {
		snprintf(err, errlen, "%s: ibv_reg_mr failed", ca);
		return -ENOMEM;
	}
	for (int k = 0; k < samples; k++)
		GBps[k] = (slow_ca && !strcmp(ca, slow_ca) ? 20.0 : fake_GBps) +
			  0.01 * k;
	return 0;
}

static const struct pcie_dma_ops fake_ops = { "fake", fake_measure };

static int run_dma(const char *tree, struct pcie_audit *a, int samples)
{
	char root[512];
	struct pcie_options o = { .samples = samples, .dma = &fake_ops };
	struct pcie_topo t;
	int rc;

	snprintf(root, sizeof(root), "%s/sysfs/%s", GEN_FIXTURES_DIR, tree);
	o.sysfs_root = root;
	calls = 0;
	assert_int_equal(pcie_audit_init(a), 0);
	rc = pcie_run(&o, &t, a, NULL);
	pcie_topo_free(&t);
	return rc;
}

static void test_ports_and_floors(void **state)
{
	char root[512];
	struct pcie_dma_port *p;
	struct pcie_topo t;
	int n;

	(void)state;
	snprintf(root, sizeof(root), "%s/sysfs/clean", GEN_FIXTURES_DIR);
	assert_int_equal(pcie_topo_scan(root, &t), 0);
	assert_int_equal(pcie_dma_ports(&t, NULL, 0, &p, &n), 0);
	assert_int_equal(n, 8);
	assert_string_equal(p[0].ca, "mlx5_0");
	assert_string_equal(t.devs[p[0].dev].bdf, "0000:1a:00.0");
	/* Gen5 x16 is 63.0 GB/s usable, but a 400 Gb/s port moves 50 GB/s */
	assert_float_equal(p[0].floor_GBps, 40.0, 1e-9);
	assert_non_null(strstr(p[0].floor_why, "capped by the port"));
	free(p);
	assert_int_equal(pcie_dma_ports(&t, "mlx5_3", 0, &p, &n), 0);
	assert_int_equal(n, 1);
	free(p);
	pcie_topo_free(&t);
}

static void test_gen4_slot_floor(void **state)
{
	char root[512];
	struct pcie_dma_port *p;
	struct pcie_topo t;
	int n;

	(void)state;
	snprintf(root, sizeof(root), "%s/sysfs/gen5-hca-in-gen4-slot",
		 GEN_FIXTURES_DIR);
	assert_int_equal(pcie_topo_scan(root, &t), 0);
	assert_int_equal(pcie_dma_ports(&t, "mlx5_6", 0, &p, &n), 0);
	assert_int_equal(n, 1);
	/* 80% of Gen4 x16 (31.51 GB/s), below the port's 50 GB/s */
	assert_float_equal(p[0].floor_GBps, 25.2062, 1e-3);
	free(p);
	pcie_topo_free(&t);
}

static void test_all_ports_fast(void **state)
{
	struct pcie_audit a;

	(void)state;
	fake_GBps = 45.0;
	slow_ca = NULL;
	assert_int_equal(run_dma("clean", &a, 12), IBP_EXIT_PASS);
	assert_int_equal(calls, 16); /* 8 ports x (write, read) */
	assert_int_equal(last_samples, 12);
	assert_int_equal(json_array_size(a.findings), 0);
	pcie_audit_free(&a);
}

static void test_one_port_slow(void **state)
{
	struct pcie_audit a;
	json_t *f;
	size_t i;

	(void)state;
	fake_GBps = 45.0;
	slow_ca = "mlx5_3";
	assert_int_equal(run_dma("clean", &a, 5), IBP_EXIT_FAIL);
	assert_int_equal(json_array_size(a.findings), 2);
	json_array_foreach(a.findings, i, f)
	{
		json_t *ev = json_object_get(f, "evidence");

		assert_string_equal(
			json_string_value(json_object_get(f, "category")),
			"pcie-low-dma-bandwidth");
		assert_string_equal(
			json_string_value(json_object_get(
				json_object_get(f, "subject"), "bdf")),
			"0000:3d:00.0");
		assert_float_equal(
			json_real_value(json_object_get(ev, "median_GBps")),
			20.02, 1e-9);
		assert_int_equal(
			json_integer_value(json_object_get(ev, "samples")), 5);
	}
	pcie_audit_free(&a);
	slow_ca = NULL;
}

static void test_measure_fails(void **state)
{
	struct pcie_audit a;
	json_t *s;

	(void)state;
	fake_GBps = -1;
	assert_int_equal(run_dma("clean", &a, 12), IBP_EXIT_RUNTIME);
	assert_int_equal(json_array_size(a.findings), 0);
	assert_int_equal(json_array_size(a.skipped), 16);
	s = json_array_get(a.skipped, 0);
	assert_non_null(strstr(json_string_value(s), "ibv_reg_mr failed"));
	pcie_audit_free(&a);
	fake_GBps = 45.0;
}

/*
 * D25: a port with no PCI device (software RDMA: dev -1) made judge_dma()
 * compute &t->devs[-1], an offset from NULL when the tree has no devices
 * (UBSan); with a floor set it was read as well. Such a port is not judged.
 */
static void test_d25_port_without_pci_device_not_judged(void **state)
{
	struct pcie_topo t = { 0 }; /* no devices: t.devs is NULL */
	struct pcie_dma_port p[2] = { { .ca = "rxe0",
					.ca_text = "rxe0",
					.port = 1,
					.dev = -1,
					.floor_why = "not judged" },
				      { .ca = "rxe1",
					.ca_text = "rxe1",
					.port = 1,
					.dev = -1,
					.floor_GBps = 40.0 } };
	struct pcie_audit a;

	(void)state;
	fake_GBps = 20.0; /* under the second port's floor */
	slow_ca = NULL;
	calls = 0;
	assert_int_equal(pcie_audit_init(&a), 0);
	pcie_dma_run(&t, &fake_ops, p, 2, 3, &a, NULL);
	assert_int_equal(calls, 4); /* measured all the same */
	assert_int_equal(json_array_size(a.findings), 0);
	assert_int_equal(json_array_size(a.skipped), 0);
	pcie_audit_free(&a);
	fake_GBps = 45.0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ports_and_floors),
		cmocka_unit_test(test_gen4_slot_floor),
		cmocka_unit_test(test_all_ports_fast),
		cmocka_unit_test(test_one_port_slow),
		cmocka_unit_test(test_measure_fails),
		cmocka_unit_test(test_d25_port_without_pci_device_not_judged),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
