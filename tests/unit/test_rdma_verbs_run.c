// SPDX-License-Identifier: MIT
/*
 * rdma/verbs_run.c driven by a scripted device on a virtual clock: every
 * work request completes `lat` after it was posted unless the script says
 * the link died, failed or paused. Checks the stall detector, error counts
 * by status, the done handshake and that no role waits past its deadline.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "rdma/verbs_run.h"

#define MS 1000000ll
#define NEVER INT64_MAX

struct item {
	enum dpath_vcqe_kind kind;
	int qp;
	int64_t due;
};

struct script {
	int64_t now, step, lat;
	int64_t dead_at; /* nothing completes after this */
	int64_t error_at; /* first completion after this fails */
	int64_t pause_from, pause_to; /* completions held back */
	int64_t peer_done_at;
	bool peer_done_sent, errored;
	struct item items[1024];
	int n;
	int posted_done;
};

static int s_post_data(void *ctx, int qp)
{
	struct script *s = ctx;

	s->items[s->n++] = (struct item){ DPATH_CQE_DATA, qp, s->now + s->lat };
	return 0;
}

static int s_post_done(void *ctx)
{
	struct script *s = ctx;

	s->posted_done++;
	s->items[s->n++] =
		(struct item){ DPATH_CQE_DONE_SENT, 0, s->now + s->lat };
	return 0;
}

static void emit(struct dpath_vcqe *c, const struct item *it, bool ok,
		 const char *status)
{
	*c = (struct dpath_vcqe){ .kind = it->kind,
				  .qp = it->qp,
				  .ok = ok,
				  .status = status,
				  .bytes = 1000000 };
}

/* After a failed completion every other one is flushed. */
static int flush_all(struct script *s, struct dpath_vcqe *c, int max)
{
	int k = 0;

	while (s->n && k < max) {
		emit(&c[k++], &s->items[0], false,
		     "Work Request Flushed Error");
		memmove(s->items, s->items + 1, --s->n * sizeof(s->items[0]));
	}
	return k;
}

static int s_poll(void *ctx, struct dpath_vcqe *c, int max)
{
	struct script *s = ctx;
	int k = 0;

	s->now += s->step;
	if (s->errored)
		return flush_all(s, c, max);
	if (!s->peer_done_sent && s->now >= s->peer_done_at) {
		s->peer_done_sent = true;
		c[k++] = (struct dpath_vcqe){ .kind = DPATH_CQE_PEER_DONE,
					      .ok = true };
	}
	for (int i = 0; i < s->n && k < max;) {
		struct item it = s->items[i];

		if (it.due > s->now || it.due > s->dead_at ||
		    (s->now >= s->pause_from && s->now < s->pause_to)) {
			i++;
			continue;
		}
		memmove(s->items + i, s->items + i + 1,
			(size_t)(--s->n - i) * sizeof(it));
		if (s->now >= s->error_at) {
			s->errored = true;
			emit(&c[k++], &it, false,
			     "transport retry counter exceeded");
			return k + flush_all(s, c + k, max - k);
		}
		emit(&c[k++], &it, true, NULL);
	}
	return k;
}

static int64_t s_now(void *ctx)
{
	return ((struct script *)ctx)->now;
}

static struct script *script_new(void)
{
	static struct script s;

	s = (struct script){ .step = MS / 4,
			     .lat = MS,
			     .dead_at = NEVER,
			     .error_at = NEVER,
			     .peer_done_at = NEVER };
	return &s;
}

static const struct dpath_params params = {
	.test = DPATH_TEST_WRITE,
	.msg_size = 1000000,
	.qps = 2,
	.tx_depth = 4,
	.duration_s = 1.0,
	.warmup_s = 0.2,
	.stall_s = 0.3,
	.retry_cnt = 3,
};

static int run(struct script *s, enum dpath_role role, struct dpath_result *res)
{
	struct dpath_vio io = {
		s, s_post_data, s_post_done, s_poll, s_now, NULL
	};

	return dpath_vrun(&io, &params, role, res);
}

/* 2 QPs x 4 deep x 1 MB per 1 ms = 64 Gb/s. */
static void test_initiator_steady(void **state)
{
	struct script *s = script_new();
	struct dpath_result res;

	(void)state;
	assert_int_equal(0, run(s, DPATH_ROLE_INITIATOR, &res));
	assert_string_equal("", res.error);
	assert_float_equal(64.0, res.gbps, 0.5);
	assert_float_equal(64.0, res.gbps_min, 1.0);
	assert_float_equal(1.0, res.seconds, 1e-9);
	assert_int_equal(1, s->posted_done);
	assert_int_equal(0, s->n); /* drained, done acknowledged */
	assert_true(s->now < 1210 * MS + 10 * MS);
	assert_int_equal(0, res.error_completions);
}

static void test_dead_link_stalls(void **state)
{
	struct script *s = script_new();
	struct dpath_result res;

	(void)state;
	s->dead_at = 700 * MS;
	assert_int_equal(-ETIMEDOUT, run(s, DPATH_ROLE_INITIATOR, &res));
	assert_string_equal("stalled: 8 outstanding", res.error);
	/* Noticed stall_s after the last completion, not at the deadline. */
	assert_true(s->now > 1000 * MS && s->now < 1010 * MS);
	assert_float_equal(0.0, res.gbps_min, 1e-9);
	assert_true(res.gbps > 0);
	assert_int_equal(0, s->posted_done);
}

static void test_error_completion_counted(void **state)
{
	struct script *s = script_new();
	struct dpath_result res;

	(void)state;
	s->error_at = 500 * MS;
	assert_int_equal(-EIO, run(s, DPATH_ROLE_INITIATOR, &res));
	assert_true(
		strstr(res.error,
		       "completion error: transport retry counter exceeded"));
	assert_int_equal(8, res.error_completions);
	assert_int_equal(2, res.n_errors);
	assert_string_equal("transport retry counter exceeded",
			    res.errors[0].status);
	assert_int_equal(1, res.errors[0].count);
	assert_string_equal("Work Request Flushed Error", res.errors[1].status);
	assert_int_equal(7, res.errors[1].count);
	assert_float_equal(0.3, res.seconds, 0.001);
	assert_true(s->now < 510 * MS);
	assert_int_equal(0, s->posted_done);
}

static void test_pause_shows_in_min(void **state)
{
	struct script *s = script_new();
	struct dpath_result res;

	(void)state;
	s->pause_from = 500 * MS;
	s->pause_to = 700 * MS; /* 200 ms < stall_s: slow, not stalled */
	assert_int_equal(0, run(s, DPATH_ROLE_INITIATOR, &res));
	assert_string_equal("", res.error);
	assert_true(res.gbps > 50.0);
	assert_true(res.gbps_min < 5.0);
}

static void test_target_returns_on_done(void **state)
{
	struct script *s = script_new();
	struct dpath_result res;

	(void)state;
	s->peer_done_at = 1250 * MS;
	assert_int_equal(0, run(s, DPATH_ROLE_TARGET, &res));
	assert_string_equal("", res.error);
	assert_true(s->now < 1260 * MS);
	assert_int_equal(0, s->posted_done);
	assert_float_equal(0.0, res.gbps, 1e-9);
}

static void test_target_without_done_has_deadline(void **state)
{
	struct script *s = script_new();
	struct dpath_result res;

	(void)state;
	assert_int_equal(-ETIMEDOUT, run(s, DPATH_ROLE_TARGET, &res));
	assert_string_equal("no done signal from the peer within 1.5 s",
			    res.error);
	assert_true(s->now > 1500 * MS && s->now < 1510 * MS);
}

static void test_bidir_waits_for_both(void **state)
{
	struct script *s = script_new();
	struct dpath_result res;

	(void)state;
	s->peer_done_at = 1400 * MS; /* peer finishes after us */
	assert_int_equal(0, run(s, DPATH_ROLE_BOTH, &res));
	assert_true(s->now >= 1400 * MS && s->now < 1410 * MS);
	assert_int_equal(1, s->posted_done);
	assert_float_equal(64.0, res.gbps, 0.5);
}

static void test_status_count_overflow(void **state)
{
	static const char *const st[] = { "a", "b", "c", "d", "e", "a", "f" };
	struct dpath_result res;

	(void)state;
	memset(&res, 0, sizeof(res));
	for (size_t i = 0; i < sizeof(st) / sizeof(st[0]); i++)
		dpath_result_count_error(&res, st[i]);
	assert_int_equal(7, res.error_completions);
	assert_int_equal(DPATH_MAX_ERR_STATUS, res.n_errors);
	assert_string_equal("a", res.errors[0].status);
	assert_int_equal(2, res.errors[0].count);
	/* The last slot gathers d, e and f. */
	assert_string_equal("other", res.errors[3].status);
	assert_int_equal(3, res.errors[3].count);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_initiator_steady),
		cmocka_unit_test(test_dead_link_stalls),
		cmocka_unit_test(test_error_completion_counted),
		cmocka_unit_test(test_pause_shows_in_min),
		cmocka_unit_test(test_target_returns_on_done),
		cmocka_unit_test(test_target_without_done_has_deadline),
		cmocka_unit_test(test_bidir_waits_for_both),
		cmocka_unit_test(test_status_count_overflow),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
