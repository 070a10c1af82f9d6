// SPDX-License-Identifier: MIT
/*
 * phy_ber_json.c: the figures of `mlxlink -c --json`. The document is
 * {"result": {"output": {SECTION: {KEY: VALUE}}}, "status": {...}}, each
 * VALUE a string as the text form prints it, or {"values": [strings]} for
 * a per-lane figure: the layout of the real MFT 4.34.1 capture in
 * tests/fixtures/phy/ (its README names the source). Each value becomes
 * the text form's "a,b,c" and goes through phy_ber_field(), so both forms
 * refuse the same figures; an error names the line of the key.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "fabric/phy_ber_int.h"
#include "fabric/xcvr.h"

#define SECT_OPER "Operational Info"
#define SECT_BER "Physical Counters and BER Info"
#define VALUE_MAX 512

/* A value as the text form prints it; a shape the text form has no
 * counterpart for becomes a word phy_ber_field() refuses. */
static void value_text(const json_t *v, char *buf, size_t len)
{
	const json_t *vals = json_object_get(v, "values"), *e;
	size_t i, used = 0;

	if (json_is_string(v)) {
		if ((size_t)snprintf(buf, len, "%s", json_string_value(v)) >=
		    len)
			snprintf(buf, len, "(longer than %zu bytes)", len - 1);
		return;
	}
	if (!json_is_array(vals)) {
		snprintf(buf, len, "(a JSON %s)",
			 json_is_number(v)   ? "number"
			 : json_is_object(v) ? "object without \"values\""
					     : "value of another kind");
		return;
	}
	buf[0] = '\0';
	json_array_foreach(vals, i, e)
	{
		if (!json_is_string(e)) {
			snprintf(buf, len, "(\"values\" holding a non-string)");
			return;
		}
		used += (size_t)snprintf(buf + used, len - used, "%s%s",
					 i ? "," : "", json_string_value(e));
		if (used >= len) {
			snprintf(buf, len, "(longer than %zu bytes)", len - 1);
			return;
		}
	}
}

static int section(struct ber_parse *p, const json_t *out, const char *name)
{
	const json_t *sect = json_object_get(out, name), *v;
	const char *key;
	char val[VALUE_MAX];
	int rc = 0;

	if (!sect)
		return 0;
	p->sect = name;
	if (!json_is_object(sect)) {
		p->in.line = phy_ber_json_line(p->json, name, NULL);
		return lines_error(&p->in,
				   "\"%s\": expected an object of \"Key\" : "
				   "\"value\" (mlxlink --json)",
				   name);
	}
	json_object_foreach((json_t *)sect, key, v)
	{
		value_text(v, val, sizeof(val));
		rc = phy_ber_field(p, key, val);
		if (rc)
			break;
	}
	return rc;
}

int phy_ber_parse_json(const char *path, const char *json, size_t len,
		       struct phy_ber *b, char *err, size_t errlen)
{
	struct ber_parse p = { .b = b, .json = json };
	const char *nul = memchr(json, '\0', len);
	json_error_t je;
	json_t *root, *out;
	int rc;

	phy_ber_init(b);
	p.in.path = path;
	p.in.err = err;
	p.in.errlen = errlen;
	if (nul) {
		p.in.line = phy_ber_line_at(json, nul);
		return lines_error(&p.in, "NUL byte in JSON text");
	}
	root = json_loadb(json, len, JSON_REJECT_DUPLICATES, &je);
	if (!root) {
		p.in.line = je.line > 0 ? je.line : 1;
		return lines_error(&p.in, "invalid JSON: %s", je.text);
	}
	out = json_object_get(json_object_get(root, "result"), "output");
	if (!json_is_object(out))
		out = root;
	if (!json_is_object(out)) {
		p.in.line = 1;
		rc = lines_error(&p.in, "expected a JSON object (mlxlink "
					"--json)");
	} else {
		rc = section(&p, out, SECT_OPER);
		if (!rc)
			rc = section(&p, out, SECT_BER);
	}
	json_decref(root);
	return rc;
}

/* The rest of f, from its start, up to XCVR_JSON_MAX bytes. */
static char *read_all(FILE *f, const char *path, size_t *len, char *err,
		      size_t errlen, int *rc)
{
	size_t cap = 0, n = 0, got;
	char *buf = NULL, *nb;

	rewind(f);
	do {
		if (n + 4096 + 1 > cap) {
			cap = cap ? cap * 2 : 8192;
			nb = realloc(buf, cap);
			if (!nb) {
				snprintf(err, errlen, "%s: out of memory",
					 path);
				*rc = -ENOMEM;
				free(buf);
				return NULL;
			}
			buf = nb;
		}
		got = fread(buf + n, 1, 4096, f);
		n += got;
		if (n > (size_t)XCVR_JSON_MAX) {
			snprintf(err, errlen,
				 "%s: more than %ld bytes of JSON, more than "
				 "mlxlink writes",
				 path, XCVR_JSON_MAX);
			*rc = -EFBIG;
			free(buf);
			return NULL;
		}
	} while (got);
	if (ferror(f)) {
		*rc = errno ? -errno : -EIO;
		snprintf(err, errlen, "%s: cannot read: %s", path,
			 strerror(-*rc));
		free(buf);
		return NULL;
	}
	buf[n] = '\0';
	*len = n;
	return buf;
}

int phy_ber_load_json(FILE *f, const char *path, struct phy_ber *b, char *err,
		      size_t errlen)
{
	size_t len = 0;
	int rc = 0;
	char *text = read_all(f, path, &len, err, errlen, &rc);

	phy_ber_init(b);
	if (!text)
		return rc;
	rc = phy_ber_parse_json(path, text, len, b, err, errlen);
	free(text);
	return rc;
}
