// SPDX-License-Identifier: MIT
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "common/cli.h"
#include "common/log.h"
#include "common/text.h"

const char cli_exit_codes_help[] =
	"Exit status:\n"
	"  0  ran, and everything checked passed\n"
	"  1  ran, and found problems that fail acceptance, or INCOMPLETE:\n"
	"     something in its scope was not tested (named in the output)\n"
	"  2  usage or input error\n"
	"  3  could not test (runtime error, or not built yet)\n";

/* The shared options, each enabled by its CLI_COMMON_* bit (0: always). */
static const struct {
	unsigned int bit;
	struct cli_opt opt;
} common_opts[] = {
	{ CLI_COMMON_RECORDS,
	  { "records", CLI_KEY_RECORDS, "FILE",
	    "write JSON Lines records to FILE ('-' = stdout)" } },
	{ CLI_COMMON_JSON,
	  { "json", CLI_KEY_JSON, "FILE",
	    "write the result as one JSON document to FILE" } },
	{ CLI_COMMON_OUT,
	  { "out", CLI_KEY_OUT, "DIR", "write output files under DIR" } },
	{ CLI_COMMON_TIMEOUT,
	  { "timeout", CLI_KEY_TIMEOUT, "SECONDS",
	    "give up on any one operation after SECONDS" } },
	{ CLI_COMMON_CA,
	  { "ca", CLI_KEY_CA, "NAME",
	    "use only the HCA named NAME (e.g. mlx5_0)" } },
	{ CLI_COMMON_PORT,
	  { "port", CLI_KEY_PORT, "N", "use only port N of the HCA" } },
	{ CLI_COMMON_NODE_NAME_MAP,
	  { "node-name-map", CLI_KEY_NODE_NAME_MAP, "FILE",
	    "map node GUIDs to names (rdma-core format)" } },
	{ 0,
	  { "verbose", CLI_KEY_VERBOSE, NULL,
	    "more messages on stderr (twice: debug)" } },
	{ 0, { "help", CLI_KEY_HELP, NULL, "show this help and exit" } },
	{ 0,
	  { "man", CLI_KEY_MAN, NULL,
	    "print this help as a man page and exit" } },
};

#define N_COMMON (sizeof(common_opts) / sizeof(common_opts[0]))
#define MAX_OPTS 64

static size_t count_opts(const struct cli_opt *opts)
{
	size_t n = 0;

	while (opts && opts[n].name)
		n++;
	return n;
}

static void add_getopt(struct option *lo, char *shorts, const struct cli_opt *o)
{
	lo->name = o->name;
	lo->has_arg = o->arg ? required_argument : no_argument;
	lo->flag = NULL;
	lo->val = o->key;
	if (o->key > 0 && o->key < CLI_KEY_FIRST) {
		size_t len = strlen(shorts);

		shorts[len++] = (char)o->key;
		if (o->arg)
			shorts[len++] = ':';
		shorts[len] = '\0';
	}
}

/* Builds the getopt_long tables; returns the number of long options. */
static size_t build_getopt(const struct cli_cmd *cmd, struct option *lo,
			   char *shorts)
{
	size_t n = 0, own = count_opts(cmd->opts);
	size_t shared = count_opts(cmd->shared_opts);

	shorts[0] = '+'; /* stop at the first positional argument */
	shorts[1] = '\0';
	for (size_t i = 0; i < own && n < MAX_OPTS - 1; i++)
		add_getopt(&lo[n++], shorts, &cmd->opts[i]);
	for (size_t i = 0; i < shared && n < MAX_OPTS - 1; i++)
		add_getopt(&lo[n++], shorts, &cmd->shared_opts[i]);
	for (size_t i = 0; i < N_COMMON && n < MAX_OPTS - 1; i++)
		if (!common_opts[i].bit || (cmd->common & common_opts[i].bit))
			add_getopt(&lo[n++], shorts, &common_opts[i].opt);
	memset(&lo[n], 0, sizeof(lo[n]));
	return n;
}

static int set_common(const struct cli_cmd *cmd, struct cli_common *c, int key,
		      const char *arg)
{
	long port;

	switch (key) {
	case CLI_KEY_RECORDS:
		c->records = arg;
		return 0;
	case CLI_KEY_JSON:
		c->json = arg;
		return 0;
	case CLI_KEY_OUT:
		c->out = arg;
		return 0;
	case CLI_KEY_CA:
		c->ca = arg;
		return 0;
	case CLI_KEY_NODE_NAME_MAP:
		c->node_name_map = arg;
		return 0;
	case CLI_KEY_TIMEOUT:
		return cli_parse_double(cmd, "--timeout", arg, 0.001, 1e7,
					&c->timeout_s);
	case CLI_KEY_PORT:
		if (cli_parse_long(cmd, "--port", arg, 1, 254, &port))
			return -EINVAL;
		c->port = (int)port;
		return 0;
	case CLI_KEY_VERBOSE:
		c->verbose++;
		log_set_level(c->verbose > 1 ? LOG_LEVEL_DEBUG
					     : LOG_LEVEL_INFO);
		return 0;
	}
	return 1; /* not a shared option */
}

int cli_parse(const struct cli_cmd *cmd, int argc, char **argv,
	      struct cli_common *common, cli_opt_fn fn, void *ctx)
{
	struct option lo[MAX_OPTS];
	char shorts[2 * MAX_OPTS + 2];
	struct cli_common unused;
	int key, ret;

	if (!common)
		common = &unused;
	memset(common, 0, sizeof(*common));
	build_getopt(cmd, lo, shorts);
	optind = 1;
	opterr = 0;
	while ((key = getopt_long(argc, argv, shorts, lo, NULL)) != -1) {
		if (key == CLI_KEY_HELP || key == CLI_KEY_MAN) {
			(key == CLI_KEY_MAN ? cli_man : cli_usage)(stdout, cmd);
			return CLI_PARSE_HELP;
		}
		if (key == '?' || key == ':') {
			cli_usage_error(
				cmd, "unknown option or missing argument: '%s'",
				argv[optind - 1]);
			return CLI_PARSE_ERROR;
		}
		ret = set_common(cmd, common, key, optarg);
		if (ret == 1)
			ret = fn ? fn(ctx, key, optarg) : -EINVAL;
		if (ret)
			return CLI_PARSE_ERROR;
	}
	return optind;
}

int cli_parse_exit(int parse_result)
{
	return parse_result == CLI_PARSE_HELP ? IBP_EXIT_PASS : IBP_EXIT_USAGE;
}

static void print_opt(FILE *f, const struct cli_opt *o)
{
	char left[64];
	int n;

	if (!o->help)
		return;
	if (o->key > 0 && o->key < CLI_KEY_FIRST)
		n = snprintf(left, sizeof(left), "  -%c, --%s", o->key,
			     o->name);
	else
		n = snprintf(left, sizeof(left), "      --%s", o->name);
	if (o->arg && n > 0 && (size_t)n < sizeof(left))
		snprintf(left + n, sizeof(left) - (size_t)n, " %s", o->arg);
	/* two blanks at least: scripts/gen-docs splits option from text there */
	fprintf(f, "%-31s  %s\n", left, o->help);
}

void cli_usage(FILE *f, const struct cli_cmd *cmd)
{
	fprintf(f, "Usage: ibproof %s %s\n\n", cmd->name, cmd->synopsis);
	if (cmd->description)
		fprintf(f, "%s\n", cmd->description);
	fprintf(f, "Options:\n");
	for (size_t i = 0; i < count_opts(cmd->opts); i++)
		print_opt(f, &cmd->opts[i]);
	for (size_t i = 0; i < count_opts(cmd->shared_opts); i++)
		print_opt(f, &cmd->shared_opts[i]);
	for (size_t i = 0; i < N_COMMON; i++)
		if (!common_opts[i].bit || (cmd->common & common_opts[i].bit))
			print_opt(f, &common_opts[i].opt);
	fprintf(f, "\n%s", cli_exit_codes_help);
}

int cli_usage_error(const struct cli_cmd *cmd, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "ibproof %s: ", cmd->name);
	va_start(ap, fmt);
	text_term_vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nTry 'ibproof %s --help'.\n", cmd->name);
	return -EINVAL;
}

int cli_parse_double(const struct cli_cmd *cmd, const char *opt,
		     const char *arg, double min, double max, double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(arg, &end);
	if (errno || end == arg || *end || !isfinite(v) || v < min || v > max)
		return cli_usage_error(
			cmd, "%s: expected a number from %g to %g, got '%s'",
			opt, min, max, arg);
	*out = v;
	return 0;
}

int cli_str_to_long(const char *s, long min, long max, long *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 0);
	if (end == s || *end)
		return -EINVAL;
	if (errno || v < min || v > max)
		return -ERANGE;
	*out = v;
	return 0;
}

int cli_parse_long(const struct cli_cmd *cmd, const char *opt, const char *arg,
		   long min, long max, long *out)
{
	if (cli_str_to_long(arg, min, max, out))
		return cli_usage_error(
			cmd,
			"%s: expected an integer from %ld to %ld, got '%s'",
			opt, min, max, arg);
	return 0;
}

/* Writes text for troff: backslashes escaped, no line starting a request. */
static void man_text(FILE *f, const char *text)
{
	bool line_start = true;

	for (const char *p = text; *p; p++) {
		if (line_start && (*p == '.' || *p == '\''))
			fputs("\\&", f);
		if (*p == '\\')
			fputs("\\e", f);
		else if (*p == '-')
			fputs("\\-", f);
		else
			fputc(*p, f);
		line_start = *p == '\n';
	}
}

static void man_opt(FILE *f, const struct cli_opt *o)
{
	if (!o->help)
		return;
	fputs(".TP\n.B ", f);
	if (o->key > 0 && o->key < CLI_KEY_FIRST)
		fprintf(f, "\\-%c, ", o->key);
	fputs("\\-\\-", f);
	man_text(f, o->name);
	if (o->arg) {
		fputs(" \\fI", f);
		man_text(f, o->arg);
		fputs("\\fR", f);
	}
	fputc('\n', f);
	man_text(f, o->help);
	fputc('\n', f);
}

void cli_man(FILE *f, const struct cli_cmd *cmd)
{
	fputs(".TH \"IBPROOF ", f);
	man_text(f, cmd->name);
	fprintf(f, "\" 1 \"\" \"ibproof %s\" \"ibproof manual\"\n",
		IBPROOF_VERSION);
	fputs(".SH NAME\nibproof ", f);
	man_text(f, cmd->name);
	fputs("\n.SH SYNOPSIS\n.B ibproof ", f);
	man_text(f, cmd->name);
	fputc(' ', f);
	man_text(f, cmd->synopsis);
	fputs("\n.SH DESCRIPTION\n", f);
	man_text(f, cmd->description ? cmd->description : "");
	fputs(".SH OPTIONS\n", f);
	for (size_t i = 0; i < count_opts(cmd->opts); i++)
		man_opt(f, &cmd->opts[i]);
	for (size_t i = 0; i < count_opts(cmd->shared_opts); i++)
		man_opt(f, &cmd->shared_opts[i]);
	for (size_t i = 0; i < N_COMMON; i++)
		if (!common_opts[i].bit || (cmd->common & common_opts[i].bit))
			man_opt(f, &common_opts[i].opt);
	fputs(".SH EXIT STATUS\n.nf\n", f);
	man_text(f, strchr(cli_exit_codes_help, '\n') + 1);
	fputs(".fi\n", f);
}

bool cli_list_has(const char *list, const char *item)
{
	size_t len = strlen(item);

	for (const char *p = list; p && *p;
	     p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL)
		if (!strncmp(p, item, len) && (p[len] == ',' || !p[len]))
			return true;
	return false;
}
