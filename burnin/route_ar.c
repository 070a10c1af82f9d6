// SPDX-License-Identifier: MIT
/*
 * route_ar.c: the one trust rule for adaptive paths (issue 33). A planned
 * flow is adaptive when a switch on its path routes its SL adaptively
 * (AdaptiveRoutingInfo as `fabric routes` read it: enabled, the SL in
 * its mask, RC not excluded): the switch may send it out of another port
 * than its linear table says, so "each flow alone on its cables" is not a
 * promise the plan can make, and the cable judge may not blame a cable by
 * that flow's static path. Switches whose AR was not read are counted
 * apart: unknown, never off.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "burnin/route_ar.h"
#include "common/cli.h"
#include "common/hashmap.h"
#include "common/log.h"
#include "fabric/ar_info.h"

#define PATH_MAX_CABLES 64

static int cable_state(const struct route_ctx *c, int k, int sl)
{
	const struct fabric_ar *ar = burnin_routes_cable_ar(c->r, k);

	return ar ? (int)fabric_ar_for(ar, sl, FABRIC_AR_RC) : FABRIC_AR_OFF;
}

/* The switch at cable k's egress, noted once: on (adaptive) or unknown. */
static int note_switch(const struct route_ctx *c, struct route_ar *out, int k,
		       int state, struct hashmap *seen)
{
	const struct burnin_cable *cb = burnin_routes_cable(c->r, k);
	const struct fabric_ar *ar = burnin_routes_cable_ar(c->r, k);
	uint64_t v;
	size_t len;

	if (!ar || hashmap_get(seen, cb->from_guid, &v))
		return 0;
	if (hashmap_put(seen, cb->from_guid, 1))
		return -ENOMEM;
	if (state == FABRIC_AR_UNKNOWN) {
		out->n_unknown++;
		return 0;
	}
	out->n_on++;
	if (ar->state == FABRIC_AR_ON)
		out->adaptive_sls |= ar->sl_mask;
	len = strlen(out->on_names);
	if (out->n_on <= ROUTE_AR_NAMES)
		snprintf(out->on_names + len, sizeof(out->on_names) - len,
			 "%s%s", len ? ", " : "", cb->from_name);
	return 0;
}

static int check_flow(const struct route_ctx *c, int a, int b, int sl,
		      struct route_ar *out, struct hashmap *seen)
{
	int path[PATH_MAX_CABLES], n, i, st;
	bool adaptive = false, unknown = false;

	if (a < 0 || b < 0 || c->ca_of_inv[a] < 0 || c->ca_of_inv[b] < 0)
		return 0;
	n = burnin_routes_path(c->r, c->ca_of_inv[a], c->ca_of_inv[b], path,
			       PATH_MAX_CABLES);
	out->flows++;
	for (i = 0; i < n; i++) {
		st = cable_state(c, path[i], sl);
		if (st == FABRIC_AR_OFF)
			continue;
		adaptive |= st == FABRIC_AR_ON;
		unknown |= st == FABRIC_AR_UNKNOWN;
		if (note_switch(c, out, path[i], st, seen))
			return -ENOMEM;
	}
	out->flows_adaptive += adaptive;
	out->flows_unknown += !adaptive && unknown;
	return 0;
}

int route_ar_check(const struct route_ctx *c, const struct burnin_schedule *s,
		   int sl, bool bidir, struct route_ar *out)
{
	struct hashmap seen = { 0 };
	int i, rc = 0;

	memset(out, 0, sizeof(*out));
	out->sl = sl;
	for (i = 0; !rc && i < s->n_pairs; i++) {
		rc = check_flow(c, s->pairs[i].a, s->pairs[i].b, sl, out,
				&seen);
		if (!rc && bidir)
			rc = check_flow(c, s->pairs[i].b, s->pairs[i].a, sl,
					out, &seen);
	}
	hashmap_free(&seen);
	return rc;
}

void route_ar_static_sls(const struct route_ar *ar, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (int sl = 0; sl < 16 && used < len; sl++)
		if (!(ar->adaptive_sls >> sl & 1))
			used += (size_t)snprintf(buf + used, len - used, "%s%d",
						 used ? "," : "", sl);
	if (!buf[0])
		snprintf(buf, len, "none");
}

/* route-aware schedules promise each flow alone on its cables */
static bool promises_alone(const char *schedule)
{
	return !strcmp(schedule, "cover") || !strcmp(schedule, "all-pairs");
}

int route_ar_gate(const struct burnin_config *cfg, const struct route_ctx *c,
		  const struct burnin_schedule *s, struct route_ar *ar)
{
	char sls[64];

	if (route_ar_check(c, s, cfg->params.sl, cfg->params.bidir, ar))
		return IBP_EXIT_RUNTIME;
	route_ar_static_sls(ar, sls, sizeof(sls));
	if (cfg->dry_run)
		printf("adaptive routing on SL %d: %d of %d planned flows cross "
		       "%d switches routing them adaptively%s%s%s; %d flows "
		       "cross only switches whose adaptive routing was not "
		       "read (%d switches: unknown); SLs no switch of the plan "
		       "routes adaptively: %s\n",
		       ar->sl, ar->flows_adaptive, ar->flows, ar->n_on,
		       ar->n_on ? " (" : "", ar->on_names,
		       ar->n_on ? (ar->n_on > ROUTE_AR_NAMES ? ", ...)" : ")")
				: "",
		       ar->flows_unknown, ar->n_unknown, sls);
	if (!ar->flows_adaptive || !promises_alone(cfg->schedule))
		return IBP_EXIT_PASS;
	if (!cfg->allow_adaptive) {
		log_error("--schedule %s on SL %d: %d planned flows cross "
			  "switches that route SL %d adaptively (%s%s): their "
			  "paths are not the tables', so the plan cannot keep "
			  "each flow alone on its cables. Run on an SL those "
			  "switches route statically (--sl N; here: %s), or "
			  "--allow-adaptive (not contention-free, counter-only "
			  "cable blame)",
			  cfg->schedule, ar->sl, ar->flows_adaptive, ar->sl,
			  ar->on_names,
			  ar->n_on > ROUTE_AR_NAMES ? ", ..." : "", sls);
		return IBP_EXIT_USAGE;
	}
	log_warn(
		"--allow-adaptive: %d of %d flows on adaptive paths; the plan "
		"is not contention-free and no cable is blamed by their routes",
		ar->flows_adaptive, ar->flows);
	return IBP_EXIT_PASS;
}
