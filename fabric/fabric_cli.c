// SPDX-License-Identifier: MIT
/*
 * fabric_cli.c: `ibproof fabric discover|check|counters|routes`: the option
 * tables and the dispatch; the runs are in fabric_run.c and
 * fabric_counters_run.c.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/cli.h"
#include "common/log.h"
#include "common/subcommands.h"
#include "fabric/fabric_run.h"

enum fabric_key {
	KEY_SPEC = CLI_KEY_COMMAND_FIRST,
	KEY_LOAD_CACHE,
	KEY_TOPOLOGY,
	KEY_CACHE,
	KEY_BASELINE,
	KEY_RESET,
	KEY_THRESHOLDS,
	KEY_WINDOW,
	KEY_SINCE_CLEAR,
	KEY_LFTS,
	KEY_PATH,
	KEY_PATHS,
	KEY_FROM_IBDIAGNET,
	KEY_FROM_MLXLINK,
	KEY_APPROVED_VENDORS,
	KEY_STRICT,
	KEY_M_KEY,
	KEY_IBDIAG_CONF,
	KEY_ACCEPT_UNTESTED,
};

/* Every fabric tool sends SMPs (the walk at least) and has a scope. */
#define ACCESS_OPTS                                                           \
	{ "m-key", KEY_M_KEY, "KEY",                                          \
	  "the M_Key for SMPs (0x hex or decimal; default: m_key= of "        \
	  "ibdiag.conf); never printed" },                                    \
		{ "ibdiag-conf", KEY_IBDIAG_CONF, "FILE",                     \
		  "rdma-core's ibdiag.conf to read m_key= from (default "     \
		  "/etc/infiniband-diags/ibdiag.conf, if present)" },         \
	{                                                                     \
		"accept-untested", KEY_ACCEPT_UNTESTED, "NAME[,NAME...]",     \
			"known gaps: parts (NODE, NODE:PORT, 0xGUID[:PORT]) " \
			"whose not-tested finding does not make the run "     \
			"INCOMPLETE (listed in the output and records)"       \
	}

#define INPUT_OPTS                                                          \
	{ "load-cache", KEY_LOAD_CACHE, "FILE",                             \
	  "read the fabric from an ibnetdiscover --cache FILE" },           \
		{ "topology", KEY_TOPOLOGY, "FILE",                         \
		  "read the fabric from ibnetdiscover (text or -p) or "     \
		  "iblinkinfo (default, --line, -S) output" },              \
		{ "strict", KEY_STRICT, NULL,                               \
		  "a link to a node the --topology or --spec file never "   \
		  "defines is an error, not a warning" },                   \
	{                                                                   \
		"cache", KEY_CACHE, "FILE",                                 \
			"also save the live walk as an ibnetdiscover cache" \
	}

#define COMMON                                                     \
	(CLI_COMMON_RECORDS | CLI_COMMON_TIMEOUT | CLI_COMMON_CA | \
	 CLI_COMMON_PORT | CLI_COMMON_NODE_NAME_MAP)

static const struct cli_cmd discover_cmd = {
	.name = "fabric discover",
	.synopsis = "[OPTIONS]",
	.description =
		"Walk the fabric from the local port (libibnetdisc, directed\n"
		"route, no SM needed) or read a saved one; write one `link`\n"
		"record per cable and a `not-tested` finding per port whose\n"
		"far node did not answer (exit 1: INCOMPLETE).\n",
	.opts = (const struct cli_opt[]){ INPUT_OPTS, ACCESS_OPTS, { NULL } },
	.common = COMMON,
};

static const struct cli_cmd check_cmd = {
	.name = "fabric check",
	.synopsis = "--spec FILE [OPTIONS]",
	.description =
		"Compare the fabric with the expected cabling: a CSV cable list\n"
		"(a_node,a_port,z_node,z_port[,speed,width,label,rack]) or an\n"
		"ibnetdiscover topology file of a known-good fabric. Findings:\n"
		"missing-link, unexpected-link, miswired, wrong-port, swapped,\n"
		"node-replaced, port-disabled, degraded-width, degraded-speed,\n"
		"not-tested, ambiguous-name. Exit 1 if any is `fail`, or if\n"
		"a cable was not tested (INCOMPLETE).\n",
	.opts = (const struct cli_opt[]){ { "spec", KEY_SPEC, "FILE",
					    "the expected cabling" },
					  INPUT_OPTS,
					  ACCESS_OPTS,
					  { NULL } },
	.common = COMMON,
};

static const struct cli_cmd counters_cmd = {
	.name = "fabric counters",
	.synopsis = "[--window SECONDS | --since-clear | --baseline FILE] "
		    "[--reset] [OPTIONS]",
	.description =
		"Read the PMA PortCounters of every port, switches and CAs, and\n"
		"PortCountersExtended (where ClassPortInfo advertises them).\n"
		"Needs LIDs (an SM). By default judges what the counters rose\n"
		"by in a window: read, wait --window seconds (60), read. Bit\n"
		"errors are judged per bit received against a BER bound by link\n"
		"speed, link-downed and other events per window, PortXmitWait\n"
		"as a share of the window's ticks (congestion: info or warn).\n"
		"--since-clear judges the values since the last clear. Each cable's\n"
		"two ends are judged together. Counters saturate: saturated values\n"
		"are flagged. --records writes one `counters` record per port,\n"
		"with the window it covers, usable later as --baseline. A port\n"
		"that did not answer, or refused (its MAD status said), is\n"
		"`not-tested`: the run is INCOMPLETE, exit 1.\n",
	.opts =
		(const struct cli_opt[]){
			{ "baseline", KEY_BASELINE, "FILE",
			  "judge deltas against `counters` records in FILE" },
			{ "window", KEY_WINDOW, "SECONDS",
			  "judge the rise over a window this long (default "
			  "60)" },
			{ "since-clear", KEY_SINCE_CLEAR, NULL,
			  "judge the values since the counters were last "
			  "cleared" },
			{ "reset", KEY_RESET, NULL,
			  "in a window: clear the counters when it starts; "
			  "otherwise: after reading" },
			{ "thresholds", KEY_THRESHOLDS, "FILE",
			  "override thresholds (CounterName=value lines)" },
			ACCESS_OPTS,
			{ NULL } },
	.common = COMMON,
};

static const struct cli_cmd routes_cmd = {
	.name = "fabric routes",
	.synopsis = "[--lfts FILE] [--path A B | --paths FILE] [OPTIONS]",
	.description =
		"Read every switch's LinearFDBTop and linear forwarding table\n"
		"by directed route (or a dump with --lfts: opensm-lfts.dump,\n"
		"ibroute / dump_lfts output, with --topology or --load-cache).\n"
		"--records writes the links (with LIDs) and one `lft` record\n"
		"per switch. Findings: route-missing, route-loop (fail),\n"
		"route-imbalance (info), not-tested (a switch whose table was\n"
		"not read: INCOMPLETE, exit 1). --path A B prints the route\n"
		"from A to B like\n"
		"ibtracert (HOST:CA:PORT, 0xGUID or LID); --paths FILE one\n"
		"route per \"A B\" line. Tables are the static default where\n"
		"a switch runs adaptive routing.\n",
	.opts =
		(const struct cli_opt[]){
			{ "lfts", KEY_LFTS, "FILE",
			  "the tables from a dump instead of the fabric" },
			{ "path", KEY_PATH, "A",
			  "print the route from A to the argument B" },
			{ "paths", KEY_PATHS, "FILE",
			  "print the route of each \"A B\"" },
			INPUT_OPTS,
			ACCESS_OPTS,
			{ NULL } },
	.common = COMMON,
};

static const struct cli_cmd cables_cmd = {
	.name = "fabric cables",
	.synopsis = "[--from-ibdiagnet FILE] [--from-mlxlink [PORT=]FILE]... "
		    "[OPTIONS]",
	.description =
		"The module (transceiver) at both ends of every cable: vendor,\n"
		"part number, serial, temperature, per-lane Rx/Tx power and Tx\n"
		"bias against the module's own flags and thresholds. From an\n"
		"ibdiagnet2.db_csv or ibdiagnet2.cables, from mlxlink -m /\n"
		"--json output (PORT: NODE:N or 0xGUID:N, the port the file\n"
		"is of), or with\n"
		"neither from the walked fabric by the CableInfo SMP (each\n"
		"module's read ends within --timeout). One `transceiver` record\n"
		"per module; findings transceiver-alarm, transceiver-warning,\n"
		"transceiver-rx-power-low, transceiver-unreadable, not-tested and\n"
		"transceiver-unapproved. --topology or --load-cache names the\n"
		"ports of a file. Exit 1 if any finding is `fail`.\n",
	.opts =
		(const struct cli_opt[]){
			{ "from-ibdiagnet", KEY_FROM_IBDIAGNET, "FILE",
			  "read modules from ibdiagnet2.db_csv (CABLE_INFO) or "
			  "ibdiagnet2.cables" },
			{ "from-mlxlink", KEY_FROM_MLXLINK, "[PORT=]FILE",
			  "read a module from mlxlink -m output, and its BER "
			  "figures with -c (text or --json; repeatable)" },
			{ "approved-vendors", KEY_APPROVED_VENDORS, "LIST",
			  "comma-separated vendor names; others get a warning" },
			INPUT_OPTS,
			ACCESS_OPTS,
			{ NULL } },
	.common = COMMON,
};

static const struct cli_cmd fabric_cmd = {
	.name = "fabric",
	.synopsis = "discover|check|counters|routes|cables [OPTIONS]",
	.description =
		"Fabric checks over MADs. See 'ibproof fabric SUB --help'.\n",
	.opts = (const struct cli_opt[]){ { NULL } },
};

static int fabric_opt(void *ctx, int key, const char *arg)
{
	struct fabric_args *a = ctx;

	switch (key) {
	case KEY_SPEC:
		a->spec = arg;
		break;
	case KEY_LOAD_CACHE:
		a->load_cache = arg;
		break;
	case KEY_TOPOLOGY:
		a->topology = arg;
		break;
	case KEY_CACHE:
		a->cache_out = arg;
		break;
	case KEY_BASELINE:
		a->baseline = arg;
		break;
	case KEY_RESET:
		a->reset = true;
		break;
	case KEY_WINDOW:
		a->window_given = true;
		return cli_parse_double(&counters_cmd, "--window", arg, 0,
					86400, &a->window_s);
	case KEY_SINCE_CLEAR:
		a->since_clear = true;
		break;
	case KEY_THRESHOLDS:
		a->thresholds = arg;
		break;
	case KEY_LFTS:
		a->lfts = arg;
		break;
	case KEY_PATH:
		a->path_from = arg;
		break;
	case KEY_PATHS:
		a->paths = arg;
		break;
	case KEY_FROM_IBDIAGNET:
		a->from_ibdiagnet = arg;
		break;
	case KEY_FROM_MLXLINK:
		if (a->n_mlxlink == FABRIC_MAX_MLXLINK)
			return -EINVAL;
		a->from_mlxlink[a->n_mlxlink++] = arg;
		break;
	case KEY_APPROVED_VENDORS:
		a->approved_vendors = arg;
		break;
	case KEY_STRICT:
		a->strict = true;
		break;
	case KEY_M_KEY:
		/* the value is a secret: the error does not repeat it */
		if (fabric_mkey_parse(arg, &a->mkey.key)) {
			fprintf(stderr,
				"ibproof: --m-key: expected a 64-bit "
				"number (0x hex, 0 octal or decimal)\n");
			return -EINVAL;
		}
		a->mkey.set = true;
		a->mkey_arg = true;
		break;
	case KEY_IBDIAG_CONF:
		a->ibdiag_conf = arg;
		break;
	case KEY_ACCEPT_UNTESTED:
		if (fabric_scope_accept_arg(&a->accept, (char *)arg)) {
			fprintf(stderr, "ibproof: --accept-untested: out of "
					"memory\n");
			return -EINVAL;
		}
		break;
	default:
		return -EINVAL;
	}
	return 0;
}

/*
 * rdma-core's order: the config file first, the command line over it.
 * Returns -1 to go on, or IBP_EXIT_USAGE with "FILE:LINE: ..." logged.
 */
static int read_mkey_conf(struct fabric_args *a)
{
	struct fabric_mkey conf = { 0 };
	char err[512];
	const char *path = a->ibdiag_conf ? a->ibdiag_conf : FABRIC_IBDIAG_CONF;

	if (fabric_ibdiag_conf_read(path, a->ibdiag_conf != NULL, &conf, err,
				    sizeof(err))) {
		log_error("%s", err);
		return IBP_EXIT_USAGE;
	}
	if (!a->mkey_arg && conf.set)
		a->mkey = conf;
	return -1;
}

static int parse_sub(const struct cli_cmd *cmd, int argc, char **argv,
		     struct fabric_args *a)
{
	int idx = cli_parse(cmd, argc, argv, &a->common, fabric_opt, a);

	a->tool = cmd->name;

	if (idx < 0)
		return cli_parse_exit(idx);
	if (a->path_from && idx < argc)
		a->path_to = argv[idx++];
	if (a->path_from && !a->path_to) {
		cli_usage_error(cmd, "--path A B: B is missing");
		return IBP_EXIT_USAGE;
	}
	if ((a->lfts || a->path_from || a->paths) &&
	    strcmp(cmd->name, "fabric routes")) {
		cli_usage_error(cmd, "--lfts, --path and --paths are options "
				     "of fabric routes");
		return IBP_EXIT_USAGE;
	}
	if (a->lfts && !a->load_cache && !a->topology) {
		cli_usage_error(cmd, "--lfts needs the links: --topology or "
				     "--load-cache");
		return IBP_EXIT_USAGE;
	}
	if ((a->load_cache || a->topology) && !a->lfts &&
	    !strcmp(cmd->name, "fabric routes")) {
		cli_usage_error(cmd, "a saved fabric needs its tables: --lfts");
		return IBP_EXIT_USAGE;
	}
	if (idx < argc) {
		cli_usage_error(cmd, "unexpected argument '%s'", argv[idx]);
		return IBP_EXIT_USAGE;
	}
	if (a->load_cache && a->topology) {
		cli_usage_error(cmd, "--load-cache and --topology exclude "
				     "each other");
		return IBP_EXIT_USAGE;
	}
	if (a->common.verbose)
		log_set_level(a->common.verbose > 1 ? LOG_LEVEL_DEBUG
						    : LOG_LEVEL_INFO);
	return read_mkey_conf(a);
}

static int dispatch(int argc, char **argv, struct fabric_args *a)
{
	const char *sub = argc > 1 ? argv[1] : NULL;
	int rc;

	if (sub && !strcmp(sub, "discover")) {
		if ((rc = parse_sub(&discover_cmd, argc - 1, argv + 1, a)) >= 0)
			return rc;
		return fabric_discover_run(a);
	}
	if (sub && !strcmp(sub, "check")) {
		if ((rc = parse_sub(&check_cmd, argc - 1, argv + 1, a)) >= 0)
			return rc;
		if (!a->spec) {
			cli_usage_error(&check_cmd, "--spec FILE is required");
			return IBP_EXIT_USAGE;
		}
		return fabric_check_run(a);
	}
	if (sub && !strcmp(sub, "counters")) {
		a->window_s = FABRIC_COUNTERS_WINDOW_S;
		if ((rc = parse_sub(&counters_cmd, argc - 1, argv + 1, a)) >= 0)
			return rc;
		return fabric_counters_run(a);
	}
	if (sub && !strcmp(sub, "routes")) {
		if ((rc = parse_sub(&routes_cmd, argc - 1, argv + 1, a)) >= 0)
			return rc;
		return fabric_routes_run(a);
	}
	if (sub && !strcmp(sub, "cables")) {
		if ((rc = parse_sub(&cables_cmd, argc - 1, argv + 1, a)) >= 0)
			return rc;
		return fabric_cables_run(a);
	}
	if (sub && (!strcmp(sub, "--help") || !strcmp(sub, "-h"))) {
		cli_usage(stdout, &fabric_cmd);
		return IBP_EXIT_PASS;
	}
	if (sub && sub[0] == '-')
		cli_usage_error(&fabric_cmd, "unknown option '%s'", sub);
	else if (sub)
		cli_usage_error(&fabric_cmd, "unknown subcommand '%s'", sub);
	else
		cli_usage_error(&fabric_cmd, "a subcommand is required");
	return IBP_EXIT_USAGE;
}

int fabric_main(int argc, char **argv)
{
	struct fabric_args a = { 0 };
	int rc = dispatch(argc, argv, &a);

	fabric_scope_accept_free(&a.accept);
	return rc;
}
