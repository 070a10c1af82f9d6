// SPDX-License-Identifier: MIT
/* The fake transport's fault paths, and whole runs over the in-process
 * bootstrap: a planted slow port, a failing endpoint_create, a hung peer,
 * an interrupted run and its --resume, the leaves of --topology in the
 * port records. Run under ASan by make check. */
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <errno.h>

#include <cmocka.h>

#include "burnin/bootstrap.h"
#include "burnin/burnin.h"
#include "burnin/fake_fabric.h"
#include "rdma/fake_transport.h"
#include "common/cli.h"
#include "common/record.h"

static const struct dpath_transport_ops *ops = &dpath_fake_ops;

static void configure(const char *spec)
{
	char err[256] = "";

	if (dpath_fake_configure(spec, err, sizeof(err)))
		fail_msg("%s: %s", spec, err);
}

static struct dpath_params quick(double duration)
{
	return (struct dpath_params){ .msg_size = 65536,
				      .qps = 1,
				      .tx_depth = 4,
				      .duration_s = duration,
				      .stall_s = 1 };
}

static void test_bad_specs(void **state)
{
	char err[256];

	(void)state;
	assert_int_equal(-EINVAL, dpath_fake_configure("slow=fake1:1", err,
						       sizeof(err)));
	assert_non_null(strstr(err, "expected PORT@VALUE"));
	assert_int_equal(-EINVAL,
			 dpath_fake_configure("bogus=1", err, sizeof(err)));
	assert_non_null(strstr(err, "unknown item 'bogus'"));
	assert_int_equal(-EINVAL,
			 dpath_fake_configure("ports", err, sizeof(err)));
	assert_int_equal(-EINVAL,
			 dpath_fake_configure("rate=fast", err, sizeof(err)));
	/* a fault naming no port of the fake plants nothing: refused
	 * (issue 32), each kind */
	static const char *const none[] = {
		"ports=4;slow=fake4:1@0.5", "ports=4;flaky=fake9:1@0.5",
		"ports=4;errors=fake1:2@3", "ports=4;die=gpu0022:mlx5_0:1@1",
		"slow=mlx5_0:1@0.5",
	};
	for (size_t i = 0; i < sizeof(none) / sizeof(none[0]); i++) {
		assert_int_equal(-EINVAL, dpath_fake_configure(none[i], err,
							       sizeof(err)));
		assert_non_null(strstr(err, "no port"));
	}
	/* another host's port of the same name is a port (multi-node) */
	assert_int_equal(0, dpath_fake_configure("ports=4;slow=h9:fake3:1@0.5",
						 err, sizeof(err)));
}

/* A connected pair of endpoints on fake ports i and j. */
static void pair(struct dpath_port *p, int i, int j, struct dpath_endpoint **a,
		 struct dpath_endpoint **b, const struct dpath_params *params)
{
	struct dpath_conn_info ia, ib;
	struct dpath_result res = { 0 };

	assert_int_equal(0, ops->endpoint_create(&p[i], params, a));
	assert_int_equal(0, ops->endpoint_create(&p[j], params, b));
	ops->local_info(*a, &ia);
	ops->local_info(*b, &ib);
	assert_int_equal(0, ops->connect(*a, &ib, &res));
	assert_int_equal(0, ops->connect(*b, &ia, &res));
}

static void test_fail_nth_create_and_connect(void **state)
{
	struct dpath_params params = quick(0);
	struct dpath_endpoint *ep[3] = { NULL };
	struct dpath_conn_info info;
	struct dpath_result res = { 0 };
	struct dpath_port *p;
	int n;

	(void)state;
	configure("ports=3;fail-create=2;fail-connect=1");
	assert_int_equal(0, ops->list_ports(NULL, &p, &n));
	assert_int_equal(3, n);
	assert_int_equal(0, ops->endpoint_create(&p[0], &params, &ep[0]));
	assert_int_equal(-ENOMEM, ops->endpoint_create(&p[1], &params, &ep[1]));
	assert_null(ep[1]);
	assert_int_equal(0, ops->endpoint_create(&p[2], &params, &ep[2]));
	ops->local_info(ep[2], &info);
	assert_int_equal(-ECONNREFUSED, ops->connect(ep[0], &info, &res));
	assert_string_equal("connect refused (fake: planted fault, call 1)",
			    res.error);
	memset(&res, 0, sizeof(res));
	assert_int_equal(0, ops->connect(ep[0], &info, &res));
	assert_string_equal("", res.error);
	ops->endpoint_destroy(ep[0]);
	ops->endpoint_destroy(ep[2]);
	free(p);
	configure("ports=3");
	assert_int_equal(0, ops->list_ports("fake2:1,fake0:1", &p, &n));
	assert_int_equal(2, n);
	assert_string_equal("fake0", p[0].ca);
	free(p);
}

static void test_slow_flaky_errors_and_time(void **state)
{
	struct dpath_params params = quick(0.4);
	struct dpath_endpoint *a, *b;
	struct dpath_result ra, rb;
	struct dpath_port *p;
	double t0;
	int n;

	(void)state;
	configure(
		"ports=4;rate=100;efficiency=1;slow=fake1:1@0.5;flaky=fake2:1@0.25;errors=fake3:1@3");
	assert_int_equal(0, ops->list_ports(NULL, &p, &n));
	pair(p, 0, 1, &a, &b, &params);
	t0 = clock_mono_now();
	assert_int_equal(0, ops->run(a, DPATH_ROLE_INITIATOR, &ra));
	assert_true(clock_mono_now() - t0 >= 0.4); /* time is real */
	assert_int_equal(0, ops->run(b, DPATH_ROLE_TARGET, &rb));
	assert_float_equal(50, ra.gbps, 0.01);
	assert_float_equal(0, rb.gbps, 0.01);
	ops->endpoint_destroy(a);
	ops->endpoint_destroy(b);
	pair(p, 0, 2, &a, &b, &params);
	assert_int_equal(0, ops->run(a, DPATH_ROLE_INITIATOR, &ra));
	assert_float_equal(25, ra.gbps_min, 0.01); /* window 4 dips */
	assert_float_equal(81.25, ra.gbps, 0.01); /* (3 x 100 + 25) / 4 */
	ops->endpoint_destroy(a);
	ops->endpoint_destroy(b);
	pair(p, 3, 0, &a, &b, &params);
	assert_int_equal(-EIO, ops->run(a, DPATH_ROLE_INITIATOR, &ra));
	assert_int_equal(3, ra.error_completions);
	assert_non_null(strstr(ra.error, "error completions"));
	ops->endpoint_destroy(a);
	ops->endpoint_destroy(b);
	free(p);
}

static char *temp_path(void)
{
	char *path = strdup("/tmp/ibproof-test-burnin-XXXXXX");
	int fd = mkstemp(path);

	assert_true(fd >= 0);
	close(fd);
	return path;
}

static void run_config(struct burnin_config *cfg, const char *records)
{
	burnin_config_defaults(cfg);
	cfg->ops = ops;
	cfg->params.duration_s = 0.1;
	cfg->params.warmup_s = 0;
	cfg->params.stall_s = 0.2;
	cfg->timeout_s = 0.5;
	cfg->progress = false;
	cfg->records = records;
	cfg->argv_line = "test";
}

struct tally {
	int pairs, ok, error, not_tested, fail, warn, ends;
	int per_round[64];
	char blamed[256];
	long exit_code;
};

static void tally(const char *path, struct tally *t)
{
	struct record_reader *r = record_reader_open(path);
	json_t *rec;

	memset(t, 0, sizeof(*t));
	assert_non_null(r);
	while (record_reader_next(r, &rec) == 1) {
		const char *kind =
			json_string_value(json_object_get(rec, "kind"));
		const char *s;

		if (!strcmp(kind, "pair")) {
			s = json_string_value(json_object_get(rec, "status"));
			t->pairs++;
			t->ok += !strcmp(s, "ok");
			t->error += !strcmp(s, "error");
			t->not_tested += !strcmp(s, "not-tested");
			t->per_round[json_integer_value(
					     json_object_get(rec, "round")) &
				     63]++;
		} else if (!strcmp(kind, "finding")) {
			s = json_string_value(json_object_get(rec, "severity"));
			t->fail += !strcmp(s, "fail");
			t->warn += !strcmp(s, "warn");
			if (!strcmp(s, "fail"))
				snprintf(
					t->blamed + strlen(t->blamed),
					sizeof(t->blamed) - strlen(t->blamed),
					"%s:%s ",
					json_string_value(json_object_get(
						rec, "category")),
					json_string_value(json_object_get(
						json_object_get(rec, "subject"),
						"ca")));
		} else if (!strcmp(kind, "run") &&
			   !strcmp(json_string_value(
					   json_object_get(rec, "event")),
				   "end")) {
			t->ends++;
			t->exit_code = (long)json_integer_value(
				json_object_get(rec, "exit_code"));
		}
		json_decref(rec);
	}
	record_reader_close(r);
}

static void test_run_finds_planted_slow_port(void **state)
{
	char *path = temp_path();
	struct burnin_config cfg;
	struct tally t;

	(void)state;
	configure("ports=6;slow=fake4:1@0.4");
	run_config(&cfg, path);
	assert_int_equal(IBP_EXIT_FAIL, burnin_run_local(&cfg));
	tally(path, &t);
	assert_int_equal(15, t.pairs);
	assert_int_equal(15, t.ok);
	assert_string_equal("low-bandwidth:fake4 ", t.blamed);
	assert_int_equal(1, t.ends);
	assert_int_equal(IBP_EXIT_FAIL, t.exit_code);
	unlink(path);
	free(path);
}

static void test_run_survives_failed_create(void **state)
{
	char *path = temp_path();
	struct burnin_config cfg;
	struct tally t;

	(void)state;
	configure("ports=4;fail-create=3");
	run_config(&cfg, path);
	assert_int_equal(IBP_EXIT_PASS, burnin_run_local(&cfg));
	tally(path, &t);
	assert_int_equal(1, t.error); /* one pair, no blame from one partner */
	assert_int_equal(0, t.fail);
	assert_true(t.warn >= 1);
	assert_true(t.pairs > 6); /* the suspects were retested */
	unlink(path);
	free(path);
}

static void test_run_hung_peer_is_not_tested(void **state)
{
	char *path = temp_path();
	struct burnin_config cfg;
	struct tally t;
	double t0 = clock_mono_now();

	(void)state;
	configure("ports=4;hang=fake1:1@1;hang-s=4");
	run_config(&cfg, path);
	cfg.retest_rounds = 0;
	assert_int_equal(IBP_EXIT_FAIL, burnin_run_local(&cfg));
	tally(path, &t);
	assert_int_equal(6, t.pairs);
	assert_int_equal(3,
			 t.not_tested); /* the hung step, then fake1 is out */
	assert_string_equal("not-tested:fake1 ", t.blamed);
	assert_true(clock_mono_now() - t0 < 20);
	unlink(path);
	free(path);
}

static void test_interrupt_then_resume(void **state)
{
	char *path = temp_path();
	struct burnin_config cfg;
	struct tally t;

	(void)state;
	configure("ports=4");
	run_config(&cfg, path);
	burnin_stop_set(true); /* as the SIGINT handler does */
	assert_int_equal(IBP_EXIT_RUNTIME, burnin_run_local(&cfg));
	burnin_stop_set(false);
	tally(path, &t);
	assert_int_equal(2, t.pairs); /* round 1 finished and recorded */
	assert_int_equal(IBP_EXIT_RUNTIME, t.exit_code);
	cfg.resume = path;
	assert_int_equal(IBP_EXIT_PASS, burnin_run_local(&cfg));
	tally(path, &t);
	assert_int_equal(6, t.pairs);
	for (int r = 1; r <= 3; r++)
		assert_int_equal(2, t.per_round[r]); /* none repeated */
	cfg.seed = 5; /* another schedule: refused */
	assert_int_equal(IBP_EXIT_USAGE, burnin_run_local(&cfg));
	cfg.seed = 0;
	cfg.max_rounds = 40; /* another route-aware plan: refused */
	assert_int_equal(IBP_EXIT_USAGE, burnin_run_local(&cfg));
	unlink(path);
	free(path);
}

/* Calls fn on every record of the file at path. */
static void each_record(const char *path, void (*fn)(json_t *rec, void *arg),
			void *arg)
{
	struct record_reader *r = record_reader_open(path);
	json_t *rec;

	assert_non_null(r);
	while (record_reader_next(r, &rec) == 1) {
		fn(rec, arg);
		json_decref(rec);
	}
	record_reader_close(r);
}

static const char *str(const json_t *rec, const char *key)
{
	return json_string_value(json_object_get(rec, key));
}

static void add_ok_pair(json_t *rec, void *arg)
{
	unsigned long *bits = arg;
	int a, b;

	if (!str(rec, "status") || strcmp(str(rec, "kind"), "pair") ||
	    strcmp(str(rec, "status"), "ok"))
		return;
	a = str(json_object_get(rec, "a"), "ca")[4] - '0';
	b = str(json_object_get(rec, "b"), "ca")[4] - '0';
	*bits |= 1ul << (a < b ? a * 8 + b : b * 8 + a);
}

/* Distinct pairs of fake ports measured ok in the records at path, as a
 * bit per pair {i, j} (i < j < 8). */
static unsigned long ok_pairs(const char *path)
{
	unsigned long bits = 0;

	each_record(path, add_ok_pair, &bits);
	return bits;
}

static int count_bits(unsigned long x)
{
	int n = 0;

	for (; x; x &= x - 1)
		n++;
	return n;
}

/* --resume skips a step only when its own pairs were measured: the pairs
 * a lost rank left not-tested run again, and a resume over fewer ports
 * (another schedule with the same spec) does not skip a round whose pair
 * count matches but whose pairs differ. */
static void test_resume_skips_only_measured_pairs(void **state)
{
	char *path = temp_path();
	struct burnin_config cfg;
	struct tally t;

	(void)state;
	configure("ports=4;hang=fake1:1@1;hang-s=4");
	run_config(&cfg, path);
	cfg.retest_rounds = 0;
	assert_int_equal(IBP_EXIT_FAIL, burnin_run_local(&cfg));
	tally(path, &t);
	assert_int_equal(3, t.not_tested);
	configure("ports=4");
	cfg.resume = path;
	assert_int_equal(IBP_EXIT_PASS, burnin_run_local(&cfg));
	assert_int_equal(6, count_bits(ok_pairs(path))); /* all 6, now ok */
	tally(path, &t);
	assert_int_equal(12,
			 t.pairs); /* fake1 was in each round: all 3 again */
	unlink(path);

	/* round 1 of 6 ports: 0-5 4-1 2-3; without fake2, round 1 is 5-1 3-4 */
	configure("ports=6");
	run_config(&cfg, path);
	burnin_stop_set(true);
	assert_int_equal(IBP_EXIT_RUNTIME, burnin_run_local(&cfg));
	burnin_stop_set(false);
	cfg.resume = path;
	cfg.ports_filter = "fake0:1,fake1:1,fake3:1,fake4:1,fake5:1";
	assert_int_equal(IBP_EXIT_PASS, burnin_run_local(&cfg));
	assert_int_equal(10 + 1,
			 count_bits(ok_pairs(path))); /* + 2-3 of run 1 */
	unlink(path);
	free(path);
}

/* Counters cleared during a step (perfquery -R): the delta is what was
 * counted since, not a wrapped-around difference of 2^64 - x. */
static void check_xmit_delta(json_t *rec, void *arg)
{
	int *n = arg;

	if (strcmp(str(rec, "kind"), "pair"))
		return;
	for (int side = 0; side < 2; side++) {
		json_int_t x = json_integer_value(json_object_get(
			json_object_get(rec,
					side ? "counters_b" : "counters_a"),
			"port_xmit_data"));

		assert_true(x >= 0 && x < (json_int_t)1 << 40);
	}
	++*n;
}

static void test_counter_reset_mid_step(void **state)
{
	char *path = temp_path();
	struct burnin_config cfg;
	struct tally t;
	int n = 0;

	(void)state;
	configure("ports=4;counter-reset=fake1:1@3");
	run_config(&cfg, path);
	cfg.retest_rounds = 0;
	assert_int_equal(IBP_EXIT_PASS, burnin_run_local(&cfg));
	tally(path, &t);
	assert_int_equal(0, t.fail);
	each_record(path, check_xmit_delta, &n);
	assert_int_equal(6, n);
	unlink(path);
	free(path);
}

/* A port whose rank was lost is no retest partner, and no suspect to
 * retest: its pairs could only be not-tested. fake0-fake5 fails to
 * connect (a suspect pair); fake1's rank hangs in its 3rd pair and is lost
 * after 2 fine ones, so it looked like a fine partner. */
static void check_retest_ok(json_t *rec, void *arg)
{
	int *retests = arg;

	if (!json_is_true(json_object_get(rec, "retest")))
		return;
	assert_string_equal("ok", str(rec, "status"));
	++*retests;
}

static void test_retest_skips_lost_ranks(void **state)
{
	char *path = temp_path();
	struct burnin_config cfg;
	int retests = 0;

	(void)state;
	configure("ports=6;fail-create=5;hang=fake1:1@3;hang-s=3");
	run_config(&cfg, path);
	burnin_run_local(&cfg);
	each_record(path, check_retest_ok, &retests);
	assert_true(retests >= 2);
	unlink(path);
	free(path);
}

/* A 16-bit symbol_error already at 65535 counts nothing more: a warning
 * that names it, where a delta of 0 used to say all is well. */
static void check_saturation_warning(json_t *rec, void *arg)
{
	json_t *sat =
		json_object_get(json_object_get(rec, "evidence"), "saturated");
	int *warned = arg;

	if (!str(rec, "category") ||
	    strcmp(str(rec, "category"), "counter-errors"))
		return;
	assert_string_equal("warn", str(rec, "severity"));
	assert_string_equal("fake2",
			    str(json_object_get(rec, "subject"), "ca"));
	assert_string_equal("symbol_error",
			    json_string_value(json_array_get(sat, 0)));
	++*warned;
}

static void test_saturated_counter_warns(void **state)
{
	char *path = temp_path();
	struct burnin_config cfg;
	int warned = 0;

	(void)state;
	configure("ports=4;symerr-at=fake2:1@65535");
	run_config(&cfg, path);
	assert_int_equal(IBP_EXIT_PASS, burnin_run_local(&cfg));
	each_record(path, check_saturation_warning, &warned);
	assert_int_equal(1, warned);
	unlink(path);
	free(path);
}

/* A topology in ibnetdiscover's format over the fake ports 0..2 (not 3). */
static char *fake_topology(void)
{
	struct dpath_port *p;
	char text[4096], *path;
	int n, len;
	FILE *f;

	assert_int_equal(0, ops->list_ports(NULL, &p, &n));
	len = snprintf(
		text, sizeof(text),
		"switchguid=0xe100\n"
		"Switch\t8 \"S-000000000000e100\"\t\t# \"leafA\" base port 0 lid 1 lmc 0\n");
	for (int i = 0; i < 3 && i < n; i++)
		len += snprintf(
			text + len, sizeof(text) - (size_t)len,
			"\ncaguid=0x%llx\n"
			"Ca\t1 \"H-%016llx\"\t\t# \"%s %s\"\n"
			"[1](%llx) \t\"S-000000000000e100\"[%d]\t\t# lid %d lmc 0 \"leafA\" lid 1 4xEDR\n",
			(unsigned long long)p[i].guid - 1,
			(unsigned long long)p[i].guid - 1, p[i].host, p[i].ca,
			(unsigned long long)p[i].guid, i + 5, i + 2);
	free(p);
	path = temp_path();
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	return path;
}

/* The leaves of --topology land in the port records of a run. */
static void test_run_records_leaves(void **state)
{
	char *records = temp_path(), *topo;
	struct burnin_config cfg;
	struct dpath_port *inv;
	int n;

	(void)state;
	configure("ports=4");
	topo = fake_topology();
	run_config(&cfg, records);
	cfg.topology = topo;
	assert_int_equal(IBP_EXIT_PASS, burnin_run_local(&cfg));
	assert_int_equal(0, burnin_inventory_load(records, &inv, &n));
	assert_int_equal(4, n);
	for (int i = 0; i < 4; i++) {
		assert_int_equal(i < 3 ? 0xe100 : 0, inv[i].leaf_guid);
		assert_int_equal(i < 3 ? i + 5 : 0, inv[i].leaf_port);
		assert_string_equal(i < 3 ? "leafA" : "", inv[i].leaf_name);
	}
	free(inv);
	cfg.topology = FIXTURES_DIR "/fabric/bad-port.csv"; /* not topology */
	assert_int_equal(IBP_EXIT_USAGE, burnin_run_local(&cfg));
	unlink(topo);
	free(topo);
	unlink(records);
	free(records);
}

static void *read_stop(void *arg)
{
	*(bool *)arg = burnin_stop_requested();
	return NULL;
}

/* The handler sets the flag; another thread reads it. */
static void test_signal_sets_stop_flag(void **state)
{
	struct sigaction dfl = { .sa_handler = SIG_DFL };
	bool seen = false;
	pthread_t t;

	(void)state;
	burnin_install_signal_handlers();
	assert_false(burnin_stop_requested());
	assert_int_equal(0, raise(SIGUSR1));
	assert_int_equal(0, pthread_create(&t, NULL, read_stop, &seen));
	assert_int_equal(0, pthread_join(t, NULL));
	assert_true(seen);
	burnin_stop_set(false);
	assert_false(burnin_stop_requested());
	sigaction(SIGINT, &dfl, NULL);
	sigaction(SIGTERM, &dfl, NULL);
	sigaction(SIGUSR1, &dfl, NULL);
	sigaction(SIGPIPE, &dfl, NULL);
}

struct cable_tally {
	int retests, cable_or_port, bad_cable, low;
	char blamed[64];
};

static void count_cable_findings(json_t *rec, void *arg)
{
	struct cable_tally *t = arg;
	const char *kind = json_string_value(json_object_get(rec, "kind"));
	const char *cat = json_string_value(json_object_get(rec, "category"));
	const json_t *a = json_object_get(json_object_get(rec, "subject"), "a");

	if (!strcmp(kind, "pair") &&
	    json_is_true(json_object_get(rec, "retest")))
		t->retests++;
	if (strcmp(kind, "finding") || !cat)
		return;
	t->cable_or_port += !strcmp(cat, "cable-or-port");
	t->low += !strcmp(cat, "low-bandwidth");
	if (!strcmp(cat, "bad-cable")) {
		t->bad_cable++;
		snprintf(t->blamed, sizeof(t->blamed), "%s:%d",
			 json_string_value(json_object_get(a, "node")),
			 (int)json_integer_value(json_object_get(a, "port")));
	}
}

/*
 * Retests that separate (issue 31), a whole run on the fake with the
 * routes of the ibsim ftree fixture (4 leaves of 4 hosts, 4 spines; fakeI
 * is node(16-I), fake15 node001 on leaf01:1): a slow spine01 -> leaf01
 * down-link, which carries fake15's traffic only, and a schedule in which
 * fake15 only receives, from other leaves, so no planned pair tells the
 * cable from fake15's port (tests/mpi/burnin-routes-mpi.sh "ambiguous").
 * Without retests: one cable-or-port finding naming both. With one retest
 * round, burnin runs a pair that separates them and names the cable.
 */
static void test_run_retest_separates(void **state)
{
	/* the routes' CA order: fakeN was node(16 - N) */
	static const char *const pairs =
		"0 node005:mlx5_0:1 node001:mlx5_0:1\n0 node009:mlx5_0:1 node002:mlx5_0:1\n"
		"1 node009:mlx5_0:1 node001:mlx5_0:1\n1 node005:mlx5_0:1 node006:mlx5_0:1\n"
		"2 node013:mlx5_0:1 node001:mlx5_0:1\n2 node005:mlx5_0:1 node010:mlx5_0:1\n"
		"3 node013:mlx5_0:1 node002:mlx5_0:1\n";
	const char *routes = FIXTURES_DIR "/fake-routes/ftree-16.jsonl";
	char *path = temp_path(), *plan = temp_path(), spec[512], sched[600];
	struct burnin_config cfg;
	struct cable_tally t = { 0 };
	FILE *f = fopen(plan, "w");

	(void)state;
	assert_non_null(f);
	fputs(pairs, f);
	assert_int_equal(0, fclose(f));
	setenv("IBPROOF_HOST", "unit", 1);
	dpath_fake_set_fabric(&burnin_fake_fabric_ops); /* as burnin's CLI */
	snprintf(spec, sizeof(spec), "routes=%s;slow-cable=spine01:1@0.5",
		 routes);
	snprintf(sched, sizeof(sched), "pairs:%s", plan);
	for (int retests = 0; retests < 2; retests++) {
		configure(spec);
		run_config(&cfg, path);
		cfg.routes = routes;
		cfg.schedule = sched;
		cfg.prove_load = 0;
		cfg.retest_rounds = retests;
		assert_int_equal(IBP_EXIT_FAIL, burnin_run_local(&cfg));
		memset(&t, 0, sizeof(t));
		each_record(path, count_cable_findings, &t);
		assert_int_equal(0, t.low); /* never the HCA alone */
		if (!retests) {
			assert_int_equal(0, t.retests);
			assert_int_equal(1, t.cable_or_port);
			assert_int_equal(0, t.bad_cable);
			continue;
		}
		assert_true(t.retests >= 1);
		assert_int_equal(0, t.cable_or_port);
		assert_int_equal(1, t.bad_cable);
		assert_string_equal(t.blamed, "spine01:1");
	}
	unsetenv("IBPROOF_HOST");
	configure("ports=4"); /* the fabric left for the tests after */
	unlink(path);
	unlink(plan);
	free(path);
	free(plan);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bad_specs),
		cmocka_unit_test(test_fail_nth_create_and_connect),
		cmocka_unit_test(test_slow_flaky_errors_and_time),
		cmocka_unit_test(test_run_finds_planted_slow_port),
		cmocka_unit_test(test_run_survives_failed_create),
		cmocka_unit_test(test_run_hung_peer_is_not_tested),
		cmocka_unit_test(test_signal_sets_stop_flag),
		cmocka_unit_test(test_interrupt_then_resume),
		cmocka_unit_test(test_resume_skips_only_measured_pairs),
		cmocka_unit_test(test_counter_reset_mid_step),
		cmocka_unit_test(test_retest_skips_lost_ranks),
		cmocka_unit_test(test_run_retest_separates),
		cmocka_unit_test(test_saturated_counter_warns),
		cmocka_unit_test(test_run_records_leaves),
	};

	setenv("IBPROOF_HOST", "unit", 1);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
