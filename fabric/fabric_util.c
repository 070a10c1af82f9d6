// SPDX-License-Identifier: MIT
/* fabric_util.c: reading files, splitting CSV lines. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/lines.h"
#include "fabric/fabric_util.h"

char *fabric_read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL, *tmp;
	size_t cap = 0, n = 0, r;

	if (!f)
		return NULL;
	do {
		if (cap - n < 65536) {
			cap = cap ? cap * 2 : 131072;
			tmp = realloc(buf, cap + 1);
			if (!tmp)
				goto fail;
			buf = tmp;
		}
		r = fread(buf + n, 1, cap - n, f);
		n += r;
	} while (r > 0);
	if (ferror(f))
		goto fail;
	fclose(f);
	buf[n] = '\0';
	if (len)
		*len = n;
	return buf;
fail:
	free(buf);
	fclose(f);
	errno = errno ? errno : EIO;
	return NULL;
}

int fabric_read_text(const char *path, char **text, char *err, size_t errlen)
{
	size_t len;
	int rc;

	*text = fabric_read_file(path, &len);
	if (!*text) {
		snprintf(err, errlen, "%s: cannot read: %s", path,
			 strerror(errno));
		return errno ? -errno : -EIO;
	}
	rc = lines_check_text(path, *text, len, err, errlen);
	if (rc) {
		free(*text);
		*text = NULL;
	}
	return rc;
}

static char *trim_left(char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	return s;
}

static char *trim(char *s)
{
	char *e;

	s = trim_left(s);
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	return s;
}

/* Unquote a "..." field in place (doubled quotes escape); p is past the
 * opening quote. Returns the position after the closing quote or NULL. */
static char *unquote(char *p)
{
	char *out = p;

	for (;;) {
		if (!*p)
			return NULL;
		if (*p == '"' && p[1] != '"')
			break;
		if (*p == '"')
			p++;
		*out++ = *p++;
	}
	*out = '\0';
	return p + 1;
}

int fabric_csv_split(char *line, char **fields, int max)
{
	char *p = line;
	int n = 0;

	for (;;) {
		if (n == max)
			return max + 1;
		p = trim_left(p);
		fields[n++] = p;
		if (*p == '"') {
			fields[n - 1] = p + 1;
			p = unquote(p + 1);
			if (!p)
				return -1;
			p = trim_left(p);
			if (*p && *p != ',')
				return -1;
		} else {
			p += strcspn(p, ",");
		}
		if (*p != ',')
			break;
		*p++ = '\0';
	}
	*p = '\0';
	for (int i = 0; i < n; i++)
		fields[i] = trim(fields[i]);
	return n;
}
