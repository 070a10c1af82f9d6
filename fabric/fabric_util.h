/* SPDX-License-Identifier: MIT */
/* fabric_util.h: small helpers the fabric parsers share. */
#ifndef IBPROOF_FABRIC_UTIL_H
#define IBPROOF_FABRIC_UTIL_H

#include <stdarg.h>
#include <stddef.h>

/* Makes room for element n of *arr (doubling); 0 or -ENOMEM. */
int fabric_reserve(void *arr, size_t *cap, size_t n, size_t size);
/* Writes "path:line: <fmt>" into err; returns -EINVAL. */
int fabric_verr(char *err, size_t errlen, const char *path, int line,
		const char *fmt, va_list ap);
/* Whole file into a NUL-terminated buffer; NULL + errno. */
char *fabric_read_file(const char *path, size_t *len);
/* Same, with "path: cannot read: why" in err; 0 or -errno. */
int fabric_read_text(const char *path, char **text, char *err,
		     size_t errlen);

typedef int (*fabric_line_fn)(void *arg, char *line, int lineno);
/*
 * Calls fn on each line of text that is not blank or a '#' comment, on a
 * writable copy: leading white space and the newline removed, lineno
 * counted from 1. Stops at the first non-zero return and returns it; 0, or
 * -ENOMEM.
 */
int fabric_each_line(const char *text, fabric_line_fn fn, void *arg);

#endif
