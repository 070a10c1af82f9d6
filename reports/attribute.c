// SPDX-License-Identifier: MIT
/*
 * Attribution of low pairs to ports. A pair is low with two ends; which end
 * is at fault shows only across partners: a port is blamed when it was low
 * with at least min_witnesses different partners that were fine with the
 * others they met, and when its low pairs are too many to be chance at the
 * rest of the fabric's low rate (noise alone blames nobody). Blamed ports are taken out
 * and the rest judged again, so a partner shared by two bad ports is
 * cleared once they are blamed.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "reports/attribute.h"

struct low_edge {
	uint32_t a, b; /* a < b */
	uint32_t n_meas, n_low; /* measurements of this pair */
};

struct attr_state {
	const struct attr_pair *pairs;
	size_t npairs, nports;
	struct attr_port *ports;
	const struct attr_params *params;
	struct low_edge *edges; /* unique low pairs, sorted */
	size_t nedges;
	uint32_t *adj_start; /* CSR: low edges of each port */
	uint32_t *adj;
	uint32_t *meas_blamed; /* measurements with a blamed partner */
	uint32_t *low_blamed;
	uint64_t meas_total, low_total; /* all measured pairs */
	uint64_t meas_ex, low_ex; /* background: no blamed or heavy end */
};

/* Low with most partners: left out of the background low rate. */
static int heavy(const struct attr_port *p)
{
	return p->blamed || 2 * p->n_low > p->n_meas;
}

void attribute_default_params(struct attr_params *p)
{
	p->min_witnesses = 2;
	p->fine_max_low = 0.25;
	p->noise_alpha = 1e-3;
}

static int edge_cmp(const void *x, const void *y)
{
	const struct low_edge *a = x, *b = y;

	if (a->a != b->a)
		return a->a < b->a ? -1 : 1;
	return (a->b > b->b) - (a->b < b->b);
}

static void edge_key(const struct attr_pair *p, struct low_edge *e)
{
	e->a = p->a < p->b ? p->a : p->b;
	e->b = p->a < p->b ? p->b : p->a;
}

/* Counts measurements per port and collects the unique low pairs. */
static int count_pairs(struct attr_state *s)
{
	size_t cap = 0, n = 0;

	for (size_t i = 0; i < s->npairs; i++) {
		const struct attr_pair *p = &s->pairs[i];

		if (p->verdict == ATTR_UNTESTED || p->a == p->b ||
		    p->a >= s->nports || p->b >= s->nports)
			continue;
		s->ports[p->a].n_meas++;
		s->ports[p->b].n_meas++;
		s->meas_total++;
		if (p->verdict != ATTR_LOW)
			continue;
		s->ports[p->a].n_low++;
		s->ports[p->b].n_low++;
		s->low_total++;
		if (n == cap) {
			struct low_edge *e;

			cap = cap ? 2 * cap : 1024;
			e = realloc(s->edges, cap * sizeof(*e));
			if (!e)
				return -ENOMEM;
			s->edges = e;
		}
		edge_key(p, &s->edges[n++]);
	}
	s->nedges = n;
	return 0;
}

static void unique_edges(struct attr_state *s)
{
	size_t n = 0;

	if (!s->nedges)
		return;
	qsort(s->edges, s->nedges, sizeof(*s->edges), edge_cmp);
	for (size_t i = 1; i < s->nedges; i++)
		if (edge_cmp(&s->edges[i], &s->edges[n]))
			s->edges[++n] = s->edges[i];
	s->nedges = n + 1;
	for (size_t i = 0; i < s->nedges; i++)
		s->edges[i].n_meas = s->edges[i].n_low = 0;
}

static struct low_edge *find_edge(struct attr_state *s,
				  const struct attr_pair *p)
{
	struct low_edge key;

	edge_key(p, &key);
	return bsearch(&key, s->edges, s->nedges, sizeof(key), edge_cmp);
}

/* How often each low pair was measured, and how often it was low. */
static void count_edge_measurements(struct attr_state *s)
{
	for (size_t i = 0; i < s->npairs; i++) {
		const struct attr_pair *p = &s->pairs[i];
		struct low_edge *e;

		if (p->verdict == ATTR_UNTESTED || p->a >= s->nports ||
		    p->b >= s->nports || !s->ports[p->a].n_low ||
		    !s->ports[p->b].n_low)
			continue;
		e = find_edge(s, p);
		if (!e)
			continue;
		e->n_meas++;
		e->n_low += p->verdict == ATTR_LOW;
	}
}

static int build_adjacency(struct attr_state *s)
{
	uint32_t *fill;

	s->adj_start = calloc(s->nports + 1, sizeof(*s->adj_start));
	s->adj = malloc((2 * s->nedges + 1) * sizeof(*s->adj));
	fill = calloc(s->nports + 1, sizeof(*fill));
	if (!s->adj_start || !s->adj || !fill) {
		free(fill);
		return -ENOMEM;
	}
	for (size_t i = 0; i < s->nedges; i++) {
		s->adj_start[s->edges[i].a + 1]++;
		s->adj_start[s->edges[i].b + 1]++;
	}
	for (size_t p = 0; p < s->nports; p++)
		s->adj_start[p + 1] += s->adj_start[p];
	for (size_t i = 0; i < s->nedges; i++) {
		uint32_t a = s->edges[i].a, b = s->edges[i].b;

		s->adj[s->adj_start[a] + fill[a]++] = (uint32_t)i;
		s->adj[s->adj_start[b] + fill[b]++] = (uint32_t)i;
	}
	free(fill);
	return 0;
}

/* Measurements each port had with a blamed partner. */
static void count_blamed(struct attr_state *s)
{
	memset(s->meas_blamed, 0, s->nports * sizeof(*s->meas_blamed));
	memset(s->low_blamed, 0, s->nports * sizeof(*s->low_blamed));
	s->meas_ex = s->low_ex = 0;
	for (size_t i = 0; i < s->npairs; i++) {
		const struct attr_pair *p = &s->pairs[i];
		int ba, bb;

		if (p->verdict == ATTR_UNTESTED || p->a >= s->nports ||
		    p->b >= s->nports || p->a == p->b)
			continue;
		ba = s->ports[p->a].blamed;
		bb = s->ports[p->b].blamed;
		if (bb) {
			s->meas_blamed[p->a]++;
			s->low_blamed[p->a] += p->verdict == ATTR_LOW;
		}
		if (ba) {
			s->meas_blamed[p->b]++;
			s->low_blamed[p->b] += p->verdict == ATTR_LOW;
		}
		if (!heavy(&s->ports[p->a]) && !heavy(&s->ports[p->b])) {
			s->meas_ex++;
			s->low_ex += p->verdict == ATTR_LOW;
		}
	}
}

static uint32_t edge_other(const struct low_edge *e, uint32_t p)
{
	return e->a == p ? e->b : e->a;
}

/* Partner q was fine with the others it met (neither p nor blamed ones). */
static int partner_fine(const struct attr_state *s, uint32_t q,
			const struct low_edge *with_p)
{
	double meas =
		(double)s->ports[q].n_meas - s->meas_blamed[q] - with_p->n_meas;
	double low =
		(double)s->ports[q].n_low - s->low_blamed[q] - with_p->n_low;

	return meas >= 1 && low <= s->params->fine_max_low * meas;
}

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
 * The noise guard: the port's low pairs must be too many to be chance at
 * the background low rate (pairs between ports that were fine with most
 * partners): Poisson tail below noise_alpha / number of ports.
 */
static int stands_out(const struct attr_state *s, uint32_t p)
{
	const struct attr_port *ap = &s->ports[p];
	double meas = (double)ap->n_meas - s->meas_blamed[p];
	double low = (double)ap->n_low - s->low_blamed[p];
	double rate = s->meas_ex ? (double)s->low_ex / (double)s->meas_ex : 0;

	if (meas <= 0 || low <= 0)
		return 0;
	return poisson_tail(rate * meas, low) <
	       s->params->noise_alpha / (double)s->nports;
}

/* Low partners of p that are not blamed, and how many of them were fine. */
static void count_witnesses(const struct attr_state *s, uint32_t p,
			    uint32_t *low_partners, uint32_t *witnesses)
{
	*low_partners = *witnesses = 0;
	for (uint32_t k = s->adj_start[p]; k < s->adj_start[p + 1]; k++) {
		const struct low_edge *e = &s->edges[s->adj[k]];
		uint32_t q = edge_other(e, p);

		if (s->ports[q].blamed || !e->n_low)
			continue;
		(*low_partners)++;
		*witnesses += partner_fine(s, q, e);
	}
}

static float confidence(uint32_t witnesses, uint32_t low_partners)
{
	if (!low_partners)
		return 0;
	return (float)((1.0 - pow(0.5, witnesses)) * witnesses / low_partners);
}

/* One round: blames every port that qualifies now. Returns how many. */
static size_t blame_round(struct attr_state *s, uint8_t *newly)
{
	size_t n = 0;

	count_blamed(s);
	for (uint32_t p = 0; p < s->nports; p++) {
		struct attr_port *ap = &s->ports[p];
		uint32_t lp, w;

		newly[p] = 0;
		if (ap->blamed || !ap->n_low)
			continue;
		count_witnesses(s, p, &lp, &w);
		ap->n_low_partners = lp;
		ap->witnesses = w;
		ap->suspect = lp >= s->params->min_witnesses;
		if (w >= s->params->min_witnesses && stands_out(s, p)) {
			newly[p] = 1;
			ap->confidence = confidence(w, lp);
			n++;
		}
	}
	for (uint32_t p = 0; p < s->nports; p++)
		if (newly[p]) {
			s->ports[p].blamed = 1;
			s->ports[p].suspect = 0;
		}
	return n;
}

static void attr_state_free(struct attr_state *s)
{
	free(s->edges);
	free(s->adj_start);
	free(s->adj);
	free(s->meas_blamed);
	free(s->low_blamed);
}

int attribute_ports(const struct attr_pair *pairs, size_t npairs,
		    struct attr_port *ports, size_t nports,
		    const struct attr_params *params)
{
	struct attr_state s = { .pairs = pairs,
				.npairs = npairs,
				.nports = nports,
				.ports = ports,
				.params = params };
	uint8_t *newly = NULL;
	int ret = -ENOMEM;

	memset(ports, 0, nports * sizeof(*ports));
	s.meas_blamed = calloc(nports + 1, sizeof(*s.meas_blamed));
	s.low_blamed = calloc(nports + 1, sizeof(*s.low_blamed));
	newly = calloc(nports + 1, 1);
	if (!s.meas_blamed || !s.low_blamed || !newly)
		goto out;
	ret = count_pairs(&s);
	if (ret)
		goto out;
	unique_edges(&s);
	count_edge_measurements(&s);
	ret = build_adjacency(&s);
	if (ret)
		goto out;
	while (blame_round(&s, newly))
		;
	for (uint32_t p = 0; p < nports; p++)
		if (ports[p].blamed)
			ports[p].suspect = 0;
out:
	free(newly);
	attr_state_free(&s);
	return ret;
}
