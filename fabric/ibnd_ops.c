// SPDX-License-Identifier: MIT
/*
 * ibnd_ops.c: every libibnetdisc (ibnd_*) call of ibproof. Walks the fabric
 * (or loads an ibnetdiscover cache) and copies it into the plain model.
 * Never hands ibnd a LID-routed start: ibsim drops mixed LID/DR SMPs.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <infiniband/ibnetdisc.h>

#include "common/log.h"
#include "fabric/fabric_ops.h"
#include "fabric/fabric_portinfo.h"

static enum fabric_node_type node_type(int ibnd_type)
{
	switch (ibnd_type) {
	case IB_NODE_SWITCH:
		return FABRIC_NODE_SWITCH;
	case IB_NODE_CA:
		return FABRIC_NODE_CA;
	case IB_NODE_ROUTER:
		return FABRIC_NODE_ROUTER;
	default:
		return FABRIC_NODE_UNKNOWN;
	}
}

static int copy_node(struct fabric *f, ibnd_node_t *in)
{
	struct fabric_node *n;
	struct fabric_port *p;
	const uint8_t *cap;
	int i;

	n = fabric_add_node(f, in->guid, node_type(in->type), in->nodedesc,
			    in->numports);
	if (!n)
		return -errno;
	n->device_id = fabric_nodeinfo_device_id(in->info);
	if (in->path_portid.drpath.cnt >= 0 &&
	    in->path_portid.drpath.cnt < (int)sizeof(n->dr_path)) {
		n->dr_hops = in->path_portid.drpath.cnt;
		memcpy(n->dr_path, in->path_portid.drpath.p,
		       (size_t)n->dr_hops + 1);
	}
	for (i = 0; i <= in->numports; i++) {
		if (!in->ports[i])
			continue;
		p = &n->ports[i];
		p->guid = in->ports[i]->guid;
		p->lid = in->ports[i]->base_lid;
		cap = n->type == FABRIC_NODE_SWITCH && in->ports[0]
			      ? in->ports[0]->info
			      : in->ports[i]->info;
		fabric_portinfo_decode(in->ports[i]->info, cap, p);
		/* an answered PortInfo has a PortState (1-5); ibnd leaves
		 * the info zero where the query went unanswered */
		if (!p->state)
			p->info_unread = true;
	}
	n->lid = n->type == FABRIC_NODE_SWITCH && in->ports[0]
			 ? in->ports[0]->base_lid
			 : 0;
	for (i = 1; i <= in->numports && !n->lid; i++)
		if (in->ports[i])
			n->lid = in->ports[i]->base_lid;
	return 0;
}

static int copy_links(struct fabric *f, ibnd_fabric_t *in)
{
	struct fabric_node *n, *rn;
	ibnd_node_t *node;
	ibnd_port_t *p;
	int i;

	for (node = in->nodes; node; node = node->next) {
		n = fabric_find_guid(f, node->guid);
		for (i = 1; i <= node->numports; i++) {
			p = node->ports[i];
			if (!p || !p->remoteport)
				continue;
			rn = fabric_find_guid(f, p->remoteport->node->guid);
			if (!rn ||
			    fabric_connect(&n->ports[i],
					   &rn->ports[p->remoteport->portnum]))
				return -EPROTO;
		}
	}
	return 0;
}

static int copy_fabric(ibnd_fabric_t *in, const char *source,
		       struct fabric **out)
{
	struct fabric *f = fabric_new();
	ibnd_node_t *node;
	int rc = 0;

	if (!f)
		return -ENOMEM;
	for (node = in->nodes; node && !rc; node = node->next)
		rc = copy_node(f, node);
	if (!rc)
		rc = copy_links(f, in);
	if (rc) {
		log_error("fabric model: copying %s failed: %s", source,
			  strerror(-rc));
		fabric_free(f);
		return rc;
	}
	snprintf(f->source, sizeof(f->source), "%s", source);
	*out = f;
	return 0;
}

static int ibnd_discover(const struct fabric_disc_params *p,
			 struct fabric **out)
{
	struct ibnd_config cfg = { 0 };
	ibnd_fabric_t *in;
	int rc;

	cfg.timeout_ms = p->timeout_ms;
	cfg.mkey = p->mkey; /* never logged */
	in = ibnd_discover_fabric((char *)p->ca, p->port, NULL, &cfg);
	if (!in) {
		log_error("%s port %d: ibnd_discover_fabric failed",
			  p->ca ? p->ca : "first CA", p->port);
		return -EIO;
	}
	rc = copy_fabric(in, "live", out);
	if (!rc && p->cache_out &&
	    ibnd_cache_fabric(in, p->cache_out, IBND_CACHE_FABRIC_FLAG_DEFAULT))
		log_warn("%s: ibnd_cache_fabric failed", p->cache_out);
	ibnd_destroy_fabric(in);
	return rc;
}

static int ibnd_load(const char *path, struct fabric **out)
{
	ibnd_fabric_t *in = ibnd_load_fabric(path, 0);
	int rc;

	if (!in) {
		log_error("%s: ibnd_load_fabric failed (not an ibnetdiscover "
			  "cache?)",
			  path);
		return -EINVAL;
	}
	rc = copy_fabric(in, "cache", out);
	ibnd_destroy_fabric(in);
	return rc;
}

const struct fabric_disc_ops fabric_ibnd_ops = {
	.discover = ibnd_discover,
	.load_cache = ibnd_load,
};
