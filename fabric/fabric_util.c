// SPDX-License-Identifier: MIT
/* fabric_util.c: reading files. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/lines.h"
#include "fabric_util.h"

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
