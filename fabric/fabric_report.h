/* SPDX-License-Identifier: MIT */
/* fabric_report.h: fabric results -> records and the human summary. */
#ifndef IBPROOF_FABRIC_REPORT_H
#define IBPROOF_FABRIC_REPORT_H

#include <stdio.h>

#include <jansson.h>

#include "fabric/fabric_counters.h"
#include "fabric/fabric_finding.h"
#include "fabric/fabric_model.h"

/* One end as a port reference: {node, guid, port, type} (+ host, ca,
 * port_guid for a CA). */
json_t *fabric_ref_json(const struct fabric_ref *r);
json_t *fabric_finding_record(const struct fabric_finding *f);
/* A `link` record of the cable at p (p->remote must be set). */
json_t *fabric_link_record(const struct fabric_port *p);
/* The `counters` record of a port: its values (cur) and the window they
 * were judged over (docs/records.md). */
json_t *fabric_counters_record(const struct fabric_port *p,
			       const struct fabric_port_counters *pc,
			       const struct fabric_window *w);
void fabric_print_summary(FILE *out, const char *what, const struct fabric *m,
			  const struct fabric_findings *fs);

#endif
