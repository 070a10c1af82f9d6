// SPDX-License-Identifier: MIT
/*
 * The report of a node run: the verdict line first on stdout, then the
 * detail (findings by severity, the ports, what was skipped), and the --json
 * document. node_run.c writes the run end record and drives Slurm.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rdma/port_sysfs.h"
#include "common/cli.h"
#include "common/ibport.h"
#include "common/log.h"
#include "common/record.h"
#include "node/node.h"
#include "node/node_run.h"

static void print_findings(FILE *f, const json_t *findings, const char *sev)
{
	size_t i;
	json_t *fd;

	json_array_foreach(findings, i, fd)
	{
		const char *s =
			json_string_value(json_object_get(fd, "severity"));

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

		fprintf(f,
			"  port %s %d: %s/%s %s %s (%.4g Gb/s nominal), "
			"%s, fw %s%s%s\n",
			p->ca, p->port, ib_port_state_name(p->state),
			ib_phys_state_name(p->phys_state),
			p->lanes ? ib_width_name(p->lanes, w) : "?",
			ib_speed_name(p->speed), p->nominal_gbps, p->link_layer,
			p->fw_ver[0] ? p->fw_ver : "?",
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

int node_report_json(const struct node_ctx *c, const char *verdict, int rc)
{
	json_t *ports = json_array(), *doc;
	int ret = 0;

	for (int i = 0; i < c->n; i++)
		json_array_append_new(ports, node_port_record(&c->ports[i]));
	doc = json_pack("{s:s, s:s, s:s, s:i, s:O, s:o, s:O, s:O}", "schema",
			RECORD_SCHEMA, "verdict", verdict, "host", c->o->host,
			"exit_code", rc, "findings", c->findings, "ports",
			ports, "skipped", c->skipped, "notes", c->notes);
	if (!doc ||
	    json_dump_file(doc, c->o->json, JSON_INDENT(2) | JSON_SORT_KEYS)) {
		log_error("--json %s: cannot write the file", c->o->json);
		ret = -1;
	}
	json_decref(doc);
	return ret;
}

/* The exit code the findings call for and the verdict line that says it. */
static int decide(const struct node_ctx *c, char **verdict)
{
	int n_fail = node_count_severity(c->findings, "fail");
	/* a part not tested (a PCIe link not judged): INCOMPLETE, exit 1 */
	int rc = n_fail				      ? IBP_EXIT_FAIL
		 : c->no_test			      ? IBP_EXIT_RUNTIME
		 : node_count_not_tested(c->findings) ? IBP_EXIT_FAIL
						      : IBP_EXIT_PASS;

	*verdict = node_verdict_line(c->o->host, c->findings);
	if (!*verdict)
		return -ENOMEM;
	if (rc == IBP_EXIT_RUNTIME) { /* never PASS what was not tested */
		free(*verdict);
		*verdict = NULL;
		if (asprintf(verdict, "node %s: COULD NOT TEST", c->o->host) <
		    0) {
			*verdict = NULL;
			return -ENOMEM;
		}
	}
	return rc;
}

int node_report(const struct node_ctx *c, char **verdict)
{
	int rc = decide(c, verdict);

	if (rc < 0)
		return IBP_EXIT_RUNTIME;
	printf("%s\n", *verdict);
	print_findings(stdout, c->findings, "fail");
	print_findings(stdout, c->findings, "warn");
	print_findings(stdout, c->findings, "info");
	print_ports(stdout, c);
	print_list(stdout, "skipped", c->skipped);
	print_list(stdout, "note", c->notes);
	fflush(stdout);
	return rc;
}
