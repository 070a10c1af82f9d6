// SPDX-License-Identifier: MIT
/*
 * The end of a node run: the verdict line first on stdout, then the detail
 * (findings by severity, the ports, what was skipped), the run end record,
 * the --json document, and --drain/--resume through Slurm.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rdma/port_sysfs.h"
#include "common/cli.h"
#include "common/log.h"
#include "common/record.h"
#include "node/node.h"
#include "node/node_run.h"
#include "node/slurm.h"

#define NODE_SCONTROL_TIMEOUT_S 15.0

static void print_findings(FILE *f, const json_t *findings, const char *sev)
{
	size_t i;
	json_t *fd;

	json_array_foreach(findings, i, fd) {
		const char *s = json_string_value(json_object_get(fd,
								  "severity"));

		if (!s || strcmp(s, sev))
			continue;
		fprintf(f, "  %s %s: %s\n", sev,
			json_string_value(json_object_get(fd, "category")),
			json_string_value(json_object_get(fd, "message")));
	}
}

static void print_ports(FILE *f, const struct node_ctx *c)
{
	char w[8];

	for (int i = 0; i < c->n; i++) {
		const struct node_port *p = &c->ports[i];

		fprintf(f, "  port %s %d: %s/%s %s %s (%.4g Gb/s nominal), "
			   "%s, fw %s%s%s\n", p->ca, p->port,
			burnin_port_state_name(p->state),
			burnin_phys_state_name(p->phys_state),
			p->lanes ? ib_width_name(p->lanes, w) : "?",
			ib_speed_name(p->speed), p->nominal_gbps,
			p->link_layer, p->fw_ver[0] ? p->fw_ver : "?",
			p->board_id[0] ? ", board " : "", p->board_id);
	}
}

static void print_list(FILE *f, const char *title, const json_t *arr)
{
	size_t i;
	json_t *v;

	json_array_foreach(arr, i, v)
		fprintf(f, "  %s: %s\n", title, json_string_value(v));
}

static int write_json(const struct node_ctx *c, const char *verdict, int rc)
{
	json_t *ports = json_array(), *doc;
	int ret = 0;

	for (int i = 0; i < c->n; i++)
		json_array_append_new(ports, node_port_record(&c->ports[i]));
	doc = json_pack("{s:s, s:s, s:s, s:i, s:O, s:o, s:O, s:O}", "schema",
			RECORD_SCHEMA, "verdict", verdict, "host", c->o->host,
			"exit_code", rc, "findings", c->findings, "ports",
			ports, "skipped", c->skipped, "notes", c->notes);
	if (!doc || json_dump_file(doc, c->o->json,
				   JSON_INDENT(2) | JSON_SORT_KEYS)) {
		log_error("--json %s: cannot write the file", c->o->json);
		ret = -1;
	}
	json_decref(doc);
	return ret;
}

/* The Slurm node name: the host name up to its first dot. */
static void slurm_name(const char *host, char *buf, size_t len)
{
	snprintf(buf, len, "%.*s", (int)strcspn(host, "."), host);
}

static void run_slurm(const struct node_ctx *c, const char *verdict, int rc)
{
	double t = c->o->timeout_s > 0 ? c->o->timeout_s :
		   NODE_SCONTROL_TIMEOUT_S;
	const char *why = strstr(verdict, ": FAIL");
	bool resumed = false;
	char name[256];

	slurm_name(c->o->host, name, sizeof(name));
	if (rc == IBP_EXIT_FAIL && c->o->drain) {
		if (slurm_drain(name, why ? why + 2 : verdict, t) == 0)
			printf("  slurm: drained %s\n", name);
	} else if (rc == IBP_EXIT_PASS && c->o->resume) {
		if (slurm_resume_if_ours(name, t, &resumed) == 0 && resumed)
			printf("  slurm: resumed %s (ibproof had drained "
			       "it)\n", name);
	}
}

int node_report(struct node_ctx *c)
{
	int n_fail = node_count_severity(c->findings, "fail");
	int rc = n_fail ? IBP_EXIT_FAIL :
		 c->no_test ? IBP_EXIT_RUNTIME : IBP_EXIT_PASS;
	char *verdict = node_verdict_line(c->o->host, c->findings);

	if (!verdict)
		return IBP_EXIT_RUNTIME;
	if (rc == IBP_EXIT_RUNTIME) { /* never PASS what was not tested */
		free(verdict);
		verdict = NULL;
		if (asprintf(&verdict, "node %s: COULD NOT TEST",
			     c->o->host) < 0)
			return IBP_EXIT_RUNTIME;
	}
	printf("%s\n", verdict);
	print_findings(stdout, c->findings, "fail");
	print_findings(stdout, c->findings, "warn");
	print_findings(stdout, c->findings, "info");
	print_ports(stdout, c);
	print_list(stdout, "skipped", c->skipped);
	print_list(stdout, "note", c->notes);
	fflush(stdout);
	node_run_record(c, "end", rc, verdict);
	if (c->o->json && write_json(c, verdict, rc) && rc == IBP_EXIT_PASS)
		rc = IBP_EXIT_RUNTIME;
	run_slurm(c, verdict, rc);
	free(verdict);
	return rc;
}
