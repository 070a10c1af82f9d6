// SPDX-License-Identifier: MIT
/*
 * ibproof node --light: the averaging rule of the DMA samples and the idle
 * GPU rule (pure), then whole runs on the generated sysfs trees (the CTest
 * fixture sysfs_trees) with a state dir of their own, a clock the test sets
 * and DMA samples from a fake ops table (the loopback needs an HCA).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "common/subcommands.h"
#include "node/light.h"
#include "node/node_run.h"
#include "pcie/pcie.h"

#define SYSFS GEN_FIXTURES_DIR "/sysfs/"
#define T0 1796600000.0 /* 2026-12-06 */
#define HOUR 3600.0

static char dir[] = "/tmp/ibproof-test-light-XXXXXX";
static char state[300], json_path[300], prom[300], root[300];

__attribute__((format(printf, 1, 2))) static void sh(const char *fmt, ...)
{
	char cmd[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	assert_int_equal(system(cmd), 0);
}

/* ---- the averaging rule ---- */

static void fill(struct light_sample *s, int n, double GBps)
{
	for (int i = 0; i < n; i++)
		s[i] = (struct light_sample){ T0 + i * HOUR, GBps };
}

static void one_low_sample_no_alarm(void **st)
{
	struct light_sample s[12];
	struct light_bw_verdict v;

	(void)st;
	fill(s, 12, 45);
	s[7].GBps = 5; /* a job competed for the path that hour */
	light_bw_judge(s, 12, 12, 40, HOUR, &v);
	assert_int_equal(v.state, LIGHT_BW_OK);
	assert_int_equal(v.used, 12);
	assert_int_equal(v.low, 1);
	assert_true(v.mean_GBps > 40);
	assert_true(v.min_GBps == 5);
}

static void mean_of_12_under_floor_alarms(void **st)
{
	struct light_sample s[12];
	struct light_bw_verdict v;

	(void)st;
	fill(s, 12, 38);
	s[3].GBps = 60; /* one good sample does not hide a slow link */
	light_bw_judge(s, 12, 12, 40, HOUR, &v);
	assert_int_equal(v.state, LIGHT_BW_LOW);
	assert_int_equal(v.low, 11);
	assert_true(v.mean_GBps < 40);
}

static void fewer_than_k_not_judged(void **st)
{
	struct light_sample s[12];
	struct light_bw_verdict v;

	(void)st;
	fill(s, 5, 2); /* very low, but only 5 of 12 */
	light_bw_judge(s, 5, 12, 40, HOUR, &v);
	assert_int_equal(v.state, LIGHT_BW_COLLECTING);
	assert_int_equal(v.used, 5);
	light_bw_judge(s, 0, 12, 40, HOUR, &v);
	assert_int_equal(v.state, LIGHT_BW_COLLECTING);
	assert_int_equal(v.used, 0);
}

static void missing_samples_counted(void **st)
{
	struct light_sample s[12];
	struct light_bw_verdict v;

	(void)st;
	fill(s, 12, 45);
	for (int i = 6; i < 12; i++)
		s[i].t += 3 * HOUR; /* the node was down 3 hours */
	light_bw_judge(s, 12, 12, 40, HOUR, &v);
	assert_int_equal(v.state, LIGHT_BW_OK);
	assert_int_equal(v.missing, 3);
	assert_true(v.span_s == 14 * HOUR);
	fill(s, 12, 45);
	s[11].t += 0.4 * HOUR; /* late, not missing */
	light_bw_judge(s, 12, 12, 40, HOUR, &v);
	assert_int_equal(v.missing, 0);
}

static void only_the_last_k(void **st)
{
	struct light_sample s[20];
	struct light_bw_verdict v;

	(void)st;
	fill(s, 20, 45);
	for (int i = 0; i < 8; i++)
		s[i].GBps = 1; /* before the repair */
	light_bw_judge(s, 20, 12, 40, HOUR, &v);
	assert_int_equal(v.state, LIGHT_BW_OK);
	assert_int_equal(v.low, 0);
	light_bw_judge(s, 20, 16, 40, HOUR, &v); /* K 16 reaches them */
	assert_int_equal(v.state, LIGHT_BW_LOW);
	light_bw_judge(s, 20, 12, 0, HOUR, &v);
	assert_int_equal(v.state, LIGHT_BW_NO_FLOOR);
}

static void idle_gpu_rule(void **st)
{
	double w = 12 * HOUR;

	(void)st;
	/* first sight, low: no alarm */
	assert_false(light_gpu_speed_alarm(T0, 0, T0, w));
	/* low since first sight for less than the window */
	assert_false(light_gpu_speed_alarm(T0, 0, T0 + 11 * HOUR, w));
	/* never at full speed for the whole window */
	assert_true(light_gpu_speed_alarm(T0, 0, T0 + 12 * HOUR, w));
	/* at full speed 5 hours ago */
	assert_false(
		light_gpu_speed_alarm(T0, T0 + 20 * HOUR, T0 + 25 * HOUR, w));
	/* at full speed 13 hours ago, low since */
	assert_true(
		light_gpu_speed_alarm(T0, T0 + 20 * HOUR, T0 + 33 * HOUR, w));
	/* no history at all */
	assert_false(light_gpu_speed_alarm(0, 0, T0, w));
}

/* ---- whole runs ---- */

static double fake_GBps = 45;
static const char *kernel_log; /* --kernel-log, NULL none */

static int fake_measure(const char *ca, int port, enum pcie_dma_test test,
			int samples, double *GBps, char *err, size_t errlen)
{
	(void)ca;
	(void)port;
	(void)test;
	(void)err;
	(void)errlen;
	for (int i = 0; i < samples; i++)
		GBps[i] = fake_GBps;
	return 0;
}

static const struct pcie_dma_ops fake_dma = { "fake", fake_measure };

static int setup(void **st)
{
	(void)st;
	if (!mkdtemp(dir))
		return -1;
	snprintf(json_path, sizeof(json_path), "%s/light.json", dir);
	snprintf(prom, sizeof(prom), "%s/ibproof.prom", dir);
	setenv("IBPROOF_HOST", "gpu017", 1);
	return 0;
}

static int fresh_state(void **st)
{
	(void)st;
	snprintf(state, sizeof(state), "%s/state", dir);
	sh("rm -rf %s %s %s", state, json_path, prom);
	return 0;
}

static int teardown(void **st)
{
	(void)st;
	sh("rm -rf %s", dir);
	return 0;
}

/* One light run on the tree at now; its exit code. */
static int run_at(const char *tree, double now, bool dma)
{
	struct node_run_opts o = { .host = "gpu017",
				   .sysfs_root = tree,
				   .json = json_path,
				   .kernel_log = kernel_log,
				   .window_h = 24,
				   .no_dma = !dma };
	struct light_opts lo = { .state_dir = state,
				 .textfile = prom,
				 .mean_of = 12,
				 .sample_every_s = HOUR,
				 .now = now,
				 .dma = &fake_dma };

	return light_run(&o, &lo);
}

/* How many findings of category name bdf (or any, bdf NULL). */
static int findings(const char *category, const char *bdf)
{
	json_t *d = json_load_file(json_path, 0, NULL), *f;
	size_t i;
	int n = 0;

	assert_non_null(d);
	json_array_foreach(json_object_get(d, "findings"), i, f)
	{
		const char *c =
			json_string_value(json_object_get(f, "category"));
		const char *b = json_string_value(
			json_object_get(json_object_get(f, "subject"), "bdf"));

		if (c && !strcmp(c, category) &&
		    (!bdf || (b && !strcmp(b, bdf))))
			n++;
	}
	json_decref(d);
	return n;
}

static bool prom_has(const char *line)
{
	char buf[1024];
	FILE *f = fopen(prom, "r");
	bool found = false;

	assert_non_null(f);
	while (!found && fgets(buf, sizeof(buf), f))
		found = !strncmp(buf, line, strlen(line));
	fclose(f);
	return found;
}

static void dma_alarm_after_12_low_hours(void **st)
{
	(void)st;
	fake_GBps = 10;
	for (int h = 0; h < 11; h++) {
		assert_int_equal(run_at(SYSFS "clean", T0 + h * HOUR, true), 0);
		assert_int_equal(findings("pcie-low-dma-bandwidth", NULL), 0);
	}
	assert_true(prom_has("ibproof_dma_samples{ca=\"mlx5_0\",port=\"1\"} "
			     "11"));
	assert_true(prom_has("ibproof_dma_low{ca=\"mlx5_0\",port=\"1\"} 0"));
	assert_int_equal(run_at(SYSFS "clean", T0 + 11 * HOUR, true), 1);
	assert_int_equal(findings("pcie-low-dma-bandwidth", NULL), 8);
	assert_true(prom_has("ibproof_dma_low{ca=\"mlx5_0\",port=\"1\"} 1"));
	/* ten minutes later no sample is due; the mean still alarms */
	fake_GBps = 45;
	assert_int_equal(run_at(SYSFS "clean", T0 + 11 * HOUR + 600, true), 1);
	assert_true(prom_has("ibproof_dma_samples{ca=\"mlx5_0\",port=\"1\"} "
			     "12"));
	/* good samples push the low ones out of the mean */
	for (int h = 12; h < 24; h++)
		run_at(SYSFS "clean", T0 + h * HOUR, true);
	assert_int_equal(findings("pcie-low-dma-bandwidth", NULL), 0);
}

static void dma_one_low_hour_no_alarm(void **st)
{
	(void)st;
	for (int h = 0; h < 14; h++) {
		fake_GBps = h == 12 ? 4 : 45;
		assert_int_equal(run_at(SYSFS "clean", T0 + h * HOUR, true), 0);
	}
	assert_int_equal(findings("pcie-low-dma-bandwidth", NULL), 0);
	assert_true(prom_has("ibproof_dma_samples{ca=\"mlx5_3\",port=\"1\"} "
			     "12"));
}

static void idle_gpu_not_flagged_until_window(void **st)
{
	const char *gpu = "0000:18:00.0"; /* at Gen1 in idle-gpu */

	(void)st;
	assert_int_equal(run_at(SYSFS "idle-gpu", T0, false), 0);
	assert_int_equal(findings("pcie-degraded-speed", gpu), 0);
	assert_true(prom_has("ibproof_pcie_gpu_speed_alarm{bdf=\"0000:18:00."
			     "0\"} 0"));
	/* at full speed at +6 h (under load), idle again at +13 h */
	assert_int_equal(run_at(SYSFS "clean", T0 + 6 * HOUR, false), 0);
	assert_int_equal(run_at(SYSFS "idle-gpu", T0 + 13 * HOUR, false), 0);
	assert_int_equal(findings("pcie-degraded-speed", gpu), 0);
	/* never at full speed since: a warning naming both causes */
	assert_int_equal(run_at(SYSFS "idle-gpu", T0 + 18 * HOUR, false), 0);
	assert_int_equal(findings("pcie-degraded-speed", gpu), 1);
	assert_true(prom_has("ibproof_pcie_gpu_speed_alarm{bdf=\"0000:18:00."
			     "0\"} 1"));
	/* an HCA at a lower speed fails at once: no idle rule for it */
	assert_int_equal(run_at(SYSFS "gen1-uplink", T0 + 19 * HOUR, false), 1);
}

static void aer_since_last_run(void **st)
{
	(void)st;
	assert_int_equal(run_at(SYSFS "aer", T0, false), 1); /* since boot */
	assert_int_equal(findings("pcie-aer-errors", NULL), 4);
	assert_int_equal(run_at(SYSFS "aer", T0 + 600, false), 0);
	assert_int_equal(findings("pcie-aer-errors", NULL), 0);
	assert_true(prom_has("ibproof_pcie_aer_increase{bdf=\"0000:c0:00.0\","
			     "kind=\"fatal\"} 0"));
}

static void counters_since_last_run(void **st)
{
	const char *ctr = "devices/pci0000:c1/0000:c1:01.1/0000:c2:00.0/"
			  "infiniband/mlx5_1/ports/1/counters/symbol_error";

	(void)st;
	snprintf(root, sizeof(root), "%s/sys", dir);
	sh("rm -rf %s && cp -a " GEN_FIXTURES_DIR "/sysfs-node/healthy %s",
	   root, root);
	assert_int_equal(run_at(root, T0, false), 0);
	assert_int_equal(run_at(root, T0 + 600, false), 0);
	assert_int_equal(findings("counter-errors", NULL), 0);
	sh("echo 7 > %s/%s", root, ctr);
	assert_int_equal(run_at(root, T0 + 1200, false), 0); /* a warning */
	assert_int_equal(findings("counter-errors", NULL), 1);
	assert_true(prom_has("ibproof_port_error_increase{ca=\"mlx5_"
			     "1\",port=\"1\",counter=\"symbol_error\"} 7"));
	assert_int_equal(run_at(root, T0 + 1800, false), 0);
	assert_int_equal(findings("counter-errors", NULL), 0);
}

#define HEALTH                                                       \
	"mlx5_core 0000:c1:00.0: poll_health:852:(pid 0): device's " \
	"health compromised - reached miss count\n"

static void kernel_events_since_last_run(void **st)
{
	char log[320];
	FILE *f;

	(void)st;
	snprintf(log, sizeof(log), "%s/kern.log", dir);
	f = fopen(log, "w");
	assert_non_null(f);
	fputs("2026-12-06T23:00:00,000000+00:00 " HEALTH, f);
	fclose(f);
	kernel_log = log;
	/* the first run judges the whole log: within 24 h, a failure */
	assert_int_equal(run_at(SYSFS "clean", T0, false), 1);
	assert_int_equal(findings("hca-health", NULL), 1);
	/* nothing since */
	assert_int_equal(run_at(SYSFS "clean", T0 + 600, false), 0);
	assert_true(prom_has("ibproof_kernel_events_new{kind=\"hca-health\"} "
			     "0"));
	/* one more at T0 + 11 min */
	f = fopen(log, "a");
	assert_non_null(f);
	fputs("2026-12-06T23:44:00,000000+00:00 " HEALTH, f);
	fclose(f);
	assert_int_equal(run_at(SYSFS "clean", T0 + 1200, false), 1);
	assert_true(prom_has("ibproof_kernel_events_new{kind=\"hca-health\"} "
			     "1"));
	kernel_log = NULL;
}

static void unreadable_state_starts_afresh(void **st)
{
	char bad[400];

	(void)st;
	sh("mkdir -p %s && echo '{\"last_run\": 1' > %s/" LIGHT_STATE_FILE,
	   state, state);
	assert_int_equal(run_at(SYSFS "clean", T0, false), 0);
	snprintf(bad, sizeof(bad), "%s/" LIGHT_STATE_FILE ".bad", state);
	assert_int_equal(access(bad, F_OK), 0);
	assert_true(prom_has("ibproof_light_exit_code 0"));
}

/* A node whose HCAs are all gone (driver not loaded) fails: port-missing. */
static void no_rdma_port_fails(void **st)
{
	(void)st;
	snprintf(root, sizeof(root), "%s/sys", dir);
	sh("rm -rf %s && cp -a " GEN_FIXTURES_DIR "/sysfs-node/healthy %s && "
	   "rm -f %s/class/infiniband/*",
	   root, root, root);
	assert_int_equal(run_at(root, T0, false), 1);
	assert_int_equal(findings("port-missing", NULL), 1);
	assert_true(prom_has("ibproof_light_exit_code 1"));
}

static int cli(int argc, char **argv)
{
	optind = 0;
	return node_main(argc, argv);
}

static void light_options_need_light(void **st)
{
	char *a[] = { "node", "--state-dir", "/tmp/x", NULL };
	char *b[] = { "node", "--light", "--drain", NULL };
	char *c[] = { "node", "--light", "--mean-of", "0", NULL };

	(void)st;
	assert_int_equal(cli(3, a), 2);
	assert_int_equal(cli(3, b), 2);
	assert_int_equal(cli(4, c), 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(one_low_sample_no_alarm),
		cmocka_unit_test(mean_of_12_under_floor_alarms),
		cmocka_unit_test(fewer_than_k_not_judged),
		cmocka_unit_test(missing_samples_counted),
		cmocka_unit_test(only_the_last_k),
		cmocka_unit_test(idle_gpu_rule),
		cmocka_unit_test_setup(dma_alarm_after_12_low_hours,
				       fresh_state),
		cmocka_unit_test_setup(dma_one_low_hour_no_alarm, fresh_state),
		cmocka_unit_test_setup(idle_gpu_not_flagged_until_window,
				       fresh_state),
		cmocka_unit_test_setup(aer_since_last_run, fresh_state),
		cmocka_unit_test_setup(counters_since_last_run, fresh_state),
		cmocka_unit_test_setup(kernel_events_since_last_run,
				       fresh_state),
		cmocka_unit_test_setup(unreadable_state_starts_afresh,
				       fresh_state),
		cmocka_unit_test_setup(no_rdma_port_fails, fresh_state),
		cmocka_unit_test(light_options_need_light),
	};

	if (access(SYSFS "clean", F_OK)) {
		fprintf(stderr, "no %s: run the fixtures_sysfs_gen test\n",
			SYSFS "clean");
		return 77;
	}
	return cmocka_run_group_tests(tests, setup, teardown);
}
