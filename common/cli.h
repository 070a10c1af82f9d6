/* SPDX-License-Identifier: MIT */
#ifndef IBPROOF_COMMON_CLI_H
#define IBPROOF_COMMON_CLI_H

#include <stdbool.h>
#include <stdio.h>

/* Exit codes of every subcommand (documented in README and --help). */
enum ibp_exit {
	IBP_EXIT_PASS = 0, /* ran, and what it checked passed */
	IBP_EXIT_FAIL = 1, /* ran, and found problems that fail acceptance */
	IBP_EXIT_USAGE = 2, /* usage or input error */
	IBP_EXIT_RUNTIME = 3, /* could not test: runtime error, not built */
};

/*
 * One option of a command's table. key is a short option letter, or a value
 * >= CLI_KEY_FIRST for long-only options. arg is NULL for a flag, else the
 * name of its argument as shown in --help ("FILE"). help NULL hides the
 * option from --help and --man: an old spelling whose handler refuses it
 * and names the new one.
 */
struct cli_opt {
	const char *name;
	int key;
	const char *arg;
	const char *help;
};

/* Keys of the options every tool shares: same name, same meaning. */
enum cli_common_key {
	CLI_KEY_HELP = 'h',
	CLI_KEY_VERBOSE = 'v',
	CLI_KEY_FIRST = 256,
	CLI_KEY_RECORDS = CLI_KEY_FIRST,
	CLI_KEY_JSON,
	CLI_KEY_OUT,
	CLI_KEY_TIMEOUT,
	CLI_KEY_CA,
	CLI_KEY_PORT,
	CLI_KEY_NODE_NAME_MAP,
	CLI_KEY_MAN,
	CLI_KEY_JUDGE_FIRST = 384, /* judge/judge_options.h's, in order */
	CLI_KEY_COMMAND_FIRST = 512, /* commands number their own from here */
};

/* Which shared options a command takes, besides --help and -v. */
#define CLI_COMMON_RECORDS (1u << 0)
#define CLI_COMMON_JSON (1u << 1)
#define CLI_COMMON_OUT (1u << 2)
#define CLI_COMMON_TIMEOUT (1u << 3)
#define CLI_COMMON_CA (1u << 4)
#define CLI_COMMON_PORT (1u << 5)
#define CLI_COMMON_NODE_NAME_MAP (1u << 6)

struct cli_cmd {
	const char *name; /* "fabric check" */
	const char *synopsis; /* "[OPTIONS] --spec FILE" */
	const char *description; /* paragraphs shown by --help */
	const struct cli_opt *opts; /* own options, ended by { NULL } */
	/* options shared with other commands (judge_cli_opts), after its
	 * own in --help; NULL or ended by { NULL } */
	const struct cli_opt *shared_opts;
	unsigned int common; /* CLI_COMMON_* bits */
};

/* Values of the shared options after cli_parse(). */
struct cli_common {
	const char *records; /* --records FILE, "-" = stdout */
	const char *json; /* --json FILE */
	const char *out; /* --out DIR */
	double timeout_s; /* --timeout SECONDS, 0 = none */
	const char *ca; /* --ca NAME */
	int port; /* --port N, 0 = any */
	const char *node_name_map; /* --node-name-map FILE */
	int verbose;
};

/* Called for each of the command's own options; returns 0 or -EINVAL. */
typedef int (*cli_opt_fn)(void *ctx, int key, const char *arg);

#define CLI_PARSE_HELP (-1) /* --help was printed: exit IBP_EXIT_PASS */
#define CLI_PARSE_ERROR \
	(-2) /* a usage error was printed: exit IBP_EXIT_USAGE */

/*
 * Parses argv with getopt_long from the command's table plus the shared
 * options. Returns the index of the first positional argument, or
 * CLI_PARSE_HELP / CLI_PARSE_ERROR.
 */
int cli_parse(const struct cli_cmd *cmd, int argc, char **argv,
	      struct cli_common *common, cli_opt_fn fn, void *ctx);

/* Maps a cli_parse() result that is not an index to an exit code. */
int cli_parse_exit(int parse_result);

/* --help text, made from the same tables that cli_parse() reads. */
void cli_usage(FILE *f, const struct cli_cmd *cmd);
/* The same text as a man page (troff), printed by --man. */
void cli_man(FILE *f, const struct cli_cmd *cmd);

/* Prints "ibproof CMD: message" and a hint to --help; returns -EINVAL. */
int cli_usage_error(const struct cli_cmd *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Strict number parsing for option values: 0 or -EINVAL (with a message). */
int cli_parse_double(const struct cli_cmd *cmd, const char *opt,
		     const char *arg, double min, double max, double *out);
int cli_parse_long(const struct cli_cmd *cmd, const char *opt, const char *arg,
		   long min, long max, long *out);
/*
 * The whole of s as an integer (base 0: 10, 0x.. or 0..) from min to max:
 * 0, or -EINVAL when s is not one, -ERANGE when it is out of range. Prints
 * nothing; *out is set only on success. For programs without a cli_cmd.
 */
int cli_str_to_long(const char *s, long min, long max, long *out);

/* Whether item is one of the entries of the comma-separated list (an
 * option's value: --accept-untested, node:HOST,..., a port filter); a NULL
 * or empty list has none. */
bool cli_list_has(const char *list, const char *item);

/* The exit-code paragraph shared by every --help and the README. */
extern const char cli_exit_codes_help[];

#endif
