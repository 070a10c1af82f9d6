// SPDX-License-Identifier: MIT
/*
 * The judging options' one table (judge/judge_options.h): the defaults of
 * judge_defaults() are the table's, each help text shows its default, the
 * parser sets the field of its row and says which options were given, and
 * both commands' parsers read the same rows.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "judge/judge_options.h"

static const struct cli_cmd test_cmd = {
	.name = "test",
	.synopsis = "",
	.opts = NULL,
	.shared_opts = judge_cli_opts,
};

static void test_defaults_are_the_table(void **state)
{
	struct judge_params jp;
	char def[32];

	(void)state;
	judge_defaults(&jp);
	for (int i = 0; i < JUDGE_N_OPTIONS; i++) {
		assert_true(judge_option_get(&jp, i) == judge_options[i].def);
		assert_true(judge_option_valid(i, judge_options[i].def));
		snprintf(def, sizeof(def), "(default %g", judge_options[i].def);
		assert_non_null(strstr(judge_cli_opts[i].help, def));
		assert_string_equal(judge_cli_opts[i].name,
				    judge_options[i].name);
		assert_int_equal(judge_cli_opts[i].key, JUDGE_OPTION_KEY(i));
	}
	assert_null(judge_cli_opts[JUDGE_N_OPTIONS].name);
}

/* Each option lands in its own field, and only there. */
static void test_parse_sets_its_field(void **state)
{
	static const char *const names[] = { "floor", "mad-k", "class-floor",
					     "dip-floor", "min-witnesses" };
	static const size_t fields[] = {
		offsetof(struct judge_params, floor),
		offsetof(struct judge_params, mad_k),
		offsetof(struct judge_params, class_floor),
		offsetof(struct judge_params, dip_floor),
		offsetof(struct judge_params, min_witnesses),
	};

	(void)state;
	assert_int_equal(JUDGE_N_OPTIONS, 5);
	for (int i = 0; i < JUDGE_N_OPTIONS; i++) {
		struct judge_params jp, before;
		unsigned int given = 0;

		assert_string_equal(judge_options[i].name, names[i]);
		assert_int_equal(judge_options[i].offset, fields[i]);
		judge_defaults(&jp);
		before = jp;
		assert_int_equal(0,
				 judge_option_parse(&test_cmd, &jp, &given,
						    JUDGE_OPTION_KEY(i), "1"));
		assert_int_equal(given, 1u << i);
		assert_true(judge_option_get(&jp, i) == 1);
		judge_option_set(&jp, i, judge_option_get(&before, i));
		assert_memory_equal(&jp, &before, sizeof(jp));
	}
}

static void test_parse_refuses(void **state)
{
	struct judge_params jp;
	unsigned int given = 0;

	(void)state;
	judge_defaults(&jp);
	assert_int_equal(1, judge_option_parse(&test_cmd, &jp, &given,
					       CLI_KEY_COMMAND_FIRST, "1"));
	assert_int_equal(1, judge_option_parse(&test_cmd, &jp, &given,
					       CLI_KEY_JUDGE_FIRST - 1, "1"));
	assert_int_equal(-EINVAL,
			 judge_option_parse(&test_cmd, &jp, &given,
					    JUDGE_OPTION_KEY(JUDGE_OPT_floor),
					    "1.5"));
	assert_int_equal(
		-EINVAL,
		judge_option_parse(&test_cmd, &jp, &given,
				   JUDGE_OPTION_KEY(JUDGE_OPT_min_witnesses),
				   "2.5"));
	assert_int_equal(given, 0);
	assert_false(judge_option_valid(JUDGE_OPT_min_witnesses, 2.5));
	assert_false(judge_option_valid(JUDGE_OPT_mad_k, -1));
	assert_true(judge_option_valid(JUDGE_OPT_mad_k, 0));
}

/* The run record's params: every option, keyed by its field's name. */
static void test_to_json(void **state)
{
	struct judge_params jp;
	json_t *o = json_object();

	(void)state;
	judge_defaults(&jp);
	jp.mad_k = 0;
	assert_int_equal(0, judge_options_to_json(&jp, o));
	assert_int_equal(json_object_size(o), JUDGE_N_OPTIONS);
	assert_true(json_real_value(json_object_get(o, "mad_k")) == 0);
	assert_true(json_real_value(json_object_get(o, "floor")) == 0.9);
	assert_int_equal(
		json_integer_value(json_object_get(o, "min_witnesses")), 2);
	json_decref(o);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults_are_the_table),
		cmocka_unit_test(test_parse_sets_its_field),
		cmocka_unit_test(test_parse_refuses),
		cmocka_unit_test(test_to_json),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
