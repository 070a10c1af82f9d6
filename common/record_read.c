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
	return r;

err_free:
	saved = errno;
	free(r->path);
	free(r);
	errno = saved;
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
			 r->lineno, jerr.column, jerr.text);
		return -EINVAL;
	}
	if (record_validate(obj, why, sizeof(why))) {
		snprintf(r->error, sizeof(r->error), "%s:%lu: %s", r->path,
			 r->lineno, why);
		json_decref(obj);
		return -EINVAL;
	}
	*rec = obj;
	return 1;
}

int record_reader_next(struct record_reader *r, json_t **rec)
{
	ssize_t n;

	*rec = NULL;
	for (;;) {
		errno = 0;
		n = getline(&r->line, &r->cap, r->f);
		if (n < 0) {
			if (!errno)
				return 0;
			snprintf(r->error, sizeof(r->error), "%s:%lu: read error: %s",
				 r->path, r->lineno + 1, strerror(errno));
			return -errno;
		}
		r->lineno++;
		if (!blank(r->line))
			return parse_line(r, n, rec);
	}
}

const char *record_reader_error(const struct record_reader *r)
{
	return r->error;
}

unsigned long record_reader_line(const struct record_reader *r)
{
	return r->lineno;
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
