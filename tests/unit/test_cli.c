// SPDX-License-Identifier: MIT
/* Shared option table: parsing, errors, and --help made from the table. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "common/cli.h"

enum { KEY_SPEC = CLI_KEY_COMMAND_FIRST, KEY_DRY_RUN = 'n' };

static const struct cli_cmd cmd = {
	.name = "fabric check",
	.synopsis = "[OPTIONS] --spec FILE",
	.description = "Checks cabling.\n",
	.opts =
		(const struct cli_opt[]){
			{ "spec", KEY_SPEC, "FILE", "the cabling spec" },
			{ "dry-run", KEY_DRY_RUN, NULL, "touch nothing" },
			{ NULL },
		},
	.common = CLI_COMMON_RECORDS | CLI_COMMON_TIMEOUT | CLI_COMMON_PORT,
};

struct seen {
	const char *spec;
	int dry_run;
};

static int on_opt(void *ctx, int key, const char *arg)
{
	struct seen *s = ctx;

	if (key == KEY_SPEC)
		s->spec = arg;
	else if (key == KEY_DRY_RUN)
		s->dry_run = 1;
	else
		return -EINVAL;
	return 0;
}

static int parse(int argc, char **argv, struct cli_common *c, struct seen *s)
{
	memset(s, 0, sizeof(*s));
	return cli_parse(&cmd, argc, argv, c, on_opt, s);
}

static void test_own_and_shared_options(void **state)
{
	char *argv[] = { "check",     "--spec", "cables.csv", "-n",
			 "--records", "-",	"--timeout",  "2.5",
			 "--port",    "3",	"extra",      NULL };
	struct cli_common c;
	struct seen s;

	(void)state;
	assert_int_equal(10, parse(11, argv, &c, &s));
	assert_string_equal("cables.csv", s.spec);
	assert_int_equal(1, s.dry_run);
	assert_string_equal("-", c.records);
	assert_true(c.timeout_s > 2.49 && c.timeout_s < 2.51);
	assert_int_equal(3, c.port);
}

static void test_rejects_unknown_and_disabled_options(void **state)
{
	char *unknown[] = { "check", "--nosuch", NULL };
	char *not_enabled[] = { "check", "--ca", "mlx5_0", NULL };
	struct cli_common c;
	struct seen s;

	(void)state;
	assert_int_equal(CLI_PARSE_ERROR, parse(2, unknown, &c, &s));
	assert_int_equal(CLI_PARSE_ERROR, parse(3, not_enabled, &c, &s));
	assert_int_equal(IBP_EXIT_USAGE, cli_parse_exit(CLI_PARSE_ERROR));
}

static void test_rejects_bad_numbers(void **state)
{
	char *bad_timeout[] = { "check", "--timeout", "soon", NULL };
	char *bad_port[] = { "check", "--port", "0", NULL };
	char *trailing[] = { "check", "--port", "2x", NULL };
	struct cli_common c;
	struct seen s;

	(void)state;
	assert_int_equal(CLI_PARSE_ERROR, parse(3, bad_timeout, &c, &s));
	assert_int_equal(CLI_PARSE_ERROR, parse(3, bad_port, &c, &s));
	assert_int_equal(CLI_PARSE_ERROR, parse(3, trailing, &c, &s));
}

static void test_list_has_whole_entries_only(void **state)
{
	(void)state;
	assert_true(cli_list_has("ports,cables", "cables"));
	assert_true(cli_list_has("ports,cables", "ports"));
	assert_true(cli_list_has("node1", "node1"));
	/* a prefix or a longer name is another entry */
	assert_false(cli_list_has("node10,node2", "node1"));
	assert_false(cli_list_has("node1", "node10"));
	assert_false(cli_list_has("", "node1"));
	assert_false(cli_list_has(NULL, "node1"));
	assert_true(cli_list_has("a,,b", "b"));
}

static void test_help_comes_from_the_table(void **state)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	(void)state;
	cli_usage(f, &cmd);
	fclose(f);
	assert_non_null(strstr(
		buf, "Usage: ibproof fabric check [OPTIONS] --spec FILE"));
	assert_non_null(strstr(buf, "--spec FILE"));
	assert_non_null(strstr(buf, "-n, --dry-run"));
	assert_non_null(strstr(buf, "--records FILE"));
	assert_non_null(strstr(buf, "--timeout SECONDS"));
	assert_null(
		strstr(buf, "--ca NAME")); /* not enabled for this command */
	assert_non_null(strstr(buf, "3  could not test"));
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_own_and_shared_options),
		cmocka_unit_test(test_rejects_unknown_and_disabled_options),
		cmocka_unit_test(test_rejects_bad_numbers),
		cmocka_unit_test(test_list_has_whole_entries_only),
		cmocka_unit_test(test_help_comes_from_the_table),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
