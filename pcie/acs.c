// SPDX-License-Identifier: MIT
/*
 * ACS on the PCIe switch ports between a GPU and an HCA. With P2P Request
 * Redirect, Completion Redirect or Egress Control on, a switch sends GPU <->
 * HCA peer traffic up to the root complex (or blocks it) instead of across
 * the switch, which breaks GPUDirect RDMA or halves its bandwidth.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "common/record.h"
#include "pcie/pcie.h"

struct acs_tally {
	int checked, unreadable, failed;
	char first_unreadable[PCIE_BDF_LEN];
};

static void read_port(struct pcie_dev *d, const struct pcie_config_ops *ops,
		      struct acs_tally *tl)
{
	int ret;

	if (d->acs != PCIE_ACS_NOT_READ)
		return;
	ret = ops->read_acs(ops->ctx, d, &d->acs_cap, &d->acs_ctrl);
	tl->checked++;
	if (ret == 0) {
		d->acs = PCIE_ACS_OK;
	} else if (ret == -ENOENT) {
		d->acs = PCIE_ACS_NO_CAP;
	} else {
		d->acs = PCIE_ACS_UNREADABLE;
		snprintf(
			d->acs_why, sizeof(d->acs_why), "%s",
			ret == -EACCES
				? "extended config space not readable (needs root)"
				: strerror(-ret));
		if (!tl->unreadable++)
			snprintf(tl->first_unreadable, PCIE_BDF_LEN, "%s",
				 d->bdf);
	}
}

static void acs_finding(struct pcie_topo *t, int port, int gpu, int hca,
			struct pcie_audit *a)
{
	const struct pcie_dev *p = &t->devs[port], *g = &t->devs[gpu],
			      *h = &t->devs[hca];
	char what[PCIE_NOTE_LEN], bits[96], hname[PCIE_NAME_LEN * 4];
	json_t *ev;

	pcie_dev_what(t, port, what, sizeof(what));
	pcie_acs_names(p->acs_ctrl & PCIE_ACS_P2P_BREAKING, bits, sizeof(bits));
	snprintf(hname, sizeof(hname), "%s", h->ibdev[0] ? h->ibdev : h->bdf);
	ev = json_pack("{s:i, s:i, s:s, s:s, s:s}", "acs_ctrl", p->acs_ctrl,
		       "acs_cap", p->acs_cap, "enabled", bits, "gpu", g->bdf,
		       "hca", h->bdf);
	pcie_audit_add(
		a,
		record_finding(
			"fail", "pcie-acs-p2p", pcie_subject(t, port), ev,
			"check-pcie",
			"%s (%04x:%04x, %s): ACS %s is on, so peer traffic between GPU "
			"%s and %s (HCA) goes through the root complex; disable ACS "
			"on this switch port (setpci -s %s ECAP_ACS+0x6.w=0000, or in "
			"the BIOS)",
			p->bdf, p->vendor, p->device, what, bits, g->bdf, hname,
			p->bdf));
}

/* Checks the ports on the way from dev up to (not including) top. */
static void check_path(struct pcie_topo *t, int dev, int top, int gpu, int hca,
		       const struct pcie_config_ops *ops, struct acs_tally *tl,
		       struct pcie_audit *a, bool *seen)
{
	int hops = 0;

	for (int p = t->devs[dev].parent; p >= 0 && p != top && hops++ < t->n;
	     p = t->devs[p].parent) {
		struct pcie_dev *d = &t->devs[p];

		read_port(d, ops, tl);
		if (d->acs != PCIE_ACS_OK ||
		    !(d->acs_ctrl & PCIE_ACS_P2P_BREAKING) || seen[p])
			continue;
		seen[p] = true;
		tl->failed++;
		acs_finding(t, p, gpu, hca, a);
	}
}

static void report_tally(const struct acs_tally *tl, int pairs,
			 struct pcie_audit *a)
{
	if (!pairs) {
		json_array_append_new(
			a->notes,
			json_string(
				"acs: no GPU shares a PCIe switch with an HCA"));
		return;
	}
	if (tl->unreadable)
		pcie_audit_skip(a,
				"acs: %d of %d switch ports between GPUs and "
				"HCAs not checked (first %s): extended config "
				"space not readable; run as root",
				tl->unreadable, tl->checked,
				tl->first_unreadable);
}

void pcie_audit_acs(struct pcie_topo *t, const struct pcie_config_ops *ops,
		    struct pcie_audit *a)
{
	struct acs_tally tl = { 0 };
	bool seen[t->n > 0 ? t->n : 1];
	int pairs = 0;

	memset(seen, 0, sizeof(seen));
	for (int h = 0; h < t->n; h++) {
		if (t->devs[h].role != PCIE_ROLE_HCA)
			continue;
		for (int g = 0; g < t->n; g++) {
			int top;

			if (t->devs[g].role != PCIE_ROLE_GPU ||
			    !pcie_topo_same_switch(t, g, h))
				continue;
			pairs++;
			top = pcie_topo_common_ancestor(t, g, h);
			check_path(t, g, top, g, h, ops, &tl, a, seen);
			check_path(t, h, top, g, h, ops, &tl, a, seen);
		}
	}
	report_tally(&tl, pairs, a);
}
