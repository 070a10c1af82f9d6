// SPDX-License-Identifier: MIT
/*
 * phy_ber.c: `mlxlink -c` "Physical Counters and BER Info" figures and
 * their judgement. The text layout ("Key : value" lines under a heading
 * and a rule of dashes; BER as "3E-12", "15E-255" for about zero; raw
 * errors per lane comma-separated, above 2^32) is that of the public
 * captures in tests/fixtures/phy/ (their README names the sources);
 * `mlxlink -c --json` goes through phy_ber_json.c to the same checks.
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

static int ber_line(void *arg, char *line)
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

/* The first character that is not a blank: '{' for --json. */
static int first_char(FILE *f)
{
	int c;

	while ((c = getc(f)) != EOF && isspace(c))
		;
	return c;
}

int phy_ber_load_mlxlink(const char *path, struct phy_ber *b, char *err,
			 size_t errlen)
{
	struct ber_parse p = { .b = b };
	FILE *f;
	int rc;

	phy_ber_init(b);
	f = fopen(path, "re");
	if (f && first_char(f) == '{') {
		rc = phy_ber_load_json(f, path, b, err, errlen);
		fclose(f);
		return rc;
	}
	if (f)
		fclose(f);
	rc = lines_open(&p.in, path, err, errlen);
	if (!rc)
		rc = lines_each(&p.in, ber_line, &p);
	lines_close(&p.in);
	return rc;
}

int phy_ber_parse_text(const char *path, const char *text, struct phy_ber *b,
		       char *err, size_t errlen)
{
	struct ber_parse p = { .b = b };
	const char *s = text;
	int rc;

	phy_ber_init(b);
	while (isspace((unsigned char)*s))
		s++;
	if (*s == '{')
		return phy_ber_parse_json(path, text, strlen(text), b, err,
					  errlen);
	lines_open_text(&p.in, path, text, err, errlen);
	rc = lines_each(&p.in, ber_line, &p);
	lines_close(&p.in);
	return rc;
}

void phy_ber_limits_of(enum ib_speed speed, struct phy_ber_limits *l)
{
	memset(l, 0, sizeof(*l));
	if (speed >= IB_SPEED_HDR) {
		l->post_fec = 1e-14;
		l->post_fec_source = "symbol BER 1e-14: NVIDIA UFM PDR "
				     "deterministic plugin";
		l->raw_warn = 1e-6;
		l->raw_fail = 2.4e-4;
		l->raw_source = "raw BER: healthy PAM4 links 1e-9..1e-7, "
				"Quantum release notes' unclean 1e-6; "
				"RS(544,514) corrects up to 2.4e-4 (IEEE "
				"802.3)";
		return;
	}
	l->post_fec = 1e-12;
	l->post_fec_source = "effective BER 1e-12: IBTA link BER, ibdiagnet "
			     "--ber_test default";
	if (speed != IB_SPEED_UNKNOWN) { /* NRZ: raw is what arrives */
		l->raw_warn = 1e-12;
		l->raw_source = "raw BER 1e-12: IBTA link BER (NRZ, FEC "
				"optional)";
	}
}

static void ber_ev(struct fabric_finding *f, const struct phy_ber *b,
		   enum ib_speed speed)
{
	fabric_finding_str(f, "speed", "%s", ib_speed_name(speed));
	if (b->has_raw)
		fabric_finding_real(f, "raw_ber", b->raw_ber);
	if (b->has_eff)
		fabric_finding_real(f, "effective_ber", b->eff_ber);
	if (b->has_sym)
		fabric_finding_real(f, "symbol_ber", b->sym_ber);
	if (b->has_sym_errors)
		fabric_finding_num(f, "symbol_errors",
				   (long long)(b->sym_errors > INT64_MAX
						       ? INT64_MAX
						       : b->sym_errors));
	if (b->minutes >= 0)
		fabric_finding_real(f, "minutes_since_clear", b->minutes);
	fabric_finding_str(f, "source", "mlxlink");
}

static struct fabric_finding *add(struct fabric_findings *fs, const char *sev,
				  const char *cat, const char *action,
				  const struct fabric_ref *ref)
{
	struct fabric_finding *f = fabric_finding_add(fs, sev, cat, action);

	if (f && ref) {
		f->refs[0] = *ref;
		f->nrefs = 1;
	}
	return f;
}

/* Errors left after FEC: the symbol BER where the port gives one (HDR and
 * faster), else the effective BER; "15E-255" with no errors is zero. */
static int post_fec(const struct phy_ber *b, enum ib_speed speed,
		    const struct phy_ber_limits *l,
		    const struct fabric_ref *ref, const char *where,
		    struct fabric_findings *fs)
{
	bool sym = b->has_sym;
	double v = sym ? b->sym_ber : b->eff_ber;
	struct fabric_finding *f;

	if ((!sym && !b->has_eff) || v <= l->post_fec)
		return 0;
	if ((sym && b->has_sym_errors && !b->sym_errors) ||
	    (!sym && b->has_eff_errors && !b->eff_errors))
		return 0;
	f = add(fs, "fail", "ber-post-fec", "replace-cable", ref);
	if (!f)
		return -ENOMEM;
	ber_ev(f, b, speed);
	fabric_finding_real(f, "limit", l->post_fec);
	fabric_finding_msg(f,
			   "%s: %s BER %.2g after FEC, over %.2g (%s): errors "
			   "reach applications; replace the cable",
			   where, sym ? "symbol" : "effective", v, l->post_fec,
			   l->post_fec_source);
	return 0;
}

static int raw(const struct phy_ber *b, enum ib_speed speed,
	       const struct phy_ber_limits *l, const struct fabric_ref *ref,
	       const char *where, struct fabric_findings *fs)
{
	bool at_cliff = l->raw_fail > 0 && b->raw_ber >= l->raw_fail;
	struct fabric_finding *f;

	if (!b->has_raw || !l->raw_warn || b->raw_ber <= l->raw_warn)
		return 0;
	f = add(fs, at_cliff ? "fail" : "warn", "ber-raw",
		at_cliff ? "replace-cable" : "reseat", ref);
	if (!f)
		return -ENOMEM;
	ber_ev(f, b, speed);
	fabric_finding_real(f, "limit", at_cliff ? l->raw_fail : l->raw_warn);
	fabric_finding_msg(
		f, "%s: raw BER %.2g before FEC, over %.2g (%s)%s: %s", where,
		b->raw_ber, at_cliff ? l->raw_fail : l->raw_warn, l->raw_source,
		b->has_sym_errors && !b->sym_errors
			? ", with no symbol errors yet"
			: "",
		at_cliff	  ? "FEC is at its limit; replace the cable"
		: l->raw_fail > 0 ? "near the FEC's limit; reseat and clean "
				    "the connectors, then read again"
				  : "over the link's bound; reseat and clean "
				    "the connectors, then read again");
	return 0;
}

int phy_ber_judge(const struct phy_ber *b, enum ib_speed speed,
		  const struct fabric_ref *ref, const char *where,
		  struct fabric_findings *fs)
{
	struct phy_ber_limits l;
	int rc;

	if (!b->present)
		return 0;
	if (b->speed != IB_SPEED_UNKNOWN)
		speed = b->speed;
	phy_ber_limits_of(speed, &l);
	rc = post_fec(b, speed, &l, ref, where, fs);
	if (!rc)
		rc = raw(b, speed, &l, ref, where, fs);
	return rc;
}

json_t *phy_ber_json(const struct phy_ber *b)
{
	json_t *o, *lanes;

	if (!b->present || !(o = json_object()))
		return NULL;
	if (b->has_raw)
		json_object_set_new(o, "raw", json_real(b->raw_ber));
	if (b->has_eff)
		json_object_set_new(o, "effective", json_real(b->eff_ber));
	if (b->has_sym)
		json_object_set_new(o, "symbol", json_real(b->sym_ber));
	if (b->has_eff_errors)
		json_object_set_new(o, "effective_errors",
				    json_real((double)b->eff_errors));
	if (b->has_sym_errors)
		json_object_set_new(o, "symbol_errors",
				    json_real((double)b->sym_errors));
	if (b->minutes >= 0)
		json_object_set_new(o, "minutes", json_real(b->minutes));
	if (b->lanes && (lanes = json_array())) {
		for (int i = 0; i < b->lanes; i++)
			json_array_append_new(
				lanes, json_real((double)b->lane_errors[i]));
		json_object_set_new(o, "raw_errors_per_lane", lanes);
	}
	json_object_set_new(o, "speed", json_string(ib_speed_name(b->speed)));
	return o;
}
