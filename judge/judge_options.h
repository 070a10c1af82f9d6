/* SPDX-License-Identifier: MIT */
#ifndef IBPROOF_JUDGE_JUDGE_OPTIONS_H
#define IBPROOF_JUDGE_JUDGE_OPTIONS_H

/*
 * The judging options, one row each, read by everything that names them:
 * the option tables and parsing of `burnin` and `report`, the defaults of
 * judge_defaults(), the params of burnin's run start record (keyed by the
 * field's name) and the report's reading of them back (docs/judging.md).
 *
 * X(field, name, arg, default, min, max, help, note): the field of struct
 * judge_params, the long option, its argument, the default (written once:
 * the help text shows it as written here), the range the option and a
 * run record's value must be in, the help text and what follows the
 * default in it. A field of type unsigned int takes integers only.
 */
#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

#include "common/cli.h"
#include "judge/pairjudge.h"

#define JUDGE_OPTIONS(X)                                                   \
	X(floor, "floor", "F", 0.9, 0, 1,                                  \
	  "a pair under F x its expected rate is low", "; 0: off")         \
	X(mad_k, "mad-k", "K", 3, 0, 100,                                  \
	  "a pair under median - K x 1.4826 MAD of its link class is low", \
	  "; 0: off")                                                      \
	X(class_floor, "class-floor", "F", 0.5, 0, 1,                      \
	  "a pair under F x its link class median is low", "; 0: off")     \
	X(dip_floor, "dip-floor", "F", 0.5, 0, 1,                          \
	  "a 100 ms window under F x expected (or class median) is a dip", \
	  "; 0: off")                                                      \
	X(min_witnesses, "min-witnesses", "N", 2, 1, 1000,                 \
	  "blame a port bad with N partners that were fine elsewhere",     \
	  "; docs/judging.md")

enum judge_option_index {
#define JUDGE_OPTION_INDEX(field, ...) JUDGE_OPT_##field,
	JUDGE_OPTIONS(JUDGE_OPTION_INDEX)
#undef JUDGE_OPTION_INDEX
		JUDGE_N_OPTIONS
};

/* Option i's key in a command's cli_opt_fn: CLI_KEY_JUDGE_FIRST + i. */
#define JUDGE_OPTION_KEY(i) (CLI_KEY_JUDGE_FIRST + (i))

struct judge_option {
	const char *name; /* "mad-k" */
	const char *field; /* "mad_k": the run record's params key */
	size_t offset; /* in struct judge_params */
	double def, min, max;
	bool integer; /* an unsigned int field */
};

extern const struct judge_option judge_options[JUDGE_N_OPTIONS];
/* The rows as a command's shared_opts, ended by { NULL }. */
extern const struct cli_opt judge_cli_opts[JUDGE_N_OPTIONS + 1];

/*
 * A command's cli_opt_fn calls this first: 1 when key is not a judging
 * option; else parses arg into jp, sets bit i of *given (may be NULL) and
 * returns 0, or -EINVAL (printed, naming the option).
 */
int judge_option_parse(const struct cli_cmd *cmd, struct judge_params *jp,
		       unsigned int *given, int key, const char *arg);

double judge_option_get(const struct judge_params *jp, int i);
void judge_option_set(struct judge_params *jp, int i, double v);
/* v is a value option i may take (in range; whole for an integer). */
bool judge_option_valid(int i, double v);

/* Adds each option's value to obj under its field name; 0 or -ENOMEM. */
int judge_options_to_json(const struct judge_params *jp, json_t *obj);

#endif
