// SPDX-License-Identifier: MIT
/*
 * --resume FILE: the pair records of an earlier (killed) run of the same
 * schedule count as done; their steps are skipped and their measures go
 * into the judging. A run start with another schedule or seed, or a node
 * schedule over other leaves, is an input error.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "burnin/run.h"
#include "common/log.h"

static int ref_index(const struct burnin_ctx *ctx, const json_t *ref)
{
	char name[3 * BURNIN_NAME_MAX];

	snprintf(name, sizeof(name), "%s:%s:%d",
		 json_string_value(json_object_get(ref, "host")),
		 json_string_value(json_object_get(ref, "ca")),
		 (int)json_integer_value(json_object_get(ref, "port")));
	return burnin_inventory_find(ctx->inv, ctx->n_inv, name);
}

static int check_start(const struct burnin_ctx *ctx, const json_t *rec,
		       const char *where)
{
	const json_t *params = json_object_get(rec, "params");
	const char *sched = json_string_value(json_object_get(params, "schedule"));
	json_int_t seed = json_integer_value(json_object_get(params, "seed"));

	if (sched && !strcmp(sched, ctx->cfg->schedule) &&
	    seed == (json_int_t)ctx->cfg->seed)
		return 0;
	log_error("%s: the run to resume used schedule '%s' seed %lld; this one uses '%s' seed %llu",
		  where, sched ? sched : "?", (long long)seed, ctx->cfg->schedule,
		  (unsigned long long)ctx->cfg->seed);
	return -EINVAL;
}

/*
 * node:HOST spreads partners over leaves: a port whose leaf differs from
 * the run to resume (another --topology, or none) makes another schedule.
 */
static int check_leaf(const struct burnin_ctx *ctx, const json_t *rec,
		      const char *where)
{
	const char *s = json_string_value(json_object_get(
		json_object_get(rec, "leaf"), "guid"));
	uint64_t was = 0;
	int i = ref_index(ctx, rec);

	if (i < 0 || strncmp(ctx->cfg->schedule, "node:", 5))
		return 0;
	if (s && record_guid_parse(s, &was))
		was = 0;
	if (was == ctx->inv[i].leaf_guid)
		return 0;
	log_error("%s: the run to resume had port %s:%s:%d on leaf 0x%016llx, this one on 0x%016llx (0: unknown); resume with the same --topology",
		  where, ctx->inv[i].host, ctx->inv[i].ca, ctx->inv[i].port,
		  (unsigned long long)was,
		  (unsigned long long)ctx->inv[i].leaf_guid);
	return -EINVAL;
}

static enum burnin_pair_status status_of(const char *s)
{
	return !s ? BURNIN_PAIR_NOT_TESTED : !strcmp(s, "ok") ? BURNIN_PAIR_OK
	       : !strcmp(s, "error") ? BURNIN_PAIR_ERROR : BURNIN_PAIR_NOT_TESTED;
}

/* A recorded pair: one more done pair of its step, and a measure. */
static int take_pair(struct burnin_ctx *ctx, const json_t *rec, int *counts,
		     int n_counts)
{
	struct burnin_measure m = { 0 };
	int round = (int)json_integer_value(json_object_get(rec, "round")) - 1;
	const char *test = json_string_value(json_object_get(rec, "test"));
	int t;

	m.a = ref_index(ctx, json_object_get(rec, "a"));
	m.b = ref_index(ctx, json_object_get(rec, "b"));
	if (m.a < 0 || m.b < 0 || round < 0)
		return 0; /* another inventory: not ours to skip */
	m.round = round;
	m.test = test && !strcmp(test, "read") ? BURNIN_TEST_READ : BURNIN_TEST_WRITE;
	m.bidir = !strcmp(json_string_value(json_object_get(rec, "dir")), "bi");
	m.status = status_of(json_string_value(json_object_get(rec, "status")));
	m.gbps = json_number_value(json_object_get(rec, "gbps"));
	m.gbps_min = json_number_value(json_object_get(rec, "gbps_min"));
	m.expected_gbps = json_number_value(json_object_get(rec, "expected_gbps"));
	m.error_completions = (uint64_t)json_integer_value(
		json_object_get(rec, "error_completions"));
	for (t = 0; t < ctx->cfg->n_tests; t++)
		if ((int)ctx->cfg->tests[t] == m.test)
			break;
	if (t == ctx->cfg->n_tests || round * ctx->cfg->n_tests + t >= n_counts)
		return 0;
	counts[round * ctx->cfg->n_tests + t]++;
	if (ctx->n_m == ctx->cap_m) {
		int cap = ctx->cap_m ? 2 * ctx->cap_m : 256;
		struct burnin_measure *g = realloc(ctx->m, (size_t)cap * sizeof(*g));

		if (!g)
			return -ENOMEM;
		ctx->m = g;
		ctx->cap_m = cap;
	}
	ctx->m[ctx->n_m++] = m;
	return 0;
}

/* A step is done when all pairs of its round were recorded. */
static void mark_done(struct burnin_ctx *ctx, const int *counts, int n)
{
	for (int i = 0; i < n; i++) {
		int round = i / ctx->cfg->n_tests;

		ctx->done_steps[i] = round < ctx->sched.n_rounds &&
			counts[i] >= burnin_schedule_round_size(&ctx->sched, round);
		if (ctx->done_steps[i])
			log_debug("resume: round %d %s already recorded", round + 1,
				  burnin_test_name(ctx->cfg->tests[i % ctx->cfg->n_tests]));
	}
}

int burnin_resume_load(struct burnin_ctx *ctx, const char *path)
{
	int n = (ctx->sched.n_rounds + ctx->cfg->retest_rounds) * ctx->cfg->n_tests;
	struct record_reader *r = record_reader_open(path);
	int *counts = calloc((size_t)(n ? n : 1), sizeof(*counts));
	char where[4200];
	json_t *rec;
	int ret = -ENOMEM;

	ctx->done_steps = calloc((size_t)(n ? n : 1), sizeof(bool));
	ctx->n_done_steps = n;
	if (!r) {
		log_error("--resume %s: %m", path);
		ret = -errno == -ENOENT ? -EINVAL : -errno;
		goto out;
	}
	if (!counts || !ctx->done_steps)
		goto out;
	while ((ret = record_reader_next(r, &rec)) == 1) {
		const char *kind = json_string_value(json_object_get(rec, "kind"));
		const char *ev = json_string_value(json_object_get(rec, "event"));
		const char *tool = json_string_value(json_object_get(rec, "tool"));

		snprintf(where, sizeof(where), "%s:%lu", path, record_reader_line(r));
		ret = 0;
		if (!strcmp(kind, "run") && ev && !strcmp(ev, "start") && tool &&
		    !strcmp(tool, "burnin"))
			ret = check_start(ctx, rec, where);
		else if (!strcmp(kind, "pair"))
			ret = take_pair(ctx, rec, counts, n);
		else if (!strcmp(kind, "port"))
			ret = check_leaf(ctx, rec, where);
		json_decref(rec);
		if (ret)
			goto out;
	}
	if (ret == -EINVAL)
		log_error("%s", record_reader_error(r));
	else if (!ret)
		mark_done(ctx, counts, n);
out:
	if (r)
		record_reader_close(r);
	free(counts);
	return ret;
}
