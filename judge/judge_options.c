// SPDX-License-Identifier: MIT
/* The judging options' tables, made from JUDGE_OPTIONS (judge_options.h). */
#include <errno.h>
#include <math.h>
#include <stdio.h>

#include "judge/judge_options.h"

/* Whether a field of struct judge_params is an unsigned int: the option
 * then takes integers only. */
#define FIELD_IS_UINT(field)                                     \
	_Generic(((struct judge_params *)0)->field, unsigned int \
		 : true, default                                 \
		 : false)

const struct judge_option judge_options[JUDGE_N_OPTIONS] = {
#define OPTION_ROW(field, name, arg, def, lo, hi, help, note) \
	{ name,                                               \
	  #field,                                             \
	  offsetof(struct judge_params, field),               \
	  def,                                                \
	  lo,                                                 \
	  hi,                                                 \
	  FIELD_IS_UINT(field) },
	JUDGE_OPTIONS(OPTION_ROW)
#undef OPTION_ROW
};

const struct cli_opt judge_cli_opts[JUDGE_N_OPTIONS + 1] = {
#define CLI_ROW(field, name, arg, def, lo, hi, help, note) \
	{ name, JUDGE_OPTION_KEY(JUDGE_OPT_##field), arg,  \
	  help " (default " #def note ")" },
	JUDGE_OPTIONS(CLI_ROW)
#undef CLI_ROW
		{ NULL },
};

double judge_option_get(const struct judge_params *jp, int i)
{
	const char *p = (const char *)jp + judge_options[i].offset;

	if (judge_options[i].integer)
		return *(const unsigned int *)(const void *)p;
	return *(const double *)(const void *)p;
}

void judge_option_set(struct judge_params *jp, int i, double v)
{
	char *p = (char *)jp + judge_options[i].offset;

	if (judge_options[i].integer)
		*(unsigned int *)(void *)p = (unsigned int)v;
	else
		*(double *)(void *)p = v;
}

bool judge_option_valid(int i, double v)
{
	const struct judge_option *o = &judge_options[i];

	return isfinite(v) && v >= o->min && v <= o->max &&
	       (!o->integer || v == floor(v));
}

int judge_option_parse(const struct cli_cmd *cmd, struct judge_params *jp,
		       unsigned int *given, int key, const char *arg)
{
	int i = key - CLI_KEY_JUDGE_FIRST;
	const struct judge_option *o;
	char opt[40];
	double v;
	long n;

	if (i < 0 || i >= JUDGE_N_OPTIONS)
		return 1; /* not ours: o would point past the table */
	o = &judge_options[i];
	snprintf(opt, sizeof(opt), "--%s", o->name);
	if (o->integer) {
		if (cli_parse_long(cmd, opt, arg, (long)o->min, (long)o->max,
				   &n))
			return -EINVAL;
		v = (double)n;
	} else if (cli_parse_double(cmd, opt, arg, o->min, o->max, &v)) {
		return -EINVAL;
	}
	judge_option_set(jp, i, v);
	if (given)
		*given |= 1u << i;
	return 0;
}

int judge_options_to_json(const struct judge_params *jp, json_t *obj)
{
	for (int i = 0; i < JUDGE_N_OPTIONS; i++) {
		double v = judge_option_get(jp, i);
		json_t *val = judge_options[i].integer
				      ? json_integer((json_int_t)v)
				      : json_real(v);

		if (json_object_set_new(obj, judge_options[i].field, val))
			return -ENOMEM;
	}
	return 0;
}
