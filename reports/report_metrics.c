// SPDX-License-Identifier: MIT
/* node_exporter textfile (Prometheus exposition format) and JUnit XML. */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "common/record.h"
#include "reports/report.h"

static void prom_port_labels(struct report_buf *b, const struct report_hport *h)
{
	char g[19];

	report_buf_puts(b, "{host=\"");
	report_prom_label(b, h->host);
	report_buf_puts(b, "\",ca=\"");
	report_prom_label(b, h->ca);
	report_buf_printf(b, "\",port=\"%d\",guid=\"%s\"}", h->port,
			  record_guid_str(h->guid, g));
}

struct port_metric {
	const char *name, *help;
};

static const struct port_metric port_metrics[] = {
	{ "ibproof_port_bandwidth_gbps",
	  "Average bandwidth of the HCA port's measured pairs, Gb/s (10^9 bit/s)." },
	{ "ibproof_port_bandwidth_min_gbps",
	  "Lowest average bandwidth among the HCA port's pairs, Gb/s." },
	{ "ibproof_port_low_pairs", "Pairs of the HCA port judged low." },
	{ "ibproof_port_blamed", "1 when the report blames the HCA port." },
};

static double port_value(const struct report *r, size_t i, size_t m)
{
	const struct report_hport *h = &r->hports[i];
	unsigned int n = h->n_ok + h->n_low;

	switch (m) {
	case 0:
		return n ? h->sum_gbps / n : 0;
	case 1:
		return h->min_gbps < 0 ? 0 : h->min_gbps;
	case 2:
		return h->n_low;
	default:
		return r->attr ? (r->attr[i].blame != 0) : 0;
	}
}

static size_t locate_entries(const struct report *r)
{
	size_t n = 0;

	for (size_t i = 0; i < r->n_entries; i++)
		n += !strcmp(r->entries[i].action, "locate");
	return n;
}

/* The coverage block (issue 32): per tool and part, and INCOMPLETE. */
static void prom_coverage(struct report_buf *b, const struct report *r)
{
	static const char *const state[] = { "in_scope", "tested",
					     "not_tested" };

	report_buf_puts(
		b,
		"# HELP ibproof_coverage_parts Parts in a tool's scope, tested and not tested, over its runs.\n"
		"# TYPE ibproof_coverage_parts gauge\n");
	for (size_t i = 0; i < r->n_coverage; i++) {
		const struct report_coverage *c = &r->coverage[i];
		long long v[] = { c->in_scope, c->tested, c->not_tested };

		for (size_t k = 0; c->part && k < 3; k++) {
			report_buf_puts(b, "ibproof_coverage_parts{tool=\"");
			report_prom_label(b, c->tool);
			report_buf_puts(b, "\",part=\"");
			report_prom_label(b, c->part);
			report_buf_printf(b, "\",state=\"%s\"} %lld\n",
					  state[k], v[k]);
		}
	}
	report_buf_puts(
		b,
		"# HELP ibproof_coverage_unknown_runs Runs whose end record carries no scope.\n"
		"# TYPE ibproof_coverage_unknown_runs gauge\n");
	for (size_t i = 0; i < r->n_coverage; i++) {
		if (r->coverage[i].part)
			continue;
		report_buf_puts(b, "ibproof_coverage_unknown_runs{tool=\"");
		report_prom_label(b, r->coverage[i].tool);
		report_buf_printf(b, "\"} %u\n", r->coverage[i].runs);
	}
	report_buf_printf(
		b,
		"# HELP ibproof_verdict_incomplete 1 when something in scope was not tested and not accepted.\n"
		"# TYPE ibproof_verdict_incomplete gauge\n"
		"ibproof_verdict_incomplete %d\n",
		report_incomplete(r));
}

static void prom_findings(struct report_buf *b, const struct report *r)
{
	static const char *const sev[] = { "fail", "warn", "info" };

	report_buf_puts(
		b,
		"# HELP ibproof_findings Findings of the report by severity.\n"
		"# TYPE ibproof_findings gauge\n");
	for (size_t s = 0; s < 3; s++) {
		size_t n = 0;

		for (size_t i = 0; i < r->n_findings; i++)
			n += !strcmp(sev[s],
				     json_string_value(json_object_get(
					     r->findings[i].rec, "severity")));
		report_buf_printf(b, "ibproof_findings{severity=\"%s\"} %zu\n",
				  sev[s], n);
	}
	report_buf_printf(
		b,
		"# HELP ibproof_disable_entries Entries of the disable list.\n"
		"# TYPE ibproof_disable_entries gauge\n"
		"ibproof_disable_entries %zu\n"
		"# HELP ibproof_locate_entries Entries whose evidence fits several parts (action locate): a fault whose place is not known yet.\n"
		"# TYPE ibproof_locate_entries gauge\n"
		"ibproof_locate_entries %zu\n"
		"# HELP ibproof_verdict_pass 1 when acceptance passed.\n"
		"# TYPE ibproof_verdict_pass gauge\n"
		"ibproof_verdict_pass %d\n",
		r->n_entries, locate_entries(r), report_passed(r));
	prom_coverage(b, r);
}

int report_write_prometheus(const struct report *r, const char *path)
{
	struct report_buf b = { 0 };
	int ret;

	for (size_t m = 0; m < sizeof(port_metrics) / sizeof(port_metrics[0]);
	     m++) {
		report_buf_printf(&b, "# HELP %s %s\n# TYPE %s gauge\n",
				  port_metrics[m].name, port_metrics[m].help,
				  port_metrics[m].name);
		for (size_t i = 0; i < r->n_hports; i++) {
			if ((!r->hports[i].n_ok && !r->hports[i].n_low) ||
			    !isfinite(port_value(r, i, m)))
				continue; /* D10: no sample rather than inf */
			report_buf_puts(&b, port_metrics[m].name);
			prom_port_labels(&b, &r->hports[i]);
			report_buf_printf(&b, " %.6g\n", port_value(r, i, m));
		}
	}
	prom_findings(&b, r);
	ret = report_write_file(path, &b);
	report_buf_free(&b);
	return ret;
}

/* The check a finding's category belongs to. */
static const char *check_of(const char *cat)
{
	static const char *const bw[] = {
		"low-bandwidth",	  "intermittent", "completion-errors",
		"unattributed-low-pairs", "not-tested",	  NULL
	};
	static const char *const cabling[] = { "miswired",
					       "missing-link",
					       "unexpected-link",
					       "wrong-port",
					       "swapped",
					       "node-replaced",
					       "port-disabled",
					       "degraded-width",
					       "degraded-speed",
					       "unreachable",
					       NULL };

	if (!strncmp(cat, "pcie-", 5))
		return "pcie";
	if (!strcmp(cat, "common-cause"))
		return "scope";
	for (size_t i = 0; bw[i]; i++)
		if (!strcmp(cat, bw[i]))
			return "bandwidth";
	for (size_t i = 0; cabling[i]; i++)
		if (!strcmp(cat, cabling[i]))
			return "cabling";
	return "counters";
}

static const char *const checks[] = { "bandwidth", "cabling", "counters",
				      "pcie", "scope" };

static void junit_case(struct report_buf *b, const struct report *r,
		       const char *check, size_t *failures)
{
	struct report_buf fail = { 0 }, out = { 0 };

	for (size_t i = 0; i < r->n_findings; i++) {
		const json_t *f = r->findings[i].rec;
		const char *cat =
			json_string_value(json_object_get(f, "category"));
		const char *sev =
			json_string_value(json_object_get(f, "severity"));
		struct report_buf *to = !strcmp(sev, "fail") ? &fail : &out;

		if (strcmp(check_of(cat), check))
			continue;
		/* D4: the category is from the records: escaped too */
		report_xml_escape(to, sev);
		report_buf_puts(to, " [");
		report_xml_escape(to, cat);
		report_buf_puts(to, "] ");
		report_xml_escape(
			to, json_string_value(json_object_get(f, "message")));
		report_buf_puts(to, "&#10;");
	}
	report_buf_printf(b,
			  "  <testcase classname=\"ibproof.%s\" name=\"%s\">\n",
			  check, check);
	if (fail.s) {
		(*failures)++;
		report_buf_printf(
			b,
			"   <failure message=\"%s findings failed\">%s</failure>\n",
			check, fail.s);
	}
	if (out.s)
		report_buf_printf(b, "   <system-out>%s</system-out>\n", out.s);
	report_buf_puts(b, "  </testcase>\n");
	report_buf_free(&fail);
	report_buf_free(&out);
}

/* The coverage testcase (issue 32): fails when the verdict is INCOMPLETE. */
static void junit_coverage(struct report_buf *b, const struct report *r,
			   size_t *failures)
{
	char text[1024];

	report_buf_puts(b, "  <testcase classname=\"ibproof.coverage\" "
			   "name=\"coverage\">\n");
	if (report_incomplete(r)) {
		(*failures)++;
		report_incomplete_text(r, text, sizeof(text));
		report_buf_puts(b, "   <failure message=\"not everything in "
				   "scope was tested\">");
		report_xml_escape(b, text); /* tool and part names: records' */
		report_buf_puts(b, "</failure>\n");
	}
	report_buf_puts(b, "  </testcase>\n");
}

int report_write_junit(const struct report *r, const char *path)
{
	struct report_buf b = { 0 }, cases = { 0 };
	size_t failures = 0, n = sizeof(checks) / sizeof(checks[0]);
	int ret;

	for (size_t c = 0; c < n; c++)
		junit_case(&cases, r, checks[c], &failures);
	junit_coverage(&cases, r, &failures);
	n++;
	report_buf_printf(
		&b,
		"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<testsuites>\n <testsuite name=\"ibproof report\" tests=\"%zu\" failures=\"%zu\">\n",
		n, failures);
	report_buf_puts(&b, cases.s ? cases.s : "");
	report_buf_puts(&b, " </testsuite>\n</testsuites>\n");
	b.oom |= cases.oom;
	ret = report_write_file(path, &b);
	report_buf_free(&b);
	report_buf_free(&cases);
	return ret;
}
