// SPDX-License-Identifier: MIT
/*
 * ibproof demo: the whole suite on the simulated cluster shipped with the
 * project (an ibsim fat tree with cabling faults and a Soft-RoCE qemu
 * cluster with one lossy port). The orchestration of simulators is a
 * script's job; this runs scripts/demo: the one `make install` put beside
 * this binary (IBPROOF_BIN_TO_DATA from it), or the source tree's when this
 * binary is the one in the build tree (or --build names a build folder).
 */
#include <errno.h>
#include <stdbool.h>
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
		"disable list, the path of report.html and whether the report\n"
		"found exactly the injected faults: exit 0 when it did, 1 with\n"
		"the difference when not, 3 when a stage could not run (the\n"
		"report's own verdict stays FAIL). Needs root (ibsim,\n"
		"network namespaces) and the packages of scripts/install-deps;\n"
		"`make demo` installs them first. An installed ibproof writes\n"
		"into a new folder under $TMPDIR (or /tmp) unless --out says.\n",
	.opts =
		(const struct cli_opt[]){
			{ "build", KEY_BUILD, "DIR",
			  "run the source tree's demo with the build folder DIR "
			  "(default: this binary's, when it runs from its build tree)" },
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

/* This binary's path and the folder holding it, both PATH_MAX long. */
static int self_path(char *exe, char *dir)
{
	ssize_t n = readlink("/proc/self/exe", exe, PATH_MAX - 1);
	char *slash;

	if (n <= 0) {
		int err = errno;

		fprintf(stderr, "ibproof demo: /proc/self/exe: %s\n",
			strerror(err));
		return -err;
	}
	exe[n] = '\0';
	memcpy(dir, exe, (size_t)n + 1);
	slash = strrchr(dir, '/');
	if (slash)
		*slash = '\0';
	return 0;
}

/* Whether dir is the build tree this binary was compiled in. */
static bool is_build_tree(const char *dir)
{
	char a[PATH_MAX], b[PATH_MAX];

	return realpath(dir, a) && realpath(IBPROOF_BUILD_DIR, b) &&
	       !strcmp(a, b);
}

/* Runs the source tree's scripts/demo BUILD. Returns only on failure. */
static int run_source_demo(const char *build)
{
	char script[PATH_MAX];

	snprintf(script, sizeof(script), "%s/scripts/demo", IBPROOF_SOURCE_DIR);
	execl(script, script, build, (char *)NULL);
	fprintf(stderr, "ibproof demo: cannot run %s: %s\n", script,
		strerror(errno));
	return IBP_EXIT_RUNTIME;
}

/*
 * buf (PATH_MAX long) = dir/rel/name, or dir/name when rel is "";
 * -ENAMETOOLONG (said) if too long.
 */
static int join_path(char *buf, const char *dir, const char *rel,
		     const char *name)
{
	int n = snprintf(buf, PATH_MAX, "%s/%s%s%s", dir, rel, *rel ? "/" : "",
			 name);

	if (n < 0 || n >= PATH_MAX) {
		fprintf(stderr, "ibproof demo: %s/%s: path too long\n", dir,
			rel);
		return -ENAMETOOLONG;
	}
	return 0;
}

/*
 * Runs the installed scripts/demo with this binary and the installed
 * gen_fattree; output goes to out, else to a new folder under $TMPDIR.
 * Returns only on failure.
 */
static int run_installed_demo(const char *exe, const char *dir, const char *out)
{
	char script[PATH_MAX], gen[PATH_MAX], tmp[PATH_MAX];
	const char *tmpdir = getenv("TMPDIR");

	if (join_path(script, dir, IBPROOF_BIN_TO_DATA, "scripts/demo") ||
	    join_path(gen, dir, IBPROOF_BIN_TO_LIBEXEC, "gen_fattree"))
		return IBP_EXIT_RUNTIME;
	if (!out) {
		if (join_path(tmp, tmpdir && *tmpdir ? tmpdir : "/tmp", "",
			      "ibproof-demo-XXXXXX"))
			return IBP_EXIT_RUNTIME;
		if (!mkdtemp(tmp)) {
			fprintf(stderr, "ibproof demo: cannot make %s: %s\n",
				tmp, strerror(errno));
			return IBP_EXIT_RUNTIME;
		}
		out = tmp;
	}
	if (!setenv("IBPROOF", exe, 1) && !setenv("GEN_FATTREE", gen, 1) &&
	    !setenv("IBPROOF_DEMO_OUT", out, 1)) {
		execl(script, script, (char *)NULL);
		fprintf(stderr,
			"ibproof demo: cannot run %s: %s (is ibproof "
			"installed with `make install`?)\n",
			script, strerror(errno));
	}
	if (out == tmp)
		rmdir(tmp); /* the empty folder made above */
	return IBP_EXIT_RUNTIME;
}

int demo_main(int argc, char **argv)
{
	char exe[PATH_MAX], dir[PATH_MAX];
	const char *build = NULL;
	struct cli_common common;
	int ret;

	ret = cli_parse(&demo_cmd, argc, argv, &common, on_opt, &build);
	if (ret < 0)
		return cli_parse_exit(ret);
	if (ret < argc) {
		cli_usage_error(&demo_cmd, "unexpected argument '%s'",
				argv[ret]);
		return IBP_EXIT_USAGE;
	}
	if (self_path(exe, dir))
		return IBP_EXIT_RUNTIME;
	if (!build && !is_build_tree(dir))
		return run_installed_demo(exe, dir, common.out);
	if (common.out && setenv("IBPROOF_DEMO_OUT", common.out, 1))
		return IBP_EXIT_RUNTIME;
	return run_source_demo(build ? build : dir);
}
