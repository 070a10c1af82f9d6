// SPDX-License-Identifier: MIT
/*
 * fabric_cli.c: `ibproof fabric discover|check|counters`.
 * Input -> plain model -> pure checks -> findings -> records / summary.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/cli.h"
#include "common/log.h"
#include "common/namemap.h"
#include "common/record.h"
#include "common/subcommands.h"
#include "fabric_cli.h"
#include "fabric_diff.h"
#include "fabric_namemap.h"
#include "fabric_report.h"
#include "fabric_topo.h"

const struct fabric_disc_ops *fabric_disc = &fabric_ibnd_ops;
const struct fabric_pma_ops *fabric_pma = &fabric_mad_pma_ops;

enum fabric_key {
	KEY_SPEC = CLI_KEY_COMMAND_FIRST,
	KEY_LOAD_CACHE,
	KEY_TOPOLOGY,
	KEY_CACHE,
	KEY_BASELINE,
	KEY_RESET,
	KEY_THRESHOLDS,
};

#define INPUT_OPTS                                                          \
	{ "load-cache", KEY_LOAD_CACHE, "FILE",                             \
	  "read the fabric from an ibnetdiscover --cache FILE" },           \
	{ "topology", KEY_TOPOLOGY, "FILE",                                 \
	  "read the fabric from ibnetdiscover topology text" },             \
	{ "cache", KEY_CACHE, "FILE",                                       \
	  "also save the live walk as an ibnetdiscover cache" }

#define COMMON (CLI_COMMON_RECORDS | CLI_COMMON_TIMEOUT | CLI_COMMON_CA | \
		CLI_COMMON_PORT | CLI_COMMON_NODE_NAME_MAP)

static const struct cli_cmd discover_cmd = {
	.name = "fabric discover",
	.synopsis = "[OPTIONS]",
	.description =
		"Walk the fabric from the local port (libibnetdisc, directed\n"
		"route, no SM needed) or read a saved one; write one `link`\n"
		"record per cable and an `unreachable` finding per port whose\n"
		"far node did not answer.\n",
	.opts = (const struct cli_opt[]){ INPUT_OPTS, { NULL } },
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
		"unreachable, ambiguous-name. Exit 1 if any is `fail`.\n",
	.opts = (const struct cli_opt[]){
		{ "spec", KEY_SPEC, "FILE", "the expected cabling" },
		INPUT_OPTS, { NULL } },
	.common = COMMON,
};

static const struct cli_cmd counters_cmd = {
	.name = "fabric counters",
	.synopsis = "[--baseline FILE] [--reset] [OPTIONS]",
	.description =
		"Read the PMA PortCounters of every port, switches and CAs, and\n"
		"PortCountersExtended (where ClassPortInfo advertises them) of\n"
		"ports with errors or saturated 32-bit data counters.\n"
		"Needs LIDs (an SM). Judges each cable's two ends together\n"
		"against thresholds (ibqueryerrors' error_thresholds names and\n"
		"format; defaults as its example file). Counters saturate:\n"
		"saturated values are flagged. --records writes one `counters`\n"
		"record per port, usable later as --baseline.\n",
	.opts = (const struct cli_opt[]){
		{ "baseline", KEY_BASELINE, "FILE",
		  "judge deltas against `counters` records in FILE" },
		{ "reset", KEY_RESET, NULL, "reset the counters after reading" },
		{ "thresholds", KEY_THRESHOLDS, "FILE",
		  "override thresholds (CounterName=value lines)" },
		{ NULL } },
	.common = COMMON,
};

static const struct cli_cmd fabric_cmd = {
	.name = "fabric",
	.synopsis = "discover|check|counters [OPTIONS]",
	.description =
		"Fabric checks over MADs. See 'ibproof fabric SUB --help'.\n",
	.opts = (const struct cli_opt[]){ { NULL } },
};

static int fabric_opt(void *ctx, int key, const char *arg)
{
	struct fabric_args *a = ctx;

	switch (key) {
	case KEY_SPEC: a->spec = arg; break;
	case KEY_LOAD_CACHE: a->load_cache = arg; break;
	case KEY_TOPOLOGY: a->topology = arg; break;
	case KEY_CACHE: a->cache_out = arg; break;
	case KEY_BASELINE: a->baseline = arg; break;
	case KEY_RESET: a->reset = true; break;
	case KEY_THRESHOLDS: a->thresholds = arg; break;
	default: return -EINVAL;
	}
	return 0;
}

/* Loads the model from the chosen input; returns an exit code. */
int fabric_load_model(const struct fabric_args *a, struct fabric **out)
{
	struct fabric_disc_params p = {
		.ca = a->common.ca, .port = a->common.port,
		.timeout_ms = (unsigned)(a->common.timeout_s * 1000),
		.cache_out = a->cache_out,
	};
	char err[FABRIC_ERR_LEN];
	int rc;

	if (a->topology) {
		rc = fabric_topo_load(a->topology, out, err, sizeof(err));
		if (rc)
			log_error("%s", err);
		return rc ? IBP_EXIT_USAGE : IBP_EXIT_PASS;
	}
	if (a->load_cache)
		rc = fabric_disc->load_cache(a->load_cache, out);
	else
		rc = fabric_disc->discover(&p, out);
	if (rc)
		return a->load_cache && rc == -EINVAL ? IBP_EXIT_USAGE
						      : IBP_EXIT_RUNTIME;
	return IBP_EXIT_PASS;
}

int fabric_apply_map_file(const struct fabric_args *a, struct fabric *m)
{
	struct namemap *map;
	char err[FABRIC_ERR_LEN];
	int rc;

	if (!a->common.node_name_map)
		return IBP_EXIT_PASS;
	rc = namemap_load(a->common.node_name_map, &map, err, sizeof(err));
	if (rc) {
		log_error("%s", err);
		return IBP_EXIT_USAGE;
	}
	rc = fabric_apply_namemap(m, map);
	namemap_free(map);
	return rc ? IBP_EXIT_RUNTIME : IBP_EXIT_PASS;
}

static json_t *run_record(const struct fabric_args *a, const char *event)
{
	json_t *rec = record_new("run");

	json_object_set_new(rec, "tool",
			    json_string(a->tool ? a->tool : "fabric"));
	json_object_set_new(rec, "event", json_string(event));
	return rec;
}

static json_t *run_params(const struct fabric_args *a)
{
	json_t *p = json_object();
	const char *const keys[] = { "spec", "load_cache", "topology",
				     "baseline", "thresholds",
				     "node_name_map", "ca" };
	const char *vals[] = { a->spec, a->load_cache, a->topology,
			       a->baseline, a->thresholds,
			       a->common.node_name_map, a->common.ca };
	size_t i;

	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (vals[i])
			json_object_set_new(p, keys[i], json_string(vals[i]));
	if (a->common.port)
		json_object_set_new(p, "port", json_integer(a->common.port));
	if (a->reset)
		json_object_set_new(p, "reset", json_true());
	return p;
}

/* Opens --records and writes the `run` start record. */
int fabric_open_records(const struct fabric_args *a,
			struct record_writer **w)
{
	json_t *rec;

	*w = NULL;
	if (!a->common.records)
		return IBP_EXIT_PASS;
	*w = record_writer_open(a->common.records, false);
	if (!*w) {
		log_error("%s: cannot write records: %m", a->common.records);
		return IBP_EXIT_USAGE;
	}
	rec = run_record(a, "start");
	json_object_set_new(rec, "params", run_params(a));
	if (record_writer_emit_steal(*w, rec)) {
		log_error("%s: writing records failed", a->common.records);
		return IBP_EXIT_RUNTIME;
	}
	return IBP_EXIT_PASS;
}

static int emit_run_end(const struct fabric_args *a, struct record_writer *w,
			int code)
{
	static const char *const outcome[] = { "pass", "fail", "error",
					       "error" };
	json_t *rec = run_record(a, "end");

	json_object_set_new(rec, "outcome", json_string(outcome[code]));
	json_object_set_new(rec, "exit_code", json_integer(code));
	return record_writer_emit_steal(w, rec);
}

/* Emits findings as records; prints the summary unless records go to
 * stdout. Returns the exit code the findings call for. */
int fabric_finish(const struct fabric_args *a, struct record_writer *w,
		  const char *what, const struct fabric *m,
		  const struct fabric_findings *fs)
{
	int code = fabric_findings_count(fs, "fail") ? IBP_EXIT_FAIL
						     : IBP_EXIT_PASS;
	size_t i;
	int rc = 0;

	for (i = 0; w && i < fs->n && !rc; i++)
		rc = record_writer_emit_steal(w,
					fabric_finding_record(&fs->v[i]));
	if (w && !rc)
		rc = emit_run_end(a, w, code);
	if (!a->common.records || strcmp(a->common.records, "-"))
		fabric_print_summary(stdout, what, m, fs);
	if (rc || (w && record_writer_close(w))) {
		log_error("%s: writing records failed", a->common.records);
		return IBP_EXIT_RUNTIME;
	}
	return code;
}

static int emit_links(struct record_writer *w, const struct fabric *m)
{
	const struct fabric_port *p;
	size_t i;
	int j, rc = 0;

	for (i = 0; w && i < m->nnodes && !rc; i++) {
		for (j = 1; j <= m->nodes[i]->nports && !rc; j++) {
			p = &m->nodes[i]->ports[j];
			if (p->remote && p->id < p->remote->id)
				rc = record_writer_emit_steal(
					w, fabric_link_record(p));
		}
	}
	return rc;
}

static int load_spec(const struct fabric_args *a, struct fabric_spec **s)
{
	char err[FABRIC_ERR_LEN];

	if (!a->spec) {
		cli_usage_error(&check_cmd, "--spec FILE is required");
		return IBP_EXIT_USAGE;
	}
	if (fabric_spec_load(a->spec, s, err, sizeof(err))) {
		log_error("%s", err);
		return IBP_EXIT_USAGE;
	}
	return IBP_EXIT_PASS;
}

static int run_model_cmd(const struct fabric_args *a, bool check)
{
	struct fabric_findings fs = { 0 };
	struct fabric_spec *spec = NULL;
	struct record_writer *w = NULL;
	struct fabric *m = NULL;
	int rc;

	if ((check && (rc = load_spec(a, &spec))) ||
	    (rc = fabric_load_model(a, &m)) ||
	    (rc = fabric_apply_map_file(a, m)) ||
	    (rc = fabric_open_records(a, &w)))
		goto out;
	rc = check ? cabling_diff(m, spec, &fs) : fabric_model_check(m, &fs);
	if (!rc && !check)
		rc = emit_links(w, m);
	if (rc) {
		log_error("fabric %s failed: %s", check ? "check" : "discover",
			  strerror(-rc));
		record_writer_close(w);
		rc = IBP_EXIT_RUNTIME;
		goto out;
	}
	rc = fabric_finish(a, w, check ? "fabric check" : "fabric discover",
			   m, &fs);
out:
	fabric_findings_free(&fs);
	fabric_spec_free(spec);
	fabric_free(m);
	return rc;
}

static int parse_sub(const struct cli_cmd *cmd, int argc, char **argv,
		     struct fabric_args *a)
{
	int idx = cli_parse(cmd, argc, argv, &a->common, fabric_opt, a);

	a->tool = cmd->name;

	if (idx < 0)
		return cli_parse_exit(idx);
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
	return -1;
}

int fabric_main(int argc, char **argv)
{
	struct fabric_args a = { 0 };
	const char *sub = argc > 1 ? argv[1] : NULL;
	int rc;

	if (sub && !strcmp(sub, "discover")) {
		if ((rc = parse_sub(&discover_cmd, argc - 1, argv + 1, &a)) >= 0)
			return rc;
		return run_model_cmd(&a, false);
	}
	if (sub && !strcmp(sub, "check")) {
		if ((rc = parse_sub(&check_cmd, argc - 1, argv + 1, &a)) >= 0)
			return rc;
		return run_model_cmd(&a, true);
	}
	if (sub && !strcmp(sub, "counters")) {
		if ((rc = parse_sub(&counters_cmd, argc - 1, argv + 1, &a)) >= 0)
			return rc;
		return fabric_counters_run(&a);
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
