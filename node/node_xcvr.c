// SPDX-License-Identifier: MIT
/*
 * node_xcvr.c: the modules of this node's ports, as far as the host can
 * read them. An Ethernet/RoCE port's module comes from the kernel's module
 * EEPROM API (fabric/xcvr_ethtool.h: netlink by page and bank, the ioctl as
 * fallback), bounded by a timeout. An InfiniBand port's is not readable
 * from the host: mlx5's IPoIB netdevs have no module EEPROM ops, so
 * `ethtool -m ib0` fails by design; it is read in-band (`fabric cables`) or
 * from ibdiagnet/mlxlink files.
 */
#include <stdio.h>
#include <string.h>

#include "common/record.h"
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

/* The module of an Ethernet/RoCE port through the kernel's API. */
static json_t *ethernet_record(const struct node_port *p,
			       const struct xcvr_ethtool_ops *ops,
			       double timeout_s)
{
	struct xcvr_port xp = { .link_up = node_port_usable(p) };
	json_t *rec;

	xcvr_ethtool_module(ops, p->netdev, timeout_s, &xp.info);
	rec = xcvr_record(&xp);
	if (rec && json_object_set_new(rec, "port",
				       node_port_ref(record_hostname(), p))) {
		json_decref(rec);
		return NULL;
	}
	return rec;
}

json_t *node_xcvr_record(const struct node_port *p,
			 const struct xcvr_ethtool_ops *ops, double timeout_s)
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
	return ethernet_record(p, ops, timeout_s);
}
