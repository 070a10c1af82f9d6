// SPDX-License-Identifier: MIT
/*
 * Judging by route (cablejudge.h has the rules; docs/judging.md the
 * table).
 *
 * 1. Each inter-switch cable's pairs as CSR arrays (cable -> pairs), its
 *    figures (measured, bad, hit ratio, worst) and the port every pair
 *    through it has in common, if one.
 * 2. Candidates (hit ratio reached, or counters rose), most bad pairs
 *    first; passes over them while they blame: a cable blamed explains
 *    its bad pairs, which then are evidence about nobody else (so two bad
 *    up-links of one leaf do not hide each other).
 * 3. Ports whose bad pairs are all explained lose their blame.
 *
 * Cost: building the CSR reads every path once; each pass reads the pairs
 * of the candidates only.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "judge/cablejudge.h"

#define MAX_PASSES 16

void judge_cable_defaults(struct judge_cable_params *cp)
{
	cp->hit_ratio = 0.8;
	cp->min_fine_ends = 2;
	cp->fine_max_bad = 0.25;
	cp->min_errors = 1;
}

const char *judge_cable_verdict_name(uint8_t verdict)
{
	static const char *const names[] = {
		[JUDGE_CABLE_UNUSED] = "not-tested",
		[JUDGE_CABLE_FINE] = "ok",
		[JUDGE_CABLE_BLAMED] = "blamed",
		[JUDGE_CABLE_AMBIGUOUS] = "ambiguous",
		[JUDGE_CABLE_PORT] = "port",
	};

	return verdict < sizeof(names) / sizeof(names[0]) ? names[verdict]
							  : "?";
}

void judge_cable_result_free(struct judge_cable_result *out)
{
	free(out->cables);
	free(out->cleared);
	free(out->explained);
	memset(out, 0, sizeof(*out));
}

struct cable_state {
	const struct judge_cable_params *cp;
	const struct judge_pair *pairs;
	const struct judge_routes *rt;
	struct judge_result *res;
	struct judge_cable_result *out;
	uint32_t *c_start, *c_pairs; /* CSR: inter-switch cable -> pairs */
	uint8_t *explained; /* per pair */
	uint32_t *meas, *bad; /* per port: pairs not explained */
	/* per port scratch: its pairs through the cable in hand (tm, tb
	 * valid where tstamp is tick), ends counted (seen) */
	uint32_t *tstamp, *seen, *tm, *tb, tick;
};

static bool measured(const struct judge_result *res, uint32_t i)
{
	return res->out[i].why != JUDGE_WHY_NOT_TESTED;
}

static bool judged(const struct judge_routes *rt, uint32_t c)
{
	return rt->cables[c].inter_switch;
}

static int build_cable_csr(struct cable_state *s)
{
	const struct judge_routes *rt = s->rt;
	size_t n_pairs = s->res->n_pairs, total = 0;
	uint32_t *start = calloc(rt->n_cables + 2, sizeof(*start));

	if (!start)
		return -ENOMEM;
	for (uint32_t j = 0; j < rt->path_start[n_pairs]; j++) {
		uint32_t c = rt->path_cables[j];

		if (c >= rt->n_cables) {
			free(start);
			return -EINVAL;
		}
		if (judged(rt, c)) {
			start[c + 2]++;
			total++;
		}
	}
	s->c_pairs = malloc((total ? total : 1) * sizeof(*s->c_pairs));
	if (!s->c_pairs) {
		free(start);
		return -ENOMEM;
	}
	for (size_t c = 0; c < rt->n_cables; c++)
		start[c + 2] += start[c + 1];
	for (uint32_t i = 0; i < n_pairs; i++)
		for (uint32_t j = rt->path_start[i]; j < rt->path_start[i + 1];
		     j++)
			if (judged(rt, rt->path_cables[j]))
				s->c_pairs[start[rt->path_cables[j] + 1]++] = i;
	s->c_start = start;
	return 0;
}

/* The port in every measured pair through c, JUDGE_NO_PORT none. */
static uint32_t common_end(const struct cable_state *s, uint32_t c)
{
	uint32_t x = JUDGE_NO_PORT, y = JUDGE_NO_PORT;
	bool first = true;

	for (uint32_t j = s->c_start[c]; j < s->c_start[c + 1]; j++) {
		const struct judge_pair *p = &s->pairs[s->c_pairs[j]];

		if (!measured(s->res, s->c_pairs[j]))
			continue;
		if (first) {
			x = p->a;
			y = p->b;
			first = false;
			continue;
		}
		if (x != p->a && x != p->b)
			x = JUDGE_NO_PORT;
		if (y != p->a && y != p->b)
			y = JUDGE_NO_PORT;
		if (x == JUDGE_NO_PORT && y == JUDGE_NO_PORT)
			break;
	}
	return x != JUDGE_NO_PORT ? x : y;
}

static void cable_figures(struct cable_state *s, uint32_t c)
{
	struct judge_cable *v = &s->out->cables[c];

	*v = (struct judge_cable){ .or_port = JUDGE_NO_PORT,
				   .worst_gbps = -1,
				   .err_delta = s->rt->cables[c].err_delta };
	for (uint32_t j = s->c_start[c]; j < s->c_start[c + 1]; j++) {
		uint32_t i = s->c_pairs[j];
		const struct judge_pair *p = &s->pairs[i];

		v->n_pairs++;
		if (!measured(s->res, i))
			continue;
		v->n_meas++;
		v->n_bad += s->res->out[i].bad != 0;
		v->bad |= s->res->out[i].bad;
		if (p->status == JUDGE_PAIR_OK &&
		    (v->worst_gbps < 0 || p->gbps < v->worst_gbps))
			v->worst_gbps = p->gbps;
	}
	v->verdict = v->n_meas ? JUDGE_CABLE_FINE : JUDGE_CABLE_UNUSED;
	v->hit_ratio = v->n_meas ? (float)v->n_bad / (float)v->n_meas : 0;
	if (v->n_meas)
		v->or_port = common_end(s, c);
}

static bool erroring(const struct cable_state *s, uint32_t c)
{
	const struct judge_cable_in *in = &s->rt->cables[c];

	return in->has_counters && s->cp->min_errors &&
	       in->err_delta >= s->cp->min_errors;
}

static bool candidate(const struct cable_state *s, uint32_t c)
{
	const struct judge_cable *v = &s->out->cables[c];

	if (!judged(s->rt, c))
		return false;
	return erroring(s, c) ||
	       (v->n_bad && v->hit_ratio >= s->cp->hit_ratio - 1e-9);
}

/* Port e's pairs, not explained, that do not cross the cable in hand. */
static uint32_t meas_elsewhere(const struct cable_state *s, uint32_t e)
{
	return s->meas[e] - (s->tstamp[e] == s->tick ? s->tm[e] : 0);
}

static uint32_t bad_elsewhere(const struct cable_state *s, uint32_t e)
{
	return s->bad[e] - (s->tstamp[e] == s->tick ? s->tb[e] : 0);
}

static bool fine_elsewhere(const struct cable_state *s, uint32_t e)
{
	double meas = meas_elsewhere(s, e);

	return meas >= 1 && bad_elsewhere(s, e) <= s->cp->fine_max_bad * meas;
}

/* Counts, per end, the pairs through c not explained; then its ends. */
static void ends_of(struct cable_state *s, uint32_t c)
{
	struct judge_cable *v = &s->out->cables[c];

	s->tick++;
	for (uint32_t j = s->c_start[c]; j < s->c_start[c + 1]; j++) {
		uint32_t i = s->c_pairs[j],
			 end[2] = { s->pairs[i].a, s->pairs[i].b };

		if (!measured(s->res, i) || s->explained[i])
			continue;
		for (int k = 0; k < 2; k++) {
			if (s->tstamp[end[k]] != s->tick) {
				s->tstamp[end[k]] = s->tick;
				s->tm[end[k]] = s->tb[end[k]] = 0;
			}
			s->tm[end[k]]++;
			s->tb[end[k]] += s->res->out[i].bad != 0;
		}
	}
	v->fine_ends = v->bad_ends = 0;
	for (uint32_t j = s->c_start[c]; j < s->c_start[c + 1]; j++) {
		uint32_t i = s->c_pairs[j],
			 end[2] = { s->pairs[i].a, s->pairs[i].b };

		if (!measured(s->res, i) || s->explained[i] ||
		    !s->res->out[i].bad)
			continue;
		for (int k = 0; k < 2; k++) {
			if (s->seen[end[k]] == s->tick)
				continue;
			s->seen[end[k]] = s->tick;
			if (fine_elsewhere(s, end[k]))
				v->fine_ends++;
			else if (meas_elsewhere(s, end[k]))
				v->bad_ends++;
		}
	}
}

/* The verdict on candidate c under what is explained now. */
static uint8_t weigh(struct cable_state *s, uint32_t c)
{
	struct judge_cable *v = &s->out->cables[c];
	uint32_t h = v->or_port, fine_others;
	bool hit = v->n_bad && v->hit_ratio >= s->cp->hit_ratio - 1e-9;

	v->by = (erroring(s, c) ? JUDGE_CABLE_BY_COUNTERS : 0) |
		(hit ? JUDGE_CABLE_BY_ROUTE : 0);
	ends_of(s, c);
	if (v->by & JUDGE_CABLE_BY_COUNTERS)
		return JUDGE_CABLE_BLAMED;
	if (h == JUDGE_NO_PORT)
		return v->fine_ends >= s->cp->min_fine_ends ? JUDGE_CABLE_BLAMED
							    : JUDGE_CABLE_FINE;
	v->or_port_meas = meas_elsewhere(s, h);
	v->or_port_bad = bad_elsewhere(s, h);
	/* h is among the fine ends only when one of c's bad pairs, not
	 * explained, has it (ends_of); else nothing to take off */
	fine_others =
		v->fine_ends - (s->seen[h] == s->tick && fine_elsewhere(s, h));
	if (fine_others < s->cp->min_fine_ends)
		return JUDGE_CABLE_FINE;
	if (!v->or_port_meas)
		return JUDGE_CABLE_AMBIGUOUS;
	return fine_elsewhere(s, h) ? JUDGE_CABLE_BLAMED : JUDGE_CABLE_PORT;
}

/* c's bad pairs are explained: evidence about nobody else now. */
static void explain(struct cable_state *s, uint32_t c)
{
	for (uint32_t j = s->c_start[c]; j < s->c_start[c + 1]; j++) {
		uint32_t i = s->c_pairs[j];

		if (!measured(s->res, i) || s->explained[i] ||
		    !s->res->out[i].bad)
			continue;
		s->explained[i] = 1;
		s->meas[s->pairs[i].a]--;
		s->meas[s->pairs[i].b]--;
		s->bad[s->pairs[i].a]--;
		s->bad[s->pairs[i].b]--;
	}
}

static void port_counts(struct cable_state *s)
{
	const struct judge_result *res = s->res;

	for (uint32_t i = 0; i < res->n_pairs; i++) {
		const struct judge_pair *p = &s->pairs[i];

		if (!measured(res, i) || p->a >= res->n_ports ||
		    p->b >= res->n_ports || p->a == p->b)
			continue;
		s->meas[p->a]++;
		s->meas[p->b]++;
		s->bad[p->a] += res->out[i].bad != 0;
		s->bad[p->b] += res->out[i].bad != 0;
	}
}

struct order {
	uint32_t bad, cable;
	uint8_t counters;
};

static int cmp_order(const void *x, const void *y)
{
	const struct order *a = x, *b = y;

	if (a->counters != b->counters)
		return a->counters > b->counters ? -1 : 1;
	if (a->bad != b->bad)
		return a->bad > b->bad ? -1 : 1;
	return (a->cable > b->cable) - (a->cable < b->cable);
}

static void judge_candidates(struct cable_state *s, struct order *ord, size_t n)
{
	struct judge_cable_result *out = s->out;

	for (int pass = 0; pass < MAX_PASSES; pass++) {
		size_t decided = 0;

		for (size_t k = 0; k < n; k++) {
			struct judge_cable *v = &out->cables[ord[k].cable];
			uint8_t verdict;

			if (v->verdict == JUDGE_CABLE_BLAMED ||
			    v->verdict == JUDGE_CABLE_AMBIGUOUS)
				continue;
			verdict = weigh(s, ord[k].cable);
			v->verdict = verdict == JUDGE_CABLE_FINE && !v->n_meas
					     ? JUDGE_CABLE_UNUSED
					     : verdict;
			if (verdict != JUDGE_CABLE_BLAMED &&
			    verdict != JUDGE_CABLE_AMBIGUOUS)
				continue;
			explain(s, ord[k].cable);
			decided++;
			if (verdict == JUDGE_CABLE_BLAMED)
				out->n_blamed++;
			else
				out->n_ambiguous++;
		}
		if (!decided)
			break;
	}
}

/*
 * Port p's bad pairs are explained: each crosses a blamed cable, or (level
 * 1) has a blamed partner not marked to be cleared.
 */
static bool explained_port(const struct cable_state *s, size_t p,
			   const uint8_t *mark, uint8_t level)
{
	const struct judge_result *res = s->res;

	for (uint32_t j = res->bad_start[p]; j < res->bad_start[p + 1]; j++) {
		uint32_t i = res->bad_idx[j];
		uint32_t q = judge_partner(&s->pairs[i], (uint32_t)p);

		if (s->explained[i])
			continue;
		if (!level || !res->ports[q].blame || mark[q])
			return false;
	}
	return true;
}

/*
 * Ports whose bad pairs the cables explain lose their blame: first those
 * whose bad pairs all cross blamed cables (mark 1); then those whose
 * other bad pairs are with ports whose blame stands (mark 2; of two such
 * ports bad with each other, the first in order is cleared, not both).
 */
static void clear_ports(struct cable_state *s, uint8_t *mark)
{
	struct judge_result *res = s->res;

	for (uint8_t level = 0; level < 2; level++)
		for (size_t p = 0; p < res->n_ports; p++)
			if ((res->ports[p].blame || res->ports[p].suspect) &&
			    !mark[p] && explained_port(s, p, mark, level))
				mark[p] = level + 1;
	for (size_t p = 0; p < res->n_ports; p++) {
		struct judge_port *v = &res->ports[p];

		if (!mark[p])
			continue;
		s->out->cleared[p] = v->blame;
		v->blame = 0;
		v->suspect = false;
		v->confidence = 0;
	}
}

static int judge_all(struct cable_state *s)
{
	size_t n = s->rt->n_cables, n_ord = 0;
	struct order *ord = calloc(n ? n : 1, sizeof(*ord));
	uint8_t *mark = calloc(s->res->n_ports ? s->res->n_ports : 1, 1);

	if (!ord || !mark) {
		free(ord);
		free(mark);
		return -ENOMEM;
	}
	for (uint32_t c = 0; c < n; c++) {
		cable_figures(s, c);
		if (candidate(s, c))
			ord[n_ord++] = (struct order){ s->out->cables[c].n_bad,
						       c, erroring(s, c) };
	}
	qsort(ord, n_ord, sizeof(*ord), cmp_order);
	port_counts(s);
	judge_candidates(s, ord, n_ord);
	clear_ports(s, mark);
	free(ord);
	free(mark);
	return 0;
}

static uint8_t *steal(uint8_t **p)
{
	uint8_t *v = *p;

	*p = NULL;
	return v;
}

int judge_cables(const struct judge_cable_params *cp,
		 const struct judge_pair *pairs, const struct judge_routes *rt,
		 struct judge_result *res, struct judge_cable_result *out)
{
	size_t np = res->n_ports ? res->n_ports : 1;
	struct cable_state s = {
		.cp = cp,
		.pairs = pairs,
		.rt = rt,
		.res = res,
		.out = out,
		.explained = calloc(res->n_pairs ? res->n_pairs : 1, 1),
		.meas = calloc(np, sizeof(uint32_t)),
		.bad = calloc(np, sizeof(uint32_t)),
		.tstamp = calloc(np, sizeof(uint32_t)),
		.seen = calloc(np, sizeof(uint32_t)),
		.tm = calloc(np, sizeof(uint32_t)),
		.tb = calloc(np, sizeof(uint32_t)),
	};
	int ret = -ENOMEM;

	memset(out, 0, sizeof(*out));
	out->n_cables = rt->n_cables;
	out->cables =
		calloc(rt->n_cables ? rt->n_cables : 1, sizeof(*out->cables));
	out->cleared = calloc(np, 1);
	if (!s.explained || !s.meas || !s.bad || !s.tstamp || !s.seen ||
	    !s.tm || !s.tb || !out->cables || !out->cleared)
		goto done;
	ret = build_cable_csr(&s) ?: judge_all(&s);
done:
	if (ret)
		judge_cable_result_free(out);
	else
		out->explained = steal(&s.explained);
	free(s.c_start);
	free(s.c_pairs);
	free(s.explained);
	free(s.meas);
	free(s.bad);
	free(s.tstamp);
	free(s.seen);
	free(s.tm);
	free(s.tb);
	return ret;
}
