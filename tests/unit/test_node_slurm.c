// SPDX-License-Identifier: MIT
/*
 * Drain/resume: parsing of scontrol output, and the rule that ibproof
 * resumes only nodes it drained. scontrol is replaced on PATH by a script
 * that logs its argv and prints a `show node` answer from a file.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "node/slurm.h"

static char dir[] = "/tmp/ibproof-test-slurm-XXXXXX";
static char log_path[256], show_path[256];

static const char show_ours[] =
	"NodeName=gpu017 Arch=x86_64 CoresPerSocket=32\n"
	"   State=IDLE+DRAIN ThreadsPerCore=2\n"
	"   Reason=ibproof: FAIL mlx5_3 port 1 at 2x width [root@2026-12-02T15:00:00]\n";
static const char show_theirs[] =
	"NodeName=gpu017 Arch=x86_64\n   State=IDLE+DRAIN\n"
	"   Reason=bad DIMM, ticket 4711 [alice@2026-12-01T09:00:00]\n";
static const char show_idle[] =
	"NodeName=gpu017\n   State=IDLE ThreadsPerCore=2\n";

static void write_file(const char *path, const char *text, mode_t mode)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	chmod(path, mode);
}

static char *read_log(void)
{
	static char buf[4096];
	FILE *f = fopen(log_path, "r");
	size_t n = 0;

	buf[0] = '\0';
	if (f) {
		n = fread(buf, 1, sizeof(buf) - 1, f);
		fclose(f);
	}
	buf[n] = '\0';
	return buf;
}

static int setup(void **state)
{
	char script[1024], path[4096];

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(log_path, sizeof(log_path), "%s/argv.log", dir);
	snprintf(show_path, sizeof(show_path), "%s/show.txt", dir);
	snprintf(
		script, sizeof(script),
		"#!/bin/sh\nfor a in \"$@\"; do printf '<%%s>' \"$a\"; done >> '%s'\n"
		"echo >> '%s'\n[ \"$1\" = show ] && cat '%s'\nexit 0\n",
		log_path, log_path, show_path);
	snprintf(path, sizeof(path), "%s/scontrol", dir);
	write_file(path, script, 0755);
	snprintf(path, sizeof(path), "%s:%s", dir, getenv("PATH"));
	setenv("PATH", path, 1);
	return 0;
}

static int teardown(void **state)
{
	char cmd[512];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}

static void test_parse_reason_and_state(void **state)
{
	char reason[256];

	(void)state;
	assert_int_equal(0,
			 slurm_parse_reason(show_ours, reason, sizeof(reason)));
	assert_string_equal("ibproof: FAIL mlx5_3 port 1 at 2x width", reason);
	assert_true(slurm_parse_drained(show_ours));
	assert_false(slurm_parse_drained(show_idle));
	assert_int_equal(-ENOENT,
			 slurm_parse_reason(show_idle, reason, sizeof(reason)));
}

static void test_reason_is_marked_and_single_line(void **state)
{
	char reason[64];

	(void)state;
	slurm_make_reason("FAIL\nrm -rf /\t;x", reason, sizeof(reason));
	assert_string_equal("ibproof: FAIL rm -rf / ;x", reason);
}

static void test_drain_passes_reason_as_one_argument(void **state)
{
	(void)state;
	unlink(log_path);
	assert_int_equal(0, slurm_drain("gpu017", "FAIL $(reboot) \"x\"", 5));
	assert_string_equal("<update><NodeName=gpu017><State=DRAIN>"
			    "<Reason=ibproof: FAIL $(reboot) \"x\">\n",
			    read_log());
}

static void test_resumes_only_its_own_drain(void **state)
{
	bool resumed;

	(void)state;
	write_file(show_path, show_theirs, 0644);
	unlink(log_path);
	assert_int_equal(0, slurm_resume_if_ours("gpu017", 5, &resumed));
	assert_false(resumed);
	assert_string_equal("<show><node><gpu017>\n", read_log());

	write_file(show_path, show_ours, 0644);
	unlink(log_path);
	assert_int_equal(0, slurm_resume_if_ours("gpu017", 5, &resumed));
	assert_true(resumed);
	assert_string_equal("<show><node><gpu017>\n"
			    "<update><NodeName=gpu017><State=RESUME>\n",
			    read_log());

	write_file(show_path, show_idle, 0644);
	assert_int_equal(0, slurm_resume_if_ours("gpu017", 5, &resumed));
	assert_false(resumed);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_reason_and_state),
		cmocka_unit_test(test_reason_is_marked_and_single_line),
		cmocka_unit_test(test_drain_passes_reason_as_one_argument),
		cmocka_unit_test(test_resumes_only_its_own_drain),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
