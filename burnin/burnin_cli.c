// SPDX-License-Identifier: MIT
#include "common/cli.h"
#include "common/subcommands.h"

static const struct cli_cmd burnin_cmd = {
	.name = "burnin",
	.synopsis = "[OPTIONS]",
	.description = "Not built yet.\n",
	.opts = (const struct cli_opt[]){ { NULL } },
};

int burnin_main(int argc, char **argv)
{
	return cli_not_built(&burnin_cmd, argc, argv);
}
