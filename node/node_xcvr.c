// SPDX-License-Identifier: MIT
/*
 * node_xcvr.c: the modules of this node's ports, as far as the host can
 * read them. An Ethernet/RoCE port's module comes from the kernel's module
 * EEPROM API (fabric/xcvr_ethtool.h: netlink by page and bank, the ioctl as
 * fallback), bounded by a timeout; one it could not read is not tested. An InfiniBand port's is not readable
 * from the host: mlx5's IPoIB netdevs have no module EEPROM ops, so
 * `ethtool -m ib0` fails by design; it is read in-band (`fabric cables`) or
 * from ibdiagnet/mlxlink files.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "common/record.h"
#include "fabric/fabric_report.h"
#include "fabric/xcvr_ethtool.h"
#include "fabric/xcvr_judge.h"
#include "node/node.h"

/* A record of a module that was not read, saying why. */
static json_t *unread_record(const struct node_port *p, const char *source,
			     const char *why)
{
	json_t *rec = record_new("transceiver");

	if (rec && (json_object_set_new(rec, "port",
					node_port_ref(record_hostname(), p)) ||
		    json_object_set_new(rec, "source", json_string(source)) ||
		    json_object_set_new(rec, "present", json_false()) ||
		    json_object_set_new(rec, "unreadable", json_string(why)))) {
		json_decref(rec);
		return NULL;
	}
	return rec;
}

/*
 * The module's fail and warn findings (fabric/xcvr_judge.c: alarm,
 * warning, Rx power low, unapproved), about this host's port.
 */
static void judge_module(const struct node_port *p, const struct xcvr_port *xp,
			 json_t *findings)
{
	struct fabric_findings fs = { 0 };

	if (findings && xp->info.present && !xcvr_judge(xp, NULL, &fs))
		for (size_t i = 0; i < fs.n; i++) {
			json_t *f;

			if (!strcmp(fs.v[i].severity, "info"))
				continue;
			f = fabric_finding_record(&fs.v[i]);
			if (f && !json_object_set_new(
					 f, "subject",
					 node_port_ref(record_hostname(), p)))
				json_array_append(findings, f);
			json_decref(f);
		}
	fabric_findings_free(&fs);
}

/* A module in scope that the kernel did not return: not tested. */
static void module_not_tested(const struct node_port *p, const char *why,
			      json_t *findings)
{
	json_t *ev = json_pack("{s:s, s:s, s:s}", "part", "modules", "reason",
			       "unreadable", "why", why);
	json_t *f = record_finding(
		"warn", "not-tested", node_port_ref(record_hostname(), p), ev,
		"retest",
		"%s port %d (%s): its module was not read, so not judged: %s; "
		"read it with ethtool -m %s",
		p->ca, p->port, p->netdev, why, p->netdev);

	if (f)
		json_array_append_new(findings, f);
}

/* The module of an Ethernet/RoCE port through the kernel's API. A driver
 * without module EEPROM ops (-EOPNOTSUPP: a virtual or backplane port) has
 * no module to judge; any other failure leaves one untested. */
static json_t *ethernet_record(const struct node_port *p,
			       const struct xcvr_ethtool_ops *ops,
			       double timeout_s, json_t *findings,
			       struct node_module_scope *scope)
{
	struct xcvr_port xp = { .link_up = node_port_usable(p) };
	json_t *rec;
	int rc;

	/* "gpu017 mlx5_2" port 1, as the judge's messages name it */
	snprintf(xp.ref.name, sizeof(xp.ref.name), "%.40s %.40s",
		 record_hostname(), p->ca);
	xp.ref.port = p->port;
	xp.ref.guid = p->node_guid;
	xp.ref.port_guid = p->guid;
	xp.ref.type = FABRIC_NODE_CA;
	rc = xcvr_ethtool_module(ops, p->netdev, timeout_s, &xp.info);
	if (rc != -EOPNOTSUPP && scope) {
		scope->in_scope++;
		scope->tested += xp.info.present;
	}
	if (rc != -EOPNOTSUPP && !xp.info.present && findings)
		module_not_tested(p, xp.info.why, findings);
	judge_module(p, &xp, findings);
	rec = xcvr_record(&xp);
	if (rec && json_object_set_new(rec, "port",
				       node_port_ref(record_hostname(), p))) {
		json_decref(rec);
		return NULL;
	}
	return rec;
}

json_t *node_xcvr_record(const struct node_port *p,
			 const struct xcvr_ethtool_ops *ops, double timeout_s,
			 json_t *findings, struct node_module_scope *scope)
{
	char why[256];

	if (!strcmp(p->link_layer, "InfiniBand"))
		return unread_record(
			p, "node",
			"an InfiniBand port's module is not readable from "
			"the host (IPoIB netdevs have no module EEPROM ops); "
			"read it with ibproof fabric cables, ibdiagnet or "
			"mlxlink");
	if (!p->netdev[0]) {
		snprintf(why, sizeof(why),
			 "%s port %d: no netdev, so no module EEPROM API to "
			 "ask",
			 p->ca, p->port);
		return unread_record(p, "ethtool-netlink", why);
	}
	if (!ops) {
		snprintf(why, sizeof(why),
			 "%s: not read (the ports come from --sysfs-root, "
			 "not from this host)",
			 p->netdev);
		return unread_record(p, "ethtool-netlink", why);
	}
	return ethernet_record(p, ops, timeout_s, findings, scope);
}
