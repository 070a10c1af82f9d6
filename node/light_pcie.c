// SPDX-License-Identifier: MIT
/*
 * The PCIe part of the light check: every hop of every HCA, GPU and NVMe
 * at its speed and width (pcie_audit_links), AER since the last run
 * (pcie_audit_aer against the device records the last run left in the
 * state dir), then the bandwidth sample (light_dma.c).
 *
 * GPUs lower their link speed when idle, and both ends of a link report
 * the speed it runs at (the upstream port's current_link_speed is the same
 * link's), so no single reading tells an idle GPU from a degraded link.
 * A GPU link under its capable speed is therefore judged on the runs'
 * history: an alarm only when no run within K x --sample-every (12 h) saw
 * it at its capable speed (light_gpu_speed_alarm). Width is judged on
 * every run: idling lowers the speed, not the width.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/log.h"
#include "common/record.h"
#include "node/light.h"
#include "node/node.h"
#include "node/node_run.h"
#include "pcie/pcie.h"

static const char *const aer_kinds[PCIE_AER_KINDS] = { "correctable",
						       "nonfatal", "fatal" };

static void hop_metrics(struct light_ctx *x, const struct pcie_topo *t)
{
	struct pcie_hop h;

	for (int i = 0; i < t->n; i++) {
		const struct pcie_dev *d = &t->devs[i];
		const char *role = pcie_role_name(d->role);

		if (!d->relevant || !pcie_hop_of(t, i, &h) || !h.judged)
			continue;
		light_metric(x->m, "ibproof_pcie_link_speed_gts", h.cur_gts,
			     "bdf", d->bdf, "role", role, NULL);
		light_metric(x->m, "ibproof_pcie_link_capable_speed_gts",
			     h.cap_gts, "bdf", d->bdf, "role", role, NULL);
		light_metric(x->m, "ibproof_pcie_link_width", h.cur_width,
			     "bdf", d->bdf, "role", role, NULL);
		light_metric(x->m, "ibproof_pcie_link_capable_width",
			     h.cap_width, "bdf", d->bdf, "role", role, NULL);
	}
}

/* Updates the GPU's history in the next state; true: alarm. */
static bool gpu_history(struct light_ctx *x, const struct pcie_dev *d,
			const struct pcie_hop *h, double *first, double *full)
{
	json_t *old =
		json_object_get(json_object_get(x->state, "gpus"), d->bdf);
	json_t *gpus = json_object_get(x->next, "gpus");
	double window = x->lo->mean_of * x->lo->sample_every_s;
	bool at_cap = h->cur_gts >= h->cap_gts - 1e-6;

	*first = json_number_value(json_object_get(old, "first"));
	*full = json_number_value(json_object_get(old, "full"));
	if (*first <= 0)
		*first = x->now;
	if (at_cap)
		*full = x->now;
	if (!gpus) {
		gpus = json_object();
		json_object_set_new(x->next, "gpus", gpus);
	}
	json_object_set_new(
		gpus, d->bdf,
		json_pack("{s:f, s:f}", "first", *first, "full", *full));
	return !at_cap && light_gpu_speed_alarm(*first, *full, x->now, window);
}

static void gpu_alarm(struct light_ctx *x, const struct pcie_topo *t, int i,
		      const struct pcie_hop *h, double full)
{
	const struct pcie_dev *d = &t->devs[i];
	char seen[64];

	if (full > 0)
		snprintf(seen, sizeof(seen), "%.1f h ago",
			 (x->now - full) / 3600);
	else
		snprintf(seen, sizeof(seen), "never");
	json_array_append_new(
		x->c->findings,
		record_finding(
			"warn", "pcie-degraded-speed", pcie_subject(t, i),
			json_pack("{s:f, s:f, s:f, s:s}", "current_speed_GTps",
				  h->cur_gts, "capable_speed_GTps", h->cap_gts,
				  "last_at_capable_speed", full, "note",
				  "no light check within the window saw it at "
				  "its capable speed"),
			"check-pcie",
			"%s (%04x:%04x, GPU): link at %.1f GT/s, both ends "
			"support %.1f GT/s, and no light check in %.0f h saw "
			"it faster (at full speed: %s): the GPU was idle all "
			"that time, or its link trains low; run a GPU load "
			"and check again",
			d->bdf, d->vendor, d->device, h->cur_gts, h->cap_gts,
			x->lo->mean_of * x->lo->sample_every_s / 3600, seen));
}

/* A GPU's lowered speed: judged on the history, said in a note if not. */
static bool gpu_speed_handled(struct light_ctx *x, const struct pcie_topo *t,
			      const json_t *finding)
{
	const char *bdf = json_string_value(
		json_object_get(json_object_get(finding, "subject"), "bdf"));
	const char *cat =
		json_string_value(json_object_get(finding, "category"));
	int i = bdf ? pcie_topo_find(t, bdf) : -1;
	struct pcie_hop h;
	double first, full;
	bool alarm;

	if (i < 0 || !cat || strcmp(cat, "pcie-degraded-speed") ||
	    t->devs[i].role != PCIE_ROLE_GPU || !pcie_hop_of(t, i, &h))
		return false;
	alarm = gpu_history(x, &t->devs[i], &h, &first, &full);
	light_metric(x->m, "ibproof_pcie_gpu_speed_alarm", alarm, "bdf", bdf,
		     NULL);
	if (alarm) {
		gpu_alarm(x, t, i, &h, full);
		return true;
	}
	json_array_append_new(
		x->c->notes,
		json_sprintf("GPU %s: link at %.1f GT/s of %.1f: not judged "
			     "now (idle GPUs lower their speed); %s",
			     bdf, h.cur_gts, h.cap_gts,
			     full > 0 ? "seen at full speed within the window"
				      : "alarm if no run sees it at full "
					"speed within the window"));
	return true;
}

/* GPUs at their capable speed: their history says so. */
static void gpus_at_speed(struct light_ctx *x, const struct pcie_topo *t)
{
	struct pcie_hop h;
	double first, full;

	for (int i = 0; i < t->n; i++) {
		if (t->devs[i].role != PCIE_ROLE_GPU ||
		    !pcie_hop_of(t, i, &h) || !h.judged ||
		    h.cur_gts < h.cap_gts - 1e-6)
			continue;
		gpu_history(x, &t->devs[i], &h, &first, &full);
		light_metric(x->m, "ibproof_pcie_gpu_speed_alarm", 0, "bdf",
			     t->devs[i].bdf, NULL);
	}
}

static void take_findings(struct light_ctx *x, const struct pcie_topo *t,
			  const struct pcie_audit *a)
{
	size_t i;
	json_t *f, *s;

	json_array_foreach(a->findings, i, f) if (!gpu_speed_handled(x, t, f))
		json_array_append(x->c->findings, f);
	json_array_foreach(a->skipped, i, s)
		json_array_append(x->c->skipped, s);
	json_array_foreach(a->notes, i, s) json_array_append(x->c->notes, s);
}

/* ---- AER since the last run ---- */

static void aer_metrics(struct light_ctx *x, const struct pcie_topo *t,
			const struct pcie_baseline *base)
{
	for (int i = 0; i < t->n; i++) {
		const struct pcie_dev *d = &t->devs[i];

		for (int k = 0; k < PCIE_AER_KINDS; k++) {
			uint64_t then = 0;

			if (!d->relevant || !d->aer[k].present)
				continue;
			if (base &&
			    (!pcie_baseline_aer(base, d->bdf, k, &then) ||
			     then > d->aer[k].total))
				then = 0;
			light_metric(x->m, "ibproof_pcie_aer_increase",
				     (double)(d->aer[k].total - then), "bdf",
				     d->bdf, "kind", aer_kinds[k], NULL);
		}
	}
}

/* The device records of this run: the AER baseline of the next. */
static void save_aer(struct light_ctx *x, const struct pcie_topo *t,
		     const char *path)
{
	char tmp[4096 + 8];
	FILE *f;
	bool ok;

	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	f = fopen(tmp, "we");
	if (!f)
		goto fail;
	for (int i = 0; i < t->n; i++) {
		json_t *rec;

		if (!t->devs[i].relevant)
			continue;
		rec = pcie_device_record(t, i);
		json_dumpf(rec, f, JSON_COMPACT);
		fputc('\n', f);
		json_decref(rec);
	}
	ok = !ferror(f);
	if (fclose(f) || !ok || rename(tmp, path))
		goto fail;
	return;
fail:
	unlink(tmp);
	json_array_append_new(x->c->skipped,
			      json_sprintf("aer: %s not written; the next run "
					   "counts AER since boot",
					   path));
}

static void light_aer(struct light_ctx *x, const struct pcie_topo *t,
		      struct pcie_audit *a)
{
	struct pcie_baseline *base = NULL;
	char path[4096];

	if (light_state_path(x->lo->state_dir, LIGHT_AER_FILE, path,
			     sizeof(path)))
		return;
	if (!access(path, F_OK) && !(base = pcie_baseline_load(path)))
		json_array_append_new(
			x->c->notes,
			json_sprintf("aer: %s unreadable; AER counted since "
				     "boot",
				     path));
	if (!base)
		json_array_append_new(x->c->notes,
				      json_string("aer: no earlier run; AER "
						  "counted since boot"));
	pcie_audit_aer(t, base, a);
	aer_metrics(x, t, base);
	pcie_baseline_free(base);
	if (!light_state_mkdir(x->lo->state_dir))
		save_aer(x, t, path);
}

void light_pcie(struct light_ctx *x)
{
	struct pcie_topo t = { 0 };
	struct pcie_audit a;
	int ret = pcie_topo_scan(x->c->o->sysfs_root, &t);

	if (ret) {
		json_array_append_new(
			x->c->skipped,
			json_sprintf("pcie: %s/bus/pci/devices: %s",
				     x->c->o->sysfs_root, strerror(-ret)));
		x->c->no_test = true;
		return;
	}
	if (pcie_audit_init(&a)) {
		pcie_topo_free(&t);
		x->c->no_test = true;
		return;
	}
	json_object_set_new(x->next, "gpus", json_object());
	pcie_audit_links(&t, &a);
	light_aer(x, &t, &a);
	gpus_at_speed(x, &t);
	take_findings(x, &t, &a);
	hop_metrics(x, &t);
	light_dma(x, &t);
	pcie_audit_free(&a);
	pcie_topo_free(&t);
}
