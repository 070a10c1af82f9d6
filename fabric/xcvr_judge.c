// SPDX-License-Identifier: MIT
/*
 * xcvr_judge.c: the module's own flags and thresholds -> findings. A flag
 * is the module's word; a figure past one of its own thresholds counts the
 * same (flags may be latched and cleared by an earlier reader). Near its
 * alarm threshold (XCVR_NEAR_DB, XCVR_NEAR_DEGC) is a warning, except Rx
 * power near its low alarm while the link is up: that lane's optic, or the
 * far end's, is the part to replace (transceiver-rx-power-low).
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "fabric/xcvr_judge.h"

enum level { LVL_OK, LVL_WARN, LVL_ALARM };

/* What was wrong with one figure. */
struct verdict {
	enum level level;
	bool low; /* on the low side */
	bool near_low_alarm; /* at or within the margin of the low alarm */
	double threshold; /* the threshold it crossed or neared */
};

struct tally {
	char text[3][200]; /* alarm, warning, rx low: first items */
	int n[3];
	unsigned rx_lanes; /* bit per lane */
	double rx_worst_mw, rx_alarm_mw;
};

static bool thresh_usable(const struct xcvr_thresh *t)
{
	return t->valid && t->high_alarm > t->low_alarm;
}

static bool near(enum xcvr_qty q, double v, double th)
{
	if (q == XCVR_TEMP)
		return v >= th - XCVR_NEAR_DEGC && v <= th + XCVR_NEAR_DEGC;
	if (q == XCVR_RX_POWER || q == XCVR_TX_POWER)
		return xcvr_dbm(v) >= xcvr_dbm(th) - XCVR_NEAR_DB &&
		       xcvr_dbm(v) <= xcvr_dbm(th) + XCVR_NEAR_DB;
	return false;
}

static struct verdict judge_value(enum xcvr_qty q, double v, uint8_t flags,
				  const struct xcvr_thresh *t)
{
	struct verdict r = { LVL_OK, false, false, 0 };
	bool th = thresh_usable(t);

	if ((flags & XCVR_ALARMS) ||
	    (th && (v > t->high_alarm || v < t->low_alarm))) {
		r.level = LVL_ALARM;
		r.low = (flags & XCVR_LALARM) || (th && v < t->low_alarm);
		r.threshold = r.low ? t->low_alarm : t->high_alarm;
	} else if ((flags & XCVR_WARNS) ||
		   (th &&
		    (v > t->high_warn || v < t->low_warn ||
		     near(q, v, t->high_alarm) || near(q, v, t->low_alarm)))) {
		r.level = LVL_WARN;
		r.low = (flags & XCVR_LWARN) ||
			(th && (v < t->low_warn || near(q, v, t->low_alarm)));
		r.threshold =
			r.low ? (near(q, v, t->low_alarm) ? t->low_alarm
							  : t->low_warn)
			      : (near(q, v, t->high_alarm) ? t->high_alarm
							   : t->high_warn);
	}
	r.near_low_alarm = r.low && (r.level == LVL_ALARM ||
				     (th && near(q, v, t->low_alarm)));
	return r;
}

static void fmt_value(char *buf, size_t len, enum xcvr_qty q, double v)
{
	if (q == XCVR_TEMP)
		snprintf(buf, len, "%.1f C", v);
	else if (q == XCVR_VCC)
		snprintf(buf, len, "%.3f V", v);
	else if (q == XCVR_TX_BIAS)
		snprintf(buf, len, "%.2f mA", v);
	else
		snprintf(buf, len, "%.2f dBm", xcvr_dbm(v));
}

static void note(struct tally *t, int which, enum xcvr_qty q, int lane,
		 double v, const struct verdict *r)
{
	char val[32], th[32], *s = t->text[which];
	size_t used = strlen(s);

	if (t->n[which]++ >= 3) {
		if (t->n[which] == 4 && used + 5 < sizeof(t->text[which]))
			memcpy(s + used, ", ...", 6);
		return;
	}
	fmt_value(val, sizeof(val), q, v);
	fmt_value(th, sizeof(th), q, r->threshold);
	if (lane >= 0)
		snprintf(s + used, sizeof(t->text[which]) - used,
			 "%s%s lane %d %s (%s %s)", used ? ", " : "",
			 xcvr_qty_name(q), lane + 1, val,
			 r->low ? "low" : "high", th);
	else
		snprintf(s + used, sizeof(t->text[which]) - used,
			 "%s%s %s (%s %s)", used ? ", " : "", xcvr_qty_name(q),
			 val, r->low ? "low" : "high", th);
}

static void judge_one(const struct xcvr_port *p, struct tally *t,
		      enum xcvr_qty q, int lane, double v, uint8_t flags)
{
	const struct xcvr_info *x = &p->info;
	struct verdict r = judge_value(q, v, flags, &x->thresh[q]);

	if (r.level == LVL_OK)
		return;
	if (q == XCVR_RX_POWER && r.near_low_alarm && p->link_up != 0) {
		if (!t->rx_lanes || v < t->rx_worst_mw) {
			t->rx_worst_mw = v;
			t->rx_alarm_mw = x->thresh[q].low_alarm;
		}
		t->rx_lanes |= 1u << lane;
		note(t, 2, q, lane, v, &r);
		return;
	}
	if (q == XCVR_RX_POWER && r.low && p->link_up == 0)
		return; /* no light on a link that is down: not the module */
	note(t, r.level == LVL_ALARM ? 0 : 1, q, lane, v, &r);
}

/* The module's own figures once; each port's lanes with its link. */
static void tally_module(const struct xcvr_port *p, int n, struct tally *t)
{
	const struct xcvr_info *x = &p->info;

	if (x->has[XCVR_TEMP])
		judge_one(p, t, XCVR_TEMP, -1, x->temp_c,
			  x->flags[XCVR_TEMP][0]);
	if (x->has[XCVR_VCC])
		judge_one(p, t, XCVR_VCC, -1, x->vcc_v, x->flags[XCVR_VCC][0]);
	for (int i = 0; i < n; i++)
		for (int q = XCVR_RX_POWER; q < XCVR_NQTY; q++)
			for (int l = 0;
			     x->has[q] && l < x->lanes && l < XCVR_LANES; l++)
				if (!p[i].lanes || (p[i].lanes & (1u << l)))
					judge_one(&p[i], t, (enum xcvr_qty)q, l,
						  x->lane[q][l],
						  x->flags[q][l]);
}

const char *xcvr_replace_action(const struct xcvr_info *x)
{
	return x->one_part ? "replace-cable" : "replace-optic";
}

static void identity_ev(struct fabric_finding *f, const struct xcvr_info *x)
{
	fabric_finding_str(f, "vendor", "%s", x->vendor);
	fabric_finding_str(f, "part_number", "%s", x->part_number);
	fabric_finding_str(f, "serial", "%s", x->serial);
	fabric_finding_str(f, "source", "%s", x->source ? x->source : "");
}

/* A finding on p[0]; p[1..n) are the other ports the module serves. */
static struct fabric_finding *add_served(struct fabric_findings *fs,
					 const struct xcvr_port *p, int n,
					 const char *sev, const char *cat,
					 const char *action)
{
	struct fabric_finding *f = fabric_finding_add(fs, sev, cat, action);

	if (!f)
		return NULL;
	for (int i = 0; i < n && i < FABRIC_MAX_REFS; i++)
		f->refs[i] = p[i].ref;
	f->nrefs = n < FABRIC_MAX_REFS ? n : FABRIC_MAX_REFS;
	if (f->nrefs > 1)
		f->extra_role = FABRIC_ROLE_COLLATERAL;
	identity_ev(f, &p->info);
	return f;
}

static void lanes_str(unsigned mask, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (int l = 0; l < XCVR_LANES && used < len; l++)
		if (mask & (1u << l))
			used += (size_t)snprintf(buf + used, len - used, "%s%d",
						 used ? "," : "", l + 1);
}

/* "leaf01 port 3: Mellanox MMA1B00-E100 SN MT1234"; a module serving
 * more ports: "leaf01 port 33 (module of ports 33, 34): ..." */
static void where_served(const struct xcvr_port *p, int n, char *buf,
			 size_t len)
{
	const struct xcvr_info *x = &p->info;
	int used = snprintf(buf, len, "%s port %d", p->ref.name, p->ref.port);

	for (int i = 0; n > 1 && i < n && used > 0 && (size_t)used < len; i++)
		used += snprintf(buf + used, len - (size_t)used, "%s%d%s",
				 i ? ", " : " (module of ports ", p[i].ref.port,
				 i == n - 1 ? ")" : "");
	if (used > 0 && (size_t)used < len)
		snprintf(buf + used, len - (size_t)used, ": %s %s SN %s",
			 x->vendor[0] ? x->vendor : "?",
			 x->part_number[0] ? x->part_number : "?",
			 x->serial[0] ? x->serial : "?");
}

static int health_findings(const struct xcvr_port *p, int n,
			   const struct tally *t, struct fabric_findings *fs)
{
	const char *act = xcvr_replace_action(&p->info);
	const char *part = p->info.one_part ? "cable" : "optic";
	struct fabric_finding *f;
	char w[200], lanes[32];

	where_served(p, n, w, sizeof(w));
	if (t->rx_lanes) {
		if (!(f = add_served(fs, p, n, "fail",
				     "transceiver-rx-power-low", act)))
			return -ENOMEM;
		lanes_str(t->rx_lanes, lanes, sizeof(lanes));
		fabric_finding_str(f, "lanes", "%s", lanes);
		fabric_finding_real(f, "rx_power_dbm",
				    xcvr_dbm(t->rx_worst_mw));
		fabric_finding_real(f, "low_alarm_dbm",
				    xcvr_dbm(t->rx_alarm_mw));
		fabric_finding_msg(f,
				   "%s: Rx power at or near its low alarm on "
				   "lane%s %s: %s; replace the %s (or clean "
				   "the far end's)",
				   w, strchr(lanes, ',') ? "s" : "", lanes,
				   t->text[2], part);
	}
	if (t->n[0]) {
		if (!(f = add_served(fs, p, n, "fail", "transceiver-alarm",
				     act)))
			return -ENOMEM;
		fabric_finding_str(f, "alarms", "%s", t->text[0]);
		fabric_finding_msg(f, "%s: module alarm: %s; replace the %s", w,
				   t->text[0], part);
	}
	if (t->n[1]) {
		if (!(f = add_served(fs, p, n, "warn", "transceiver-warning",
				     "reseat")))
			return -ENOMEM;
		fabric_finding_str(f, "warnings", "%s", t->text[1]);
		fabric_finding_msg(f,
				   "%s: module warning: %s; clean and reseat, "
				   "replace if it still warns",
				   w, t->text[1]);
	}
	return 0;
}

bool xcvr_vendor_approved(const char *list, const char *vendor)
{
	const char *s = list, *e;
	size_t vlen = strlen(vendor);

	if (!list)
		return true;
	while (*s) {
		while (*s == ',' || isspace((unsigned char)*s))
			s++;
		e = s;
		while (*e && *e != ',')
			e++;
		size_t n = (size_t)(e - s);

		while (n && isspace((unsigned char)s[n - 1]))
			n--;
		if (n && n == vlen && !strncasecmp(s, vendor, n))
			return true;
		s = e;
	}
	return false;
}

int xcvr_judge_module(const struct xcvr_port *p, int n,
		      const struct xcvr_judge_params *jp,
		      struct fabric_findings *fs)
{
	const struct xcvr_info *x = &p->info;
	struct fabric_finding *f;
	struct tally t = { 0 };
	char w[200];

	if (!x->present || (x->map == XCVR_MAP_NONE && !x->vendor[0])) {
		if (!(f = add_served(fs, p, n, "info", "transceiver-unreadable",
				     "none")))
			return -ENOMEM;
		fabric_finding_str(f, "reason", "%s", x->why);
		fabric_finding_msg(f, "%s port %d: module not readable: %s",
				   p->ref.name, p->ref.port,
				   x->why[0] ? x->why : "no answer");
		return 0;
	}
	where_served(p, n, w, sizeof(w));
	if (jp && jp->approved_vendors &&
	    !xcvr_vendor_approved(jp->approved_vendors, x->vendor)) {
		if (!(f = add_served(fs, p, n, "warn", "transceiver-unapproved",
				     "none")))
			return -ENOMEM;
		fabric_finding_str(f, "approved", "%s", jp->approved_vendors);
		fabric_finding_msg(f,
				   "%s: vendor '%s' is not on the approved "
				   "list (%s)",
				   w, x->vendor, jp->approved_vendors);
	}
	if (x->why[0]) { /* read, but not all of it */
		if (!(f = add_served(fs, p, n, "info", "transceiver-unreadable",
				     "none")))
			return -ENOMEM;
		fabric_finding_str(f, "reason", "%s", x->why);
		fabric_finding_msg(f, "%s: partly read: %s", w, x->why);
	}
	tally_module(p, n, &t);
	return health_findings(p, n, &t, fs);
}

int xcvr_judge(const struct xcvr_port *p, const struct xcvr_judge_params *jp,
	       struct fabric_findings *fs)
{
	return xcvr_judge_module(p, 1, jp, fs);
}
