// SPDX-License-Identifier: MIT
/*
 * One `ibproof node` run: ports, PCIe (pcie_run), counters around the DMA
 * loopback, --against, then the verdict line, the detail, records, JSON,
 * and --drain/--undrain. Findings are written as they are produced.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/cli.h"
#include "common/log.h"
#include "common/record.h"
#include "node/node.h"
#include "node/node_run.h"
#include "node/slurm.h"
#include "pcie/pcie.h"

#define NODE_SCONTROL_TIMEOUT_S 15.0
/* Writes rec to --records (not stolen); a failed write means exit 3. */
static void node_emit(struct node_ctx *c, const json_t *rec)
{
	if (c->w && record_writer_emit(c->w, rec)) {
		log_error("--records %s: write failed: %m", c->o->records);
		c->no_test = true;
	}
}

/* Writes node's own findings added since the last call. */
static void emit_findings(struct node_ctx *c)
{
	for (; c->written < json_array_size(c->findings); c->written++)
		node_emit(c, json_array_get(c->findings, c->written));
}

/* Findings another part has already written: only remembered. */
static void took_findings(struct node_ctx *c)
{
	c->written = json_array_size(c->findings);
}

/* The run start (verdict NULL) or end record. */
static void node_run_record(struct node_ctx *c, const char *event, int rc,
			    const char *verdict)
{
	static const char *const outcome[] = { "pass", "fail", "error",
					       "error" };
	const struct node_run_opts *o = c->o;
	json_t *rec = record_new("run");

	json_object_set_new(rec, "tool", json_string("node"));
	json_object_set_new(rec, "event", json_string(event));
	if (!verdict) {
		json_object_set_new(
			rec, "params",
			json_pack("{s:s, s:s?, s:i, s:f, s:s?, s:f, s:b, s:i, "
				  "s:s?, s:f, s:s?}",
				  "sysfs_root", o->sysfs_root,
				  "reference_inventory", o->reference,
				  "expect_ports", o->expect_ports,
				  "expect_rate_gbps", o->expect_rate_gbps,
				  "against", o->against, "duration_s",
				  o->duration_s, "dma", !o->no_dma, "samples",
				  o->samples, "kernel_log", o->kernel_log,
				  "window_h", o->window_h, "lnet_peers",
				  o->lnet_peers));
	} else {
		json_object_set_new(
			rec, "outcome",
			json_string(
				rc == IBP_EXIT_FAIL &&
						strstr(verdict, ": INCOMPLETE")
					? "incomplete"
					: outcome[rc & 3]));
		json_object_set_new(rec, "exit_code", json_integer(rc));
		json_object_set_new(rec, "verdict", json_string(verdict));
		/* scope (issue 32): the RDMA ports read from sysfs and the
		 * RoCE modules asked for (the PCIe links are pcie's run,
		 * whose records are copied in) */
		json_object_set_new(
			rec, "scope",
			json_pack("{s:{s:i, s:i, s:i, s:i}, s:{s:i, s:i, s:i, "
				  "s:i}}",
				  "ports", "in_scope", c->n, "tested", c->n,
				  "not_tested", 0, "accepted", 0, "modules",
				  "in_scope", c->modules.in_scope, "tested",
				  c->modules.tested, "not_tested",
				  c->modules.in_scope - c->modules.tested,
				  "accepted", 0));
	}
	node_emit(c, rec);
	json_decref(rec);
}

static int copy_file_records(struct node_ctx *c, const char *path)
{
	struct record_reader *r = record_reader_open(path);
	json_t *rec;
	int ret;

	if (!r)
		return -errno;
	while ((ret = record_reader_next(r, &rec)) == 1) {
		node_emit(c, rec);
		json_decref(rec);
	}
	record_reader_close(r);
	return ret;
}

static void prefixed(json_t *to, const char *prefix, json_t *from)
{
	size_t i;
	json_t *v;

	json_array_foreach(from, i, v) json_array_append_new(
		to, json_sprintf("%s: %s", prefix, json_string_value(v)));
}

static void run_pcie(struct node_ctx *c)
{
	const struct node_run_opts *o = c->o;
	struct pcie_options po = {
		.sysfs_root = o->sysfs_root,
		.no_dma = o->no_dma,
		.samples = o->samples,
		.ca = o->ca,
		.port = o->port,
		.timeout_s = o->timeout_s,
		.kernel_log = o->kernel_log,
	};
	char tmp[] = "/tmp/ibproof-node-pcie-XXXXXX";
	struct pcie_topo topo = { 0 };
	struct pcie_records *out;
	struct pcie_audit a;
	int fd = mkstemp(tmp), rc = IBP_EXIT_RUNTIME;

	if (fd < 0 || pcie_audit_init(&a)) {
		log_error("pcie: cannot prepare: %m");
		c->no_test = true;
		return;
	}
	close(fd);
	out = pcie_records_open(tmp, NULL);
	if (out) {
		rc = pcie_run(&po, &topo, &a, out);
		pcie_records_close(out, &a, rc);
		copy_file_records(c, tmp);
	}
	json_array_extend(c->findings, a.findings);
	took_findings(c);
	prefixed(c->skipped, "pcie", a.skipped);
	prefixed(c->notes, "pcie", a.notes);
	if (rc != IBP_EXIT_PASS && rc != IBP_EXIT_FAIL) {
		json_array_append_new(
			c->skipped,
			json_sprintf("pcie: could not audit %s (exit %d)",
				     o->sysfs_root, rc));
		c->no_test = true;
	}
	unlink(tmp);
	pcie_topo_free(&topo);
	pcie_audit_free(&a);
}

int node_scan_ports(struct node_ctx *c)
{
	const struct node_run_opts *o = c->o;
	int ret = node_ports_scan(o->sysfs_root, o->ca, &c->ports, &c->n);
	int k;

	if (ret == -ENOENT && strcmp(o->sysfs_root, "/sys") != 0) {
		fprintf(stderr,
			"ibproof node: --sysfs-root %s: expected a "
			"directory standing for /sys (with "
			"class/infiniband)\n",
			o->sysfs_root);
		return IBP_EXIT_USAGE;
	}
	if (ret && ret != -ENOENT) {
		log_error("%s/class/infiniband: %s", o->sysfs_root,
			  strerror(-ret));
		return IBP_EXIT_RUNTIME;
	}
	k = 0;
	for (int i = 0; i < c->n; i++) /* --port */
		if (!o->port || c->ports[i].port == o->port)
			c->ports[k++] = c->ports[i];
	c->n = k;
	return IBP_EXIT_PASS;
}

static int scan_ports(struct node_ctx *c)
{
	const struct node_run_opts *o = c->o;
	int rc = node_scan_ports(c);

	if (rc != IBP_EXIT_PASS)
		return rc;
	for (int i = 0; i < c->n; i++) {
		json_t *rec = node_port_record(&c->ports[i]);

		node_emit(c, rec);
		json_decref(rec);
		rec = node_xcvr_record(&c->ports[i], o->ethtool,
				       o->timeout_s > 0 ? o->timeout_s
							: NODE_XCVR_TIMEOUT_S,
				       c->findings, &c->modules);
		if (rec)
			node_emit(c, rec);
		json_decref(rec);
		c->o->n_active += node_port_usable(&c->ports[i]);
	}
	return IBP_EXIT_PASS;
}

void node_judge_ctx_ports(struct node_ctx *c)
{
	const struct node_run_opts *o = c->o;
	struct node_expect ex = {
		.ref = c->ref,
		.n_ref = c->n_ref,
		.min_ports = o->expect_ports,
		.min_rate_gbps = o->expect_rate_gbps,
	};

	if (c->n == 0 && !c->n_ref && !o->expect_ports)
		json_array_append_new(
			c->findings,
			record_finding(
				"fail", "port-missing",
				json_pack("{s:s}", "host", o->host),
				json_pack("{s:s}", "short", "no RDMA port"),
				"drain-node",
				"no RDMA port in %s/class/infiniband%s%s: "
				"check that the HCA is seated and its driver loaded",
				o->sysfs_root, o->ca ? " named " : "",
				o->ca ? o->ca : ""));
	node_judge_ports(o->host, c->ports, c->n, &ex, c->findings);
}

static void judge_ports(struct node_ctx *c)
{
	node_judge_ctx_ports(c);
	emit_findings(c);
}

static void emit_counters(struct node_ctx *c, const struct node_counters *s)
{
	json_t *recs = node_counters_records(c->o->host, c->ports, c->n, s);
	size_t i;
	json_t *rec;

	json_array_foreach(recs, i, rec) node_emit(c, rec);
	json_decref(recs);
}

static void run_against(struct node_ctx *c, struct node_counters **before)
{
	struct node_counters *after;
	int rc;

	if (!c->o->against)
		return;
	rc = node_against_run(c->o, c->w, c->findings, c->skipped);
	took_findings(c);
	if (rc == IBP_EXIT_RUNTIME || rc == IBP_EXIT_USAGE)
		c->no_test = true;
	after = node_counters_take(c->o->sysfs_root, c->ports, c->n);
	if (*before && after) {
		node_counters_judge(c->o->host, c->ports, c->n, *before, after,
				    "the burn-in against the "
				    "references",
				    c->findings);
		emit_findings(c);
		emit_counters(c, after);
	}
	node_counters_free(*before);
	*before = after;
}

/* The kernel log's events and findings, then --lnet-peers. */
static int run_klog(struct node_ctx *c)
{
	json_t *records = json_array(), *rec;
	size_t i;
	int rc = node_klog_run(c, records);

	json_array_foreach(records, i, rec) node_emit(c, rec);
	json_decref(records);
	node_lnet_peers(c);
	emit_findings(c);
	return rc;
}

static int run_checks(struct node_ctx *c)
{
	struct node_counters *before, *after;

	judge_ports(c);
	if (run_klog(c))
		return IBP_EXIT_USAGE;
	before = node_counters_take(c->o->sysfs_root, c->ports, c->n);
	if (before)
		emit_counters(c, before);
	run_pcie(c);
	after = node_counters_take(c->o->sysfs_root, c->ports, c->n);
	if (before && after) {
		node_counters_judge(c->o->host, c->ports, c->n, before, after,
				    c->o->no_dma ? "the PCIe audit"
						 : "the DMA loopback",
				    c->findings);
		emit_findings(c);
	}
	node_counters_free(before);
	run_against(c, &after);
	node_counters_free(after);
	return IBP_EXIT_PASS;
}

/* The Slurm node name: the host name up to its first dot. */
static void slurm_name(const char *host, char *buf, size_t len)
{
	snprintf(buf, len, "%.*s", (int)strcspn(host, "."), host);
}

static void run_slurm(const struct node_ctx *c, const char *verdict, int rc)
{
	double t =
		c->o->timeout_s > 0 ? c->o->timeout_s : NODE_SCONTROL_TIMEOUT_S;
	const char *why = strstr(verdict, ": FAIL");
	bool resumed = false;
	char name[256];

	slurm_name(c->o->host, name, sizeof(name));
	if (rc == IBP_EXIT_FAIL && c->o->drain) {
		if (slurm_drain(name, why ? why + 2 : verdict, t) == 0)
			printf("  slurm: drained %s\n", name);
	} else if (rc == IBP_EXIT_PASS && c->o->undrain) {
		if (slurm_resume_if_ours(name, t, &resumed) == 0 && resumed)
			printf("  slurm: resumed %s (ibproof had drained "
			       "it)\n",
			       name);
	}
}

/*
 * The end of the run: the verdict and the detail on stdout (node_report),
 * the run end record, --json, then --drain/--undrain through Slurm.
 */
static int finish(struct node_ctx *c)
{
	char *verdict = NULL;
	int rc = node_report(c, &verdict);

	if (!verdict)
		return rc;
	node_run_record(c, "end", rc, verdict);
	if (c->o->json && node_report_json(c, verdict, rc) &&
	    rc == IBP_EXIT_PASS)
		rc = IBP_EXIT_RUNTIME;
	run_slurm(c, verdict, rc);
	free(verdict);
	return rc;
}

int node_run(struct node_run_opts *o)
{
	struct node_ctx c = { .o = o };
	int rc;

	c.findings = json_array();
	c.skipped = json_array();
	c.notes = json_array();
	if (o->reference && node_ports_load(o->reference, &c.ref, &c.n_ref)) {
		rc = IBP_EXIT_USAGE; /* said why: FILE:LINE */
		goto out;
	}
	if (o->records && !(c.w = record_writer_open(o->records, false))) {
		log_error("--records %s: %m", o->records);
		rc = IBP_EXIT_USAGE;
		goto out;
	}
	node_run_record(&c, "start", 0, NULL);
	rc = scan_ports(&c);
	if (rc == IBP_EXIT_PASS) {
		rc = run_checks(&c);
		if (rc == IBP_EXIT_PASS)
			rc = finish(&c);
	}
	if (c.w && record_writer_close(c.w) && rc == IBP_EXIT_PASS)
		rc = IBP_EXIT_RUNTIME;
out:
	free(c.ports);
	free(c.ref);
	json_decref(c.findings);
	json_decref(c.skipped);
	json_decref(c.notes);
	return rc;
}
