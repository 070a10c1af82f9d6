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
#include "node/node_run.h"

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

/* ib_core's port lines (6.15+): every state change, the port named. */
static void test_ib_core_lines(void **state)
{
	struct events e;

	(void)state;
	load("ib-core-flaps-dmesg-T.log", &e);
	assert_int_equal(e.n, 17); /* the comment lines are no event */
	expect(&e.ev[0], KLOG_LINK, "init", "ibp195s0");
	expect(&e.ev[1], KLOG_LINK, "up", "ibp195s0");
	assert_string_equal(e.ev[1].bdf, "0000:c3:00.0");
	for (int i = 0; i < 5; i++) {
		static const char *const what[] = { "down", "init", "up" };

		for (int k = 0; k < 3; k++) {
			const struct klog_event *ev = &e.ev[2 + 3 * i + k];

			expect(ev, KLOG_LINK, what[k], "mlx5_0");
			assert_int_equal(ev->port, 1);
			assert_string_equal(ev->bdf, "0000:0a:00.0");
			assert_string_equal(ev->pattern, "ib-core-port");
		}
	}
	assert_string_equal(e.ev[2].detail, "DOWN");
	assert_true(e.ev[2].time == utc(3, 4, 0, 1));
}

/* A RoCE port's flaps as ib_core, the netdev and bonding print them. */
static void test_roce_bond_lines(void **state)
{
	static const char *const want[][3] = {
		{ "netdev-link", "down", "enp83s0f0np0" },
		{ "bond-slave-link", "down", "enp83s0f0np0" },
		{ "netdev-link", "up", "enp83s0f0np0" },
		{ "ib-core-port", "up", "mlx5_3" },
		{ "bond-slave-link", "up", "enp83s0f0np0" },
		{ "netdev-link", "down", "enp83s0f0np0" },
		{ "ib-core-port", "down", "mlx5_3" },
		{ "bond-slave-link", "down", "enp83s0f0np0" },
	};
	struct events e;

	(void)state;
	load("roce-bond-dmesg.log", &e);
	assert_int_equal(e.n, 14); /* "speed changed to 0" is no event */
	for (int i = 0; i < 8; i++) {
		assert_string_equal(e.ev[i].pattern, want[i][0]);
		expect(&e.ev[i], KLOG_LINK, want[i][1], want[i][2]);
	}
	assert_int_equal(e.ev[3].port, 1);
	assert_string_equal(e.ev[3].bdf, "0000:53:00.0");
	assert_true(e.ev[13].mono > 4451.00 && e.ev[13].mono < 4451.01);
}

static void test_boot_8hca_lines(void **state)
{
	struct events e;

	(void)state;
	load("boot-8hca-dmesg.log", &e);
	assert_int_equal(e.n, 24);
	for (int i = 0; i < 8; i++) {
		char dev[32];

		assert_int_equal(e.ev[i].kind, KLOG_TRANSCEIVER);
		assert_string_equal(e.ev[i].what, "plugged");
		snprintf(dev, sizeof(dev), "mlx5_%d", i);
		expect(&e.ev[8 + i], KLOG_LINK, "init", dev);
		expect(&e.ev[16 + i], KLOG_LINK, "up", dev);
	}
}

/*
 * LNet's transmit timeouts and ptlrpc's network error name the peer's
 * NID; the MGC's request names the MGS as its target type; libcfs's
 * "Skipped N previous similar messages" lines are no events.
 */
static void test_lustre_network(void **state)
{
	static const char nid[] = "172.31.126.87@o2ib";
	struct events e;

	(void)state;
	load("lustre-net-dmesg-T.log", &e);
	assert_int_equal(e.n, 5);
	expect_storage(&e.ev[0], "tx-timeout", nid, "");
	assert_string_equal(e.ev[0].pattern, "lnet-tx-timeout");
	assert_string_equal(e.ev[0].detail, "403055 s");
	assert_null(e.ev[0].target_type);
	expect_storage(&e.ev[1], "network-error", nid, "");
	assert_string_equal(e.ev[1].pattern, "ptlrpc-request");
	assert_string_equal(e.ev[1].target_type, "MGS");
	expect_storage(&e.ev[2], "tx-timeout", nid, "");
	expect_storage(&e.ev[3], "request-failed", "172.31.126.88@o2ib",
		       "jmain01-MDT0000");
	assert_string_equal(e.ev[3].target_type, "MDT");
	expect_storage(&e.ev[4], "network-error", "10.1.1.47@tcp", "");
	assert_string_equal(e.ev[4].target_type, "MGS");
}

/* A Lustre 2.15-era client (2025): the rows on today's wording. */
static void test_lustre_215(void **state)
{
	static const char n43[] = "172.28.1.43@tcp", n59[] = "172.28.1.59@tcp";
	static const char o3a[] = "capstor-OST003a", o5a[] = "capstor-OST005a";
	struct events e;

	(void)state;
	load("lustre215-dmesg-T.log", &e);
	assert_int_equal(e.n, 14); /* 5 "Skipped ..." lines are no event */
	expect_storage(&e.ev[0], "lnet-error", n43, "");
	expect_storage(&e.ev[1], "request-timeout", n43, o3a);
	assert_string_equal(e.ev[1].target_type, "OST");
	expect_storage(&e.ev[2], "lost", n43, o3a);
	expect_storage(&e.ev[3], "restored", n43, o3a);
	expect_storage(&e.ev[4], "lnet-error", n43, "");
	expect_storage(&e.ev[5], "request-timeout", n59, o5a);
	expect_storage(&e.ev[6], "lost", n59, o5a);
	expect_storage(&e.ev[7], "restored", n59, o5a);
	expect_storage(&e.ev[8], "lnet-error", n59, "");
	expect_storage(&e.ev[9], "request-timeout", n43, o3a);
	expect_storage(&e.ev[10], "lost", n43, o3a);
	expect_storage(&e.ev[11], "restored", n43, o3a);
	expect_storage(&e.ev[12], "lnet-error", n43, "");
	/* an MDT's request to another MDT (osp) */
	expect_storage(&e.ev[13], "request-timeout", "192.168.5.173@tcp",
		       "st_nas-MDT0002");
	assert_string_equal(e.ev[13].target_type, "MDT");
	assert_string_equal(e.ev[13].detail, "slow reply");
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

static struct klog_event link_ev(const char *dev, const char *what,
				 const char *pattern, double t)
{
	struct klog_event ev = down(dev, t);

	ev.what = what;
	ev.pattern = pattern;
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

static json_int_t downs_of(const json_t *finding)
{
	return json_integer_value(
		json_object_get(json_object_get(finding, "evidence"), "downs"));
}

/* 5 DOWN/INIT/ACTIVE cycles of an InfiniBand port in 24 h fail, 4 warn. */
static void test_judge_ib_core_cycles(void **state)
{
	struct events e;
	json_t *f;
	int fails;

	(void)state;
	load("ib-core-flaps-dmesg-T.log", &e);
	f = judge(e.ev, e.n, utc(3, 9, 0, 0), &fails);
	assert_int_equal(fails, 1);
	assert_int_equal(json_array_size(f), 1);
	assert_int_equal(count(f, "fail", "link-flapping"), 1);
	assert_int_equal(downs_of(json_array_get(f, 0)), 5);
	json_decref(f);

	f = judge(e.ev, 2 + 4 * 3, utc(3, 9, 0, 0), &fails); /* 4 cycles */
	assert_int_equal(fails, 0);
	assert_int_equal(json_array_size(f), 1);
	assert_int_equal(count(f, "warn", "link-flapping"), 1);
	assert_int_equal(downs_of(json_array_get(f, 0)), 4);
	json_decref(f);
}

/*
 * ACTIVE -> INIT is a flap with no DOWN line; INIT -> ACTIVE at boot none;
 * ACTIVE -> INIT -> DOWN -> INIT -> ACTIVE one.
 */
static void test_judge_init_after_active(void **state)
{
	double t0 = utc(3, 4, 0, 0);
	struct klog_event ev[20];
	json_t *f;
	int fails, n = 0;

	(void)state;
	ev[n++] = link_ev("mlx5_0", "init", "ib-core-port", t0);
	ev[n++] = link_ev("mlx5_0", "up", "ib-core-port", t0 + 1);
	f = judge(ev, n, t0 + 3600, &fails);
	assert_int_equal(json_array_size(f), 0); /* boot */
	json_decref(f);
	for (int i = 1; i <= 4; i++) {
		double t = t0 + i * 3600;

		ev[n++] = link_ev("mlx5_0", "init", "ib-core-port", t);
		if (i == 2) {
			ev[n++] = link_ev("mlx5_0", "down", "ib-core-port",
					  t + 1);
			ev[n++] = link_ev("mlx5_0", "init", "ib-core-port",
					  t + 2);
		}
		ev[n++] = link_ev("mlx5_0", "armed", "ib-core-port", t + 3);
		ev[n++] = link_ev("mlx5_0", "up", "ib-core-port", t + 4);
	}
	f = judge(ev, n, t0 + 6 * 3600, &fails);
	assert_int_equal(fails, 0);
	assert_int_equal(count(f, "warn", "link-flapping"), 1);
	assert_int_equal(downs_of(json_array_get(f, 0)), 4);
	json_decref(f);
}

static const struct node_port roce_port = { .ca = "mlx5_3",
					    .port = 1,
					    .netdev = "enp83s0f0np0" };

static const struct node_port *roce_port_of(void *arg,
					    const struct klog_event *ev)
{
	(void)arg;
	return (!strcmp(ev->device, roce_port.ca) && ev->port == 1) ||
			       !strcmp(ev->device, roce_port.netdev)
		       ? &roce_port
		       : NULL;
}

static json_t *judge_roce(const struct klog_event *ev, int n, double now)
{
	struct klog_params p = { .host = "gpu017",
				 .window_s = 86400,
				 .flap_fail = 5,
				 .now = now,
				 .port_of = roce_port_of };
	json_t *findings = json_array();

	klog_judge(ev, n, &p, findings);
	return findings;
}

/* One flap of a RoCE port logged by ib_core, its netdev and bonding. */
static void test_judge_roce_flap_counts_once(void **state)
{
	struct events e;
	json_t *f;

	(void)state;
	load("roce-bond-dmesg.log", &e);
	f = judge_roce(e.ev, e.n, 0);
	assert_int_equal(json_array_size(f), 1);
	assert_int_equal(count(f, "warn", "link-flapping"), 1);
	assert_int_equal(downs_of(json_array_get(f, 0)), 3); /* of 8 lines */
	json_decref(f);
}

/* Two flaps 2 s apart, each logged by three sources: two, not one. */
static void test_judge_merge_keeps_real_flaps(void **state)
{
	static const char *const src[] = { "netdev-link", "ib-core-port",
					   "bond-slave-link" };
	double t0 = utc(3, 4, 0, 0);
	struct klog_event ev[18];
	json_t *f;
	int n = 0;

	(void)state;
	for (int flap = 0; flap < 2; flap++)
		for (int k = 0; k < 3; k++) {
			double t = t0 + flap * 2.0 + k * 0.05;
			const char *dev = k == 1 ? "mlx5_3" : "enp83s0f0np0";

			ev[n] = link_ev(dev, "down", src[k], t);
			ev[n++].port = k == 1;
			ev[n] = link_ev(dev, "up", src[k], t + 1);
			ev[n++].port = k == 1;
		}
	f = judge_roce(ev, n, t0 + 60);
	assert_int_equal(json_array_size(f), 1);
	assert_int_equal(downs_of(json_array_get(f, 0)), 2);
	json_decref(f);
}

/*
 * node_klog_run() on the RoCE log, the node's port table joining ib_core's
 * mlx5_3 port 1 to its netdev and bonding slave: every line an event of
 * that port, one finding of 3 flaps. Without the port (another host's
 * log) the bonding lines are none of ours and ib_core's device is apart.
 */
static void test_node_klog_run_roce(void **state)
{
	struct node_port port = roce_port;
	struct node_run_opts o = { .host = "gpu017",
				   .sysfs_root = "/nonexistent",
				   .window_h = 24,
				   .timeout_s = 5 };
	struct node_ctx c = { .o = &o, .ports = &port, .n = 1 };
	char path[512];
	json_t *records = json_array(), *f;

	(void)state;
	snprintf(path, sizeof(path), "%s/kernlog/roce-bond-dmesg.log",
		 FIXTURES_DIR);
	o.kernel_log = path;
	c.findings = json_array();
	c.skipped = json_array();
	c.notes = json_array();
	assert_int_equal(node_klog_run(&c, records), 0);
	assert_int_equal(json_array_size(records), 14);
	assert_string_equal(
		json_string_value(json_object_get(
			json_object_get(json_array_get(records, 6), "subject"),
			"ca")),
		"mlx5_3");
	assert_int_equal(json_array_size(c.findings), 1);
	f = json_array_get(c.findings, 0);
	assert_int_equal(downs_of(f), 3);
	assert_string_equal(json_string_value(json_object_get(
				    json_object_get(f, "subject"), "ca")),
			    "mlx5_3");

	json_array_clear(records);
	json_array_clear(c.findings);
	c.n = 0;
	assert_int_equal(node_klog_run(&c, records), 0);
	assert_int_equal(json_array_size(records), 9); /* no bonding */
	assert_int_equal(count(c.findings, "warn", "link-flapping"), 2);
	json_decref(records);
	json_decref(c.findings);
	json_decref(c.skipped);
	json_decref(c.notes);
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

	/* every module plugged and every port up at boot: nothing */
	load("boot-8hca-dmesg.log", &e);
	f = judge(e.ev, e.n, 0, &fails);
	assert_int_equal(fails, 0);
	assert_int_equal(json_array_size(f), 0);
	json_decref(f);

	/* one storage finding per peer NID, the MGS named */
	load("lustre-net-dmesg-T.log", &e);
	f = judge(e.ev, e.n, 0, &fails);
	assert_int_equal(fails, 0);
	assert_int_equal(count(f, "warn", "storage-path-errors"), 3);
	assert_string_equal(
		json_string_value(json_object_get(
			json_object_get(json_array_get(f, 0), "subject"),
			"peer")),
		"172.31.126.87@o2ib");
	assert_non_null(strstr(json_string_value(json_object_get(
				       json_array_get(f, 0), "message")),
			       "(MGS)"));
	json_decref(f);

	/* 2.15: two OSS peers (the first lost and restored twice), an MDS */
	load("lustre215-dmesg-T.log", &e);
	f = judge(e.ev, e.n, 0, &fails);
	assert_int_equal(count(f, "warn", "storage-path-errors"), 3);
	assert_true(json_is_true(json_object_get(
		json_object_get(json_array_get(f, 0), "evidence"),
		"intermittent")));
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
	assert_string_equal(
		json_string_value(json_object_get(rec, "target_type")), "OST");
	json_decref(rec);

	load("lustre-net-dmesg-T.log", &e);
	rec = klog_event_record("gpu017", &e.ev[1], NULL, "dmesg.txt");
	assert_int_equal(record_validate(rec, why, sizeof(why)), 0);
	assert_string_equal(json_string_value(json_object_get(rec, "what")),
			    "network-error");
	assert_string_equal(json_string_value(json_object_get(rec, "peer")),
			    "172.31.126.87@o2ib");
	assert_string_equal(
		json_string_value(json_object_get(rec, "target_type")), "MGS");
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
		cmocka_unit_test(test_ib_core_lines),
		cmocka_unit_test(test_roce_bond_lines),
		cmocka_unit_test(test_boot_8hca_lines),
		cmocka_unit_test(test_lustre_network),
		cmocka_unit_test(test_lustre_215),
		cmocka_unit_test(test_flaps_5_in_24h_fail),
		cmocka_unit_test(test_flaps_4_warn),
		cmocka_unit_test(test_flaps_5_over_48h_warn_twice),
		cmocka_unit_test(test_flaps_window_slides),
		cmocka_unit_test(test_flaps_per_port_and_age),
		cmocka_unit_test(test_judge_ib_core_cycles),
		cmocka_unit_test(test_judge_init_after_active),
		cmocka_unit_test(test_judge_roce_flap_counts_once),
		cmocka_unit_test(test_judge_merge_keeps_real_flaps),
		cmocka_unit_test(test_node_klog_run_roce),
		cmocka_unit_test(test_judge_fixtures),
		cmocka_unit_test(test_event_record),
	};

	setenv("TZ", "UTC", 1);
	tzset();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
