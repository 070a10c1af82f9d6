// SPDX-License-Identifier: MIT
/*
 * fabric_active.c: links the subnet manager never activated. A cable that
 * trained (both ends LinkUp) but whose ports sit in INIT or ARMED carries
 * no traffic: no SM ran, the SM failed, or it gave up on the port (a
 * partition or configuration fault). The cable is fine; the SM is what to
 * check. Pure: model in, findings out.
 */
#include <errno.h>
#include <stdio.h>

#include "fabric/fabric_diff.h"

static bool linkup(const struct fabric_port *p)
{
	return p && p->valid && p->phys_state == IB_PHYS_STATE_LINKUP;
}

static bool active(const struct fabric_port *p)
{
	return p->state == IB_PORT_STATE_ACTIVE ||
	       p->state == IB_PORT_STATE_ACTIVE_DEFER;
}

/* Both ends LinkUp, one of them INIT or ARMED. */
static bool not_activated(const struct fabric_port *p)
{
	return linkup(p) && linkup(p->remote) &&
	       (!active(p) || !active(p->remote)) &&
	       p->state > IB_PORT_STATE_DOWN &&
	       p->remote->state > IB_PORT_STATE_DOWN;
}

static struct fabric_finding *add(struct fabric_findings *out,
				  const struct fabric_port *p)
{
	struct fabric_finding *f =
		fabric_finding_add(out, "fail", "link-not-active", "check-sm");

	if (!f)
		return NULL;
	fabric_finding_port(f, p);
	fabric_finding_port(f, p->remote);
	fabric_finding_str(f, "a_state", "%s/%s", ib_port_state_name(p->state),
			   ib_phys_state_name(p->phys_state));
	fabric_finding_str(f, "b_state", "%s/%s",
			   ib_port_state_name(p->remote->state),
			   ib_phys_state_name(p->remote->phys_state));
	return f;
}

static int add_link(struct fabric_findings *out, const struct fabric_port *p)
{
	struct fabric_finding *f = add(out, p);
	char pa[128], pb[128];

	if (!f)
		return -ENOMEM;
	fabric_finding_msg(
		f,
		"%s - %s is LinkUp but %s/%s: the subnet manager "
		"has not activated it, so it carries no traffic; "
		"the cable trained: check the SM and its log for "
		"this port (partition, M_Key, a failed sweep)",
		fabric_port_str(p, pa, sizeof(pa)),
		fabric_port_str(p->remote, pb, sizeof(pb)),
		ib_port_state_name(active(p) ? p->remote->state : p->state),
		ib_phys_state_name(IB_PHYS_STATE_LINKUP));
	return 0;
}

/* No port ACTIVE anywhere: one finding for the fabric, not one per link. */
static int add_fabric(struct fabric_findings *out,
		      const struct fabric_port *first, size_t links)
{
	struct fabric_finding *f = add(out, first);

	if (!f)
		return -ENOMEM;
	fabric_finding_str(f, "scope", "fabric");
	fabric_finding_num(f, "links", (long long)links);
	fabric_finding_msg(f,
			   "no port of the fabric is ACTIVE: %zu links are "
			   "LinkUp but INIT or ARMED: no subnet manager has "
			   "configured the fabric; start the SM (opensm, UFM) "
			   "or check why it stopped, then check again",
			   links);
	return 0;
}

int fabric_check_active(const struct fabric *m, struct fabric_findings *out)
{
	const struct fabric_port *p, *first = NULL;
	size_t i, links = 0, n_active = 0;
	int j, rc = 0;

	for (i = 0; i < m->nnodes; i++)
		for (j = 1; j <= m->nodes[i]->nports; j++) {
			p = &m->nodes[i]->ports[j];
			n_active += p->valid && active(p);
			if (p->remote && p->id < p->remote->id &&
			    not_activated(p) && !links++)
				first = p;
		}
	if (!links)
		return 0;
	if (!n_active)
		return add_fabric(out, first, links);
	for (i = 0; i < m->nnodes && !rc; i++)
		for (j = 1; j <= m->nodes[i]->nports && !rc; j++) {
			p = &m->nodes[i]->ports[j];
			if (p->remote && p->id < p->remote->id &&
			    not_activated(p))
				rc = add_link(out, p);
		}
	return rc;
}
