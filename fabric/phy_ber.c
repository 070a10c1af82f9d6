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
		rc = lines_each(&p.in, phy_ber_text_line, &p);
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
	rc = lines_each(&p.in, phy_ber_text_line, &p);
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
