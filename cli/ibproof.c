// SPDX-License-Identifier: MIT
/*
 * ibproof: InfiniBand fabric burn-in and link validation. A thin dispatcher;
 * every subcommand lives in its part's folder and links from ibproof_core.
 */
#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include "common/cli.h"
#include "common/record.h"
#include "common/subcommands.h"
#include "common/text.h"

static const struct subcommand {
	const char *name;
	int (*main)(int argc, char **argv);
	const char *summary;
} subcommands[] = {
	{ "burnin", burnin_main,
	  "RDMA WRITE/READ bandwidth over every HCA port pair (under mpirun)" },
	{ "fabric", fabric_main,
	  "discover the fabric, check cabling against a spec, read port counters" },
	{ "pcie", pcie_main,
	  "audit PCIe links, AER counters, ACS, and DMA bandwidth through each HCA" },
	{ "report", report_main,
	  "merge record files into a verdict and the list of ports to disable" },
	{ "node", node_main,
	  "post-repair validation of one node: may it go back into service?" },
	{ "demo", demo_main,
	  "run the whole suite on the built-in simulated cluster" },
	{ NULL, NULL, NULL },
};

static void usage(FILE *f)
{
	fprintf(f, "Usage: ibproof COMMAND [OPTIONS]\n"
		   "       ibproof help COMMAND | ibproof COMMAND --help\n\n"
		   "InfiniBand fabric burn-in and link validation.\n\n"
		   "Commands:\n");
	for (const struct subcommand *s = subcommands; s->name; s++)
		fprintf(f, "  %-8s %s\n", s->name, s->summary);
	fprintf(f, "  %-8s %s\n  %-8s %s\n\n%s", "version",
		"print the version of ibproof and its libraries", "help",
		"show this help, or a command's help", cli_exit_codes_help);
}

static int version(void)
{
	printf("ibproof %s\n", IBPROOF_VERSION);
	printf("record schema %s, jansson %s\n", RECORD_SCHEMA,
	       JANSSON_VERSION);
	return IBP_EXIT_PASS;
}

static const struct subcommand *find(const char *name)
{
	for (const struct subcommand *s = subcommands; s->name; s++)
		if (!strcmp(s->name, name))
			return s;
	return NULL;
}

static int unknown(const char *name)
{
	text_term_fprintf(stderr, "ibproof: unknown command '%s'", name);
	fputs("\n\n", stderr);
	usage(stderr);
	return IBP_EXIT_USAGE;
}

static int help(int argc, char **argv)
{
	const struct subcommand *s;
	char help_opt[] = "--help";
	char *sub_argv[] = { NULL, help_opt, NULL };

	if (argc < 2) {
		usage(stdout);
		return IBP_EXIT_PASS;
	}
	s = find(argv[1]);
	if (!s)
		return unknown(argv[1]);
	sub_argv[0] = argv[1];
	return s->main(2, sub_argv);
}

int main(int argc, char **argv)
{
	const struct subcommand *s;

	if (argc < 2) {
		usage(stderr);
		return IBP_EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))
		return help(1, argv);
	if (!strcmp(argv[1], "help"))
		return help(argc - 1, argv + 1);
	if (!strcmp(argv[1], "version") || !strcmp(argv[1], "--version"))
		return version();
	s = find(argv[1]);
	if (!s)
		return unknown(argv[1]);
	return s->main(argc - 1, argv + 1);
}
