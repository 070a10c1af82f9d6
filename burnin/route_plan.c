// SPDX-License-Identifier: MIT
/*
 * route_plan.c: rank 0's plan with --routes (burnin_route_plan()): the
 * routes loaded, the inventory mapped, the schedule built (route-aware
 * all-pairs and cover; any other as without routes), its certificate
 * printed on --dry-run beside the route-blind plan's counts, written with
 * --coverage (JSON Lines, docs/burnin.md), and the rounds with --plan
 * (the pairs:FILE format).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "burnin/route_ar.h"
#include "burnin/load_proof_run.h"
#include "burnin/route_plan.h"
#include "burnin/scope.h"
#include "burnin/route_tables.h"
#include "common/cli.h"
#include "common/log.h"
#include "common/progress.h"
#include "common/record.h"
#include "common/text.h"

/* ---- --coverage ---- */

/* The search budget for why groups are not told apart (paths tried). */
#define WHY_BUDGET 20000000L

struct cert_why {
	const struct route_ident *id;
	struct route_why *why; /* [n_cables], by group leader */
	bool *have;
	long budget;
};

static json_t *end_json(const char *name, uint64_t guid, int port, bool sw)
{
	char g[19];

	return json_pack("{s:s, s:s, s:i, s:s}", "node", name, "guid",
			 record_guid_str(guid, g), "port", port, "type",
			 sw ? "switch" : "ca");
}

static json_t *cable_subject(const struct route_ctx *c, int k)
{
	const struct burnin_cable *b = burnin_routes_cable(c->r, k);
	bool from_ca = !b->inter_switch && c->from_ca[k];

	return json_pack(
		"{s:o, s:o}", "a",
		end_json(b->from_name, b->from_guid, b->from_port, !from_ca),
		"b",
		end_json(b->to_name, b->to_guid, b->to_port,
			 b->inter_switch || from_ca));
}

static json_t *cable_rounds(const struct route_cert *cert, const int *idx,
			    int from, int to)
{
	json_t *a = json_array();
	int i;

	for (i = from; a && i < to; i++)
		json_array_append_new(
			a, json_pack("[i, i]", idx[2 * i] + 1, idx[2 * i + 1]));
	(void)cert;
	return a;
}

static int emit(FILE *out, json_t *o)
{
	char *s = o ? json_dumps(o, JSON_COMPACT) : NULL;
	int rc = s && fprintf(out, "%s\n", s) >= 0 ? 0 : -EIO;

	free(s);
	json_decref(o);
	return rc;
}

/* The cables that share k's evidence (its group but k), by name. */
static json_t *shared_with(const struct route_ctx *c,
			   const struct route_ident *id, int k)
{
	json_t *a = json_array();
	char name[512];
	int j;

	for (j = id->leader[k]; a && j >= 0; j = id->next[j]) {
		if (j == k)
			continue;
		burnin_cable_name(c->r, j, name, sizeof(name));
		json_array_append_new(a, json_string(name));
	}
	return a;
}

/* Why k's group is not told apart (searched once per group). */
static json_t *why_json(const struct route_ctx *c, struct cert_why *cw, int k)
{
	const struct route_ident *id = cw->id;
	struct route_why *w = &cw->why[id->leader[k]];
	char text[1024], a[256], b[256];
	json_t *o;

	if (!cw->have[id->leader[k]]) {
		route_ident_why(c, id, id->leader[k], &cw->budget, w);
		cw->have[id->leader[k]] = true;
	}
	route_why_text(c, w, text, sizeof(text));
	o = json_pack("{s:s, s:s}", "reason", route_why_name(w->why), "text",
		      text);
	if (o && w->src >= 0) {
		snprintf(a, sizeof(a), "%s:%d",
			 burnin_routes_ca(c->r, w->src)->node_name,
			 burnin_routes_ca(c->r, w->src)->port);
		snprintf(b, sizeof(b), "%s:%d",
			 burnin_routes_ca(c->r, w->dst)->node_name,
			 burnin_routes_ca(c->r, w->dst)->port);
		json_object_set_new(o, "pair", json_pack("[s, s]", a, b));
	}
	return o;
}

/* identifiable; where not, the cables sharing its evidence and why. */
static void ident_fields(const struct route_ctx *c, struct cert_why *cw, int k,
			 json_t *o)
{
	const struct route_ident *id = cw->id;
	bool alone = id->leader[k] >= 0 && id->size[id->leader[k]] == 1;

	json_object_set_new(o, "identifiable", json_boolean(alone));
	if (alone)
		return;
	if (id->leader[k] < 0) {
		json_object_set_new(o, "why_not_identifiable",
				    json_pack("{s:s, s:s}", "reason", "no-flow",
					      "text",
					      "no planned flow crosses it"));
		return;
	}
	json_object_set_new(o, "shares_evidence_with", shared_with(c, id, k));
	json_object_set_new(o, "why_not_identifiable", why_json(c, cw, k));
}

static int cable_line(const struct route_ctx *c, const struct route_cert *cert,
		      int k, const int *idx, int from, int to,
		      struct cert_why *cw, FILE *out)
{
	const struct burnin_cable *b = burnin_routes_cable(c->r, k);
	char name[512];
	json_t *o;

	burnin_cable_name(c->r, k, name, sizeof(name));
	o = json_pack("{s:s, s:s, s:o, s:b, s:b, s:f, s:o, s:i, s:b, "
		      "s:b, s:b}",
		      "kind", "coverage-cable", "cable", name, "subject",
		      cable_subject(c, k), "inter_switch", b->inter_switch,
		      "up", c->cable_up[k], "capacity_gbps", b->capacity_gbps,
		      "rounds", cable_rounds(cert, idx, from, to),
		      "rounds_contended", cert->rounds_contended[k],
		      "contended", cert->rounds_contended[k] > 0, "reachable",
		      cert->reachable[k], "one_source", cert->one_source[k]);
	if (o)
		ident_fields(c, cw, k, o);
	return emit(out, o);
}

static json_t *not_tested_finding(const struct route_ctx *c, int k)
{
	const struct burnin_cable *b = burnin_routes_cable(c->r, k);
	char name[512];

	burnin_cable_name(c->r, k, name, sizeof(name));
	if (burnin_routes_table_unread(c->r, b->from_guid) ||
	    burnin_routes_table_unread(c->r, b->to_guid)) /* issue 32 */
		return record_finding(
			"warn", "not-tested", cable_subject(c, k),
			json_pack("{s:s,s:s,s:s}", "part", "cables", "reason",
				  "table-not-read", "detail",
				  "a switch at one end has no table in the "
				  "routes"),
			"retest",
			"cable %s: the forwarding table of a switch at its "
			"end was not read, so no plan routes over it "
			"(--plan-around-unread): not tested; read the tables "
			"again (ibproof fabric routes) and rerun",
			name);
	return record_finding("warn", "not-tested", cable_subject(c, k),
			      json_pack("{s:s,s:s,s:s}", "part", "cables",
					"reason", "unreachable", "detail",
					"no pair of present hosts is "
					"routed over it"),
			      "none",
			      "cable %s: no host traffic can reach it (the "
			      "tables route no pair of present hosts over it: "
			      "its destinations absent or drained, or a "
			      "parallel cable taken): not tested",
			      name);
}

static int not_tested(const struct route_ctx *c, int k, FILE *out)
{
	return emit(out, not_tested_finding(c, k));
}

/* A cable the plan loads that no load proof showed loaded (issue 32). */
static json_t *unproven_finding(const struct route_ctx *c, int k,
				const char *reason, const char *why)
{
	char name[512];

	burnin_cable_name(c->r, k, name, sizeof(name));
	return record_finding("warn", "not-tested", cable_subject(c, k),
			      json_pack("{s:s,s:s,s:s}", "part", "cables",
					"reason", reason, "detail", why),
			      "retest",
			      "cable %s: loaded as planned, not proven (%s): "
			      "not tested; run again with the load proof",
			      name, why);
}

/* Route-aware all-pairs: the bound L, the busiest cable, the plan. */
static json_t *bound_json(const struct route_ctx *c,
			  const struct route_cert *cert)
{
	const struct route_bound *b = &cert->bound;
	char name[512] = "";

	if (b->cable >= 0)
		burnin_cable_name(c->r, b->cable, name, sizeof(name));
	return json_pack(
		"{s:i, s:s?, s:i, s:i, s:i, s:i, s:o, s:i, s:f}", "lower_bound",
		b->lower, "busiest_cable", b->cable >= 0 ? name : NULL,
		"busiest_flows", b->flows, "rounds", cert->n_rounds,
		"shift_rounds", b->shifts, "extra_rounds", b->extra,
		"max_rounds",
		cert->max_rounds ? json_integer(cert->max_rounds) : json_null(),
		"shared_flows", b->shared, "predicted_s", cert->predicted_s);
}

static json_t *summary_json(const struct route_ctx *c,
			    const struct route_cert *cert, const char *schedule)
{
	json_t *o = json_pack(
		"{s:s, s:s, s:i, s:i, s:i, s:i, s:i, s:i, s:i, "
		"s:i, s:i, s:i, s:i, s:i, s:i, s:i}",
		"kind", "coverage", "schedule", schedule, "rounds",
		cert->n_rounds, "cables", cert->n_cables, "inter_switch",
		cert->inter, "loaded", cert->loaded, "contended_cables",
		cert->contended_cables, "contended_rounds",
		cert->contended_rounds, "unreachable", cert->unreachable,
		"up_single", cert->up_single, "flows", cert->flows,
		"flows_no_route", cert->flows_no_route, "cables_with_flows",
		cert->ident.loaded, "identifiable", cert->ident.identifiable,
		"not_identifiable",
		cert->ident.loaded - cert->ident.identifiable,
		"ambiguous_groups", cert->ident.groups);

	if (o && cert->has_bound)
		json_object_set_new(o, "all_pairs", bound_json(c, cert));
	/* flows on adaptive paths: their cables' loads are the tables'
	 * guess, not a promise (route_ar.h) */
	if (o && (json_object_set_new(o, "sl", json_integer(cert->sl)) ||
		  json_object_set_new(o, "adaptive_flows",
				      json_integer(cert->adaptive_flows)) ||
		  json_object_set_new(o, "contention_free",
				      json_boolean(!cert->adaptive_flows &&
						   !cert->contended_rounds)))) {
		json_decref(o);
		return NULL;
	}
	return o;
}

/* The loads cable by cable: idx[2 * i] round, idx[2 * i + 1] flows. */
static int *by_cable(const struct route_cert *cert, int *first)
{
	int *idx = malloc((cert->n_load + 1) * 2 * sizeof(int));
	int r, k;
	size_t i;

	if (!idx)
		return NULL;
	memset(first, 0, ((size_t)cert->n_cables + 1) * sizeof(int));
	for (i = 0; i < cert->n_load; i++)
		first[(cert->load[i] >> 8) + 1]++;
	for (k = 0; k < cert->n_cables; k++)
		first[k + 1] += first[k];
	for (r = 0; r < cert->n_rounds; r++)
		for (i = (size_t)cert->lstart[r];
		     i < (size_t)cert->lstart[r + 1]; i++) {
			k = (int)(cert->load[i] >> 8);
			idx[2 * first[k]] = r;
			idx[2 * first[k] + 1] = (int)(cert->load[i] & 0xff);
			first[k]++;
		}
	for (k = cert->n_cables; k > 0; k--)
		first[k] = first[k - 1];
	first[0] = 0;
	return idx;
}

int route_cert_write(const struct route_ctx *c, const struct route_cert *cert,
		     const char *schedule, FILE *out)
{
	size_t n1 = (size_t)cert->n_cables + 1;
	int *first = malloc(n1 * sizeof(int));
	int *idx = first ? by_cable(cert, first) : NULL;
	struct cert_why cw = { &cert->ident, malloc(n1 * sizeof(*cw.why)),
			       calloc(n1, sizeof(bool)), WHY_BUDGET };
	int k, rc = idx && cw.why && cw.have
			    ? emit(out, summary_json(c, cert, schedule))
			    : -ENOMEM;

	for (k = 0; !rc && k < cert->n_cables; k++)
		rc = cable_line(c, cert, k, idx, first[k], first[k + 1], &cw,
				out);
	for (k = 0; !rc && k < cert->n_cables; k++)
		if (burnin_routes_cable(c->r, k)->inter_switch &&
		    !cert->reachable[k])
			rc = not_tested(c, k, out);
	free(cw.why);
	free(cw.have);
	free(idx);
	free(first);
	return rc;
}

/* ---- --plan ---- */

int route_plan_write(const struct dpath_port *inv,
		     const struct burnin_schedule *s, FILE *out)
{
	char a[2 * DPATH_NAME_MAX + 16], b[2 * DPATH_NAME_MAX + 16];
	int r, i;

	fprintf(out, "# ibproof burnin --plan: ROUND A B (A sends to B)%s\n",
		s->duplex ? "; duplex rounds" : "");
	for (r = 0; r < s->n_rounds; r++)
		for (i = s->start[r]; i < s->start[r + 1]; i++) {
			burnin_port_name(&inv[s->pairs[i].a], a, sizeof(a));
			burnin_port_name(&inv[s->pairs[i].b], b, sizeof(b));
			if (fprintf(out, "%d %s %s\n", r, a, b) < 0)
				return -EIO;
		}
	return fflush(out) ? -errno : 0;
}

/* ---- the plan ---- */

static int build_schedule(const struct burnin_config *cfg,
			  const struct route_ctx *c,
			  const struct dpath_port *inv, int n,
			  struct burnin_schedule *s, struct route_bound *bound)
{
	char err[512];
	int rc;

	if (!strcmp(cfg->schedule, "all-pairs")) {
		rc = route_all_pairs(c, cfg->max_rounds, s, bound);
		if (rc == -ERANGE) {
			log_error("--max-rounds %d: all-pairs of these ports "
				  "takes %d rounds of shifts (a port sends to "
				  "one partner a round); give at least %d",
				  cfg->max_rounds, bound->shifts,
				  bound->shifts);
			return rc;
		}
	} else if (!strcmp(cfg->schedule, "cover"))
		rc = route_cover(c, cfg->seed, s);
	else {
		rc = burnin_schedule_build(cfg->schedule, inv, n, cfg->seed, s,
					   err, sizeof(err));
		if (rc)
			log_error("schedule: %s", err);
		return rc;
	}
	if (rc)
		log_error("schedule: out of memory");
	return rc;
}

static void print_cert(const char *what, const struct route_cert *cert)
{
	printf("%s: %d rounds; switch-to-switch cables %d: loaded %d, "
	       "contended %d (in %d rounds), unreachable %d, up-links loaded "
	       "from one host only %d; %d flows (%d without a route)\n",
	       what, cert->n_rounds, cert->inter, cert->loaded,
	       cert->contended_cables, cert->contended_rounds,
	       cert->unreachable, cert->up_single, cert->flows,
	       cert->flows_no_route);
}

/* The same length of plan without routes: all-pairs, or random rounds. */
static void print_blind(const struct burnin_config *cfg,
			const struct route_ctx *c, const struct dpath_port *inv,
			int n, int rounds)
{
	struct burnin_schedule b = { 0 };
	struct route_cert cert;
	char spec[32], err[256], what[96];

	if (!strcmp(cfg->schedule, "all-pairs"))
		snprintf(spec, sizeof(spec), "all-pairs");
	else if (!strcmp(cfg->schedule, "cover") && rounds > 0)
		snprintf(spec, sizeof(spec), "random:%d", rounds);
	else
		return;
	if (burnin_schedule_build(spec, inv, n, cfg->seed, &b, err,
				  sizeof(err)) ||
	    route_cert_build(c, &b, &cert)) {
		burnin_schedule_free(&b);
		return;
	}
	snprintf(what, sizeof(what), "route-blind %s", spec);
	print_cert(what, &cert);
	route_cert_free(&cert);
	burnin_schedule_free(&b);
}

/* Route-aware all-pairs: the bound, the plan, its time. */
static void print_bound(const struct burnin_config *cfg,
			const struct route_ctx *c,
			const struct route_cert *cert)
{
	const struct route_bound *b = &cert->bound;
	char name[512] = "none", t[32];

	if (b->cable >= 0)
		burnin_cable_name(c->r, b->cable, name, sizeof(name));
	progress_fmt_duration(cert->predicted_s, t, sizeof(t));
	text_term_fprintf(stdout,
			  "all-pairs: lower bound %d rounds (busiest cable "
			  "%s: %d ordered pairs routed over it; %d ports, "
			  "so at least %d); this plan %d rounds (%d shifts + "
			  "%d packed), %d contended, predicted %s",
			  b->lower, name, b->flows, c->n_inv, c->n_inv - 1,
			  cert->n_rounds, b->shifts, b->extra,
			  cert->contended_rounds, t);
	putchar('\n');
	if (cfg->max_rounds)
		printf("  --max-rounds %d: %d flows share a cable, in %d "
		       "contended rounds (without the cap: at least %d "
		       "rounds, none contended)\n",
		       cfg->max_rounds, b->shared, cert->contended_rounds,
		       b->lower);
}

#define PRINT_GROUPS 10

/* The cables the plan tells apart; the first groups it does not, why. */
static void print_ident(const struct route_ctx *c,
			const struct route_cert *cert)
{
	const struct route_ident *id = &cert->ident;
	struct route_why w;
	long budget = WHY_BUDGET;
	char name[512], text[1024];
	int k, j, shown = 0;

	printf("identifiable: %d of %d cables with flows (host links "
	       "included); not identifiable %d, in %d groups that share "
	       "their evidence\n",
	       id->identifiable, id->loaded, id->loaded - id->identifiable,
	       id->groups);
	for (k = 0; k < id->n_cables && shown < PRINT_GROUPS; k++) {
		if (id->leader[k] != k || id->size[k] < 2)
			continue;
		shown++;
		printf("  not identifiable:");
		for (j = k; j >= 0; j = id->next[j]) {
			burnin_cable_name(c->r, j, name, sizeof(name));
			printf(" %s", name);
		}
		route_ident_why(c, id, k, &budget, &w);
		route_why_text(c, &w, text, sizeof(text));
		text_term_fprintf(stdout, " (%s: %s)", route_why_name(w.why),
				  text);
		putchar('\n');
	}
	if (id->groups > shown)
		printf("  ... %d groups more (--coverage names them)\n",
		       id->groups - shown);
}

static void print_unreachable(const struct route_ctx *c,
			      const struct route_cert *cert)
{
	char name[512];
	int k;

	for (k = 0; k < cert->n_cables; k++) {
		if (!burnin_routes_cable(c->r, k)->inter_switch ||
		    cert->reachable[k])
			continue;
		burnin_cable_name(c->r, k, name, sizeof(name));
		printf("  not-tested %s: no host traffic can reach it\n", name);
	}
}

static int write_file(const char *path, const char *what,
		      int (*fn)(const void *a, const void *b, const void *x,
				FILE *out),
		      const void *a, const void *b, const void *x)
{
	FILE *out = strcmp(path, "-") ? fopen(path, "w") : stdout;
	int rc;

	if (!out) {
		log_error("%s %s: %m", what, path);
		return -errno;
	}
	rc = fn(a, b, x, out);
	if (out == stdout)
		fflush(stdout);
	else if (fclose(out) && !rc)
		rc = -errno;
	if (rc)
		log_error("%s %s: %s", what, path, strerror(-rc));
	return rc;
}

static int cert_fn(const void *a, const void *b, const void *x, FILE *out)
{
	return route_cert_write(a, b, x, out);
}

static int plan_fn(const void *a, const void *b, const void *x, FILE *out)
{
	(void)x;
	return route_plan_write(a, b, out);
}

static int outputs(const struct burnin_config *cfg, const struct route_ctx *c,
		   const struct dpath_port *inv,
		   const struct burnin_schedule *s,
		   const struct route_cert *cert)
{
	if (cfg->dry_run) {
		printf("routes: %d of %d inventory ports on the %d CA ports of "
		       "%s (%d not in them, planned as without routes); host "
		       "order %s, %d slots\n",
		       c->n_inv - c->n_unmapped, c->n_inv,
		       burnin_routes_n_cas(c->r), cfg->routes, c->n_unmapped,
		       c->order_from_file ? cfg->ftree_ca_order
					  : "derived from the tables",
		       c->n_slots);
		print_cert("coverage", cert);
		print_ident(c, cert);
		if (cert->has_bound)
			print_bound(cfg, c, cert);
		print_blind(cfg, c, inv, c->n_inv, s->n_rounds);
		print_unreachable(c, cert);
	}
	if (cfg->coverage && write_file(cfg->coverage, "--coverage", cert_fn, c,
					cert, cfg->schedule))
		return IBP_EXIT_RUNTIME;
	if (cfg->plan_out &&
	    write_file(cfg->plan_out, "--plan", plan_fn, inv, s, NULL))
		return IBP_EXIT_RUNTIME;
	return IBP_EXIT_PASS;
}

static int load(const struct burnin_config *cfg, struct burnin_routes **r,
		struct route_ctx *c, const struct dpath_port *inv, int n)
{
	char err[512];
	int rc =
		burnin_routes_load(cfg->routes, cfg->lfts, r, err, sizeof(err));

	if (!rc && (rc = route_ctx_init(c, *r, inv, n)))
		snprintf(err, sizeof(err), "out of memory");
	if (!rc &&
	    (rc = route_order_build(c, cfg->ftree_ca_order, err, sizeof(err))))
		route_ctx_free(c);
	if (rc) {
		log_error("--routes: %s", err);
		/* as --topology: a file that cannot be read is bad input */
		return rc == -ENOMEM ? IBP_EXIT_RUNTIME : IBP_EXIT_USAGE;
	}
	return IBP_EXIT_PASS;
}

int burnin_route_plan(const struct burnin_config *cfg, struct dpath_port *inv,
		      int n, struct burnin_schedule *s,
		      struct burnin_routes **keep)
{
	struct burnin_routes *r = NULL;
	struct route_bound bound = { .cable = -1 };
	struct route_cert cert;
	struct route_ctx c;
	struct route_ar ar;
	int code = load(cfg, &r, &c, inv, n);

	if (!code && (code = burnin_route_tables_check(cfg, r)))
		route_ctx_free(&c); /* a table not read (issue 32) */
	if (code) {
		burnin_routes_free(r);
		return code;
	}
	if (build_schedule(cfg, &c, inv, n, s, &bound))
		code = IBP_EXIT_USAGE;
	else if (route_cert_build(&c, s, &cert))
		code = IBP_EXIT_RUNTIME;
	else {
		cert.has_bound = !strcmp(cfg->schedule, "all-pairs");
		cert.bound = bound;
		cert.max_rounds = cfg->max_rounds;
		cert.predicted_s = burnin_predict_seconds(cfg, s->n_rounds, n);
		code = route_ar_gate(cfg, &c, s, &ar);
		cert.adaptive_flows = ar.flows_adaptive;
		cert.sl = ar.sl;
		if (!code)
			code = outputs(cfg, &c, inv, s, &cert);
		route_cert_free(&cert);
	}
	route_ctx_free(&c);
	if (keep && code == IBP_EXIT_PASS)
		*keep = r;
	else
		burnin_routes_free(r);
	return code;
}

int burnin_route_not_tested(const struct burnin_config *cfg,
			    const struct dpath_port *inv, int n,
			    const struct burnin_schedule *s,
			    const char *unproven,
			    const struct burnin_load_proof *proof,
			    struct burnin_scope_count *count,
			    int (*put)(void *arg, json_t *finding), void *arg)
{
	struct burnin_routes *r = NULL;
	struct route_cert cert;
	struct route_ctx c;
	int k, rc = load(cfg, &r, &c, inv, n) ? -EINVAL : 0;
	const char *why;
	bool every;

	*count = (struct burnin_scope_count){ 0 };
	if (rc) {
		burnin_routes_free(r);
		return rc;
	}
	rc = route_cert_build(&c, s, &cert);
	every = !strcmp(cfg->schedule, "cover") ||
		!strcmp(cfg->schedule, "all-pairs");
	for (k = 0; !rc && k < cert.n_cables; k++) {
		/* in scope: every cable cover and all-pairs set out to load,
		 * what another schedule loads, and the unreachable */
		if (!burnin_routes_cable(r, k)->inter_switch ||
		    (!every && cert.reachable[k] && !cert.rounds_loaded[k]))
			continue;
		count->in_scope++;
		why = !cert.reachable[k] ? NULL
		      : unproven	 ? unproven
		      : proof && cert.rounds_loaded[k] &&
				      !burnin_load_proof_decided(proof, k)
			      ? "the load proof read no counter that proves "
				"it loaded or not: its cable-load records "
				"say unread, unproven or idle"
			      : "";
		if (why && !why[0]) {
			count->tested++;
			continue;
		}
		count->not_tested++;
		rc = put(arg,
			 !why ? not_tested_finding(&c, k)
			 : unproven
				 ? unproven_finding(&c, k, "no-load-proof", why)
				 : unproven_finding(&c, k, "not-proven", why));
	}
	if (cert.n_cables)
		route_cert_free(&cert);
	route_ctx_free(&c);
	burnin_routes_free(r);
	return rc;
}
