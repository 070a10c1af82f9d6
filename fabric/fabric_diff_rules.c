// SPDX-License-Identifier: MIT
/*
 * fabric_diff_rules.c: the rules of cabling_diff(), in the order they run
 * (see fabric_diff.c). Each consumes the cables and ports it reports on.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "fabric/fabric_diff_priv.h"

static const struct fabric_spec_end *spec_end(const struct diff_ctx *c,
					      size_t k)
{
	const struct fabric_cable *cb = &c->s->cables[k / 2];

	return k % 2 ? &cb->z : &cb->a;
}

/* Adds the end as a ref: the model port if known, else the spec's name. */
static void diff_ref_end(const struct diff_ctx *c, struct fabric_finding *f,
			 size_t k)
{
	const struct fabric_spec_end *e = spec_end(c, k);

	if (c->end[k])
		fabric_finding_port(f, c->end[k]);
	else
		fabric_finding_spec_end(f, e->node, e->guid, e->port);
}

static const char *diff_end_str(const struct diff_ctx *c, size_t k, char *buf,
				size_t len)
{
	const struct fabric_spec_end *e = spec_end(c, k);

	if (c->end[k])
		return fabric_port_str(c->end[k], buf, len);
	snprintf(buf, len, "%s port %d", e->node, e->port);
	return buf;
}

/* Why a link should run faster: the spec (line), what both ends enable,
 * or what its class runs at. */
struct rate_basis {
	int line;
	const char *class_name; /* NULL unless judged against the class */
};

static int add_degraded(struct fabric_findings *out, const char *category,
			const struct fabric_port *a, int have, int want,
			const struct rate_basis *b)
{
	bool width = category[9] == 'w'; /* "degraded-width" */
	const char *h = width ? fabric_width_str(have) : ib_speed_name(have);
	const char *w = width ? fabric_width_str(want) : ib_speed_name(want);
	struct fabric_finding *f;
	char pa[128], pb[128], why[96];

	f = fabric_finding_add(out, "fail", category, "reseat");
	if (!f)
		return -ENOMEM;
	fabric_finding_port(f, a);
	fabric_finding_port(f, a->remote);
	fabric_finding_str(f, "expected", "%s", w);
	fabric_finding_str(f, "actual", "%s", h);
	if (b->line)
		fabric_finding_num(f, "spec_line", b->line);
	if (b->class_name) {
		fabric_finding_str(f, "class", "%s", b->class_name);
		snprintf(why, sizeof(why), " (3/4 of the %s links run at it)",
			 b->class_name);
	} else {
		snprintf(why, sizeof(why), "%s",
			 b->line ? " (spec)" : " (both ends enable it)");
	}
	fabric_finding_msg(f,
			   "%s - %s runs at %s, expected %s%s: reseat or "
			   "replace the cable",
			   fabric_port_str(a, pa, sizeof(pa)),
			   fabric_port_str(a->remote, pb, sizeof(pb)), h, w,
			   why);
	return 0;
}

static int min_int(int a, int b)
{
	return a < b ? a : b;
}

/* have against the spec's want; without one, against the best both ends
 * enable; below neither, against what 3/4 of the link's class run at. */
static int check_one(struct diff_ctx *c, const struct fabric_port *a,
		     bool width, int have, int want, int line)
{
	const struct fabric_port *z = a->remote;
	const char *cat = width ? "degraded-width" : "degraded-speed";
	struct rate_basis b = { .line = line };
	char cls[32];

	if (!have)
		return 0;
	if (!want)
		want = fabric_best_of_mask(
			width ? a->width_enabled & z->width_enabled
			      : a->speed_enabled & z->speed_enabled);
	if (want && have < want)
		return add_degraded(c->out, cat, a, have, want, &b);
	if (line)
		return 0;
	want = fabric_class_want(&c->classes, a, width);
	if (!want || have >= want)
		return 0;
	b.class_name = fabric_class_name(&c->classes, a, cls, sizeof(cls));
	return add_degraded(c->out, cat, a, have, want, &b);
}

/* Width/speed of a connected pair against the spec, or against the best
 * that both ends enable, or against its class, when the spec does not
 * say. */
int fabric_check_rate(struct diff_ctx *c, const struct fabric_port *a,
		      int want_w, int want_s, int line)
{
	const struct fabric_port *z = a->remote;
	int rc;

	rc = check_one(c, a, true, min_int(a->width, z->width), want_w,
		       want_w ? line : 0);
	if (!rc)
		rc = check_one(c, a, false, min_int(a->speed, z->speed), want_s,
			       want_s ? line : 0);
	return rc;
}

static void consume(struct diff_ctx *c, const struct fabric_port *p)
{
	if (p)
		c->port_done[p->id] = true;
}

static int rule_matched(struct diff_ctx *c)
{
	const struct fabric_cable *cb;
	struct fabric_port *a, *z;
	size_t i;
	int rc;

	for (i = 0; i < c->s->ncables; i++) {
		a = c->end[2 * i];
		z = c->end[2 * i + 1];
		if (!a || !z || a->remote != z)
			continue;
		cb = &c->s->cables[i];
		c->cable_done[i] = true;
		consume(c, a);
		consume(c, z);
		rc = fabric_check_rate(c, a, cb->width, cb->speed, cb->line);
		if (rc)
			return rc;
	}
	return 0;
}

static int add_swapped(struct diff_ctx *c, size_t c1, size_t c2)
{
	struct fabric_finding *f;
	char a[128], z[128], b[128], y[128];

	f = fabric_finding_add(c->out, "fail", "swapped", "swap-cables");
	if (!f)
		return -ENOMEM;
	diff_ref_end(c, f, 2 * c1);
	diff_ref_end(c, f, 2 * c1 + 1);
	diff_ref_end(c, f, 2 * c2);
	diff_ref_end(c, f, 2 * c2 + 1);
	f->extra_role = "swapped_with";
	fabric_finding_num(f, "spec_line", c->s->cables[c1].line);
	fabric_finding_num(f, "other_spec_line", c->s->cables[c2].line);
	fabric_finding_msg(f,
			   "cables %s - %s (line %d) and %s - %s (line %d) "
			   "are swapped: exchange them",
			   diff_end_str(c, 2 * c1, a, sizeof(a)),
			   diff_end_str(c, 2 * c1 + 1, z, sizeof(z)),
			   c->s->cables[c1].line,
			   diff_end_str(c, 2 * c2, b, sizeof(b)),
			   diff_end_str(c, 2 * c2 + 1, y, sizeof(y)),
			   c->s->cables[c2].line);
	c->cable_done[c1] = c->cable_done[c2] = true;
	consume(c, c->end[2 * c1]);
	consume(c, c->end[2 * c1 + 1]);
	consume(c, c->end[2 * c2]);
	consume(c, c->end[2 * c2 + 1]);
	return 0;
}

/* Cable i's end `side` goes to an end of cable j whose other end goes to
 * cable i's other end: the two cables are crossed. */
static long find_swap(struct diff_ctx *c, size_t i, int side)
{
	struct fabric_port *p = c->end[2 * i + side];
	struct fabric_port *q = c->end[2 * i + 1 - side], *o;
	int k;

	if (!p || !q || !p->remote || (k = c->exp[p->remote->id]) < 0)
		return -1;
	if ((size_t)k / 2 == i || c->cable_done[k / 2])
		return -1;
	o = c->end[k ^ 1];
	return o && o->remote == q ? k / 2 : -1;
}

static int rule_swapped(struct diff_ctx *c)
{
	size_t i;
	long j;
	int rc;

	for (i = 0; i < c->s->ncables; i++) {
		if (c->cable_done[i])
			continue;
		j = find_swap(c, i, 0);
		if (j < 0)
			j = find_swap(c, i, 1);
		if (j >= 0 && (rc = add_swapped(c, i, (size_t)j)))
			return rc;
	}
	return 0;
}

static int open_cable_end(const struct diff_ctx *c, const struct fabric_port *p)
{
	int k = c->exp[p->id];

	return k >= 0 && !c->cable_done[k / 2] ? k : -1;
}

static bool peer_is_node(const struct diff_ctx *c, int k,
			 const struct fabric_node *n)
{
	return k >= 0 && c->end[k ^ 1] && c->end[k ^ 1]->node == n;
}

static void expected_peer(struct diff_ctx *c, struct fabric_finding *f,
			  const char *key, int k, char *buf, size_t len)
{
	char peer[128];

	if (k < 0) {
		snprintf(buf, len, "%s", "");
		return;
	}
	diff_end_str(c, k ^ 1, peer, sizeof(peer));
	fabric_finding_str(f, key, "%s", peer);
	snprintf(buf, len, "%s (line %d)", peer, c->s->cables[k / 2].line);
	c->cable_done[k / 2] = true;
}

static int add_misplaced(struct diff_ctx *c, const struct fabric_port *p,
			 int kp, int kr)
{
	const struct fabric_port *r = p->remote;
	bool wrong_port =
		peer_is_node(c, kp, r->node) || peer_is_node(c, kr, p->node);
	struct fabric_finding *f;
	char ps[128], rs[128], ep[192], er[192], want[448] = "";
	size_t n;

	f = fabric_finding_add(c->out, "fail",
			       wrong_port ? "wrong-port" : "miswired",
			       "replace-cable");
	if (!f)
		return -ENOMEM;
	fabric_finding_port(f, p);
	fabric_finding_port(f, r);
	expected_peer(c, f, "a_expected_peer", kp, ep, sizeof(ep));
	expected_peer(c, f, "b_expected_peer", kr, er, sizeof(er));
	fabric_port_str(p, ps, sizeof(ps));
	fabric_port_str(r, rs, sizeof(rs));
	if (*ep)
		snprintf(want, sizeof(want), "%s to %s", ps, ep);
	n = strlen(want);
	if (*er)
		snprintf(want + n, sizeof(want) - n, "%s%s to %s",
			 n ? " and " : "", rs, er);
	fabric_finding_msg(f,
			   "%s is cabled to %s; the spec wants %s: move "
			   "the cable",
			   ps, rs, want);
	consume(c, p);
	consume(c, r);
	return 0;
}

static int rule_misplaced(struct diff_ctx *c)
{
	const struct fabric_node *n;
	const struct fabric_port *p;
	size_t i;
	int j, kp, kr, rc;

	for (i = 0; i < c->m->nnodes; i++) {
		n = c->m->nodes[i];
		for (j = 1; j <= n->nports; j++) {
			p = &n->ports[j];
			if (!p->remote || c->port_done[p->id] ||
			    c->port_done[p->remote->id])
				continue;
			kp = open_cable_end(c, p);
			kr = open_cable_end(c, p->remote);
			if (kp < 0 && kr < 0)
				continue;
			if ((rc = add_misplaced(c, p, kp, kr)))
				return rc;
		}
	}
	return 0;
}

static const char *port_state_str(const struct fabric_port *p, char *buf,
				  size_t len)
{
	if (!p)
		snprintf(buf, len, "not found");
	else if (!p->valid)
		snprintf(buf, len, "not connected");
	else
		snprintf(buf, len, "%s/%s", ib_port_state_name(p->state),
			 ib_phys_state_name(p->phys_state));
	return buf;
}

/* The evidence of a link whose far node did not answer the walk
 * (fabric_scope.h's not-tested shape). */
static void untested_evidence(struct fabric_finding *f)
{
	fabric_finding_str(f, "part", "links");
	fabric_finding_str(f, "reason", "no-answer");
	fabric_finding_str(f, "query", "NodeInfo/PortInfo");
}

static bool leads_nowhere(const struct fabric_port *p)
{
	return fabric_port_up(p) && !p->remote;
}

static int add_leftover(struct diff_ctx *c, size_t i)
{
	struct fabric_port *a = c->end[2 * i], *z = c->end[2 * i + 1];
	const char *cat = "missing-link", *act = "reseat";
	struct fabric_finding *f;
	char as[128], zs[128], ast[48], zst[48];

	if ((a && a->valid && a->phys_state == IB_PHYS_STATE_DISABLED) ||
	    (z && z->valid && z->phys_state == IB_PHYS_STATE_DISABLED)) {
		cat = "port-disabled";
		act = "none";
	} else if ((leads_nowhere(a) && !(z && z->valid)) ||
		   (leads_nowhere(z) && !(a && a->valid))) {
		cat = "not-tested"; /* its far node did not answer */
		act = "check-access";
	}
	f = fabric_finding_add(c->out, *cat == 'n' ? "warn" : "fail", cat, act);
	if (!f)
		return -ENOMEM;
	diff_ref_end(c, f, 2 * i);
	diff_ref_end(c, f, 2 * i + 1);
	fabric_finding_str(f, "a_state", "%s", port_state_str(a, ast, 48));
	fabric_finding_str(f, "b_state", "%s", port_state_str(z, zst, 48));
	fabric_finding_num(f, "spec_line", c->s->cables[i].line);
	if (*cat == 'n')
		untested_evidence(f);
	diff_end_str(c, 2 * i, as, sizeof(as));
	diff_end_str(c, 2 * i + 1, zs, sizeof(zs));
	if (*cat == 'p')
		fabric_finding_msg(f,
				   "%s - %s (line %d) is down because a port "
				   "is disabled (%s: %s, %s: %s): enable it if "
				   "that was not meant",
				   as, zs, c->s->cables[i].line, as, ast, zs,
				   zst);
	else if (*cat == 'n')
		fabric_finding_msg(f,
				   "%s - %s (line %d) not tested: the link is "
				   "up but %s does not answer SMPs: check its "
				   "management access (M_Key, SMP filtering) "
				   "or whether it hangs",
				   as, zs, c->s->cables[i].line,
				   leads_nowhere(a) ? zs : as);
	else
		fabric_finding_msg(f,
				   "%s - %s (line %d) is not connected (%s, "
				   "%s): reseat or replace the cable",
				   as, zs, c->s->cables[i].line, ast, zst);
	consume(c, a);
	consume(c, z);
	return 0;
}

static int rule_leftover_cables(struct diff_ctx *c)
{
	size_t i;
	int rc;

	for (i = 0; i < c->s->ncables; i++) {
		if (c->cable_done[i] || c->res[2 * i] == END_AMBIGUOUS ||
		    c->res[2 * i + 1] == END_AMBIGUOUS)
			continue;
		c->cable_done[i] = true;
		if ((rc = add_leftover(c, i)))
			return rc;
	}
	return 0;
}

static int add_unexpected(struct fabric_findings *out,
			  const struct fabric_port *p)
{
	struct fabric_finding *f;
	char ps[128], rs[128];

	f = fabric_finding_add(out, "warn", "unexpected-link", "none");
	if (!f)
		return -ENOMEM;
	fabric_finding_port(f, p);
	fabric_finding_port(f, p->remote);
	fabric_finding_msg(f,
			   "%s - %s is cabled but not in the spec: remove "
			   "the cable or add it to the spec",
			   fabric_port_str(p, ps, sizeof(ps)),
			   fabric_port_str(p->remote, rs, sizeof(rs)));
	return 0;
}

static int add_unreachable(struct fabric_findings *out,
			   const struct fabric_port *p)
{
	struct fabric_finding *f;
	char ps[128];

	f = fabric_finding_add(out, "warn", "not-tested", "check-access");
	if (!f)
		return -ENOMEM;
	fabric_finding_port(f, p);
	untested_evidence(f);
	fabric_finding_msg(f,
			   "link at %s not tested: the port is up but the "
			   "node behind it did not answer SMPs: check its "
			   "management access (M_Key, SMP filtering) or "
			   "whether it hangs",
			   fabric_port_str(p, ps, sizeof(ps)));
	return 0;
}

static int rule_leftover_ports(struct diff_ctx *c)
{
	const struct fabric_node *n;
	const struct fabric_port *p;
	size_t i;
	int j, rc = 0;

	for (i = 0; i < c->m->nnodes && !rc; i++) {
		n = c->m->nodes[i];
		for (j = 1; j <= n->nports && !rc; j++) {
			p = &n->ports[j];
			if (c->port_done[p->id])
				continue;
			if (leads_nowhere(p))
				rc = add_unreachable(c->out, p);
			else if (p->remote && p->id < p->remote->id &&
				 !c->port_done[p->remote->id] &&
				 !c->node_ambig[n->idx] &&
				 !c->node_ambig[p->remote->node->idx])
				rc = add_unexpected(c->out, p);
		}
	}
	return rc;
}

int diff_rules(struct diff_ctx *c)
{
	int rc;

	if ((rc = rule_matched(c)) || (rc = rule_swapped(c)) ||
	    (rc = rule_misplaced(c)) || (rc = rule_leftover_cables(c)))
		return rc;
	return rule_leftover_ports(c);
}

int fabric_model_check(const struct fabric *m, struct fabric_findings *out)
{
	struct diff_ctx c = { .m = m, .out = out };
	const struct fabric_port *p;
	size_t i;
	int j, rc = fabric_classes_build(&c.classes, m);

	for (i = 0; i < m->nnodes && !rc; i++) {
		for (j = 1; j <= m->nodes[i]->nports && !rc; j++) {
			p = &m->nodes[i]->ports[j];
			if (leads_nowhere(p))
				rc = add_unreachable(out, p);
			else if (p->remote && p->id < p->remote->id)
				rc = fabric_check_rate(&c, p, 0, 0, 0);
		}
	}
	fabric_classes_free(&c.classes);
	return rc ? rc : fabric_check_active(m, out);
}
