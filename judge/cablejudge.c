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
 * Candidates of equal rank (counters, bad pairs, measured pairs) are
 * weighed together against what was explained before them, then explain
 * together: the order of pairs, cables and ports changes no verdict. Of
 * those blamed together by route, cables whose bad pairs are the
 * same pairs are one group (one finding, ambiguous: no pair tells them
 * apart), with the known pair that would, if any (find_retests()).
 *
 * Cost: building the CSR reads every path once; each pass reads the pairs
 * of the candidates only; a retest reads the pairs of its group's cables
 * (and, for a group with a port, every pair once for all of them).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/array.h"
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
	free(out->groups);
	free(out->members);
	memset(out, 0, sizeof(*out));
}

uint64_t judge_port_key(uint64_t guid, const char *host, const char *ca,
			int port)
{
	uint64_t h = 14695981039346656037ull; /* FNV-1a */
	char num[16];
	const char *parts[] = { host ? host : "", ca ? ca : "", num };

	if (guid)
		return guid;
	snprintf(num, sizeof(num), "%d", port);
	for (size_t k = 0; k < 3; k++)
		for (const char *c = parts[k];; c++) {
			h = (h ^ (uint8_t)*c) * 1099511628211ull;
			if (!*c)
				break;
		}
	return h;
}

struct cable_state {
	const struct judge_cable_params *cp;
	const struct judge_pair *pairs;
	const struct judge_routes *rt;
	struct judge_result *res;
	struct judge_cable_result *out;
	uint32_t *c_start, *c_pairs; /* CSR: inter-switch cable -> pairs */
	uint8_t *explained; /* per pair */
	uint8_t *no_route; /* per pair: no evidence about its path's cables */
	uint32_t *c_no_route; /* per cable: such pairs through it */
	uint32_t *meas, *bad; /* per port: pairs not explained */
	/* ... of those, per side of the path (ROLE_SRC: the port sends on
	 * it, ROLE_DST: receives; a bidirectional pair both) */
	uint32_t *rmeas[2], *rbad[2];
	/* per port scratch: its pairs through the cable in hand (tm, tb
	 * valid where tstamp is tick), ends counted (seen) */
	uint32_t *tstamp, *seen, *tm, *tb, tick;
	uint64_t *bhash; /* per cable: a hash of its bad pairs */
	struct judge_cable_group *groups;
	uint32_t *members;
	size_t n_groups, cap_groups, n_members, cap_members;
};

static uint64_t key_of(const struct cable_state *s, uint32_t p)
{
	if (p >= s->res->n_ports)
		return UINT64_MAX;
	return s->rt->port_key ? s->rt->port_key[p] : p;
}

/* Cable a before cable b in id order. */
static int cmp_id(const struct cable_state *s, uint32_t a, uint32_t b)
{
	const struct judge_cable_in *x = &s->rt->cables[a],
				    *y = &s->rt->cables[b];

	if (x->id_guid != y->id_guid)
		return x->id_guid < y->id_guid ? -1 : 1;
	if (x->id_port != y->id_port)
		return x->id_port < y->id_port ? -1 : 1;
	return (a > b) - (a < b);
}

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
	for (uint32_t i = 0; i < n_pairs; i++)
		for (uint32_t j = rt->path_start[i]; j < rt->path_start[i + 1];
		     j++) {
			uint32_t c = rt->path_cables[j];

			if (c >= rt->n_cables) {
				free(start);
				return -EINVAL;
			}
			if (!judged(rt, c))
				continue;
			if (s->no_route[i]) {
				s->c_no_route[c]++;
				continue;
			}
			start[c + 2]++;
			total++;
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
			if (!s->no_route[i] && judged(rt, rt->path_cables[j]))
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
	if (x != JUDGE_NO_PORT && y != JUDGE_NO_PORT) /* one pair's two
							 ports: by key */
		return key_of(s, x) <= key_of(s, y) ? x : y;
	return x != JUDGE_NO_PORT ? x : y;
}

static void cable_figures(struct cable_state *s, uint32_t c)
{
	struct judge_cable *v = &s->out->cables[c];

	uint64_t h = 14695981039346656037ull;

	*v = (struct judge_cable){ .or_port = JUDGE_NO_PORT,
				   .worst_gbps = -1,
				   .err_delta = s->rt->cables[c].err_delta,
				   .group = UINT32_MAX,
				   .n_no_route = s->c_no_route[c] };
	for (uint32_t j = s->c_start[c]; j < s->c_start[c + 1]; j++) {
		uint32_t i = s->c_pairs[j];
		const struct judge_pair *p = &s->pairs[i];

		v->n_pairs++;
		if (!measured(s->res, i))
			continue;
		v->n_meas++;
		if (s->res->out[i].bad)
			h = (h ^ i) * 1099511628211ull;
		v->n_bad += s->res->out[i].bad != 0;
		v->bad |= s->res->out[i].bad;
		if (p->status == JUDGE_PAIR_OK &&
		    (v->worst_gbps < 0 || p->gbps < v->worst_gbps))
			v->worst_gbps = p->gbps;
	}
	s->bhash[c] = h;
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

/* The sides of port e in pair i's path: a unidirectional pair's path
 * runs from a to b; a bidirectional pair's both ways. */
#define ROLE_SRC 1u
#define ROLE_DST 2u

static unsigned int role(const struct cable_state *s, uint32_t i, uint32_t e)
{
	const struct judge_pair *p = &s->pairs[i];

	if (p->bidir)
		return ROLE_SRC | ROLE_DST;
	return (p->a == e ? ROLE_SRC : 0) | (p->b == e ? ROLE_DST : 0);
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

/*
 * Is h, the end every pair through c has in common, bad off c on the side
 * it has in all of them (every flow c carries goes into h: h's other
 * flows in, such as intra-leaf ones)? Then h explains c's bad pairs as
 * well as c does: a port bad receiving, whose sends are fine, is still
 * bad where c is not, and c is cleared (verdict port). Mixed sides or
 * bidirectional pairs: h's pairs off c on either side (fine_elsewhere()).
 */
static bool bad_on_its_side(const struct cable_state *s, uint32_t c, uint32_t h)
{
	unsigned int side = ROLE_SRC | ROLE_DST;
	uint32_t m = 0, b = 0;
	int r;

	for (uint32_t j = s->c_start[c]; j < s->c_start[c + 1]; j++)
		if (measured(s->res, s->c_pairs[j]))
			side &= role(s, s->c_pairs[j], h);
	if (side != ROLE_SRC && side != ROLE_DST)
		return false;
	r = side == ROLE_SRC ? 0 : 1;
	for (uint32_t j = s->c_start[c]; j < s->c_start[c + 1]; j++) {
		uint32_t i = s->c_pairs[j];

		if (!measured(s->res, i) || s->explained[i] ||
		    !(role(s, i, h) & side))
			continue;
		m++;
		b += s->res->out[i].bad != 0;
	}
	m = s->rmeas[r][h] - m;
	b = s->rbad[r][h] - b;
	return m >= 1 && b > s->cp->fine_max_bad * m;
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
	if (bad_on_its_side(s, c, h))
		return JUDGE_CABLE_PORT;
	if (!v->or_port_meas)
		return JUDGE_CABLE_AMBIGUOUS;
	return fine_elsewhere(s, h) ? JUDGE_CABLE_BLAMED : JUDGE_CABLE_PORT;
}

/* Pair i (measured) into its ends' counts, or (-1) out of them. */
static void count_pair(struct cable_state *s, uint32_t i, int d)
{
	uint32_t end[2] = { s->pairs[i].a, s->pairs[i].b };
	uint32_t bad = s->res->out[i].bad != 0;

	for (int k = 0; k < 2; k++) {
		unsigned int r = role(s, i, end[k]);

		s->meas[end[k]] += (uint32_t)d;
		s->bad[end[k]] += (uint32_t)d * bad;
		for (int x = 0; x < 2; x++)
			if (r & (1u << x)) {
				s->rmeas[x][end[k]] += (uint32_t)d;
				s->rbad[x][end[k]] += (uint32_t)d * bad;
			}
	}
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
		count_pair(s, i, -1);
	}
}

static void port_counts(struct cable_state *s)
{
	const struct judge_result *res = s->res;

	for (uint32_t i = 0; i < res->n_pairs; i++) {
		const struct judge_pair *p = &s->pairs[i];

		if (!measured(res, i) || s->no_route[i] ||
		    p->a >= res->n_ports || p->b >= res->n_ports ||
		    p->a == p->b)
			continue;
		count_pair(s, i, 1);
	}
}

struct order {
	uint32_t bad, meas, cable;
	uint8_t counters;
};

/* Rank: rising counters first, then the most bad pairs, then the fewest
 * measured (the fewest good pairs through it). */
static int cmp_rank(const struct order *a, const struct order *b)
{
	if (a->counters != b->counters)
		return a->counters > b->counters ? -1 : 1;
	if (a->bad != b->bad)
		return a->bad > b->bad ? -1 : 1;
	return (a->meas > b->meas) - (a->meas < b->meas);
}

static int cmp_order(const void *x, const void *y)
{
	const struct order *a = x, *b = y;
	int r = cmp_rank(a, b);

	return r ? r : (a->cable > b->cable) - (a->cable < b->cable);
}

static bool bad_pair(const struct cable_state *s, uint32_t i)
{
	return measured(s->res, i) && s->res->out[i].bad;
}

/* Cables a and b (of one rank: as many bad and measured pairs) have the
 * same bad pairs: the evidence fits both equally. */
static bool same_bad(const struct cable_state *s, uint32_t a, uint32_t b)
{
	uint32_t ja = s->c_start[a], jb = s->c_start[b];

	if (s->bhash[a] != s->bhash[b])
		return false;
	for (;;) {
		while (ja < s->c_start[a + 1] && !bad_pair(s, s->c_pairs[ja]))
			ja++;
		while (jb < s->c_start[b + 1] && !bad_pair(s, s->c_pairs[jb]))
			jb++;
		if (ja == s->c_start[a + 1] || jb == s->c_start[b + 1])
			return ja == s->c_start[a + 1] &&
			       jb == s->c_start[b + 1];
		if (s->c_pairs[ja++] != s->c_pairs[jb++])
			return false;
	}
}

/* The port among the candidates of cables[n]: one that a cable found
 * ambiguous with (no pair of it off the cable); the lowest key of such. */
static uint32_t group_port(const struct cable_state *s, const uint32_t *cables,
			   size_t n)
{
	uint32_t best = JUDGE_NO_PORT;

	for (size_t k = 0; k < n; k++) {
		const struct judge_cable *v = &s->out->cables[cables[k]];

		if (v->verdict != JUDGE_CABLE_AMBIGUOUS ||
		    v->or_port == JUDGE_NO_PORT || v->or_port_meas)
			continue;
		if (best == JUDGE_NO_PORT ||
		    key_of(s, v->or_port) < key_of(s, best))
			best = v->or_port;
	}
	return best;
}

static int add_group(struct cable_state *s, const uint32_t *cables, size_t n,
		     uint8_t verdict, uint32_t or_port)
{
	struct judge_cable_group *g;

	if (array_reserve(&s->groups, &s->cap_groups, s->n_groups,
			  sizeof(*s->groups)) ||
	    array_reserve(&s->members, &s->cap_members, s->n_members + n - 1,
			  sizeof(*s->members)))
		return -ENOMEM;
	g = &s->groups[s->n_groups++];
	*g = (struct judge_cable_group){ .verdict = verdict,
					 .first = (uint32_t)s->n_members,
					 .n = (uint32_t)n,
					 .or_port = or_port,
					 .retest = JUDGE_NO_PAIR,
					 .retest_a = JUDGE_NO_PORT,
					 .retest_b = JUDGE_NO_PORT };
	memcpy(s->members + s->n_members, cables, n * sizeof(*cables));
	s->n_members += n;
	return 0;
}

/*
 * The cables of one rank decided together (dec[n]): those blamed by their
 * counters are each a group of one; those decided by route, grouped by
 * their bad pairs (with as many bad and measured pairs, the same bad pairs
 * fit each of them equally): a group of several is ambiguous, with the
 * port when one of them was ambiguous with it.
 */
static int group_batch(struct cable_state *s, uint32_t *dec, size_t n)
{
	struct judge_cable *cab = s->out->cables;
	size_t k = 0;

	for (size_t a = 0; a < n; a++) /* by counters first, each alone */
		if (cab[dec[a]].by & JUDGE_CABLE_BY_COUNTERS) {
			uint32_t c = dec[a];

			dec[a] = dec[k];
			dec[k++] = c;
			if (add_group(s, &c, 1, cab[c].verdict, JUDGE_NO_PORT))
				return -ENOMEM;
		}
	for (size_t a = k; a < n; a++) {
		size_t m = a + 1;
		uint32_t port;

		for (size_t b = a + 1; b < n; b++) /* its twins next to it */
			if (same_bad(s, dec[a], dec[b])) {
				uint32_t c = dec[b];

				dec[b] = dec[m];
				dec[m++] = c;
			}
		port = group_port(s, dec + a, m - a);
		for (size_t b = a; b < m; b++)
			if (m - a > 1 || port != JUDGE_NO_PORT)
				cab[dec[b]].verdict = JUDGE_CABLE_AMBIGUOUS;
		if (add_group(s, dec + a, m - a, cab[dec[a]].verdict, port))
			return -ENOMEM;
		a = m - 1;
	}
	return 0;
}

static bool decided(const struct judge_cable *v)
{
	return v->verdict == JUDGE_CABLE_BLAMED ||
	       v->verdict == JUDGE_CABLE_AMBIGUOUS;
}

/* The candidates ord[k .. end), of one rank, weighed against the same
 * explained pairs; then those decided explain theirs. */
static int judge_rank(struct cable_state *s, const struct order *ord, size_t k,
		      size_t end, uint32_t *dec, size_t *n_dec)
{
	struct judge_cable *cab = s->out->cables;
	size_t n = 0;

	for (size_t j = k; j < end; j++) {
		struct judge_cable *v = &cab[ord[j].cable];
		uint8_t verdict;

		if (decided(v))
			continue;
		verdict = weigh(s, ord[j].cable);
		v->verdict = verdict == JUDGE_CABLE_FINE && !v->n_meas
				     ? JUDGE_CABLE_UNUSED
				     : verdict;
		if (decided(v))
			dec[n++] = ord[j].cable;
	}
	for (size_t j = 0; j < n; j++)
		explain(s, dec[j]);
	*n_dec += n;
	return n ? group_batch(s, dec, n) : 0;
}

static int judge_candidates(struct cable_state *s, struct order *ord, size_t n)
{
	uint32_t *dec = malloc((n ? n : 1) * sizeof(*dec));
	int ret = dec ? 0 : -ENOMEM;

	for (int pass = 0; !ret && pass < MAX_PASSES; pass++) {
		size_t n_dec = 0;

		for (size_t k = 0, end; !ret && k < n; k = end) {
			for (end = k + 1;
			     end < n && !cmp_rank(&ord[k], &ord[end]); end++)
				;
			ret = judge_rank(s, ord, k, end, dec, &n_dec);
		}
		if (!n_dec)
			break;
	}
	free(dec);
	return ret;
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
 * ports bad with each other, the first by key (judge_port_key()) is cleared, not both).
 */
static int clear_ports(struct cable_state *s, uint8_t *mark)
{
	struct judge_result *res = s->res;
	struct judge_keyed *by_key =
		malloc((res->n_ports ? res->n_ports : 1) * sizeof(*by_key));

	if (!by_key)
		return -ENOMEM;
	for (uint32_t p = 0; p < res->n_ports; p++)
		by_key[p] = (struct judge_keyed){ key_of(s, p), p };
	qsort(by_key, res->n_ports, sizeof(*by_key), judge_cmp_keyed);
	for (uint8_t level = 0; level < 2; level++)
		for (size_t k = 0; k < res->n_ports; k++) {
			uint32_t p = by_key[k].idx;

			if ((res->ports[p].blame || res->ports[p].suspect) &&
			    !mark[p] && explained_port(s, p, mark, level))
				mark[p] = level + 1;
		}
	free(by_key);
	for (size_t p = 0; p < res->n_ports; p++) {
		struct judge_port *v = &res->ports[p];

		if (!mark[p])
			continue;
		s->out->cleared[p] = v->blame;
		v->blame = 0;
		v->suspect = false;
		v->confidence = 0;
	}
	return 0;
}

/* ---- the retest that separates a group ---- */

struct retests {
	uint32_t *cgroup; /* per cable: its ambiguous group + 1, 0 none */
	uint32_t *pgroup, *pnext; /* per port: a group it is the port of
				     + 1; per group: the next such + 1 */
};

/* Is the pair of ports (a, b), a's key <= b's, before the group's retest? */
static bool before_retest(const struct cable_state *s,
			  const struct judge_cable_group *grp, uint32_t a,
			  uint32_t b)
{
	uint64_t ka = key_of(s, a), kb = key_of(s, b),
		 ra = key_of(s, grp->retest_a), rb = key_of(s, grp->retest_b);

	return grp->retest == JUDGE_NO_PAIR || ka < ra || (ka == ra && kb < rb);
}

/* Pair i as the retest of group g: does it cross some of the candidates
 * and not all? The first by its ports' keys is kept. */
static void consider(struct cable_state *s, const struct retests *rx,
		     uint32_t g, uint32_t i)
{
	struct judge_cable_group *grp = &s->groups[g];
	const struct judge_pair *p = &s->pairs[i];
	uint32_t crossed = 0, total = grp->n + (grp->or_port != JUDGE_NO_PORT);
	uint32_t lo, hi;

	/* a measured one would have told them apart already; one whose
	 * path is not its route separates nothing */
	if (measured(s->res, i) || s->no_route[i] || p->a >= s->res->n_ports ||
	    p->b >= s->res->n_ports || p->a == p->b)
		return;
	lo = key_of(s, p->a) <= key_of(s, p->b) ? p->a : p->b;
	hi = lo == p->a ? p->b : p->a;
	for (uint32_t j = s->rt->path_start[i]; j < s->rt->path_start[i + 1];
	     j++)
		crossed += rx->cgroup[s->rt->path_cables[j]] == g + 1;
	crossed += grp->or_port != JUDGE_NO_PORT &&
		   (p->a == grp->or_port || p->b == grp->or_port);
	if (!crossed || crossed >= total || !before_retest(s, grp, lo, hi))
		return;
	grp->retest = i;
	grp->retest_a = lo;
	grp->retest_b = hi;
}

/* The pairs of a group's port, for every group with one: all pairs once. */
static void port_retests(struct cable_state *s, const struct retests *rx)
{
	for (uint32_t i = 0; i < s->res->n_pairs; i++) {
		uint32_t end[2] = { s->pairs[i].a, s->pairs[i].b };

		for (int k = 0; k < 2; k++) {
			uint32_t g = end[k] < s->res->n_ports
					     ? rx->pgroup[end[k]]
					     : 0;

			for (; g; g = rx->pnext[g - 1])
				consider(s, rx, g - 1, i);
		}
	}
}

static void group_retests(struct cable_state *s, struct retests *rx, uint32_t g,
			  bool *ports)
{
	struct judge_cable_group *grp = &s->groups[g];

	for (uint32_t k = 0; k < grp->n; k++)
		rx->cgroup[s->members[grp->first + k]] = g + 1;
	for (uint32_t k = 0; k < grp->n; k++) {
		uint32_t c = s->members[grp->first + k];

		for (uint32_t j = s->c_start[c]; j < s->c_start[c + 1]; j++)
			consider(s, rx, g, s->c_pairs[j]);
	}
	if (grp->or_port != JUDGE_NO_PORT) {
		rx->pnext[g] = rx->pgroup[grp->or_port];
		rx->pgroup[grp->or_port] = g + 1;
		*ports = true;
	}
}

static int find_retests(struct cable_state *s)
{
	struct retests rx = {
		.cgroup = calloc(s->rt->n_cables + 1, sizeof(uint32_t)),
		.pgroup = calloc(s->res->n_ports + 1, sizeof(uint32_t)),
		.pnext = calloc(s->n_groups + 1, sizeof(uint32_t)),
	};
	bool ports = false;
	int ret = -ENOMEM;

	if (rx.cgroup && rx.pgroup && rx.pnext) {
		for (uint32_t g = 0; g < s->n_groups; g++)
			if (s->groups[g].verdict == JUDGE_CABLE_AMBIGUOUS)
				group_retests(s, &rx, g, &ports);
		if (ports)
			port_retests(s, &rx);
		ret = 0;
	}
	free(rx.cgroup);
	free(rx.pgroup);
	free(rx.pnext);
	return ret;
}

/* ---- the groups in id order ---- */

static void sort_members(struct cable_state *s, struct judge_cable_group *g)
{
	uint32_t *m = s->members + g->first;

	for (uint32_t a = 1; a < g->n; a++) /* a group is a few cables */
		for (uint32_t b = a; b > 0 && cmp_id(s, m[b - 1], m[b]) > 0;
		     b--) {
			uint32_t x = m[b];

			m[b] = m[b - 1];
			m[b - 1] = x;
		}
}

struct by_id {
	uint64_t guid;
	uint32_t port, group;
};

static int cmp_by_id(const void *x, const void *y)
{
	const struct by_id *a = x, *b = y;

	if (a->guid != b->guid)
		return a->guid < b->guid ? -1 : 1;
	if (a->port != b->port)
		return a->port < b->port ? -1 : 1;
	return (a->group > b->group) - (a->group < b->group);
}

/* The groups by their first cable's id, and each cable's group. */
static int order_groups(struct cable_state *s)
{
	struct judge_cable_result *out = s->out;
	struct by_id *k = malloc((s->n_groups + 1) * sizeof(*k));

	out->groups = malloc((s->n_groups + 1) * sizeof(*out->groups));
	if (!k || !out->groups) {
		free(k);
		return -ENOMEM;
	}
	for (uint32_t g = 0; g < s->n_groups; g++) {
		const struct judge_cable_in *c;

		sort_members(s, &s->groups[g]);
		c = &s->rt->cables[s->members[s->groups[g].first]];
		k[g] = (struct by_id){ c->id_guid, c->id_port, g };
	}
	qsort(k, s->n_groups, sizeof(*k), cmp_by_id);
	for (uint32_t g = 0; g < s->n_groups; g++) {
		const struct judge_cable_group *grp = &s->groups[k[g].group];

		out->groups[g] = *grp;
		for (uint32_t m = 0; m < grp->n; m++) {
			struct judge_cable *v =
				&out->cables[s->members[grp->first + m]];

			v->group = g;
			out->n_blamed += v->verdict == JUDGE_CABLE_BLAMED;
			out->n_ambiguous += v->verdict == JUDGE_CABLE_AMBIGUOUS;
		}
	}
	out->n_groups = s->n_groups;
	out->members = s->members;
	s->members = NULL;
	free(k);
	return 0;
}

static int judge_all(struct cable_state *s)
{
	size_t n = s->rt->n_cables, n_ord = 0;
	struct order *ord = calloc(n ? n : 1, sizeof(*ord));
	uint8_t *mark = calloc(s->res->n_ports ? s->res->n_ports : 1, 1);
	int ret = -ENOMEM;

	if (!ord || !mark)
		goto out;
	for (uint32_t c = 0; c < n; c++) {
		const struct judge_cable *v = &s->out->cables[c];

		cable_figures(s, c);
		if (candidate(s, c))
			ord[n_ord++] = (struct order){ v->n_bad, v->n_meas, c,
						       erroring(s, c) };
	}
	qsort(ord, n_ord, sizeof(*ord), cmp_order);
	port_counts(s);
	ret = judge_candidates(s, ord, n_ord) ?: find_retests(s)
			?: order_groups(s) ?: clear_ports(s, mark);
out:
	free(ord);
	free(mark);
	return ret;
}

/* ---- the pairs that are no evidence by route ---- */

static uint64_t step_key(uint32_t run, uint32_t round, uint8_t test)
{
	return (uint64_t)run << 40 | (uint64_t)round << 1 | (test != 0);
}

static int cmp_u64(const void *x, const void *y)
{
	uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;

	return (a > b) - (a < b);
}

/* no_route[i]: pair i's path is adaptive, or its step was unfollowed. */
static int mark_no_route(struct cable_state *s)
{
	const struct judge_routes *rt = s->rt;
	size_t n = rt->unfollowed ? rt->n_unfollowed : 0;
	uint64_t *keys = malloc((n ? n : 1) * sizeof(*keys));

	if (!keys)
		return -ENOMEM;
	for (size_t k = 0; k < n; k++)
		keys[k] =
			step_key(rt->unfollowed[k].run, rt->unfollowed[k].round,
				 rt->unfollowed[k].test);
	qsort(keys, n, sizeof(*keys), cmp_u64);
	for (uint32_t i = 0; i < s->res->n_pairs; i++) {
		const struct judge_pair *p = &s->pairs[i];
		uint64_t key = step_key(p->run, p->round, p->test);

		if (rt->path_start[i] == rt->path_start[i + 1])
			continue; /* no path: nothing to withhold */
		s->no_route[i] =
			(rt->adaptive && rt->adaptive[i]) ||
			(n && bsearch(&key, keys, n, sizeof(key), cmp_u64));
		s->out->n_no_route += s->no_route[i];
	}
	free(keys);
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
		.rmeas = { calloc(np, sizeof(uint32_t)),
			   calloc(np, sizeof(uint32_t)) },
		.rbad = { calloc(np, sizeof(uint32_t)),
			  calloc(np, sizeof(uint32_t)) },
		.tstamp = calloc(np, sizeof(uint32_t)),
		.seen = calloc(np, sizeof(uint32_t)),
		.tm = calloc(np, sizeof(uint32_t)),
		.tb = calloc(np, sizeof(uint32_t)),
		.bhash = calloc(rt->n_cables + 1, sizeof(uint64_t)),
		.no_route = calloc(res->n_pairs ? res->n_pairs : 1, 1),
		.c_no_route = calloc(rt->n_cables + 1, sizeof(uint32_t)),
	};
	int ret = -ENOMEM;

	memset(out, 0, sizeof(*out));
	out->n_cables = rt->n_cables;
	out->cables =
		calloc(rt->n_cables ? rt->n_cables : 1, sizeof(*out->cables));
	out->cleared = calloc(np, 1);
	if (!s.explained || !s.meas || !s.bad || !s.rmeas[0] || !s.rmeas[1] ||
	    !s.rbad[0] || !s.rbad[1] || !s.tstamp || !s.seen || !s.tm ||
	    !s.tb || !s.bhash || !s.no_route || !s.c_no_route || !out->cables ||
	    !out->cleared)
		goto done;
	ret = mark_no_route(&s) ?: build_cable_csr(&s) ?: judge_all(&s);
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
	for (int x = 0; x < 2; x++) {
		free(s.rmeas[x]);
		free(s.rbad[x]);
	}
	free(s.tstamp);
	free(s.seen);
	free(s.tm);
	free(s.tb);
	free(s.bhash);
	free(s.no_route);
	free(s.c_no_route);
	free(s.groups);
	free(s.members);
	return ret;
}
