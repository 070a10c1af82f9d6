// SPDX-License-Identifier: MIT
/*
 * fabric_counters.c: judging PMA counters. PortCounters saturate at their
 * maximum (they never wrap): a saturated counter gives a lower bound and
 * is flagged. A value below its baseline means the counter was reset in
 * between; the delta is then the value itself.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/lines.h"
#include "fabric/fabric_counters.h"
#include "fabric/fabric_limits.h"

void fabric_thresholds_default(struct fabric_thresholds *t)
{
	int i;

	memset(t, 0, sizeof(*t));
	for (i = 0; i < IB_PC_COUNT; i++)
		t->v[i] = fabric_limits[i].since_clear;
}

void fabric_thresholds_default_window(struct fabric_thresholds *t)
{
	int i;

	memset(t, 0, sizeof(*t));
	for (i = 0; i < IB_PC_COUNT; i++)
		t->v[i] = fabric_limits[i].window;
}

static int threshold_line(struct fabric_thresholds *t, char *p)
{
	char *eq = strchr(p, '='), *end, *name = p;
	unsigned long long v;
	int id;

	if (!eq)
		return -EINVAL;
	*eq = '\0';
	while (*name && isspace((unsigned char)*name))
		name++;
	for (end = eq; end > name && isspace((unsigned char)end[-1]);)
		*--end = '\0';
	id = ib_pc_index(name);
	if (id < 0 || id >= FABRIC_PC_ERRORS_END)
		return -ENOENT;
	p = eq + 1;
	while (isspace((unsigned char)*p))
		p++;
	if (!isdigit((unsigned char)*p)) /* strtoull() takes "-1" as 2^64-1 */
		return -EINVAL;
	errno = 0; /* decimal, or hex with 0x; "010" is ten, not octal 8 */
	v = strtoull(p, &end, strncasecmp(p, "0x", 2) ? 10 : 16);
	while (isspace((unsigned char)*end))
		end++;
	if (errno || end == p || *end)
		return -EINVAL;
	t->v[id] = v;
	return 0;
}

struct thresholds_parse {
	struct fabric_thresholds *t;
	struct lines in;
};

static int thresholds_parse_line(void *arg, char *line)
{
	struct thresholds_parse *tp = arg;
	int rc = threshold_line(tp->t, line);

	if (rc == -ENOENT)
		return lines_error(&tp->in,
				   "unknown counter \"%s\" "
				   "(expected e.g. SymbolErrorCounter=10)",
				   line);
	if (rc)
		return lines_error(
			&tp->in, "expected CounterName=number (decimal, or hex "
				 "with 0x; 0 to 2^64-1)");
	return 0;
}

int fabric_thresholds_parse(const char *path, const char *text,
			    struct fabric_thresholds *t, char *err,
			    size_t errlen)
{
	struct thresholds_parse tp = { .t = t };
	int rc;

	lines_open_text(&tp.in, path, text, err, errlen);
	rc = lines_each(&tp.in, thresholds_parse_line, &tp);
	lines_close(&tp.in);
	return rc;
}

uint64_t fabric_pc_max(int id, bool ext)
{
	int bits = ext ? 64 : ib_pc_defs[id].bits;

	return bits >= 64 ? UINT64_MAX : (1ULL << bits) - 1;
}

/* Whether counter id of pc is 64-bit: data from PortCountersExtended, the
 * error counters from its additional part (ext_err). */
static bool pc_is_ext(const struct fabric_pc *pc, int id)
{
	return id < FABRIC_PC_ERRORS_END ? pc->ext_err : pc->ext;
}

void fabric_pc_compute(struct fabric_port_counters *pc)
{
	uint64_t cur, base;
	bool ext, mixed;
	int i;

	for (i = 0; i < IB_PC_COUNT; i++) {
		cur = pc->cur.v[i];
		base = pc->has_base ? pc->base.v[i] : 0;
		ext = pc_is_ext(&pc->cur, i);
		/* read 32-bit once and 64-bit the other time: the rise is
		 * not known; flagged as saturated (a lower bound, if any) */
		mixed = pc->has_base && ext != pc_is_ext(&pc->base, i);
		pc->saturated[i] = mixed || cur == fabric_pc_max(i, ext);
		pc->delta.v[i] = mixed ? 0 : cur >= base ? cur - base : cur;
	}
	pc->delta.ext = pc->cur.ext;
	pc->delta.ext_err = pc->cur.ext_err;
}

static const struct fabric_port_counters *
pcs_of(const struct fabric_port_counters *pcs, const struct fabric_port *p)
{
	return p && pcs[p->id].valid ? &pcs[p->id] : NULL;
}

/* Bits received in the window: 4-octet words x 32; -1 when unknown (a
 * saturated 32-bit counter). */
static double rcv_bits(const struct fabric_port_counters *pc)
{
	if (pc->saturated[IB_PC_RCV_DATA])
		return -1;
	return (double)pc->delta.v[IB_PC_RCV_DATA] * 32.0;
}

/* Errors per bit received: 4-octet words -> bits. */
static void add_ber(struct fabric_finding *f, const char *key,
		    const struct fabric_port_counters *pc, int id)
{
	uint64_t words = pc->delta.v[IB_PC_RCV_DATA];

	if (words && !pc->saturated[IB_PC_RCV_DATA])
		fabric_finding_real(f, key,
				    (double)pc->delta.v[id] /
					    ((double)words * 32.0));
}

/*
 * What one end's figure is, in words: "15 since the last clear", "rose by
 * 15 during the check (3 at the baseline)" or "rose by 15 in the 60 s
 * window (3 at its start)"; a saturated counter says so.
 */
static void counter_figure(char *buf, size_t len,
			   const struct fabric_port_counters *pc, int id,
			   const struct fabric_window *w)
{
	unsigned long long d = pc->delta.v[id];
	bool sat = pc->saturated[id];

	if (w && w->mode == FABRIC_WINDOW_TIMED)
		snprintf(buf, len,
			 "rose by %s%llu in the %.0f s window (%llu at its "
			 "start)%s",
			 sat ? "at least " : "", d, w->seconds,
			 (unsigned long long)pc->base.v[id],
			 sat ? ", counter saturated" : "");
	else if (pc->has_base)
		snprintf(buf, len,
			 "rose by %s%llu during the check (%llu at the "
			 "baseline)%s",
			 sat ? "at least " : "", d,
			 (unsigned long long)pc->base.v[id],
			 sat ? ", counter saturated" : "");
	else
		snprintf(buf, len, "%s%llu since the last clear%s",
			 sat ? "at least " : "", d,
			 sat ? ", counter saturated" : "");
}

/* counter_figure() and, judged as a rate, the rate: " over 3.2e+11 bits
 * (BER 1.6e-10)" or " (at least 12.5% of the window's ticks)". */
static void end_figure(char *buf, size_t len,
		       const struct fabric_port_counters *pc, int id,
		       const struct fabric_window *w,
		       const struct fabric_limit_out *o)
{
	size_t n;

	counter_figure(buf, len, pc, id, w);
	n = strlen(buf);
	if (o->how == FABRIC_JUDGED_BER)
		snprintf(buf + n, len - n, " over %.3g bits (BER %.2g)",
			 o->bits, o->figure);
	else if (o->how == FABRIC_JUDGED_WAIT)
		snprintf(buf + n, len - n,
			 " (at least %.1f%% of the window's ticks)",
			 o->figure * 100);
}

/* What the figures were judged against; both ends' when they differ
 * (one end's bits known, the other's not). */
static void limit_words(char *buf, size_t len,
			const struct fabric_limit_out *ao,
			const struct fabric_limit_out *bo, uint64_t threshold)
{
	const struct fabric_limit_out *ber = ao->how == FABRIC_JUDGED_BER ? ao
					     : bo->how == FABRIC_JUDGED_BER
						     ? bo
						     : NULL;
	bool count = ao->how == FABRIC_JUDGED_COUNT ||
		     (bo->how == FABRIC_JUDGED_COUNT && ber);

	if (ber && count)
		snprintf(buf, len,
			 "threshold %llu where the bits are not known; BER "
			 "limit %.0e with at least %d errors (%s)",
			 (unsigned long long)threshold, ber->limit,
			 FABRIC_BER_MIN_ERRORS, ber->source);
	else if (ber)
		snprintf(buf, len,
			 "BER limit %.0e with at least %d errors (%s)",
			 ber->limit, FABRIC_BER_MIN_ERRORS, ber->source);
	else if (ao->how == FABRIC_JUDGED_WAIT)
		snprintf(buf, len,
			 "congestion, not a cable fault: info from %.0f%%, "
			 "warn from %.0f%% of the ticks",
			 FABRIC_WAIT_INFO * 100, FABRIC_WAIT_WARN * 100);
	else
		snprintf(buf, len, "threshold %llu",
			 (unsigned long long)threshold);
}

static void counter_message(char *buf, size_t len, int id, const char *a_name,
			    const struct fabric_port_counters *a,
			    const struct fabric_limit_out *ao,
			    const char *b_name,
			    const struct fabric_port_counters *b,
			    const struct fabric_limit_out *bo,
			    uint64_t threshold, const struct fabric_window *w)
{
	char fa[192], fb[192] = "no counters (no far end)", lim[224];

	end_figure(fa, sizeof(fa), a, id, w, ao);
	if (b)
		end_figure(fb, sizeof(fb), b, id, w, bo);
	limit_words(lim, sizeof(lim), ao, b ? bo : ao, threshold);
	snprintf(buf, len, "%s%s%s: %s %s at %s; %s at %s; %s", a_name,
		 *b_name ? " - " : "", b_name, ib_pc_defs[id].name, fa, a_name,
		 fb, *b_name ? b_name : "the far end", lim);
}

/*
 * The one wording of a counter finding: the cable, the counter, each end's
 * figure named by its end, and the threshold it was judged against.
 */
void fabric_counter_message(char *buf, size_t len, int id, const char *a_name,
			    const struct fabric_port_counters *a,
			    const char *b_name,
			    const struct fabric_port_counters *b,
			    uint64_t threshold)
{
	struct fabric_limit_out o = { .how = FABRIC_JUDGED_COUNT };

	counter_message(buf, len, id, a_name, a, &o, b_name, b, &o, threshold,
			NULL);
}

/* One end's judgement of counter id. */
static void judge_end(const struct fabric_port *p,
		      const struct fabric_port_counters *pc, int id,
		      uint64_t threshold, const struct fabric_window *w,
		      struct fabric_limit_out *o)
{
	struct fabric_limit_in in = {
		.count = pc->delta.v[id],
		.saturated = pc->saturated[id],
		.data_bits = rcv_bits(pc),
		.seconds = w && w->mode == FABRIC_WINDOW_TIMED ? w->seconds : 0,
		.speed = (enum ib_speed)p->speed,
		.lanes = p->width,
		.threshold = threshold,
	};

	fabric_limit_judge(id, &in, o);
}

void fabric_port_ber(const struct fabric_port *p,
		     const struct fabric_port_counters *pc,
		     const struct fabric_window *w, struct fabric_limit_out *o)
{
	judge_end(p, pc, IB_PC_SYMBOL_ERRORS,
		  fabric_limits[IB_PC_SYMBOL_ERRORS].window, w, o);
}

struct cable_judged {
	const struct fabric_port *p;
	const struct fabric_port_counters *a, *b;
	struct fabric_limit_out ao, bo;
	const char *severity;
};

static void add_rate_evidence(struct fabric_finding *f, const char *end,
			      const struct fabric_limit_out *o)
{
	char key[32];

	if (o->how == FABRIC_JUDGED_BER) {
		snprintf(key, sizeof(key), "%s_bits", end);
		fabric_finding_real(f, key, o->bits);
		snprintf(key, sizeof(key), "%s_ber", end);
		fabric_finding_real(f, key, o->figure);
	} else if (o->how == FABRIC_JUDGED_WAIT) {
		snprintf(key, sizeof(key), "%s_wait_share", end);
		fabric_finding_real(f, key, o->figure);
	}
}

static void add_window_evidence(struct fabric_finding *f,
				const struct fabric_limit_out *o,
				const struct fabric_window *w)
{
	static const char *const how[] = { "count", "ber", "wait-share" };

	fabric_finding_str(f, "judged_by", "%s", how[o->how]);
	if (o->how == FABRIC_JUDGED_BER) {
		fabric_finding_real(f, "ber_limit", o->limit);
		fabric_finding_str(f, "ber_limit_source", "%s", o->source);
	}
	fabric_finding_str(f, "window", "%s", fabric_window_mode_name(w));
	if (w && w->seconds > 0)
		fabric_finding_real(f, "window_s", w->seconds);
}

static int add_counter_finding(struct fabric_findings *out, int id,
			       const struct cable_judged *c, uint64_t threshold,
			       const struct fabric_window *w)
{
	const struct fabric_port *p = c->p;
	struct fabric_finding *f;
	char ps[128], rs[128] = "", msg[1024];

	f = fabric_finding_add(out, c->severity, fabric_limits[id].category,
			       fabric_limits[id].action);
	if (!f)
		return -ENOMEM;
	fabric_finding_port(f, p);
	if (p->remote)
		fabric_finding_port(f, p->remote);
	fabric_finding_str(f, "counter", "%s", ib_pc_defs[id].name);
	fabric_finding_num(f, "threshold", (long long)threshold);
	fabric_finding_bool(f, "since_baseline", c->a->has_base);
	add_window_evidence(f, &c->ao, w);
	fabric_finding_num(f, "a_value", (long long)c->a->delta.v[id]);
	fabric_finding_bool(f, "a_saturated", c->a->saturated[id]);
	add_ber(f, "a_errors_per_bit", c->a, id);
	add_rate_evidence(f, "a", &c->ao);
	if (c->b) {
		fabric_finding_num(f, "b_value", (long long)c->b->delta.v[id]);
		fabric_finding_bool(f, "b_saturated", c->b->saturated[id]);
		add_ber(f, "b_errors_per_bit", c->b, id);
		add_rate_evidence(f, "b", &c->bo);
	}
	fabric_port_str(p, ps, sizeof(ps));
	if (p->remote)
		fabric_port_str(p->remote, rs, sizeof(rs));
	counter_message(msg, sizeof(msg), id, ps, c->a, &c->ao, rs, c->b,
			&c->bo, threshold, w);
	fabric_finding_msg(f, "%s", msg);
	return 0;
}

static int check_cable(struct fabric_findings *out,
		       const struct fabric_thresholds *t,
		       const struct fabric_window *w, struct cable_judged *c)
{
	int id, rc;

	for (id = 0; id < FABRIC_PC_ERRORS_END; id++) {
		judge_end(c->p, c->a, id, t->v[id], w, &c->ao);
		memset(&c->bo, 0, sizeof(c->bo));
		if (c->b)
			judge_end(c->p, c->b, id, t->v[id], w, &c->bo);
		c->severity =
			fabric_severity_max(c->ao.severity, c->bo.severity);
		if (!c->severity)
			continue;
		if ((rc = add_counter_finding(out, id, c, t->v[id], w)))
			return rc;
	}
	return 0;
}

const char *fabric_window_mode_name(const struct fabric_window *w)
{
	if (!w || w->mode == FABRIC_WINDOW_SINCE_CLEAR)
		return "since-clear";
	return w->mode == FABRIC_WINDOW_TIMED ? "window" : "baseline";
}

int fabric_counters_check(const struct fabric *m,
			  const struct fabric_port_counters *pcs,
			  const struct fabric_thresholds *t,
			  const struct fabric_window *w,
			  struct fabric_findings *out)
{
	struct cable_judged c;
	size_t i;
	int j, rc;

	for (i = 0; i < m->nnodes; i++) {
		for (j = 1; j <= m->nodes[i]->nports; j++) {
			memset(&c, 0, sizeof(c));
			c.p = &m->nodes[i]->ports[j];
			c.a = pcs_of(pcs, c.p);
			c.b = pcs_of(pcs, c.p->remote);
			if (!c.a && !c.b)
				continue;
			if (c.p->remote && c.p->remote->id < c.p->id)
				continue; /* seen from the other end */
			if (!c.a) {
				c.p = c.p->remote;
				c.a = c.b;
				c.b = NULL;
			}
			if ((rc = check_cable(out, t, w, &c)))
				return rc;
		}
	}
	return 0;
}
