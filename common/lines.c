// SPDX-License-Identifier: MIT
/* lines.c: line reader with "FILE:LINE: ..." errors (see lines.h). */
#include <ctype.h>
#include <stdbool.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "common/lines.h"

static void lines_init(struct lines *in, const char *path, char *err,
		       size_t errlen)
{
	memset(in, 0, sizeof(*in));
	in->path = path;
	in->err = err;
	in->errlen = errlen;
}

int lines_open(struct lines *in, const char *path, char *err, size_t errlen)
{
	int rc;

	lines_init(in, path, err, errlen);
	in->f = fopen(path, "re");
	if (in->f)
		return 0;
	rc = errno ? -errno : -EIO;
	snprintf(err, errlen, "%s: cannot read: %s", path, strerror(-rc));
	return rc;
}

void lines_open_text(struct lines *in, const char *path, const char *text,
		     char *err, size_t errlen)
{
	lines_init(in, path, err, errlen);
	in->text = text;
}

static int grow(struct lines *in, size_t need)
{
	char *p;

	if (need <= in->cap)
		return 0;
	p = realloc(in->buf, need);
	if (!p)
		return -ENOMEM;
	in->buf = p;
	in->cap = need;
	return 0;
}

static int too_long(struct lines *in)
{
	return lines_error(in, "line longer than %d bytes", LINES_MAX);
}

/* The next raw line of text into in->buf: 1, 0 at the end, or -errno. */
static int text_getline(struct lines *in, size_t *len)
{
	const char *nl;
	size_t n;

	if (!in->text || !*in->text)
		return 0;
	nl = strchr(in->text, '\n');
	n = nl ? (size_t)(nl - in->text) + 1 : strlen(in->text);
	in->line++;
	if (n > LINES_MAX + 2)
		return too_long(in);
	if (grow(in, n + 1))
		return -ENOMEM;
	memcpy(in->buf, in->text, n);
	in->buf[n] = '\0';
	in->text += n;
	*len = n;
	return 1;
}

/*
 * The next raw line of the file into in->buf, at most LINES_MAX bytes and
 * its line end, never a NUL: 1, 0 at the end, or -errno. Memory stays
 * bounded however long the line is.
 */
static int file_getline(struct lines *in, size_t *len)
{
	size_t n = 0;
	int c;

	if (grow(in, LINES_MAX + 3))
		return -ENOMEM;
	while ((c = getc(in->f)) != EOF) {
		if (!n)
			in->line++;
		if (c == '\0')
			return lines_error(
				in, "NUL byte at byte %zu of the line", n + 1);
		if (n == LINES_MAX + 2)
			return too_long(in);
		in->buf[n++] = (char)c;
		if (c == '\n')
			break;
	}
	if (ferror(in->f)) {
		c = errno ? errno : EIO;
		if (!n)
			in->line++;
		lines_error(in, "read error: %s", strerror(c));
		return -c;
	}
	in->buf[n] = '\0';
	*len = n;
	return n > 0;
}

/* One raw line: 1, 0 at the end, or -errno with in->err set. */
static int read_raw(struct lines *in, size_t *len)
{
	int rc;

	errno = 0;
	rc = in->f ? file_getline(in, len) : text_getline(in, len);
	if (rc == -ENOMEM)
		snprintf(in->err, in->errlen, "%s: out of memory", in->path);
	return rc;
}

int lines_next(struct lines *in, char **line)
{
	size_t len = 0;
	char *p;
	int rc;

	while ((rc = read_raw(in, &len)) > 0) {
		if (len && in->buf[len - 1] == '\n')
			in->buf[--len] = '\0';
		if (len && in->buf[len - 1] == '\r')
			in->buf[--len] = '\0';
		if (len > LINES_MAX)
			return too_long(in);
		p = in->buf;
		while (isspace((unsigned char)*p))
			p++;
		if (*p && *p != '#') {
			*line = p;
			return 1;
		}
	}
	return rc;
}

int lines_each(struct lines *in, lines_fn fn, void *arg)
{
	char *line;
	int rc;

	while ((rc = lines_next(in, &line)) > 0) {
		rc = fn(arg, line);
		if (rc)
			return rc;
	}
	return rc;
}

void lines_close(struct lines *in)
{
	if (in->f)
		fclose(in->f);
	free(in->buf);
	in->f = NULL;
	in->buf = NULL;
	in->cap = 0;
}

int lines_error(const struct lines *in, const char *fmt, ...)
{
	va_list ap;
	int n = snprintf(in->err, in->errlen, "%s:%d: ", in->path, in->line);

	if (n >= 0 && (size_t)n < in->errlen) {
		va_start(ap, fmt);
		vsnprintf(in->err + n, in->errlen - n, fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}

int lines_check_text(const char *path, const char *text, size_t len, char *err,
		     size_t errlen)
{
	const char *p = text, *end = text + len, *nl, *nul;
	struct lines in;
	size_t n;

	lines_init(&in, path, err, errlen);
	for (; p < end; p = nl ? nl + 1 : end) {
		nl = memchr(p, '\n', (size_t)(end - p));
		n = nl ? (size_t)(nl - p) : (size_t)(end - p);
		in.line++;
		nul = memchr(p, '\0', n);
		if (nul)
			return lines_error(&in,
					   "NUL byte at byte %zu of the line",
					   (size_t)(nul - p) + 1);
		if (n && p[n - 1] == '\r')
			n--;
		if (n > LINES_MAX)
			return too_long(&in);
	}
	return 0;
}
