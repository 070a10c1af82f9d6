// SPDX-License-Identifier: MIT
/*
 * Fuzz target: the kernel-log reader (common/kernlog.c), every saved
 * format (dmesg, dmesg -T, ISO, journalctl -k) read from a file, and each
 * line again as a /dev/kmsg record; then the pattern table (every row of
 * node/klog_match.c) on each line and the judgement on the events. Oracles:
 * a refused file is "PATH:LINE: ..."; lines come numbered from 1 upwards,
 * without their end; times are finite or unknown (< 0); kernlog_escape()
 * gives valid UTF-8 without C0 or C1 controls, within its buffer; an event
 * names its row and what, its strings are escaped and end within their
 * fields, its port is 0..255; every event record and every finding
 * validates.
 */
#include <math.h>
#include <stdbool.h>

#include "common/kernlog.h"
#include "common/record.h"
#include "common/text.h"
#include "fuzz.h"
#include "node/klog.h"

#define FUZZ_KLOG_EVENTS 256

struct seen {
	long last;
	const struct kernlog_opts *o;
	struct klog_event ev[FUZZ_KLOG_EVENTS];
	int n;
};

static void fail(const char *what, long line)
{
	fprintf(stderr, "oracle: line %ld: %s\n", line, what);
	abort();
}

/* s: within len bytes, valid UTF-8 without C0 or C1 controls. */
static void check_safe(const char *s, size_t len, const char *what, long line)
{
	size_t n = strnlen(s, len);
	char msg[96];
	uint32_t cp;

	snprintf(msg, sizeof(msg), "%s is not ended, UTF-8 and control-free",
		 what);
	if (n == len || !text_is_utf8(s, n))
		fail(msg, line);
	for (size_t i = 0; i < n;) {
		size_t k = text_utf8_char(s + i, n - i, &cp);

		if (!k || cp < 0x20 || (cp >= 0x7f && cp < 0xa0))
			fail(msg, line);
		i += k;
	}
}

static void check_escaped(const char *text, long line)
{
	char buf[256];

	kernlog_escape(text, buf, sizeof(buf));
	check_safe(buf, sizeof(buf), "escaped text", line);
}

/* A field the matcher filled: within its buffer, escaped already. */
static void check_field(const char *f, size_t len, long line)
{
	check_safe(f, len, "event field", line);
}

static void check_event(const struct klog_event *ev, long line)
{
	char why[256];
	json_t *rec;

	if (!ev->what || !ev->pattern || ev->kind > KLOG_HUNG_TASK)
		fail("event without its row or what", line);
	if (ev->port < 0 || ev->port > 255 || ev->module < -1)
		fail("event port or module out of range", line);
	check_field(ev->device, sizeof(ev->device), line);
	check_field(ev->bdf, sizeof(ev->bdf), line);
	check_field(ev->peer, sizeof(ev->peer), line);
	check_field(ev->target, sizeof(ev->target), line);
	check_field(ev->process, sizeof(ev->process), line);
	check_field(ev->detail, sizeof(ev->detail), line);
	check_field(ev->text, sizeof(ev->text), line);
	rec = klog_event_record("node01", ev, NULL, "fuzz.log");
	if (record_validate(rec, why, sizeof(why))) {
		fprintf(stderr, "oracle: line %ld: event record: %s\n", line,
			why);
		abort();
	}
	json_decref(rec);
}

static void match_line(struct seen *s, const struct kernlog_line *l)
{
	struct klog_event ev;

	if (!klog_match(l, &ev))
		return;
	check_event(&ev, l->line);
	if (s->n < FUZZ_KLOG_EVENTS)
		s->ev[s->n++] = ev;
}

/* The judgement of what the file held: every finding validates. */
static void judge_events(const struct seen *s)
{
	const struct klog_params p = { .host = "node01",
				       .window_s = 86400,
				       .flap_fail = 5,
				       .now = s->o->now };
	json_t *findings = json_array(), *f;
	char why[256];
	size_t i;

	klog_judge(s->ev, s->n, &p, findings);
	json_array_foreach(findings, i, f)
	{
		if (record_validate(f, why, sizeof(why))) {
			fprintf(stderr, "oracle: finding: %s\n", why);
			abort();
		}
	}
	json_decref(findings);
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
	match_line(s, l);
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
	static struct seen s;
	struct kernlog_result res;
	char err[512] = "";
	int rc;

	s.last = 0;
	s.o = &o;
	s.n = 0;
	rc = kernlog_read(path, &o, each_line, &s, &res, err, sizeof(err));

	if (rc == -EINVAL)
		fuzz_check_path_err(path, err);
	else if (rc) {
		fprintf(stderr, "oracle: rc %d: \"%s\"\n", rc, err);
		abort();
	}
	if (!rc && res.lines < s.last)
		fail("fewer lines counted than delivered", res.lines);
	judge_events(&s);
	return 0;
}
