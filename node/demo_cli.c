// SPDX-License-Identifier: MIT
/*
 * ibproof demo: the whole suite on the simulated cluster shipped with the
 * project (an ibsim fat tree with cabling faults and a Soft-RoCE qemu
 * cluster with one lossy port). The orchestration of simulators is a
 * script's job; this runs scripts/demo of the source tree it was built from.
 */
#include <errno.h>
#include <stdlib.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "common/cli.h"
#include "common/subcommands.h"

enum { KEY_BUILD = CLI_KEY_COMMAND_FIRST };

static const struct cli_cmd demo_cmd = {
	.name = "demo",
	.synopsis = "[--out DIR] [--build DIR]",
	.description =
		"Runs fabric check, fabric counters, pcie, burnin, node and report\n"
		"on the built-in simulated cluster: a 324-HCA ibsim fat tree with\n"
		"injected cabling faults and bad counters, and a Soft-RoCE cluster\n"
		"of qemu guests with one lossy port. Ends with the verdict, the\n"
		"disable list and the path of report.html. Needs root (ibsim,\n"
		"network namespaces) and the packages of scripts/install-deps;\n"
		"`make demo` installs them first.\n",
	.opts = (const struct cli_opt[]){
		{ "build", KEY_BUILD, "DIR", "the build folder (default: this binary's)" },
		{ NULL },
	},
	.common = CLI_COMMON_OUT,
};

static int on_opt(void *ctx, int key, const char *arg)
{
	if (key != KEY_BUILD)
		return -EINVAL;
	*(const char **)ctx = arg;
	return 0;
}

/* The build folder: the one holding this binary, unless --build says. */
static int find_build_dir(char *buf, size_t len)
{
	ssize_t n = readlink("/proc/self/exe", buf, len - 1);
	char *slash;

	if (n <= 0)
		return -errno;
	buf[n] = '\0';
	slash = strrchr(buf, '/');
	if (slash)
		*slash = '\0';
	return 0;
}

int demo_main(int argc, char **argv)
{
	char script[PATH_MAX], build_buf[PATH_MAX];
	const char *build = NULL;
	struct cli_common common;
	int ret;

	ret = cli_parse(&demo_cmd, argc, argv, &common, on_opt, &build);
	if (ret < 0)
		return cli_parse_exit(ret);
	if (ret < argc) {
		cli_usage_error(&demo_cmd, "unexpected argument '%s'", argv[ret]);
		return IBP_EXIT_USAGE;
	}
	if (!build) {
		if (find_build_dir(build_buf, sizeof(build_buf)))
			return IBP_EXIT_RUNTIME;
		build = build_buf;
	}
	if (common.out)
		setenv("IBPROOF_DEMO_OUT", common.out, 1);
	snprintf(script, sizeof(script), "%s/scripts/demo", IBPROOF_SOURCE_DIR);
	execl(script, script, build, (char *)NULL);
	fprintf(stderr, "ibproof demo: cannot run %s: %s\n", script, strerror(errno));
	return IBP_EXIT_RUNTIME;
}
