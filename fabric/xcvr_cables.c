// SPDX-License-Identifier: MIT
/*
 * xcvr_cables.c: module facts from ibdiagnet2.cables (ibdiagnet
 * --get_cable_info), one block per port:
 *
 *	-------------------------------------------------------
 *	Port=1 Lid=0x00a4 GUID=0xf45214030046a0a1 Port Name=sw01/U1/P1
 *	-------------------------------------------------------
 *	Vendor: Mellanox
 *	PN: MCP1600-E002
 *	SN: MT1739VS02126
 *	...
 *	RX1 Power: 0.512 mW, -2.907 dBm
 *	TX1 Bias: 6.000 mA
 *
 * Keys are found by name (the spellings of several ibdiagnet versions), in
 * any order; keys not known are skipped. GUID= is the port's GUID (a
 * switch's ports share the switch's). Lines go through common/lines.c, so
 * each is bounded; a bad block header or line is FILE:LINE.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/cli.h"
#include "common/lines.h"
#include "common/record.h"
#include "fabric/xcvr.h"
#include "fabric/xcvr_text.h"

enum key {
	K_VENDOR,
	K_OUI,
	K_PN,
	K_SN,
	K_REV,
	K_LENGTH,
	K_TYPE,
	K_IDENT,
	K_TEMP,
	K_VCC,
	K_NKEYS
};

/* The spellings of each key, compared without case. */
static const char *const key_names[K_NKEYS][4] = {
	[K_VENDOR] = { "Vendor", "Vendor Name" },
	[K_OUI] = { "OUI", "Vendor OUI" },
	[K_PN] = { "PN", "Part Number", "Vendor Part Number" },
	[K_SN] = { "SN", "Serial Number", "Vendor Serial Number" },
	[K_REV] = { "Rev", "Revision", "Vendor Revision" },
	[K_LENGTH] = { "Length", "Cable Length" },
	[K_TYPE] = { "Type", "Cable Type", "Cable Technology" },
	[K_IDENT] = { "Identifier", "Module Identifier" },
	[K_TEMP] = { "Temperature", "Module Temperature" },
	[K_VCC] = { "Voltage", "Supply Voltage", "Module Voltage", "Vcc" },
};

struct cables {
	struct lines in;
	struct xcvr_row row;
	char port_name[96];
	bool open; /* a block is being read */
	int blocks;
	xcvr_row_fn fn;
	void *ctx;
};

static int key_of(const char *key)
{
	for (int k = 0; k < K_NKEYS; k++)
		for (int i = 0; i < 4 && key_names[k][i]; i++)
			if (!strcasecmp(key, key_names[k][i]))
				return k;
	return -1;
}

/* "Port=1 Lid=0x00a4 GUID=0x... Port Name=TEXT": the value after name=. */
static const char *header_value(const char *line, const char *name)
{
	size_t n = strlen(name);

	for (const char *p = line; (p = strstr(p, name)); p++)
		if (p == line || p[-1] == ' ' || p[-1] == '\t')
			return p + n;
	return NULL;
}

/* Closes the block being read: one row. */
static int flush(struct cables *c)
{
	struct xcvr_info *x = &c->row.info;

	if (!c->open)
		return 0;
	c->open = false;
	/* a later "Vendor: N/A" may have undone an earlier name */
	x->present = x->vendor[0] || x->part_number[0] || x->serial[0];
	/* a copper cable has no laser: its "0.000 mA" is no reading */
	if (x->one_part && strcasestr(x->type, "copper"))
		x->has[XCVR_TX_BIAS] = false;
	if (!x->present)
		snprintf(x->why, sizeof(x->why),
			 "ibdiagnet2.cables line %d: no vendor, part number "
			 "or serial for this port",
			 c->row.line);
	return c->fn(c->ctx, &c->row);
}

static int block_header(struct cables *c, const char *line)
{
	const char *port = header_value(line, "Port=");
	const char *guid = header_value(line, "GUID=");
	const char *name = header_value(line, "Port Name=");
	char num[16], g[24];
	long p;
	int rc = flush(c);

	if (rc)
		return rc;
	snprintf(num, sizeof(num), "%.*s", (int)strcspn(port, " \t"), port);
	if (cli_str_to_long(num, 1, 255, &p))
		return lines_error(&c->in,
				   "Port=: expected a port number 1-255, got "
				   "\"%.40s\"",
				   num);
	snprintf(g, sizeof(g), "%.*s", guid ? (int)strcspn(guid, " \t") : 0,
		 guid ? guid : "");
	memset(&c->row, 0, sizeof(c->row));
	if (record_guid_parse(g, &c->row.port_guid) || !c->row.port_guid)
		return lines_error(&c->in,
				   "GUID=: expected the port's GUID like "
				   "0xf45214030046a0a1, got \"%.40s\"",
				   g);
	c->row.port = (int)p;
	c->row.line = c->in.line;
	xcvr_text_field(c->port_name, sizeof(c->port_name), name);
	c->row.port_name = c->port_name;
	c->row.info.source = "ibdiagnet";
	c->row.info.lanes = 4;
	c->open = true;
	c->blocks++;
	return 0;
}

/* "RX1 Power", "TX3 Bias", "TX8 Power": the lane figures. */
static bool lane_key(const char *key, enum xcvr_qty *q, int *lane)
{
	char what[8];
	int l, n = 0;

	if (sscanf(key, "%*1[RTrt]%*1[Xx]%d %7s%n", &l, what, &n) != 2 ||
	    key[n] || l < 1 || l > XCVR_LANES)
		return false;
	if (!strcasecmp(what, "Bias") && toupper((unsigned char)key[0]) == 'T')
		*q = XCVR_TX_BIAS;
	else if (!strcasecmp(what, "Power"))
		*q = toupper((unsigned char)key[0]) == 'R' ? XCVR_RX_POWER
							   : XCVR_TX_POWER;
	else
		return false;
	*lane = l - 1;
	return true;
}

/* "0.000 mW, -999.999 dBm": ibdiagnet's way of saying no reading. */
static bool no_reading(const char *v)
{
	const char *comma = strchr(v, ',');
	double dbm;
	char *end;

	if (!comma)
		return false;
	dbm = strtod(comma + 1, &end);
	return end != comma + 1 && dbm <= -99.0;
}

static void lane_value(struct xcvr_info *x, enum xcvr_qty q, int l,
		       const char *v)
{
	double d;

	if (no_reading(v) || !xcvr_qty_value(q, v, &d))
		return;
	x->has[q] = true;
	x->lane[q][l] = d;
	if (l >= 4)
		x->lanes = XCVR_LANES;
}

static void identity_value(struct cables *c, int k, const char *v)
{
	struct xcvr_info *x = &c->row.info;
	static const size_t off[] = {
		[K_VENDOR] = offsetof(struct xcvr_info, vendor),
		[K_OUI] = offsetof(struct xcvr_info, oui),
		[K_PN] = offsetof(struct xcvr_info, part_number),
		[K_SN] = offsetof(struct xcvr_info, serial),
		[K_REV] = offsetof(struct xcvr_info, revision),
		[K_TYPE] = offsetof(struct xcvr_info, type),
	};
	static const size_t len[] = {
		[K_VENDOR] = sizeof(x->vendor),	 [K_OUI] = sizeof(x->oui),
		[K_PN] = sizeof(x->part_number), [K_SN] = sizeof(x->serial),
		[K_REV] = sizeof(x->revision),	 [K_TYPE] = sizeof(x->type),
	};
	char *dst = (char *)x + off[k];

	xcvr_text_field(dst, len[k], v);
	if (k == K_TYPE)
		x->one_part = xcvr_one_part_text(dst);
}

static void key_value(struct cables *c, const char *key, const char *v)
{
	struct xcvr_info *x = &c->row.info;
	const char *unit;
	enum xcvr_qty q;
	int k = key_of(key), l;
	char id[16];

	if (k < 0) {
		if (lane_key(key, &q, &l))
			lane_value(x, q, l, v);
		return; /* a key not known: skipped */
	}
	switch (k) {
	case K_LENGTH:
		if (!xcvr_num_unit(v, &x->length_m, &unit))
			x->length_m = 0;
		break;
	case K_IDENT: /* "OSFP", "QSFP28 (...)" */
		snprintf(id, sizeof(id), "%.*s", (int)strcspn(v, " ("), v);
		x->identifier = xcvr_identifier_of(id);
		break;
	case K_TEMP:
		x->has[XCVR_TEMP] = xcvr_qty_value(XCVR_TEMP, v, &x->temp_c);
		break;
	case K_VCC:
		x->has[XCVR_VCC] = xcvr_qty_value(XCVR_VCC, v, &x->vcc_v);
		break;
	default:
		identity_value(c, k, v);
	}
}

static bool is_rule(const char *line)
{
	size_t n = strspn(line, "-=");

	return n >= 3 && !line[n + strspn(line + n, " \t")];
}

static int cables_line(void *arg, char *line)
{
	struct cables *c = arg;
	char *colon, *v, *end;

	if (is_rule(line))
		return 0;
	if (!strncmp(line, "Port=", 5))
		return block_header(c, line);
	colon = strchr(line, ':');
	if (!c->open)
		return lines_error(&c->in,
				   "expected a block header \"Port=N Lid=... "
				   "GUID=0x... Port Name=...\" before "
				   "\"%.40s\"",
				   line);
	if (!colon || colon == line)
		return lines_error(&c->in,
				   "expected \"Key: value\" in the block of "
				   "line %d, got \"%.40s\"",
				   c->row.line, line);
	for (end = colon; end > line && isspace((unsigned char)end[-1]); end--)
		;
	*end = '\0';
	v = colon + 1 + strspn(colon + 1, " \t");
	for (end = v + strlen(v); end > v && isspace((unsigned char)end[-1]);
	     end--)
		;
	*end = '\0';
	key_value(c, line, v);
	return 0;
}

int xcvr_load_cables(const char *path, xcvr_row_fn fn, void *ctx, char *err,
		     size_t errlen)
{
	struct cables c = { .fn = fn, .ctx = ctx };
	int rc = lines_open(&c.in, path, err, errlen);

	if (rc)
		return rc;
	rc = lines_each(&c.in, cables_line, &c);
	if (!rc)
		rc = flush(&c);
	if (!rc && !c.blocks) {
		snprintf(err, errlen,
			 "%s: no \"Port=... GUID=...\" block (is it an "
			 "ibdiagnet2.cables?)",
			 path);
		rc = -ENOENT;
	}
	lines_close(&c.in);
	return rc;
}

bool xcvr_is_cables_file(const char *path)
{
	char err[256], *line;
	struct lines in;
	bool yes = false;

	if (lines_open(&in, path, err, sizeof(err)))
		return false;
	if (lines_next(&in, &line) > 0)
		yes = is_rule(line) || !strncmp(line, "Port=", 5);
	lines_close(&in);
	return yes;
}
