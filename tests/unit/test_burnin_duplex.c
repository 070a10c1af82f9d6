// SPDX-License-Identifier: MIT
/* Full-duplex rounds (issue 16) over the in-process bootstrap and the fake
 * transport: shift runs every ordered pair in n - 1 rounds, a rank's two
 * ends run at once, each end fails alone, two ranks that share two pairs
 * in a step (n = 2) keep their messages apart, resume tells a -> b from
 * b -> a, and --bidir is refused. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "burnin/bootstrap.h"
#include "burnin/burnin.h"
#include "common/cli.h"
#include "common/record.h"
#include "rdma/fake_transport.h"

#define MAXF 8

static void configure(const char *spec)
{
	char err[256] = "";

	if (dpath_fake_configure(spec, err, sizeof(err)))
		fail_msg("%s: %s", spec, err);
}

static char *temp_path(void)
{
	char *p = strdup("/tmp/ibproof-duplex-XXXXXX");
	int fd = mkstemp(p);

	assert_true(fd >= 0);
	close(fd);
	return p;
}

static void shift_config(struct burnin_config *cfg, const char *records)
{
	burnin_config_defaults(cfg);
	cfg->ops = &dpath_fake_ops;
	cfg->schedule = "shift";
	cfg->params.duration_s = 0.1;
	cfg->params.warmup_s = 0;
	cfg->params.stall_s = 2; /* generous: a loaded CI host */
	cfg->timeout_s = 5;
	cfg->retest_rounds = 0;
	cfg->progress = false;
	cfg->records = records;
	cfg->argv_line = "test";
}

struct tally {
	int pairs, ok, error, not_tested;
	int per_round[MAXF];
	int ordered[MAXF][MAXF]; /* ok pairs a -> b */
	char blamed[256];
};

static int fake_index(const json_t *ref)
{
	const char *ca = json_string_value(json_object_get(ref, "ca"));

	return ca && !strncmp(ca, "fake", 4)
		       ? (int)(strtol(ca + 4, NULL, 10) % MAXF)
		       : 0;
}

static void tally_pair(json_t *rec, struct tally *t)
{
	const char *s = json_string_value(json_object_get(rec, "status"));
	int a = fake_index(json_object_get(rec, "a")),
	    b = fake_index(json_object_get(rec, "b"));

	t->pairs++;
	t->error += !strcmp(s, "error");
	t->not_tested += !strcmp(s, "not-tested");
	t->per_round[json_integer_value(json_object_get(rec, "round")) %
		     MAXF]++;
	if (!strcmp(s, "ok")) {
		t->ok++;
		t->ordered[a][b]++;
	}
}

static void tally(const char *path, struct tally *t)
{
	struct record_reader *r = record_reader_open(path);
	json_t *rec;

	memset(t, 0, sizeof(*t));
	assert_non_null(r);
	while (record_reader_next(r, &rec) == 1) {
		const char *kind =
			json_string_value(json_object_get(rec, "kind"));
		const char *sev =
			json_string_value(json_object_get(rec, "severity"));

		if (!strcmp(kind, "pair"))
			tally_pair(rec, t);
		else if (!strcmp(kind, "finding") && !strcmp(sev, "fail"))
			snprintf(t->blamed + strlen(t->blamed),
				 sizeof(t->blamed) - strlen(t->blamed),
				 "%s:%s ",
				 json_string_value(
					 json_object_get(rec, "category")),
				 json_string_value(json_object_get(
					 json_object_get(rec, "subject"),
					 "ca")));
		json_decref(rec);
	}
	record_reader_close(r);
}

/* n ports, shift: n - 1 rounds of n pairs, every ordered pair ok once. */
static void assert_every_ordered_pair(const struct tally *t, int n)
{
	assert_int_equal(n * (n - 1), t->pairs);
	assert_int_equal(n * (n - 1), t->ok);
	for (int r = 1; r < n; r++)
		assert_int_equal(n, t->per_round[r]);
	for (int a = 0; a < n; a++)
		for (int b = 0; b < n; b++)
			assert_int_equal(a != b, t->ordered[a][b]);
}

/* A whole shift run over the fake configured by spec, tallied into t;
 * returns the run's exit code. */
static int run_shift(const char *spec, double duration, struct tally *t)
{
	char *path = temp_path();
	struct burnin_config cfg;
	int code;

	configure(spec);
	shift_config(&cfg, path);
	cfg.params.duration_s = duration;
	code = burnin_run_local(&cfg);
	tally(path, t);
	unlink(path);
	free(path);
	return code;
}

/* Each rank runs its two ends at once: n - 1 rounds take about n - 1
 * measurement windows, not twice that. */
static void test_shift_runs_both_ends_at_once(void **state)
{
	double t0 = clock_mono_now();
	struct tally t;

	(void)state;
	assert_int_equal(IBP_EXIT_PASS, run_shift("ports=5", 0.5, &t));
	/* one end after the other: 4 rounds x 2 ends x 0.5 s = 4 s at least */
	assert_true(clock_mono_now() - t0 < 3.6);
	assert_every_ordered_pair(&t, 5);
}

/* n = 2: the two ranks share both pairs of the step (0 -> 1, 1 -> 0);
 * the connection data and ready words of each direction find their end. */
static void test_two_ranks_two_pairs_one_step(void **state)
{
	struct tally t;

	(void)state;
	assert_int_equal(IBP_EXIT_PASS, run_shift("ports=2", 0.1, &t));
	assert_every_ordered_pair(&t, 2);
}

/* A failed endpoint costs its own pair: the rank's other end runs. */
static void test_each_end_fails_alone(void **state)
{
	struct tally t;

	(void)state;
	run_shift("ports=4;fail-create=2", 0.1, &t);
	assert_int_equal(12, t.pairs);
	assert_int_equal(1, t.error);
	assert_int_equal(11, t.ok);
}

/* A slow port is blamed from its duplex pairs, both directions. */
static void test_slow_port_blamed(void **state)
{
	struct tally t;

	(void)state;
	assert_int_equal(IBP_EXIT_FAIL,
			 run_shift("ports=6;slow=fake3:1@0.4", 0.1, &t));
	assert_int_equal(30, t.ok);
	assert_string_equal("low-bandwidth:fake3 ", t.blamed);
}

/*
 * Round 2 of shift over 4 ports holds 0 -> 2 and 2 -> 0 both: a resume of
 * a finished run must see both measured (a direction-blind match counted
 * one twice and ran the round again), an interrupted one runs the rest.
 */
static void test_resume_is_direction_aware(void **state)
{
	char *path = temp_path();
	struct burnin_config cfg;
	struct tally t;

	(void)state;
	configure("ports=4");
	shift_config(&cfg, path);
	burnin_stop_set(true); /* as the SIGINT handler does */
	assert_int_equal(IBP_EXIT_RUNTIME, burnin_run_local(&cfg));
	burnin_stop_set(false);
	tally(path, &t);
	assert_int_equal(4, t.pairs); /* round 1 finished and recorded */
	cfg.resume = path;
	assert_int_equal(IBP_EXIT_PASS, burnin_run_local(&cfg));
	tally(path, &t);
	assert_every_ordered_pair(&t, 4);
	assert_int_equal(IBP_EXIT_PASS, burnin_run_local(&cfg));
	tally(path, &t);
	assert_every_ordered_pair(&t, 4); /* nothing ran again */
	unlink(path);
	free(path);
}

static void test_bidir_refused(void **state)
{
	struct burnin_config cfg;

	(void)state;
	configure("ports=4");
	shift_config(&cfg, NULL);
	cfg.params.bidir = true;
	assert_int_equal(IBP_EXIT_USAGE, burnin_run_local(&cfg));
	cfg.dry_run = true;
	assert_int_equal(IBP_EXIT_USAGE, burnin_run_local(&cfg));
}

/* The run end record carries rank 0's own figures of the steps. */
static void test_end_record_has_orchestration(void **state)
{
	char *path = temp_path();
	struct burnin_config cfg;
	struct record_reader *r;
	json_t *rec, *o = NULL;

	(void)state;
	configure("ports=3");
	shift_config(&cfg, path);
	assert_int_equal(IBP_EXIT_PASS, burnin_run_local(&cfg));
	r = record_reader_open(path);
	assert_non_null(r);
	while (record_reader_next(r, &rec) == 1) {
		if (json_object_get(rec, "orchestration"))
			o = json_incref(json_object_get(rec, "orchestration"));
		json_decref(rec);
	}
	record_reader_close(r);
	assert_non_null(o);
	assert_int_equal(2, json_integer_value(json_object_get(o, "steps")));
	assert_true(json_real_value(json_object_get(o, "step_overhead_s")) > 0);
	assert_true(json_real_value(json_object_get(o, "rank0_serial_s")) > 0);
	json_decref(o);
	unlink(path);
	free(path);
}

/* --dry-run predicts with the measured model: it grows with the ports,
 * and at 4,096 ports stays under issue 16's 0.2 s a step. */
static void test_prediction_uses_overhead_model(void **state)
{
	struct burnin_config cfg;
	double step = 0.1 + 1.0;

	(void)state;
	shift_config(&cfg, NULL);
	cfg.params.warmup_s = 0.1;
	cfg.params.duration_s = 1.0;
	assert_true(burnin_step_overhead_s(256) > burnin_step_overhead_s(64));
	assert_true(burnin_step_overhead_s(4096) < 0.2);
	assert_true(burnin_step_overhead_s(2) > 0);
	assert_float_equal(4095 * cfg.n_tests *
				   (step + burnin_step_overhead_s(4096)),
			   burnin_predict_seconds(&cfg, 4095, 4096), 1e-6);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_shift_runs_both_ends_at_once),
		cmocka_unit_test(test_two_ranks_two_pairs_one_step),
		cmocka_unit_test(test_each_end_fails_alone),
		cmocka_unit_test(test_slow_port_blamed),
		cmocka_unit_test(test_resume_is_direction_aware),
		cmocka_unit_test(test_bidir_refused),
		cmocka_unit_test(test_end_record_has_orchestration),
		cmocka_unit_test(test_prediction_uses_overhead_model),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
