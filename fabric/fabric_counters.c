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

/* How fabric judges each counter: finding category, severity, action and
 * the default threshold (a delta above it is a finding). */
static const struct {
	const char *category, *severity, *action;
	uint64_t threshold;
} judging[IB_PC_COUNT] = {
	[IB_PC_SYMBOL_ERRORS] = { "symbol-errors", "fail", "replace-cable",
				  10 },
	[IB_PC_LINK_ERROR_RECOVERY] = { "link-error-recovery", "fail", "reseat",
					10 },
	[IB_PC_LINK_DOWNED] = { "link-downed", "fail", "reseat", 10 },
	[IB_PC_RCV_ERRORS] = { "rcv-errors", "fail", "replace-cable", 10 },
	[IB_PC_RCV_REMOTE_PHYS_ERRORS] = { "rcv-remote-phys-errors", "warn",
					   "none", 100 },
	[IB_PC_RCV_SWITCH_RELAY_ERRORS] = { "rcv-switch-relay-errors", "warn",
					    "none", 100 },
	[IB_PC_XMIT_DISCARDS] = { "xmit-discards", "warn", "none", 100 },
	[IB_PC_XMIT_CONSTRAINT_ERRORS] = { "xmit-constraint-errors", "warn",
					   "none", 100 },
	[IB_PC_RCV_CONSTRAINT_ERRORS] = { "rcv-constraint-errors", "warn",
					  "none", 100 },
	[IB_PC_LOCAL_LINK_INTEGRITY_ERRORS] = { "link-integrity-errors", "fail",
						"replace-cable", 10 },
	[IB_PC_BUFFER_OVERRUN_ERRORS] = { "buffer-overrun", "fail", "reseat",
					  10 },
	[IB_PC_VL15_DROPPED] = { "vl15-dropped", "warn", "none", 100 },
	[IB_PC_XMIT_WAIT] = { "xmit-wait", "warn", "none", 1000 },
};

void fabric_thresholds_default(struct fabric_thresholds *t)
{
	int i;

	for (i = 0; i < IB_PC_COUNT; i++)
		t->v[i] = judging[i].threshold;
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
	int bits = ib_pc_defs[id].bits;

	if (ext && id >= FABRIC_PC_ERRORS_END)
		bits = 64;
	return bits >= 64 ? UINT64_MAX : (1ULL << bits) - 1;
}

void fabric_pc_compute(struct fabric_port_counters *pc)
{
	uint64_t cur, base;
	int i;

	for (i = 0; i < IB_PC_COUNT; i++) {
		cur = pc->cur.v[i];
		base = pc->has_base ? pc->base.v[i] : 0;
		pc->saturated[i] = cur == fabric_pc_max(i, pc->cur.ext);
		pc->delta.v[i] = cur >= base ? cur - base : cur;
	}
	pc->delta.ext = pc->cur.ext;
}

static const struct fabric_port_counters *
pcs_of(const struct fabric_port_counters *pcs, const struct fabric_port *p)
{
	return p && pcs[p->id].valid ? &pcs[p->id] : NULL;
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
 * What one end's figure is, in words: "15 since the last clear" or "rose by
 * 15 during the check (3 at the baseline)"; a saturated counter says so.
 */
static void counter_figure(char *buf, size_t len,
			   const struct fabric_port_counters *pc, int id)
{
	unsigned long long d = pc->delta.v[id];
	bool sat = pc->saturated[id];

	if (pc->has_base)
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
	char fa[96], fb[96] = "no counters (no far end)";

	counter_figure(fa, sizeof(fa), a, id);
	if (b)
		counter_figure(fb, sizeof(fb), b, id);
	snprintf(buf, len, "%s%s%s: %s %s at %s; %s at %s; threshold %llu",
		 a_name, *b_name ? " - " : "", b_name, ib_pc_defs[id].name, fa,
		 a_name, fb, *b_name ? b_name : "the far end",
		 (unsigned long long)threshold);
}

static int add_counter_finding(struct fabric_findings *out, int id,
			       const struct fabric_port *p,
			       const struct fabric_port_counters *a,
			       const struct fabric_port_counters *b,
			       uint64_t threshold)
{
	const char *name = ib_pc_defs[id].name;
	struct fabric_finding *f;
	char ps[128], rs[128] = "", msg[512];

	f = fabric_finding_add(out, judging[id].severity, judging[id].category,
			       judging[id].action);
	if (!f)
		return -ENOMEM;
	fabric_finding_port(f, p);
	if (p->remote)
		fabric_finding_port(f, p->remote);
	fabric_finding_str(f, "counter", "%s", name);
	fabric_finding_num(f, "threshold", (long long)threshold);
	fabric_finding_bool(f, "since_baseline", a->has_base);
	fabric_finding_num(f, "a_value", (long long)a->delta.v[id]);
	fabric_finding_bool(f, "a_saturated", a->saturated[id]);
	add_ber(f, "a_errors_per_bit", a, id);
	if (b) {
		fabric_finding_num(f, "b_value", (long long)b->delta.v[id]);
		fabric_finding_bool(f, "b_saturated", b->saturated[id]);
		add_ber(f, "b_errors_per_bit", b, id);
	}
	fabric_port_str(p, ps, sizeof(ps));
	if (p->remote)
		fabric_port_str(p->remote, rs, sizeof(rs));
	fabric_counter_message(msg, sizeof(msg), id, ps, a, rs, b, threshold);
	fabric_finding_msg(f, "%s", msg);
	return 0;
}

static int check_cable(struct fabric_findings *out,
		       const struct fabric_thresholds *t,
		       const struct fabric_port *p,
		       const struct fabric_port_counters *a,
		       const struct fabric_port_counters *b)
{
	int id, rc;

	for (id = 0; id < FABRIC_PC_ERRORS_END; id++) {
		if (a->delta.v[id] <= t->v[id] &&
		    (!b || b->delta.v[id] <= t->v[id]))
			continue;
		if ((rc = add_counter_finding(out, id, p, a, b, t->v[id])))
			return rc;
	}
	return 0;
}

int fabric_counters_check(const struct fabric *m,
			  const struct fabric_port_counters *pcs,
			  const struct fabric_thresholds *t,
			  struct fabric_findings *out)
{
	const struct fabric_port_counters *a, *b;
	const struct fabric_port *p;
	size_t i;
	int j, rc;

	for (i = 0; i < m->nnodes; i++) {
		for (j = 1; j <= m->nodes[i]->nports; j++) {
			p = &m->nodes[i]->ports[j];
			a = pcs_of(pcs, p);
			b = pcs_of(pcs, p->remote);
			if (!a && !b)
				continue;
			if (p->remote && p->remote->id < p->id)
				continue; /* seen from the other end */
			if (!a) {
				p = p->remote;
				a = b;
				b = NULL;
			}
			if ((rc = check_cable(out, t, p, a, b)))
				return rc;
		}
	}
	return 0;
}
