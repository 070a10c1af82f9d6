// SPDX-License-Identifier: MIT
#include "common/cli.h"
#include "common/subcommands.h"

static const struct cli_cmd fabric_cmd = {
	.name = "fabric",
	.synopsis = "[OPTIONS]",
	.description = "Not built yet.\n",
	.opts = (const struct cli_opt[]){ { NULL } },
};

int fabric_main(int argc, char **argv)
{
	return cli_not_built(&fabric_cmd, argc, argv);
}
