// SPDX-License-Identifier: MIT
/*
 * The options the report judges pairs with: burnin's run start records
 * list theirs under params (judge/judge_options.h), so the operator need
 * not repeat them. An option given on the command line wins; one not
 * given takes the value of burnin's last run start record (file order,
 * then line) when every run start record that names it agrees; when they
 * differ, the report cannot judge every run as it was judged, so it
 * judges with the defaults and says which files differ.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/log.h"
#include "reports/report.h"

static const char *const from_names[] = { "default", "records",
					  "command line" };

int report_run_start_take(struct report *r, const json_t *rec, uint16_t file,
			  unsigned long line)
{
	json_t *params = json_object_get(rec, "params");
	const char *tool = json_string_value(json_object_get(rec, "tool"));
	struct report_run_start *s;

	if (!tool || strcmp(tool, "burnin") || !json_is_object(params))
		return 0;
	if (r->n_run_starts == r->cap_run_starts) {
		size_t cap = r->cap_run_starts ? 2 * r->cap_run_starts : 8;

		s = realloc(r->run_starts, cap * sizeof(*s));
		if (!s)
			return -ENOMEM;
		r->run_starts = s;
		r->cap_run_starts = cap;
	}
	s = &r->run_starts[r->n_run_starts++];
	*s = (struct report_run_start){ file, line, json_incref(params) };
	return 0;
}

static int start_cmp(const void *x, const void *y)
{
	const struct report_run_start *a = x, *b = y;

	if (a->file != b->file)
		return a->file < b->file ? -1 : 1;
	return a->line < b->line ? -1 : a->line > b->line;
}

static const char *file_name(char **files, int n,
			     const struct report_run_start *s)
{
	return s->file < n ? files[s->file] : "(records)";
}

/* params.FIELD of a run start: 1 with *v, 0 when it does not say, or
 * -EINVAL (r->error: FILE:LINE and what was expected). */
static int start_value(struct report *r, char **files, int n,
		       const struct report_run_start *s, int i, double *v)
{
	const struct judge_option *o = &judge_options[i];
	json_t *j = json_object_get(s->params, o->field);
	char *got;

	if (!j || json_is_null(j))
		return 0;
	if (json_is_number(j) && judge_option_valid(i, json_number_value(j))) {
		*v = json_number_value(j);
		return 1;
	}
	got = json_dumps(j, JSON_ENCODE_ANY | JSON_COMPACT);
	snprintf(r->error, sizeof(r->error),
		 "%s:%lu: burnin run record: params.%s: expected %s from %g "
		 "to %g (--%s), got %.40s",
		 file_name(files, n, s), s->line, o->field,
		 o->integer ? "an integer" : "a number", o->min, o->max,
		 o->name, got ? got : "?");
	free(got);
	return -EINVAL;
}

/* What the run starts say of one option. */
struct option_runs {
	double first_value, value; /* the first's, the last's */
	long first, last; /* the first and last that say, -1: none */
	long differ; /* one that says another value than the first, or -1 */
};

static int option_in_runs(struct report *r, char **files, int n, int i,
			  struct option_runs *o)
{
	double v;

	*o = (struct option_runs){ 0, 0, -1, -1, -1 };
	for (size_t k = 0; k < r->n_run_starts; k++) {
		int ret = start_value(r, files, n, &r->run_starts[k], i, &v);

		if (ret < 0)
			return ret;
		if (!ret)
			continue;
		if (o->first < 0) {
			o->first = (long)k;
			o->first_value = v;
		} else if (v != o->first_value && o->differ < 0) {
			o->differ = (long)k;
		}
		o->last = (long)k;
		o->value = v;
	}
	return 0;
}

static json_t *start_place(char **files, int n,
			   const struct report_run_start *s)
{
	char buf[1024];

	snprintf(buf, sizeof(buf), "%s:%lu", file_name(files, n, s), s->line);
	return json_string(buf);
}

/* {"value": V, "from": "records", "record": "FILE:LINE"}; "differ" names
 * two run starts that disagree. */
static json_t *option_json(const struct report *r, char **files, int n, int i,
			   enum report_judging_from from,
			   const struct option_runs *o)
{
	const struct report_run_start *s = r->run_starts;
	double v = judge_option_get(&r->params.judge, i);
	json_t *j =
		json_pack("{s:o,s:s}", "value",
			  judge_options[i].integer ? json_integer((json_int_t)v)
						   : json_real(v),
			  "from", from_names[from]);

	if (j && from == REPORT_FROM_RECORDS)
		json_object_set_new(j, "record",
				    start_place(files, n, &s[o->last]));
	if (j && o->differ >= 0)
		json_object_set_new(
			j, "differ",
			json_pack("[o,o]", start_place(files, n, &s[o->first]),
				  start_place(files, n, &s[o->differ])));
	return j;
}

static void warn_differ(const struct report *r, char **files, int n, int i,
			const struct option_runs *o)
{
	const struct report_run_start *a = &r->run_starts[o->first];
	const struct report_run_start *b = &r->run_starts[o->differ];

	log_warn("report: burnin's runs were judged with different options "
		 "(%s %g in %s:%lu, %g in %s:%lu); judging with the defaults "
		 "of the options not given (docs/judging.md)",
		 judge_options[i].field, o->first_value, file_name(files, n, a),
		 a->line,
		 json_number_value(
			 json_object_get(b->params, judge_options[i].field)),
		 file_name(files, n, b), b->line);
}

static int judging_json(struct report *r, char **files, int n,
			const struct option_runs *runs, bool differ)
{
	json_decref(r->judging);
	r->judging = json_object();
	if (!r->judging)
		return -ENOMEM;
	for (int i = 0; i < JUDGE_N_OPTIONS; i++) {
		enum report_judging_from from = REPORT_FROM_DEFAULT;
		json_t *j;

		if (r->params.judge_given & (1u << i))
			from = REPORT_FROM_COMMAND_LINE;
		else if (!differ && runs[i].last >= 0)
			from = REPORT_FROM_RECORDS;
		if (from == REPORT_FROM_RECORDS)
			judge_option_set(&r->params.judge, i, runs[i].value);
		j = option_json(r, files, n, i, from, &runs[i]);
		if (!j ||
		    json_object_set_new(r->judging, judge_options[i].field, j))
			return -ENOMEM;
	}
	return 0;
}

int report_judging_from_runs(struct report *r, char **files, int n)
{
	struct option_runs runs[JUDGE_N_OPTIONS];
	int differ = -1, ret;

	if (r->n_run_starts > 1)
		qsort(r->run_starts, r->n_run_starts, sizeof(*r->run_starts),
		      start_cmp);
	for (int i = 0; i < JUDGE_N_OPTIONS; i++) {
		runs[i] = (struct option_runs){ 0, 0, -1, -1, -1 };
		if (r->params.judge_given & (1u << i))
			continue;
		ret = option_in_runs(r, files, n, i, &runs[i]);
		if (ret)
			return ret;
		if (runs[i].differ >= 0 && differ < 0)
			differ = i;
	}
	if (differ >= 0)
		warn_differ(r, files, n, differ, &runs[differ]);
	return judging_json(r, files, n, runs, differ >= 0);
}
