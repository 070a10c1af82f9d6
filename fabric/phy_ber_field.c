// SPDX-License-Identifier: MIT
/*
 * phy_ber_field.c: what the `mlxlink -c` text reader (phy_ber.c) and its
 * --json reader (phy_ber_json.c) share, below both: the check of each
 * "Key : value" figure (a BER, a count, the lanes), the text form's line,
 * and the line of a key in a JSON text for the error message. Neither
 * reader is called from here.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/lines.h"
#include "fabric/phy_ber.h"
#include "fabric/phy_ber_int.h"
#include "fabric/xcvr_text.h"

/* Where "name" stands as a key (a ':' after it) at or after from. */
static const char *find_key(const char *from, const char *name)
{
	size_t n = strlen(name);
	const char *s = from, *c;

	while ((s = strchr(s, '"'))) {
		if (!strncmp(s + 1, name, n) && s[1 + n] == '"') {
			for (c = s + 2 + n; *c == ' ' || *c == '\t' ||
					    *c == '\r' || *c == '\n';
			     c++)
				;
			if (*c == ':')
				return s;
		}
		s++;
	}
	return NULL;
}

int phy_ber_line_at(const char *text, const char *at)
{
	int line = 1;

	for (const char *s = text; s < at; s++)
		line += *s == '\n';
	return line;
}

int phy_ber_json_line(const char *json, const char *sect, const char *key)
{
	const char *s = find_key(json, sect), *k;

	if (!s)
		return 1;
	k = key ? find_key(s, key) : NULL;
	return phy_ber_line_at(json, k ? k : s);
}

static char *trim(char *s)
{
	char *e;

	while (*s == ' ' || *s == '\t')
		s++;
	for (e = s + strlen(s); e > s && isspace((unsigned char)e[-1]);)
		*--e = '\0';
	return s;
}

/* "3E-12", "15E-255", "0": a finite, non-negative BER in range. */
static bool ber_value(const char *s, double *out)
{
	char *end;
	double v;

	if (!isdigit((unsigned char)*s))
		return false; /* N/A, nan, inf, -1, "" */
	errno = 0;
	v = strtod(s, &end);
	if (errno || *end || !isfinite(v) || v < 0)
		return false; /* ERANGE: 1E400, 1E-400 */
	*out = v;
	return true;
}

static bool count_value(const char *s, uint64_t *out)
{
	char *end;
	unsigned long long v;

	if (!isdigit((unsigned char)*s))
		return false;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || *end)
		return false;
	*out = v;
	return true;
}

/* "26711,0,0,9108": 1 to 8 counts, no empty one. */
static bool lanes_value(char *s, struct phy_ber *b)
{
	int n = 0;
	char *comma;

	do {
		comma = strchr(s, ',');
		if (comma)
			*comma = '\0';
		if (n == PHY_BER_LANES ||
		    !count_value(trim(s), &b->lane_errors[n]))
			return false;
		n++;
		if (comma)
			s = comma + 1;
	} while (comma);
	b->lanes = n;
	return true;
}

static int bad(struct ber_parse *p, const char *key, const char *v,
	       const char *want)
{
	if (p->json)
		p->in.line = phy_ber_json_line(p->json, p->sect, key);
	return lines_error(&p->in, "%s \"%.40s\": expected %s", key, v, want);
}

static int ber_key(struct ber_parse *p, const char *key, const char *v,
		   bool *has, double *out)
{
	if (!ber_value(v, out))
		return bad(p, key, v,
			   "a BER such as 3E-12 (0 or more, within "
			   "1E-307..1E308)");
	*has = true;
	p->b->present = true;
	return 0;
}

static int count_key(struct ber_parse *p, const char *key, const char *v,
		     bool *has, uint64_t *out)
{
	if (!count_value(v, out))
		return bad(p, key, v, "a count (0 to 2^64-1)");
	*has = true;
	p->b->present = true;
	return 0;
}

static int small_key(struct ber_parse *p, const char *key, const char *v,
		     int *out)
{
	uint64_t n;

	if (!count_value(v, &n) || n > 1000000000)
		return bad(p, key, v, "a count");
	*out = (int)n;
	return 0;
}

int phy_ber_field(struct ber_parse *p, const char *key, char *v)
{
	struct phy_ber *b = p->b;
	double minutes;

	if (!strcmp(key, "Speed")) {
		/* "IB-NDR"; Ethernet speeds ("100GbE") leave it unknown */
		if (!strncasecmp(v, "IB-", 3))
			b->speed = ib_speed_from_name(v + 3);
		return 0;
	}
	if (!strcmp(key, "Raw Physical BER"))
		return ber_key(p, key, v, &b->has_raw, &b->raw_ber);
	if (!strcmp(key, "Effective Physical BER"))
		return ber_key(p, key, v, &b->has_eff, &b->eff_ber);
	if (!strcmp(key, "Symbol BER"))
		return ber_key(p, key, v, &b->has_sym, &b->sym_ber);
	if (!strcmp(key, "Effective Physical Errors"))
		return count_key(p, key, v, &b->has_eff_errors, &b->eff_errors);
	if (!strcmp(key, "Symbol Errors"))
		return count_key(p, key, v, &b->has_sym_errors, &b->sym_errors);
	if (!strcmp(key, "Time Since Last Clear [Min]")) {
		if (!ber_value(v, &minutes))
			return bad(p, key, v, "minutes such as 1715.4");
		b->minutes = minutes;
		return 0;
	}
	if (!strcmp(key, "Raw Physical Errors Per Lane")) {
		if (!lanes_value(v, b))
			return bad(p, key, v, "1 to 8 comma-separated counts");
		b->present = true;
		return 0;
	}
	if (!strcmp(key, "Link Down Counter"))
		return small_key(p, key, v, &b->link_down);
	if (!strcmp(key, "Link Error Recovery Counter"))
		return small_key(p, key, v, &b->link_recovery);
	return 0;
}

int phy_ber_text_line(void *arg, char *line)
{
	struct ber_parse *p = arg;
	char *colon = strchr(line, ':');

	if (!colon)
		return 0;
	*colon = '\0';
	xcvr_strip_sgr(colon + 1);
	return phy_ber_field(p, trim(line), trim(colon + 1));
}

void phy_ber_init(struct phy_ber *b)
{
	memset(b, 0, sizeof(*b));
	b->minutes = -1;
	b->link_down = b->link_recovery = -1;
}
