// SPDX-License-Identifier: MIT
/*
 * route_cert.c: the coverage certificate of a schedule over the routes:
 * every round's flows followed through the tables, and for every directed
 * cable the rounds that load it and with how many flows; contended
 * cables (two flows or more in a round) and the switch-to-switch cables
 * no pair of present hosts can reach; which cables the flows tell apart
 * (route_ident.c).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "burnin/route_plan.h"

#define PATH_MAX_CABLES 64

struct cert_work {
	int *cnt; /* [n_cables] flows in this round */
	int *touched; /* cables with cnt > 0 */
	int n_touched;
	int *src1; /* first source CA of each cable, -1 none */
	bool *multi; /* a second source seen */
};

static int push_load(struct route_cert *cert, uint32_t v)
{
	uint32_t *p;

	if (cert->n_load == cert->cap_load) {
		cert->cap_load = cert->cap_load ? 2 * cert->cap_load : 4096;
		p = realloc(cert->load, cert->cap_load * sizeof(*p));
		if (!p)
			return -ENOMEM;
		cert->load = p;
	}
	cert->load[cert->n_load++] = v;
	return 0;
}

static void count_flow(const struct route_cert *cert, struct cert_work *w,
		       const int *path, int n, int src)
{
	int i, k;

	for (i = 0; i < n; i++) {
		k = path[i];
		if (!w->cnt[k]++)
			w->touched[w->n_touched++] = k;
		if (w->src1[k] < 0)
			w->src1[k] = src;
		else if (w->src1[k] != src)
			w->multi[k] = true;
	}
	(void)cert;
}

/* Closes round r: its loads, per-cable counts, and whether contended. */
static int close_round(const struct route_ctx *c, struct route_cert *cert,
		       struct cert_work *w)
{
	bool contended = false;
	int i, k, f;

	for (i = 0; i < w->n_touched; i++) {
		k = w->touched[i];
		f = w->cnt[k] > 255 ? 255 : w->cnt[k];
		if (push_load(cert, (uint32_t)k << 8 | (uint32_t)f))
			return -ENOMEM;
		cert->rounds_loaded[k]++;
		if (w->cnt[k] > 1) {
			cert->rounds_contended[k]++;
			contended |= burnin_routes_cable(c->r, k)->inter_switch;
		}
		w->cnt[k] = 0;
	}
	w->n_touched = 0;
	cert->contended_rounds += contended;
	return 0;
}

static int walk_rounds(const struct route_ctx *c,
		       const struct burnin_schedule *s, struct route_cert *cert,
		       struct cert_work *w)
{
	int r, i, a, b, n, path[PATH_MAX_CABLES];

	for (r = 0; r < s->n_rounds; r++) {
		cert->lstart[r] = (int)cert->n_load;
		for (i = s->start[r]; i < s->start[r + 1]; i++) {
			a = c->ca_of_inv[s->pairs[i].a];
			b = c->ca_of_inv[s->pairs[i].b];
			cert->flows++;
			n = a < 0 || b < 0
				    ? -ENOENT
				    : burnin_routes_path(c->r, a, b, path,
							 PATH_MAX_CABLES);
			if (n < 0) {
				cert->flows_no_route++;
				continue;
			}
			count_flow(cert, w, path, n, a);
			route_ident_flow(&cert->ident, (uint64_t)i, a, b, path,
					 n);
		}
		if (close_round(c, cert, w))
			return -ENOMEM;
	}
	cert->lstart[s->n_rounds] = (int)cert->n_load;
	return 0;
}

/* Whether a flow between present hosts crosses cable k (exhaustive). */
static bool reachable(const struct route_ctx *c, int k, int *dsts)
{
	int ncas = burnin_routes_n_cas(c->r), nd, i, j, s, n, path[64];

	nd = burnin_routes_cable_dsts(c->r, k, dsts, ncas);
	for (i = 0; i < nd && i < ncas; i++) {
		if (c->inv_of_ca[dsts[i]] < 0)
			continue;
		for (s = 0; s < ncas; s++) {
			if (s == dsts[i] || c->inv_of_ca[s] < 0)
				continue;
			n = burnin_routes_path(c->r, s, dsts[i], path, 64);
			for (j = 0; j < n; j++)
				if (path[j] == k)
					return true;
		}
	}
	return false;
}

static int totals(const struct route_ctx *c, struct route_cert *cert,
		  const struct cert_work *w)
{
	int k, *dsts = malloc(((size_t)burnin_routes_n_cas(c->r) + 1) *
			      sizeof(int));

	if (!dsts)
		return -ENOMEM;
	for (k = 0; k < cert->n_cables; k++) {
		if (!burnin_routes_cable(c->r, k)->inter_switch) {
			cert->reachable[k] = cert->rounds_loaded[k] > 0;
			continue;
		}
		cert->inter++;
		cert->reachable[k] =
			cert->rounds_loaded[k] > 0 || reachable(c, k, dsts);
		cert->loaded += cert->rounds_loaded[k] > 0;
		cert->contended_cables += cert->rounds_contended[k] > 0;
		cert->unreachable += !cert->reachable[k];
		cert->one_source[k] = c->cable_up[k] &&
				      cert->rounds_loaded[k] > 0 &&
				      !w->multi[k];
		cert->up_single += cert->one_source[k];
	}
	free(dsts);
	return 0;
}

int route_cert_build(const struct route_ctx *c, const struct burnin_schedule *s,
		     struct route_cert *cert)
{
	int nc = burnin_routes_n_cables(c->r), k, rc = -ENOMEM;
	size_t n1 = (size_t)(nc ? nc : 1);
	struct cert_work w = { 0 };

	memset(cert, 0, sizeof(*cert));
	cert->n_rounds = s->n_rounds;
	cert->n_cables = nc;
	cert->lstart = calloc((size_t)s->n_rounds + 1, sizeof(int));
	cert->rounds_loaded = calloc(n1, sizeof(int));
	cert->rounds_contended = calloc(n1, sizeof(int));
	cert->reachable = calloc(n1, sizeof(bool));
	cert->one_source = calloc(n1, sizeof(bool));
	w.cnt = calloc(n1, sizeof(int));
	w.touched = calloc(n1, sizeof(int));
	w.src1 = malloc(n1 * sizeof(int));
	w.multi = calloc(n1, sizeof(bool));
	if (cert->lstart && cert->rounds_loaded && cert->rounds_contended &&
	    cert->reachable && cert->one_source && w.cnt && w.touched &&
	    w.src1 && w.multi && !route_ident_init(&cert->ident, nc)) {
		for (k = 0; k < nc; k++)
			w.src1[k] = -1;
		rc = walk_rounds(c, s, cert, &w);
		if (!rc)
			rc = totals(c, cert, &w);
		if (!rc)
			rc = route_ident_group(&cert->ident);
	}
	free(w.cnt);
	free(w.touched);
	free(w.src1);
	free(w.multi);
	if (rc)
		route_cert_free(cert);
	return rc;
}

void route_cert_free(struct route_cert *cert)
{
	free(cert->load);
	free(cert->lstart);
	free(cert->rounds_loaded);
	free(cert->rounds_contended);
	free(cert->reachable);
	free(cert->one_source);
	route_ident_free(&cert->ident);
	memset(cert, 0, sizeof(*cert));
}
