// SPDX-License-Identifier: MIT
/*
 * fabric_report.c: model, findings and counters -> records (jansson via
 * common/record.h), and the short human summary.
 */
#include <stdio.h>
#include <string.h>

#include "common/ibcage.h"
#include "common/record.h"
#include "common/text.h"
#include "fabric/fabric_limits.h"
#include "fabric/fabric_report.h"

/* Sets key to the n bytes at s; 0 or -1 (o is kept either way). */
static int set_strn(json_t *o, const char *key, const char *s, size_t n)
{
	return json_object_set_new(o, key, json_stringn(s, n));
}

/* An end: {node, guid, port, type}; a CA end named "host ca" also gets
 * host/ca and its port GUID (the HCA port reference of the contract);
 * any CA end its port GUID. Names are text already (common/text.h): none
 * is cut here. */
json_t *fabric_ref_json(const struct fabric_ref *r)
{
	const char *name = r->name, *ca;
	size_t host_len, ca_len;
	char g[19];
	json_t *o;

	o = json_pack("{s:s, s:i, s:s}", "node", name, "port", r->port, "type",
		      fabric_node_type_name(r->type));
	if (!o)
		return NULL;
	if (r->guid &&
	    json_object_set_new(o, "guid",
				json_string(record_guid_str(r->guid, g))))
		goto fail;
	name += strspn(name, " \t");
	host_len = strcspn(name, " \t");
	ca = name + host_len + strspn(name + host_len, " \t");
	ca_len = strcspn(ca, " \t");
	if (r->type == FABRIC_NODE_CA && host_len && ca_len &&
	    (set_strn(o, "host", name, host_len) ||
	     set_strn(o, "ca", ca, ca_len)))
		goto fail;
	if (r->type == FABRIC_NODE_CA &&
	    ((host_len && ca_len) || r->port_guid) &&
	    json_object_set_new(o, "port_guid",
				json_string(record_guid_str(r->port_guid, g))))
		goto fail;
	return o;
fail:
	json_decref(o);
	return NULL;
}

static json_t *pair_json(const struct fabric_ref *a, const struct fabric_ref *b)
{
	return json_pack("{s:o, s:o}", "a", fabric_ref_json(a), "b",
			 fabric_ref_json(b));
}

static bool collateral(const struct fabric_finding *f)
{
	return f->extra_role && !strcmp(f->extra_role, FABRIC_ROLE_COLLATERAL);
}

static json_t *evidence_json(const struct fabric_finding *f)
{
	json_t *ev = json_object(), *v;
	int i;

	for (i = 0; ev && i < f->nev; i++) {
		const struct fabric_ev *e = &f->ev[i];

		if (e->kind == FABRIC_EV_STR)
			v = json_string(e->str);
		else if (e->kind == FABRIC_EV_NUM)
			v = json_integer(e->num);
		else if (e->kind == FABRIC_EV_BOOL)
			v = json_boolean(e->num);
		else
			v = json_real(e->real);
		json_object_set_new(ev, e->key, v);
	}
	if (ev && collateral(f)) {
		json_t *a = json_array();

		for (i = 1; a && i < f->nrefs; i++)
			json_array_append_new(a, fabric_ref_json(&f->refs[i]));
		json_object_set_new(ev, f->extra_role, a);
	} else if (ev && f->extra_role && f->nrefs == 4) {
		json_object_set_new(ev, f->extra_role,
				    pair_json(&f->refs[2], &f->refs[3]));
	}
	return ev;
}

json_t *fabric_finding_record(const struct fabric_finding *f)
{
	json_t *subject;

	if (f->nrefs >= 2 && !collateral(f))
		subject = pair_json(&f->refs[0], &f->refs[1]);
	else
		subject = fabric_ref_json(&f->refs[0]);
	return record_finding(f->severity, f->category, subject,
			      evidence_json(f), f->action, "%s", f->message);
}

static json_t *end_json(const struct fabric_port *p)
{
	struct fabric_ref r;
	struct fabric_finding tmp = { 0 };

	fabric_finding_port(&tmp, p);
	r = tmp.refs[0];
	return fabric_ref_json(&r);
}

/* A link end's device: NodeInfo DeviceID, and the port's cage name where
 * the cage table knows the switch (common/ibcage.h). */
static int end_device(json_t *o, const struct fabric_port *p)
{
	const struct fabric_node *n = p->node;
	const struct ib_cage_model *m =
		n->type == FABRIC_NODE_SWITCH
			? ib_cage_model_of(n->device_id, n->nports)
			: NULL;
	char label[32];

	if (n->device_id &&
	    json_object_set_new(o, "devid", json_integer(n->device_id)))
		return -1;
	if (m && *ib_cage_label(m, p->num, label) &&
	    (json_object_set_new(o, "alias", json_string(label)) ||
	     json_object_set_new(o, "model", json_string(m->name))))
		return -1;
	return 0;
}

/* A port's LID: a switch's external ports answer to its port 0 LID. */
static int link_lid(const struct fabric_port *p)
{
	return p->node->type == FABRIC_NODE_SWITCH ? p->node->lid : p->lid;
}

/* D11: every reference made here is dropped on every error path. */
json_t *fabric_link_record(const struct fabric_port *p)
{
	json_t *rec = record_new("link");
	json_t *a = end_json(p), *b = end_json(p->remote);

	if (!rec || !a || !b ||
	    json_object_set_new(a, "name", json_string(p->node->name)) ||
	    json_object_set_new(b, "name",
				json_string(p->remote->node->name)) ||
	    json_object_set_new(a, "lid", json_integer(link_lid(p))) ||
	    json_object_set_new(b, "lid", json_integer(link_lid(p->remote))) ||
	    end_device(a, p) || end_device(b, p->remote) ||
	    json_object_set(rec, "a", a) || json_object_set(rec, "b", b) ||
	    json_object_set_new(rec, "width",
				json_string(fabric_width_str(p->width))) ||
	    json_object_set_new(rec, "speed",
				json_string(ib_speed_name(p->speed))) ||
	    json_object_set_new(rec, "state",
				json_string(ib_port_state_name(p->state))) ||
	    json_object_set_new(
		    rec, "phys_state",
		    json_string(ib_phys_state_name(p->phys_state)))) {
		json_decref(rec);
		rec = NULL;
	}
	json_decref(a);
	json_decref(b);
	return rec;
}

/* Bits a data counter counted in the window (4-octet words x 32); null
 * when saturated or read 32-bit once and 64-bit the other time. */
static json_t *window_bits(const struct fabric_port_counters *pc, int id)
{
	if (pc->saturated[id])
		return json_null();
	return json_real((double)pc->delta.v[id] * 32.0);
}

/* {Name: rise} of every error counter in the window (since a clear: the
 * value), and the names of those whose rise is a lower bound. */
static int window_errors(json_t *o, const struct fabric_port_counters *pc)
{
	json_t *e = json_object(), *sat = json_array();
	int rc = !e || !sat;

	for (int i = 0; !rc && i < IB_PC_COUNT; i++) {
		if (!ib_pc_defs[i].error)
			continue;
		rc = json_object_set_new(
			e, ib_pc_defs[i].name,
			json_integer((json_int_t)(pc->delta.v[i] > INT64_MAX
							  ? INT64_MAX
							  : pc->delta.v[i])));
		if (!rc && pc->saturated[i])
			rc = json_array_append_new(
				sat, json_string(ib_pc_defs[i].name));
	}
	if (!rc)
		rc = json_object_set(o, "errors", e);
	if (!rc && json_array_size(sat))
		rc = json_object_set(o, "errors_saturated", sat);
	json_decref(e);
	json_decref(sat);
	return rc;
}

/* The symbol errors per bit, as the check judged them: ber_bits (null
 * when no bits are known), ber, ber_limit, ber_limit_source. */
static int window_ber(json_t *o, const struct fabric_port *p,
		      const struct fabric_port_counters *pc,
		      const struct fabric_window *w)
{
	struct fabric_limit_out b;

	fabric_port_ber(p, pc, w, &b);
	if (b.how != FABRIC_JUDGED_BER)
		return json_object_set_new(o, "ber_bits", json_null()) ||
		       json_object_set_new(o, "ber", json_null());
	return json_object_set_new(o, "ber_bits", json_real(b.bits)) ||
	       json_object_set_new(o, "ber", json_real(b.figure)) ||
	       json_object_set_new(o, "ber_limit", json_real(b.limit)) ||
	       json_object_set_new(o, "ber_limit_source",
				   json_string(b.source));
}

/* {mode, start, end, seconds, xmit_bits, rcv_bits, errors, ber_bits, ber
 * ...}: what a record covers, and what the errors were in it. */
static json_t *window_json(const struct fabric_port *p,
			   const struct fabric_port_counters *pc,
			   const struct fabric_window *w)
{
	json_t *o = json_pack(
		"{s:s,s:o,s:o,s:o,s:o,s:o}", "mode", fabric_window_mode_name(w),
		"start", w && w->start[0] ? json_string(w->start) : json_null(),
		"end", w && w->end[0] ? json_string(w->end) : json_null(),
		"seconds",
		w && w->seconds > 0 ? json_real(w->seconds) : json_null(),
		"xmit_bits", window_bits(pc, IB_PC_XMIT_DATA), "rcv_bits",
		window_bits(pc, IB_PC_RCV_DATA));

	if (o && (window_errors(o, pc) || window_ber(o, p, pc, w))) {
		json_decref(o);
		o = NULL;
	}
	return o;
}

json_t *fabric_counters_record(const struct fabric_port *p,
			       const struct fabric_port_counters *pc,
			       const struct fabric_window *w)
{
	json_t *rec = record_new("counters"), *c = json_object();
	char g[19];
	int i;

	for (i = 0; c && i < IB_PC_COUNT; i++)
		json_object_set_new(c, ib_pc_defs[i].name,
				    json_integer((json_int_t)pc->cur.v[i]));
	if (!rec || !c || json_object_set_new(rec, "subject", end_json(p)) ||
	    json_object_set_new(rec, "counters", c) ||
	    json_object_set_new(
		    rec, "node_guid",
		    json_string(record_guid_str(p->node->guid, g))) ||
	    json_object_set_new(rec, "port", json_integer(p->num)) ||
	    json_object_set_new(rec, "extended", json_boolean(pc->cur.ext)) ||
	    json_object_set_new(rec, "extended_errors",
				json_boolean(pc->cur.ext_err)) ||
	    json_object_set_new(rec, "window", window_json(p, pc, w))) {
		json_decref(rec);
		return NULL;
	}
	return rec;
}

void fabric_print_summary(FILE *out, const char *what, const struct fabric *m,
			  const struct fabric_findings *fs)
{
	size_t i;

	text_term_fprintf(
		out,
		"%s: %zu nodes, %zu links (%s); %zu findings: %zu fail, "
		"%zu warn, %zu info",
		what, m->nnodes, fabric_count_links(m), m->source, fs->n,
		fabric_findings_count(fs, "fail"),
		fabric_findings_count(fs, "warn"),
		fabric_findings_count(fs, "info"));
	fputc('\n', out);
	for (i = 0; i < fs->n; i++) {
		if (!strcmp(fs->v[i].category, "not-tested"))
			continue; /* grouped: fabric_scope_print() */
		/* D9: names in messages are text, not terminal commands */
		text_term_fprintf(out, "  %-4s %-20s %s", fs->v[i].severity,
				  fs->v[i].category, fs->v[i].message);
		fputc('\n', out);
	}
	fflush(out);
}
