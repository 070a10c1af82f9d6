// SPDX-License-Identifier: MIT
/* common/progress.c: the line a person sees on a terminal, nothing else. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "common/progress.h"

static char *drain(FILE *f)
{
	long n = ftell(f);
	char *s = calloc(1, (size_t)n + 1);

	rewind(f);
	assert_int_equal(n, (long)fread(s, 1, (size_t)n, f));
	return s;
}

static void test_line_bar_count_eta(void **state)
{
	struct progress p;
	FILE *f = tmpfile();
	char *s;

	(void)state;
	assert_non_null(f);
	progress_start_to(&p, "counters", "ports", 1000, f);
	p.last -= 1; /* a redraw is due */
	p.start -= 10; /* 10 s for the first 250: 30 s to go */
	progress_add(&p, 250);
	progress_add(&p, 1); /* within a fifth of a second: not drawn */
	progress_end(&p);
	s = drain(f);
	assert_string_equal(
		"\r[#####...............] counters: 250/1000 ports, "
		"ETA 0m30s\033[K\r\033[K",
		s);
	free(s);
	fclose(f);
}

static void test_off_draws_nothing(void **state)
{
	struct progress p;

	(void)state;
	progress_start_to(&p, "report", "MiB read", 10, NULL);
	p.last -= 1;
	progress_add(&p, 5);
	assert_int_equal(5, p.done);
	progress_end(&p);
}

static void test_durations(void **state)
{
	char b[32];

	(void)state;
	progress_fmt_duration(3725, b, sizeof(b));
	assert_string_equal("1h02m", b);
	progress_fmt_duration(187, b, sizeof(b));
	assert_string_equal("3m07s", b);
	progress_fmt_duration(-4, b, sizeof(b));
	assert_string_equal("0m00s", b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_line_bar_count_eta),
		cmocka_unit_test(test_off_draws_nothing),
		cmocka_unit_test(test_durations),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
