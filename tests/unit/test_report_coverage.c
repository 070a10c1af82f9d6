// SPDX-License-Identifier: MIT
/*
 * The report's coverage block (issue 32), on run and finding records
 * written here: per tool and part, in scope / tested / not tested summed
 * exactly over the runs' `scope`; the not-tested findings by part and
 * reason; INCOMPLETE (not passed, exit 1) for a gap not accepted, a run
 * without scope (records from before issue 32), a run that started and
 * never ended, and a not-tested finding no run's scope counts; gaps
 * accepted by the run or by --accept-untested pass and stay listed; FAIL
 * and INCOMPLETE together; the JSON and the Prometheus textfile.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "common/record.h"
#include "reports/report.h"

struct fixture {
	char path[64], path2[64]; /* a second record file, when used */
	struct record_writer *w;
	struct report r;
	bool analysed;
};

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));
	int fd;

	assert_non_null(f);
	snprintf(f->path, sizeof(f->path), "/tmp/ibproof-cov-XXXXXX.jsonl");
	fd = mkstemps(f->path, 6);
	assert_true(fd >= 0);
	close(fd);
	f->w = record_writer_open(f->path, false);
	assert_non_null(f->w);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	if (f->w)
		record_writer_close(f->w);
	if (f->analysed)
		report_fini(&f->r);
	unlink(f->path);
	if (f->path2[0])
		unlink(f->path2);
	free(f);
	return 0;
}

static void emit(struct fixture *f, const char *kind, json_t *fields)
{
	json_t *rec = record_new(kind);

	assert_non_null(rec);
	assert_non_null(fields);
	assert_int_equal(0, json_object_update_new(rec, fields));
	assert_int_equal(0, record_writer_emit_steal(f->w, rec));
}

/* A run of tool: start, then (scope non-NULL or no_scope) its end. */
static void run(struct fixture *f, const char *tool, json_t *scope,
		json_t *accepted, bool ends)
{
	json_t *end = json_pack("{s:s,s:s,s:s,s:i}", "tool", tool, "event",
				"end", "outcome", "pass", "exit_code", 0);

	emit(f, "run",
	     json_pack("{s:s,s:s,s:{}}", "tool", tool, "event", "start",
		       "params"));
	if (scope)
		json_object_set_new(end, "scope", scope);
	if (accepted)
		json_object_set_new(end, "accepted_untested", accepted);
	if (ends)
		emit(f, "run", end);
	else
		json_decref(end);
}

static json_t *part(long in, long tested, long not_tested)
{
	return json_pack("{s:i,s:i,s:i}", "in_scope", (int)in, "tested",
			 (int)tested, "not_tested", (int)not_tested);
}

/* A not-tested finding on HCA port i, part ports, for reason. */
static void untested_port(struct fixture *f, int i, const char *reason)
{
	char host[16], g[19];

	snprintf(host, sizeof(host), "node%02d", i);
	emit(f, "finding",
	     json_pack("{s:s,s:s,s:o,s:{s:s,s:s,s:i,s:s},s:s,s:s}", "severity",
		       "warn", "category", "not-tested", "subject",
		       record_port_ref(host, "mlx5_0", 1,
				       0x0002c90300000100ULL + (uint64_t)i),
		       "evidence", "part", "ports", "reason", reason,
		       "mad_status", 0, "guid",
		       record_guid_str(0x0002c90300000100ULL + (uint64_t)i, g),
		       "action", "check-access", "message",
		       "counters not read: no answer"));
}

/* Further records go to a second file (another node's, another run's). */
static void second_file(struct fixture *f)
{
	int fd;

	assert_int_equal(0, record_writer_close(f->w));
	snprintf(f->path2, sizeof(f->path2), "/tmp/ibproof-cov-XXXXXX.jsonl");
	fd = mkstemps(f->path2, 6);
	assert_true(fd >= 0);
	close(fd);
	f->w = record_writer_open(f->path2, false);
	assert_non_null(f->w);
}

static void analyse(struct fixture *f, const char *accept)
{
	char *files[] = { f->path, f->path2 };

	assert_int_equal(0, record_writer_close(f->w));
	f->w = NULL;
	assert_int_equal(0, report_init(&f->r));
	f->analysed = true;
	judge_defaults(&f->r.params.judge);
	f->r.params.group_min = 4;
	f->r.params.threads = 1;
	f->r.params.accept_untested = accept;
	assert_int_equal(
		0, report_analyse(&f->r, files, f->path2[0] ? 2 : 1, NULL));
}

static const struct report_coverage *row_of(const struct report *r,
					    const char *tool, const char *p)
{
	for (size_t i = 0; i < r->n_coverage; i++)
		if (!strcmp(r->coverage[i].tool, tool) &&
		    (p ? r->coverage[i].part && !strcmp(r->coverage[i].part, p)
		       : !r->coverage[i].part))
			return &r->coverage[i];
	fail_msg("no coverage row %s %s", tool, p ? p : "(unknown)");
	return NULL;
}

static void verdict_is(const struct report *r, const char *want)
{
	char v[1024];

	report_verdict_line(r, v, sizeof(v));
	assert_string_equal(want, v);
}

/* The output write() writes has text in it. */
static void file_has(const struct report *r,
		     int (*write)(const struct report *, const char *),
		     const char *suffix, const char *text)
{
	char path[64], *buf = malloc(1 << 20);
	size_t n;
	FILE *in;

	assert_non_null(buf);
	snprintf(path, sizeof(path), "/tmp/ibproof-cov-XXXXXX%s", suffix);
	close(mkstemps(path, (int)strlen(suffix)));
	assert_int_equal(0, write(r, path));
	in = fopen(path, "r");
	assert_non_null(in);
	n = fread(buf, 1, (1 << 20) - 1, in);
	buf[n] = '\0';
	fclose(in);
	unlink(path);
	if (!strstr(buf, text))
		fail_msg("%s: no '%s'", suffix, text);
	free(buf);
}

/* The JUnit file has a coverage testcase, and text in it. */
static void junit_has(const struct report *r, const char *text)
{
	file_has(r, report_write_junit, ".xml",
		 "classname=\"ibproof.coverage\"");
	file_has(r, report_write_junit, ".xml", text);
}

/* Two runs of fabric counters, one with 3 ports unread; burnin whole. */
static void counts_are_summed_exactly(void **state)
{
	struct fixture *f = *state;
	const struct report_coverage *c;

	run(f, "fabric counters",
	    json_pack("{s:o,s:o}", "ports", part(48, 45, 3), "switches",
		      part(6, 6, 0)),
	    NULL, true);
	second_file(f); /* the same tool's run on another subnet */
	run(f, "fabric counters", json_pack("{s:o}", "ports", part(48, 48, 0)),
	    NULL, true);
	run(f, "burnin",
	    json_pack("{s:o,s:o}", "ports", part(16, 16, 0), "pairs",
		      part(120, 120, 0)),
	    NULL, true);
	for (int i = 0; i < 3; i++)
		untested_port(f, i, "no-answer");
	analyse(f, NULL);
	assert_int_equal(4, f->r.n_coverage);
	c = row_of(&f->r, "fabric counters", "ports");
	assert_int_equal(96, c->in_scope);
	assert_int_equal(93, c->tested);
	assert_int_equal(3, c->not_tested);
	assert_int_equal(2, c->runs);
	assert_false(c->accepted);
	c = row_of(&f->r, "fabric counters", "switches");
	assert_int_equal(6, c->in_scope);
	assert_int_equal(0, c->not_tested);
	c = row_of(&f->r, "burnin", "pairs");
	assert_int_equal(120, c->tested);
	assert_int_equal(3, json_integer_value(json_object_get(
				    json_object_get(f->r.untested, "ports"),
				    "no-answer")));
	assert_true(report_incomplete(&f->r));
	assert_false(report_passed(&f->r));
	verdict_is(&f->r,
		   "INCOMPLETE: fabric counters: 3 of 96 ports not tested");
	file_has(&f->r, report_write_html, ".html",
		 "<div id=\"verdict\" class=\"verdict incomplete\">");
	file_has(&f->r, report_write_html, ".html",
		 "<tr class=\"coverage incomplete\"><td>fabric counters</td>"
		 "<td>ports</td><td>96</td><td>93</td><td>3</td><td>no</td>");
}

static void accepted_by_the_report_passes_listed(void **state)
{
	struct fixture *f = *state;
	struct report_buf b = { 0 };

	run(f, "fabric counters", json_pack("{s:o}", "ports", part(48, 45, 3)),
	    NULL, true);
	for (int i = 0; i < 3; i++)
		untested_port(f, i, "m-key");
	analyse(f, "cables,ports");
	assert_true(row_of(&f->r, "fabric counters", "ports")->accepted);
	assert_false(report_incomplete(&f->r));
	assert_true(report_passed(&f->r));
	verdict_is(&f->r, "PASS");
	report_coverage_lines(&f->r, &b);
	assert_non_null(
		strstr(b.s, "fabric counters ports: 48 / 45 / 3 (accepted)"));
	assert_non_null(strstr(b.s, "not tested: ports, m-key: 3"));
	report_buf_free(&b);
}

static void accepted_by_the_run_passes(void **state)
{
	struct fixture *f = *state;
	json_t *doc;

	run(f, "burnin", json_pack("{s:o}", "cables", part(32, 30, 2)),
	    json_pack("[s]", "cables"), true);
	analyse(f, NULL);
	assert_true(row_of(&f->r, "burnin", "cables")->accepted);
	assert_true(report_passed(&f->r));
	doc = report_to_json(&f->r);
	assert_string_equal("pass",
			    json_string_value(json_object_get(doc, "verdict")));
	assert_false(json_is_true(json_object_get(
		json_object_get(doc, "coverage"), "incomplete")));
	json_decref(doc);
}

/* Records from before issue 32: no scope. Coverage unknown, not PASS. */
static void no_scope_is_coverage_unknown(void **state)
{
	struct fixture *f = *state;
	json_t *doc;

	run(f, "fabric check", NULL, NULL, true);
	analyse(f, NULL);
	assert_int_equal(1, row_of(&f->r, "fabric check", NULL)->runs);
	assert_false(report_passed(&f->r));
	verdict_is(
		&f->r,
		"INCOMPLETE: fabric check: coverage unknown (1 run without scope)");
	doc = report_to_json(&f->r);
	assert_string_equal("incomplete",
			    json_string_value(json_object_get(doc, "verdict")));
	json_decref(doc);
}

static void unknown_accepted_passes(void **state)
{
	struct fixture *f = *state;

	run(f, "fabric check", NULL, NULL, true);
	analyse(f, "unknown");
	assert_true(report_passed(&f->r));
}

/*
 * burnin --resume appends to its file: the interrupted run's end record
 * (no scope) is superseded by the resumed run's, which judged both.
 */
static void resumed_run_counts_once(void **state)
{
	struct fixture *f = *state;

	run(f, "burnin", NULL, NULL, true); /* interrupted: no scope */
	run(f, "burnin", json_pack("{s:o}", "pairs", part(28, 28, 0)), NULL,
	    true);
	analyse(f, NULL);
	assert_int_equal(1, f->r.n_coverage);
	assert_int_equal(28, row_of(&f->r, "burnin", "pairs")->in_scope);
	assert_true(report_passed(&f->r));
}

/* A run that started and never wrote its end (killed): not PASS. */
static void started_never_ended(void **state)
{
	struct fixture *f = *state;

	run(f, "burnin", NULL, NULL, false);
	analyse(f, NULL);
	assert_int_equal(1, row_of(&f->r, "burnin", NULL)->unended);
	verdict_is(
		&f->r,
		"INCOMPLETE: burnin: coverage unknown (1 run without scope or end record)");
}

/* A not-tested cable (a finding from before issue 32: no part) that no
 * run's scope counts still makes the report INCOMPLETE. */
static void stray_not_tested_finding(void **state)
{
	struct fixture *f = *state;
	char g[19];

	emit(f, "finding",
	     json_pack(
		     "{s:s,s:s,s:{s:{s:s,s:s,s:i},s:{s:s,s:s,s:i}},s:{},s:s,s:s}",
		     "severity", "warn", "category", "not-tested", "subject",
		     "a", "node", "leaf01", "guid", record_guid_str(0x10, g),
		     "port", 5, "b", "node", "spine01", "guid",
		     "0x0000000000000020", "port", 1, "evidence", "action",
		     "none", "message",
		     "cable leaf01:5->spine01:1: not tested"));
	analyse(f, NULL);
	assert_int_equal(0, f->r.n_coverage);
	assert_true(report_incomplete(&f->r));
	verdict_is(
		&f->r,
		"INCOMPLETE: 1 not-tested findings of cables that no run's scope counts");
}

/* A fail finding and a gap: FAIL first, INCOMPLETE after it. */
static void fail_and_incomplete(void **state)
{
	struct fixture *f = *state;
	json_t *doc;

	run(f, "pcie", json_pack("{s:o}", "nodes", part(4, 3, 1)), NULL, true);
	emit(f, "finding",
	     json_pack("{s:s,s:s,s:{s:s,s:s},s:{},s:s,s:s}", "severity", "fail",
		       "category", "pcie-degraded", "subject", "host", "node01",
		       "bdf", "0000:c1:00.0", "evidence", "action",
		       "check-pcie", "message", "link trained down"));
	analyse(f, NULL);
	verdict_is(
		&f->r,
		"FAIL: 1 node to check (PCIe); INCOMPLETE: pcie: 1 of 4 nodes not tested");
	doc = report_to_json(&f->r);
	assert_string_equal("fail",
			    json_string_value(json_object_get(doc, "verdict")));
	json_decref(doc);
	junit_has(&f->r, "<failure message=\"not everything in scope was "
			 "tested\">INCOMPLETE: pcie: 1 of 4 nodes not tested"
			 "</failure>");
}

static void prometheus_carries_it(void **state)
{
	struct fixture *f = *state;
	char prom[] = "/tmp/ibproof-cov-XXXXXX.prom", line[256];
	bool parts = false, incomplete = false, unknown = false;
	FILE *in;

	run(f, "fabric counters", json_pack("{s:o}", "ports", part(48, 45, 3)),
	    NULL, true);
	run(f, "fabric check", NULL, NULL, true);
	analyse(f, NULL);
	close(mkstemps(prom, 5));
	assert_int_equal(0, report_write_prometheus(&f->r, prom));
	in = fopen(prom, "r");
	assert_non_null(in);
	while (fgets(line, sizeof(line), in)) {
		parts |= !strcmp(
			line,
			"ibproof_coverage_parts{tool=\"fabric counters\",part=\"ports\",state=\"not_tested\"} 3\n");
		unknown |= !strcmp(
			line,
			"ibproof_coverage_unknown_runs{tool=\"fabric check\"} 1\n");
		incomplete |= !strcmp(line, "ibproof_verdict_incomplete 1\n");
	}
	fclose(in);
	unlink(prom);
	assert_true(parts);
	assert_true(unknown);
	assert_true(incomplete);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(counts_are_summed_exactly,
						setup, teardown),
		cmocka_unit_test_setup_teardown(
			accepted_by_the_report_passes_listed, setup, teardown),
		cmocka_unit_test_setup_teardown(accepted_by_the_run_passes,
						setup, teardown),
		cmocka_unit_test_setup_teardown(no_scope_is_coverage_unknown,
						setup, teardown),
		cmocka_unit_test_setup_teardown(unknown_accepted_passes, setup,
						teardown),
		cmocka_unit_test_setup_teardown(started_never_ended, setup,
						teardown),
		cmocka_unit_test_setup_teardown(resumed_run_counts_once, setup,
						teardown),
		cmocka_unit_test_setup_teardown(stray_not_tested_finding, setup,
						teardown),
		cmocka_unit_test_setup_teardown(fail_and_incomplete, setup,
						teardown),
		cmocka_unit_test_setup_teardown(prometheus_carries_it, setup,
						teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
