// SPDX-License-Identifier: MIT
/*
 * Rank 0's judge, next to the round loop that calls it (coord.c): the
 * pair judge on the run's measures, by route with --routes (the routes
 * burnin_plan_keep() kept, the load proof's counters), and the pair
 * fields and cable records of its verdicts. The records' shapes are
 * route_judge.h's, pure on the routes.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "burnin/coord.h"
#include "burnin/load_proof_run.h"
#include "burnin/route_judge.h"
#include "common/record.h"
#include "judge/cablefind.h"

int burnin_coord_route_fields(const struct burnin_coord *co,
			      const struct burnin_measure *m, json_t *rec)
{
	int a, b;

	if (!co->routes || m->a < 0 || m->b < 0 || m->a >= co->n_inv ||
	    m->b >= co->n_inv)
		return 0;
	a = co->route_ca
		    ? co->route_ca[m->a]
		    : burnin_routes_ca_by_guid(co->routes, co->inv[m->a].guid);
	b = co->route_ca
		    ? co->route_ca[m->b]
		    : burnin_routes_ca_by_guid(co->routes, co->inv[m->b].guid);
	return burnin_pair_route_fields(rec, co->routes, a, b, m->bidir,
					co->ctx->cfg->params.sl);
}

static json_t *or_port_ref(const struct burnin_coord *co,
			   const struct judge_cable *v)
{
	const struct dpath_port *p;

	if (v->or_port == JUDGE_NO_PORT || (int)v->or_port >= co->n_inv)
		return NULL;
	p = &co->inv[v->or_port];
	return record_port_ref(p->host, p->ca, p->port, p->guid);
}

/* The one finding maker names the parts from the routes and inventory. */
static void namer_id(void *arg, uint32_t c, char *buf, size_t len)
{
	const struct burnin_coord *co = arg;

	burnin_cable_id(co->routes, (int)c, buf, len);
}

static json_t *namer_end(void *arg, uint32_t c, bool from)
{
	const struct burnin_coord *co = arg;
	const struct burnin_cable *cb = burnin_routes_cable(co->routes, (int)c);

	return from ? record_switch_port_ref(cb->from_name, cb->from_guid,
					     cb->from_port)
		    : record_switch_port_ref(cb->to_name, cb->to_guid,
					     cb->to_port);
}

static json_t *namer_port(void *arg, uint32_t p)
{
	const struct burnin_coord *co = arg;
	const struct dpath_port *d = &co->inv[p];

	return record_port_ref(d->host, d->ca, d->port, d->guid);
}

int burnin_cable_records(const struct burnin_coord *co,
			 const struct judge_cable_result *cables, json_t *out,
			 int *n_fail)
{
	const struct judge_cable_namer nm = { (void *)co, namer_id, namer_end,
					      namer_port };
	size_t before = json_array_size(out);

	if (!co->routes)
		return 0;
	for (size_t c = 0; c < cables->n_cables; c++) {
		const struct judge_cable *v = &cables->cables[c];

		if (!burnin_routes_cable(co->routes, (int)c)->inter_switch ||
		    v->verdict == JUDGE_CABLE_UNUSED)
			continue;
		if (json_array_append_new(
			    out, burnin_cable_record(co->routes, (int)c, v,
						     or_port_ref(co, v))))
			return -ENOMEM;
	}
	before = json_array_size(out);
	if (judge_cable_findings(cables, &nm, out))
		return -ENOMEM;
	*n_fail += (int)(json_array_size(out) - before);
	return 0;
}

/* Each inventory port's CA in the routes, once. */
static int route_cas(struct burnin_coord *co)
{
	if (co->route_ca)
		return 0;
	co->route_ca = malloc((size_t)(co->n_inv > 0 ? co->n_inv : 1) *
			      sizeof(*co->route_ca));
	if (!co->route_ca)
		return -ENOMEM;
	for (int p = 0; p < co->n_inv; p++)
		co->route_ca[p] =
			burnin_routes_ca_by_guid(co->routes, co->inv[p].guid);
	return 0;
}

/*
 * The load proof's error deltas per route cable for the cable judge
 * (burnin_judge_params.cable_err), malloc'd; NULL without a proof. The
 * proof's cables are those of co->routes.
 */
static uint64_t *proof_cable_errors(const struct burnin_coord *co)
{
	int n = co->proof ? burnin_routes_n_cables(co->routes) : 0;
	uint64_t *err = n > 0 ? malloc((size_t)n * sizeof(*err)) : NULL;

	for (int c = 0; err && c < n; c++)
		if (burnin_load_proof_cable_error_total(co->proof, c, &err[c]))
			err[c] = BURNIN_CABLE_ERR_UNREAD;
	return err;
}

int burnin_coord_judge(struct burnin_coord *co, struct burnin_port_verdict *v,
		       struct judge_cable_result *cables)
{
	struct burnin_judge_params jp = co->ctx->cfg->judge;
	struct judge_step *unfollowed = NULL;
	uint64_t *err = NULL;
	int ret;

	if (co->routes && !route_cas(co)) {
		jp.routes = co->routes;
		jp.route_ca = co->route_ca;
		jp.cables = cables;
		err = proof_cable_errors(co);
		jp.cable_err = err; /* the load proof's counters */
		jp.trust.sl = co->ctx->cfg->params.sl;
		if (burnin_load_proof_unfollowed(co->proof, &unfollowed,
						 &jp.trust.n_unfollowed))
			return -ENOMEM;
		jp.trust.unfollowed = unfollowed;
	}
	ret = burnin_judge(&jp, co->m, co->n_m, v, co->n_inv);
	free(err);
	free(unfollowed);
	return ret;
}

int burnin_coord_separate(struct burnin_coord *co,
			  const struct judge_cable_result *cables,
			  bool new_round)
{
	struct burnin_schedule *s = &co->sched;
	bool *used;
	int added;

	if (!co->routes || !co->route_ca || !cables->n_groups)
		return 0;
	used = calloc((size_t)co->n_inv + 1, sizeof(*used));
	if (!used || (new_round && burnin_schedule_new_round(s))) {
		free(used);
		return -ENOMEM;
	}
	for (int p = 0; p < co->n_inv; p++) /* a lost rank runs nothing */
		used[p] = !co->alive[co->inv_rank[p]];
	for (int i = s->start[s->n_rounds - 1]; i < s->n_pairs; i++)
		used[s->pairs[i].a] = used[s->pairs[i].b] = true;
	added = burnin_route_separate(co->routes, co->route_ca, co->n_inv,
				      cables, co->ctx->cfg->params.bidir,
				      co->ctx->cfg->params.sl, used, s);
	if (new_round && added <= 0)
		s->n_rounds--; /* nothing to run */
	free(used);
	return added;
}

void burnin_coord_routes_free(struct burnin_coord *co)
{
	burnin_routes_free(co->routes);
	free(co->route_ca);
	co->routes = NULL;
	co->route_ca = NULL;
}
