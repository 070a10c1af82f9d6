// SPDX-License-Identifier: MIT
/*
 * One judge, one verdict: the same pair records give the same blamed ports
 * (and the same kinds of blame, and the same suspects) through burnin's
 * entry point (burnin_judge() on measures read back from the records) and
 * through the report (report_analyse() on the files). Over every
 * pair-record fixture in tests/, the demo's records (tests/fixtures/judge/,
 * from a run of scripts/demo) and a generated 512-port all-pairs set with
 * a slow, an intermittent and an erroring port planted (bench_burnin_judge
 * compares the two at 4,096 ports).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "burnin/burnin.h"
#include "common/record.h"
#include "reports/report.h"

#define MAXP 4096

struct side {
	char *key[MAXP];
	int n;
	struct burnin_measure *m;
	size_t n_m, cap;
};

static int port_index(struct side *s, const json_t *ref)
{
	char key[512];
	int i;

	snprintf(key, sizeof(key), "%s/%s/%lld",
		 json_string_value(json_object_get(ref, "host")),
		 json_string_value(json_object_get(ref, "ca")),
		 (long long)json_integer_value(json_object_get(ref, "port")));
	for (i = 0; i < s->n; i++)
		if (!strcmp(s->key[i], key))
			return i;
	assert_true(s->n < MAXP);
	s->key[s->n] = strdup(key);
	return s->n++;
}

static enum burnin_pair_status status_of(const char *s)
{
	return !strcmp(s, "ok")	     ? BURNIN_PAIR_OK
	       : !strcmp(s, "error") ? BURNIN_PAIR_ERROR
				     : BURNIN_PAIR_NOT_TESTED;
}

static void take(struct side *s, const json_t *rec)
{
	struct burnin_measure *m;

	if (s->n_m == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 1024;
		s->m = realloc(s->m, s->cap * sizeof(*s->m));
		assert_non_null(s->m);
	}
	m = &s->m[s->n_m++];
	*m = (struct burnin_measure){
		.round =
			(int)json_integer_value(json_object_get(rec, "round")) -
			1,
		.a = port_index(s, json_object_get(rec, "a")),
		.b = port_index(s, json_object_get(rec, "b")),
		.test = !strcmp(json_string_value(json_object_get(rec, "test")),
				"read")
				? BURNIN_TEST_READ
				: BURNIN_TEST_WRITE,
		.bidir = !strcmp(json_string_value(json_object_get(rec, "dir")),
				 "bi"),
		.status = status_of(
			json_string_value(json_object_get(rec, "status"))),
		.gbps = json_number_value(json_object_get(rec, "gbps")),
		.gbps_min = json_number_value(json_object_get(rec, "gbps_min")),
		.expected_gbps = json_number_value(
			json_object_get(rec, "expected_gbps")),
		.error_completions = (uint64_t)json_integer_value(
			json_object_get(rec, "error_completions")),
		.retest = json_is_true(json_object_get(rec, "retest")),
	};
}

/* The burnin side of one file; the number of pairs read. */
static size_t read_side(const char *path, struct side *s)
{
	struct record_reader *rd = record_reader_open(path);
	json_t *rec;

	assert_non_null(rd);
	while (record_reader_next(rd, &rec) > 0) {
		const char *kind =
			json_string_value(json_object_get(rec, "kind"));

		if (kind && !strcmp(kind, "pair"))
			take(s, rec);
		json_decref(rec);
	}
	record_reader_close(rd);
	return s->n_m;
}

/* Both judges over one file, with the given judging options. */
static void same_verdicts(const char *path, const struct judge_params *jp)
{
	struct side s = { 0 };
	struct burnin_port_verdict *v = calloc(MAXP, sizeof(*v));
	struct burnin_judge_params bp;
	struct report r;
	char *files[] = { (char *)path };
	int blamed = 0;

	assert_non_null(v);
	assert_true(read_side(path, &s) > 0);
	burnin_judge_defaults(&bp);
	bp.pairs = *jp;
	assert_int_equal(0, burnin_judge(&bp, s.m, (int)s.n_m, v, s.n));
	assert_int_equal(0, report_init(&r));
	r.params.judge = *jp;
	/* both judge with jp: given, as on report's command line, so that
	 * the report does not take a run start record's options instead */
	r.params.judge_given = (1u << JUDGE_N_OPTIONS) - 1;
	r.params.threads = 1;
	assert_int_equal(0, report_analyse(&r, files, 1, NULL));
	for (size_t i = 0; i < r.n_hports; i++) {
		const struct report_hport *h = &r.hports[i];
		char key[512];
		int p;

		snprintf(key, sizeof(key), "%s/%s/%d", h->host, h->ca, h->port);
		for (p = 0; p < s.n && strcmp(s.key[p], key); p++)
			;
		if (p == s.n) { /* a port record without pairs */
			assert_int_equal(0, r.attr[i].blame);
			continue;
		}
		if (v[p].blame != r.attr[i].blame ||
		    v[p].suspect != r.attr[i].suspect)
			fail_msg(
				"%s: %s: burnin blame %u suspect %d, report blame %u suspect %d",
				path, key, v[p].blame, v[p].suspect,
				r.attr[i].blame, r.attr[i].suspect);
		blamed += v[p].blame != 0;
	}
	printf("%s: %zu pairs, %d ports, %d blamed by both\n", path, s.n_m, s.n,
	       blamed);
	report_fini(&r);
	for (int p = 0; p < s.n; p++)
		free(s.key[p]);
	free(s.m);
	free(v);
}

static void test_fixtures(void **state)
{
	static const char *const files[] = {
		"records/clean-fabric.jsonl",
		"records/evil-fabric.jsonl",
		"sysfs-node/against.jsonl",
	};
	struct judge_params jp;
	char path[1024];

	(void)state;
	judge_defaults(&jp);
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", FIXTURES_DIR, files[i]);
		same_verdicts(path, &jp);
	}
}

/* scripts/demo's Soft-RoCE rails, with the options its burnin ran with
 * (scripts/demo-cluster: --floor 0 --dip-floor 0 --mad-k 0 --class-floor
 * 0.25, and before that without the last two); and the defaults. */
static void test_demo_records(void **state)
{
	struct judge_params jp;
	char path[1024];

	(void)state;
	for (int rail = 0; rail < 2; rail++) {
		snprintf(path, sizeof(path),
			 "%s/judge/demo-burnin-rail%d.jsonl", FIXTURES_DIR,
			 rail);
		judge_defaults(&jp);
		jp.floor = jp.dip_floor = 0;
		same_verdicts(path, &jp);
		jp.mad_k = 0;
		jp.class_floor = 0.25;
		same_verdicts(path, &jp);
		judge_defaults(&jp);
		same_verdicts(path, &jp);
	}
}

static void ref(FILE *f, int p)
{
	fprintf(f,
		"{\"host\":\"node%04d\",\"ca\":\"mlx5_0\",\"port\":1,\"guid\":\"0x%016x\"}",
		p + 1, 0x1000 + p);
}

/* All-pairs of n ports, circle-method rounds; 7 slow, 11 dips, 13 errors;
 * a few noisy pairs. */
static void generate(const char *path, int n)
{
	FILE *f = fopen(path, "w");
	size_t k = 0;

	assert_non_null(f);
	for (int a = 0; a < n; a++)
		for (int b = a + 1; b < n; b++, k++) {
			double g = a == 7 || b == 7 ? 45 : 95 + (k % 7) * 0.1;
			double lo = a == 11 || b == 11 ? 20 : g - 1;
			bool err = a == 13 || b == 13;

			if (k % 997 == 5)
				g = 60; /* noise: a low pair here and there */
			fprintf(f,
				"{\"schema\":\"ibproof/1\",\"kind\":\"pair\",\"time\":\"2026-12-03T00:00:00Z\",\"host\":\"node0001\",\"version\":\"0.1.0\",\"round\":%zu,\"test\":\"write\",\"dir\":\"uni\",\"a\":",
				k % (size_t)(n - 1) + 1);
			ref(f, a);
			fputs(",\"b\":", f);
			ref(f, b);
			fprintf(f,
				",\"gbps\":%.1f,\"gbps_min\":%.1f,\"expected_gbps\":100.0,\"status\":\"%s\"%s,\"error_completions\":%d,\"retest\":false}\n",
				err ? 0 : g, err ? 0 : lo, err ? "error" : "ok",
				err ? ",\"error\":\"a: 3 error completions\""
				    : "",
				err ? 3 : 0);
		}
	assert_int_equal(0, fclose(f));
}

static void test_generated(void **state)
{
	char path[] = "/tmp/ibproof-judge-eq-XXXXXX";
	struct judge_params jp;
	int fd = mkstemp(path);

	(void)state;
	assert_true(fd >= 0);
	close(fd);
	generate(path, 512);
	judge_defaults(&jp);
	same_verdicts(path, &jp);
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fixtures),
		cmocka_unit_test(test_demo_records),
		cmocka_unit_test(test_generated),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
