/* SPDX-License-Identifier: MIT */
#ifndef IBPROOF_COMMON_SUBCOMMANDS_H
#define IBPROOF_COMMON_SUBCOMMANDS_H

/*
 * Entry points of the subcommands. argv[0] is the subcommand's name; each
 * returns an exit code from common/cli.h.
 */
int burnin_main(int argc, char **argv);
int fabric_main(int argc, char **argv);
int pcie_main(int argc, char **argv);
int report_main(int argc, char **argv);
int node_main(int argc, char **argv);
int demo_main(int argc, char **argv);

#endif
