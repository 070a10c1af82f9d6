// SPDX-License-Identifier: MIT
/* ibproof node: options, then node_run(). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/cli.h"
#include "common/kernlog.h"
#include "common/record.h"
#include "common/subcommands.h"
#include "fabric/xcvr_ethtool.h"
#include "node/light.h"
#include "node/node_run.h"

enum node_key {
	NODE_KEY_SYSFS_ROOT = CLI_KEY_COMMAND_FIRST,
	NODE_KEY_REFERENCE,
	NODE_KEY_EXPECT_PORTS,
	NODE_KEY_EXPECT_RATE,
	NODE_KEY_AGAINST,
	NODE_KEY_LAUNCHER,
	NODE_KEY_BURNIN_OPTS,
	NODE_KEY_DURATION,
	NODE_KEY_NO_DMA,
	NODE_KEY_SAMPLES,
	NODE_KEY_DRAIN,
	NODE_KEY_UNDRAIN,
	NODE_KEY_RESUME_RENAMED,
	NODE_KEY_KERNEL_LOG,
	NODE_KEY_WINDOW,
	NODE_KEY_BOOT_TIME,
	NODE_KEY_LNET_PEERS,
	NODE_KEY_LIGHT,
	NODE_KEY_STATE_DIR,
	NODE_KEY_TEXTFILE,
	NODE_KEY_MEAN_OF,
	NODE_KEY_SAMPLE_EVERY,
};

static const struct cli_opt node_opts[] = {
	{ "sysfs-root", NODE_KEY_SYSFS_ROOT, "DIR",
	  "check DIR as /sys (a captured tree; default /sys)" },
	{ "reference-inventory", NODE_KEY_REFERENCE, "FILE",
	  "port records of a known-good node of the same model (e.g. its "
	  "`ibproof node --records`): same ports, width, speed, firmware" },
	{ "expect-ports", NODE_KEY_EXPECT_PORTS, "N",
	  "at least N HCA ports must be present" },
	{ "expect-rate", NODE_KEY_EXPECT_RATE, "GBPS",
	  "every ACTIVE port at least GBPS Gb/s of data rate" },
	{ "against", NODE_KEY_AGAINST, "HOST[,HOST...]",
	  "known-good nodes: burn in each port against them (burnin "
	  "--schedule node:THIS_HOST under the launcher)" },
	{ "launcher", NODE_KEY_LAUNCHER, "\"CMD ...\"",
	  "launcher words for --against (default \"mpirun --host "
	  "SELF:P,HOST:P,... -np TOTAL\", P = ACTIVE ports here)" },
	{ "burnin-opts", NODE_KEY_BURNIN_OPTS, "\"OPTS\"",
	  "more options for burnin under --against, e.g. \"--size 64K "
	  "--qps 1 --stall 20\" for slow links" },
	{ "duration", NODE_KEY_DURATION, "SECONDS",
	  "burn-in window per test for --against (default 10)" },
	{ "no-dma", NODE_KEY_NO_DMA, NULL,
	  "skip the DMA loopback of each HCA port" },
	{ "samples", NODE_KEY_SAMPLES, "K",
	  "DMA loopback samples per port and test (default 12)" },
	{ "drain", NODE_KEY_DRAIN, NULL,
	  "on FAIL, drain this node in Slurm with the verdict as reason" },
	{ "undrain", NODE_KEY_UNDRAIN, NULL,
	  "on PASS, return this node to Slurm (scontrol State=RESUME) if "
	  "(and only if) ibproof drained it" },
	{ "kernel-log", NODE_KEY_KERNEL_LOG, "FILE",
	  "read this saved kernel log (dmesg, dmesg -T, journalctl -k) "
	  "instead of /dev/kmsg (the default on /sys)" },
	{ "window", NODE_KEY_WINDOW, "HOURS",
	  "count link flaps within HOURS (default 24): 5 or more fail" },
	{ "boot-time", NODE_KEY_BOOT_TIME, "TIME",
	  "boot time (UTC seconds or 2026-12-03T04:00:00Z) of a "
	  "--kernel-log with seconds-since-boot stamps" },
	{ "lnet-peers", NODE_KEY_LNET_PEERS, "NID[,NID...]",
	  "`lctl ping` each LNet peer (storage servers) with --timeout" },
	{ "light", NODE_KEY_LIGHT, NULL,
	  "the light periodic check (systemd timer): no traffic, about a "
	  "second; deltas since the last run; a DMA sample at most every "
	  "--sample-every" },
	{ "state-dir", NODE_KEY_STATE_DIR, "DIR",
	  "--light: where runs keep their state (default "
	  "/var/lib/ibproof)" },
	{ "textfile", NODE_KEY_TEXTFILE, "FILE",
	  "--light: write the metrics for node_exporter's textfile "
	  "collector to FILE (*.prom)" },
	{ "mean-of", NODE_KEY_MEAN_OF, "K",
	  "--light: alarm when the mean of the last K DMA samples is under "
	  "the floor (default 12)" },
	{ "sample-every", NODE_KEY_SAMPLE_EVERY, "SECONDS",
	  "--light: at most one DMA sample per SECONDS (default 3600)" },
	{ "resume", NODE_KEY_RESUME_RENAMED, NULL, NULL }, /* refused */
	{ NULL },
};

static const struct cli_cmd node_cmd = {
	.name = "node",
	.synopsis = "[--sysfs-root DIR] [--reference-inventory FILE] "
		    "[--expect-ports N] [--expect-rate GBPS] "
		    "[--against HOST[,HOST...]] [--launcher \"CMD\"] "
		    "[--burnin-opts \"OPTS\"] "
		    "[--duration S] [--no-dma] [--samples K] [--drain] "
		    "[--undrain] [--kernel-log FILE] [--window HOURS] "
		    "[--boot-time TIME] [--lnet-peers NID[,NID...]] "
		    "[--records FILE] [--json FILE] [--timeout S] "
		    "[--light [--state-dir DIR] [--textfile FILE] "
		    "[--mean-of K] [--sample-every S]]",
	.description =
		"Validates one node after a repair: may it go back into\n"
		"service? Every HCA port present, ACTIVE/LinkUp at the expected\n"
		"width and speed (from --reference-inventory, --expect-rate, or\n"
		"the node's best port of the same HCA model), firmware as in the\n"
		"reference; the PCIe audit and DMA loopback of `ibproof pcie`;\n"
		"sysfs error counters before and after the traffic; with\n"
		"--against, burnin's node: schedule against known-good nodes.\n"
		"Prints one verdict line first (`node gpu017: PASS` or\n"
		"`node gpu017: FAIL \u2014 mlx5_3 port 1 at 2x width`), then\n"
		"the detail. Findings: port-missing, port-down, degraded-width,\n"
		"degraded-speed, firmware-mismatch, counter-errors, from the\n"
		"kernel log link-flapping, hca-health, transceiver-event,\n"
		"storage-path-errors, hung-task (docs/kernel-log.md), and those\n"
		"of pcie and burnin.\n"
		"With --light, the periodic check of a node in production\n"
		"(docs/node.md): ports, PCIe hops, AER, error counters and\n"
		"kernel-log events since the last run, a DMA loopback sample\n"
		"at most hourly judged on the mean of the last K, a\n"
		"node_exporter textfile.\n",
	.opts = node_opts,
	.common = CLI_COMMON_RECORDS | CLI_COMMON_JSON | CLI_COMMON_TIMEOUT |
		  CLI_COMMON_CA | CLI_COMMON_PORT,
};

/* UTC seconds since the epoch, or an ISO 8601 time with its zone. */
static int parse_boot_time(const char *arg, double *t)
{
	struct kernlog_opts ko = { 0 };
	struct kernlog_line l;
	char line[96];
	char *end;

	errno = 0;
	*t = strtod(arg, &end);
	if (!errno && end != arg && !*end && *t > 0)
		return 0;
	snprintf(line, sizeof(line), "%s x", arg);
	kernlog_parse_line(line, false, &ko, &l);
	if (l.format == KERNLOG_ISO && l.time > 0) {
		*t = l.time;
		return 0;
	}
	return cli_usage_error(&node_cmd,
			       "--boot-time: expected UTC seconds or "
			       "2026-12-03T04:00:00Z, got '%s'",
			       arg);
}

struct node_cli {
	struct node_run_opts o; /* first: the handlers take it as ctx */
	struct light_opts light;
	bool light_on;
};

static int node_opt_light(void *ctx, int key, const char *arg)
{
	struct node_cli *n = ctx;
	long v;

	switch (key) {
	case NODE_KEY_LIGHT:
		n->light_on = true;
		return 0;
	case NODE_KEY_STATE_DIR:
		n->light.state_dir = arg;
		return 0;
	case NODE_KEY_TEXTFILE:
		n->light.textfile = arg;
		return 0;
	case NODE_KEY_MEAN_OF:
		if (cli_parse_long(&node_cmd, "--mean-of", arg, 1, 1000, &v))
			return -EINVAL;
		n->light.mean_of = (int)v;
		return 0;
	case NODE_KEY_SAMPLE_EVERY:
		return cli_parse_double(&node_cmd, "--sample-every", arg, 1,
					86400 * 7, &n->light.sample_every_s);
	}
	return -EINVAL;
}

static int node_opt_num(void *ctx, int key, const char *arg)
{
	struct node_run_opts *o = ctx;
	long v;

	switch (key) {
	case NODE_KEY_EXPECT_PORTS:
		if (cli_parse_long(&node_cmd, "--expect-ports", arg, 1, 4096,
				   &v))
			return -EINVAL;
		o->expect_ports = (int)v;
		return 0;
	case NODE_KEY_EXPECT_RATE:
		return cli_parse_double(&node_cmd, "--expect-rate", arg, 0.001,
					1e6, &o->expect_rate_gbps);
	case NODE_KEY_DURATION:
		return cli_parse_double(&node_cmd, "--duration", arg, 0.1,
					86400, &o->duration_s);
	case NODE_KEY_SAMPLES:
		if (cli_parse_long(&node_cmd, "--samples", arg, 1, 1000, &v))
			return -EINVAL;
		o->samples = (int)v;
		return 0;
	case NODE_KEY_WINDOW:
		return cli_parse_double(&node_cmd, "--window", arg, 0.01,
					24 * 366, &o->window_h);
	case NODE_KEY_BOOT_TIME:
		return parse_boot_time(arg, &o->boot_time);
	}
	return node_opt_light(ctx, key, arg);
}

static int node_opt(void *ctx, int key, const char *arg)
{
	struct node_run_opts *o = ctx;

	switch (key) {
	case NODE_KEY_SYSFS_ROOT:
		o->sysfs_root = arg;
		return 0;
	case NODE_KEY_REFERENCE:
		o->reference = arg;
		return 0;
	case NODE_KEY_AGAINST:
		o->against = arg;
		return 0;
	case NODE_KEY_LAUNCHER:
		o->launcher = arg;
		return 0;
	case NODE_KEY_BURNIN_OPTS:
		o->burnin_opts = arg;
		return 0;
	case NODE_KEY_NO_DMA:
		o->no_dma = true;
		return 0;
	case NODE_KEY_DRAIN:
		o->drain = true;
		return 0;
	case NODE_KEY_UNDRAIN:
		o->undrain = true;
		return 0;
	case NODE_KEY_KERNEL_LOG:
		o->kernel_log = arg;
		return 0;
	case NODE_KEY_LNET_PEERS:
		o->lnet_peers = arg;
		return 0;
	case NODE_KEY_RESUME_RENAMED:
		return cli_usage_error(
			&node_cmd, "--resume was renamed --undrain "
				   "(it returns the node to Slurm; burnin's "
				   "--resume continues a killed run)");
	}
	return node_opt_num(ctx, key, arg);
}

/* Options of the full check that --light does not take. */
static int light_refuses(const struct node_cli *n)
{
	const struct node_run_opts *o = &n->o;
	const char *bad = o->against	  ? "--against"
			  : o->drain	  ? "--drain"
			  : o->undrain	  ? "--undrain"
			  : o->lnet_peers ? "--lnet-peers"
					  : NULL;

	if (!bad && !n->light_on &&
	    (n->light.state_dir || n->light.textfile || n->light.mean_of ||
	     n->light.sample_every_s > 0))
		return cli_usage_error(&node_cmd,
				       "--state-dir, --textfile, --mean-of "
				       "and --sample-every need --light");
	if (bad && n->light_on)
		return cli_usage_error(&node_cmd,
				       "%s is not part of --light (no "
				       "traffic, no Slurm)",
				       bad);
	return 0;
}

static int run_light(struct node_cli *n)
{
	if (!n->light.state_dir)
		n->light.state_dir = LIGHT_STATE_DIR;
	if (!n->light.mean_of)
		n->light.mean_of = LIGHT_MEAN_K;
	if (n->light.sample_every_s <= 0)
		n->light.sample_every_s = LIGHT_SAMPLE_EVERY_S;
	return light_run(&n->o, &n->light);
}

int node_main(int argc, char **argv)
{
	struct node_cli n = { .o = { .sysfs_root = "/sys",
				     .samples = 12,
				     .duration_s = 10,
				     .window_h = 24 } };
	struct node_run_opts *o = &n.o;
	struct cli_common c;
	int idx;

	idx = cli_parse(&node_cmd, argc, argv, &c, node_opt, &n);
	if (idx < 0)
		return cli_parse_exit(idx);
	if (idx < argc) {
		cli_usage_error(&node_cmd, "unexpected argument '%s'",
				argv[idx]);
		return IBP_EXIT_USAGE;
	}
	if (o->against && !o->against[0]) {
		cli_usage_error(&node_cmd,
				"--against: expected HOST[,HOST...]");
		return IBP_EXIT_USAGE;
	}
	if (light_refuses(&n))
		return IBP_EXIT_USAGE;
	o->host = record_hostname();
	o->records = c.records;
	o->json = c.json;
	o->timeout_s = c.timeout_s;
	o->ca = c.ca;
	o->port = c.port;
	/* a --sysfs-root tree's netdevs are not this host's: not read */
	o->ethtool =
		strcmp(o->sysfs_root, "/sys") ? NULL : &xcvr_ethtool_kernel_ops;
	return n.light_on ? run_light(&n) : node_run(o);
}
