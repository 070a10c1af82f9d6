// SPDX-License-Identifier: MIT
/*
 * report_coverage.c: the report's coverage block (issue 32). Per tool and
 * kind of part, in scope / tested / not tested, summed over the run end
 * records' `scope`; the not-tested findings by part and reason; and the
 * verdict's INCOMPLETE: a gap not accepted, a run that wrote no scope or
 * started and never ended (coverage unknown), or a not-tested finding of
 * a part no run's scope counts. Never PASS by absence.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/array.h"
#include "common/cli.h"
#include "reports/report.h"

static const char *str_at(const json_t *o, const char *key)
{
	return json_string_value(json_object_get(o, key));
}

static bool in_array(const json_t *a, const char *s)
{
	size_t i;
	json_t *v;

	json_array_foreach(a, i,
			   v) if (json_string_value(v) &&
				  !strcmp(json_string_value(v), s)) return true;
	return false;
}

static struct report_coverage *row(struct report *r, const char *tool,
				   const char *part)
{
	struct report_coverage *c;

	tool = strtab_intern(&r->strs, tool);
	part = part ? strtab_intern(&r->strs, part) : NULL;
	for (size_t i = 0; i < r->n_coverage; i++)
		if (r->coverage[i].tool == tool && r->coverage[i].part == part)
			return &r->coverage[i];
	if (!tool || array_reserve(&r->coverage, &r->cap_coverage,
				   r->n_coverage, sizeof(*r->coverage)))
		return NULL;
	c = &r->coverage[r->n_coverage++];
	*c = (struct report_coverage){ .tool = tool, .part = part };
	return c;
}

static long long count_at(const json_t *o, const char *key)
{
	json_int_t v = json_integer_value(json_object_get(o, key));

	return v > 0 ? (long long)v : 0;
}

/* One run end record: its scope into the rows, or coverage unknown. */
static int take_run(struct report *r, const json_t *end)
{
	const char *tool = str_at(end, "tool") ? str_at(end, "tool") : "?";
	const json_t *scope = json_object_get(end, "scope"), *v;
	const json_t *acc = json_object_get(end, "accepted_untested");
	struct report_coverage *c;
	const char *part;

	if (!json_is_object(scope)) {
		c = row(r, tool, NULL);
		if (!c)
			return -ENOMEM;
		c->runs++;
		c->accepted =
			cli_list_has(r->params.accept_untested, "unknown");
		return 0;
	}
	json_object_foreach((json_t *)scope, part, v)
	{
		if (!json_is_object(v))
			continue;
		c = row(r, tool, part);
		if (!c)
			return -ENOMEM;
		c->runs++;
		c->in_scope += count_at(v, "in_scope");
		c->tested += count_at(v, "tested");
		c->not_tested += count_at(v, "not_tested");
		c->accepted |= json_is_true(json_object_get(v, "accepted")) ||
			       in_array(acc, part) ||
			       cli_list_has(r->params.accept_untested, part);
	}
	return 0;
}

/*
 * The part a not-tested finding is about: evidence.part, else (records
 * from before issue 32) from its subject: a cable's two ends, a port, a
 * node.
 */
static const char *finding_part(const json_t *f)
{
	const json_t *subj = json_object_get(f, "subject");
	const char *part = str_at(json_object_get(f, "evidence"), "part");

	if (part)
		return part;
	if (json_object_get(subj, "a"))
		return "cables";
	if (json_object_get(subj, "port"))
		return "ports";
	return "nodes";
}

static int take_finding(struct report *r, const json_t *f)
{
	const char *part = finding_part(f),
		   *why = str_at(json_object_get(f, "evidence"), "reason");
	json_t *reasons = json_object_get(r->untested, part);
	json_int_t n;

	if (!reasons) {
		reasons = json_object();
		if (json_object_set_new(r->untested, part, reasons))
			return -ENOMEM;
	}
	why = why ? why : "unknown";
	n = json_integer_value(json_object_get(reasons, why));
	return json_object_set_new(reasons, why, json_integer(n + 1)) ? -ENOMEM
								      : 0;
}

int report_coverage_note_run(struct report *r, const json_t *rec, uint16_t file,
			     unsigned long line)
{
	const char *tool = str_at(rec, "tool"), *event = str_at(rec, "event");
	json_t *at;
	char key[160];
	int k = event && !strcmp(event, "end");

	snprintf(key, sizeof(key), "%u\t%.140s", file, tool ? tool : "?");
	at = json_object_get(r->run_lines, key);
	if (!at) {
		at = json_pack("[i,i]", 0, 0);
		if (json_object_set_new(r->run_lines, key, at))
			return -ENOMEM;
	}
	if ((json_int_t)line <= json_integer_value(json_array_get(at, k)))
		return 0;
	json_array_set_new(at, k, json_integer((json_int_t)line));
	/* a file's last end record of a tool is its run's: burnin --resume
	 * appends a run that judges the interrupted one's pairs too */
	return k && json_object_set(r->run_ends, key, (json_t *)rec) ? -ENOMEM
								     : 0;
}

/* Runs whose last start has no end after it: killed, or still running. */
static int take_unended(struct report *r)
{
	const char *key;
	json_t *at;

	json_object_foreach(r->run_lines, key, at)
	{
		struct report_coverage *c;

		if (json_integer_value(json_array_get(at, 0)) <=
		    json_integer_value(json_array_get(at, 1)))
			continue;
		c = row(r, strchr(key, '\t') + 1, NULL);
		if (!c)
			return -ENOMEM;
		c->runs++;
		c->unended++;
		c->accepted =
			cli_list_has(r->params.accept_untested, "unknown");
	}
	return 0;
}

int report_coverage_build(struct report *r)
{
	const char *key;
	size_t i;
	json_t *v;
	int ret = take_unended(r);

	json_object_foreach(r->run_ends, key, v)
	{
		if (!ret)
			ret = take_run(r, v);
	}
	for (i = 0; !ret && i < r->n_findings; i++) {
		const json_t *f = r->findings[i].rec;

		if (!r->findings[i].own && str_at(f, "category") &&
		    !strcmp(str_at(f, "category"), "not-tested"))
			ret = take_finding(r, f);
	}
	return ret;
}

/* Some run's scope counts part (then its rows decide). */
static bool part_scoped(const struct report *r, const char *part)
{
	for (size_t i = 0; i < r->n_coverage; i++)
		if (r->coverage[i].part && !strcmp(r->coverage[i].part, part))
			return true;
	return false;
}

/* A gap: the number of parts (or runs, for coverage unknown) missing. */
static long long gap(const struct report_coverage *c)
{
	return c->accepted ? 0 : c->part ? c->not_tested : c->runs;
}

/* Not-tested findings of parts no run's scope counts, not accepted. */
static long long stray_untested(const struct report *r, const char **part)
{
	const char *p;
	json_t *reasons, *n;
	long long sum = 0;

	json_object_foreach(r->untested, p, reasons)
	{
		const char *why;

		if (part_scoped(r, p) ||
		    cli_list_has(r->params.accept_untested, p))
			continue;
		json_object_foreach(reasons, why, n) sum +=
			json_integer_value(n);
		*part = p;
	}
	return sum;
}

bool report_incomplete(const struct report *r)
{
	const char *part;

	for (size_t i = 0; i < r->n_coverage; i++)
		if (gap(&r->coverage[i]))
			return true;
	return stray_untested(r, &part) > 0;
}

void report_incomplete_text(const struct report *r, char *buf, size_t len)
{
	const char *part = NULL, *sep = "";
	long long stray = stray_untested(r, &part);
	size_t used;

	snprintf(buf, len, "INCOMPLETE: ");
	for (size_t i = 0; i < r->n_coverage; i++) {
		const struct report_coverage *c = &r->coverage[i];

		used = strlen(buf);
		if (!gap(c) || used >= len)
			continue;
		if (c->part)
			snprintf(buf + used, len - used,
				 "%s%s: %lld of %lld %s not tested", sep,
				 c->tool, c->not_tested, c->in_scope, c->part);
		else
			snprintf(
				buf + used, len - used,
				"%s%s: coverage unknown (%u run%s without scope%s)",
				sep, c->tool, c->runs, c->runs == 1 ? "" : "s",
				c->unended ? " or end record" : "");
		sep = "; ";
	}
	used = strlen(buf);
	if (stray && used < len)
		snprintf(
			buf + used, len - used,
			"%s%lld not-tested findings of %s that no run's scope counts",
			sep, stray, part);
}

json_t *report_coverage_json(const struct report *r)
{
	json_t *rows = json_array(), *o;

	for (size_t i = 0; rows && i < r->n_coverage; i++) {
		const struct report_coverage *c = &r->coverage[i];

		o = c->part ? json_pack("{s:s,s:s,s:I,s:I,s:I,s:b,s:i}", "tool",
					c->tool, "part", c->part, "in_scope",
					(json_int_t)c->in_scope, "tested",
					(json_int_t)c->tested, "not_tested",
					(json_int_t)c->not_tested, "accepted",
					c->accepted, "runs", (int)c->runs)
			    : json_pack("{s:s,s:n,s:s,s:b,s:i,s:i}", "tool",
					c->tool, "part", "coverage", "unknown",
					"accepted", c->accepted, "runs",
					(int)c->runs, "unended",
					(int)c->unended);
		json_array_append_new(rows, o);
	}
	return json_pack("{s:o,s:O,s:b}", "scope", rows, "not_tested_by_reason",
			 r->untested, "incomplete", report_incomplete(r));
}

void report_coverage_lines(const struct report *r, struct report_buf *b)
{
	const char *part;
	json_t *reasons, *n;

	if (!r->n_coverage && !json_object_size(r->untested))
		return;
	report_buf_puts(b, "\ncoverage (in scope / tested / not tested):\n");
	for (size_t i = 0; i < r->n_coverage; i++) {
		const struct report_coverage *c = &r->coverage[i];

		report_buf_puts(b, "  ");
		report_term_text(b, c->tool);
		if (!c->part) {
			report_buf_printf(
				b,
				": coverage unknown (%u run%s: %u with no scope in its end record, from before issue 32; %u started with no end record, killed or still running)%s\n",
				c->runs, c->runs == 1 ? "" : "s",
				c->runs - c->unended, c->unended,
				c->accepted ? " (accepted)" : "");
			continue;
		}
		report_buf_puts(b, " ");
		report_term_text(b, c->part);
		report_buf_printf(b, ": %lld / %lld / %lld%s\n", c->in_scope,
				  c->tested, c->not_tested,
				  c->not_tested && c->accepted ? " (accepted)"
							       : "");
	}
	json_object_foreach(r->untested, part, reasons)
	{
		const char *why;

		json_object_foreach(reasons, why, n)
		{
			report_buf_puts(b, "  not tested: ");
			report_term_text(b, part);
			report_buf_puts(b, ", ");
			report_term_text(b, why);
			report_buf_printf(b, ": %lld\n",
					  (long long)json_integer_value(n));
		}
	}
}
