// SPDX-License-Identifier: MIT
/*
 * load_proof_run.c: rank 0's load proof around each step (load_proof.h):
 * the step's flows along the routes (route_model.h), the PMA counters of
 * every end of every cable they cross before and after the step
 * (fabric_pma_read_ports through fabric_mad_pma_ops), then one cable-load
 * record per cable and a cable-not-loaded finding where it sent under half.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "burnin/load_proof_run.h"
#include "fabric/ar_info.h"
#include "burnin/route_model.h"
#include "common/array.h"
#include "common/ibport.h"
#include "common/log.h"
#include "fabric/fabric_pma_read.h"
#include "fabric/fabric_scope.h"
#include "judge/cablejudge.h"

#define LID_MAX 0xc000 /* unicast LIDs */
#define PATH_MAX_HOPS 64

/* Which way a flow of a pair runs. */
struct flow_ref {
	int pair;
	bool ba; /* b -> a (a READ's data, or bidir's second flow) */
};

struct burnin_load_proof {
	const struct burnin_routes *r;
	const struct fabric_pma_ops *ops;
	struct fabric_pma *pma;
	unsigned budget_ms; /* per read of a step's ports */
	int n_cables;
	double *capacity; /* per route cable */
	int *inv_ca; /* inventory index -> route CA, -1 */
	int n_inv;
	uint8_t ext_of_lid[LID_MAX]; /* enum fabric_pma_ext, kept */
	int *target_of_end; /* egress end of cable c -> target, -1 */
	struct burnin_step_loads loads;
	struct flow_ref *flow_refs;
	size_t cap_flow_refs;
	struct fabric_pma_target *t;
	struct fabric_pc *before;
	bool *before_ok;
	size_t n_t, cap_t, cap_before;
	/* run totals: per route cable, the error deltas at its two ends */
	uint64_t (*errors)[FABRIC_PC_ERRORS_END];
	/* ... and the part of them over their limit in their step */
	uint64_t *errors_over;
	bool *errors_read; /* per route cable: counters read in a step */
	/* per route cable: a step proved it loaded, or not loaded (issue 32:
	 * one only ever unread, unproven or idle is not tested) */
	bool *decided;
	struct record_writer *cert; /* the certificate's file, or NULL */
	int n_not_loaded;
	int sl; /* the run's SL: which switches' AR applies */
	/* steps whose traffic did not take the planned cables: round << 1 |
	 * (test is "read") */
	int *unfollowed;
	size_t n_unfollowed, cap_unfollowed;
	int *step_not_loaded; /* this step's not-loaded cables */
	int n_step_not_loaded;
};

static int alloc_tables(struct burnin_load_proof *lp, int n_inv)
{
	size_t nc = (size_t)(lp->n_cables ? lp->n_cables : 1);

	lp->capacity = calloc(nc, sizeof(*lp->capacity));
	lp->target_of_end = malloc(nc * sizeof(*lp->target_of_end));
	lp->errors = calloc(nc, sizeof(*lp->errors));
	lp->errors_over = calloc(nc, sizeof(*lp->errors_over));
	lp->errors_read = calloc(nc, sizeof(*lp->errors_read));
	lp->decided = calloc(nc, sizeof(*lp->decided));
	lp->inv_ca = malloc((size_t)(n_inv ? n_inv : 1) * sizeof(int));
	if (!lp->capacity || !lp->target_of_end || !lp->errors ||
	    !lp->errors_over || !lp->errors_read || !lp->decided || !lp->inv_ca)
		return -ENOMEM;
	for (int c = 0; c < lp->n_cables; c++) {
		lp->capacity[c] = burnin_routes_cable(lp->r, c)->capacity_gbps;
		lp->target_of_end[c] = -1;
	}
	return 0;
}

/* The PMA target of the egress end of cable c, added once per step. */
static int end_target(struct burnin_load_proof *lp, int c)
{
	const struct burnin_cable *k = burnin_routes_cable(lp->r, c);

	if (lp->target_of_end[c] >= 0)
		return lp->target_of_end[c];
	if (!k->from_lid)
		return -1;
	if (array_reserve(&lp->t, &lp->cap_t, lp->n_t, sizeof(*lp->t)))
		return -ENOMEM;
	lp->t[lp->n_t] = (struct fabric_pma_target){
		.lid = k->from_lid,
		.port = (uint8_t)k->from_port,
		.ext = lp->ext_of_lid[k->from_lid % LID_MAX],
	};
	lp->target_of_end[c] = (int)lp->n_t;
	return (int)lp->n_t++;
}

static int read_targets(struct burnin_load_proof *lp)
{
	int n = fabric_pma_read_ports(lp->ops, lp->pma, lp->t, lp->n_t,
				      lp->budget_ms);

	for (size_t i = 0; i < lp->n_t; i++)
		if (lp->t[i].ext != FABRIC_PMA_EXT_UNKNOWN)
			lp->ext_of_lid[lp->t[i].lid % LID_MAX] = lp->t[i].ext;
	return n;
}

/* Opens the PMA and asks one port, so a run says at once why it cannot. */
static int probe(struct burnin_load_proof *lp, const char *ca, int port,
		 double timeout_s, char *why, size_t len)
{
	int c;

	if (lp->ops->open(ca, port, (unsigned)(timeout_s * 1000), &lp->pma)) {
		snprintf(why, len,
			 "cannot open umad on %s port %d (no InfiniBand "
			 "management access: /dev/infiniband/umad*, ib_umad "
			 "module, permissions)",
			 ca ? ca : "the first CA", port);
		return -EIO;
	}
	for (c = 0; c < lp->n_cables; c++)
		if (burnin_routes_cable(lp->r, c)->from_lid)
			break;
	if (c == lp->n_cables) {
		snprintf(why, len, "the routes have no cable with a LID");
		return -ENOENT;
	}
	lp->n_t = 0;
	end_target(lp, c);
	lp->target_of_end[c] = -1;
	if (read_targets(lp) != 1 && lp->t[0].status == -EREMOTEIO) {
		char st[96];

		snprintf(why, len,
			 "the PMA of LID %u port %u (%s) refused: MAD status "
			 "0x%04x (%s)",
			 lp->t[0].lid, lp->t[0].port,
			 burnin_routes_cable(lp->r, c)->from_name,
			 lp->t[0].mad_status,
			 fabric_mad_status_text(lp->t[0].mad_status, st,
						sizeof(st)));
		return -EHOSTUNREACH;
	}
	if (lp->t[0].status) {
		snprintf(why, len,
			 "no PMA answer from LID %u port %u (%s): no SM has "
			 "assigned LIDs, or the PMA is not reachable from here",
			 lp->t[0].lid, lp->t[0].port,
			 burnin_routes_cable(lp->r, c)->from_name);
		return -EHOSTUNREACH;
	}
	return 0;
}

int burnin_load_proof_open(const struct burnin_routes *r,
			   const struct dpath_port *inv, int n_inv,
			   const struct burnin_load_proof_params *p,
			   struct burnin_load_proof **out, char *why,
			   size_t len)
{
	struct burnin_load_proof *lp = calloc(1, sizeof(*lp));
	int rc;

	*out = NULL;
	if (!lp)
		return -ENOMEM;
	lp->r = r;
	lp->ops = p->ops ? p->ops : &fabric_mad_pma_ops;
	lp->budget_ms = (unsigned)(p->budget_s * 1000);
	lp->n_cables = burnin_routes_n_cables(r);
	lp->n_inv = n_inv;
	rc = alloc_tables(lp, n_inv);
	if (rc) {
		snprintf(why, len, "out of memory");
		goto fail;
	}
	for (int i = 0; i < n_inv; i++)
		lp->inv_ca[i] = burnin_routes_ca_by_guid(r, inv[i].guid);
	rc = probe(lp, p->ca, p->port, p->timeout_s, why, len);
	if (rc)
		goto fail;
	*out = lp;
	return 0;
fail:
	burnin_load_proof_close(lp);
	return rc;
}

void burnin_load_proof_close(struct burnin_load_proof *lp)
{
	if (!lp)
		return;
	if (lp->pma)
		lp->ops->close(lp->pma);
	burnin_loads_free(&lp->loads);
	free(lp->capacity);
	free(lp->target_of_end);
	free(lp->errors);
	free(lp->errors_over);
	free(lp->errors_read);
	free(lp->decided);
	free(lp->inv_ca);
	free(lp->flow_refs);
	free(lp->t);
	free(lp->before);
	free(lp->before_ok);
	free(lp->unfollowed);
	free(lp->step_not_loaded);
	free(lp);
}

/* The slowest of the flow's ends and cables, Gb/s. */
static double flow_rate(const struct burnin_load_proof *lp, int src, int dst,
			const int *path, int n)
{
	double a = burnin_routes_ca(lp->r, src)->rate_gbps,
	       b = burnin_routes_ca(lp->r, dst)->rate_gbps,
	       rate = a > 0 && (b <= 0 || a < b) ? a : b;

	for (int i = 0; i < n; i++)
		if (lp->capacity[path[i]] > 0 &&
		    (rate <= 0 || lp->capacity[path[i]] < rate))
			rate = lp->capacity[path[i]];
	return rate > 0 ? rate : 0;
}

static int add_flow(struct burnin_load_proof *lp, int pair, bool ba, int src,
		    int dst)
{
	int path[PATH_MAX_HOPS], n;

	if (src < 0 || dst < 0)
		return 0;
	n = burnin_routes_path(lp->r, src, dst, path, PATH_MAX_HOPS);
	if (n < 0) {
		log_debug("load proof: no path from CA %d to CA %d (%d)", src,
			  dst, n);
		return 0;
	}
	if (array_reserve(&lp->flow_refs, &lp->cap_flow_refs,
			  (size_t)lp->loads.n_flows, sizeof(*lp->flow_refs)))
		return -ENOMEM;
	lp->flow_refs[lp->loads.n_flows] = (struct flow_ref){ pair, ba };
	return burnin_loads_add_flow(&lp->loads, src, dst,
				     flow_rate(lp, src, dst, path, n), path, n);
}

static int add_pair_flows(struct burnin_load_proof *lp,
			  const struct burnin_load_step *s, int i)
{
	int ca = lp->inv_ca[s->pairs[i].a], cb = lp->inv_ca[s->pairs[i].b];
	bool ab = s->bidir || !s->read, ba = s->bidir || s->read;
	int rc = 0;

	if (ab)
		rc = add_flow(lp, i, false, ca, cb);
	if (!rc && ba)
		rc = add_flow(lp, i, true, cb, ca);
	return rc;
}

/* The targets of the step: both ends of every loaded cable. */
static int step_targets(struct burnin_load_proof *lp)
{
	for (int s = 0; s < lp->loads.n_cables; s++) {
		struct burnin_cable_load *l = &lp->loads.cables[s];
		int rev = burnin_routes_cable(lp->r, l->cable)->reverse;

		l->from_target = end_target(lp, l->cable);
		l->to_target = rev >= 0 ? end_target(lp, rev) : -1;
		if (l->from_target == -ENOMEM || l->to_target == -ENOMEM)
			return -ENOMEM;
	}
	if (array_reserve(&lp->before, &lp->cap_before, lp->n_t,
			  sizeof(*lp->before)))
		return -ENOMEM;
	free(lp->before_ok);
	lp->before_ok = calloc(lp->n_t ? lp->n_t : 1, sizeof(*lp->before_ok));
	return lp->before_ok ? 0 : -ENOMEM;
}

static void clear_targets(struct burnin_load_proof *lp)
{
	for (int s = 0; s < lp->loads.n_cables; s++) {
		int rev = burnin_routes_cable(lp->r, lp->loads.cables[s].cable)
				  ->reverse;

		lp->target_of_end[lp->loads.cables[s].cable] = -1;
		if (rev >= 0)
			lp->target_of_end[rev] = -1;
	}
	lp->n_t = 0;
}

int burnin_load_proof_begin(struct burnin_load_proof *lp,
			    const struct burnin_load_step *s)
{
	int rc = 0;

	clear_targets(lp);
	burnin_loads_reset(&lp->loads);
	for (int i = 0; i < s->n_pairs && !rc; i++)
		rc = add_pair_flows(lp, s, i);
	if (!rc)
		rc = burnin_loads_index(&lp->loads, lp->capacity, lp->n_cables,
					s->seconds);
	if (!rc)
		rc = step_targets(lp);
	if (rc)
		return rc;
	if (read_targets(lp) < 0)
		return -ENOMEM;
	for (size_t i = 0; i < lp->n_t; i++) {
		lp->before[i] = lp->t[i].pc;
		lp->before_ok[i] = !lp->t[i].status;
	}
	return 0;
}

static void cable_ref(const struct burnin_load_proof *lp, int c, char *name,
		      size_t len, struct burnin_cable_ref *ref)
{
	const struct burnin_cable *k = burnin_routes_cable(lp->r, c);

	burnin_cable_name(lp->r, c, name, len);
	*ref = (struct burnin_cable_ref){
		.name = name,
		.from_name = k->from_name,
		.to_name = k->to_name,
		.from_guid = k->from_guid,
		.to_guid = k->to_guid,
		.from_port = k->from_port,
		.to_port = k->to_port,
		.from_lid = k->from_lid,
		.to_lid = k->reverse >= 0
				  ? burnin_routes_cable(lp->r, k->reverse)
					    ->from_lid
				  : 0,
		.inter_switch = k->inter_switch,
	};
}

static void cable_counters(const struct burnin_load_proof *lp,
			   const struct burnin_cable_load *l,
			   struct burnin_cable_counters *c)
{
	int f = l->from_target, t = l->to_target;

	memset(c, 0, sizeof(*c));
	if (f >= 0 && lp->before_ok[f] && !lp->t[f].status) {
		c->read = true;
		c->from_before = lp->before[f];
		c->from_after = lp->t[f].pc;
	}
	if (t >= 0 && lp->before_ok[t] && !lp->t[t].status) {
		c->to_read = true;
		c->to_before = lp->before[t];
		c->to_after = lp->t[t].pc;
	}
}

static void add_errors(struct burnin_load_proof *lp, int cable,
		       const struct burnin_cable_proof *p)
{
	if (p->status == BURNIN_CABLE_UNREAD)
		return;
	lp->errors_read[cable] = true;
	for (int i = 0; i < FABRIC_PC_ERRORS_END; i++)
		lp->errors[cable][i] += p->from_errors[i] + p->to_errors[i];
	lp->errors_over[cable] += p->errors_over;
}

/* A cable-load record into the records and the certificate; stolen. */
static int emit_load(struct burnin_load_proof *lp, struct record_writer *w,
		     json_t *rec)
{
	int rc = 0;

	if (!rec)
		return -ENOMEM;
	if (lp->cert && record_writer_emit(lp->cert, rec))
		log_warn("load proof: the certificate's file is not written "
			 "to any more");
	if (w)
		rc = record_writer_emit(w, rec);
	json_decref(rec);
	return rc;
}

/* One cable's records; 0 or a writer's -errno. */
static int prove_cable(struct burnin_load_proof *lp,
		       const struct burnin_load_step *s,
		       const struct burnin_cable_load *l,
		       struct record_writer *w)
{
	char name[2 * DPATH_NAME_MAX + 32];
	struct burnin_cable_counters c;
	struct burnin_cable_proof p;
	struct burnin_cable_ref ref;
	int rc = 0;

	const struct burnin_cable *rc_cable =
		burnin_routes_cable(lp->r, l->cable);
	struct burnin_cable_link link = {
		.speed = rc_cable->speed,
		.lanes = rc_cable->width,
		.seconds = s->seconds,
	};

	cable_counters(lp, l, &c);
	burnin_cable_prove(l, &c, &p);
	/* its error rises by the counter limits, with the step's bits */
	burnin_cable_judge_errors(&c, &link, &p);
	add_errors(lp, l->cable, &p);
	cable_ref(lp, l->cable, name, sizeof(name), &ref);
	rc = emit_load(
		lp, w,
		burnin_cable_load_record(s->round, s->test, &ref, l, &p));
	if (p.status == BURNIN_CABLE_LOADED ||
	    p.status == BURNIN_CABLE_NOT_LOADED)
		lp->decided[l->cable] = true;
	if (p.status != BURNIN_CABLE_NOT_LOADED)
		return rc;
	lp->n_not_loaded++;
	lp->step_not_loaded[lp->n_step_not_loaded++] = l->cable;
	log_error("round %d (%s): %s sent %llu bytes, its flows moved %.0f: "
		  "not loaded as planned",
		  s->round + 1, s->test, name, (unsigned long long)p.sent_bytes,
		  l->moved_bytes);
	if (w && !rc)
		rc = record_writer_emit_steal(
			w, burnin_cable_not_loaded_finding(s->round, s->test,
							   &ref, l, &p));
	return rc;
}

static int step_key(int round, const char *test)
{
	return round << 1 | (test && !strcmp(test, "read"));
}

/* The switches at the egress of this step's not-loaded cables. */
static json_t *unfollowed_switches(const struct burnin_load_proof *lp,
				   int *n_ar, int *n_unknown)
{
	json_t *names = json_array();
	uint64_t seen[64];
	int n_seen = 0;

	*n_ar = *n_unknown = 0;
	for (int i = 0; names && i < lp->n_step_not_loaded; i++) {
		int c = lp->step_not_loaded[i], j;
		const struct burnin_cable *k = burnin_routes_cable(lp->r, c);
		const struct fabric_ar *ar = burnin_routes_cable_ar(lp->r, c);

		for (j = 0; j < n_seen && seen[j] != k->from_guid; j++)
			;
		if (j < n_seen || n_seen == 64)
			continue;
		seen[n_seen++] = k->from_guid;
		json_array_append_new(names, json_string(k->from_name));
		if (!ar)
			continue;
		*n_ar +=
			fabric_ar_for(ar, lp->sl, FABRIC_AR_RC) == FABRIC_AR_ON;
		*n_unknown += fabric_ar_for(ar, lp->sl, FABRIC_AR_RC) ==
			      FABRIC_AR_UNKNOWN;
	}
	return names;
}

/*
 * One routes-not-followed finding for a step whose planned cables were
 * not all loaded: the routes the plan and the cable judge use are not the
 * ones its traffic took, so rank 0's judge takes no route evidence from
 * this step (burnin_load_proof_step_followed()).
 */
static int routes_not_followed(struct burnin_load_proof *lp,
			       const struct burnin_load_step *s,
			       struct record_writer *w)
{
	int n_ar, n_unknown, *grown;
	json_t *names = unfollowed_switches(lp, &n_ar, &n_unknown);
	const char *first,
		*cause = n_ar	     ? "adaptive-routing"
			 : n_unknown ? "adaptive-routing-or-tables-changed"
				     : "tables-changed";
	json_t *subject, *ev;

	if (lp->n_unfollowed == lp->cap_unfollowed) {
		lp->cap_unfollowed =
			lp->cap_unfollowed ? 2 * lp->cap_unfollowed : 16;
		grown = realloc(lp->unfollowed,
				lp->cap_unfollowed * sizeof(*grown));
		if (!grown) {
			json_decref(names);
			return -ENOMEM;
		}
		lp->unfollowed = grown;
	}
	lp->unfollowed[lp->n_unfollowed++] = step_key(s->round, s->test);
	log_error("round %d (%s): %d planned cable(s) not loaded: the "
		  "traffic did not take the routes; no cable is blamed by "
		  "route in this step",
		  s->round + 1, s->test, lp->n_step_not_loaded);
	if (!names)
		return -ENOMEM;
	if (!w) {
		json_decref(names);
		return 0;
	}
	first = json_string_value(json_array_get(names, 0));
	subject =
		json_pack("{s:i,s:s}", "round", s->round + 1, "test", s->test);
	ev = json_pack("{s:i,s:s,s:i,s:o,s:s,s:i,s:i}", "round", s->round + 1,
		       "test", s->test, "cables_not_loaded",
		       lp->n_step_not_loaded, "switches", names, "cause", cause,
		       "sl", lp->sl, "switches_ar_on", n_ar);
	return record_writer_emit_steal(
		w,
		record_finding(
			"warn", "routes-not-followed", subject, ev, "none",
			"round %d (%s): %d planned cable(s) out of %s%s not "
			"loaded: the traffic did not follow the routes; %s. "
			"No cable is blamed by route in this step (counters "
			"on a cable's own ports still blame it)",
			s->round + 1, s->test, lp->n_step_not_loaded,
			first ? first : "?",
			json_array_size(names) > 1 ? " and others" : "",
			n_ar ? "those switches route this SL adaptively: "
			       "run on an SL they route statically (--sl)"
			: n_unknown
				? "adaptive routing is not known there, or "
				  "the SM changed the tables during the run: "
				  "compare `fabric routes` before and after"
				: "the SM changed the tables during the run: "
				  "compare `fabric routes` before and after"));
}

int burnin_load_proof_end(struct burnin_load_proof *lp,
			  const struct burnin_load_step *s,
			  struct record_writer *w)
{
	int rc = 0;

	for (int f = 0; f < lp->loads.n_flows; f++) {
		const struct flow_ref *fr = &lp->flow_refs[f];

		lp->loads.flows[f].moved_bytes =
			fr->ba ? s->moved_ba[fr->pair] : s->moved_ab[fr->pair];
	}
	burnin_loads_add_moved(&lp->loads);
	if (read_targets(lp) < 0)
		return -ENOMEM;
	free(lp->step_not_loaded);
	lp->n_step_not_loaded = 0;
	lp->step_not_loaded = malloc(((size_t)lp->loads.n_cables + 1) *
				     sizeof(*lp->step_not_loaded));
	if (!lp->step_not_loaded)
		return -ENOMEM;
	for (int k = 0; k < lp->loads.n_cables && !rc; k++)
		rc = prove_cable(lp, s, &lp->loads.cables[k], w);
	if (!rc && lp->n_step_not_loaded)
		rc = routes_not_followed(lp, s, w);
	return rc;
}

bool burnin_load_proof_decided(const struct burnin_load_proof *lp, int cable)
{
	return lp && cable >= 0 && cable < lp->n_cables && lp->decided[cable];
}

bool burnin_load_proof_step_followed(const struct burnin_load_proof *lp,
				     int round, const char *test)
{
	int key = step_key(round, test);

	for (size_t i = 0; lp && i < lp->n_unfollowed; i++)
		if (lp->unfollowed[i] == key)
			return false;
	return true;
}

int burnin_load_proof_unfollowed(const struct burnin_load_proof *lp,
				 struct judge_step **out, size_t *n)
{
	size_t k = lp ? lp->n_unfollowed : 0;

	*out = NULL;
	*n = 0;
	if (!k)
		return 0;
	*out = malloc(k * sizeof(**out));
	if (!*out)
		return -ENOMEM;
	for (size_t i = 0; i < k; i++) /* step_key(): round << 1 | read */
		(*out)[i] = (struct judge_step){
			.round = (uint32_t)(lp->unfollowed[i] >> 1),
			.test = (uint8_t)(lp->unfollowed[i] & 1),
		};
	*n = k;
	return 0;
}

void burnin_load_proof_set_sl(struct burnin_load_proof *lp, int sl)
{
	lp->sl = sl;
}

int burnin_load_proof_not_loaded(const struct burnin_load_proof *lp)
{
	return lp ? lp->n_not_loaded : 0;
}

const uint64_t *
burnin_load_proof_cable_errors(const struct burnin_load_proof *lp, int cable)
{
	return lp && cable >= 0 && cable < lp->n_cables ? lp->errors[cable]
							: NULL;
}

int burnin_load_proof_cable_error_total(const struct burnin_load_proof *lp,
					int cable, uint64_t *total)
{
	const uint64_t *e = burnin_load_proof_cable_errors(lp, cable);

	*total = 0;
	if (!e || !lp->errors_read[cable])
		return -ENODATA;
	*total = lp->errors_over[cable];
	return 0;
}

void burnin_load_proof_set_certificate(struct burnin_load_proof *lp,
				       struct record_writer *cert)
{
	lp->cert = cert;
}
