// SPDX-License-Identifier: MIT
/*
 * --resume FILE: the pair records of an earlier (killed) run of the same
 * schedule count as done; a step all of whose pairs were measured (ok or
 * error; not-tested ones run again) is skipped, and the measures go into
 * the judging. A run start with another schedule or seed, or a node
 * schedule over other leaves, is an input error.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "burnin/coord.h"
#include "burnin/resume.h"
#include "common/log.h"

static int ref_index(const struct burnin_coord *co, const json_t *ref)
{
	char name[3 * DPATH_NAME_MAX];

	snprintf(name, sizeof(name), "%s:%s:%d",
		 json_string_value(json_object_get(ref, "host")),
		 json_string_value(json_object_get(ref, "ca")),
		 (int)json_integer_value(json_object_get(ref, "port")));
	return burnin_inventory_find(co->inv, co->n_inv, name);
}

static int check_start(const struct burnin_coord *co, const json_t *rec,
		       const char *where)
{
	const json_t *params = json_object_get(rec, "params");
	const char *sched =
		json_string_value(json_object_get(params, "schedule"));
	json_int_t seed = json_integer_value(json_object_get(params, "seed"));
	json_int_t cap =
		json_integer_value(json_object_get(params, "max_rounds"));

	if (cap != co->ctx->cfg->max_rounds) {
		log_error("%s: the run to resume used --max-rounds %lld; this "
			  "one uses %d (0: none): another plan",
			  where, (long long)cap, co->ctx->cfg->max_rounds);
		return -EINVAL;
	}
	if (sched && !strcmp(sched, co->ctx->cfg->schedule) &&
	    seed == (json_int_t)co->ctx->cfg->seed)
		return 0;
	log_error(
		"%s: the run to resume used schedule '%s' seed %lld; this one uses '%s' seed %llu",
		where, sched ? sched : "?", (long long)seed,
		co->ctx->cfg->schedule, (unsigned long long)co->ctx->cfg->seed);
	return -EINVAL;
}

/*
 * node:HOST spreads partners over leaves: a port whose leaf differs from
 * the run to resume (another --topology, or none) makes another schedule.
 */
static int check_leaf(const struct burnin_coord *co, const json_t *rec,
		      const char *where)
{
	const char *s = json_string_value(
		json_object_get(json_object_get(rec, "leaf"), "guid"));
	uint64_t was = 0;
	int i = ref_index(co, rec);

	if (i < 0 || strncmp(co->ctx->cfg->schedule, "node:", 5))
		return 0;
	if (s && record_guid_parse(s, &was))
		was = 0;
	if (was == co->inv[i].leaf_guid)
		return 0;
	log_error(
		"%s: the run to resume had port %s:%s:%d on leaf 0x%016llx, this one on 0x%016llx (0: unknown); resume with the same --topology",
		where, co->inv[i].host, co->inv[i].ca, co->inv[i].port,
		(unsigned long long)was,
		(unsigned long long)co->inv[i].leaf_guid);
	return -EINVAL;
}

static enum burnin_pair_status status_of(const char *s)
{
	return !s		     ? BURNIN_PAIR_NOT_TESTED
	       : !strcmp(s, "ok")    ? BURNIN_PAIR_OK
	       : !strcmp(s, "error") ? BURNIN_PAIR_ERROR
				     : BURNIN_PAIR_NOT_TESTED;
}

/*
 * The index of the pair {a, b} in round r of the schedule, -1 if none. A
 * full-duplex round can hold a -> b and b -> a both: there the direction
 * (a initiates) tells them apart.
 */
static int scheduled_pair(const struct burnin_schedule *s, int r, int a, int b)
{
	if (r >= s->n_rounds)
		return -1;
	for (int i = s->start[r];
	     i < s->start[r] + burnin_schedule_round_size(s, r); i++)
		if ((s->pairs[i].a == a && s->pairs[i].b == b) ||
		    (!s->duplex && s->pairs[i].a == b && s->pairs[i].b == a))
			return i;
	return -1;
}

/*
 * A recorded pair that was measured (ok or error): a measure, and that
 * pair of its step is done, if this schedule has it in that round (another
 * inventory makes another schedule). not-tested pairs run again.
 */
static int take_pair(struct burnin_coord *co, const json_t *rec, bool *seen,
		     const char *where)
{
	struct burnin_measure m = { 0 };
	const char *test = json_string_value(json_object_get(rec, "test"));
	int round, t, i;

	json_int_t rec_round =
		json_integer_value(json_object_get(rec, "round"));
	int last = co->sched.n_rounds + co->ctx->cfg->retest_rounds;

	if (rec_round < 1 || rec_round > last) {
		log_error(
			"%s: round %lld: expected 1 to %d (this schedule's %d rounds and %d retests)",
			where, (long long)rec_round, last, co->sched.n_rounds,
			co->ctx->cfg->retest_rounds);
		return -EINVAL;
	}
	round = (int)rec_round - 1;
	m.a = ref_index(co, json_object_get(rec, "a"));
	m.b = ref_index(co, json_object_get(rec, "b"));
	m.status = status_of(json_string_value(json_object_get(rec, "status")));
	if (m.a >= 0 && m.a == m.b) { /* other GUIDs, one name */
		log_error("%s: pair record: a and b are one port (%s:%s:%d)",
			  where, co->inv[m.a].host, co->inv[m.a].ca,
			  co->inv[m.a].port);
		return -EINVAL;
	}
	if (m.a < 0 || m.b < 0 || m.status == BURNIN_PAIR_NOT_TESTED)
		return 0;
	m.round = round;
	m.test = test && !strcmp(test, "read") ? DPATH_TEST_READ
					       : DPATH_TEST_WRITE;
	m.bidir = !strcmp(json_string_value(json_object_get(rec, "dir")), "bi");
	m.gbps = json_number_value(json_object_get(rec, "gbps"));
	m.gbps_min = json_number_value(json_object_get(rec, "gbps_min"));
	m.expected_gbps =
		json_number_value(json_object_get(rec, "expected_gbps"));
	m.error_completions = (uint64_t)json_integer_value(
		json_object_get(rec, "error_completions"));
	m.retest = json_is_true(json_object_get(rec, "retest"));
	for (t = 0; t < co->ctx->cfg->n_tests; t++)
		if ((int)co->ctx->cfg->tests[t] == m.test)
			break;
	if (t == co->ctx->cfg->n_tests)
		return 0;
	i = scheduled_pair(&co->sched, round, m.a, m.b);
	if (i >= 0)
		seen[i * co->ctx->cfg->n_tests + t] = true;
	return burnin_coord_add_measure(co, &m);
}

/* A step is done when every pair of its round was measured in that test. */
static void mark_done(struct burnin_coord *co, const bool *seen)
{
	for (int step = 0; step < co->n_done_steps; step++) {
		int round = step / co->ctx->cfg->n_tests,
		    t = step % co->ctx->cfg->n_tests;
		const struct burnin_schedule *s = &co->sched;
		bool done = round < s->n_rounds;

		for (int i = 0;
		     done && i < burnin_schedule_round_size(s, round); i++)
			done = seen[(s->start[round] + i) *
					    co->ctx->cfg->n_tests +
				    t];
		co->done_steps[step] = done;
		if (!done)
			continue;
		co->pairs_resumed += burnin_schedule_round_size(s, round);
		log_debug("resume: round %d %s already recorded", round + 1,
			  burnin_test_name(co->ctx->cfg->tests[t]));
	}
}

int burnin_resume_load(struct burnin_coord *co, const char *path)
{
	int n = (co->sched.n_rounds + co->ctx->cfg->retest_rounds) *
		co->ctx->cfg->n_tests;
	size_t n_seen =
		(size_t)co->sched.n_pairs * (size_t)co->ctx->cfg->n_tests;
	struct record_reader *r = record_reader_open(path);
	bool *seen = calloc(n_seen ? n_seen : 1, sizeof(*seen));
	char where[4200];
	json_t *rec;
	int ret = -ENOMEM;

	co->done_steps = calloc((size_t)(n ? n : 1), sizeof(bool));
	co->n_done_steps = n;
	if (!r) {
		log_error("--resume %s: %m", path);
		ret = -errno == -ENOENT ? -EINVAL : -errno;
		goto out;
	}
	if (!seen || !co->done_steps)
		goto out;
	while ((ret = record_reader_next(r, &rec)) == 1) {
		const char *kind =
			json_string_value(json_object_get(rec, "kind"));
		const char *ev =
			json_string_value(json_object_get(rec, "event"));
		const char *tool =
			json_string_value(json_object_get(rec, "tool"));

		snprintf(where, sizeof(where), "%s:%lu", path,
			 record_reader_line(r));
		ret = 0;
		if (!strcmp(kind, "run") && ev && !strcmp(ev, "start") &&
		    tool && !strcmp(tool, "burnin"))
			ret = check_start(co, rec, where);
		else if (!strcmp(kind, "pair"))
			ret = take_pair(co, rec, seen, where);
		else if (!strcmp(kind, "port"))
			ret = check_leaf(co, rec, where);
		json_decref(rec);
		if (ret)
			goto out;
	}
	if (ret == -EINVAL)
		log_error("%s", record_reader_error(r));
	else if (!ret)
		mark_done(co, seen);
out:
	if (r)
		record_reader_close(r);
	free(seen);
	return ret;
}
