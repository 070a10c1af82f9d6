// SPDX-License-Identifier: MIT
/*
 * Pure judgement of a node's ports against what is expected of them: the
 * reference inventory, --expect-ports/--expect-rate, or else the node's own
 * best port of the same board. Ports in, finding records out.
 */
#include <stdio.h>
#include <string.h>

#include "rdma/port_sysfs.h"
#include "common/ibport.h"
#include "common/record.h"
#include "node/node.h"

bool node_port_usable(const struct node_port *p)
{
	return (p->state == IB_PORT_STATE_ACTIVE ||
		p->state == IB_PORT_STATE_ACTIVE_DEFER) &&
	       (p->phys_state == IB_PHYS_STATE_LINKUP ||
		p->phys_state == IB_PHYS_STATE_UNKNOWN);
}

static void add(json_t *findings, json_t *f, int *n_fail)
{
	if (!f)
		return;
	json_array_append_new(findings, f);
	(*n_fail)++;
}

static const char *down_why(const struct node_port *p)
{
	if (p->phys_state == IB_PHYS_STATE_DISABLED)
		return "Disabled: someone turned the port off "
		       "(ibportstate ... enable)";
	if (p->phys_state == IB_PHYS_STATE_POLLING ||
	    p->phys_state == IB_PHYS_STATE_SLEEP)
		return "no cable or nothing at the far end: reseat or "
		       "replace the cable, check the switch port";
	return "the link is not up: reseat the cable";
}

/* The cable trained (LinkUp) but the SM left the port INIT or ARMED. */
static bool not_activated(const struct node_port *p)
{
	return p->phys_state == IB_PHYS_STATE_LINKUP &&
	       (p->state == IB_PORT_STATE_INIT ||
		p->state == IB_PORT_STATE_ARMED);
}

/* A port that is not usable: its state in the finding; why says what to
 * do. */
static json_t *state_finding(const char *host, const struct node_port *p,
			     const char *category, const char *action,
			     const char *why)
{
	char s[96];

	snprintf(s, sizeof(s), "%s port %d %s/%s", p->ca, p->port,
		 ib_port_state_name(p->state),
		 ib_phys_state_name(p->phys_state));
	return record_finding("fail", category, node_port_ref(host, p),
			      json_pack("{s:s, s:s, s:s}", "short", s, "state",
					ib_port_state_name(p->state),
					"phys_state",
					ib_phys_state_name(p->phys_state)),
			      action, "%s: %s", s, why);
}

static json_t *link_not_active(const char *host, const struct node_port *p)
{
	return state_finding(host, p, "link-not-active", "check-sm",
			     "the cable trained but the subnet manager has "
			     "not activated the port, so it carries no "
			     "traffic: check the SM (running? its log for "
			     "this port); the cable is not the fault");
}

static json_t *port_down(const char *host, const struct node_port *p)
{
	return state_finding(host, p, "port-down", "reseat", down_why(p));
}

static json_t *width_low(const char *host, const struct node_port *p, int want,
			 const char *from)
{
	char s[96], w[8], x[8];

	snprintf(s, sizeof(s), "%s port %d at %s width", p->ca, p->port,
		 ib_width_name(p->lanes, w));
	return record_finding("fail", "degraded-width", node_port_ref(host, p),
			      json_pack("{s:s, s:s, s:s, s:s}", "short", s,
					"width", w, "expected",
					ib_width_name(want, x), "from", from),
			      "replace-cable",
			      "%s, expected %s (%s): "
			      "replace the cable or reseat it",
			      s, x, from);
}

static json_t *speed_low(const char *host, const struct node_port *p,
			 enum ib_speed want, const char *from)
{
	char s[96];

	snprintf(s, sizeof(s), "%s port %d at %s speed", p->ca, p->port,
		 ib_speed_name(p->speed));
	return record_finding("fail", "degraded-speed", node_port_ref(host, p),
			      json_pack("{s:s, s:s, s:s, s:s}", "short", s,
					"speed", ib_speed_name(p->speed),
					"expected", ib_speed_name(want), "from",
					from),
			      "replace-cable",
			      "%s, expected %s (%s): "
			      "replace the cable or reseat it",
			      s, ib_speed_name(want), from);
}

static json_t *rate_low(const char *host, const struct node_port *p,
			double want)
{
	char s[96];

	snprintf(s, sizeof(s), "%s port %d at %.4g Gb/s", p->ca, p->port,
		 p->rate_gbps);
	return record_finding("fail", "degraded-speed", node_port_ref(host, p),
			      json_pack("{s:s, s:f, s:f, s:s}", "short", s,
					"rate_gbps", p->rate_gbps,
					"expected_gbps", want, "from",
					"--expect-rate"),
			      "replace-cable",
			      "%s, expected at least %.4g "
			      "Gb/s (--expect-rate): replace the cable or "
			      "reseat it",
			      s, want);
}

static const struct node_port *find(const struct node_port *v, int n,
				    const char *ca, int port)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(v[i].ca, ca) && (port == 0 || v[i].port == port))
			return &v[i];
	return NULL;
}

static bool same_model(const struct node_port *a, const struct node_port *b)
{
	return !strcmp(a->board_id, b->board_id) &&
	       !strcmp(a->hca_type, b->hca_type) &&
	       !strcmp(a->link_layer, b->link_layer);
}

/* The node's own best usable port of the same model: its width, speed. */
static void peers_best(const struct node_port *v, int n,
		       const struct node_port *p, int *lanes,
		       enum ib_speed *speed)
{
	*lanes = 0;
	*speed = IB_SPEED_UNKNOWN;
	for (int i = 0; i < n; i++) {
		if (!node_port_usable(&v[i]) || !same_model(&v[i], p))
			continue;
		if (v[i].lanes > *lanes)
			*lanes = v[i].lanes;
		if (v[i].speed > *speed)
			*speed = v[i].speed;
	}
}

static void judge_rate(const char *host, const struct node_port *ports, int n,
		       const struct node_port *p, const struct node_expect *ex,
		       json_t *out, int *nf)
{
	const struct node_port *r = find(ex->ref, ex->n_ref, p->ca, p->port);
	const char *from = r ? "the reference inventory"
			     : "the best port of this node's same HCA model";
	enum ib_speed speed;
	int lanes;

	if (ex->min_rate_gbps > 0) {
		if (p->rate_gbps < ex->min_rate_gbps)
			add(out, rate_low(host, p, ex->min_rate_gbps), nf);
		return;
	}
	if (r) {
		lanes = r->lanes;
		speed = r->speed;
	} else if (ex->n_ref) {
		return; /* not in the reference: nothing to compare with */
	} else {
		peers_best(ports, n, p, &lanes, &speed);
	}
	if (p->lanes && lanes && p->lanes < lanes)
		add(out, width_low(host, p, lanes, from), nf);
	if (p->speed && speed && p->speed < speed)
		add(out, speed_low(host, p, speed, from), nf);
}

static json_t *fw_mismatch(const char *host, const struct node_port *p,
			   const struct node_port *r)
{
	char s[160];

	snprintf(s, sizeof(s), "%s firmware %s", p->ca, p->fw_ver);
	return record_finding("fail", "firmware-mismatch",
			      node_port_ref(host, p),
			      json_pack("{s:s, s:s, s:s}", "short", s, "fw_ver",
					p->fw_ver, "expected", r->fw_ver),
			      "drain-node",
			      "%s, the reference has %s: "
			      "flash the reference firmware",
			      s, r->fw_ver);
}

static json_t *port_missing(const char *host, const struct node_port *r)
{
	char s[96];

	snprintf(s, sizeof(s), "%s port %d missing", r->ca, r->port);
	return record_finding("fail", "port-missing", node_port_ref(host, r),
			      json_pack("{s:s}", "short", s), "drain-node",
			      "%s: the reference inventory has it; check "
			      "that the HCA is seated and its driver loaded",
			      s);
}

static json_t *too_few(const char *host, int n, int want)
{
	char s[96];

	snprintf(s, sizeof(s), "%d of %d expected ports", n, want);
	return record_finding("fail", "port-missing",
			      json_pack("{s:s}", "host", host),
			      json_pack("{s:s, s:i, s:i}", "short", s, "ports",
					n, "expected", want),
			      "drain-node",
			      "%s present (--expect-ports): "
			      "check that every HCA is seated and its driver "
			      "loaded",
			      s);
}

static void judge_reference(const char *host, const struct node_port *ports,
			    int n, const struct node_expect *ex, json_t *out,
			    int *nf)
{
	for (int i = 0; i < ex->n_ref; i++) {
		const struct node_port *r = &ex->ref[i];
		const struct node_port *p = find(ports, n, r->ca, r->port);

		if (!p) {
			add(out, port_missing(host, r), nf);
			continue;
		}
		/* firmware once per CA: on its first port of the reference */
		if (find(ex->ref, ex->n_ref, r->ca, 0) == r && r->fw_ver[0] &&
		    strcmp(p->fw_ver, r->fw_ver) != 0)
			add(out, fw_mismatch(host, p, r), nf);
	}
}

int node_judge_ports(const char *host, const struct node_port *ports, int n,
		     const struct node_expect *ex, json_t *findings)
{
	int nf = 0;

	judge_reference(host, ports, n, ex, findings, &nf);
	if (ex->min_ports > 0 && n < ex->min_ports)
		add(findings, too_few(host, n, ex->min_ports), &nf);
	for (int i = 0; i < n; i++) {
		const struct node_port *p = &ports[i];

		if (not_activated(p))
			add(findings, link_not_active(host, p), &nf);
		else if (!node_port_usable(p))
			add(findings, port_down(host, p), &nf);
		else
			judge_rate(host, ports, n, p, ex, findings, &nf);
	}
	return nf;
}
