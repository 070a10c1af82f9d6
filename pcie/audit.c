// SPDX-License-Identifier: MIT
/*
 * Pure judgement of a scanned tree: every hop's link against the best both
 * ends support, AER counters (against a baseline when given). No device is
 * touched here; ACS is in acs.c because it reads config space through ops.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "common/record.h"
#include "pcie/pcie.h"

static const char *const aer_kind_names[PCIE_AER_KINDS] = {
	"correctable",
	"nonfatal",
	"fatal",
};

int pcie_audit_init(struct pcie_audit *a)
{
	a->findings = json_array();
	a->skipped = json_array();
	a->notes = json_array();
	a->n_fail = a->n_warn = a->n_error = 0;
	a->links_in_scope = a->links_judged = 0;
	if (!a->findings || !a->skipped || !a->notes) {
		pcie_audit_free(a);
		return -ENOMEM;
	}
	return 0;
}

void pcie_audit_free(struct pcie_audit *a)
{
	json_decref(a->findings);
	json_decref(a->skipped);
	json_decref(a->notes);
	a->findings = a->skipped = a->notes = NULL;
}

void pcie_audit_skip(struct pcie_audit *a, const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	json_array_append_new(a->skipped, json_string(buf));
}

void pcie_audit_add(struct pcie_audit *a, json_t *finding)
{
	const char *sev;

	if (!finding)
		return;
	sev = json_string_value(json_object_get(finding, "severity"));
	if (sev && strcmp(sev, "fail") == 0)
		a->n_fail++;
	else if (sev && strcmp(sev, "warn") == 0)
		a->n_warn++;
	json_array_append_new(a->findings, finding);
}

json_t *pcie_subject(const struct pcie_topo *t, int i)
{
	const struct pcie_dev *d = &t->devs[i];
	char vd[16], what[PCIE_NOTE_LEN];

	snprintf(vd, sizeof(vd), "%04x:%04x", d->vendor, d->device);
	pcie_dev_what(t, i, what, sizeof(what));
	return json_pack("{s:s, s:s, s:s, s:s}", "host", record_hostname(),
			 "bdf", d->bdf, "vendor_device", vd, "what", what);
}

/* The smaller of two capabilities, where 0 means "this end does not say". */
static double min_known(double a, double b)
{
	if (a <= 0)
		return b;
	if (b <= 0)
		return a;
	return a < b ? a : b;
}

bool pcie_hop_of(const struct pcie_topo *t, int i, struct pcie_hop *h)
{
	const struct pcie_dev *d = &t->devs[i], *p;

	memset(h, 0, sizeof(*h));
	/* Links join a downstream port (even depth) to the device below it;
	 * a switch's upstream port and its downstream ports share no link. */
	if (d->parent < 0 || d->depth % 2 == 0)
		return false;
	p = &t->devs[d->parent];
	h->up = d->parent;
	h->down = i;
	h->cur_gts = d->link.cur_gts > 0 ? d->link.cur_gts : p->link.cur_gts;
	h->cur_width =
		d->link.cur_width > 0 ? d->link.cur_width : p->link.cur_width;
	h->cap_gts = min_known(d->link.max_gts, p->link.max_gts);
	h->cap_width = (int)min_known(d->link.max_width, p->link.max_width);
	if (!d->link.present && !p->link.present)
		snprintf(
			h->why, sizeof(h->why),
			"no link attributes (conventional PCI, or an old kernel)");
	else if (h->cur_gts <= 0 || h->cur_width <= 0)
		snprintf(h->why, sizeof(h->why),
			 "current speed or width unknown");
	else if (h->cap_gts <= 0 && h->cap_width <= 0)
		snprintf(h->why, sizeof(h->why),
			 "neither end reports its maximum speed or width");
	else
		h->judged = true;
	return true;
}

static json_t *hop_evidence(const struct pcie_topo *t, const struct pcie_hop *h)
{
	const struct pcie_dev *u = &t->devs[h->up], *d = &t->devs[h->down];
	json_t *ev = json_pack(
		"{s:s, s:s, s:f, s:f, s:i, s:i, s:f, s:f, s:i, s:i}",
		"hop_upstream", u->bdf, "hop_downstream", d->bdf,
		"current_speed_GTps", h->cur_gts, "capable_speed_GTps",
		h->cap_gts, "current_width", h->cur_width, "capable_width",
		h->cap_width, "upstream_max_speed_GTps", u->link.max_gts,
		"device_max_speed_GTps", d->link.max_gts, "upstream_max_width",
		u->link.max_width, "device_max_width", d->link.max_width);

	if (d->kernel_lines)
		json_object_set(ev, "kernel_limited", d->kernel_lines);
	return ev;
}

static void judge_width(const struct pcie_topo *t, const struct pcie_hop *h,
			struct pcie_audit *a)
{
	const struct pcie_dev *d = &t->devs[h->down];
	char what[PCIE_NOTE_LEN];

	if (h->cap_width <= 0 || h->cur_width >= h->cap_width)
		return;
	pcie_dev_what(t, h->down, what, sizeof(what));
	pcie_audit_add(
		a,
		record_finding(
			"fail", "pcie-degraded-width", pcie_subject(t, h->down),
			hop_evidence(t, h), "check-pcie",
			"%s (%04x:%04x, %s): link %s -> %s runs at x%d, both ends "
			"support x%d; reseat the card or check the slot and riser",
			d->bdf, d->vendor, d->device, what, t->devs[h->up].bdf,
			d->bdf, h->cur_width, h->cap_width));
}

static void judge_speed(const struct pcie_topo *t, const struct pcie_hop *h,
			struct pcie_audit *a)
{
	const struct pcie_dev *d = &t->devs[h->down];
	bool gpu = d->role == PCIE_ROLE_GPU;
	char what[PCIE_NOTE_LEN];
	json_t *ev;

	if (h->cap_gts <= 0 || h->cur_gts >= h->cap_gts - 1e-6)
		return;
	pcie_dev_what(t, h->down, what, sizeof(what));
	ev = hop_evidence(t, h);
	if (gpu)
		json_object_set_new(
			ev, "note",
			json_string(
				"GPUs lower their link speed when idle to save power; "
				"check again under load"));
	pcie_audit_add(
		a,
		record_finding(
			gpu ? "warn" : "fail", "pcie-degraded-speed",
			pcie_subject(t, h->down), ev, "check-pcie",
			"%s (%04x:%04x, %s): link %s -> %s runs at %.1f GT/s, both "
			"ends support %.1f GT/s%s",
			d->bdf, d->vendor, d->device, what, t->devs[h->up].bdf,
			d->bdf, h->cur_gts, h->cap_gts,
			gpu ? " (an idle GPU may do this to save power: check under "
			      "load)"
			    : "; reseat the card or check the slot"));
}

/* Functions of one device (0000:c1:00.0 and .1) share its link: judge once. */
static bool link_judged_before(const struct pcie_topo *t, int i)
{
	for (int j = 0; j < i; j++)
		if (t->devs[j].relevant &&
		    t->devs[j].parent == t->devs[i].parent &&
		    strncmp(t->devs[j].bdf, t->devs[i].bdf,
			    strcspn(t->devs[i].bdf, ".")) == 0)
			return true;
	return false;
}

/* A link in scope whose speed or width could not be read: not tested,
 * never a silent pass (issue 32). */
static void link_not_tested(const struct pcie_topo *t, const struct pcie_hop *h,
			    struct pcie_audit *a)
{
	json_t *ev = json_pack("{s:s, s:s, s:s, s:s}", "part", "links",
			       "reason", "unreadable", "why", h->why, "up",
			       t->devs[h->up].bdf);

	pcie_audit_add(
		a, record_finding("warn", "not-tested",
				  pcie_subject(t, h->down), ev, "check-pcie",
				  "the link %s -> %s was not judged: %s; "
				  "read its LnkSta/LnkCap (lspci -vv) by hand",
				  t->devs[h->up].bdf, t->devs[h->down].bdf,
				  h->why));
}

bool pcie_audit_incomplete(const struct pcie_audit *a)
{
	return a->links_judged < a->links_in_scope;
}

void pcie_audit_links(const struct pcie_topo *t, struct pcie_audit *a)
{
	struct pcie_hop h;

	for (int i = 0; i < t->n; i++) {
		if (!t->devs[i].relevant)
			continue;
		if (t->devs[i].link.missing)
			json_array_append_new(
				a->notes,
				json_sprintf(
					"%s: some link attributes are missing; judged "
					"with what the other end reports",
					t->devs[i].bdf));
		if (!pcie_hop_of(t, i, &h) || link_judged_before(t, i))
			continue;
		a->links_in_scope++;
		if (!h.judged) {
			pcie_audit_skip(a, "link %s -> %s: %s",
					t->devs[h.up].bdf, t->devs[i].bdf,
					h.why);
			link_not_tested(t, &h, a);
			continue;
		}
		a->links_judged++;
		judge_width(t, &h, a);
		judge_speed(t, &h, a);
	}
}

/* Change of one AER kind since the baseline (or since boot without one). */
static uint64_t aer_delta(const struct pcie_dev *d,
			  const struct pcie_baseline *base, int k,
			  const char **since)
{
	uint64_t then;

	*since = "boot";
	if (!base || !pcie_baseline_aer(base, d->bdf, k, &then))
		return d->aer[k].total;
	if (d->aer[k].total < then) {
		*since = "boot (counters reset after the baseline)";
		return d->aer[k].total;
	}
	*since = "baseline";
	return d->aer[k].total - then;
}

static json_t *aer_counters(const struct pcie_dev *d)
{
	json_t *o = json_object();

	for (int k = 0; k < PCIE_AER_KINDS; k++)
		for (int c = 0; c < d->aer[k].n; c++)
			if (d->aer[k].values[c])
				json_object_set_new(
					o, d->aer[k].names[c],
					json_integer((json_int_t)d->aer[k]
							     .values[c]));
	return o;
}

static void judge_aer(const struct pcie_topo *t, int i,
		      const struct pcie_baseline *base, struct pcie_audit *a)
{
	const struct pcie_dev *d = &t->devs[i];
	uint64_t delta[PCIE_AER_KINDS];
	const char *since = "boot";
	char what[PCIE_NOTE_LEN];
	json_t *ev;

	for (int k = 0; k < PCIE_AER_KINDS; k++)
		delta[k] =
			d->aer[k].present ? aer_delta(d, base, k, &since) : 0;
	if (!delta[0] && !delta[1] && !delta[2])
		return;
	ev = json_pack("{s:s, s:I, s:I, s:I, s:o}", "since", since,
		       aer_kind_names[0], (json_int_t)delta[0],
		       aer_kind_names[1], (json_int_t)delta[1],
		       aer_kind_names[2], (json_int_t)delta[2], "counters",
		       aer_counters(d));
	pcie_dev_what(t, i, what, sizeof(what));
	pcie_audit_add(
		a,
		record_finding(
			delta[1] || delta[2] ? "fail" : "warn",
			"pcie-aer-errors", pcie_subject(t, i), ev, "check-pcie",
			"%s (%04x:%04x, %s): %llu correctable, %llu non-fatal, %llu "
			"fatal PCIe errors since %s",
			d->bdf, d->vendor, d->device, what,
			(unsigned long long)delta[0],
			(unsigned long long)delta[1],
			(unsigned long long)delta[2], since));
}

void pcie_audit_aer(const struct pcie_topo *t, const struct pcie_baseline *base,
		    struct pcie_audit *a)
{
	int with_aer = 0, relevant = 0;

	for (int i = 0; i < t->n; i++) {
		if (!t->devs[i].relevant)
			continue;
		relevant++;
		if (!t->devs[i].aer[0].present && !t->devs[i].aer[1].present &&
		    !t->devs[i].aer[2].present)
			continue;
		with_aer++;
		judge_aer(t, i, base, a);
	}
	if (relevant && !with_aer)
		pcie_audit_skip(a, "aer: no aer_dev_* attributes on any device "
				   "checked (kernel without AER, or AER "
				   "not granted to the OS by firmware)");
}
