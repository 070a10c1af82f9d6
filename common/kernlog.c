// SPDX-License-Identifier: MIT
/*
 * The one bounded kernel log reader (kernlog.h): /dev/kmsg records or saved
 * text, read non-blocking with poll() so that nothing stalls it, one line
 * at a time in a buffer of KERNLOG_LINE_MAX bytes.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "common/clock.h"
#include "common/kernlog.h"

#define KERNLOG_DEFAULT_TIMEOUT_S 10.0
#define KERNLOG_DEFAULT_MAX_LINES 1000000L

struct reader {
	const char *path;
	int fd;
	bool kmsg;
	double deadline;
	char *buf; /* KERNLOG_LINE_MAX + 1 */
	size_t len; /* bytes held */
	bool eof;
	char *err;
	size_t errlen;
};

const char *kernlog_format_name(enum kernlog_format f)
{
	static const char *const names[] = {
		[KERNLOG_PLAIN] = "plain text",
		[KERNLOG_KMSG] = "/dev/kmsg records",
		[KERNLOG_MONO] = "dmesg (seconds since boot)",
		[KERNLOG_CTIME] = "dmesg -T (local time)",
		[KERNLOG_ISO] = ("ISO 8601 stamps (dmesg --time-format iso, "
				 "journalctl -o short-iso)"),
		[KERNLOG_SYSLOG] = "journalctl -k / syslog (local time)",
	};

	return f <= KERNLOG_SYSLOG ? names[f] : "unknown";
}

static int say(struct reader *r, int ret, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int say(struct reader *r, int ret, const char *fmt, ...)
{
	va_list ap;

	if (r->err && r->errlen) {
		va_start(ap, fmt);
		vsnprintf(r->err, r->errlen, fmt, ap);
		va_end(ap);
	}
	return ret;
}

/* ---- stamps ---- */

static bool digits(const char *s, int n)
{
	for (int i = 0; i < n; i++)
		if (s[i] < '0' || s[i] > '9')
			return false;
	return true;
}

/* "[  123.456789] " -> seconds; returns the text after it or NULL. */
static char *mono_stamp(char *s, double *mono)
{
	char *p = s + 1, *end;
	double v;

	if (s[0] != '[')
		return NULL;
	while (*p == ' ')
		p++;
	if (*p < '0' || *p > '9')
		return NULL;
	errno = 0;
	v = strtod(p, &end);
	if (errno || end == p || *end != ']')
		return NULL;
	*mono = v;
	end++;
	return *end == ' ' ? end + 1 : end;
}

/* "[Thu Dec  3 04:16:33 2026] " (local time) */
static char *ctime_stamp(char *s, double *t)
{
	struct tm tm = { 0 };
	char *end;

	if (s[0] != '[' || strlen(s) < 26)
		return NULL;
	end = strptime(s + 1, "%a %b %e %H:%M:%S %Y", &tm);
	if (!end || *end != ']')
		return NULL;
	tm.tm_isdst = -1;
	*t = (double)mktime(&tm);
	end++;
	return *end == ' ' ? end + 1 : end;
}

/* "+01:00", "+0100", "Z" -> seconds east of UTC */
static char *tz_offset(char *p, long *off)
{
	int sign;

	if (*p == 'Z') {
		*off = 0;
		return p + 1;
	}
	if (*p != '+' && *p != '-')
		return NULL;
	sign = *p == '-' ? -1 : 1;
	if (!digits(p + 1, 2))
		return NULL;
	*off = ((p[1] - '0') * 10 + (p[2] - '0')) * 3600L;
	p += 3;
	if (*p == ':')
		p++;
	if (digits(p, 2)) {
		*off += ((p[0] - '0') * 10 + (p[1] - '0')) * 60L;
		p += 2;
	}
	*off *= sign;
	return p;
}

/* "2026-12-03T04:16:33,123456+00:00 " */
static char *iso_stamp(char *s, double *t)
{
	struct tm tm = { 0 };
	double frac = 0;
	char *p;
	long off;

	/* s may end before byte 10 (fuzz_kernlog): test its length first */
	if (strnlen(s, 11) < 11 || !digits(s, 4) || s[4] != '-' || s[10] != 'T')
		return NULL;
	p = strptime(s, "%Y-%m-%dT%H:%M:%S", &tm);
	if (!p)
		return NULL;
	if (*p == ',' || *p == '.') {
		double scale = 0.1;

		for (p++; *p >= '0' && *p <= '9'; p++, scale /= 10)
			frac += (*p - '0') * scale;
	}
	p = tz_offset(p, &off);
	if (!p || (*p != ' ' && *p))
		return NULL;
	*t = (double)timegm(&tm) - (double)off + frac;
	return *p ? p + 1 : p;
}

/* "Dec  3 04:16:33 " with the year that puts it at most a day after now */
static char *syslog_stamp(char *s, double now, double *t)
{
	struct tm tm = { 0 }, nowtm;
	time_t n = (time_t)now;
	char *p;

	if (strlen(s) < 16 || s[3] != ' ' || s[6] != ' ' || s[9] != ':')
		return NULL;
	p = strptime(s, "%b %e %H:%M:%S", &tm);
	if (!p || *p != ' ')
		return NULL;
	localtime_r(&n, &nowtm);
	tm.tm_year = nowtm.tm_year;
	tm.tm_isdst = -1;
	*t = (double)mktime(&tm);
	if (*t > now + 86400) {
		tm.tm_year--;
		tm.tm_isdst = -1;
		*t = (double)mktime(&tm);
	}
	return p + 1;
}

/* After a syslog or journal stamp: "host kernel: " is dropped. */
static char *skip_host_kernel(char *p)
{
	char *sp = strchr(p, ' ');

	if (sp && !strncmp(sp + 1, "kernel: ", 8))
		return sp + 9;
	return p;
}

/* "6,1234,5678,-;text" */
static char *kmsg_header(char *s, double *mono)
{
	char *semi = strchr(s, ';'), *p;
	unsigned long long usec;

	if (!semi || strspn(s, "0123456789,-c") != (size_t)(semi - s))
		return NULL;
	p = strchr(s, ',');
	if (!p || !(p = strchr(p + 1, ',')))
		return NULL;
	usec = strtoull(p + 1, NULL, 10);
	*mono = (double)usec / 1e6;
	return semi + 1;
}

static void set_time_from_mono(struct kernlog_line *out,
			       const struct kernlog_opts *o)
{
	if (out->mono >= 0 && o->boot_time > 0)
		out->time = o->boot_time + out->mono;
}

void kernlog_parse_line(char *line, bool kmsg, const struct kernlog_opts *o,
			struct kernlog_line *out)
{
	double now = o->now > 0 ? o->now : (double)time(NULL);
	char *text;

	out->time = -1;
	out->mono = -1;
	out->format = KERNLOG_PLAIN;
	out->text = line;
	if (kmsg && (text = kmsg_header(line, &out->mono))) {
		out->format = KERNLOG_KMSG;
		out->text = text;
		set_time_from_mono(out, o);
		return;
	}
	if ((text = mono_stamp(line, &out->mono))) {
		out->format = KERNLOG_MONO;
		set_time_from_mono(out, o);
	} else if ((text = ctime_stamp(line, &out->time))) {
		out->format = KERNLOG_CTIME;
	} else if ((text = iso_stamp(line, &out->time))) {
		out->format = KERNLOG_ISO;
		text = skip_host_kernel(text);
	} else if ((text = syslog_stamp(line, now, &out->time))) {
		out->format = KERNLOG_SYSLOG;
		text = skip_host_kernel(text);
	} else {
		return;
	}
	if (out->format != KERNLOG_MONO) { /* "kernel: [  12.3] text" */
		char *inner = mono_stamp(text, &out->mono);

		if (inner)
			text = inner;
	}
	out->text = text;
}

/* ---- reading ---- */

/* Waits for input until the deadline: 1 ready, 0 end, -ETIMEDOUT. */
static int wait_input(struct reader *r)
{
	double left = r->deadline - clock_mono_now();
	struct pollfd p = { .fd = r->fd, .events = POLLIN };
	int n;

	if (left <= 0)
		return -ETIMEDOUT;
	n = poll(&p, 1, (int)(left * 1000) + 1);
	if (n < 0)
		return errno == EINTR ? 1 : -errno;
	if (n == 0)
		return -ETIMEDOUT;
	return 1;
}

/* Fills the buffer: > 0 bytes added, 0 end, -errno. */
static int fill(struct reader *r)
{
	for (;;) {
		ssize_t n = read(r->fd, r->buf + r->len,
				 KERNLOG_LINE_MAX + 1 - r->len);
		int w;

		if (n > 0) {
			r->len += (size_t)n;
			return (int)n;
		}
		if (n == 0)
			return 0;
		if (errno == EINTR)
			continue;
		if (errno == EPIPE && r->kmsg)
			continue; /* records overwritten while we read */
		if (errno != EAGAIN)
			return -errno;
		if (r->kmsg)
			return 0; /* /dev/kmsg: the end of the buffer */
		w = wait_input(r);
		if (w <= 0)
			return w;
	}
}

static int deliver(struct reader *r, char *line, long no,
		   const struct kernlog_opts *o, struct kernlog_result *res,
		   kernlog_fn fn, void *arg)
{
	struct kernlog_line l;
	size_t n = strlen(line);

	if (n && line[n - 1] == '\r')
		line[n - 1] = '\0';
	kernlog_parse_line(line, r->kmsg, o, &l);
	l.line = no;
	if (res->format == KERNLOG_PLAIN)
		res->format = l.format;
	return fn(arg, &l);
}

/* /dev/kmsg: one record per read(); continuation lines (" KEY=") dropped. */
static int read_kmsg(struct reader *r, const struct kernlog_opts *o,
		     long max_lines, struct kernlog_result *res, kernlog_fn fn,
		     void *arg)
{
	while (res->lines < max_lines) {
		int ret;
		char *nl;

		r->len = 0;
		ret = fill(r);
		if (ret <= 0)
			return ret;
		r->buf[r->len] = '\0';
		nl = strchr(r->buf, '\n');
		if (nl)
			*nl = '\0';
		res->lines++;
		ret = deliver(r, r->buf, res->lines, o, res, fn, arg);
		if (ret)
			return ret;
		if (clock_mono_now() > r->deadline)
			return -ETIMEDOUT;
	}
	res->cut = true;
	return 0;
}

static int take_text_line(struct reader *r, const struct kernlog_opts *o,
			  struct kernlog_result *res, kernlog_fn fn, void *arg,
			  size_t n)
{
	int ret;

	res->lines++;
	r->buf[n] = '\0';
	if (memchr(r->buf, '\0', n))
		return say(r, -EINVAL,
			   "%s:%ld: a NUL byte: expected kernel log text",
			   r->path, res->lines);
	ret = deliver(r, r->buf, res->lines, o, res, fn, arg);
	return ret;
}

static int read_text(struct reader *r, const struct kernlog_opts *o,
		     long max_lines, struct kernlog_result *res, kernlog_fn fn,
		     void *arg)
{
	size_t scanned = 0;

	while (res->lines < max_lines) {
		char *nl = memchr(r->buf + scanned, '\n', r->len - scanned);
		int ret;

		if (nl) {
			size_t n = (size_t)(nl - r->buf);

			ret = take_text_line(r, o, res, fn, arg, n);
			if (ret)
				return ret;
			memmove(r->buf, nl + 1, r->len - n - 1);
			r->len -= n + 1;
			scanned = 0;
			if ((res->lines & 255) == 0 &&
			    clock_mono_now() > r->deadline)
				return -ETIMEDOUT;
			continue;
		}
		scanned = r->len;
		if (r->len > KERNLOG_LINE_MAX)
			return say(r, -EINVAL,
				   "%s:%ld: line longer than %d bytes: "
				   "expected kernel log text",
				   r->path, res->lines + 1, KERNLOG_LINE_MAX);
		if (r->eof)
			return r->len ? take_text_line(r, o, res, fn, arg,
						       r->len)
				      : 0;
		ret = fill(r);
		if (ret < 0)
			return ret;
		r->eof = ret == 0;
	}
	res->cut = true;
	return 0;
}

/* The boot time of the running system, for /dev/kmsg stamps. */
static double running_boot_time(void)
{
	struct timespec real, boot;

	clock_gettime(CLOCK_REALTIME, &real);
	clock_gettime(CLOCK_BOOTTIME, &boot);
	return (double)(real.tv_sec - boot.tv_sec) +
	       (real.tv_nsec - boot.tv_nsec) / 1e9;
}

int kernlog_read(const char *path, const struct kernlog_opts *opts,
		 kernlog_fn fn, void *arg, struct kernlog_result *res,
		 char *err, size_t errlen)
{
	struct kernlog_opts o = *opts;
	struct kernlog_result local = { 0 };
	struct reader r = { .path = path, .err = err, .errlen = errlen };
	struct stat st;
	int ret;

	if (!res)
		res = &local;
	memset(res, 0, sizeof(*res));
	if (o.timeout_s <= 0)
		o.timeout_s = KERNLOG_DEFAULT_TIMEOUT_S;
	if (o.max_lines <= 0)
		o.max_lines = KERNLOG_DEFAULT_MAX_LINES;
	r.deadline = clock_mono_now() + o.timeout_s;
	r.fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (r.fd < 0)
		return say(&r, -errno, "%s: cannot read: %s", path,
			   strerror(errno));
	if (fstat(r.fd, &st) || S_ISDIR(st.st_mode)) {
		ret = S_ISDIR(st.st_mode) ? -EISDIR : -errno;
		close(r.fd);
		return say(&r, ret, "%s: cannot read: %s", path,
			   strerror(-ret));
	}
	r.kmsg = S_ISCHR(st.st_mode);
	if (r.kmsg && o.boot_time <= 0)
		o.boot_time = running_boot_time();
	r.buf = malloc(KERNLOG_LINE_MAX + 2);
	if (!r.buf) {
		close(r.fd);
		return say(&r, -ENOMEM, "%s: out of memory", path);
	}
	ret = r.kmsg ? read_kmsg(&r, &o, o.max_lines, res, fn, arg)
		     : read_text(&r, &o, o.max_lines, res, fn, arg);
	if (ret == -ETIMEDOUT) {
		res->cut = true;
		say(&r, ret, "%s: read only partly (%.0f s limit)", path,
		    o.timeout_s);
	} else if (ret < 0 && ret != -EINVAL) {
		say(&r, ret, "%s: read error: %s", path, strerror(-ret));
	}
	free(r.buf);
	close(r.fd);
	return ret;
}

/* ---- escaping ---- */

/* Length of a valid UTF-8 sequence at s (1-4), or 0. */
static int utf8_len(const unsigned char *s)
{
	int n, i;
	unsigned int cp;

	if (s[0] < 0x80)
		return 1;
	if ((s[0] & 0xe0) == 0xc0)
		n = 2, cp = s[0] & 0x1f;
	else if ((s[0] & 0xf0) == 0xe0)
		n = 3, cp = s[0] & 0x0f;
	else if ((s[0] & 0xf8) == 0xf0)
		n = 4, cp = s[0] & 0x07;
	else
		return 0;
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if ((n == 2 && cp < 0x80) || (n == 3 && cp < 0x800) ||
	    (n == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
	    (cp >= 0xd800 && cp <= 0xdfff) || (cp >= 0x80 && cp < 0xa0))
		return 0;
	return n;
}

char *kernlog_escape(const char *s, char *buf, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t o = 0;

	if (!len)
		return buf;
	while (*p) {
		int n = utf8_len(p);

		if (n == 1 && (*p < 0x20 || *p == 0x7f))
			n = 0;
		if (n == 0) {
			if (o + 4 >= len)
				break;
			snprintf(buf + o, len - o, "\\x%02x", *p);
			o += 4;
			p++;
			continue;
		}
		if (o + (size_t)n >= len)
			break;
		memcpy(buf + o, p, (size_t)n);
		o += (size_t)n;
		p += n;
	}
	buf[o] = '\0';
	return buf;
}
