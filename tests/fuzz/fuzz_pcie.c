// SPDX-License-Identifier: MIT
/*
 * Fuzz target: `pcie --sysfs-root` over a captured tree (pcie/topo.c,
 * sysfs.c, audit.c, acs.c, config.c, dma_ports.c, report.c). Each input
 * describes a small tree (fuzz_tree.h: files, folders, symbolic links,
 * FIFOs), built under /dev/shm and removed after the run. Oracles: the
 * audit ends with an exit code it documents; the model is sound (parents
 * are other devices, every walk up ends, common ancestors are devices);
 * every relevant device's record names its bdf as text (D24); the
 * findings serialise to JSON; the DMA ports name devices of the model.
 */
#include "common/cli.h"
#include "common/log.h"
#include "common/text.h"
#include "pcie/pcie.h"
#include "fuzz.h"
#include "fuzz_tree.h"

static void fail(const char *what, int i)
{
	fprintf(stderr, "oracle: device %d: %s\n", i, what);
	abort();
}

static void check_dev(const struct pcie_topo *t, int i)
{
	const struct pcie_dev *d = &t->devs[i];
	int up = i, steps = 0;
	json_t *rec;

	if (d->parent < -1 || d->parent >= t->n || d->parent == i)
		fail("parent out of the model", i);
	while (up >= 0 && steps++ <= t->n)
		up = t->devs[up].parent;
	if (up >= 0)
		fail("walk up does not end", i);
	if (!text_is_utf8(d->ibdev, strlen(d->ibdev)))
		fail("ibdev is not text", i);
	if (!d->relevant)
		return;
	rec = pcie_device_record(t, i);
	if (!rec || !json_is_string(json_object_get(rec, "bdf")))
		fail("record without bdf (D24)", i);
	json_decref(rec);
}

static void check_model(const struct pcie_topo *t)
{
	struct pcie_dma_port *ports = NULL;
	double gts;
	int width, n = 0;

	for (int i = 0; i < t->n; i++) {
		check_dev(t, i);
		pcie_path_capability(t, i, &gts, &width);
		for (int j = 0; j < t->n && j < 16; j++) {
			int a = pcie_topo_common_ancestor(t, i, j);

			if (a < -1 || a >= t->n)
				fail("common ancestor out of the model", i);
			pcie_topo_same_switch(t, i, j);
		}
	}
	if (!pcie_dma_ports(t, NULL, 0, &ports, &n))
		for (int k = 0; k < n; k++)
			if (ports[k].dev < -1 || ports[k].dev >= t->n ||
			    !text_is_utf8(ports[k].ca_text,
					  strlen(ports[k].ca_text)))
				fail("DMA port out of the model", ports[k].dev);
	free(ports);
}

static void check_audit(const struct pcie_audit *a)
{
	char *s = json_dumps(a->findings, JSON_COMPACT);

	if (!s)
		fail("findings do not serialise", -1);
	free(s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static FILE *quiet;
	const char *root = fuzz_tree_build(data, size);
	struct pcie_options o = {
		.sysfs_root = root, .no_dma = true, .samples = 1, .timeout_s = 2
	};
	struct pcie_topo t = { 0 };
	struct pcie_audit a;
	FILE *saved = stderr;
	int rc;

	if (!quiet && !(quiet = fopen("/dev/null", "w")))
		abort();
	o.kernel_log = fuzz_tree_file(root, "kmsg");
	if (pcie_audit_init(&a))
		abort();
	stderr = quiet; /* the audit's log; sanitizer reports go to fd 2 */
	rc = pcie_run(&o, &t, &a, NULL);
	stderr = saved;
	if (rc != IBP_EXIT_PASS && rc != IBP_EXIT_FAIL &&
	    rc != IBP_EXIT_USAGE && rc != IBP_EXIT_RUNTIME)
		fail("exit code not documented", rc);
	if (rc == IBP_EXIT_PASS || rc == IBP_EXIT_FAIL) {
		check_model(&t);
		check_audit(&a);
	}
	pcie_topo_free(&t);
	pcie_audit_free(&a);
	fuzz_tree_clean(root);
	return 0;
}
