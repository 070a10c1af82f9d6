// SPDX-License-Identifier: MIT
#include "common/cli.h"
#include "common/subcommands.h"

static const struct cli_cmd demo_cmd = {
	.name = "demo",
	.synopsis = "[OPTIONS]",
	.description = "Not built yet.\n",
	.opts = (const struct cli_opt[]){ { NULL } },
};

int demo_main(int argc, char **argv)
{
	return cli_not_built(&demo_cmd, argc, argv);
}
