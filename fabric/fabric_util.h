/* SPDX-License-Identifier: MIT */
/* fabric_util.h: small helpers the fabric parsers share. */
#ifndef IBPROOF_FABRIC_UTIL_H
#define IBPROOF_FABRIC_UTIL_H

#include <stddef.h>

/* Whole file into a NUL-terminated buffer; NULL + errno. */
char *fabric_read_file(const char *path, size_t *len);
/*
 * Same, with "path: cannot read: why" in err, refusing a NUL byte or a line
 * over LINES_MAX as "path:line: ..." (-EINVAL); 0 or -errno.
 */
int fabric_read_text(const char *path, char **text, char *err, size_t errlen);

/*
 * Splits one CSV line in place into trimmed fields ("..." unquoted, ""
 * inside is a quote). The field count, -1 on bad quoting, max + 1 when
 * there are more than max fields.
 */
int fabric_csv_split(char *line, char **fields, int max);

#endif
