// SPDX-License-Identifier: MIT
/*
 * fabric_ibdiag_conf.c: the M_Key from --m-key or ibdiag.conf. The rules
 * are rdma-core's (infiniband-diags/ibdiag_common.c read_ibdiag_config):
 * '#' in the first column starts a comment, the name ends at the first
 * '=', a name beginning "m_key" sets the key with strtoull(value, 0, 0).
 * Where rdma-core would read garbage as a number (or crash on a missing
 * value), this says FILE:LINE.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/lines.h"
#include "fabric/fabric_ibdiag_conf.h"

int fabric_mkey_parse(const char *s, uint64_t *key)
{
	unsigned long long v;
	char *end;

	while (*s == ' ' || *s == '\t')
		s++;
	if (!isdigit((unsigned char)*s))
		return -EINVAL; /* empty, a sign, a word */
	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno == ERANGE)
		return -ERANGE;
	if (end == s)
		return -EINVAL;
	while (*end == ' ' || *end == '\t')
		end++;
	if (*end)
		return -EINVAL;
	*key = (uint64_t)v;
	return 0;
}

struct conf_ctx {
	struct lines *in;
	struct fabric_mkey key;
};

static int conf_line(void *arg, char *line)
{
	struct conf_ctx *c = arg;
	char *eq = strchr(line, '=');
	uint64_t key;
	int rc;

	if (strncmp(line, "m_key", 5))
		return 0;
	if (!strncmp(line, "m_key_files", 11))
		return lines_error(c->in,
				   "m_key_files (per-node keys) is not "
				   "supported: give one key with m_key=");
	if (!eq)
		return lines_error(c->in, "expected m_key=KEY");
	rc = fabric_mkey_parse(eq + 1, &key);
	if (rc == -ERANGE)
		return lines_error(c->in, "m_key: more than 64 bits");
	if (rc)
		return lines_error(c->in,
				   "m_key: expected a number (0x hex, 0 octal "
				   "or decimal)");
	c->key.set = true;
	c->key.key = key;
	return 0;
}

int fabric_ibdiag_conf_read(const char *path, bool required,
			    struct fabric_mkey *out, char *err, size_t errlen)
{
	struct lines in = { 0 };
	struct conf_ctx c = { .in = &in };
	struct stat st;
	int rc;

	if (!required && stat(path, &st) && errno == ENOENT)
		return 0; /* rdma-core ignores a missing file too */
	rc = lines_open(&in, path, err, errlen);
	if (!rc)
		rc = lines_each(&in, conf_line, &c);
	lines_close(&in);
	if (rc)
		return rc;
	if (c.key.set)
		*out = c.key;
	return 0;
}
