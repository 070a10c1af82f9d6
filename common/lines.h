/* SPDX-License-Identifier: MIT */
/*
 * lines.h: a text input read line by line (a file, or text already in
 * memory), and the one "FILE:LINE: what was expected" error formatter.
 *
 *	struct lines in;
 *	char *line;
 *
 *	rc = lines_open(&in, path, err, errlen);
 *	while (!rc && (rc = lines_next(&in, &line)) > 0)
 *		rc = parse(line) ? lines_error(&in, "expected ...") : 0;
 *	lines_close(&in);
 *
 * or lines_each(&in, parse_line, arg) for a parser called once per line.
 *
 * A line holds at most LINES_MAX bytes (its "\n" or "\r\n" not counted) and
 * no NUL byte: a longer line, or a NUL, is "path:line: ..." and -EINVAL, so
 * a reader never works on a silently cut line and its memory stays bounded.
 * Comment lines (first non-blank '#') and blank lines are skipped; they are
 * still counted.
 */
#ifndef IBPROOF_COMMON_LINES_H
#define IBPROOF_COMMON_LINES_H

#include <stdio.h>

/* The longest line of any text input, in bytes (docs/design.md). */
#define LINES_MAX 65536

struct lines {
	const char *path; /* names the input in errors */
	int line; /* number of the line last read, from 1; a
				 * parser may set it to blame an earlier line */
	char *err; /* lines_error() and the open functions */
	size_t errlen; /* write "path:line: ..." here */
	/* private */
	FILE *f; /* NULL when reading text */
	const char *text; /* the rest of the text */
	char *buf;
	size_t cap;
};

/*
 * Opens path; on failure err holds "path: cannot read: why". The strings
 * path and err must outlive the reader. 0 or -errno.
 */
int lines_open(struct lines *in, const char *path, char *err, size_t errlen);

/* Reads text (NUL-terminated, kept by the caller) named path in errors. */
void lines_open_text(struct lines *in, const char *path, const char *text,
		     char *err, size_t errlen);

/*
 * The next line that is neither blank nor a '#' comment, on a writable
 * buffer valid until the next call: leading blanks and the line end ("\n"
 * or "\r\n") removed. 1 with *line set, 0 at the end, or -errno (with err
 * set to "path:line: read error: why", "path:line: NUL byte ...",
 * "path:line: line longer than 65536 bytes" or "path: out of memory").
 */
int lines_next(struct lines *in, char **line);

/*
 * Checks text of len bytes (a whole file read at once) as lines_next()
 * would: 0, or -EINVAL with "path:line: NUL byte ..." or "line longer than
 * LINES_MAX bytes" in err.
 */
int lines_check_text(const char *path, const char *text, size_t len, char *err,
		     size_t errlen);

typedef int (*lines_fn)(void *arg, char *line);
/*
 * Calls fn on each line lines_next() returns (in->line is its number) until
 * fn returns non-zero: that value, 0 at the end, or lines_next()'s -errno.
 */
int lines_each(struct lines *in, lines_fn fn, void *arg);

/*
 * Closes the file and frees the buffer; safe after a failed lines_open()
 * and on a zeroed struct.
 */
void lines_close(struct lines *in);

/* Writes "path:line: <fmt>" into in->err and returns -EINVAL. */
int lines_error(const struct lines *in, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif
