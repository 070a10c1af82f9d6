// SPDX-License-Identifier: MIT
/* ibproof pcie: options, then pcie_run(), then the reporters. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "common/cli.h"
#include "common/log.h"
#include "common/subcommands.h"
#include "pcie/pcie.h"

enum pcie_key {
	PCIE_KEY_SYSFS_ROOT = CLI_KEY_COMMAND_FIRST,
	PCIE_KEY_BASELINE,
	PCIE_KEY_KERNEL_LOG,
	PCIE_KEY_NO_DMA,
	PCIE_KEY_SAMPLES,
};

static const struct cli_opt pcie_opts[] = {
	{ "sysfs-root", PCIE_KEY_SYSFS_ROOT, "DIR",
	  "audit DIR as /sys (a captured tree; default /sys)" },
	{ "baseline", PCIE_KEY_BASELINE, "FILE",
	  "records of a previous run: report AER errors since then" },
	{ "kernel-log", PCIE_KEY_KERNEL_LOG, "FILE",
	  "saved dmesg (or /dev/kmsg, the default on /sys) to scan" },
	{ "no-dma", PCIE_KEY_NO_DMA, NULL,
	  "skip the DMA loopback bandwidth measurement" },
	{ "samples", PCIE_KEY_SAMPLES, "K",
	  "DMA samples per port and test (default 12)" },
	{ NULL },
};

static const struct cli_cmd pcie_cmd = {
	.name = "pcie",
	.synopsis = "[--sysfs-root DIR] [--baseline FILE] [--records FILE] "
		    "[--json FILE] [--no-dma] [--samples K]",
	.description =
		"Audits every PCIe hop between the HCAs (15b3, class 0207/0200),\n"
		"GPUs (0300/0302), NVMe (0108) and the root ports: link speed\n"
		"(GT/s) and width against the best both ends support, AER\n"
		"counters, ACS on switch ports between GPUs and HCAs, and the\n"
		"kernel's \"limited by\" lines; then RDMA WRITE and READ loopback\n"
		"on each ACTIVE HCA port, in GB/s (10^9 bytes/s), median and\n"
		"minimum of K samples against 80% of the usable PCIe bandwidth.\n"
		"Findings: pcie-degraded-width, pcie-degraded-speed,\n"
		"pcie-aer-errors, pcie-acs-p2p, pcie-low-dma-bandwidth.\n"
		"Checks that need root (ACS, kernel log) say so when skipped.\n",
	.opts = pcie_opts,
	.common = CLI_COMMON_RECORDS | CLI_COMMON_JSON | CLI_COMMON_CA |
		  CLI_COMMON_PORT,
};

static int pcie_opt(void *ctx, int key, const char *arg)
{
	struct pcie_options *o = ctx;
	long v;

	switch (key) {
	case PCIE_KEY_SYSFS_ROOT:
		o->sysfs_root = arg;
		return 0;
	case PCIE_KEY_BASELINE:
		o->baseline = arg;
		return 0;
	case PCIE_KEY_KERNEL_LOG:
		o->kernel_log = arg;
		return 0;
	case PCIE_KEY_NO_DMA:
		o->no_dma = true;
		return 0;
	case PCIE_KEY_SAMPLES:
		if (cli_parse_long(&pcie_cmd, "--samples", arg, 1, 1000, &v))
			return -EINVAL;
		o->samples = (int)v;
		return 0;
	}
	return -EINVAL;
}

int pcie_main(int argc, char **argv)
{
	struct pcie_options o = { .sysfs_root = "/sys", .samples = 12 };
	struct pcie_topo topo = { 0 };
	struct pcie_audit a;
	struct pcie_records *out;
	struct cli_common c;
	int idx, rc;

	idx = cli_parse(&pcie_cmd, argc, argv, &c, pcie_opt, &o);
	if (idx < 0)
		return cli_parse_exit(idx);
	if (idx < argc)
		return cli_usage_error(&pcie_cmd, "unexpected argument '%s'",
				       argv[idx])
			       ? IBP_EXIT_USAGE
			       : 0;
	o.ca = c.ca;
	o.port = c.port;
	if (pcie_audit_init(&a))
		return IBP_EXIT_RUNTIME;
	out = pcie_records_open(c.records, c.json);
	if (!out) {
		pcie_audit_free(&a);
		return IBP_EXIT_USAGE;
	}
	rc = pcie_run(&o, &topo, &a, out);
	if (rc != IBP_EXIT_USAGE && (topo.n > 0 || rc == IBP_EXIT_PASS))
		pcie_report_summary(
			c.records && !strcmp(c.records, "-") ? stderr : stdout,
			&topo, &a, out);
	if (pcie_records_close(out, &a, rc) && rc != IBP_EXIT_USAGE)
		rc = IBP_EXIT_RUNTIME;
	pcie_topo_free(&topo);
	pcie_audit_free(&a);
	return rc;
}
