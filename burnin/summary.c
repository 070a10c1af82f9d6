// SPDX-License-Identifier: MIT
/*
 * The human summary of rank 0's findings: the port findings (findings.c)
 * and the cable findings of judging by route (route_records.c) print
 * their lines the same way, on the same stream.
 */
#include <stdio.h>
#include <string.h>

#include "burnin/run.h"

FILE *burnin_summary_stream(const struct burnin_coord *co)
{
	return co->ctx->cfg->records && !strcmp(co->ctx->cfg->records, "-")
		       ? stderr
		       : stdout;
}

void burnin_summary_finding(const struct burnin_coord *co, const json_t *f)
{
	fprintf(burnin_summary_stream(co), "  %s %s: %s\n",
		json_string_value(json_object_get(f, "severity")),
		json_string_value(json_object_get(f, "category")),
		json_string_value(json_object_get(f, "message")));
}
