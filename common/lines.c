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

/* The next raw line of text into in->buf: its length, or -1 at the end. */
static ssize_t text_getline(struct lines *in)
{
	const char *nl;
	size_t len;
	char *p;

	if (!in->text || !*in->text)
		return -1;
	nl = strchr(in->text, '\n');
	len = nl ? (size_t)(nl - in->text) + 1 : strlen(in->text);
	if (len + 1 > in->cap) {
		p = realloc(in->buf, len + 1);
		if (!p)
			return -1;
		in->buf = p;
		in->cap = len + 1;
	}
	memcpy(in->buf, in->text, len);
	in->buf[len] = '\0';
	in->text += len;
	return (ssize_t)len;
}

/*
 * getline() kept to in->max_len bytes: a longer line is read to its end
 * and dropped. Its length; -1 at the end (errno set on error), -2 too long.
 */
static ssize_t bounded_getline(struct lines *in)
{
	size_t len = 0;
	bool dropped = false;
	int c;

	if (!in->buf || in->cap < in->max_len + 2) {
		char *p = realloc(in->buf, in->max_len + 2);

		if (!p)
			return -1;
		in->buf = p;
		in->cap = in->max_len + 2;
	}
	while ((c = getc(in->f)) != EOF) {
		if (len < in->max_len + 1)
			in->buf[len++] = (char)c;
		else
			dropped = true;
		if (c == '\n')
			break;
	}
	in->buf[len] = '\0';
	if (c == EOF && !len)
		return -1;
	if (dropped || (len > in->max_len && in->buf[len - 1] != '\n'))
		return -2;
	return (ssize_t)len;
}

/* One raw line: 1, 0 at the end, or -errno with in->err set. */
static int read_raw(struct lines *in, size_t *len)
{
	ssize_t n;
	int e;

	errno = 0;
	if (in->f && in->max_len)
		n = bounded_getline(in);
	else if (in->f)
		n = getline(&in->buf, &in->cap, in->f);
	else
		n = text_getline(in);
	if (n >= 0 && in->max_len && (size_t)n > in->max_len + 1)
		n = -2; /* text: the whole line is in memory already */
	if (n == -2) {
		in->line++;
		lines_error(in, "line longer than %zu bytes", in->max_len);
		return -E2BIG;
	}
	if (n >= 0) {
		*len = (size_t)n;
		in->line++;
		return 1;
	}
	if (errno == ENOMEM) {
		snprintf(in->err, in->errlen, "%s: out of memory", in->path);
		return -ENOMEM;
	}
	if (in->f && ferror(in->f)) {
		e = errno ? errno : EIO;
		in->line++;
		lines_error(in, "read error: %s", strerror(e));
		return -e;
	}
	return 0;
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
