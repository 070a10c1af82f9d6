// SPDX-License-Identifier: MIT
/*
 * fabric_routes_run.c: `ibproof fabric routes`: the model (live walk,
 * cache or topology), every switch's forwarding table (live by directed
 * route through fabric_ops.h, or a dump with --lfts), then either the
 * records (links, one `lft` per switch, routing findings) or, with
 * --path / --paths, routes printed like ibtracert.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/cli.h"
#include "common/lines.h"
#include "common/log.h"
#include "common/record.h"
#include "fabric/fabric_report.h"
#include "fabric/fabric_route.h"
#include "fabric/fabric_run.h"

#define SMP_RETRIES 2

/* A switch whose table was not read: not tested, and why. */
static int unread(struct fabric_scope *scope, struct fabric_findings *fs,
		  const struct fabric_node *n, int rc, int mad_status)
{
	struct fabric_gap g = { .part = FABRIC_PART_TABLES,
				.reason = "no-answer",
				.what = "SwitchInfo/LinearForwardingTable" };
	char st[96];

	if (rc == -EREMOTEIO) {
		g.reason = "mad-status";
		g.mad_status = mad_status;
		log_error("switch %s (0x%016" PRIx64 "): forwarding table not "
			  "read: MAD status 0x%04x (%s)",
			  n->name, n->guid, (unsigned)mad_status,
			  fabric_mad_status_text((unsigned)mad_status, st,
						 sizeof(st)));
	} else {
		if (rc == -EPROTO)
			g.reason = "bad-answer";
		else if (rc == -EINVAL)
			g.reason = "not-in-walk";
		log_error("switch %s (0x%016" PRIx64 "): forwarding table not "
			  "read: %s",
			  n->name, n->guid,
			  rc == -ETIMEDOUT ? "no answer" : strerror(-rc));
	}
	return fabric_scope_untested(scope, fs, &n->ports[0], &g) ? 0 : -ENOMEM;
}

/*
 * The switch's AdaptiveRoutingInfo. A switch that does not answer the
 * vendor attribute (ibsim, other vendors, AR not licensed) stays unknown,
 * never "off": its table may still not be its path.
 */
static void read_ar(struct fabric_smp *h, const struct fabric_node *n,
		    struct fabric_ar *ar)
{
	uint8_t buf[FABRIC_AR_INFO_BYTES];
	char why[sizeof(ar->why)], st[64];
	int status = 0, rc;

	if (!fabric_smp->read_ar_info) {
		fabric_ar_unknown(ar, "not read");
		return;
	}
	rc = fabric_smp->read_ar_info(h, n->dr_path, n->dr_hops, buf, &status);
	if (!rc) {
		fabric_ar_decode(buf, ar);
		return;
	}
	if (rc == -EREMOTEIO)
		snprintf(why, sizeof(why), "MAD status 0x%04x (%s)",
			 (unsigned)status & 0xffff,
			 fabric_mad_status_text((unsigned)status, st,
						sizeof(st)));
	else
		snprintf(why, sizeof(why), "no answer");
	fabric_ar_unknown(ar, why);
}

/* "adaptive routing: 3 on, 1 off, 76 unknown (no answer)": one line. */
static void ar_summary(const struct fabric_routes *r)
{
	size_t i, count[3] = { 0 };
	const char *why = NULL;

	for (i = 0; i < r->m->nnodes; i++)
		if (r->lft[i].valid) {
			count[r->lft[i].ar.state]++;
			if (r->lft[i].ar.state == FABRIC_AR_UNKNOWN && !why)
				why = r->lft[i].ar.why;
		}
	/* a warning while any table may not be its switch's path */
	if (count[FABRIC_AR_ON] || count[FABRIC_AR_UNKNOWN])
		log_warn("adaptive routing: %zu on, %zu off, %zu unknown%s%s%s",
			 count[FABRIC_AR_ON], count[FABRIC_AR_OFF],
			 count[FABRIC_AR_UNKNOWN], why ? " (first: " : "",
			 why ? why : "", why ? ")" : "");
	else if (count[FABRIC_AR_OFF])
		log_info("adaptive routing: off on all %zu switches",
			 count[FABRIC_AR_OFF]);
}

/* Every switch's table by directed route; a silent switch is named and
 * the rest still read. */
static int read_live(const struct fabric_args *a, struct fabric_routes *r,
		     struct fabric_findings *fs, struct fabric_scope *scope)
{
	static uint8_t ports[FABRIC_LFT_MAX_LID + 1];
	const struct fabric *m = r->m;
	struct fabric_smp *h = NULL;
	const struct fabric_node *n;
	size_t i, bad = 0;
	uint16_t top;
	int rc, st;

	rc = fabric_smp->open(a->common.ca, a->common.port,
			      (unsigned)(a->common.timeout_s * 1000),
			      SMP_RETRIES, &h);
	if (rc)
		return rc;
	fabric_smp_use_mkey(a, h);
	for (i = 0; i < m->nnodes && rc != -ENOMEM; i++) {
		n = m->nodes[i];
		if (n->type != FABRIC_NODE_SWITCH)
			continue;
		st = 0;
		rc = n->dr_hops < 0
			     ? -EINVAL
			     : fabric_smp->read_lft(h, n->dr_path, n->dr_hops,
						    &top, ports, &st);
		if (!rc)
			rc = fabric_routes_set(r, n, top, ports);
		if (!rc) {
			fabric_scope_tested(scope, FABRIC_PART_TABLES);
			read_ar(h, n, &r->lft[i].ar);
		} else if (rc != -ENOMEM) {
			bad++;
			rc = unread(scope, fs, n, rc, st);
		}
	}
	fabric_smp->close(h);
	ar_summary(r);
	if (bad)
		log_error("%zu switches' tables not read", bad);
	return rc == -ENOMEM ? rc : 0;
}

/* A dump without a switch's table: that switch is not tested. */
static int scope_dump(const struct fabric_routes *r, struct fabric_scope *scope,
		      struct fabric_findings *fs)
{
	struct fabric_gap g = { .part = FABRIC_PART_TABLES,
				.reason = "not-in-dump",
				.what = "the --lfts dump" };

	for (size_t i = 0; i < r->m->nnodes; i++) {
		const struct fabric_node *n = r->m->nodes[i];

		if (n->type != FABRIC_NODE_SWITCH)
			continue;
		if (r->lft[i].valid)
			fabric_scope_tested(scope, FABRIC_PART_TABLES);
		else if (!fabric_scope_untested(scope, fs, &n->ports[0], &g))
			return -ENOMEM;
	}
	return 0;
}

static json_t *lft_record(const struct fabric_node *n,
			  const struct fabric_lft *t)
{
	json_t *rec = record_new("lft"), *ports = json_array();
	char g[19];
	unsigned lid;

	for (lid = 0; ports && lid <= t->top; lid++)
		if (json_array_append_new(ports, json_integer(t->port[lid])))
			break;
	if (!rec || !ports || lid <= t->top ||
	    json_object_set_new(rec, "node", json_string(n->name)) ||
	    json_object_set_new(rec, "guid",
				json_string(record_guid_str(n->guid, g))) ||
	    json_object_set_new(rec, "lid", json_integer(n->lid)) ||
	    json_object_set_new(rec, "linear_fdb_top", json_integer(t->top)) ||
	    json_object_set_new(rec, "ports", ports) ||
	    json_object_set_new(
		    rec, "adaptive_routing",
		    json_string(fabric_ar_state_name(t->ar.state))) ||
	    (t->ar.state != FABRIC_AR_UNKNOWN &&
	     json_object_set_new(rec, "ar", fabric_ar_json(&t->ar)))) {
		json_decref(rec);
		return NULL;
	}
	return rec;
}

static int emit_lfts(struct record_writer *w, const struct fabric_routes *r)
{
	size_t i;
	int rc = 0;

	for (i = 0; w && i < r->m->nnodes && !rc; i++)
		if (r->lft[i].valid)
			rc = record_writer_emit_steal(
				w, lft_record(r->m->nodes[i], &r->lft[i]));
	return rc;
}

/* One line of a route, as ibtracert writes it. */
static void print_port(FILE *out, const struct fabric_port *p)
{
	const struct fabric_node *n = p->node;
	uint16_t lid = n->type == FABRIC_NODE_SWITCH ? n->lid : p->lid;

	/* ibtracert names a CA by its port GUID here */
	fprintf(out, "%s port {0x%016" PRIx64 "}[%d] lid %u-%u \"%s\"\n",
		fabric_node_type_name(n->type),
		n->type == FABRIC_NODE_SWITCH ? n->guid : p->guid, p->num, lid,
		lid, n->name);
}

static void print_end(FILE *out, const char *what, const struct fabric_port *p)
{
	const struct fabric_node *n = p->node;
	uint16_t lid = n->type == FABRIC_NODE_SWITCH ? n->lid : p->lid;

	fprintf(out, "%s %s {0x%016" PRIx64 "} portnum %d lid %u-%u \"%s\"\n",
		what, fabric_node_type_name(n->type), n->guid, p->num, lid, lid,
		n->name);
}

static const char *path_error(int rc)
{
	switch (rc) {
	case -ENOENT:
		return "no route (table entry 255)";
	case -ENOLINK:
		return "the table points at a down port";
	case -ELOOP:
		return "loop (more than 64 hops)";
	default:
		return "delivered to the wrong port";
	}
}

/* Prints one route; returns 0 when it arrives, 1 when not, 2 bad names. */
static int print_path(const struct fabric_routes *r, const char *a,
		      const char *b)
{
	static struct fabric_path p;
	const struct fabric_port *src = fabric_routes_endpoint(r, a);
	const struct fabric_port *dst = fabric_routes_endpoint(r, b);
	uint16_t dlid;
	int i, rc;

	if (!src || !dst) {
		log_error("%s: no such port (HOST:CA:PORT, 0xGUID or LID)",
			  src ? b : a);
		return 2;
	}
	dlid = dst->node->type == FABRIC_NODE_SWITCH ? dst->node->lid
						     : dst->lid;
	rc = fabric_route_path(r, src, dlid, &p);
	print_end(stdout, "From", src);
	for (i = 0; i < p.n; i++) {
		printf("[%d] -> ", p.hop[i].out->num);
		print_port(stdout, p.hop[i].in);
	}
	if (rc && p.stuck && !r->lft[p.stuck->idx].valid) {
		/* not a missing route: a table not read is not tested */
		printf("Route to LID %u not known: at %s: its forwarding table "
		       "was not read (not tested)\n",
		       dlid, p.stuck->name);
		return 1;
	}
	if (rc) {
		printf("No route to LID %u: at %s port %d: %s\n", dlid,
		       p.stuck ? p.stuck->name : "?", p.stuck_port,
		       path_error(rc));
		return 1;
	}
	print_end(stdout, "To",
		  dst->node->type == FABRIC_NODE_SWITCH ? &dst->node->ports[0]
							: dst);
	return 0;
}

struct paths_ctx {
	const struct fabric_routes *r;
	struct lines *in;
	int worst;
};

static int paths_line(void *arg, char *line)
{
	struct paths_ctx *c = arg;
	char *b = line + strcspn(line, " \t"), *end;
	int rc;

	if (*b)
		*b++ = '\0';
	b += strspn(b, " \t");
	end = b + strcspn(b, " \t");
	if (!*b || end[strspn(end, " \t")])
		return lines_error(c->in, "expected \"A B\" (two ports)");
	*end = '\0';
	rc = print_path(c->r, line, b);
	if (rc == 2)
		return lines_error(c->in, "expected ports of the fabric");
	if (rc > c->worst)
		c->worst = rc;
	return 0;
}

static int print_paths(const struct fabric_args *a,
		       const struct fabric_routes *r)
{
	struct paths_ctx c = { .r = r };
	struct lines in = { 0 };
	char err[512];
	int rc;

	if (a->path_from)
		return print_path(r, a->path_from, a->path_to);
	c.in = &in;
	rc = lines_open(&in, a->paths, err, sizeof(err));
	if (!rc)
		rc = lines_each(&in, paths_line, &c);
	lines_close(&in);
	if (rc) {
		log_error("%s", err);
		return IBP_EXIT_USAGE;
	}
	return c.worst;
}

static int load_tables(const struct fabric_args *a, struct fabric_routes *r,
		       struct fabric_findings *fs, struct fabric_scope *scope)
{
	char err[512];
	int rc;

	fabric_scope_init(a, scope);
	fabric_scope_use(scope, FABRIC_PART_TABLES);
	if (a->lfts) {
		rc = fabric_lft_load(r, a->lfts, err, sizeof(err));
		if (rc)
			log_error("%s", err);
		if (!rc && scope_dump(r, scope, fs))
			rc = -ENOMEM;
		return rc == -EINVAL ? IBP_EXIT_USAGE
		       : rc	     ? IBP_EXIT_RUNTIME
				     : IBP_EXIT_PASS;
	}
	rc = read_live(a, r, fs, scope);
	return rc ? IBP_EXIT_RUNTIME : IBP_EXIT_PASS;
}

int fabric_routes_run(const struct fabric_args *a)
{
	struct fabric_findings fs = { 0 };
	struct fabric_routes r = { 0 };
	struct fabric_scope scope;
	struct record_writer *w = NULL;
	struct fabric *m = NULL;
	int rc;

	if ((rc = fabric_load_model(a, &m)) ||
	    (rc = fabric_apply_map_file(a, m)))
		goto out;
	if (fabric_routes_init(&r, m)) {
		rc = IBP_EXIT_RUNTIME;
		goto out;
	}
	if ((rc = load_tables(a, &r, &fs, &scope)))
		goto out;
	if (a->path_from || a->paths) {
		rc = print_paths(a, &r);
		goto out;
	}
	if ((rc = fabric_open_records(a, &w)))
		goto out;
	rc = fabric_emit_links(w, m);
	if (!rc)
		rc = emit_lfts(w, &r);
	if (!rc)
		rc = fabric_route_check(&r, &fs);
	if (rc) {
		log_error("fabric routes failed: %s", strerror(-rc));
		record_writer_close(w);
		rc = IBP_EXIT_RUNTIME;
		goto out;
	}
	rc = fabric_finish_scope(a, w, "fabric routes", m, &fs, &scope);
out:
	fabric_findings_free(&fs);
	fabric_routes_free(&r);
	fabric_free(m);
	return rc;
}
