// SPDX-License-Identifier: MIT
/*
 * burnin's side of judging. Which pairs are bad and which port is to
 * blame is the one pair judge's (judge/pairjudge.c, docs/judging.md), the
 * same as `ibproof report`'s; what is burnin's own: a link that trained
 * down (link rate against its peers), and choosing retest partners for
 * the suspects from the verdicts. Pure: no I/O, no device.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "burnin/burnin.h"
#include "burnin/route_judge.h"

void burnin_judge_defaults(struct burnin_judge_params *jp)
{
	judge_defaults(&jp->pairs);
	jp->link_rate = -1;
	jp->routes = NULL;
	jp->route_ca = NULL;
	jp->cable_err = NULL;
	jp->cables = NULL;
	jp->trust = (struct burnin_route_trust){ 0 };
}

static struct judge_pair judge_pair_of(const struct burnin_measure *m)
{
	static const uint8_t status[] = {
		[BURNIN_PAIR_OK] = JUDGE_PAIR_OK,
		[BURNIN_PAIR_ERROR] = JUDGE_PAIR_ERROR,
		[BURNIN_PAIR_NOT_TESTED] = JUDGE_PAIR_NOT_TESTED,
	};

	return (struct judge_pair){
		.a = m->a < 0 ? UINT32_MAX : (uint32_t)m->a,
		.b = m->b < 0 ? UINT32_MAX : (uint32_t)m->b,
		.round = m->round < 0 ? 0 : (uint32_t)m->round,
		.test = (uint8_t)m->test,
		.bidir = m->bidir,
		.status = status[m->status],
		.retest = m->retest,
		.expected = (float)m->expected_gbps,
		.gbps = (float)m->gbps,
		.gbps_min = (float)m->gbps_min,
		.error_completions = m->error_completions,
	};
}

static void verdict_of(const struct judge_port *j,
		       struct burnin_port_verdict *v)
{
	*v = (struct burnin_port_verdict){
		.blame = j->blame,
		.suspect = j->suspect,
		.tested = j->tested,
		.n_pairs = (int)j->n_pairs,
		.n_bad = (int)j->n_bad,
		.n_ok = (int)j->n_ok,
		.n_low = (int)j->n_low,
		.n_dip = (int)j->n_dip,
		.n_err = (int)j->n_err,
		.low_partners = (int)j->witnesses[JUDGE_K_LOW],
		.dip_partners = (int)j->witnesses[JUDGE_K_DIP],
		.err_partners = (int)j->witnesses[JUDGE_K_ERR],
		.witnesses = (int)j->witnesses[JUDGE_N_KINDS],
		.worst_gbps = j->worst_gbps,
	};
}

static int judge_by_route(const struct burnin_judge_params *jp,
			  const struct judge_pair *in, int n_ports,
			  struct judge_result *res)
{
	struct judge_cable_result own, *out = jp->cables ? jp->cables : &own;
	int ret = burnin_route_judge(jp->routes, jp->route_ca,
				     n_ports > 0 ? (size_t)n_ports : 0, in,
				     jp->cable_err, &jp->trust, res, out);

	if (ret)
		judge_result_free(res);
	else if (out == &own)
		judge_cable_result_free(&own);
	return ret;
}

int burnin_judge(const struct burnin_judge_params *jp, struct burnin_measure *m,
		 int n_m, struct burnin_port_verdict *v, int n_ports)
{
	size_t n = n_m > 0 ? (size_t)n_m : 0;
	struct judge_pair *in = calloc(n ? n : 1, sizeof(*in));
	struct judge_result res;
	int ret = -ENOMEM;

	memset(v, 0, (size_t)(n_ports > 0 ? n_ports : 0) * sizeof(*v));
	if (!in)
		return ret;
	for (size_t i = 0; i < n; i++)
		in[i] = judge_pair_of(&m[i]);
	ret = judge_pairs(&jp->pairs, in, n, n_ports > 0 ? (size_t)n_ports : 0,
			  &res);
	if (!ret && jp->routes) /* the cables, and the ports they clear */
		ret = judge_by_route(jp, in, n_ports, &res);
	free(in);
	if (ret)
		return ret;
	for (size_t i = 0; i < n; i++) {
		m[i].low = res.out[i].bad & JUDGE_LOW;
		m[i].dip = res.out[i].bad & JUDGE_DIP;
	}
	for (int p = 0; p < n_ports; p++)
		verdict_of(&res.ports[p], &v[p]);
	judge_result_free(&res);
	return 0;
}

/* ---- retest partners ---- */

static bool is_fine(const struct burnin_measure *p)
{
	return p->status == BURNIN_PAIR_OK && !p->low && !p->dip &&
	       !p->error_completions;
}

static int partner_of(const struct burnin_measure *p, int port)
{
	return p->a == port ? p->b : p->b == port ? p->a : -1;
}

static int cmp_u64(const void *x, const void *y)
{
	uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;

	return (a > b) - (a < b);
}

/*
 * What choosing partners needs, each port's pairs as CSR arrays (all the
 * measures, whatever their status) and, for the suspect choosing now,
 * its acquaintances: how often it met each port, whether any of those
 * pairs was bad, and the leaves of its bad partners (sorted).
 */
struct retest_ctx {
	const struct burnin_measure *m;
	const struct burnin_port_verdict *v;
	const struct dpath_port *ports;
	int n_ports;
	int *start, *idx; /* CSR */
	int *fine; /* fine pairs per port */
	int *met, *stamp, tick;
	bool *bad;
	uint64_t *leaves;
	int n_leaves;
};

static int retest_index(struct retest_ctx *c, int n_m)
{
	size_t np = (size_t)c->n_ports + 2;

	c->start = calloc(np, sizeof(int));
	c->idx = malloc((size_t)(2 * n_m + 1) * sizeof(int));
	c->fine = calloc(np, sizeof(int));
	c->met = calloc(np, sizeof(int));
	c->stamp = calloc(np, sizeof(int));
	c->bad = calloc(np, sizeof(bool));
	c->leaves = malloc(np * sizeof(uint64_t));
	if (!c->start || !c->idx || !c->fine || !c->met || !c->stamp ||
	    !c->bad || !c->leaves)
		return -ENOMEM;
	for (int j = 0; j < n_m; j++) {
		const struct burnin_measure *p = &c->m[j];

		if (p->a < 0 || p->b < 0 || p->a >= c->n_ports ||
		    p->b >= c->n_ports || p->a == p->b)
			continue;
		c->start[p->a + 2]++;
		c->start[p->b + 2]++;
		if (is_fine(p)) {
			c->fine[p->a]++;
			c->fine[p->b]++;
		}
	}
	for (int p = 0; p < c->n_ports; p++)
		c->start[p + 2] += c->start[p + 1];
	for (int j = 0; j < n_m; j++) {
		const struct burnin_measure *p = &c->m[j];

		if (p->a < 0 || p->b < 0 || p->a >= c->n_ports ||
		    p->b >= c->n_ports || p->a == p->b)
			continue;
		c->idx[c->start[p->a + 1]++] = j;
		c->idx[c->start[p->b + 1]++] = j;
	}
	return 0;
}

static void retest_free(struct retest_ctx *c)
{
	free(c->start);
	free(c->idx);
	free(c->fine);
	free(c->met);
	free(c->stamp);
	free(c->bad);
	free(c->leaves);
}

/* p's acquaintances, in O(its pairs). */
static void acquaint(struct retest_ctx *c, int p)
{
	c->tick++;
	c->n_leaves = 0;
	for (int k = c->start[p]; k < c->start[p + 1]; k++) {
		const struct burnin_measure *pr = &c->m[c->idx[k]];
		int q = partner_of(pr, p);

		if (c->stamp[q] != c->tick) {
			c->stamp[q] = c->tick;
			c->met[q] = 0;
			c->bad[q] = false;
		}
		c->met[q]++;
		if (is_fine(pr))
			continue;
		c->bad[q] = true;
		if (c->ports[q].leaf_guid)
			c->leaves[c->n_leaves++] = c->ports[q].leaf_guid;
	}
	qsort(c->leaves, (size_t)c->n_leaves, sizeof(*c->leaves), cmp_u64);
}

static int times_met(const struct retest_ctx *c, int q)
{
	return c->stamp[q] == c->tick ? c->met[q] : 0;
}

static bool bad_with(const struct retest_ctx *c, int q)
{
	return c->stamp[q] == c->tick && c->bad[q];
}

/*
 * Is q on a leaf that none of p's bad partners is on? A second bad pair
 * with a partner behind the same leaf as the first proves little about p
 * (the leaf or its uplinks could be the cause). Unknown leaves (0) do not
 * restrict.
 */
static bool new_leaf(const struct retest_ctx *c, int q)
{
	uint64_t leaf = c->ports[q].leaf_guid;

	return !leaf || !bsearch(&leaf, c->leaves, (size_t)c->n_leaves,
				 sizeof(leaf), cmp_u64);
}

/*
 * Measured, not blamed, and bad with nobody but blamed ports (that is what
 * !suspect says): in all-pairs everyone met the one bad port, and that
 * must not leave the other suspects without retest partners.
 */
static bool is_good(const struct burnin_port_verdict *v)
{
	return v->tested && !v->blame && !v->suspect;
}

/*
 * Who may partner suspect p in a retest, best first: a port proven fine;
 * a port never scheduled (no evidence against it: node:HOST's unused
 * references); another suspect p has not met (node:HOST's references meet
 * only the target: a fine pair between two of them proves both, and then
 * the target's bad pairs with them count).
 */
enum partner_kind { PARTNER_GOOD, PARTNER_FRESH, PARTNER_SUSPECT, N_PARTNER };

static bool may_partner(const struct retest_ctx *c, int q,
			enum partner_kind kind)
{
	switch (kind) {
	case PARTNER_GOOD:
		return is_good(&c->v[q]);
	case PARTNER_FRESH:
		return !c->v[q].n_pairs;
	case PARTNER_SUSPECT:
		return c->v[q].suspect && !times_met(c, q);
	default:
		return false;
	}
}

/*
 * A partner for suspect p of the given kind: one it has not met (same
 * rail first), else one it met and was fine with (all-pairs leaves no
 * stranger); in each case one on a leaf new to p's bad pairs first. Odd
 * passes allow other rails.
 */
static int partner_of_kind(const struct retest_ctx *c, int p, bool same_rail,
			   const bool *used, enum partner_kind kind)
{
	const struct dpath_port *ports = c->ports;

	for (int pass = 0; pass < 8; pass += same_rail ? 2 : 1) {
		int best = -1, best_met = 0;

		for (int q = 0; q < c->n_ports; q++) {
			int met;

			if (q == p || used[q] || !may_partner(c, q, kind))
				continue;
			if (!(pass & 1) && ports[q].rail != ports[p].rail)
				continue;
			if (!(pass & 2) && !new_leaf(c, q))
				continue;
			met = times_met(c, q);
			if (pass < 4) {
				if (!met)
					return q;
				continue;
			}
			/* an acquaintance: the one met least, so that the next
			 * retest is not the same fine pair again */
			if (!bad_with(c, q) && (best < 0 || met < best_met)) {
				best = q;
				best_met = met;
			}
		}
		if (best >= 0)
			return best;
	}
	return -1;
}

static int retest_partner(struct retest_ctx *c, int p, bool same_rail,
			  const bool *used)
{
	int q = -1;

	acquaint(c, p);
	for (int k = 0; q < 0 && k < N_PARTNER; k++)
		q = partner_of_kind(c, p, same_rail, used,
				    (enum partner_kind)k);
	return q;
}

struct by_fine {
	int fine, port;
};

static int cmp_by_fine(const void *x, const void *y)
{
	const struct by_fine *a = x, *b = y;

	if (a->fine != b->fine)
		return a->fine - b->fine;
	return a->port - b->port;
}

/*
 * Suspects in the order they pick partners: the least evidence of being
 * fine first, so that the port of a bad pair that is fine nowhere else is
 * not starved by its partner taking the last fine port.
 */
static int suspect_order(const struct retest_ctx *c, struct by_fine *order)
{
	int k = 0;

	for (int p = 0; p < c->n_ports; p++)
		if (c->v[p].suspect)
			order[k++] = (struct by_fine){ c->fine[p], p };
	qsort(order, (size_t)k, sizeof(*order), cmp_by_fine);
	return k;
}

int burnin_judge_retest_round(const struct burnin_measure *m, int n_m,
			      const struct burnin_port_verdict *v,
			      const struct dpath_port *ports, int n_ports,
			      bool same_rail, struct burnin_schedule *s)
{
	struct retest_ctx c = {
		.m = m, .v = v, .ports = ports, .n_ports = n_ports
	};
	size_t np = (size_t)(n_ports > 0 ? n_ports : 1);
	bool *used = calloc(np, sizeof(*used));
	struct by_fine *order = calloc(np, sizeof(*order));
	int added = -ENOMEM, n;

	if (!used || !order || retest_index(&c, n_m) ||
	    burnin_schedule_new_round(s))
		goto out;
	added = 0;
	n = suspect_order(&c, order);
	for (int i = 0; i < n; i++) {
		int p = order[i].port, q;

		if (used[p])
			continue;
		q = retest_partner(&c, p, same_rail, used);
		if (q < 0)
			continue;
		used[p] = used[q] = true;
		if (burnin_schedule_add(s, p, q)) {
			added = -ENOMEM;
			goto out;
		}
		added++;
	}
	if (!added)
		s->n_rounds--;
out:
	retest_free(&c);
	free(used);
	free(order);
	return added;
}
