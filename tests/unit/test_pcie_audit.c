// SPDX-License-Identifier: MIT
/*
 * ibproof pcie on the fixture trees that tests/fixtures/sysfs/gen-sysfs.py
 * writes into the build tree (the CTest fixture sysfs_trees; an 8-GPU,
 * 8-HCA node with four PCIe switches): each scenario changes one thing
 * and must produce exactly its finding.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "common/cli.h"
#include "common/record.h"
#include "pcie/pcie.h"

struct run {
	struct pcie_topo topo;
	struct pcie_audit a;
	int rc;
};

static void run_tree(struct run *r, const char *tree, const char *baseline,
		     const char *kernel_log)
{
	char root[512], base[512], klog[1024];
	struct pcie_options o = { .samples = 12, .no_dma = true };

	snprintf(root, sizeof(root), "%s/sysfs/%s", GEN_FIXTURES_DIR, tree);
	o.sysfs_root = root;
	if (baseline) {
		snprintf(base, sizeof(base), "%s%s%s",
			 baseline[0] == '/' ? "" : GEN_FIXTURES_DIR,
			 baseline[0] == '/' ? "" : "/sysfs/", baseline);
		o.baseline = base;
	}
	if (kernel_log) {
		snprintf(klog, sizeof(klog), "%s/%s", root, kernel_log);
		o.kernel_log = klog;
	}
	memset(r, 0, sizeof(*r));
	assert_int_equal(pcie_audit_init(&r->a), 0);
	r->rc = pcie_run(&o, &r->topo, &r->a, NULL);
}

static void run_free(struct run *r)
{
	pcie_topo_free(&r->topo);
	pcie_audit_free(&r->a);
}

static json_t *finding(const struct run *r, size_t i)
{
	return json_array_get(r->a.findings, i);
}

static const char *fstr(json_t *f, const char *key)
{
	return json_string_value(json_object_get(f, key));
}

static const char *subject_bdf(json_t *f)
{
	return json_string_value(
		json_object_get(json_object_get(f, "subject"), "bdf"));
}

static double evidence_num(json_t *f, const char *key)
{
	return json_number_value(
		json_object_get(json_object_get(f, "evidence"), key));
}

static bool any_string_has(json_t *arr, const char *needle)
{
	size_t i;
	json_t *v;

	json_array_foreach(arr, i, v) if (strstr(json_string_value(v),
						 needle)) return true;
	return false;
}

static int count_role(const struct pcie_topo *t, enum pcie_role role)
{
	int n = 0;

	for (int i = 0; i < t->n; i++)
		n += t->devs[i].relevant && t->devs[i].role == role;
	return n;
}

static void test_clean_node(void **state)
{
	struct run r;
	int i;

	(void)state;
	run_tree(&r, "clean", NULL, NULL);
	assert_int_equal(r.rc, IBP_EXIT_PASS);
	assert_int_equal(json_array_size(r.a.findings), 0);
	assert_int_equal(count_role(&r.topo, PCIE_ROLE_HCA), 8);
	assert_int_equal(count_role(&r.topo, PCIE_ROLE_GPU), 8);
	assert_int_equal(count_role(&r.topo, PCIE_ROLE_NVME), 2);
	/* the BMC's VGA has no PCIe link: not a GPU */
	i = pcie_topo_find(&r.topo, "0000:03:00.0");
	assert_true(i >= 0);
	assert_int_equal(r.topo.devs[i].role, PCIE_ROLE_OTHER);
	/* HCA names come from class/infiniband/NAME/device */
	i = pcie_topo_find(&r.topo, "0000:bf:00.0");
	assert_string_equal(r.topo.devs[i].ibdev, "mlx5_6");
	assert_int_equal(r.topo.devs[i].numa_node, 1);
	assert_int_equal(r.topo.devs[i].depth, 3);
	run_free(&r);
}

static void test_locality(void **state)
{
	struct run r;
	json_t *rec, *sw;
	int h;

	(void)state;
	run_tree(&r, "clean", NULL, NULL);
	h = pcie_topo_find(&r.topo, "0000:1a:00.0"); /* mlx5_0 */
	rec = pcie_device_record(&r.topo, h);
	sw = json_object_get(rec, "gpus_same_switch");
	assert_int_equal(json_array_size(sw), 2);
	assert_string_equal(json_string_value(json_array_get(sw, 0)),
			    "0000:18:00.0");
	assert_string_equal(json_string_value(json_array_get(sw, 1)),
			    "0000:19:00.0");
	assert_int_equal(
		json_array_size(json_object_get(rec, "gpus_same_numa_node")),
		4);
	assert_int_equal(
		json_array_size(json_object_get(rec, "nvme_same_switch")), 1);
	/* GPUs of another switch on the same root complex: not "same switch" */
	assert_false(pcie_topo_same_switch(
		&r.topo, h, pcie_topo_find(&r.topo, "0000:3a:00.0")));
	json_decref(rec);
	run_free(&r);
}

static void test_half_width(void **state)
{
	struct run r;
	json_t *f;

	(void)state;
	run_tree(&r, "half-width", NULL, "dmesg.txt");
	assert_int_equal(r.rc, IBP_EXIT_FAIL);
	assert_int_equal(json_array_size(r.a.findings), 1);
	f = finding(&r, 0);
	assert_string_equal(fstr(f, "category"), "pcie-degraded-width");
	assert_string_equal(fstr(f, "severity"), "fail");
	assert_string_equal(subject_bdf(f), "0000:3d:00.0");
	assert_string_equal(json_string_value(json_object_get(
				    json_object_get(f, "subject"), "what")),
			    "mlx5_3, HCA");
	assert_true(evidence_num(f, "current_width") == 8);
	assert_true(evidence_num(f, "capable_width") == 16);
	assert_non_null(
		strstr(fstr(f, "message"), "0000:39:03.0 -> 0000:3d:00.0"));
	/* the kernel's own line is attached as evidence */
	assert_true(
		any_string_has(json_object_get(json_object_get(f, "evidence"),
					       "kernel_limited"),
			       "limited by 32.0 GT/s PCIe x8"));
	run_free(&r);
}

static void test_gen1_hop(void **state)
{
	struct run r;
	json_t *f;

	(void)state;
	run_tree(&r, "gen1-uplink", NULL, NULL);
	assert_int_equal(r.rc, IBP_EXIT_FAIL);
	assert_int_equal(json_array_size(r.a.findings), 1);
	f = finding(&r, 0);
	assert_string_equal(fstr(f, "category"), "pcie-degraded-speed");
	assert_string_equal(fstr(f, "severity"), "fail");
	assert_string_equal(subject_bdf(f), "0000:9b:00.0");
	assert_true(evidence_num(f, "current_speed_GTps") == 2.5);
	assert_true(evidence_num(f, "capable_speed_GTps") == 32.0);
	assert_non_null(strstr(fstr(f, "message"), "2.5 GT/s"));
	run_free(&r);
}

static void test_gen5_hca_in_gen4_slot(void **state)
{
	struct pcie_hop h;
	struct run r;
	int i;

	(void)state;
	run_tree(&r, "gen5-hca-in-gen4-slot", NULL, NULL);
	assert_int_equal(r.rc, IBP_EXIT_PASS);
	assert_int_equal(json_array_size(r.a.findings), 0);
	i = pcie_topo_find(&r.topo, "0000:bf:00.0");
	/* a naive check (current < the device's max) would flag this hop */
	assert_true(r.topo.devs[i].link.max_gts == 32.0);
	assert_true(r.topo.devs[i].link.cur_gts == 16.0);
	assert_true(pcie_hop_of(&r.topo, i, &h));
	assert_true(h.judged);
	assert_true(h.cap_gts == 16.0);
	run_free(&r);
}

static void test_idle_gpu_warns_only(void **state)
{
	struct run r;
	json_t *f;

	(void)state;
	run_tree(&r, "idle-gpu", NULL, NULL);
	assert_int_equal(r.rc, IBP_EXIT_PASS);
	assert_int_equal(json_array_size(r.a.findings), 1);
	f = finding(&r, 0);
	assert_string_equal(fstr(f, "category"), "pcie-degraded-speed");
	assert_string_equal(fstr(f, "severity"), "warn");
	assert_string_equal(subject_bdf(f), "0000:18:00.0");
	assert_non_null(
		json_object_get(json_object_get(f, "evidence"), "note"));
	assert_int_equal(r.a.n_fail, 0);
	run_free(&r);
}

static json_t *finding_for(const struct run *r, const char *bdf)
{
	size_t i;
	json_t *f;

	json_array_foreach(r->a.findings, i,
			   f) if (strcmp(subject_bdf(f), bdf) == 0) return f;
	return NULL;
}

static void test_aer_since_boot(void **state)
{
	struct run r;

	(void)state;
	run_tree(&r, "aer", NULL, NULL);
	assert_int_equal(r.rc, IBP_EXIT_FAIL);
	assert_int_equal(json_array_size(r.a.findings), 4);
	assert_int_equal(r.a.n_fail, 2);
	assert_int_equal(r.a.n_warn, 2);
	assert_true(evidence_num(finding_for(&r, "0000:3c:00.0"),
				 "correctable") == 17);
	assert_string_equal(fstr(finding_for(&r, "0000:c0:00.0"), "severity"),
			    "fail");
	run_free(&r);
}

static void test_aer_deltas_against_baseline(void **state)
{
	struct run r;
	json_t *f;

	(void)state;
	run_tree(&r, "aer", "aer-baseline.jsonl", NULL);
	assert_int_equal(r.rc, IBP_EXIT_FAIL);
	assert_int_equal(json_array_size(r.a.findings), 3);
	/* mlx5_2: 17 then, 17 now: nothing new */
	assert_null(finding_for(&r, "0000:3c:00.0"));
	f = finding_for(&r, "0000:3a:00.0");
	assert_true(evidence_num(f, "nonfatal") == 2);
	assert_string_equal(fstr(f, "severity"), "fail");
	f = finding_for(&r, "0000:39:02.0");
	assert_true(evidence_num(f, "correctable") == 3);
	assert_string_equal(fstr(f, "severity"), "warn");
	f = finding_for(&r, "0000:c0:00.0"); /* not in the baseline */
	assert_string_equal(json_string_value(json_object_get(
				    json_object_get(f, "evidence"), "since")),
			    "boot");
	run_free(&r);
}

static void test_acs_between_gpu_and_hca(void **state)
{
	struct run r;
	size_t i;
	json_t *f;

	(void)state;
	run_tree(&r, "acs", NULL, NULL);
	assert_int_equal(r.rc, IBP_EXIT_FAIL);
	assert_int_equal(json_array_size(r.a.findings), 4);
	json_array_foreach(r.a.findings, i, f)
	{
		assert_string_equal(fstr(f, "category"), "pcie-acs-p2p");
		assert_non_null(strstr(subject_bdf(f), "0000:39:0"));
		assert_true(evidence_num(f, "acs_ctrl") == 0x1d);
	}
	/* ACS on the NVMe's port is not between a GPU and an HCA */
	assert_null(finding_for(&r, "0000:9c:04.0"));
	run_free(&r);
}

static void test_unreadable_and_missing(void **state)
{
	struct run r;
	int i;

	(void)state;
	run_tree(&r, "broken", NULL, NULL);
	assert_int_equal(r.rc, IBP_EXIT_PASS);
	assert_int_equal(json_array_size(r.a.findings), 0);
	i = pcie_topo_find(&r.topo, "0000:19:00.0");
	assert_true(i >= 0);
	assert_string_equal(r.topo.devs[i].problem, "class: Is a directory");
	/* a dangling link and one aiming above the root are left out */
	assert_int_equal(pcie_topo_find(&r.topo, "0000:ff:00.0"), -1);
	assert_int_equal(pcie_topo_find(&r.topo, "0000:fe:00.0"), -1);
	assert_true(any_string_has(r.a.skipped, "acs: 1 of"));
	assert_true(any_string_has(r.a.skipped, "run as root"));
	assert_true(any_string_has(r.a.notes, "0000:1b:00.0: some link"));
	i = pcie_topo_find(&r.topo, "0000:1a:00.0");
	assert_false(r.topo.devs[i].aer[PCIE_AER_COR].present);
	assert_true(r.topo.devs[i].aer[PCIE_AER_FATAL].present);
	run_free(&r);
}

static void test_qemu_q35_tree(void **state)
{
	struct pcie_hop h;
	struct run r;

	(void)state;
	run_tree(&r, "qemu-q35", NULL, NULL);
	assert_int_equal(r.rc, IBP_EXIT_PASS);
	assert_int_equal(json_array_size(r.a.findings), 0);
	/* root port x-speed=16,x-width=16, endpoint 2.5 GT/s x1 */
	assert_true(pcie_hop_of(&r.topo,
				pcie_topo_find(&r.topo, "0000:01:00.0"), &h));
	assert_true(h.judged && h.cap_gts == 2.5 && h.cap_width == 1);
	/* behind the xio3130 port that says Unknown / width 0 */
	assert_true(pcie_hop_of(&r.topo,
				pcie_topo_find(&r.topo, "0000:04:00.0"), &h));
	assert_true(h.judged && h.cap_gts == 2.5 && h.cap_width == 1);
	run_free(&r);
}

static void test_bad_root_and_baseline(void **state)
{
	char path[] = "/tmp/ibproof-test-pcie-XXXXXX";
	struct run r;
	FILE *f;
	int fd;

	(void)state;
	run_tree(&r, "no-such-tree", NULL, NULL);
	assert_int_equal(r.rc, IBP_EXIT_USAGE);
	run_free(&r);
	fd = mkstemp(path);
	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	fputs("{\"schema\":\"ibproof/1\",\"kind\":\"pcie\"}\n", f);
	fclose(f);
	run_tree(&r, "clean", path, NULL); /* a record without time, host */
	assert_int_equal(r.rc, IBP_EXIT_USAGE);
	run_free(&r);
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_clean_node),
		cmocka_unit_test(test_locality),
		cmocka_unit_test(test_half_width),
		cmocka_unit_test(test_gen1_hop),
		cmocka_unit_test(test_gen5_hca_in_gen4_slot),
		cmocka_unit_test(test_idle_gpu_warns_only),
		cmocka_unit_test(test_aer_since_boot),
		cmocka_unit_test(test_aer_deltas_against_baseline),
		cmocka_unit_test(test_acs_between_gpu_and_hca),
		cmocka_unit_test(test_unreadable_and_missing),
		cmocka_unit_test(test_qemu_q35_tree),
		cmocka_unit_test(test_bad_root_and_baseline),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
