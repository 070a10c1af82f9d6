// SPDX-License-Identifier: MIT
/*
 * Judging: which pairs are bad, and which port is to blame. A pair is low
 * under an absolute floor (a fraction of the expected rate) or as an
 * outlier of its link class (below median - k * MAD: of the round when it
 * has enough pairs of the class, else of the run). A port is blamed
 * only when it was bad with at least min_partners different partners that
 * were fine elsewhere and not blamed themselves (for the same fault); ports
 * are judged strongest evidence first. Until then it is a suspect,
 * retested against new partners. Pure: no I/O, no device.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "burnin/burnin.h"

/* BAD_ANY: any of the three, for ports bad in different ways. */
enum bad_kind { BAD_LOW, BAD_DIP, BAD_ERR, N_BAD, BAD_ANY = N_BAD };

void burnin_judge_defaults(struct burnin_judge_params *jp)
{
	jp->floor = 0.9;
	jp->mad_k = 3.0;
	jp->class_floor = 0.5;
	jp->min_spread = 0.05;
	jp->dip_floor = 0.5;
	jp->min_partners = 2;
	jp->link_rate = -1;
}

static bool peers(const struct burnin_port *a, const struct burnin_port *b)
{
	return a != b && a->ethernet == b->ethernet && a->rail == b->rail;
}

static bool same_rate(double x, double y)
{
	return fabs(x - y) < 0.01;
}

/* The distinct rates of p's peers (a handful: SDR..XDR x widths), counted. */
struct rate_count {
	double gbps;
	int count, port;
};

#define MAX_RATES 32

static int count_rates(const struct burnin_port *ports, int n, int p,
		       struct rate_count *rc, int *n_peers)
{
	int n_rc = 0;

	*n_peers = 0;
	for (int q = 0; q < n; q++) {
		int k = 0;

		if (!peers(&ports[p], &ports[q]))
			continue;
		++*n_peers;
		while (k < n_rc && !same_rate(rc[k].gbps, ports[q].rate_gbps))
			k++;
		if (k == n_rc && n_rc == MAX_RATES)
			continue;
		if (k == n_rc)
			rc[n_rc++] =
				(struct rate_count){ ports[q].rate_gbps, 0, q };
		rc[k].count++;
	}
	return n_rc;
}

int burnin_link_rate_reference(const struct burnin_judge_params *jp,
			       const struct burnin_port *ports, int n, int p,
			       int *n_peers, int *n_at_rate)
{
	struct rate_count rc[MAX_RATES];
	int n_rc, best = -1;

	*n_peers = *n_at_rate = 0;
	if (jp->link_rate > 0)
		return ports[p].rate_gbps < jp->link_rate - 0.01 ? p : -1;
	if (jp->link_rate == 0)
		return -1;
	n_rc = count_rates(ports, n, p, rc, n_peers);
	for (int k = 0; k < n_rc; k++)
		if (best < 0 || rc[k].count > rc[best].count ||
		    (rc[k].count == rc[best].count &&
		     rc[k].gbps > rc[best].gbps))
			best = k;
	if (best < 0)
		return -1;
	*n_at_rate = rc[best].count;
	if (rc[best].count < 2 || 4 * rc[best].count < 3 * *n_peers ||
	    ports[p].rate_gbps >= rc[best].gbps - 0.01)
		return -1;
	return rc[best].port;
}

static int cmp_double(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;

	return a < b ? -1 : a > b;
}

static double median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), cmp_double);
	return n & 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* A link class: the ok pairs of one test and direction at one expected
 * rate, in one round when that round has MIN_ROUND_CLASS of them, else in
 * the whole run. Its median and MAD, and how many pairs it has. */
struct class_stat {
	double med, mad;
	int k;
};

struct ok_pair {
	double expected, gbps;
	int test, idx, round;
	bool bidir;
};

/* A round's class with this many pairs has a median of its own. */
#define MIN_ROUND_CLASS 8

static int cmp_ok_pair(const void *x, const void *y)
{
	const struct ok_pair *a = x, *b = y;

	if (a->test != b->test)
		return a->test - b->test;
	if (a->bidir != b->bidir)
		return a->bidir - b->bidir;
	if (a->expected != b->expected)
		return a->expected < b->expected ? -1 : 1;
	return a->round - b->round;
}

static bool same_class(const struct ok_pair *x, const struct ok_pair *y)
{
	return x->test == y->test && x->bidir == y->bidir &&
	       fabs(x->expected - y->expected) < 0.05;
}

static bool same_round_class(const struct ok_pair *x, const struct ok_pair *y)
{
	return same_class(x, y) && x->round == y->round;
}

/* One class's figures, for each of its pairs o[0..k) in st[]. */
static void stat_class(const struct ok_pair *o, int k, double *tmp,
		       struct class_stat *st)
{
	struct class_stat c = { .k = k };

	for (int j = 0; j < k; j++)
		tmp[j] = o[j].gbps;
	c.med = median(tmp, k);
	for (int j = 0; j < k; j++)
		tmp[j] = fabs(o[j].gbps - c.med);
	c.mad = median(tmp, k);
	for (int j = 0; j < k; j++)
		st[o[j].idx] = c;
}

/*
 * st[i]: the figures of m[i]'s link class, for every ok pair. Sorted once,
 * so judging stays O(M log M): a 256-port all-pairs run has 32640 pairs
 * per test, judged before each retest round and at the end.
 */
static int class_stats(const struct burnin_measure *m, int n_m,
		       struct class_stat *st)
{
	struct ok_pair *o = malloc((size_t)(n_m ? n_m : 1) * sizeof(*o));
	double *tmp = malloc((size_t)(n_m ? n_m : 1) * sizeof(*tmp));
	int n = 0;

	if (!o || !tmp) {
		free(o);
		free(tmp);
		return -ENOMEM;
	}
	for (int j = 0; j < n_m; j++)
		if (m[j].status == BURNIN_PAIR_OK)
			o[n++] = (struct ok_pair){
				m[j].expected_gbps, m[j].gbps,
				(int)m[j].test,	    j,
				m[j].round,	    m[j].bidir
			};
	qsort(o, (size_t)n, sizeof(*o), cmp_ok_pair);
	for (int first = 0, end; first < n; first = end) {
		for (end = first + 1; end < n && same_class(&o[first], &o[end]);
		     end++)
			;
		stat_class(&o[first], end - first, tmp, st);
	}
	/* the round's own figures where it has enough pairs: traffic that
	 * slows a whole round (another job) is not every pair's fault */
	for (int first = 0, end; first < n; first = end) {
		for (end = first + 1;
		     end < n && same_round_class(&o[first], &o[end]); end++)
			;
		if (end - first >= MIN_ROUND_CLASS)
			stat_class(&o[first], end - first, tmp, st);
	}
	free(o);
	free(tmp);
	return 0;
}

static void mark_pair(const struct burnin_judge_params *jp,
		      struct burnin_measure *p, const struct class_stat *c)
{
	double med = c->med,
	       spread = fmax(jp->mad_k * c->mad, jp->min_spread * med);
	double ref;

	p->low = p->dip = false;
	if (p->status != BURNIN_PAIR_OK)
		return;
	if (p->expected_gbps > 0 && p->gbps < jp->floor * p->expected_gbps)
		p->low = true;
	if (c->k >= 3 && p->gbps < med - spread)
		p->low = true;
	/* Noisy classes (TCG guests, shared links) widen the MAD until no
	 * outlier stands out; half the class median still does. */
	if (c->k >= 3 && p->gbps < jp->class_floor * med)
		p->low = true;
	ref = p->expected_gbps > 0 ? p->expected_gbps : med;
	if (!p->low && ref > 0 && p->gbps_min < jp->dip_floor * ref)
		p->dip = true;
}

static bool is_bad(const struct burnin_measure *p, enum bad_kind kind)
{
	switch (kind) {
	case BAD_LOW:
		return p->low;
	case BAD_DIP:
		return p->dip;
	case BAD_ERR:
		return p->status == BURNIN_PAIR_ERROR || p->error_completions;
	case BAD_ANY:
		return p->low || p->dip || is_bad(p, BAD_ERR);
	default:
		return false;
	}
}

static bool is_fine(const struct burnin_measure *p)
{
	return p->status == BURNIN_PAIR_OK && !p->low && !p->dip &&
	       !p->error_completions;
}

static int partner_of(const struct burnin_measure *p, int port)
{
	return p->a == port ? p->b : p->b == port ? p->a : -1;
}

/* Has port q a fine pair with someone other than p? */
static bool fine_elsewhere(const struct burnin_measure *m, int n_m, int q,
			   int p)
{
	for (int j = 0; j < n_m; j++) {
		int other = partner_of(&m[j], q);

		if (other >= 0 && other != p && is_fine(&m[j]))
			return true;
	}
	return false;
}

/*
 * Distinct partners of port p bad with it and fine elsewhere, and not
 * blamed for this kind themselves: that explains their pair with p.
 */
static int count_partners(const struct burnin_measure *m, int n_m, int p,
			  enum bad_kind kind, int *stamp,
			  const struct burnin_port_verdict *v)
{
	int n = 0;

	for (int j = 0; j < n_m; j++) {
		int q = partner_of(&m[j], p);

		if (q < 0 || !is_bad(&m[j], kind) || stamp[q] == p + 1 ||
		    (v[q].blame & (1u << kind)))
			continue;
		if (fine_elsewhere(m, n_m, q, p)) {
			stamp[q] = p + 1;
			n++;
		}
	}
	return n;
}

static void tally_port(const struct burnin_measure *m, int n_m, int p,
		       struct burnin_port_verdict *v)
{
	memset(v, 0, sizeof(*v));
	v->worst_gbps = -1;
	for (int j = 0; j < n_m; j++) {
		if (partner_of(&m[j], p) < 0)
			continue;
		if (m[j].status == BURNIN_PAIR_OK) {
			v->tested = true;
			v->n_ok++;
			if (v->worst_gbps < 0 || m[j].gbps < v->worst_gbps)
				v->worst_gbps = m[j].gbps;
		}
		v->n_pairs++;
		v->n_bad += is_bad(&m[j], BAD_ANY);
		v->n_low += is_bad(&m[j], BAD_LOW);
		v->n_dip += is_bad(&m[j], BAD_DIP);
		v->n_err += is_bad(&m[j], BAD_ERR);
	}
}

/*
 * Low with one partner and erroring with another is bad with two: blame
 * the port for each way it was bad. Partners blamed themselves explain
 * their bad pairs and do not count (a second pass, after every port's
 * single-kind blame is known).
 */
static void blame_mixed(const struct burnin_measure *m, int n_m, int p,
			int min_partners, int *stamp,
			struct burnin_port_verdict *v)
{
	int n = 0;

	for (int j = 0; j < n_m && !v[p].blame; j++) {
		int q = partner_of(&m[j], p);

		if (q < 0 || v[q].blame || !is_bad(&m[j], BAD_ANY) ||
		    stamp[q] == p + 1 || !fine_elsewhere(m, n_m, q, p))
			continue;
		stamp[q] = p + 1;
		n++;
	}
	if (n < min_partners)
		return;
	v[p].blame |= v[p].n_low ? BURNIN_BLAME_LOW : 0;
	v[p].blame |= v[p].n_dip ? BURNIN_BLAME_DIP : 0;
	v[p].blame |= v[p].n_err ? BURNIN_BLAME_ERRORS : 0;
}

/* A suspect: bad with a partner that is not blamed itself. */
static bool is_suspect(const struct burnin_measure *m, int n_m, int p,
		       const struct burnin_port_verdict *v)
{
	if (v[p].blame)
		return false;
	for (int j = 0; j < n_m; j++) {
		int q = partner_of(&m[j], p);

		if (q >= 0 && !v[q].blame &&
		    (m[j].low || m[j].dip || is_bad(&m[j], BAD_ERR)))
			return true;
	}
	return false;
}

struct evidence {
	double share; /* of the port's pairs, the bad ones */
	int bad, port;
};

static int cmp_evidence(const void *x, const void *y)
{
	const struct evidence *a = x, *b = y;

	if (a->share != b->share)
		return a->share > b->share ? -1 : 1;
	if (a->bad != b->bad)
		return b->bad - a->bad;
	return a->port - b->port;
}

/*
 * The order in which ports are judged: the strongest evidence first (the
 * largest share of bad pairs), so that a bad port is blamed before the
 * good ports it dragged down look at their partners.
 */
static struct evidence *judging_order(const struct burnin_port_verdict *v,
				      int n_ports)
{
	size_t n = n_ports > 0 ? (size_t)n_ports : 1;
	struct evidence *e = calloc(n, sizeof(*e));

	for (int p = 0; e && p < n_ports; p++) {
		e[p].port = p;
		e[p].bad = v[p].n_bad;
		e[p].share =
			v[p].n_pairs ? (double)v[p].n_bad / v[p].n_pairs : 0;
	}
	if (e)
		qsort(e, n, sizeof(*e), cmp_evidence);
	return e;
}

void burnin_judge(const struct burnin_judge_params *jp,
		  struct burnin_measure *m, int n_m,
		  struct burnin_port_verdict *v, int n_ports)
{
	struct class_stat *cls = calloc((size_t)(n_m ? n_m : 1), sizeof(*cls));
	int *stamp = calloc((size_t)(n_ports ? n_ports : 1), sizeof(*stamp));
	struct evidence *order;
	int *counts[N_BAD];

	if (cls && class_stats(m, n_m, cls)) {
		free(cls);
		cls = NULL;
	}
	for (int i = 0; cls && i < n_m; i++)
		mark_pair(jp, &m[i], &cls[i]);
	for (int p = 0; p < n_ports; p++)
		tally_port(m, n_m, p, &v[p]);
	order = judging_order(v, n_ports);
	for (int i = 0; order && i < n_ports; i++) {
		int p = order[i].port;

		counts[BAD_LOW] = &v[p].low_partners;
		counts[BAD_DIP] = &v[p].dip_partners;
		counts[BAD_ERR] = &v[p].err_partners;
		for (int k = 0; stamp && k < N_BAD; k++) {
			memset(stamp, 0, (size_t)n_ports * sizeof(*stamp));
			*counts[k] = count_partners(m, n_m, p, k, stamp, v);
			if (*counts[k] >= jp->min_partners)
				v[p].blame |= 1u << k;
		}
	}
	if (stamp && order) {
		/* strongest evidence first here too: the port bad with most of
		 * its partners explains their pairs before they are judged */
		memset(stamp, 0, (size_t)n_ports * sizeof(*stamp));
		for (int i = 0; i < n_ports; i++)
			blame_mixed(m, n_m, order[i].port, jp->min_partners,
				    stamp, v);
	}
	for (int p = 0; p < n_ports; p++)
		v[p].suspect = is_suspect(m, n_m, p, v);
	free(order);
	free(cls);
	free(stamp);
}

static bool have_met(const struct burnin_measure *m, int n_m, int p, int q)
{
	for (int j = 0; j < n_m; j++)
		if (partner_of(&m[j], p) == q)
			return true;
	return false;
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

static bool bad_with(const struct burnin_measure *m, int n_m, int p, int q)
{
	for (int j = 0; j < n_m; j++)
		if (partner_of(&m[j], p) == q && !is_fine(&m[j]))
			return true;
	return false;
}

/*
 * Is q on a leaf that none of p's bad partners is on? A second bad pair
 * with a partner behind the same leaf as the first proves little about p
 * (the leaf or its uplinks could be the cause). Unknown leaves (0) do not
 * restrict.
 */
static bool new_leaf(const struct burnin_measure *m, int n_m,
		     const struct burnin_port *ports, int p, int q)
{
	if (!ports[q].leaf_guid)
		return true;
	for (int j = 0; j < n_m; j++) {
		int r = partner_of(&m[j], p);

		if (r >= 0 && !is_fine(&m[j]) &&
		    ports[r].leaf_guid == ports[q].leaf_guid)
			return false;
	}
	return true;
}

/*
 * Who may partner suspect p in a retest, best first: a port proven fine;
 * a port never scheduled (no evidence against it: node:HOST's unused
 * references); another suspect p has not met (node:HOST's references meet
 * only the target: a fine pair between two of them proves both, and then
 * the target's bad pairs with them count).
 */
enum partner_kind { PARTNER_GOOD, PARTNER_FRESH, PARTNER_SUSPECT, N_PARTNER };

static bool may_partner(const struct burnin_measure *m, int n_m,
			const struct burnin_port_verdict *v, int p, int q,
			enum partner_kind kind)
{
	switch (kind) {
	case PARTNER_GOOD:
		return is_good(&v[q]);
	case PARTNER_FRESH:
		return !v[q].n_pairs;
	case PARTNER_SUSPECT:
		return v[q].suspect && !have_met(m, n_m, p, q);
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
static int times_met(const struct burnin_measure *m, int n_m, int p, int q)
{
	int n = 0;

	for (int j = 0; j < n_m; j++)
		n += partner_of(&m[j], p) == q;
	return n;
}

static int partner_of_kind(const struct burnin_measure *m, int n_m,
			   const struct burnin_port_verdict *v,
			   const struct burnin_port *ports, int n_ports, int p,
			   bool same_rail, const bool *used,
			   enum partner_kind kind)
{
	for (int pass = 0; pass < 8; pass += same_rail ? 2 : 1) {
		int best = -1, best_met = 0;

		for (int q = 0; q < n_ports; q++) {
			int met;

			if (q == p || used[q] ||
			    !may_partner(m, n_m, v, p, q, kind))
				continue;
			if (!(pass & 1) && ports[q].rail != ports[p].rail)
				continue;
			if (!(pass & 2) && !new_leaf(m, n_m, ports, p, q))
				continue;
			if (pass < 4) {
				if (!have_met(m, n_m, p, q))
					return q;
				continue;
			}
			/* an acquaintance: the one met least, so that the next
			 * retest is not the same fine pair again */
			met = times_met(m, n_m, p, q);
			if (!bad_with(m, n_m, p, q) &&
			    (best < 0 || met < best_met)) {
				best = q;
				best_met = met;
			}
		}
		if (best >= 0)
			return best;
	}
	return -1;
}

static int retest_partner(const struct burnin_measure *m, int n_m,
			  const struct burnin_port_verdict *v,
			  const struct burnin_port *ports, int n_ports, int p,
			  bool same_rail, const bool *used)
{
	int q = -1;

	for (int k = 0; q < 0 && k < N_PARTNER; k++)
		q = partner_of_kind(m, n_m, v, ports, n_ports, p, same_rail,
				    used, (enum partner_kind)k);
	return q;
}

static int fine_count(const struct burnin_measure *m, int n_m, int p)
{
	int n = 0;

	for (int j = 0; j < n_m; j++)
		n += partner_of(&m[j], p) >= 0 && is_fine(&m[j]);
	return n;
}

/*
 * Suspects in the order they pick partners: the least evidence of being
 * fine first, so that the port of a bad pair that is fine nowhere else is
 * not starved by its partner taking the last fine port.
 */
static int suspect_order(const struct burnin_measure *m, int n_m,
			 const struct burnin_port_verdict *v, int n_ports,
			 int *order)
{
	int k = 0;

	for (int p = 0; p < n_ports; p++) {
		int fine, i;

		if (!v[p].suspect)
			continue;
		fine = fine_count(m, n_m, p);
		for (i = k; i > 0 && fine_count(m, n_m, order[i - 1]) > fine;
		     i--)
			order[i] = order[i - 1];
		order[i] = p;
		k++;
	}
	return k;
}

int burnin_judge_retest_round(const struct burnin_measure *m, int n_m,
			      const struct burnin_port_verdict *v,
			      const struct burnin_port *ports, int n_ports,
			      bool same_rail, struct burnin_schedule *s)
{
	bool *used = calloc((size_t)(n_ports ? n_ports : 1), sizeof(*used));
	int *order = calloc((size_t)(n_ports ? n_ports : 1), sizeof(*order));
	int added = -ENOMEM, n;

	if (!used || !order || burnin_schedule_new_round(s))
		goto out;
	added = 0;
	n = suspect_order(m, n_m, v, n_ports, order);
	for (int i = 0; i < n; i++) {
		int p = order[i], q;

		if (used[p])
			continue;
		q = retest_partner(m, n_m, v, ports, n_ports, p, same_rail,
				   used);
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
	free(used);
	free(order);
	return added;
}
