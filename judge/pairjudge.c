// SPDX-License-Identifier: MIT
/*
 * The one pair judge (docs/judging.md has the table: rule, formula,
 * default, why).
 *
 * 1. Each pair against its link class (run, test, direction, expected rate):
 *    the round's class when the round has MIN_ROUND_CLASS pairs of it
 *    and is not a retest round, else the run's. Low under floor x
 *    expected, under median - max(mad_k x 1.4826 MAD, min_spread x
 *    median), or under class_floor x median; a dip when not low and its
 *    lowest window is under dip_floor x expected (or the median); bad
 *    with errors when it failed or had error completions.
 * 2. Ports, strongest evidence first (largest share of bad pairs): a
 *    port is blamed for a kind when it was bad that way with
 *    min_witnesses distinct partners that are not blamed and were fine
 *    elsewhere (at most fine_max_bad of their other pairs bad, pairs with
 *    blamed ports left out), and when its bad pairs (those with blamed
 *    ports left out) are too many to be chance at the background bad rate
 *    (the noise guard). Bad in different ways with enough witnesses: the
 *    port is blamed for each way. Passes repeat while they blame anyone.
 * 3. Not blamed and bad with a partner not blamed: a suspect. Bad only
 *    with blamed ports: cleared.
 *
 * Cost: classes by counting sort, medians by selection, each port's pairs
 * as CSR arrays; each pass reads every pair a bounded number of times.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "judge/judge_options.h"
#include "judge/pairjudge.h"

/* A class needs this many ok pairs for a median; a round's class this
 * many to have figures of its own. */
#define MIN_CLASS 3
#define MIN_ROUND_CLASS 8
#define MAX_CLASSES 1024
#define NO_CLASS UINT16_MAX
/* Passes over the ports: each blames somebody or ends judging. */
#define MAX_PASSES 16
#define ANY JUDGE_N_KINDS

void judge_defaults(struct judge_params *jp)
{
#define OPTION_DEFAULT(field, name, arg, def, ...) jp->field = def;
	JUDGE_OPTIONS(OPTION_DEFAULT) /* judge/judge_options.h */
#undef OPTION_DEFAULT
	jp->min_spread = 0.05;
	jp->fine_max_bad = 0.25;
	jp->noise_alpha = 1e-3;
}

const char *judge_kind_category(enum judge_kind k)
{
	static const char *const names[] = { "low-bandwidth", "intermittent",
					     "completion-errors" };

	return k < JUDGE_N_KINDS ? names[k] : "?";
}

const char *judge_why_name(uint8_t why)
{
	static const char *const names[] = {
		[JUDGE_WHY_FINE] = "ok",
		[JUDGE_WHY_ERROR] = "error",
		[JUDGE_WHY_FLOOR] = "below-floor",
		[JUDGE_WHY_OUTLIER] = "outlier",
		[JUDGE_WHY_CLASS_FLOOR] = "below-class-floor",
		[JUDGE_WHY_DIP] = "intermittent",
		[JUDGE_WHY_NOT_TESTED] = "not-tested",
	};

	return why < sizeof(names) / sizeof(names[0]) ? names[why] : "?";
}

void judge_result_free(struct judge_result *res)
{
	free(res->ports);
	free(res->out);
	free(res->pair_start);
	free(res->pair_idx);
	free(res->bad_start);
	free(res->bad_idx);
	memset(res, 0, sizeof(*res));
}

static bool valid(const struct judge_pair *p, size_t n_ports)
{
	return p->a < n_ports && p->b < n_ports && p->a != p->b;
}

/* ---- 1. pairs against their class ---- */

struct class_key {
	uint16_t run;
	uint8_t test, bidir;
	int64_t expected; /* tenths of Gb/s */
};

static bool same_key(const struct class_key *x, const struct class_key *y)
{
	return x->run == y->run && x->test == y->test && x->bidir == y->bidir &&
	       x->expected == y->expected;
}

struct class_stat {
	double med, mad;
	size_t k;
};

static void swapf(float *a, float *b)
{
	float t = *a;

	*a = *b;
	*b = t;
}

/* k-th smallest of v[0..n), reordering v: v[0..k) <= it <= v(k..n). */
static float select_kth(float *v, size_t n, size_t k)
{
	size_t lo = 0, hi = n;

	while (hi - lo > 1) {
		float pivot = v[lo + (hi - lo) / 2];
		size_t lt = lo, i = lo, gt = hi;

		while (i < gt) {
			if (v[i] < pivot)
				swapf(&v[lt++], &v[i++]);
			else if (v[i] > pivot)
				swapf(&v[i], &v[--gt]);
			else
				i++;
		}
		if (k < lt)
			hi = lt;
		else if (k >= gt)
			lo = gt;
		else
			return pivot;
	}
	return v[lo];
}

/* The median (the mean of the middle two for even n), reordering v. */
static double median(float *v, size_t n)
{
	double hi = select_kth(v, n, n / 2), lo;

	if (n & 1)
		return hi;
	lo = v[0];
	for (size_t i = 1; i < n / 2; i++)
		if (v[i] > lo)
			lo = v[i];
	return (lo + hi) / 2;
}

static struct class_stat stat_of(const struct judge_pair *pairs,
				 const uint32_t *idx, size_t n, float *tmp)
{
	struct class_stat c = { .k = n };

	for (size_t j = 0; j < n; j++)
		tmp[j] = pairs[idx[j]].gbps;
	c.med = median(tmp, n);
	for (size_t j = 0; j < n; j++)
		tmp[j] = (float)fabs(pairs[idx[j]].gbps - c.med);
	c.mad = median(tmp, n);
	return c;
}

static void mark_ok(const struct judge_params *jp, const struct judge_pair *p,
		    const struct class_stat *c, struct judge_out *o)
{
	double spread =
		fmax(jp->mad_k * 1.4826 * c->mad, jp->min_spread * c->med);
	double ref = p->expected > 0 ? p->expected : c->k ? c->med : 0;

	o->bad = 0;
	o->why = JUDGE_WHY_FINE;
	if (p->expected > 0 && p->gbps < jp->floor * p->expected)
		o->why = JUDGE_WHY_FLOOR;
	else if (jp->mad_k > 0 && c->k >= MIN_CLASS &&
		 p->gbps < c->med - spread)
		o->why =
			JUDGE_WHY_OUTLIER; /* mad_k 0: the outlier rule is off */
	else if (c->k >= MIN_CLASS && p->gbps < jp->class_floor * c->med)
		o->why = JUDGE_WHY_CLASS_FLOOR;
	if (o->why)
		o->bad |= JUDGE_LOW;
	else if (ref > 0 && p->gbps_min < jp->dip_floor * ref) {
		o->bad |= JUDGE_DIP;
		o->why = JUDGE_WHY_DIP;
	}
	if (p->error_completions) {
		o->bad |= JUDGE_ERR;
		if (!o->why)
			o->why = JUDGE_WHY_ERROR;
	}
}

/* The class of each ok pair (NO_CLASS past MAX_CLASSES). */
static size_t assign_classes(const struct judge_pair *pairs, size_t n,
			     const struct judge_out *out, uint16_t *cls)
{
	struct class_key *keys = malloc(MAX_CLASSES * sizeof(*keys));
	size_t n_cls = 0, last = 0;

	for (size_t i = 0; i < n; i++) {
		struct class_key k;
		size_t c;

		cls[i] = NO_CLASS;
		if (out[i].why == JUDGE_WHY_NOT_TESTED ||
		    pairs[i].status != JUDGE_PAIR_OK || !keys)
			continue;
		k = (struct class_key){ pairs[i].run, pairs[i].test,
					pairs[i].bidir,
					llround(pairs[i].expected * 10.0) };
		c = last;
		if (c >= n_cls || !same_key(&keys[c], &k))
			for (c = 0; c < n_cls && !same_key(&keys[c], &k); c++)
				;
		if (c == n_cls) {
			if (n_cls == MAX_CLASSES)
				continue;
			keys[n_cls++] = k;
		}
		cls[i] = (uint16_t)c;
		last = c;
	}
	free(keys);
	return n_cls;
}

int judge_cmp_keyed(const void *x, const void *y)
{
	const struct judge_keyed *a = x, *b = y;

	if (a->key != b->key)
		return a->key < b->key ? -1 : 1;
	return (a->idx > b->idx) - (a->idx < b->idx);
}

/*
 * ord[0..n_ok): the ok pairs with a class, by class then round. Counting
 * sorts (rounds, then classes, stable) unless the round numbers are far
 * more than the pairs; then one sort of (class, round) keys.
 */
static int order_by_class(const struct judge_pair *pairs, size_t n,
			  const uint16_t *cls, size_t n_cls, uint32_t *ord,
			  size_t *n_ok)
{
	uint32_t max_round = 0, *tmp, *cnt;
	size_t k = 0;

	for (size_t i = 0; i < n; i++)
		if (cls[i] != NO_CLASS) {
			k++;
			if (pairs[i].round > max_round)
				max_round = pairs[i].round;
		}
	*n_ok = k;
	if (max_round > 4 * k + 65536) {
		struct judge_keyed *kv = malloc((k ? k : 1) * sizeof(*kv));

		if (!kv)
			return -ENOMEM;
		k = 0;
		for (size_t i = 0; i < n; i++)
			if (cls[i] != NO_CLASS)
				kv[k++] = (struct judge_keyed){
					(uint64_t)cls[i] << 32 | pairs[i].round,
					(uint32_t)i
				};
		qsort(kv, k, sizeof(*kv), judge_cmp_keyed);
		for (size_t i = 0; i < k; i++)
			ord[i] = kv[i].idx;
		free(kv);
		return 0;
	}
	tmp = malloc((k ? k : 1) * sizeof(*tmp));
	cnt = calloc((size_t)max_round + 2 > n_cls + 1 ? (size_t)max_round + 2
						       : n_cls + 1,
		     sizeof(*cnt));
	if (!tmp || !cnt) {
		free(tmp);
		free(cnt);
		return -ENOMEM;
	}
	for (size_t i = 0; i < n; i++)
		if (cls[i] != NO_CLASS)
			cnt[pairs[i].round + 1]++;
	for (size_t r = 0; r <= max_round; r++)
		cnt[r + 1] += cnt[r];
	for (size_t i = 0; i < n; i++)
		if (cls[i] != NO_CLASS)
			tmp[cnt[pairs[i].round]++] = (uint32_t)i;
	memset(cnt, 0, (n_cls + 1) * sizeof(*cnt));
	for (size_t i = 0; i < k; i++)
		cnt[cls[tmp[i]] + 1]++;
	for (size_t c = 0; c < n_cls; c++)
		cnt[c + 1] += cnt[c];
	for (size_t i = 0; i < k; i++)
		ord[cnt[cls[tmp[i]]]++] = tmp[i];
	free(tmp);
	free(cnt);
	return 0;
}

/* One class's pairs ord[0..n), by round: each marked against the round's
 * figures when it has them, else the class's. */
static void mark_class(const struct judge_params *jp,
		       const struct judge_pair *pairs, const uint32_t *ord,
		       size_t n, float *tmp, struct judge_out *out)
{
	struct class_stat run = stat_of(pairs, ord, n, tmp);

	for (size_t first = 0, end; first < n; first = end) {
		struct class_stat own = run;
		const struct class_stat *c = &run;

		for (end = first + 1;
		     end < n &&
		     pairs[ord[end]].round == pairs[ord[first]].round;
		     end++)
			;
		if (end - first >= MIN_ROUND_CLASS &&
		    !pairs[ord[first]].retest) {
			own = stat_of(pairs, ord + first, end - first, tmp);
			c = &own;
		}
		for (size_t j = first; j < end; j++)
			mark_ok(jp, &pairs[ord[j]], c, &out[ord[j]]);
	}
}

static int mark_pairs(const struct judge_params *jp,
		      const struct judge_pair *pairs, size_t n, size_t n_ports,
		      struct judge_out *out)
{
	uint16_t *cls = malloc((n ? n : 1) * sizeof(*cls));
	uint32_t *ord = malloc((n ? n : 1) * sizeof(*ord));
	float *tmp = malloc((n ? n : 1) * sizeof(*tmp));
	static const struct class_stat none;
	size_t n_cls, n_ok;
	int ret = -ENOMEM;

	if (!cls || !ord || !tmp)
		goto out;
	for (size_t i = 0; i < n; i++) {
		out[i] = (struct judge_out){ 0 };
		if (!valid(&pairs[i], n_ports) ||
		    pairs[i].status == JUDGE_PAIR_NOT_TESTED)
			out[i].why = JUDGE_WHY_NOT_TESTED;
		else if (pairs[i].status != JUDGE_PAIR_OK)
			out[i] = (struct judge_out){ JUDGE_ERR,
						     JUDGE_WHY_ERROR };
	}
	n_cls = assign_classes(pairs, n, out, cls);
	ret = order_by_class(pairs, n, cls, n_cls, ord, &n_ok);
	if (ret)
		goto out;
	for (size_t first = 0, end; first < n_ok; first = end) {
		for (end = first + 1;
		     end < n_ok && cls[ord[end]] == cls[ord[first]]; end++)
			;
		mark_class(jp, pairs, ord + first, end - first, tmp, out);
	}
	/* ok pairs past MAX_CLASSES: the absolute rules only */
	for (size_t i = 0; i < n; i++)
		if (cls[i] == NO_CLASS && pairs[i].status == JUDGE_PAIR_OK &&
		    out[i].why != JUDGE_WHY_NOT_TESTED)
			mark_ok(jp, &pairs[i], &none, &out[i]);
out:
	free(cls);
	free(ord);
	free(tmp);
	return ret;
}

/* ---- 2. ports ---- */

static bool measured(const struct judge_out *o)
{
	return o->why != JUDGE_WHY_NOT_TESTED;
}

static void tally(const struct judge_pair *pairs, size_t n,
		  const struct judge_out *out, struct judge_port *ports,
		  size_t n_ports)
{
	for (size_t p = 0; p < n_ports; p++)
		ports[p] = (struct judge_port){ .worst_gbps = -1 };
	for (size_t i = 0; i < n; i++) {
		const struct judge_pair *pr = &pairs[i];
		uint32_t end[2] = { pr->a, pr->b };

		if (!valid(pr, n_ports))
			continue;
		for (int e = 0; e < 2; e++) {
			struct judge_port *v = &ports[end[e]];

			v->n_pairs++;
			if (!measured(&out[i]))
				continue;
			v->n_meas++;
			v->n_bad += out[i].bad != 0;
			v->n_low += !!(out[i].bad & JUDGE_LOW);
			v->n_dip += !!(out[i].bad & JUDGE_DIP);
			v->n_err += !!(out[i].bad & JUDGE_ERR);
			if (pr->status != JUDGE_PAIR_OK)
				continue;
			v->tested = true;
			v->n_ok++;
			v->sum_gbps += pr->gbps;
			if (v->worst_gbps < 0 || pr->gbps < v->worst_gbps)
				v->worst_gbps = pr->gbps;
		}
	}
}

/* CSR of the pairs of each port that pass keep (all measured, or bad). */
static int build_csr(const struct judge_pair *pairs, size_t n,
		     const struct judge_out *out, size_t n_ports, bool bad_only,
		     uint32_t **start_out, uint32_t **idx_out)
{
	uint32_t *start = calloc(n_ports + 2, sizeof(*start)), *idx;
	size_t total = 0;

	if (!start)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++)
		if (valid(&pairs[i], n_ports) && measured(&out[i]) &&
		    (!bad_only || out[i].bad)) {
			start[pairs[i].a + 2]++;
			start[pairs[i].b + 2]++;
			total += 2;
		}
	idx = malloc((total ? total : 1) * sizeof(*idx));
	if (!idx) {
		free(start);
		return -ENOMEM;
	}
	for (size_t p = 0; p < n_ports; p++)
		start[p + 2] += start[p + 1];
	for (size_t i = 0; i < n; i++)
		if (valid(&pairs[i], n_ports) && measured(&out[i]) &&
		    (!bad_only || out[i].bad)) {
			idx[start[pairs[i].a + 1]++] = (uint32_t)i;
			idx[start[pairs[i].b + 1]++] = (uint32_t)i;
		}
	*start_out = start;
	*idx_out = idx;
	return 0;
}

/* Bad counts by kind, ANY last. */
struct counts {
	uint32_t meas, bad[JUDGE_N_KINDS + 1];
};

static void count_add(struct counts *c, uint8_t bad, int sign)
{
	c->meas += (uint32_t)sign;
	for (int k = 0; k < JUDGE_N_KINDS; k++)
		c->bad[k] += (uint32_t)(sign * !!(bad & (1u << k)));
	c->bad[ANY] += (uint32_t)(sign * (bad != 0));
}

struct blame_state {
	const struct judge_params *jp;
	const struct judge_pair *pairs;
	struct judge_result *res;
	size_t n_judged; /* ports with a measured pair */
	uint8_t *heavy; /* blamed, or bad with most of its pairs */
	struct counts *own; /* each port's measured pairs */
	struct counts *with_blamed; /* ... with a blamed partner */
	struct counts *own_bg; /* ... in the background */
	struct counts bg; /* pairs with neither end heavy */
	/* scratch, per partner of the port judged */
	uint32_t *stamp, *seen, tick;
	struct counts *with;
	uint8_t *kinds;
};

/* P(X >= k) for X ~ Poisson(mu), summed from the tail's first term. */
static double poisson_tail(double mu, double k)
{
	double term, sum = 0;

	if (k <= 0)
		return 1;
	if (mu <= 0)
		return 0;
	term = exp(-mu + k * log(mu) - lgamma(k + 1));
	for (double i = k; i < k + 100000 && term > sum * 1e-12; i++) {
		sum += term;
		term *= mu / (i + 1);
	}
	return sum;
}

/*
 * The noise guard for kind k: port p's bad pairs (with blamed ports left
 * out) are too many to be chance at the background rate of kind k (the
 * pairs of the other ports that are neither blamed nor bad with most of
 * their pairs).
 */
static bool stands_out(const struct blame_state *s, uint32_t p, int k)
{
	double meas = (double)s->own[p].meas - s->with_blamed[p].meas;
	double bad = (double)s->own[p].bad[k] - s->with_blamed[p].bad[k];
	double bg_meas = (double)s->bg.meas - s->own_bg[p].meas;
	double bg_bad = (double)s->bg.bad[k] - s->own_bg[p].bad[k];
	double rate = bg_meas > 0 ? bg_bad / bg_meas : 0;

	if (meas <= 0 || bad <= 0)
		return false;
	if (s->jp->noise_alpha <= 0)
		return true;
	return poisson_tail(rate * meas, bad) <
	       s->jp->noise_alpha / (double)(s->n_judged ? s->n_judged : 1);
}

/* Partner q was fine with the others it met: neither p nor blamed ones. */
static bool fine_elsewhere(const struct blame_state *s, uint32_t q)
{
	double meas = (double)s->own[q].meas - s->with_blamed[q].meas -
		      s->with[q].meas;
	double bad = (double)s->own[q].bad[ANY] - s->with_blamed[q].bad[ANY] -
		     s->with[q].bad[ANY];

	return meas >= 1 && bad <= s->jp->fine_max_bad * meas;
}

static void blame(struct blame_state *s, uint32_t p, uint8_t kinds)
{
	const struct judge_result *r = s->res;
	bool was_heavy = s->heavy[p];

	r->ports[p].blame |= kinds;
	r->ports[p].suspect = false;
	s->heavy[p] = 1;
	for (uint32_t j = r->pair_start[p]; j < r->pair_start[p + 1]; j++) {
		uint32_t i = r->pair_idx[j], q = judge_partner(&s->pairs[i], p);
		uint8_t bad = r->out[i].bad;

		count_add(&s->with_blamed[q], bad, 1);
		if (was_heavy || s->heavy[q])
			continue;
		count_add(&s->bg, bad, -1);
		count_add(&s->own_bg[q], bad, -1);
	}
	memset(&s->own_bg[p], 0, sizeof(s->own_bg[p]));
}

/* Witnesses and bad partners of port p under the blame known now. */
static void witness(struct blame_state *s, uint32_t p)
{
	const struct judge_result *r = s->res;
	struct judge_port *v = &r->ports[p];

	s->tick++;
	for (uint32_t j = r->pair_start[p]; j < r->pair_start[p + 1]; j++) {
		uint32_t i = r->pair_idx[j], q = judge_partner(&s->pairs[i], p);

		if (s->stamp[q] != s->tick) {
			s->stamp[q] = s->tick;
			memset(&s->with[q], 0, sizeof(s->with[q]));
			s->kinds[q] = 0;
		}
		count_add(&s->with[q], r->out[i].bad, 1);
		s->kinds[q] |= r->out[i].bad;
	}
	memset(v->witnesses, 0, sizeof(v->witnesses));
	v->bad_partners = 0;
	for (uint32_t j = r->bad_start[p]; j < r->bad_start[p + 1]; j++) {
		uint32_t q = judge_partner(&s->pairs[r->bad_idx[j]], p);

		if (s->seen[q] == s->tick || r->ports[q].blame)
			continue;
		s->seen[q] = s->tick;
		v->bad_partners++;
		if (!fine_elsewhere(s, q))
			continue;
		for (int k = 0; k < JUDGE_N_KINDS; k++)
			v->witnesses[k] += !!(s->kinds[q] & (1u << k));
		v->witnesses[ANY]++;
	}
}

/* Judges port p; true when it is blamed now. */
static bool judge_port(struct blame_state *s, uint32_t p)
{
	struct judge_port *v = &s->res->ports[p];
	unsigned int min = s->jp->min_witnesses;
	uint8_t kinds = 0;
	bool out = false;

	witness(s, p);
	for (int k = 0; k < JUDGE_N_KINDS; k++)
		if (v->witnesses[k] >= min && stands_out(s, p, k))
			kinds |= (uint8_t)(1u << k);
	/* bad in different ways with different partners: each way counts */
	if (!kinds && v->witnesses[ANY] >= min) {
		for (int k = 0; k <= ANY; k++)
			out |= stands_out(s, p, k);
		for (int k = 0; out && k < JUDGE_N_KINDS; k++)
			if (s->own[p].bad[k] > s->with_blamed[p].bad[k])
				kinds |= (uint8_t)(1u << k);
	}
	if (!kinds)
		return false;
	v->confidence = (float)((1.0 - pow(0.5, v->witnesses[ANY])) *
				v->witnesses[ANY] /
				(v->bad_partners ? v->bad_partners : 1));
	blame(s, p, kinds);
	return true;
}

struct evidence {
	double share;
	uint32_t bad, port;
};

static int cmp_evidence(const void *x, const void *y)
{
	const struct evidence *a = x, *b = y;

	if (a->share != b->share)
		return a->share > b->share ? -1 : 1;
	if (a->bad != b->bad)
		return a->bad > b->bad ? -1 : 1;
	return (a->port > b->port) - (a->port < b->port);
}

static void background(struct blame_state *s)
{
	const struct judge_result *r = s->res;

	for (size_t i = 0; i < r->n_pairs; i++) {
		const struct judge_pair *pr = &s->pairs[i];
		uint8_t bad = r->out[i].bad;

		if (!valid(pr, r->n_ports) || !measured(&r->out[i]))
			continue;
		count_add(&s->own[pr->a], bad, 1);
		count_add(&s->own[pr->b], bad, 1);
		if (s->heavy[pr->a] || s->heavy[pr->b])
			continue;
		count_add(&s->bg, bad, 1);
		count_add(&s->own_bg[pr->a], bad, 1);
		count_add(&s->own_bg[pr->b], bad, 1);
	}
}

static int blame_ports(const struct judge_params *jp,
		       const struct judge_pair *pairs, struct judge_result *r)
{
	size_t n = r->n_ports ? r->n_ports : 1, n_order = 0;
	struct blame_state s = {
		.jp = jp,
		.pairs = pairs,
		.res = r,
		.heavy = calloc(n, 1),
		.own = calloc(n, sizeof(struct counts)),
		.with_blamed = calloc(n, sizeof(struct counts)),
		.own_bg = calloc(n, sizeof(struct counts)),
		.stamp = calloc(n, sizeof(uint32_t)),
		.seen = calloc(n, sizeof(uint32_t)),
		.with = calloc(n, sizeof(struct counts)),
		.kinds = calloc(n, 1),
	};
	struct evidence *order = calloc(n, sizeof(*order));
	int ret = -ENOMEM;

	if (!s.heavy || !s.own || !s.with_blamed || !s.own_bg || !s.stamp ||
	    !s.seen || !s.with || !s.kinds || !order)
		goto out;
	for (size_t p = 0; p < r->n_ports; p++) {
		const struct judge_port *v = &r->ports[p];

		s.n_judged += v->n_meas > 0;
		s.heavy[p] = 2 * v->n_bad > v->n_meas;
		if (v->n_bad)
			order[n_order++] =
				(struct evidence){ (double)v->n_bad / v->n_meas,
						   v->n_bad, (uint32_t)p };
	}
	background(&s);
	/* strongest evidence first: the port bad with most of its partners
	 * explains their pairs before they are judged */
	qsort(order, n_order, sizeof(*order), cmp_evidence);
	for (int pass = 0; pass < MAX_PASSES; pass++) {
		size_t blamed = 0;

		for (size_t i = 0; i < n_order; i++)
			if (!r->ports[order[i].port].blame)
				blamed += judge_port(&s, order[i].port);
		if (!blamed)
			break;
	}
	for (size_t i = 0; i < n_order; i++) {
		struct judge_port *v = &r->ports[order[i].port];

		v->suspect = !v->blame && v->bad_partners > 0;
	}
	ret = 0;
out:
	free(s.heavy);
	free(s.own);
	free(s.with_blamed);
	free(s.own_bg);
	free(s.stamp);
	free(s.seen);
	free(s.with);
	free(s.kinds);
	free(order);
	return ret;
}

int judge_pairs(const struct judge_params *jp, const struct judge_pair *pairs,
		size_t n_pairs, size_t n_ports, struct judge_result *res)
{
	int ret = -ENOMEM;

	memset(res, 0, sizeof(*res));
	res->n_pairs = n_pairs;
	res->n_ports = n_ports;
	res->ports = calloc(n_ports ? n_ports : 1, sizeof(*res->ports));
	res->out = calloc(n_pairs ? n_pairs : 1, sizeof(*res->out));
	if (!res->ports || !res->out)
		goto fail;
	ret = mark_pairs(jp, pairs, n_pairs, n_ports, res->out);
	if (ret)
		goto fail;
	tally(pairs, n_pairs, res->out, res->ports, n_ports);
	ret = build_csr(pairs, n_pairs, res->out, n_ports, false,
			&res->pair_start, &res->pair_idx) ?:
	      build_csr(pairs, n_pairs, res->out, n_ports, true,
			&res->bad_start, &res->bad_idx) ?:
	      blame_ports(jp, pairs, res);
	if (!ret)
		return 0;
fail:
	judge_result_free(res);
	return ret ? ret : -ENOMEM;
}
