// SPDX-License-Identifier: MIT
/*
 * xcvr_files.c: module facts from the files operators already have:
 * ibdiagnet2.db_csv (its CABLE_INFO section, columns found by name as
 * ibdiagnet's CableInfoRecord names them) and mlxlink -m output, text or
 * --json. Every line is bounded (XCVR_LINE_MAX), every error names
 * FILE:LINE. Values are untrusted text: kept printable, N/A is unknown.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include <jansson.h>

#include "common/cli.h"
#include "common/lines.h"
#include "common/record.h"
#include "fabric/fabric_util.h"
#include "fabric/xcvr.h"
#include "fabric/xcvr_text.h"

#define MAX_COLS 512
#define LANE_QTYS 3 /* rx power, tx bias, tx power */

/* Column indexes of the CABLE_INFO header (-1: absent). */
struct cols {
	int node_guid, port_guid, port, vendor, oui, pn, sn, rev, ident, type;
	int length, temp;
	int mod_flag[2][4]; /* temperature, Vcc: HA LA HW LW */
	int mod_th[2][4];
	int lane_val[LANE_QTYS][XCVR_LANES];
	int lane_flag[LANE_QTYS][XCVR_LANES][4];
	int lane_th[LANE_QTYS][2]; /* high, low */
};

struct dbcsv {
	struct lines in;
	struct cols c;
	int ncols, section_line;
	bool found;
	char *hdr[MAX_COLS];
	xcvr_row_fn fn;
	void *ctx;
};

/* Column names: RX1Power, TX1Bias, TX1Power; High<what>Alarm ... */
static const char *const lane_pre[LANE_QTYS] = { "RX", "TX", "TX" };
static const char *const lane_suf[LANE_QTYS] = { "Power", "Bias", "Power" };
static const char *const flag_pre[4] = { "High", "Low", "High", "Low" };
static const char *const flag_suf[4] = { "Alarm", "Alarm", "Warning",
					 "Warning" };

static int col_find(const struct dbcsv *d, const char *name)
{
	for (int i = 0; i < d->ncols; i++)
		if (!strcasecmp(d->hdr[i], name))
			return i;
	return -1;
}

static void resolve_lanes(struct dbcsv *d)
{
	static const char *const th[LANE_QTYS][2] = {
		{ "RXPowerHighThresh", "RXPowerLowThresh" },
		{ "TXBiasHighThresh", "TXBiasLowThresh" },
		{ "TXPowerHighThresh", "TXPowerLowThresh" },
	};
	char name[64], qty[32];

	for (int q = 0; q < LANE_QTYS; q++) {
		for (int l = 0; l < XCVR_LANES; l++) {
			snprintf(qty, sizeof(qty), "%s%d%s", lane_pre[q], l + 1,
				 lane_suf[q]);
			d->c.lane_val[q][l] = col_find(d, qty);
			for (int k = 0; k < 4; k++) {
				snprintf(name, sizeof(name), "%s%s%s",
					 flag_pre[k], qty, flag_suf[k]);
				d->c.lane_flag[q][l][k] = col_find(d, name);
			}
		}
		d->c.lane_th[q][0] = col_find(d, th[q][0]);
		d->c.lane_th[q][1] = col_find(d, th[q][1]);
	}
}

static void resolve_module(struct dbcsv *d)
{
	static const char *const what[2] = { "Temperature", "SupplyVoltage" };
	static const char *const th[2][4] = {
		{ "AlarmTemperatureHighThresh", "AlarmTemperatureLowThresh",
		  "WarnTemperatureHighThresh", "WarnTemperatureLowThresh" },
		{ "AlarmVoltageHighThresh", "AlarmVoltageLowThresh",
		  "WarnVoltageHighThresh", "WarnVoltageLowThresh" },
	};
	char name[64];

	for (int m = 0; m < 2; m++)
		for (int k = 0; k < 4; k++) {
			snprintf(name, sizeof(name), "%s%s%s", flag_pre[k],
				 what[m], flag_suf[k]);
			d->c.mod_flag[m][k] = col_find(d, name);
			d->c.mod_th[m][k] = col_find(d, th[m][k]);
		}
}

static int parse_header(struct dbcsv *d, char *line)
{
	static const char *const required[] = { "NodeGuid", "PortNum", "Vendor",
						"PN", "SN" };
	int n = fabric_csv_split(line, d->hdr, MAX_COLS);

	if (n < 0 || n > MAX_COLS)
		return lines_error(&d->in,
				   "CABLE_INFO header: expected at most %d "
				   "comma-separated column names",
				   MAX_COLS);
	d->ncols = n;
	for (size_t i = 0; i < sizeof(required) / sizeof(required[0]); i++)
		if (col_find(d, required[i]) < 0)
			return lines_error(&d->in,
					   "CABLE_INFO header has no column "
					   "'%s' (columns are found by name)",
					   required[i]);
	/* the names live in the line buffer: copy what we need now */
	d->c = (struct cols){
		.node_guid = col_find(d, "NodeGuid"),
		.port_guid = col_find(d, "PortGuid"),
		.port = col_find(d, "PortNum"),
		.vendor = col_find(d, "Vendor"),
		.oui = col_find(d, "OUI"),
		.pn = col_find(d, "PN"),
		.sn = col_find(d, "SN"),
		.rev = col_find(d, "Rev"),
		.ident = col_find(d, "IdentifierStr"),
		.type = col_find(d, "TypeDesc"),
		.length = col_find(d, "LengthDesc"),
		.temp = col_find(d, "Temperature"),
	};
	resolve_module(d);
	resolve_lanes(d);
	return 0;
}

static const char *cell(char **f, int col)
{
	return col >= 0 ? f[col] : NULL;
}

static bool flag_set(char **f, int col)
{
	const char *s = cell(f, col);

	return s && (!strcmp(s, "1") || !strcasecmp(s, "true"));
}

static uint8_t flags_of(char **f, const int cols[4])
{
	uint8_t fl = 0;

	for (int k = 0; k < 4; k++)
		if (flag_set(f, cols[k]))
			fl |= (uint8_t)(1u << k);
	return fl;
}

static void row_module(const struct dbcsv *d, char **f, struct xcvr_info *x)
{
	static const enum xcvr_qty mq[2] = { XCVR_TEMP, XCVR_VCC };

	x->has[XCVR_TEMP] =
		xcvr_qty_value(XCVR_TEMP, cell(f, d->c.temp), &x->temp_c);
	for (int m = 0; m < 2; m++) {
		struct xcvr_thresh *t = &x->thresh[mq[m]];
		const int *c = d->c.mod_th[m];

		x->flags[mq[m]][0] = flags_of(f, d->c.mod_flag[m]);
		t->valid =
			xcvr_qty_value(mq[m], cell(f, c[0]), &t->high_alarm) &&
			xcvr_qty_value(mq[m], cell(f, c[1]), &t->low_alarm);
		if (t->valid &&
		    (!xcvr_qty_value(mq[m], cell(f, c[2]), &t->high_warn) ||
		     !xcvr_qty_value(mq[m], cell(f, c[3]), &t->low_warn))) {
			t->high_warn = t->high_alarm;
			t->low_warn = t->low_alarm;
		}
	}
}

static void row_lanes(const struct dbcsv *d, char **f, struct xcvr_info *x)
{
	static const enum xcvr_qty lq[LANE_QTYS] = { XCVR_RX_POWER,
						     XCVR_TX_BIAS,
						     XCVR_TX_POWER };

	x->lanes = 4;
	for (int q = 0; q < LANE_QTYS; q++) {
		struct xcvr_thresh *t = &x->thresh[lq[q]];

		for (int l = 0; l < XCVR_LANES; l++) {
			double v;

			x->flags[lq[q]][l] = flags_of(f, d->c.lane_flag[q][l]);
			if (!xcvr_qty_value(lq[q], cell(f, d->c.lane_val[q][l]),
					    &v))
				continue;
			x->has[lq[q]] = true;
			x->lane[lq[q]][l] = v;
			if (l >= 4)
				x->lanes = XCVR_LANES;
		}
		/* one threshold pair: the alarms, and the warnings too */
		t->valid = xcvr_qty_value(lq[q], cell(f, d->c.lane_th[q][0]),
					  &t->high_alarm) &&
			   xcvr_qty_value(lq[q], cell(f, d->c.lane_th[q][1]),
					  &t->low_alarm);
		t->high_warn = t->high_alarm;
		t->low_warn = t->low_alarm;
	}
}

static int parse_row(struct dbcsv *d, char *line)
{
	char *f[MAX_COLS];
	struct xcvr_row row = { .line = d->in.line };
	struct xcvr_info *x = &row.info;
	const char *guid, *pg;
	long port;
	int n = fabric_csv_split(line, f, MAX_COLS);

	if (n != d->ncols)
		return lines_error(&d->in,
				   "CABLE_INFO row has %d fields, the header "
				   "has %d",
				   n < 0 ? 0 : n, d->ncols);
	guid = f[d->c.node_guid];
	if (record_guid_parse(guid, &row.node_guid) || !row.node_guid)
		return lines_error(&d->in,
				   "NodeGuid: expected a GUID like "
				   "0x0002c90300a1b2c3, got \"%.40s\"",
				   guid);
	pg = cell(f, d->c.port_guid);
	if (pg && !xcvr_is_na(pg) && record_guid_parse(pg, &row.port_guid))
		return lines_error(
			&d->in, "PortGuid: expected a GUID, got \"%.40s\"", pg);
	if (cli_str_to_long(f[d->c.port], 1, 255, &port))
		return lines_error(&d->in,
				   "PortNum: expected a port number 1-255, got "
				   "\"%.40s\"",
				   f[d->c.port]);
	row.port = (int)port;
	x->present = true;
	x->source = "ibdiagnet";
	xcvr_text_field(x->vendor, sizeof(x->vendor), f[d->c.vendor]);
	xcvr_text_field(x->oui, sizeof(x->oui), cell(f, d->c.oui));
	xcvr_text_field(x->part_number, sizeof(x->part_number), f[d->c.pn]);
	xcvr_text_field(x->serial, sizeof(x->serial), f[d->c.sn]);
	xcvr_text_field(x->revision, sizeof(x->revision), cell(f, d->c.rev));
	xcvr_text_field(x->type, sizeof(x->type), cell(f, d->c.type));
	x->identifier = xcvr_identifier_of(cell(f, d->c.ident));
	x->one_part = xcvr_one_part_text(x->type);
	xcvr_num_unit(cell(f, d->c.length), &x->length_m, &guid);
	row_module(d, f, x);
	row_lanes(d, f, x);
	return d->fn(d->ctx, &row);
}

/* "START_CABLE_INFO" with or without trailing commas. */
static bool marker(const char *line, const char *word)
{
	size_t n = strlen(word);

	return !strncmp(line, word, n) &&
	       (!line[n] || line[n] == ',' || isspace((unsigned char)line[n]));
}

static int dbcsv_line(void *arg, char *line)
{
	struct dbcsv *d = arg;

	if (!d->section_line) {
		if (marker(line, "START_CABLE_INFO")) {
			d->section_line = d->in.line;
			d->ncols = 0;
			d->found = true;
		}
		return 0;
	}
	if (marker(line, "END_CABLE_INFO")) {
		d->section_line = 0;
		return 0;
	}
	if (!strncmp(line, "START_", 6) || !strncmp(line, "END_", 4))
		return lines_error(&d->in,
				   "expected END_CABLE_INFO (the section "
				   "started at line %d), got %.40s",
				   d->section_line, line);
	return d->ncols ? parse_row(d, line) : parse_header(d, line);
}

int xcvr_load_ibdiagnet(const char *path, xcvr_row_fn fn, void *ctx, char *err,
			size_t errlen)
{
	struct dbcsv d = { .fn = fn, .ctx = ctx };
	int rc = lines_open(&d.in, path, err, errlen);

	if (rc)
		return rc;
	rc = lines_each(&d.in, dbcsv_line, &d);
	if (!rc && !d.found) {
		snprintf(err, errlen,
			 "%s: no START_CABLE_INFO section (is it an "
			 "ibdiagnet2.db_csv?)",
			 path);
		rc = -ENOENT;
	} else if (!rc && d.section_line)
		rc = lines_error(&d.in,
				 "truncated: START_CABLE_INFO at line %d has "
				 "no END_CABLE_INFO",
				 d.section_line);
	lines_close(&d.in);
	return rc;
}

/* mlxlink -m: "Key : value" lines, the same keys in --json. */
struct mlx {
	struct xcvr_info *x;
	int *link_up;
	bool any;
};

/* "[-5..75]": strtod would take "-5." and leave ".75]". */
static bool parse_range(const char *br, double range[2])
{
	char buf[64], *dots;

	snprintf(buf, sizeof(buf), "%s", br + 1);
	dots = strstr(buf, "..");
	if (!dots)
		return false;
	dots[0] = dots[1] = ' ';
	return sscanf(buf, "%lf %lf]", &range[0], &range[1]) == 2;
}

/*
 * "0,0,-1.5,2 [lo..hi]": per-lane figures and the range mlxlink prints
 * (the module's thresholds). Returns the count of figures (N/A counts as
 * absent); *range when [lo..hi] was there.
 */
static int figures(const char *v, double *out, int max, double range[2],
		   bool *has_range)
{
	const char *p = v, *br = strchr(v, '[');
	int n = 0;

	*has_range = br && parse_range(br, range);
	while (n < max && *p && p != br) {
		char *end;
		double d = strtod(p, &end);

		if (end == p)
			break;
		out[n++] = d;
		p = end;
		while (*p == ' ')
			p++;
		if (*p != ',')
			break;
		p++;
	}
	return n;
}

static double to_unit(enum xcvr_qty q, double v)
{
	if (q == XCVR_RX_POWER || q == XCVR_TX_POWER)
		return pow(10.0, v / 10.0); /* dBm -> mW */
	if (q == XCVR_VCC)
		return v / 1000.0; /* mV -> V */
	return v;
}

/* Whether n figures stay finite numbers in the unit of q. */
static bool finite_in_unit(enum xcvr_qty q, const double *v, int n)
{
	for (int i = 0; i < n; i++)
		if (!isfinite(to_unit(q, v[i])))
			return false;
	return true;
}

static void mlx_figure(struct xcvr_info *x, enum xcvr_qty q, const char *v)
{
	double f[XCVR_LANES], r[2];
	bool has_range, all_zero = true;
	int n = figures(v, f, XCVR_LANES, r, &has_range);

	for (int i = 0; i < n; i++)
		all_zero = all_zero && f[i] == 0;
	/* "0 [0..0]": the module reports nothing (no DDM, e.g. a DAC);
	 * "nan", "inf", 4000 dBm: nothing usable either (fuzz_mlxlink) */
	if (!n || (all_zero && (!has_range || (r[0] == 0 && r[1] == 0))) ||
	    !finite_in_unit(q, f, n))
		return;
	has_range = has_range && finite_in_unit(q, r, 2);
	x->has[q] = true;
	if (q == XCVR_TEMP)
		x->temp_c = f[0];
	else if (q == XCVR_VCC)
		x->vcc_v = to_unit(q, f[0]);
	for (int i = 0; q > XCVR_VCC && i < n; i++)
		x->lane[q][i] = to_unit(q, f[i]);
	if (q > XCVR_VCC && n > x->lanes)
		x->lanes = n;
	if (has_range && r[1] > r[0]) {
		struct xcvr_thresh *t = &x->thresh[q];

		t->valid = true;
		t->low_alarm = t->low_warn = to_unit(q, r[0]);
		t->high_alarm = t->high_warn = to_unit(q, r[1]);
	}
}

static void mlx_rx_los(struct xcvr_info *x, const char *v)
{
	double f[XCVR_LANES], r[2];
	bool has_range;
	int n = figures(v, f, XCVR_LANES, r, &has_range);

	if (!n)
		return;
	x->has_rx_los = true;
	for (int i = 0; i < n; i++)
		if (f[i] != 0)
			x->rx_los |= (uint8_t)(1u << i);
	if (n > x->lanes)
		x->lanes = n;
}

static void mlx_field(struct mlx *m, const char *key, const char *v)
{
	static const struct {
		const char *key;
		enum xcvr_qty q;
	} figs[] = {
		{ "Temperature [C]", XCVR_TEMP },
		{ "Voltage [mV]", XCVR_VCC },
		{ "Bias Current [mA]", XCVR_TX_BIAS },
		{ "Rx Power Current [dBm]", XCVR_RX_POWER },
		{ "Tx Power Current [dBm]", XCVR_TX_POWER },
	};
	struct xcvr_info *x = m->x;
	const char *u;

	for (size_t i = 0; i < sizeof(figs) / sizeof(figs[0]); i++)
		if (!strcmp(key, figs[i].key)) {
			mlx_figure(x, figs[i].q, v);
			return;
		}
	if (!strcmp(key, "State"))
		*m->link_up = !strcasecmp(v, "Active");
	else if (!strcmp(key, "Vendor Name"))
		xcvr_text_field(x->vendor, sizeof(x->vendor), v);
	else if (!strcmp(key, "Vendor Part Number"))
		xcvr_text_field(x->part_number, sizeof(x->part_number), v);
	else if (!strcmp(key, "Vendor Serial Number"))
		xcvr_text_field(x->serial, sizeof(x->serial), v);
	else if (!strcmp(key, "Rev"))
		xcvr_text_field(x->revision, sizeof(x->revision), v);
	else if (!strcmp(key, "OUI"))
		xcvr_text_field(x->oui, sizeof(x->oui), v);
	else if (!strcmp(key, "Manufacturing Date"))
		xcvr_text_field(x->date_code, sizeof(x->date_code), v);
	else if (!strcmp(key, "Cable Technology"))
		xcvr_text_field(x->type, sizeof(x->type), v);
	else if (!strcmp(key, "Cable Type"))
		x->one_part = xcvr_one_part_text(v);
	else if (!strcmp(key, "Identifier"))
		x->identifier = xcvr_identifier_of(v);
	else if (!strcmp(key, "Transfer Distance [m]"))
		xcvr_num_unit(v, &x->length_m, &u);
	else if (!strcmp(key, "Rx LOS [per lane]"))
		mlx_rx_los(x, v);
	else
		return;
	m->any = m->any || strcmp(key, "State");
}

static int mlx_line(void *arg, char *line)
{
	struct mlx *m = arg;
	char *colon = strchr(line, ':'), *k, *v;

	if (!colon)
		return 0;
	*colon = '\0';
	k = line;
	v = colon + 1;
	xcvr_strip_sgr(v);
	while (*v == ' ' || *v == '\t')
		v++;
	for (char *e = k + strlen(k); e > k && isspace((unsigned char)e[-1]);)
		*--e = '\0';
	for (char *e = v + strlen(v); e > v && isspace((unsigned char)e[-1]);)
		*--e = '\0';
	mlx_field(m, k, v);
	return 0;
}

/* A JSON value as mlxlink's text would print it. */
static void json_text(const json_t *v, char *buf, size_t len)
{
	const json_t *vals = json_object_get(v, "values"), *e;
	size_t i, used = 0;

	buf[0] = '\0';
	if (json_is_string(v)) {
		snprintf(buf, len, "%s", json_string_value(v));
		return;
	}
	if (json_is_number(v)) {
		snprintf(buf, len, "%g", json_number_value(v));
		return;
	}
	json_array_foreach(vals, i, e)
	{
		char one[64];

		json_text(e, one, sizeof(one));
		used += (size_t)snprintf(buf + used, len - used, "%s%s",
					 i ? "," : "", one);
		if (used >= len)
			return;
	}
}

static int mlx_json(const char *path, struct mlx *m, char *err, size_t errlen)
{
	json_error_t je;
	json_t *root = json_load_file(path, JSON_REJECT_DUPLICATES, &je);
	json_t *out, *sect, *v;
	const char *name, *key;
	char val[512];

	if (!root)
		return snprintf(err, errlen, "%s:%d: invalid JSON: %s", path,
				je.line, je.text),
		       -EINVAL;
	out = json_object_get(json_object_get(root, "result"), "output");
	if (!json_is_object(out))
		out = root;
	json_object_foreach(out, name, sect)
	{
		json_object_foreach(sect, key, v)
		{
			json_text(v, val, sizeof(val));
			xcvr_strip_sgr(val);
			mlx_field(m, key, val);
		}
	}
	json_decref(root);
	return 0;
}

static int first_char(const char *path, char *err, size_t errlen, int *c)
{
	struct stat st;
	FILE *f = fopen(path, "re");

	if (!f || fstat(fileno(f), &st)) {
		int e = errno ? errno : EIO;

		snprintf(err, errlen, "%s: cannot read: %s", path, strerror(e));
		if (f)
			fclose(f);
		return -e;
	}
	while ((*c = getc(f)) != EOF && isspace(*c))
		;
	fclose(f);
	if (*c == '{' && st.st_size > XCVR_JSON_MAX) {
		snprintf(err, errlen,
			 "%s: %lld bytes of JSON, more than mlxlink writes "
			 "(%ld)",
			 path, (long long)st.st_size, XCVR_JSON_MAX);
		return -EFBIG;
	}
	return 0;
}

int xcvr_load_mlxlink(const char *path, struct xcvr_info *x, int *link_up,
		      char *err, size_t errlen)
{
	struct mlx m = { .x = x, .link_up = link_up };
	struct lines in;
	int c, rc;

	memset(x, 0, sizeof(*x));
	*link_up = -1;
	x->source = "mlxlink";
	rc = first_char(path, err, errlen, &c);
	if (rc)
		return rc;
	if (c == '{') {
		rc = mlx_json(path, &m, err, errlen);
	} else {
		rc = lines_open(&in, path, err, errlen);
		if (rc)
			return rc;
		rc = lines_each(&in, mlx_line, &m);
		lines_close(&in);
	}
	if (rc)
		return rc;
	x->present = m.any && (x->vendor[0] || x->serial[0] || x->identifier);
	if (!x->present)
		snprintf(x->why, sizeof(x->why),
			 "mlxlink output has no module (no Module Info)");
	return 0;
}
