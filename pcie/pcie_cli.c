// SPDX-License-Identifier: MIT
#include "common/cli.h"
#include "common/subcommands.h"

static const struct cli_cmd pcie_cmd = {
	.name = "pcie",
	.synopsis = "[OPTIONS]",
	.description = "Not built yet.\n",
	.opts = (const struct cli_opt[]){ { NULL } },
};

int pcie_main(int argc, char **argv)
{
	return cli_not_built(&pcie_cmd, argc, argv);
}
