// SPDX-License-Identifier: MIT
/*
 * Reporters: `pcie` records (one per device that matters, one per DMA
 * measurement), findings, the run record, the --json summary and the short
 * human summary on stdout. Everything JSON is built with jansson.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/cli.h"
#include "common/log.h"
#include "common/record.h"
#include "pcie/pcie.h"

struct pcie_records {
	struct record_writer *w; /* NULL: no --records */
	const char *json; /* --json FILE, or NULL */
	json_t *all; /* every record, for --json */
	size_t findings_done; /* findings already written */
	int write_err;
};

struct pcie_records *pcie_records_open(const char *records, const char *json)
{
	struct pcie_records *r = calloc(1, sizeof(*r));

	if (!r)
		return NULL;
	r->all = json_array();
	r->json = json;
	if (records) {
		r->w = record_writer_open(records, false);
		if (!r->w) {
			log_error("--records %s: %m", records);
			json_decref(r->all);
			free(r);
			return NULL;
		}
	}
	return r;
}

void pcie_records_emit(struct pcie_records *r, json_t *rec)
{
	if (!rec)
		return;
	if (!r) {
		json_decref(rec);
		return;
	}
	if (r->w && !r->write_err && record_writer_emit(r->w, rec)) {
		log_error("records: write failed: %m");
		r->write_err = -EIO;
	}
	json_array_append_new(r->all, rec);
}

void pcie_records_findings(struct pcie_records *r, const struct pcie_audit *a)
{
	for (; r && r->findings_done < json_array_size(a->findings);
	     r->findings_done++) {
		json_t *fd = json_array_get(a->findings, r->findings_done);

		if (r->w && !r->write_err && record_writer_emit(r->w, fd)) {
			log_error("records: write failed: %m");
			r->write_err = -EIO;
		}
	}
}

static json_t *link_json(const struct pcie_link *l)
{
	return json_pack("{s:f, s:f, s:i, s:i}", "current_speed_GTps",
			 l->cur_gts, "max_speed_GTps", l->max_gts,
			 "current_width", l->cur_width, "max_width",
			 l->max_width);
}

static json_t *hop_json(const struct pcie_topo *t, int i)
{
	struct pcie_hop h;

	if (!pcie_hop_of(t, i, &h))
		return json_null();
	return json_pack("{s:s, s:f, s:f, s:i, s:i, s:b, s:s?}", "upstream",
			 t->devs[h.up].bdf, "current_speed_GTps", h.cur_gts,
			 "capable_speed_GTps", h.cap_gts, "current_width",
			 h.cur_width, "capable_width", h.cap_width, "judged",
			 h.judged, "not_judged_why", h.judged ? NULL : h.why);
}

static void add_aer(json_t *rec, const struct pcie_dev *d)
{
	static const char *const keys[] = { "correctable", "nonfatal",
					    "fatal" };
	json_t *aer = json_object();

	for (int k = 0; k < PCIE_AER_KINDS; k++)
		if (d->aer[k].present)
			json_object_set_new(
				aer, keys[k],
				json_integer((json_int_t)d->aer[k].total));
	if (json_object_size(aer))
		json_object_set_new(rec, "aer", aer);
	else
		json_decref(aer);
}

static void add_acs(json_t *rec, const struct pcie_dev *d)
{
	static const char *const states[] = {
		[PCIE_ACS_OK] = "read",
		[PCIE_ACS_NO_CAP] = "no-capability",
		[PCIE_ACS_UNREADABLE] = "not-readable",
	};
	char bits[96];

	if (d->acs == PCIE_ACS_NOT_READ)
		return;
	json_object_set_new(
		rec, "acs",
		json_pack("{s:s, s:i, s:i, s:s, s:s?}", "state", states[d->acs],
			  "ctrl", d->acs_ctrl, "cap", d->acs_cap, "enabled",
			  d->acs == PCIE_ACS_OK
				  ? pcie_acs_names(d->acs_ctrl, bits,
						   sizeof(bits))
				  : "",
			  "why", d->acs_why[0] ? d->acs_why : NULL));
}

/* GPUs (and NVMe) that share a PCIe switch or a NUMA node with HCA i. */
static void add_locality(json_t *rec, const struct pcie_topo *t, int i)
{
	json_t *sw = json_array(), *numa = json_array(), *nvme = json_array();

	for (int k = 0; k < t->n; k++) {
		const struct pcie_dev *d = &t->devs[k];
		bool same = pcie_topo_same_switch(t, i, k);

		if (d->role == PCIE_ROLE_GPU && same)
			json_array_append_new(sw, json_string(d->bdf));
		if (d->role == PCIE_ROLE_NVME && same)
			json_array_append_new(nvme, json_string(d->bdf));
		if (d->role == PCIE_ROLE_GPU && d->numa_node >= 0 &&
		    d->numa_node == t->devs[i].numa_node)
			json_array_append_new(numa, json_string(d->bdf));
	}
	json_object_set_new(rec, "gpus_same_switch", sw);
	json_object_set_new(rec, "gpus_same_numa_node", numa);
	json_object_set_new(rec, "nvme_same_switch", nvme);
}

json_t *pcie_device_record(const struct pcie_topo *t, int i)
{
	const struct pcie_dev *d = &t->devs[i];
	json_t *rec = record_new("pcie"), *f;
	char vd[16], cls[16], what[PCIE_NOTE_LEN];

	snprintf(vd, sizeof(vd), "%04x:%04x", d->vendor, d->device);
	snprintf(cls, sizeof(cls), "0x%06x", d->class);
	pcie_dev_what(t, i, what, sizeof(what));
	f = json_pack(
		"{s:s, s:s, s:s, s:s, s:s, s:s, s:s?, s:i, s:i, s:s?, s:o, s:o}",
		"bdf", d->bdf, "check", "link", "vendor_device", vd, "class",
		cls, "role", pcie_role_name(d->role), "what", what, "ibdev",
		d->ibdev[0] ? d->ibdev : NULL, "numa_node", d->numa_node,
		"depth", d->depth, "parent",
		d->parent >= 0 ? t->devs[d->parent].bdf : NULL, "link",
		link_json(&d->link), "hop", hop_json(t, i));
	json_object_update(rec, f);
	json_decref(f);
	add_aer(rec, d);
	add_acs(rec, d);
	if (d->role == PCIE_ROLE_HCA)
		add_locality(rec, t, i);
	if (d->kernel_lines)
		json_object_set(rec, "kernel_limited", d->kernel_lines);
	if (d->problem[0])
		json_object_set_new(rec, "problem", json_string(d->problem));
	return rec;
}

void pcie_records_devices(struct pcie_records *r, const struct pcie_topo *t)
{
	for (int i = 0; i < t->n; i++)
		if (t->devs[i].relevant)
			pcie_records_emit(r, pcie_device_record(t, i));
}

static void summary_counts(FILE *f, const struct pcie_topo *t,
			   const struct pcie_audit *a)
{
	int n[PCIE_ROLE_NVME + 1] = { 0 }, total = 0;

	for (int i = 0; i < t->n; i++)
		if (t->devs[i].relevant) {
			n[t->devs[i].role]++;
			total++;
		}
	fprintf(f,
		"ibproof pcie: %s: %d devices checked (%d HCA, %d GPU, "
		"%d NVMe, %d bridges), %d fail, %d warn\n",
		t->root, total, n[PCIE_ROLE_HCA], n[PCIE_ROLE_GPU],
		n[PCIE_ROLE_NVME], n[PCIE_ROLE_BRIDGE], a->n_fail, a->n_warn);
	if (pcie_audit_incomplete(a))
		fprintf(f,
			"INCOMPLETE: %d of %d links not judged (not-tested)\n",
			a->links_in_scope - a->links_judged, a->links_in_scope);
}

static void summary_dma(FILE *f, const struct pcie_records *r)
{
	size_t i;
	json_t *rec;

	json_array_foreach(r->all, i, rec)
	{
		json_t *floor = json_object_get(rec, "floor_GBps");

		if (!json_object_get(rec, "samples_GBps"))
			continue;
		fprintf(f,
			"  dma %s port %lld RDMA %s loopback: median %.4g "
			"GB/s, min %.4g GB/s over %zu samples; floor %s",
			json_string_value(json_object_get(rec, "ca")),
			json_integer_value(json_object_get(rec, "port")),
			json_string_value(json_object_get(rec, "test")),
			json_real_value(json_object_get(rec, "median_GBps")),
			json_real_value(json_object_get(rec, "min_GBps")),
			json_array_size(json_object_get(rec, "samples_GBps")),
			json_is_real(floor) ? "" : "-");
		if (json_is_real(floor))
			fprintf(f, "%.2f GB/s", json_real_value(floor));
		fprintf(f, " (%s)\n",
			json_string_value(json_object_get(rec, "floor")));
	}
}

static void summary_list(FILE *f, const char *title, json_t *arr)
{
	size_t i;
	json_t *v;

	json_array_foreach(arr, i, v)
		fprintf(f, "  %s: %s\n", title, json_string_value(v));
}

void pcie_report_summary(FILE *f, const struct pcie_topo *t,
			 const struct pcie_audit *a,
			 const struct pcie_records *r)
{
	size_t i;
	json_t *fd;

	summary_counts(f, t, a);
	json_array_foreach(a->findings, i, fd)
		fprintf(f, "  %s %s: %s\n",
			json_string_value(json_object_get(fd, "severity")),
			json_string_value(json_object_get(fd, "category")),
			json_string_value(json_object_get(fd, "message")));
	if (r)
		summary_dma(f, r);
	summary_list(f, "skipped", a->skipped);
	summary_list(f, "note", a->notes);
	fflush(f);
}

static int write_json(const struct pcie_records *r, const struct pcie_audit *a,
		      int exit_code)
{
	json_t *doc = json_pack("{s:s, s:O, s:O, s:O, s:O, s:i, s:i, s:i}",
				"schema", RECORD_SCHEMA, "records", r->all,
				"findings", a->findings, "skipped", a->skipped,
				"notes", a->notes, "fail", a->n_fail, "warn",
				a->n_warn, "exit_code", exit_code);
	int ret = 0;

	if (!doc)
		return -ENOMEM;
	if (json_dump_file(doc, r->json, JSON_INDENT(2) | JSON_SORT_KEYS)) {
		ret = -EIO;
		log_error("--json %s: cannot write the file", r->json);
	}
	json_decref(doc);
	return ret;
}

int pcie_records_close(struct pcie_records *r, const struct pcie_audit *a,
		       int exit_code)
{
	static const char *const outcome[] = { "pass", "fail", "error",
					       "error" };
	json_t *end = record_new("run");
	int ret;

	pcie_records_findings(r, a);
	json_object_set_new(end, "tool", json_string("pcie"));
	json_object_set_new(end, "event", json_string("end"));
	json_object_set_new(end, "outcome",
			    json_string(outcome[exit_code & 3]));
	json_object_set_new(end, "exit_code", json_integer(exit_code));
	json_object_set(end, "skipped", a->skipped);
	/* scope (issue 32): the report's coverage block reads it */
	json_object_set_new(end, "scope",
			    json_pack("{s:{s:i, s:i, s:i, s:i}}", "links",
				      "in_scope", a->links_in_scope, "tested",
				      a->links_judged, "not_tested",
				      a->links_in_scope - a->links_judged,
				      "accepted", 0));
	if (pcie_audit_incomplete(a))
		json_object_set_new(end, "outcome", json_string("incomplete"));
	pcie_records_emit(r, end);
	ret = r->write_err;
	if (r->w && record_writer_close(r->w) && !ret)
		ret = -EIO;
	if (r->json && write_json(r, a, exit_code) && !ret)
		ret = -EIO;
	json_decref(r->all);
	free(r);
	return ret;
}
