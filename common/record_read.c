// SPDX-License-Identifier: MIT
/*
 * record_read.c: the streaming reader of record files. It reads through a
 * buffer of its own (never getline(), whose buffer grows with the line), so
 * a line over RECORD_LINE_MAX is "FILE:LINE: ..." and memory stays bounded;
 * it opens without blocking and takes a regular file, or "-" (stdin, maybe a
 * pipe, read with poll() against the deadline).
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/clock.h"
#include "common/record.h"

#define CHUNK 65536

struct record_reader {
	int fd;
	bool is_pipe; /* stdin not a regular file: poll() before read() */
	bool eof;
	char *path;
	char *buf; /* buf[off, len): read, not yet returned */
	size_t cap, off, len;
	const char *line; /* the line last returned, not NUL-terminated */
	unsigned long lineno;
	off_t start; /* record_reader_open_range(): the byte range */
	off_t end; /* -1: to the end of the file */
	off_t pos; /* offset of the next line */
	bool base_pending; /* lines before start not counted yet */
	double deadline; /* clock_mono_now() seconds, 0: none */
	double timeout_s;
	char error[512];
};

/* A named file must be regular (a FIFO or a device would block or never
 * end); "-" is stdin, whatever it is. */
static int open_input(struct record_reader *r, const char *path)
{
	struct stat st;
	int fd;

	if (!strcmp(path, "-")) {
		r->fd = STDIN_FILENO;
		r->is_pipe = !fstat(r->fd, &st) && !S_ISREG(st.st_mode);
		return 0;
	}
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || fcntl(fd, F_SETFL, 0)) {
		int e = S_ISDIR(st.st_mode) ? EISDIR : EINVAL;

		close(fd);
		return -e;
	}
	r->fd = fd;
	return 0;
}

struct record_reader *record_reader_open(const char *path)
{
	struct record_reader *r = calloc(1, sizeof(*r));
	int ret = -ENOMEM;

	if (!r)
		goto err;
	r->fd = -1;
	r->end = -1;
	r->path = strdup(path);
	if (!r->path)
		goto err;
	ret = open_input(r, path);
	if (ret)
		goto err;
	return r;

err:
	record_reader_close(r);
	errno = -ret;
	return NULL;
}

void record_reader_set_deadline(struct record_reader *r, double deadline,
				double timeout_s)
{
	r->deadline = deadline;
	r->timeout_s = timeout_s;
}

/* Counts the lines before the range, only when a line number is needed. */
static void resolve_line_base(struct record_reader *r)
{
	char buf[65536];
	unsigned long lines = 0;
	off_t left = r->start;
	FILE *f;

	if (!r->base_pending)
		return;
	r->base_pending = false;
	f = fopen(r->path, "re");
	if (!f)
		return;
	while (left > 0) {
		size_t want =
			left < (off_t)sizeof(buf) ? (size_t)left : sizeof(buf);
		size_t got = fread(buf, 1, want, f);

		for (char *p = buf;
		     got && (p = memchr(p, '\n', got - (size_t)(p - buf))); p++)
			lines++;
		if (got < want)
			break;
		left -= (off_t)got;
	}
	fclose(f);
	r->lineno += lines;
}

static unsigned long current_line(struct record_reader *r)
{
	resolve_line_base(r);
	return r->lineno;
}

/* Reads up to the end of the line that holds byte start - 1. */
static int skip_partial_line(struct record_reader *r)
{
	char buf[CHUNK];
	off_t at = r->start - 1;

	for (;;) {
		ssize_t n = pread(r->fd, buf, sizeof(buf), at);
		char *nl;

		if (n < 0)
			return -errno;
		if (n == 0)
			break;
		nl = memchr(buf, '\n', (size_t)n);
		if (nl) {
			at += nl - buf + 1;
			break;
		}
		at += n;
	}
	r->start = at;
	return lseek(r->fd, at, SEEK_SET) < 0 ? -errno : 0;
}

struct record_reader *record_reader_open_range(const char *path, off_t start,
					       off_t end)
{
	struct record_reader *r = record_reader_open(path);
	int ret;

	if (!r || start <= 0)
		goto out;
	r->start = start;
	ret = r->fd == STDIN_FILENO ? -EINVAL : skip_partial_line(r);
	if (ret) {
		record_reader_close(r);
		errno = -ret;
		return NULL;
	}
	r->pos = r->start;
	r->base_pending = true;
out:
	if (r)
		r->end = end;
	return r;
}

static bool blank(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!strchr(" \t\r\n", s[i]) || !s[i])
			return false;
	return true;
}

static int parse_line(struct record_reader *r, ssize_t n, json_t **rec)
{
	char why[384];
	json_error_t jerr;
	json_t *obj;

	while (n > 0 && (r->line[n - 1] == '\n' || r->line[n - 1] == '\r'))
		n--;
	obj = json_loadb(r->line, (size_t)n, JSON_REJECT_DUPLICATES, &jerr);
	if (!obj) {
		snprintf(r->error, sizeof(r->error),
			 "%s:%lu: invalid JSON at column %d: %s", r->path,
			 current_line(r), jerr.column, jerr.text);
		return -EINVAL;
	}
	if (record_validate(obj, why, sizeof(why))) {
		snprintf(r->error, sizeof(r->error), "%s:%lu: %s", r->path,
			 current_line(r), why);
		json_decref(obj);
		return -EINVAL;
	}
	*rec = obj;
	return 1;
}

static int read_error(struct record_reader *r, int e)
{
	snprintf(r->error, sizeof(r->error), "%s:%lu: read error: %s", r->path,
		 current_line(r) + 1, strerror(e));
	return -e;
}

/* Waits for stdin's pipe until the deadline: 0, or -ETIMEDOUT/-errno. */
static int wait_readable(struct record_reader *r)
{
	struct pollfd pfd = { .fd = r->fd, .events = POLLIN };
	int ms = -1, n;

	if (!r->is_pipe)
		return 0;
	do {
		if (r->deadline > 0) {
			double left = r->deadline - clock_mono_now();

			ms = left > 0 ? (int)(left * 1000) + 1 : 0;
		}
		n = poll(&pfd, 1, ms);
	} while (n < 0 && errno == EINTR);
	if (n < 0)
		return -errno;
	return n ? 0 : -ETIMEDOUT;
}

/* More bytes after buf[len]: 1, 0 at the end of the file, or -errno. */
static int fill(struct record_reader *r)
{
	ssize_t n;
	int ret;

	if (r->off) {
		memmove(r->buf, r->buf + r->off, r->len - r->off);
		r->len -= r->off;
		r->off = 0;
	}
	if (r->cap - r->len < CHUNK) {
		size_t cap = r->cap ? r->cap * 2 : CHUNK * 2;
		char *p;

		if (cap > RECORD_LINE_MAX + CHUNK * 2)
			cap = RECORD_LINE_MAX + CHUNK * 2;
		p = realloc(r->buf, cap);
		if (!p)
			return -ENOMEM;
		r->buf = p;
		r->cap = cap;
	}
	ret = wait_readable(r);
	if (ret)
		return ret;
	do
		n = read(r->fd, r->buf + r->len, r->cap - r->len);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return -errno;
	r->len += (size_t)n;
	return n > 0;
}

static int timed_out(struct record_reader *r)
{
	snprintf(r->error, sizeof(r->error),
		 "%s:%lu: --timeout of %g s reached before the end of the "
		 "input",
		 r->path, current_line(r) + 1, r->timeout_s);
	return -ETIMEDOUT;
}

/* The next raw line (with its "\n") into r->line: its length, 0 at the
 * end, or -errno with r->error set. */
static ssize_t next_line(struct record_reader *r)
{
	char *nl;
	size_t n;
	int ret;

	if (r->deadline > 0 && clock_mono_now() > r->deadline)
		return timed_out(r);
	for (;;) {
		n = r->len - r->off;
		/* r->buf is NULL before the first read: no memchr(NULL, 0) */
		nl = n ? memchr(r->buf + r->off, '\n', n) : NULL;
		if (nl) {
			n = (size_t)(nl - (r->buf + r->off)) + 1;
			break;
		}
		if (n > RECORD_LINE_MAX + 1 || (r->eof && n))
			break;
		if (r->eof)
			return 0;
		ret = fill(r);
		if (ret == -ETIMEDOUT)
			return timed_out(r);
		if (ret < 0)
			return read_error(r, -ret);
		r->eof = !ret;
	}
	r->line = r->buf + r->off;
	r->off += n;
	return (ssize_t)n;
}

/* A line's length without its "\n" or "\r\n". */
static size_t content_len(const char *line, size_t n)
{
	if (n && line[n - 1] == '\n')
		n--;
	if (n && line[n - 1] == '\r')
		n--;
	return n;
}

int record_reader_next_fast(struct record_reader *r, json_t **rec,
			    record_fast_fn fast, void *ctx)
{
	ssize_t n;
	const char *nul;

	*rec = NULL;
	for (;;) {
		if (r->end >= 0 && r->pos >= r->end)
			return 0;
		n = next_line(r);
		if (n <= 0)
			return (int)n;
		r->pos += n;
		r->lineno++;
		if (content_len(r->line, (size_t)n) > RECORD_LINE_MAX) {
			snprintf(r->error, sizeof(r->error),
				 "%s:%lu: line longer than %d bytes", r->path,
				 current_line(r), RECORD_LINE_MAX);
			return -EINVAL;
		}
		nul = memchr(r->line, '\0', (size_t)n);
		if (nul) {
			snprintf(r->error, sizeof(r->error),
				 "%s:%lu: NUL byte at column %zu", r->path,
				 current_line(r), (size_t)(nul - r->line) + 1);
			return -EINVAL;
		}
		if (blank(r->line, (size_t)n))
			continue;
		if (fast && fast(ctx, r->line, (size_t)n) > 0)
			return 1;
		return parse_line(r, n, rec);
	}
}

int record_reader_next(struct record_reader *r, json_t **rec)
{
	return record_reader_next_fast(r, rec, NULL, NULL);
}

const char *record_reader_error(const struct record_reader *r)
{
	return r->error;
}

unsigned long record_reader_line(const struct record_reader *r)
{
	return current_line((struct record_reader *)r);
}

off_t record_reader_offset(const struct record_reader *r)
{
	return r->pos;
}

void record_reader_close(struct record_reader *r)
{
	if (!r)
		return;
	if (r->fd > STDIN_FILENO)
		close(r->fd);
	free(r->buf);
	free(r->path);
	free(r);
}
