/* SPDX-License-Identifier: MIT */
/*
 * phy_ber_int.h: what the `mlxlink -c` text reader (phy_ber.c) and its
 * --json reader (phy_ber_json.c) share (phy_ber_field.c): one parse state,
 * one check of each figure, so a figure is refused the same way in either
 * form.
 * Private to fabric/.
 */
#ifndef IBPROOF_FABRIC_PHY_BER_INT_H
#define IBPROOF_FABRIC_PHY_BER_INT_H

#include <stdio.h>

#include "common/lines.h"
#include "fabric/phy_ber.h"

struct ber_parse {
	struct phy_ber *b;
	struct lines in; /* path, line and err of the error message */
	/* --json: the document's text and the section being read, so an
	 * error names the line of the key; NULL for text */
	const char *json;
	const char *sect;
};

void phy_ber_init(struct phy_ber *b);

/* One "Key : value" of the block (v writable): 0, or -EINVAL with
 * "PATH:LINE: Key \"value\": expected ..." in p->in.err. */
int phy_ber_field(struct ber_parse *p, const char *key, char *v);

/* The text form's line (lines_each() callback, arg a struct ber_parse):
 * a "Key : value" line to phy_ber_field(), colour codes dropped. */
int phy_ber_text_line(void *arg, char *line);

/* The line (from 1) of key in section sect of a JSON text; the
 * section's line when the key is not found as written, 1 without it
 * (phy_ber_field.c, with the checks: below both readers). */
int phy_ber_json_line(const char *json, const char *sect, const char *key);
/* The line (from 1) of the byte at in text. */
int phy_ber_line_at(const char *text, const char *at);

/* mlxlink --json text of len bytes (phy_ber_json.c); b initialised. */
int phy_ber_parse_json(const char *path, const char *json, size_t len,
		       struct phy_ber *b, char *err, size_t errlen);

/* The same from an open file, read whole (at most XCVR_JSON_MAX bytes). */
int phy_ber_load_json(FILE *f, const char *path, struct phy_ber *b, char *err,
		      size_t errlen);

#endif
