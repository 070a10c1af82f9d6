// SPDX-License-Identifier: MIT
/*
 * The ports of this node as sysfs tells them (common/sysfs.h's rooted
 * reader, rdma's GID/GUID reader), their `port` records, and the port
 * records of a reference inventory file.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rdma/port_sysfs.h"
#include "common/ibport.h"
#include "common/log.h"
#include "common/record.h"
#include "common/sysfs.h"
#include "node/node.h"

void node_parse_rate(const char *text, struct node_port *p)
{
	ib_rate_parse_sysfs(text, &p->nominal_gbps, &p->lanes, &p->speed);
}

/* An attribute of port (0: of the CA itself); "" when unreadable. */
static void read_attr(const char *root, const char *ca, int port,
		      const char *name, char *buf, size_t len)
{
	int ret = port ? sysfs_port_read(root, ca, port, name, buf, len)
		       : sysfs_ca_read(root, ca, name, buf, len);

	if (ret)
		buf[0] = '\0';
}

static void read_driver(const char *root, struct node_port *p)
{
	char rel[PATH_MAX], canon[PATH_MAX];
	const char *base;

	snprintf(rel, sizeof(rel), "class/infiniband/%s/device/driver", p->ca);
	if (sysfs_resolve(root, rel, canon, sizeof(canon)))
		return;
	base = strrchr(canon, '/');
	snprintf(p->driver, sizeof(p->driver), "%.63s",
		 base ? base + 1 : canon);
}

static void read_ca(const char *root, struct node_port *p)
{
	char text[64];

	read_attr(root, p->ca, 0, "fw_ver", p->fw_ver, sizeof(p->fw_ver));
	read_attr(root, p->ca, 0, "board_id", p->board_id, sizeof(p->board_id));
	read_attr(root, p->ca, 0, "hca_type", p->hca_type, sizeof(p->hca_type));
	read_attr(root, p->ca, 0, "node_guid", text, sizeof(text));
	if (text[0]) {
		/* "0c42:a103:00a1:b2c0" */
		char hex[20] = "";
		size_t k = 0;

		for (const char *s = text; *s && k < 16; s++)
			if (*s != ':')
				hex[k++] = *s;
		record_guid_parse(hex, &p->node_guid);
	}
	read_driver(root, p);
}

static void read_port(const char *root, struct node_port *p)
{
	struct dpath_port bp = { .port = p->port };
	char text[64];
	long lid;

	read_attr(root, p->ca, p->port, "state", text, sizeof(text));
	p->state = ib_state_from_sysfs(text);
	read_attr(root, p->ca, p->port, "phys_state", text, sizeof(text));
	p->phys_state = ib_state_from_sysfs(text);
	read_attr(root, p->ca, p->port, "rate", text, sizeof(text));
	node_parse_rate(text, p);
	read_attr(root, p->ca, p->port, "link_layer", p->link_layer,
		  sizeof(p->link_layer));
	if (!p->link_layer[0])
		snprintf(p->link_layer, sizeof(p->link_layer), "InfiniBand");
	read_attr(root, p->ca, p->port, "lid", text, sizeof(text));
	p->lid = sysfs_parse_long(text, 0, &lid) || lid < 0 || lid > INT_MAX
			 ? 0
			 : (int)lid;
	snprintf(bp.ca, sizeof(bp.ca), "%s", p->ca);
	if (dpath_port_sysfs_fill(root, &bp) == 0) {
		p->guid = bp.guid;
		snprintf(p->netdev, sizeof(p->netdev), "%s", bp.netdev);
	}
	if (strcmp(p->link_layer, "Ethernet") == 0)
		p->rate_gbps =
			dpath_netdev_speed_mbps(root, p->netdev) / 1000.0;
	else
		p->rate_gbps = ib_data_rate_gbps(p->speed, p->lanes);
}

struct scan_ctx {
	const char *root;
	struct node_port **v;
	int *n;
};

static int add_port(void *ctx, const char *ca, int port)
{
	struct scan_ctx *c = ctx;
	struct node_port *p = realloc(*c->v, (size_t)(*c->n + 1) * sizeof(*p));

	if (!p)
		return -ENOMEM;
	*c->v = p;
	p = &p[(*c->n)++];
	memset(p, 0, sizeof(*p));
	snprintf(p->ca, sizeof(p->ca), "%s", ca);
	p->port = port;
	read_ca(c->root, p);
	read_port(c->root, p);
	return 0;
}

int node_ports_scan(const char *root, const char *ca_filter,
		    struct node_port **ports, int *n)
{
	struct scan_ctx c = { root, ports, n };
	int ret;

	*ports = NULL;
	*n = 0;
	ret = sysfs_ib_ports(root, ca_filter, add_port, &c);
	for (int i = 0; i < *n; i++)
		(*ports)[i].rail = i;
	return ret;
}

json_t *node_port_ref(const char *host, const struct node_port *p)
{
	return record_port_ref(host, p->ca, p->port, p->guid);
}

json_t *node_port_record(const struct node_port *p)
{
	json_t *rec = record_new("port"), *f;
	char guid[19], nguid[19], width[8];

	record_guid_str(p->guid, guid);
	record_guid_str(p->node_guid, nguid);
	f = json_pack("{s:s, s:i, s:s, s:i, s:s, s:s, s:s, s:f, s:i, s:s, "
		      "s:s, s:s, s:f, s:s, s:s, s:s, s:s, s:s, s:s}",
		      "ca", p->ca, "port", p->port, "guid", guid, "lid", p->lid,
		      "link_layer", p->link_layer, "state",
		      ib_port_state_name(p->state), "phys_state",
		      ib_phys_state_name(p->phys_state), "rate_gbps",
		      p->rate_gbps, "rail", p->rail, "width",
		      p->lanes ? ib_width_name(p->lanes, width) : "unknown",
		      "speed", ib_speed_name(p->speed), "node_guid", nguid,
		      "nominal_gbps", p->nominal_gbps, "fw_ver", p->fw_ver,
		      "board_id", p->board_id, "hca_type", p->hca_type,
		      "driver", p->driver, "netdev", p->netdev, "tool", "node");
	json_object_update(rec, f);
	json_decref(f);
	return rec;
}
