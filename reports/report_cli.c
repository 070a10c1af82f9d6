// SPDX-License-Identifier: MIT
#include "common/cli.h"
#include "common/subcommands.h"

static const struct cli_cmd report_cmd = {
	.name = "report",
	.synopsis = "[OPTIONS]",
	.description = "Not built yet.\n",
	.opts = (const struct cli_opt[]){ { NULL } },
};

int report_main(int argc, char **argv)
{
	return cli_not_built(&report_cmd, argc, argv);
}
