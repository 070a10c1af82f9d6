// SPDX-License-Identifier: MIT
/*
 * fabric_report.c: model, findings and counters -> records (jansson via
 * common/record.h), and the short human summary.
 */
#include <stdio.h>
#include <string.h>

#include "common/record.h"
#include "fabric_report.h"

/* An end: {node, guid, port, type}; a CA end named "host ca" also gets
 * host/ca and its port GUID (the HCA port reference of the contract). */
json_t *fabric_ref_json(const struct fabric_ref *r)
{
	char g[19], host[96], ca[96];
	json_t *o;

	o = json_pack("{s:s, s:i, s:s}", "node", r->name, "port", r->port,
		      "type", fabric_node_type_name(r->type));
	if (!o)
		return NULL;
	if (r->guid)
		json_object_set_new(o, "guid",
				    json_string(record_guid_str(r->guid, g)));
	if (r->type == FABRIC_NODE_CA &&
	    sscanf(r->name, "%95s %95s", host, ca) == 2) {
		json_object_set_new(o, "host", json_string(host));
		json_object_set_new(o, "ca", json_string(ca));
		json_object_set_new(
			o, "port_guid",
			json_string(record_guid_str(r->port_guid, g)));
	} else if (r->type == FABRIC_NODE_CA && r->port_guid) {
		json_object_set_new(
			o, "port_guid",
			json_string(record_guid_str(r->port_guid, g)));
	}
	return o;
}

static json_t *pair_json(const struct fabric_ref *a, const struct fabric_ref *b)
{
	return json_pack("{s:o, s:o}", "a", fabric_ref_json(a), "b",
			 fabric_ref_json(b));
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
	if (ev && f->extra_role && f->nrefs == 4)
		json_object_set_new(ev, f->extra_role,
				    pair_json(&f->refs[2], &f->refs[3]));
	return ev;
}

json_t *fabric_finding_record(const struct fabric_finding *f)
{
	json_t *subject;

	if (f->nrefs >= 2)
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

json_t *fabric_link_record(const struct fabric_port *p)
{
	json_t *rec = record_new("link");
	json_t *a = end_json(p), *b = end_json(p->remote);

	json_object_set_new(a, "name", json_string(p->node->name));
	json_object_set_new(b, "name", json_string(p->remote->node->name));
	if (!rec || json_object_set_new(rec, "a", a) ||
	    json_object_set_new(rec, "b", b) ||
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
		return NULL;
	}
	return rec;
}

json_t *fabric_counters_record(const struct fabric_port *p,
			       const struct fabric_port_counters *pc)
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
	    json_object_set_new(rec, "extended", json_boolean(pc->cur.ext))) {
		json_decref(rec);
		return NULL;
	}
	return rec;
}

void fabric_print_summary(FILE *out, const char *what, const struct fabric *m,
			  const struct fabric_findings *fs)
{
	size_t i;

	fprintf(out,
		"%s: %zu nodes, %zu links (%s); %zu findings: %zu fail, "
		"%zu warn, %zu info\n",
		what, m->nnodes, fabric_count_links(m), m->source, fs->n,
		fabric_findings_count(fs, "fail"),
		fabric_findings_count(fs, "warn"),
		fabric_findings_count(fs, "info"));
	for (i = 0; i < fs->n; i++)
		fprintf(out, "  %-4s %-20s %s\n", fs->v[i].severity,
			fs->v[i].category, fs->v[i].message);
	fflush(out);
}
