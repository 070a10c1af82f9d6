// SPDX-License-Identifier: MIT
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/record.h"

struct record_reader {
	FILE *f;
	char *path;
	char *line;
	size_t cap;
	unsigned long lineno;
	off_t start; /* record_reader_open_range(): the byte range */
	off_t end; /* -1: to the end of the file */
	off_t pos; /* offset of the next line */
	bool base_pending; /* lines before start not counted yet */
	char error[512];
};

struct record_reader *record_reader_open(const char *path)
{
	struct record_reader *r = calloc(1, sizeof(*r));
	int saved;

	if (!r)
		return NULL;
	r->path = strdup(path);
	if (!r->path)
		goto err_free;
	r->f = strcmp(path, "-") ? fopen(path, "re") : stdin;
	if (!r->f)
		goto err_free;
	r->end = -1;
	return r;

err_free:
	saved = errno;
	free(r->path);
	free(r);
	errno = saved;
	return NULL;
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

struct record_reader *record_reader_open_range(const char *path, off_t start,
					       off_t end)
{
	struct record_reader *r = record_reader_open(path);
	int c;

	if (!r || start <= 0)
		goto out;
	if (r->f == stdin || fseeko(r->f, start - 1, SEEK_SET))
		goto err_close;
	c = getc(r->f);
	if (c != '\n' && c != EOF && getline(&r->line, &r->cap, r->f) < 0 &&
	    ferror(r->f))
		goto err_close;
	r->start = ftello(r->f);
	r->pos = r->start;
	r->base_pending = true;
out:
	if (r)
		r->end = end;
	return r;

err_close:
	c = errno ? errno : EINVAL;
	record_reader_close(r);
	errno = c;
	return NULL;
}

static bool blank(const char *s)
{
	return s[strspn(s, " \t\r\n")] == '\0';
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

int record_reader_next_fast(struct record_reader *r, json_t **rec,
			    record_fast_fn fast, void *ctx)
{
	ssize_t n;

	*rec = NULL;
	for (;;) {
		if (r->end >= 0 && r->pos >= r->end)
			return 0;
		errno = 0;
		n = getline(&r->line, &r->cap, r->f);
		if (n < 0) {
			if (!errno)
				return 0;
			snprintf(r->error, sizeof(r->error),
				 "%s:%lu: read error: %s", r->path,
				 current_line(r) + 1, strerror(errno));
			return -errno;
		}
		r->pos += n;
		r->lineno++;
		if (blank(r->line))
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
	if (r->f && r->f != stdin)
		fclose(r->f);
	free(r->line);
	free(r->path);
	free(r);
}
