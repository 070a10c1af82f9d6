// SPDX-License-Identifier: MIT
/*
 * common/kernlog.c: the formats (dmesg, dmesg -T, ISO, journalctl -k,
 * /dev/kmsg records), times in UTC, CRLF, non-UTF-8 bytes, a 10 MB line,
 * NUL bytes, the line budget, and a FIFO that never delivers (no writer, or
 * a writer that stalls): every read returns within its time budget.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "common/clock.h"
#include "common/kernlog.h"

struct seen {
	int n;
	char text[8][128];
	double time[8], mono[8];
	enum kernlog_format format[8];
	long line[8];
};

static int keep(void *arg, const struct kernlog_line *l)
{
	struct seen *s = arg;

	if (s->n < 8) {
		snprintf(s->text[s->n], sizeof(s->text[0]), "%s", l->text);
		s->time[s->n] = l->time;
		s->mono[s->n] = l->mono;
		s->format[s->n] = l->format;
		s->line[s->n] = l->line;
	}
	s->n++;
	return 0;
}

static double utc(int y, int mo, int d, int h, int mi, int s)
{
	struct tm tm = { .tm_year = y - 1900,
			 .tm_mon = mo - 1,
			 .tm_mday = d,
			 .tm_hour = h,
			 .tm_min = mi,
			 .tm_sec = s };

	return (double)timegm(&tm);
}

static void parse(const char *in, const struct kernlog_opts *o,
		  struct kernlog_line *l, char *buf, size_t len)
{
	snprintf(buf, len, "%s", in);
	kernlog_parse_line(buf, false, o, l);
}

static void test_formats(void **state)
{
	struct kernlog_opts o = { .now = utc(2026, 12, 3, 12, 0, 0),
				  .boot_time = utc(2026, 12, 3, 0, 0, 0) };
	struct kernlog_line l;
	char buf[256];

	(void)state;
	parse("[  812.402113] infiniband rxe0: set down", &o, &l, buf,
	      sizeof(buf));
	assert_int_equal(l.format, KERNLOG_MONO);
	assert_string_equal(l.text, "infiniband rxe0: set down");
	assert_true(l.mono > 812.40 && l.mono < 812.41);
	assert_true(l.time > o.boot_time + 812 && l.time < o.boot_time + 813);

	parse("[Thu Dec  3 04:16:33 2026] Lustre: x", &o, &l, buf, sizeof(buf));
	assert_int_equal(l.format, KERNLOG_CTIME);
	assert_string_equal(l.text, "Lustre: x");
	assert_true(l.time == utc(2026, 12, 3, 4, 16, 33)); /* TZ=UTC */

	parse("2026-12-03T05:16:33,500000+01:00 mlx5_core 0000:c1:00.0: y", &o,
	      &l, buf, sizeof(buf));
	assert_int_equal(l.format, KERNLOG_ISO);
	assert_string_equal(l.text, "mlx5_core 0000:c1:00.0: y");
	assert_true(l.time == utc(2026, 12, 3, 4, 16, 33) + 0.5);

	parse("2026-12-03T04:16:33+0000 gpu017 kernel: LNetError: z", &o, &l,
	      buf, sizeof(buf));
	assert_int_equal(l.format, KERNLOG_ISO);
	assert_string_equal(l.text, "LNetError: z");

	parse("Dec 03 04:16:33 gpu017 kernel: INFO: task a:1 blocked", &o, &l,
	      buf, sizeof(buf));
	assert_int_equal(l.format, KERNLOG_SYSLOG);
	assert_string_equal(l.text, "INFO: task a:1 blocked");
	assert_true(l.time == utc(2026, 12, 3, 4, 16, 33));

	/* a December stamp read in January is last year's */
	o.now = utc(2027, 1, 2, 0, 0, 0);
	parse("Dec 31 23:59:59 h kernel: [ 5.5] late", &o, &l, buf,
	      sizeof(buf));
	assert_true(l.time == utc(2026, 12, 31, 23, 59, 59));
	assert_string_equal(l.text, "late");
	assert_true(l.mono == 5.5);

	snprintf(buf, sizeof(buf),
		 "6,1234,5678000,-;infiniband rxe0: set "
		 "active");
	kernlog_parse_line(buf, true, &o, &l);
	assert_int_equal(l.format, KERNLOG_KMSG);
	assert_string_equal(l.text, "infiniband rxe0: set active");
	assert_true(l.mono == 5.678);

	parse("-- Boot 1c2d --", &o, &l, buf, sizeof(buf));
	assert_int_equal(l.format, KERNLOG_PLAIN);
	assert_true(l.time < 0 && l.mono < 0);
}

static char *tmp_file(const char *data, size_t len)
{
	char *path = strdup("/tmp/test-kernlog-XXXXXX");
	int fd = mkstemp(path);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, data, len), (ssize_t)len);
	close(fd);
	return path;
}

static void test_crlf_and_bytes(void **state)
{
	static const char data[] =
		"[    1.000000] mlx5_core 0000:c1:00.0 ens\xff\xfe: Link down\r\n"
		"[    2.000000] last line without end";
	struct kernlog_opts o = { .timeout_s = 5 };
	struct kernlog_result res;
	struct seen s = { 0 };
	char *path = tmp_file(data, sizeof(data) - 1), esc[128];
	int ret = kernlog_read(path, &o, keep, &s, &res, NULL, 0);

	(void)state;
	assert_int_equal(ret, 0);
	assert_int_equal(s.n, 2);
	assert_int_equal(res.lines, 2);
	assert_int_equal(res.format, KERNLOG_MONO);
	assert_string_equal(s.text[0],
			    "mlx5_core 0000:c1:00.0 ens\xff\xfe: Link down");
	assert_string_equal(s.text[1], "last line without end");
	kernlog_escape(s.text[0], esc, sizeof(esc));
	assert_string_equal(esc, "mlx5_core 0000:c1:00.0 ens\\xff\\xfe: Link "
				 "down");
	kernlog_escape("caf\xc3\xa9 \x1b[31m \xc2\x9b", esc, sizeof(esc));
	assert_string_equal(esc, "caf\xc3\xa9 \\x1b[31m \\xc2\\x9b");
	unlink(path);
	free(path);
}

static void test_long_line_and_nul(void **state)
{
	size_t big = 10u << 20;
	char *data = malloc(big + 64), *path;
	struct kernlog_opts o = { .timeout_s = 20 };
	struct seen s = { 0 };
	char err[256];
	int ret;

	(void)state;
	assert_non_null(data);
	memcpy(data, "[ 1.0] ok\n", 10);
	memset(data + 10, 'x', big);
	memcpy(data + 10 + big, "\n", 1);
	path = tmp_file(data, big + 11);
	ret = kernlog_read(path, &o, keep, &s, NULL, err, sizeof(err));
	assert_int_equal(ret, -EINVAL);
	assert_int_equal(s.n, 1);
	assert_non_null(strstr(err, ":2: line longer than 65536 bytes"));
	unlink(path);
	free(path);

	s.n = 0;
	path = tmp_file("[ 1.0] a\nb\0c\n", 13);
	ret = kernlog_read(path, &o, keep, &s, NULL, err, sizeof(err));
	assert_int_equal(ret, -EINVAL);
	assert_non_null(strstr(err, ":2: a NUL byte"));
	unlink(path);
	free(path);
	free(data);
}

static void test_line_budget(void **state)
{
	struct kernlog_opts o = { .timeout_s = 5, .max_lines = 3 };
	struct kernlog_result res;
	struct seen s = { 0 };
	char *path = tmp_file("a\nb\nc\nd\ne\n", 10);

	(void)state;
	assert_int_equal(kernlog_read(path, &o, keep, &s, &res, NULL, 0), 0);
	assert_int_equal(s.n, 3);
	assert_true(res.cut);
	unlink(path);
	free(path);
}

static char *make_fifo(void)
{
	char *dir = strdup("/tmp/test-kernlog-fifo-XXXXXX"), *path;

	assert_non_null(mkdtemp(dir));
	assert_true(asprintf(&path, "%s/log", dir) > 0);
	assert_int_equal(mkfifo(path, 0600), 0);
	free(dir);
	return path;
}

static void drop_fifo(char *path)
{
	unlink(path);
	*strrchr(path, '/') = '\0';
	rmdir(path);
	free(path);
}

/* A FIFO nobody writes: the read ends at once or at the budget. */
static void test_fifo_no_writer(void **state)
{
	struct kernlog_opts o = { .timeout_s = 1 };
	struct seen s = { 0 };
	char *path = make_fifo(), err[256];
	double t0 = clock_mono_now();
	int ret = kernlog_read(path, &o, keep, &s, NULL, err, sizeof(err));

	(void)state;
	assert_true(ret == 0 || ret == -ETIMEDOUT);
	assert_true(clock_mono_now() - t0 < 3);
	drop_fifo(path);
}

/* A writer that wrote one line and stalls: that line, then -ETIMEDOUT. */
static void test_fifo_stalled_writer(void **state)
{
	struct kernlog_opts o = { .timeout_s = 1 };
	struct seen s = { 0 };
	char *path = make_fifo(), err[256];
	int w = open(path, O_RDWR | O_NONBLOCK);
	double t0, dt;
	int ret;

	(void)state;
	assert_true(w >= 0);
	assert_int_equal(write(w, "[ 1.0] one\n[ 2.0] half", 22), 22);
	t0 = clock_mono_now();
	ret = kernlog_read(path, &o, keep, &s, NULL, err, sizeof(err));
	dt = clock_mono_now() - t0;
	assert_int_equal(ret, -ETIMEDOUT);
	assert_int_equal(s.n, 1);
	assert_string_equal(s.text[0], "one");
	assert_true(dt >= 0.9 && dt < 3);
	assert_non_null(strstr(err, "read only partly"));
	close(w);
	drop_fifo(path);
}

static void test_not_readable(void **state)
{
	struct kernlog_opts o = { 0 };
	char err[256];

	(void)state;
	assert_int_equal(kernlog_read("/nonexistent/kmsg", &o, keep, NULL, NULL,
				      err, sizeof(err)),
			 -ENOENT);
	assert_non_null(strstr(err, "/nonexistent/kmsg: cannot read"));
	assert_int_equal(
		kernlog_read("/tmp", &o, keep, NULL, NULL, err, sizeof(err)),
		-EISDIR);
}

/*
 * Found by fuzz_kernlog: a line shorter than an ISO stamp that starts like
 * one ("2026-1") was read past its end (s[10]). The line ends just before
 * a page that cannot be read: the overread faults.
 */
static void test_iso_prefix_at_line_end(void **state)
{
	static const char *const lines[] = { "2026-1", "2026-12-03", "" };
	struct kernlog_opts o = { .now = utc(2026, 12, 3, 12, 0, 0) };
	long page = sysconf(_SC_PAGESIZE);
	char *map = mmap(NULL, 2 * (size_t)page, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	struct kernlog_line l;

	(void)state;
	assert_true(map != MAP_FAILED);
	assert_int_equal(0, mprotect(map + page, (size_t)page, PROT_NONE));
	for (int i = 0; i < 3; i++) {
		size_t n = strlen(lines[i]) + 1;
		char *line = map + page - n;

		memcpy(line, lines[i], n);
		kernlog_parse_line(line, false, &o, &l);
		assert_int_equal(KERNLOG_PLAIN, l.format);
		assert_string_equal(lines[i], l.text);
	}
	munmap(map, 2 * (size_t)page);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_formats),
		cmocka_unit_test(test_crlf_and_bytes),
		cmocka_unit_test(test_long_line_and_nul),
		cmocka_unit_test(test_line_budget),
		cmocka_unit_test(test_fifo_no_writer),
		cmocka_unit_test(test_fifo_stalled_writer),
		cmocka_unit_test(test_not_readable),
		cmocka_unit_test(test_iso_prefix_at_line_end),
	};

	setenv("TZ", "UTC", 1);
	tzset();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
