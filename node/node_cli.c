// SPDX-License-Identifier: MIT
#include "common/cli.h"
#include "common/subcommands.h"

static const struct cli_cmd node_cmd = {
	.name = "node",
	.synopsis = "[OPTIONS]",
	.description = "Not built yet.\n",
	.opts = (const struct cli_opt[]){ { NULL } },
};

int node_main(int argc, char **argv)
{
	return cli_not_built(&node_cmd, argc, argv);
}
