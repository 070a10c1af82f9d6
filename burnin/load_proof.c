// SPDX-License-Identifier: MIT
/*
 * load_proof.c: the pure part of the load proof (load_proof.h): the cables
 * a step's flows load, counter deltas, a cable's verdict, its records.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "burnin/load_proof.h"
#include "common/array.h"
#include "common/ibport.h"
#include "common/record.h"
#include "fabric/fabric_limits.h"

int burnin_loads_add_flow(struct burnin_step_loads *l, int src, int dst,
			  double rate_gbps, const int *cables, int n)
{
	if (array_reserve(&l->flows, &l->cap_flows, (size_t)l->n_flows,
			  sizeof(*l->flows)))
		return -ENOMEM;
	for (int i = 0; i < n; i++) {
		if (array_reserve(&l->path, &l->cap_path, (size_t)l->n_path,
				  sizeof(*l->path)))
			return -ENOMEM;
		l->path[l->n_path++] = cables[i];
	}
	l->flows[l->n_flows++] = (struct burnin_flow){
		.src = src,
		.dst = dst,
		.rate_gbps = rate_gbps,
		.first = l->n_path - n,
		.n = n,
	};
	return 0;
}

/* The slot of cable c in l->cables, added at first use; -ENOMEM. */
static int cable_slot(struct burnin_step_loads *l, int *slot_of, int c)
{
	if (slot_of[c] < 0) {
		slot_of[c] = l->n_cables++;
		l->cables[slot_of[c]] = (struct burnin_cable_load){
			.cable = c, .from_target = -1, .to_target = -1
		};
	}
	return slot_of[c];
}

int burnin_loads_index(struct burnin_step_loads *l, const double *capacity_gbps,
		       int n_route_cables, double seconds)
{
	int *slot_of = malloc((size_t)(n_route_cables ? n_route_cables : 1) *
			      sizeof(*slot_of));
	size_t n = (size_t)(l->n_path ? l->n_path : 1);
	double *gbps;

	free(l->cables);
	free(l->path_slot);
	l->cables = calloc(n, sizeof(*l->cables));
	l->path_slot = malloc(n * sizeof(*l->path_slot));
	gbps = calloc(n, sizeof(*gbps));
	l->n_cables = 0;
	if (!slot_of || !l->cables || !l->path_slot || !gbps) {
		free(slot_of);
		free(gbps);
		return -ENOMEM;
	}
	for (int c = 0; c < n_route_cables; c++)
		slot_of[c] = -1;
	for (int f = 0; f < l->n_flows; f++) {
		const struct burnin_flow *fl = &l->flows[f];

		for (int k = fl->first; k < fl->first + fl->n; k++) {
			int c = l->path[k], s;

			l->path_slot[k] = -1;
			if (c < 0 || c >= n_route_cables)
				continue;
			s = cable_slot(l, slot_of, c);
			l->path_slot[k] = s;
			l->cables[s].flows++;
			gbps[s] += fl->rate_gbps;
		}
	}
	for (int s = 0; s < l->n_cables; s++) {
		double cap = capacity_gbps[l->cables[s].cable];

		if (cap > 0 && gbps[s] > cap)
			gbps[s] = cap;
		l->cables[s].expected_bytes = gbps[s] * 1e9 / 8 * seconds;
	}
	free(slot_of);
	free(gbps);
	return 0;
}

void burnin_loads_add_moved(struct burnin_step_loads *l)
{
	for (int s = 0; s < l->n_cables; s++)
		l->cables[s].moved_bytes = 0;
	for (int f = 0; f < l->n_flows; f++) {
		const struct burnin_flow *fl = &l->flows[f];

		for (int k = fl->first; k < fl->first + fl->n; k++)
			if (l->path_slot[k] >= 0)
				l->cables[l->path_slot[k]].moved_bytes +=
					(double)fl->moved_bytes;
	}
}

void burnin_loads_reset(struct burnin_step_loads *l)
{
	l->n_flows = 0;
	l->n_path = 0;
	l->n_cables = 0;
}

void burnin_loads_free(struct burnin_step_loads *l)
{
	free(l->flows);
	free(l->path);
	free(l->cables);
	free(l->path_slot);
	memset(l, 0, sizeof(*l));
}

static bool is_data_counter(int id)
{
	return id >= IB_PC_XMIT_DATA;
}

enum burnin_delta burnin_counter_delta(int id, uint64_t before, bool ext_before,
				       uint64_t after, bool ext_after,
				       uint64_t *delta)
{
	bool ext = is_data_counter(id) && ext_after;
	uint64_t max = fabric_pc_max(id, ext);

	*delta = 0;
	if (is_data_counter(id) && ext_before != ext_after)
		return BURNIN_DELTA_UNKNOWN;
	if (after < before) { /* cleared meanwhile: it rose by at least this */
		*delta = after;
		return BURNIN_DELTA_AT_LEAST;
	}
	*delta = after - before;
	return after == max ? BURNIN_DELTA_AT_LEAST : BURNIN_DELTA_EXACT;
}

static void error_deltas(const struct fabric_pc *before,
			 const struct fabric_pc *after, uint64_t *out)
{
	for (int i = 0; i < FABRIC_PC_ERRORS_END; i++)
		burnin_counter_delta(i, before->v[i], false, after->v[i], false,
				     &out[i]);
}

static enum burnin_cable_status verdict(double moved, uint64_t sent,
					enum burnin_delta known)
{
	bool half = (double)sent * 2 >= moved;

	if (moved <= 0)
		return BURNIN_CABLE_IDLE;
	if (known == BURNIN_DELTA_UNKNOWN)
		return BURNIN_CABLE_UNPROVEN;
	if (half)
		return BURNIN_CABLE_LOADED;
	return known == BURNIN_DELTA_EXACT ? BURNIN_CABLE_NOT_LOADED
					   : BURNIN_CABLE_UNPROVEN;
}

void burnin_cable_prove(const struct burnin_cable_load *load,
			const struct burnin_cable_counters *c,
			struct burnin_cable_proof *out)
{
	uint64_t words;

	memset(out, 0, sizeof(*out));
	out->to_read = c->to_read;
	if (c->to_read)
		error_deltas(&c->to_before, &c->to_after, out->to_errors);
	if (!c->read) {
		out->sent_known = BURNIN_DELTA_UNKNOWN;
		out->status = BURNIN_CABLE_UNREAD;
		return;
	}
	error_deltas(&c->from_before, &c->from_after, out->from_errors);
	out->sent_known = burnin_counter_delta(
		IB_PC_XMIT_DATA, c->from_before.v[IB_PC_XMIT_DATA],
		c->from_before.ext, c->from_after.v[IB_PC_XMIT_DATA],
		c->from_after.ext, &words);
	out->sent_bytes = words > UINT64_MAX / 4 ? UINT64_MAX : words * 4;
	out->status =
		verdict(load->moved_bytes, out->sent_bytes, out->sent_known);
}

/* Bits an end received between two reads; -1 when not known exactly. */
static double rcv_bits(const struct fabric_pc *before,
		       const struct fabric_pc *after)
{
	uint64_t words;

	if (burnin_counter_delta(IB_PC_RCV_DATA, before->v[IB_PC_RCV_DATA],
				 before->ext, after->v[IB_PC_RCV_DATA],
				 after->ext, &words) != BURNIN_DELTA_EXACT)
		return -1;
	return (double)words * 32.0;
}

/* One end's rises through the counter limits; the sum of those over. */
static uint64_t judge_end(const struct fabric_pc *before,
			  const struct fabric_pc *after, const uint64_t *rise,
			  const struct burnin_cable_link *link, bool *over)
{
	struct fabric_limit_in in = {
		.data_bits = rcv_bits(before, after),
		.seconds = link->seconds > 0 ? link->seconds : 0,
		.speed = (enum ib_speed)link->speed,
		.lanes = link->lanes,
	};
	struct fabric_limit_out o;
	uint64_t total = 0, d;

	for (int i = 0; i < FABRIC_PC_ERRORS_END; i++) {
		over[i] = false;
		if (!rise[i] || !ib_pc_defs[i].error)
			continue;
		in.count = rise[i];
		in.saturated = burnin_counter_delta(i, before->v[i], false,
						    after->v[i], false,
						    &d) != BURNIN_DELTA_EXACT;
		in.threshold = fabric_limits[i].window;
		fabric_limit_judge(i, &in, &o);
		over[i] = o.severity && !strcmp(o.severity, "fail");
		total += over[i] ? rise[i] : 0;
	}
	return total;
}

void burnin_cable_judge_errors(const struct burnin_cable_counters *c,
			       const struct burnin_cable_link *link,
			       struct burnin_cable_proof *out)
{
	out->errors_over = 0;
	memset(out->from_over, 0, sizeof(out->from_over));
	memset(out->to_over, 0, sizeof(out->to_over));
	if (out->status != BURNIN_CABLE_UNREAD && c->read)
		out->errors_over +=
			judge_end(&c->from_before, &c->from_after,
				  out->from_errors, link, out->from_over);
	if (out->to_read && c->to_read)
		out->errors_over +=
			judge_end(&c->to_before, &c->to_after, out->to_errors,
				  link, out->to_over);
}

const char *burnin_cable_status_name(enum burnin_cable_status s)
{
	static const char *const names[] = {
		[BURNIN_CABLE_LOADED] = "loaded",
		[BURNIN_CABLE_NOT_LOADED] = "not-loaded",
		[BURNIN_CABLE_UNPROVEN] = "unproven",
		[BURNIN_CABLE_UNREAD] = "unread",
		[BURNIN_CABLE_IDLE] = "idle",
	};

	return (unsigned)s < sizeof(names) / sizeof(names[0]) ? names[s]
							      : "unknown";
}

/* {Name: delta} of the error counters that rose (only those over their
 * limit when over is not NULL). */
static json_t *errors_object(const uint64_t *d, const bool *over)
{
	json_t *o = json_object();

	for (int i = 0; o && i < FABRIC_PC_ERRORS_END; i++)
		if (d[i] && ib_pc_defs[i].error && (!over || over[i]))
			json_object_set_new(o, ib_pc_defs[i].name,
					    json_integer((json_int_t)d[i]));
	return o;
}

static json_t *end_ref(const char *name, uint64_t guid, int port, int lid)
{
	char g[19];

	return json_pack("{s:s,s:s,s:i,s:i}", "name", name ? name : "", "guid",
			 record_guid_str(guid, g), "port", port, "lid", lid);
}

static const char *delta_name(enum burnin_delta d)
{
	return d == BURNIN_DELTA_EXACT	    ? "exact"
	       : d == BURNIN_DELTA_AT_LEAST ? "at-least"
					    : "unknown";
}

json_t *burnin_cable_load_record(int round, const char *test,
				 const struct burnin_cable_ref *ref,
				 const struct burnin_cable_load *load,
				 const struct burnin_cable_proof *p)
{
	json_t *r = record_new("cable-load");

	if (!r)
		return NULL;
	json_object_update_new(
		r,
		json_pack("{s:i,s:s,s:s,s:o,s:o,s:b,s:i,s:f,s:f,s:s}", "round",
			  round + 1, "test", test, "cable", ref->name, "from",
			  end_ref(ref->from_name, ref->from_guid,
				  ref->from_port, ref->from_lid),
			  "to",
			  end_ref(ref->to_name, ref->to_guid, ref->to_port,
				  ref->to_lid),
			  "inter_switch", ref->inter_switch, "flows",
			  load->flows, "expected_bytes", load->expected_bytes,
			  "moved_bytes", load->moved_bytes, "status",
			  burnin_cable_status_name(p->status)));
	if (p->status != BURNIN_CABLE_UNREAD) {
		json_object_set_new(
			r, "sent_bytes",
			json_integer((json_int_t)(p->sent_bytes > INT64_MAX
							  ? INT64_MAX
							  : p->sent_bytes)));
		json_object_set_new(r, "sent",
				    json_string(delta_name(p->sent_known)));
		json_object_set_new(r, "errors_from",
				    errors_object(p->from_errors, NULL));
		json_object_set_new(
			r, "errors_over_from",
			errors_object(p->from_errors, p->from_over));
	}
	if (p->to_read) {
		json_object_set_new(r, "errors_to",
				    errors_object(p->to_errors, NULL));
		json_object_set_new(r, "errors_over_to",
				    errors_object(p->to_errors, p->to_over));
	}
	return r;
}

json_t *burnin_cable_not_loaded_finding(int round, const char *test,
					const struct burnin_cable_ref *ref,
					const struct burnin_cable_load *load,
					const struct burnin_cable_proof *p)
{
	json_t *subject = record_switch_port_ref(ref->from_name, ref->from_guid,
						 ref->from_port);
	json_t *ev = json_pack(
		"{s:i,s:s,s:s,s:i,s:f,s:f,s:I}", "round", round + 1, "test",
		test, "cable", ref->name, "flows", load->flows,
		"expected_bytes", load->expected_bytes, "moved_bytes",
		load->moved_bytes, "sent_bytes",
		(json_int_t)(p->sent_bytes > INT64_MAX ? INT64_MAX
						       : p->sent_bytes));

	return record_finding(
		"fail", "cable-not-loaded", subject, ev, "none",
		"%s sent %.3g GB in round %d (%s) while the %d flow(s) "
		"routed through it moved %.3g GB: the traffic did not take "
		"the routes (adaptive routing, or tables changed); the "
		"coverage of this cable is not proven",
		ref->name, (double)p->sent_bytes / 1e9, round + 1, test,
		load->flows, load->moved_bytes / 1e9);
}
