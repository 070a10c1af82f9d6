// SPDX-License-Identifier: MIT
/*
 * The kernel log pattern table (node/klog_match.c) on fixtures in the real
 * message formats (tests/fixtures/kernlog/, several kernel and Lustre
 * versions), each to its exact events; and the judgement
 * (node/klog_judge.c): 5 flaps in 24 h fail, 4 warn, 5 spread over 48 h
 * warn twice; HCA health fails; storage-path errors warn per peer.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "common/kernlog.h"
#include "common/record.h"
#include "node/klog.h"
#include "node/node.h"

struct events {
	struct klog_event ev[64];
	int n;
};

static int take(void *arg, const struct kernlog_line *l)
{
	struct events *e = arg;

	if (e->n < 64 && klog_match(l, &e->ev[e->n]))
		e->n++;
	return 0;
}

static void load(const char *name, struct events *e)
{
	struct kernlog_opts o = { .timeout_s = 5,
				  .now = 1796342400.0 /* 2026-12-03 */ };
	char path[512], err[256];

	snprintf(path, sizeof(path), "%s/kernlog/%s", FIXTURES_DIR, name);
	e->n = 0;
	assert_int_equal(
		kernlog_read(path, &o, take, e, NULL, err, sizeof(err)), 0);
}

static double utc(int d, int h, int mi, int s)
{
	struct tm tm = { .tm_year = 126,
			 .tm_mon = 11,
			 .tm_mday = d,
			 .tm_hour = h,
			 .tm_min = mi,
			 .tm_sec = s };

	return (double)timegm(&tm);
}

static void expect(const struct klog_event *ev, enum klog_kind kind,
		   const char *what, const char *device)
{
	assert_int_equal(ev->kind, kind);
	assert_string_equal(ev->what, what);
	assert_string_equal(ev->device, device);
}

static void test_link_dmesg_T(void **state)
{
	struct events e;

	(void)state;
	load("link-dmesg-T.log", &e);
	assert_int_equal(e.n, 14); /* the firmware line is no event */
	for (int i = 0; i < 10; i++)
		expect(&e.ev[i], KLOG_LINK, i % 2 ? "up" : "down", "ens1f0np0");
	assert_true(e.ev[0].time == utc(3, 4, 0, 1));
	assert_string_equal(e.ev[0].pattern, "netdev-link");
	expect(&e.ev[10], KLOG_LINK, "down", "eth2"); /* mlx4_en */
	expect(&e.ev[11], KLOG_LINK, "up", "eth2");
	expect(&e.ev[12], KLOG_LINK, "up", "ib0");
	assert_string_equal(e.ev[12].pattern, "addrconf-ready");
	expect(&e.ev[13], KLOG_LINK, "up", "eno1");
}

static void test_rxe_dmesg(void **state)
{
	struct events e;

	(void)state;
	load("rxe-dmesg.log", &e);
	assert_int_equal(e.n, 5);
	expect(&e.ev[0], KLOG_LINK, "up", "rxe0");
	expect(&e.ev[1], KLOG_LINK, "down", "rxe0");
	expect(&e.ev[2], KLOG_LINK, "down", "rxe0");
	expect(&e.ev[3], KLOG_LINK, "up", "rxe0");
	expect(&e.ev[4], KLOG_LINK, "down", "rxe1");
	assert_true(e.ev[2].mono > 61.40 && e.ev[2].mono < 61.41);
	assert_true(e.ev[2].time < 0); /* no boot time given */
}

static void test_health_journal(void **state)
{
	struct events e;

	(void)state;
	load("health-journal.log", &e);
	assert_int_equal(e.n, 6);
	expect(&e.ev[0], KLOG_HCA_HEALTH, "health-compromised", "0000:41:00.0");
	assert_true(e.ev[0].time == utc(3, 4, 16, 30));
	expect(&e.ev[1], KLOG_HCA_HEALTH, "fatal", "0000:41:00.1");
	assert_string_equal(e.ev[1].detail, "fatal error 1");
	expect(&e.ev[2], KLOG_HCA_HEALTH, "error-state", "0000:41:00.0");
	expect(&e.ev[3], KLOG_HCA_HEALTH, "cmd-timeout", "0000:56:00.0");
	assert_string_equal(e.ev[3].detail, "ACCESS_REG(0x805)");
	expect(&e.ev[4], KLOG_HCA_HEALTH, "cmd-timeout", "0000:56:00.0");
	assert_string_equal(e.ev[4].detail, "QUERY_VPORT_COUNTER(0x770)");
	expect(&e.ev[5], KLOG_HCA_HEALTH, "high-temperature", "0000:56:00.0");
}

static void test_module_iso(void **state)
{
	struct events e;

	(void)state;
	load("module-iso.log", &e);
	assert_int_equal(e.n, 4);
	expect(&e.ev[0], KLOG_TRANSCEIVER, "unplugged",
	       "0000:c1:00.0 module 0");
	assert_int_equal(e.ev[0].module, 0);
	expect(&e.ev[1], KLOG_TRANSCEIVER, "plugged", "0000:c1:00.0 module 0");
	expect(&e.ev[2], KLOG_TRANSCEIVER, "high-temperature",
	       "0000:c1:00.0 module 0");
	assert_string_equal(e.ev[2].detail, "High Temperature");
	expect(&e.ev[3], KLOG_TRANSCEIVER, "error", "0000:c1:00.1 module 1");
	assert_string_equal(e.ev[3].detail, "Bad or shorted cable/module");
	assert_true(e.ev[3].time == utc(3, 4, 17, 0)); /* +01:00 */
}

static void expect_storage(const struct klog_event *ev, const char *what,
			   const char *peer, const char *target)
{
	assert_int_equal(ev->kind, KLOG_STORAGE);
	assert_string_equal(ev->what, what);
	assert_string_equal(ev->peer, peer);
	assert_string_equal(ev->target, target);
}

static void test_lustre_2x(void **state)
{
	static const char nid[] = "100.100.100.105@o2ib";
	static const char ost[] = "lustre-OST0003";
	struct events e;

	(void)state;
	load("lustre-dmesg-T.log", &e);
	assert_int_equal(e.n, 11);
	expect_storage(&e.ev[0], "request-failed", nid, ost);
	assert_string_equal(e.ev[0].detail, "rc = -107");
	expect_storage(&e.ev[1], "lost", nid, ost);
	assert_true(e.ev[1].time == utc(3, 4, 16, 5));
	expect_storage(&e.ev[2], "request-timeout", nid, ost);
	assert_string_equal(e.ev[2].detail, "slow reply");
	expect_storage(&e.ev[3], "rdma-timeout", nid, "");
	expect_storage(&e.ev[4], "lnet-error", "", "");
	expect_storage(&e.ev[5], "restored", nid, ost);
	expect_storage(&e.ev[6], "lost", nid, ost);
	expect_storage(&e.ev[7], "restored", nid, ost); /* "to  (at NID)" */
	expect_storage(&e.ev[8], "io-error", nid, ost);
	assert_string_equal(e.ev[8].detail, "rc = -5");
	expect_storage(&e.ev[9], "peer-recovery", "100.100.100.106@o2ib", "");
	expect_storage(&e.ev[10], "evicted", "", "lustre-MDT0000");
}

static void test_lustre_18_syslog(void **state)
{
	static const char nid[] = "10.130.93.10@o2ib";
	struct events e;

	(void)state;
	load("lustre18-syslog.log", &e);
	assert_int_equal(e.n, 3);
	expect_storage(&e.ev[0], "request-timeout", nid, "lustre-MDT0000");
	assert_string_equal(e.ev[0].detail, "sent delay");
	expect_storage(&e.ev[1], "lost", nid, "lustre-MDT0000");
	expect_storage(&e.ev[2], "restored", nid, "lustre-MDT0000");
}

static void test_hung(void **state)
{
	struct events e;

	(void)state;
	load("hung-dmesg.log", &e);
	assert_int_equal(e.n, 2);
	assert_int_equal(e.ev[0].kind, KLOG_HUNG_TASK);
	assert_string_equal(e.ev[0].process, "kworker/3:1");
	assert_int_equal(e.ev[0].pid, 123);
	assert_int_equal(e.ev[0].seconds, 120);
	assert_string_equal(e.ev[1].process, "ptlrpcd_01_00");
	assert_int_equal(e.ev[1].pid, 4521);
	assert_int_equal(e.ev[1].seconds, 122);
}

/* ---- judgement ---- */

static struct klog_event down(const char *dev, double t)
{
	struct klog_event ev = { .kind = KLOG_LINK,
				 .what = "down",
				 .pattern = "ib-port-state",
				 .time = t,
				 .mono = -1,
				 .module = -1 };

	snprintf(ev.device, sizeof(ev.device), "%s", dev);
	return ev;
}

static int count(const json_t *findings, const char *sev, const char *cat)
{
	size_t i;
	json_t *f;
	int n = 0;

	json_array_foreach(findings, i, f) n +=
		!strcmp(json_string_value(json_object_get(f, "severity")),
			sev) &&
		!strcmp(json_string_value(json_object_get(f, "category")), cat);
	return n;
}

static json_t *judge(const struct klog_event *ev, int n, double now, int *fails)
{
	struct klog_params p = {
		.host = "gpu017", .window_s = 86400, .flap_fail = 5, .now = now
	};
	json_t *findings = json_array();
	char why[256];
	size_t i;
	json_t *f;

	*fails = klog_judge(ev, n, &p, findings);
	json_array_foreach(findings, i, f)
	{
		if (record_validate(f, why, sizeof(why)))
			fail_msg("%s", why);
	}
	return findings;
}

static void test_flaps_5_in_24h_fail(void **state)
{
	double t0 = utc(3, 4, 0, 0);
	struct klog_event ev[5];
	json_t *f, *times;
	int fails;

	(void)state;
	for (int i = 0; i < 5; i++)
		ev[i] = down("rxe0", t0 + i * 3600);
	f = judge(ev, 5, t0 + 6 * 3600, &fails);
	assert_int_equal(fails, 1);
	assert_int_equal(count(f, "fail", "link-flapping"), 1);
	assert_int_equal(json_array_size(f), 1);
	times = json_object_get(
		json_object_get(json_array_get(f, 0), "evidence"), "times");
	assert_int_equal(json_array_size(times), 5);
	assert_string_equal(json_string_value(json_array_get(times, 0)),
			    "2026-12-03T04:00:00Z");
	json_decref(f);
}

static void test_flaps_4_warn(void **state)
{
	double t0 = utc(3, 4, 0, 0);
	struct klog_event ev[4];
	json_t *f;
	int fails;

	(void)state;
	for (int i = 0; i < 4; i++)
		ev[i] = down("rxe0", t0 + i * 3600);
	f = judge(ev, 4, t0 + 6 * 3600, &fails);
	assert_int_equal(fails, 0);
	assert_int_equal(count(f, "warn", "link-flapping"), 1);
	assert_int_equal(json_array_size(f), 1);
	json_decref(f);
}

/* 5 downs over 48 h, at most 3 in any 24 h: two windows, two warnings. */
static void test_flaps_5_over_48h_warn_twice(void **state)
{
	double t0 = utc(1, 0, 0, 0);
	struct klog_event ev[5] = {
		down("rxe0", t0),
		down("rxe0", t0 + 10 * 3600),
		down("rxe0", t0 + 20 * 3600),
		down("rxe0", t0 + 30 * 3600),
		down("rxe0", t0 + 47 * 3600),
	};
	json_t *f;
	int fails;

	(void)state;
	f = judge(ev, 5, t0 + 48 * 3600, &fails);
	assert_int_equal(fails, 0);
	assert_int_equal(count(f, "warn", "link-flapping"), 2);
	assert_int_equal(
		json_integer_value(json_object_get(
			json_object_get(json_array_get(f, 0), "evidence"),
			"downs")),
		3);
	assert_int_equal(
		json_integer_value(json_object_get(
			json_object_get(json_array_get(f, 1), "evidence"),
			"downs")),
		2);
	json_decref(f);
}

/* 5 in 24 h that straddle where a window from the first down would end. */
static void test_flaps_window_slides(void **state)
{
	double t0 = utc(1, 0, 0, 0);
	struct klog_event ev[6] = {
		down("rxe0", t0),
		down("rxe0", t0 + 23.9 * 3600),
		down("rxe0", t0 + 24.1 * 3600),
		down("rxe0", t0 + 24.2 * 3600),
		down("rxe0", t0 + 24.3 * 3600),
		down("rxe0", t0 + 24.4 * 3600),
	};
	json_t *f;
	int fails;

	(void)state;
	f = judge(ev, 6, t0 + 25 * 3600, &fails);
	assert_int_equal(fails, 1);
	assert_int_equal(count(f, "fail", "link-flapping"), 1);
	assert_int_equal(count(f, "warn", "link-flapping"), 1);
	json_decref(f);
}

/* Per port: 3 + 3 downs on two ports are no flapping port. */
static void test_flaps_per_port_and_age(void **state)
{
	double t0 = utc(1, 0, 0, 0);
	struct klog_event ev[6];
	json_t *f;
	int fails;

	(void)state;
	for (int i = 0; i < 6; i++)
		ev[i] = down(i % 2 ? "rxe1" : "rxe0", t0 + i * 600);
	f = judge(ev, 6, t0 + 3600, &fails);
	assert_int_equal(fails, 0);
	assert_int_equal(count(f, "warn", "link-flapping"), 2);
	json_decref(f);

	/* five downs three days ago: not fresh, a warning */
	for (int i = 0; i < 5; i++)
		ev[i] = down("rxe0", t0 + i * 60);
	f = judge(ev, 5, t0 + 3 * 86400, &fails);
	assert_int_equal(fails, 0);
	assert_int_equal(count(f, "warn", "link-flapping"), 1);
	json_decref(f);
}

static void test_judge_fixtures(void **state)
{
	struct events e;
	json_t *f;
	int fails;

	(void)state;
	load("health-journal.log", &e);
	f = judge(e.ev, e.n, utc(3, 5, 0, 0), &fails);
	assert_int_equal(fails, 3); /* three PCI functions */
	assert_int_equal(count(f, "fail", "hca-health"), 3);
	json_decref(f);

	load("lustre-dmesg-T.log", &e);
	f = judge(e.ev, e.n, utc(3, 5, 0, 0), &fails);
	assert_int_equal(fails, 0);
	assert_int_equal(count(f, "warn", "storage-path-errors"), 4);
	assert_true(json_is_true(json_object_get(
		json_object_get(json_array_get(f, 0), "evidence"),
		"intermittent")));
	assert_string_equal(
		json_string_value(json_object_get(
			json_object_get(json_array_get(f, 0), "subject"),
			"peer")),
		"100.100.100.105@o2ib");
	json_decref(f);

	load("module-iso.log", &e);
	f = judge(e.ev, e.n, utc(3, 5, 0, 0), &fails);
	assert_int_equal(fails, 0);
	assert_int_equal(count(f, "warn", "transceiver-event"), 2);
	assert_int_equal(count(f, "warn", "link-flapping"), 1); /* unplug */
	json_decref(f);

	load("hung-dmesg.log", &e);
	f = judge(e.ev, e.n, 0, &fails);
	assert_int_equal(count(f, "info", "hung-task"), 2);
	json_decref(f);
}

static void test_event_record(void **state)
{
	struct events e;
	json_t *rec;
	char why[256];

	(void)state;
	load("lustre-dmesg-T.log", &e);
	rec = klog_event_record("gpu017", &e.ev[1], NULL, "dmesg.txt");
	assert_int_equal(record_validate(rec, why, sizeof(why)), 0);
	assert_string_equal(json_string_value(json_object_get(rec, "category")),
			    "storage");
	assert_string_equal(json_string_value(json_object_get(rec, "at")),
			    "2026-12-03T04:16:05Z");
	assert_string_equal(json_string_value(json_object_get(rec, "peer")),
			    "100.100.100.105@o2ib");
	json_decref(rec);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_link_dmesg_T),
		cmocka_unit_test(test_rxe_dmesg),
		cmocka_unit_test(test_health_journal),
		cmocka_unit_test(test_module_iso),
		cmocka_unit_test(test_lustre_2x),
		cmocka_unit_test(test_lustre_18_syslog),
		cmocka_unit_test(test_hung),
		cmocka_unit_test(test_flaps_5_in_24h_fail),
		cmocka_unit_test(test_flaps_4_warn),
		cmocka_unit_test(test_flaps_5_over_48h_warn_twice),
		cmocka_unit_test(test_flaps_window_slides),
		cmocka_unit_test(test_flaps_per_port_and_age),
		cmocka_unit_test(test_judge_fixtures),
		cmocka_unit_test(test_event_record),
	};

	setenv("TZ", "UTC", 1);
	tzset();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
