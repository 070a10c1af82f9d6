// SPDX-License-Identifier: MIT
/*
 * Fuzz target: the kernel-log reader (common/kernlog.c), every saved
 * format (dmesg, dmesg -T, ISO, journalctl -k) read from a file, and each
 * line again as a /dev/kmsg record. Oracles: a refused file is
 * "PATH:LINE: ..."; lines come numbered from 1 upwards, without their end;
 * times are finite or unknown (< 0); kernlog_escape() gives valid UTF-8
 * without C0 or C1 controls, within its buffer.
 */
#include <math.h>
#include <stdbool.h>

#include "common/kernlog.h"
#include "common/text.h"
#include "fuzz.h"

struct seen {
	long last;
	const struct kernlog_opts *o;
};

static void fail(const char *what, long line)
{
	fprintf(stderr, "oracle: line %ld: %s\n", line, what);
	abort();
}

static void check_escaped(const char *text, long line)
{
	char buf[256];
	size_t n;
	uint32_t cp;

	kernlog_escape(text, buf, sizeof(buf));
	n = strlen(buf);
	if (n >= sizeof(buf) || !text_is_utf8(buf, n))
		fail("escaped text is not UTF-8", line);
	for (size_t i = 0; i < n;) {
		size_t k = text_utf8_char(buf + i, n - i, &cp);

		if (!k || cp < 0x20 || (cp >= 0x7f && cp < 0xa0))
			fail("escaped text holds a control", line);
		i += k;
	}
}

static void check_line(const struct kernlog_line *l)
{
	if (!l->text || strchr(l->text, '\n'))
		fail("text holds its line end", l->line);
	if (!(l->time < 0 || isfinite(l->time)) ||
	    !(l->mono < 0 || isfinite(l->mono)))
		fail("time neither finite nor unknown", l->line);
	if (!kernlog_format_name(l->format))
		fail("format without a name", l->line);
	check_escaped(l->text, l->line);
}

static int each_line(void *arg, const struct kernlog_line *l)
{
	struct seen *s = arg;
	struct kernlog_line k;
	char *copy;

	if (l->line <= s->last)
		fail("line numbers do not go up", l->line);
	s->last = l->line;
	check_line(l);
	copy = strdup(l->text);
	if (!copy)
		abort();
	kernlog_parse_line(copy, true, s->o, &k); /* as a /dev/kmsg record */
	k.line = l->line;
	check_line(&k);
	free(copy);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct kernlog_opts o = { .timeout_s = 5,
					.max_lines = 100000,
					.boot_time = 1796256000.0,
					.now = 1796299200.0 };
	const char *path = fuzz_file(data, size);
	struct seen s = { .last = 0, .o = &o };
	struct kernlog_result res;
	char err[512] = "";
	int rc = kernlog_read(path, &o, each_line, &s, &res, err, sizeof(err));

	if (rc == -EINVAL)
		fuzz_check_path_err(path, err);
	else if (rc) {
		fprintf(stderr, "oracle: rc %d: \"%s\"\n", rc, err);
		abort();
	}
	if (!rc && res.lines < s.last)
		fail("fewer lines counted than delivered", res.lines);
	return 0;
}
