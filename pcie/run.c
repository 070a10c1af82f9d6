// SPDX-License-Identifier: MIT
/*
 * One audit of a node: scan, kernel log, links, AER, ACS, device records,
 * then the DMA loopback. Each stage adds findings, written as they come.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/cli.h"
#include "common/log.h"
#include "common/record.h"
#include "pcie/pcie.h"

#define PCIE_KMSG_TIMEOUT_S 2.0
#define PCIE_KMSG_MAX_LINES 200000

static bool is_live_root(const char *root)
{
	return strcmp(root, "/sys") == 0 || strcmp(root, "/sys/") == 0;
}

static void run_start(const struct pcie_options *o, struct pcie_records *out)
{
	json_t *rec = record_new("run");

	json_object_set_new(rec, "tool", json_string("pcie"));
	json_object_set_new(rec, "event", json_string("start"));
	json_object_set_new(rec, "params",
			    json_pack("{s:s, s:s?, s:s?, s:b, s:i}",
				      "sysfs_root", o->sysfs_root, "baseline",
				      o->baseline, "kernel_log", o->kernel_log,
				      "dma", !o->no_dma, "samples",
				      o->samples));
	pcie_records_emit(out, rec);
}

static void run_kmsg(const struct pcie_options *o, struct pcie_topo *t,
		     struct pcie_audit *a)
{
	const char *path = o->kernel_log;
	int found, ret;

	if (!path && !is_live_root(o->sysfs_root)) {
		json_array_append_new(
			a->notes,
			json_string(
				"kernel log: not read for a captured tree (give "
				"--kernel-log FILE with its saved dmesg)"));
		return;
	}
	if (!path)
		path = "/dev/kmsg";
	ret = pcie_kmsg_collect(path, t, PCIE_KMSG_TIMEOUT_S,
				PCIE_KMSG_MAX_LINES, &found);
	if (ret == -ETIMEDOUT)
		pcie_audit_skip(a,
				"kernel log %s: read only partly (%.0f s "
				"limit)",
				path, PCIE_KMSG_TIMEOUT_S);
	else if (ret)
		pcie_audit_skip(
			a, "kernel log %s: not readable (%s)%s", path,
			strerror(-ret),
			ret == -EPERM || ret == -EACCES
				? "; run as root or set kernel.dmesg_restrict=0"
				: "");
	else if (found)
		log_info("kernel log %s: %d \"limited by\" lines", path, found);
}

static void run_acs(const struct pcie_options *o, struct pcie_topo *t,
		    struct pcie_audit *a)
{
	struct pcie_config_ops ops = { 0 };

	if (o->config) {
		pcie_audit_acs(t, o->config, a);
		return;
	}
	if (!is_live_root(o->sysfs_root) || pcie_config_libpci_init(&ops))
		pcie_config_files_init(&ops, o->sysfs_root);
	pcie_audit_acs(t, &ops, a);
	if (ops.read_acs != NULL && strcmp(ops.name, "libpci") == 0)
		pcie_config_libpci_fini(&ops);
}

static void run_dma(const struct pcie_options *o, const struct pcie_topo *t,
		    struct pcie_audit *a, struct pcie_records *out)
{
	struct pcie_dma_port *ports;
	int n, ret;

	if (o->no_dma) {
		pcie_audit_skip(a, "dma: --no-dma given");
		return;
	}
	if (!o->dma && !is_live_root(o->sysfs_root)) {
		pcie_audit_skip(a,
				"dma: --sysfs-root %s is a captured tree; "
				"DMA is measured on the running system only",
				o->sysfs_root);
		return;
	}
	ret = pcie_dma_ports(t, o->ca, o->port, &ports, &n);
	if (ret || !n) {
		pcie_audit_skip(a, "dma: no ACTIVE RDMA port%s%s%s",
				o->ca ? " on " : "", o->ca ? o->ca : "",
				ret ? " (no class/infiniband)" : "");
		free(ports);
		return;
	}
	pcie_dma_run(t, o->dma ? o->dma : &pcie_dma_loopback_ops, ports, n,
		     o->samples, a, out);
	free(ports);
}

static int run_scan(const struct pcie_options *o, struct pcie_topo *t)
{
	int ret = pcie_topo_scan(o->sysfs_root, t);

	if (ret == -ENOENT && !is_live_root(o->sysfs_root)) {
		fprintf(stderr,
			"ibproof pcie: --sysfs-root %s: expected a "
			"directory standing for /sys (with "
			"bus/pci/devices)\n",
			o->sysfs_root);
		return IBP_EXIT_USAGE;
	}
	if (ret == -ELOOP) /* a malformed captured tree, logged */
		return IBP_EXIT_USAGE;
	return ret ? IBP_EXIT_RUNTIME : IBP_EXIT_PASS;
}

int pcie_run(const struct pcie_options *o, struct pcie_topo *t,
	     struct pcie_audit *a, struct pcie_records *out)
{
	struct pcie_baseline *base = NULL;
	int rc;

	if (o->baseline && !(base = pcie_baseline_load(o->baseline)))
		return IBP_EXIT_USAGE; /* said why: file:line or the path */
	run_start(o, out);
	rc = run_scan(o, t);
	if (rc != IBP_EXIT_PASS)
		goto free_base;
	run_kmsg(o, t, a);
	pcie_audit_links(t, a);
	pcie_audit_aer(t, base, a);
	run_acs(o, t, a);
	pcie_records_devices(out, t);
	pcie_records_findings(out, a);
	run_dma(o, t, a, out);
	pcie_records_findings(out, a);
	/* INCOMPLETE (a link not judged) is exit 1, as every tool's gap */
	rc = a->n_fail || pcie_audit_incomplete(a) ? IBP_EXIT_FAIL
	     : a->n_error			   ? IBP_EXIT_RUNTIME
						   : IBP_EXIT_PASS;
free_base:
	pcie_baseline_free(base);
	return rc;
}
