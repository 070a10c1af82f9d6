// SPDX-License-Identifier: MIT
/* probe_run: output capture, exit codes, and the hard timeout. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "node/probe.h"

static double elapsed_since(const struct timespec *t0)
{
	struct timespec t1;

	clock_gettime(CLOCK_MONOTONIC, &t1);
	return (double)(t1.tv_sec - t0->tv_sec) +
	       (double)(t1.tv_nsec - t0->tv_nsec) / 1e9;
}

static void test_captures_output_and_status(void **state)
{
	char *argv[] = { "sh", "-c", "echo hello; exit 3", NULL };
	struct probe_result res;

	(void)state;
	assert_int_equal(0, probe_run(argv, 5, &res));
	assert_string_equal("hello\n", res.output);
	assert_int_equal(3, res.exit_status);
	assert_int_equal(0, res.timed_out);
}

/* Runs argv with a 0.3 s deadline and expects it killed well in time. */
static void expect_killed(char *const argv[])
{
	struct probe_result res;
	struct timespec t0;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	assert_int_equal(0, probe_run(argv, 0.3, &res));
	assert_int_equal(1, res.timed_out);
	assert_true(elapsed_since(&t0) < 5);
}

static void test_kills_a_hung_program(void **state)
{
	char *argv[] = { "sleep", "30", NULL };

	(void)state;
	expect_killed(argv);
}

/* A program that closes stdout and then hangs is still bounded. */
static void test_kills_a_hung_program_without_stdout(void **state)
{
	char *argv[] = { "sh", "-c", "exec >&-; sleep 30", NULL };

	(void)state;
	expect_killed(argv);
}

/* Grandchildren in the group die with it (a hung `df` under a wrapper). */
static void test_kills_the_process_group(void **state)
{
	char *argv[] = { "sh", "-c", "sleep 30 & wait", NULL };

	(void)state;
	expect_killed(argv);
}

static void test_missing_program(void **state)
{
	char *argv[] = { "/nonexistent/program", NULL };
	struct probe_result res;

	(void)state;
	assert_int_equal(0, probe_run(argv, 5, &res));
	assert_int_equal(127, res.exit_status);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_captures_output_and_status),
		cmocka_unit_test(test_kills_a_hung_program),
		cmocka_unit_test(test_kills_a_hung_program_without_stdout),
		cmocka_unit_test(test_kills_the_process_group),
		cmocka_unit_test(test_missing_program),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
