// SPDX-License-Identifier: MIT
/*
 * xcvr_run.c: `ibproof fabric cables`: one `transceiver` record per module
 * and its findings. The modules come from ibdiagnet2.db_csv or
 * ibdiagnet2.cables (--from-ibdiagnet takes either), mlxlink
 * files, or (with neither) the live fabric through the CableInfo SMP seam;
 * a loaded or walked model names the ports and says which links are up.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/cli.h"
#include "common/clock.h"
#include "common/ibcage.h"
#include "common/log.h"
#include "common/record.h"
#include "fabric/fabric_report.h"
#include "fabric/fabric_run.h"
#include "fabric/phy_ber.h"
#include "fabric/xcvr_cableinfo.h"
#include "fabric/xcvr_judge.h"

struct cables {
	const struct fabric_args *a;
	struct fabric *m; /* may have no nodes (files alone) */
	struct record_writer *w;
	struct fabric_findings fs;
	struct xcvr_judge_params jp;
	struct hashmap seen; /* model port ids with a module record */
	size_t modules;
	struct fabric_scope scope; /* modules */
	/* the ports of the cage read last: one module, judged once */
	struct xcvr_port group[XCVR_MAX_SERVED];
	int ngroup;
	uint64_t group_guid;
	int group_cage;
};

/* The port a module sits in: from the model, else from the file's GUIDs. */
static void port_ref(struct cables *c, uint64_t node_guid, uint64_t port_guid,
		     int port, struct xcvr_port *p)
{
	struct fabric_node *n = fabric_find_guid(c->m, node_guid);
	struct fabric_port *fp = n ? fabric_port(n, port) : NULL;
	struct fabric_finding tmp = { 0 };
	char g[19];

	p->link_up = -1;
	if (fp) {
		fabric_finding_port(&tmp, fp);
		p->ref = tmp.refs[0];
		p->link_up = fp->valid	  ? fabric_port_up(fp)
			     : fp->remote ? 1
					  : -1;
		hashmap_put(&c->seen, (uint64_t)fp->id, 1);
		return;
	}
	memset(&p->ref, 0, sizeof(p->ref));
	snprintf(p->ref.name, sizeof(p->ref.name), "%s",
		 record_guid_str(node_guid, g));
	p->ref.guid = node_guid;
	p->ref.port = port;
	/* a switch's ports share its GUID; a CA port has its own */
	p->ref.type = port_guid && port_guid != node_guid ? FABRIC_NODE_CA
							  : FABRIC_NODE_SWITCH;
	p->ref.port_guid = p->ref.type == FABRIC_NODE_CA ? port_guid : 0;
}

/* The cage model of the switch a module's port is on, or NULL. */
static const struct ib_cage_model *cage_model(const struct cables *c,
					      const struct xcvr_port *p)
{
	const struct fabric_node *n = fabric_find_guid(c->m, p->ref.guid);

	return n && n->type == FABRIC_NODE_SWITCH
		       ? ib_cage_model_of(n->device_id, n->nports)
		       : NULL;
}

/* Is p in the cage whose module was read last? */
static bool same_cage(const struct cables *c, const struct xcvr_port *p)
{
	struct ib_cage_pos pos;

	if (!c->ngroup || p->ref.guid != c->group_guid)
		return false;
	ib_cage_position(cage_model(c, p), p->ref.port, &pos);
	return pos.cage && pos.cage == c->group_cage;
}

/* Judges the module of the pending cage once, then one record per port. */
static int flush_group(struct cables *c)
{
	int n = c->ngroup, rc;

	c->ngroup = 0;
	if (!n)
		return 0;
	rc = xcvr_judge_module(c->group, n, &c->jp, &c->fs);
	c->modules++;
	for (int i = 0; i < n; i++) /* each port's module read */
		fabric_scope_tested(&c->scope, FABRIC_PART_MODULES);
	for (int i = 0; !rc && c->w && i < n; i++)
		rc = record_writer_emit_steal(c->w, xcvr_record(&c->group[i]));
	return rc;
}

/*
 * A module read at one port. Ports of one cage of a switch the cage table
 * knows (common/ibcage.h) come one after another and are one module: each
 * gets its own lanes, the module is judged once for all of them.
 */
static int emit_module(struct cables *c, const struct xcvr_port *p)
{
	const struct ib_cage_model *m = cage_model(c, p);
	struct ib_cage_pos pos;
	int rc = 0;

	ib_cage_position(m, p->ref.port, &pos);
	if (c->ngroup && (!same_cage(c, p) || c->ngroup == XCVR_MAX_SERVED))
		rc = flush_group(c);
	if (rc)
		return rc;
	c->group[c->ngroup] = *p;
	if (pos.cage)
		c->group[c->ngroup].lanes =
			ib_cage_lane_mask(m, p->ref.port, p->info.lanes);
	c->ngroup++;
	c->group_guid = p->ref.guid;
	c->group_cage = pos.cage;
	return pos.cage ? 0 : flush_group(c);
}

/* ber: the port's BER figures (mlxlink -c), added to its record. */
static int emit_module_ber(struct cables *c, const struct xcvr_port *p,
			   json_t *ber)
{
	int rc = xcvr_judge(p, &c->jp, &c->fs);
	json_t *rec;

	c->modules++;
	fabric_scope_tested(&c->scope, FABRIC_PART_MODULES);
	if (!rc && c->w) {
		rec = xcvr_record(p);
		if (rec && ber)
			json_object_set(rec, "ber", ber);
		rc = record_writer_emit_steal(c->w, rec);
	}
	json_decref(ber);
	return rc;
}

/* The model's speed of the port a module sits in, unknown without one. */
static enum ib_speed model_speed(const struct cables *c,
				 const struct fabric_ref *ref)
{
	struct fabric_node *n = fabric_find_guid(c->m, ref->guid);
	struct fabric_port *fp = n ? fabric_port(n, ref->port) : NULL;

	return fp ? (enum ib_speed)fp->speed : IB_SPEED_UNKNOWN;
}

/* mlxlink -c in the same file: the BER figures, judged for the port and
 * its module (issue 35). */
static int mlxlink_ber(struct cables *c, const char *path,
		       const struct xcvr_port *p, json_t **ber)
{
	const struct xcvr_info *x = &p->info;
	struct phy_ber b;
	char err[600], where[256];
	int rc = phy_ber_load_mlxlink(path, &b, err, sizeof(err));

	*ber = NULL;
	if (rc) {
		log_error("%s", err);
		return rc;
	}
	if (x->present)
		snprintf(where, sizeof(where), "%s port %d (%s %s SN %s)",
			 p->ref.name, p->ref.port,
			 x->vendor[0] ? x->vendor : "?",
			 x->part_number[0] ? x->part_number : "?",
			 x->serial[0] ? x->serial : "?");
	else
		snprintf(where, sizeof(where), "%s port %d", p->ref.name,
			 p->ref.port);
	rc = phy_ber_judge(&b, model_speed(c, &p->ref), &p->ref, where, &c->fs);
	*ber = phy_ber_json(&b);
	return rc;
}

/* The node whose port (or, for a switch, itself) has this GUID. */
static struct fabric_node *port_guid_owner(const struct fabric *m,
					   uint64_t guid, int port)
{
	struct fabric_node *n = fabric_find_guid(m, guid);

	if (n)
		return n;
	for (size_t i = 0; i < m->nnodes; i++) {
		struct fabric_port *fp = fabric_port(m->nodes[i], port);

		if (fp && fp->guid == guid)
			return m->nodes[i];
	}
	return NULL;
}

/*
 * An ibdiagnet2.cables block names the port by its GUID alone: placed
 * through the model when it has the port, else by the GUID and the
 * block's port name.
 */
static void cables_port_ref(struct cables *c, const struct xcvr_row *row,
			    struct xcvr_port *p)
{
	struct fabric_node *n =
		port_guid_owner(c->m, row->port_guid, row->port);

	if (n) {
		port_ref(c, n->guid, row->port_guid, row->port, p);
		return;
	}
	p->link_up = -1;
	memset(&p->ref, 0, sizeof(p->ref));
	snprintf(p->ref.name, sizeof(p->ref.name), "%s",
		 row->port_name && row->port_name[0]
			 ? row->port_name
			 : record_guid_str(row->port_guid, (char[19]){ 0 }));
	p->ref.guid = row->port_guid;
	p->ref.port = row->port;
	p->ref.type = FABRIC_NODE_UNKNOWN;
}

static int dbcsv_row(void *ctx, const struct xcvr_row *row)
{
	struct cables *c = ctx;
	struct xcvr_port p = { .info = row->info };

	if (!row->node_guid) /* ibdiagnet2.cables */
		cables_port_ref(c, row, &p);
	else
		port_ref(c, row->node_guid, row->port_guid, row->port, &p);
	return emit_module(c, &p);
}

/* "leaf01:17=FILE", "0x0002c903000010:1=FILE" or FILE (port unknown). */
static int mlxlink_file(struct cables *c, const char *arg)
{
	const char *eq = strchr(arg, '='), *path = eq ? eq + 1 : arg;
	struct xcvr_port p = { .link_up = -1 };
	char err[600], where[128];
	int rc = xcvr_load_mlxlink(path, &p.info, &p.link_up, err, sizeof(err));

	if (rc) {
		log_error("%s", err);
		return rc;
	}
	snprintf(where, sizeof(where), "%.*s", eq ? (int)(eq - arg) : 0, arg);
	char *colon = strrchr(where, ':');
	long port = 0;
	uint64_t guid = 0;

	if (colon) {
		*colon = '\0';
		cli_str_to_long(colon + 1, 1, 255, &port);
	}
	if (!record_guid_parse(where, &guid) && guid) {
		int up = p.link_up;

		port_ref(c, guid, 0, (int)port, &p);
		p.link_up = up >= 0 ? up : p.link_up;
	} else {
		snprintf(p.ref.name, sizeof(p.ref.name), "%.95s",
			 where[0] ? where : path);
		p.ref.port = (int)port;
		p.ref.type = FABRIC_NODE_UNKNOWN;
		for (size_t i = 0; i < c->m->nnodes && where[0]; i++)
			if (!strcmp(c->m->nodes[i]->name, where) && port) {
				int up = p.link_up;

				port_ref(c, c->m->nodes[i]->guid, 0, (int)port,
					 &p);
				p.link_up = up >= 0 ? up : p.link_up;
			}
	}
	json_t *ber;

	rc = mlxlink_ber(c, path, &p, &ber);
	return rc ? rc : emit_module_ber(c, &p, ber);
}

/* A module in scope that was not read: its not-tested finding. */
static int untested_module(struct cables *c, const struct fabric_port *fp,
			   const char *reason, const char *why)
{
	struct fabric_gap g = {
		.part = FABRIC_PART_MODULES,
		.reason = reason,
		.what = strcmp(reason, "not-in-file") ? "CableInfo (0xFF60)"
						      : "the module file",
		.detail = why && why[0] ? why : NULL,
	};

	return fabric_scope_untested(&c->scope, &c->fs, fp, &g) ? 0 : -ENOMEM;
}

/*
 * A cabled model port the db_csv has no row for: its record says why, and
 * its module is not tested (one not-tested finding each, grouped in the
 * text).
 */
static int unread_ports(struct cables *c, const char *why)
{
	for (size_t i = 0; i < c->m->nnodes; i++) {
		struct fabric_node *n = c->m->nodes[i];

		for (int j = 1; j <= n->nports; j++) {
			struct fabric_port *fp = &n->ports[j];
			struct xcvr_port p = { .link_up = -1 };
			uint64_t v;
			int rc;

			if (!fp->remote ||
			    hashmap_get(&c->seen, (uint64_t)fp->id, &v))
				continue;
			port_ref(c, n->guid, fp->guid, j, &p);
			p.info.source = "ibdiagnet";
			snprintf(p.info.why, sizeof(p.info.why), "%s", why);
			rc = c->w ? record_writer_emit_steal(c->w,
							     xcvr_record(&p))
				  : 0;
			if (!rc)
				rc = untested_module(c, fp, "not-in-file", why);
			if (rc)
				return rc;
		}
	}
	return 0;
}

/* Every cabled port of the walked fabric, through the CableInfo seam. */
static int live_modules(struct cables *c)
{
	double t = c->a->common.timeout_s;
	double deadline = t > 0 ? clock_mono_now() + t : 0; /* the whole run */
	struct fabric_smp *h;
	int rc = fabric_smp->open(c->a->common.ca, c->a->common.port, 1000, 1,
				  &h); /* the deadline is the run's */

	if (rc)
		return rc;
	fabric_smp_use_mkey(c->a, h);
	for (size_t i = 0; !rc && i < c->m->nnodes; i++) {
		struct fabric_node *n = c->m->nodes[i];

		for (int j = 1; !rc && j <= n->nports; j++) {
			struct xcvr_cableinfo ci = {
				.ops = fabric_smp,
				.h = h,
				.path = n->dr_path,
				.hops = n->dr_hops,
				.port = j,
				.deadline = deadline,
				.mad_timeout_ms = 1000,
			};
			struct xcvr_image img;
			struct xcvr_port p;
			int read;

			if (!n->ports[j].remote || n->dr_hops < 0)
				continue;
			port_ref(c, n->guid, n->ports[j].guid, j, &p);
			if (same_cage(c, &p)) { /* its module is read */
				p.info = c->group[0].info;
			} else {
				read = xcvr_read_image(xcvr_cableinfo_read, &ci,
						       &img);
				xcvr_decode(&img, &p.info);
				p.info.source = "cableinfo-smp";
				if (read && read != -ENODEV &&
				    read != -ENOTSUP) {
					/* silence or refusal: not tested;
					 * the record still says why (no
					 * module, no EEPROM, no cage:
					 * nothing to test) */
					rc = c->w ? record_writer_emit_steal(
							    c->w,
							    xcvr_record(&p))
						  : 0;
					if (!rc)
						rc = untested_module(
							c, &n->ports[j],
							read == -ETIMEDOUT
								? "no-answer"
								: "mad-status",
							img.why);
					continue;
				}
			}
			rc = emit_module(c, &p);
		}
	}
	fabric_smp->close(h);
	return rc;
}

static int gather(struct cables *c)
{
	const struct fabric_args *a = c->a;
	char err[600];
	int rc = 0;

	if (a->from_ibdiagnet) {
		bool blocks = xcvr_is_cables_file(a->from_ibdiagnet);

		rc = (blocks ? xcvr_load_cables : xcvr_load_ibdiagnet)(
			a->from_ibdiagnet, dbcsv_row, c, err, sizeof(err));
		if (rc == -EINVAL || rc == -E2BIG || rc == -ENOENT)
			log_error("%s", err);
		if (!rc)
			rc = unread_ports(c,
					  blocks ? "no block for the port in "
						   "the ibdiagnet2.cables"
						 : "no CABLE_INFO row in the "
						   "ibdiagnet2.db_csv");
	}
	for (int i = 0; !rc && i < a->n_mlxlink; i++)
		rc = mlxlink_file(c, a->from_mlxlink[i]);
	if (!rc && !a->from_ibdiagnet && !a->n_mlxlink)
		rc = live_modules(c);
	return rc ? rc : flush_group(c);
}

int fabric_cables_run(const struct fabric_args *a)
{
	struct cables c = { .a = a,
			    .jp = { .approved_vendors = a->approved_vendors } };
	bool files = a->from_ibdiagnet || a->n_mlxlink;
	int rc;

	if (files && !a->topology && !a->load_cache) {
		c.m = fabric_new();
		if (!c.m)
			return IBP_EXIT_RUNTIME;
		snprintf(c.m->source, sizeof(c.m->source), "files");
	} else if ((rc = fabric_load_model(a, &c.m)) ||
		   (rc = fabric_apply_map_file(a, c.m))) {
		goto out;
	}
	if ((rc = fabric_open_records(a, &c.w)))
		goto out;
	fabric_scope_init(a, &c.scope);
	fabric_scope_use(&c.scope, FABRIC_PART_MODULES);
	rc = gather(&c);
	if (rc) {
		log_error("fabric cables failed: %s", strerror(-rc));
		record_writer_close(c.w);
		rc = rc == -EINVAL || rc == -E2BIG || rc == -ENOENT
			     ? IBP_EXIT_USAGE
			     : IBP_EXIT_RUNTIME;
		goto out;
	}
	rc = fabric_finish_scope(a, c.w, "fabric cables", c.m, &c.fs, &c.scope);
	if (!a->common.records || strcmp(a->common.records, "-"))
		printf("fabric cables: %zu modules\n", c.modules);
out:
	hashmap_free(&c.seen);
	fabric_findings_free(&c.fs);
	fabric_free(c.m);
	return rc;
}
