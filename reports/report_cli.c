// SPDX-License-Identifier: MIT
/* ibproof report FILE...: from all results to a verdict and a disable list. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/cli.h"
#include "common/log.h"
#include "common/subcommands.h"
#include "common/text.h"
#include "judge/judge_options.h"
#include "reports/report.h"

enum report_key {
	KEY_PREVIOUS = CLI_KEY_COMMAND_FIRST,
	KEY_CSV,
	KEY_HTML,
	KEY_PROMETHEUS,
	KEY_JUNIT,
	KEY_SCRIPT,
	KEY_GROUP_MIN,
	KEY_THREADS,
	KEY_JANSSON_ONLY,
	KEY_ACCEPT_UNTESTED,
};

static const struct cli_opt report_opts[] = {
	{ "previous", KEY_PREVIOUS, "REPORT.json",
	  "the last run's --json report: mark new entries, list ports to re-enable" },
	{ "csv", KEY_CSV, "FILE", "write the disable list as CSV" },
	{ "html", KEY_HTML, "FILE", "write a self-contained HTML report" },
	{ "prometheus", KEY_PROMETHEUS, "FILE",
	  "write a node_exporter textfile (per-port bandwidth, findings)" },
	{ "junit", KEY_JUNIT, "FILE",
	  "write JUnit XML, one testcase per check" },
	{ "disable-script", KEY_SCRIPT, "FILE",
	  "write ibportstate commands for the disable list (never run by ibproof)" },
	{ "accept-untested", KEY_ACCEPT_UNTESTED, "LIST",
	  "accept known gaps of these parts (ports, cables, ...; unknown: runs whose records carry no scope): listed in the coverage block, never an INCOMPLETE verdict" },
	{ "group-min", KEY_GROUP_MIN, "N",
	  "this many ports of one switch, or nodes at once, make a common cause (default 4)" },
	{ "threads", KEY_THREADS, "N",
	  "read big files with N threads (default: CPUs)" },
	{ "jansson-only", KEY_JANSSON_ONLY, NULL,
	  "parse every line with jansson, no fast path for pair records (slower; for tests)" },
	{ NULL },
};

static const struct cli_cmd report_cmd = {
	.name = "report",
	.synopsis = "[OPTIONS] FILE...",
	.description =
		"Reads record files (JSON Lines from burnin, fabric, pcie, any number\n"
		"of nodes) and prints the verdict (PASS, or FAIL with what to take out\n"
		"of service), then the findings by severity and the disable list.\n"
		"A pair result blames no one alone: a port is blamed once it was low\n"
		"with at least two partners that were fine with others. Cabling and\n"
		"counter findings blame a cable, PCIe findings a node's device; many\n"
		"on one switch, or at once on many nodes, are reported as a common cause.\n"
		"Exit 0 when acceptance passes, 1 when it does not or something in scope\n"
		"was not tested (INCOMPLETE), 2 on bad input\n"
		"(with FILE:LINE).\n",
	.opts = report_opts,
	.shared_opts = judge_cli_opts,
	.common =
		CLI_COMMON_JSON | CLI_COMMON_NODE_NAME_MAP | CLI_COMMON_TIMEOUT,
};

struct report_opts {
	const char *previous, *csv, *html, *prometheus, *junit, *script;
	struct report_params params;
};

static int report_opt(void *ctx, int key, const char *arg)
{
	struct report_opts *o = ctx;
	long n;
	int ret = judge_option_parse(&report_cmd, &o->params.judge,
				     &o->params.judge_given, key, arg);

	if (ret <= 0)
		return ret;
	switch (key) {
	case KEY_PREVIOUS:
		o->previous = arg;
		return 0;
	case KEY_CSV:
		o->csv = arg;
		return 0;
	case KEY_HTML:
		o->html = arg;
		return 0;
	case KEY_PROMETHEUS:
		o->prometheus = arg;
		return 0;
	case KEY_JUNIT:
		o->junit = arg;
		return 0;
	case KEY_SCRIPT:
		o->script = arg;
		return 0;
	case KEY_ACCEPT_UNTESTED:
		o->params.accept_untested = arg;
		return 0;
	case KEY_GROUP_MIN:
		if (cli_parse_long(&report_cmd, "--group-min", arg, 2, 100000,
				   &n))
			return -EINVAL;
		o->params.group_min = (unsigned int)n;
		return 0;
	case KEY_JANSSON_ONLY:
		o->params.no_fast_path = true;
		return 0;
	case KEY_THREADS:
		if (cli_parse_long(&report_cmd, "--threads", arg, 1, 16, &n))
			return -EINVAL;
		o->params.threads = (int)n;
		return 0;
	}
	return -EINVAL;
}

static void default_params(struct report_params *p)
{
	judge_defaults(&p->judge);
	p->group_min = 4;
	p->threads = 0;
}

static int write_outputs(const struct report *r, const struct report_opts *o,
			 const struct cli_common *c)
{
	int ret = 0;

	if (c->json)
		ret = report_write_json(r, c->json) ?: ret;
	if (o->csv)
		ret = report_write_csv(r, o->csv) ?: ret;
	if (o->html)
		ret = report_write_html(r, o->html) ?: ret;
	if (o->prometheus)
		ret = report_write_prometheus(r, o->prometheus) ?: ret;
	if (o->junit)
		ret = report_write_junit(r, o->junit) ?: ret;
	if (o->script)
		ret = report_write_script(r, o->script) ?: ret;
	return ret;
}

/* Reading errors: bad input is exit 2 with the reader's file:line. */
static int input_exit(const struct report *r, int ret)
{
	if (ret == -EINVAL || ret == -ENOENT || ret == -EISDIR ||
	    ret == -EACCES) {
		text_term_fprintf(stderr, "ibproof report: %s", r->error);
		fputc('\n', stderr);
		return IBP_EXIT_USAGE;
	}
	log_error("report: %s", r->error[0] ? r->error : strerror(-ret));
	return IBP_EXIT_RUNTIME;
}

static int run_report(struct report *r, const struct report_opts *o,
		      const struct cli_common *c, char **files, int n)
{
	int ret;

	if (c->node_name_map &&
	    (ret = report_load_node_name_map(r, c->node_name_map)))
		return input_exit(r, ret);
	ret = report_analyse(r, files, n, o->previous);
	if (ret == -ENODATA) {
		text_term_fprintf(stderr, "ibproof report: no records in %s%s",
				  files[0],
				  n > 1 ? " and the other files" : "");
		fputc('\n', stderr);
		return IBP_EXIT_USAGE;
	}
	if (ret)
		return input_exit(r, ret);
	if (report_print_text(r, stdout) || write_outputs(r, o, c))
		return IBP_EXIT_RUNTIME;
	return report_passed(r) ? IBP_EXIT_PASS : IBP_EXIT_FAIL;
}

/* Whether --NAME (without "=value") takes the next argument. */
static bool takes_arg(const char *arg)
{
	size_t len = strcspn(arg + 2, "=");

	if (arg[2 + len] == '=')
		return false;
	for (const struct cli_opt *o = report_opts; o->name; o++)
		if (strlen(o->name) == len && !strncmp(o->name, arg + 2, len))
			return o->arg != NULL;
	for (const struct cli_opt *o = judge_cli_opts; o->name; o++)
		if (strlen(o->name) == len && !strncmp(o->name, arg + 2, len))
			return o->arg != NULL;
	return !strcmp(arg, "--json") || !strcmp(arg, "--node-name-map") ||
	       !strcmp(arg, "--timeout");
}

/*
 * `ibproof report FILE... --json X` is documented with options after the
 * files; the shared parser stops at the first file, so options go first.
 */
static char **options_first(int argc, char **argv)
{
	char **out = calloc((size_t)argc + 1, sizeof(*out));
	int n = 0;
	bool rest = false;

	if (!out)
		return NULL;
	out[n++] = argv[0];
	for (int i = 1; i < argc; i++) {
		if (rest || argv[i][0] != '-' || !argv[i][1]) {
			continue;
		}
		if (!strcmp(argv[i], "--")) {
			rest = true;
			continue;
		}
		out[n++] = argv[i];
		if (!strncmp(argv[i], "--", 2) && takes_arg(argv[i]) &&
		    i + 1 < argc)
			out[n++] = argv[++i];
	}
	rest = false;
	for (int i = 1; i < argc; i++) {
		if (!rest && !strcmp(argv[i], "--")) {
			rest = true;
		} else if (rest || argv[i][0] != '-' || !argv[i][1]) {
			out[n++] = argv[i];
		} else if (!strncmp(argv[i], "--", 2) && takes_arg(argv[i])) {
			i++;
		}
	}
	return out;
}

int report_main(int argc, char **argv)
{
	struct report_opts o = { 0 };
	struct cli_common c;
	struct report r;
	char **args;
	int first, ret;

	default_params(&o.params);
	args = options_first(argc, argv);
	if (!args)
		return IBP_EXIT_RUNTIME;
	argc = 0;
	while (args[argc])
		argc++;
	first = cli_parse(&report_cmd, argc, args, &c, report_opt, &o);
	if (first < 0) {
		free(args);
		return cli_parse_exit(first);
	}
	if (first >= argc) {
		free(args);
		cli_usage_error(&report_cmd, "no record files given");
		return IBP_EXIT_USAGE;
	}
	if (report_init(&r)) {
		log_error("report: out of memory");
		free(args);
		return IBP_EXIT_RUNTIME;
	}
	r.params = o.params;
	r.params.timeout_s = c.timeout_s;
	ret = run_report(&r, &o, &c, args + first, argc - first);
	report_fini(&r);
	free(args);
	return ret;
}
