// SPDX-License-Identifier: MIT
/* The in-process bootstrap: messages by tag, deadlines that expire instead
 * of hanging, partial gathers; and NUMA pinning from a sysfs fixture. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <errno.h>

#include <cmocka.h>

#include "burnin/bootstrap.h"
#include "burnin/burnin.h"

static void test_send_recv_by_tag(void **state)
{
	struct burnin_bootstrap *bs[3];
	int v = 7, got = 0;

	(void)state;
	assert_int_equal(0, burnin_bootstrap_threads_open(3, bs));
	assert_int_equal(1, bs[1]->rank);
	assert_int_equal(3, bs[2]->size);
	assert_int_equal(0, bs[1]->ops->send(bs[1], 0, 5, &v, sizeof(v),
					     clock_mono_now() + 1));
	/* another tag does not match: the deadline expires, no hang */
	assert_int_equal(-ETIMEDOUT,
			 burnin_bootstrap_recv(bs[0], 1, 6, &got, sizeof(got),
					       clock_mono_now() + 0.05));
	assert_int_equal(0,
			 burnin_bootstrap_recv(bs[0], 1, 5, &got, sizeof(got),
					       clock_mono_now() + 1));
	assert_int_equal(7, got);
	burnin_bootstrap_threads_free(bs, 3);
}

static void test_partial_gather(void **state)
{
	struct burnin_bootstrap *bs[4];
	int peers[3] = { 1, 2, 3 }, bufs[3] = { 0 }, a = 11, c = 33;
	bool got[3];
	double t0;

	(void)state;
	assert_int_equal(0, burnin_bootstrap_threads_open(4, bs));
	bs[1]->ops->send(bs[1], 0, 9, &a, sizeof(a), clock_mono_now() + 1);
	bs[3]->ops->send(bs[3], 0, 9, &c, sizeof(c), clock_mono_now() + 1);
	t0 = clock_mono_now();
	/* rank 2 is "dead": the gather returns at the deadline with the rest */
	assert_int_equal(-ETIMEDOUT,
			 bs[0]->ops->recv_many(bs[0], peers, 3, 9, bufs,
					       sizeof(int), got, t0 + 0.1));
	assert_true(clock_mono_now() - t0 >= 0.09);
	assert_true(got[0] && !got[1] && got[2]);
	assert_int_equal(11, bufs[0]);
	assert_int_equal(33, bufs[2]);
	burnin_bootstrap_threads_free(bs, 4);
}

static void test_pin_numa_fixture(void **state)
{
	char root[] = "/tmp/ibproof-test-sysfs-XXXXXX", path[256];
	FILE *f;

	(void)state;
	assert_non_null(mkdtemp(root));
	snprintf(path, sizeof(path), "%s/devices", root);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/devices/system", root);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/devices/system/node", root);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/devices/system/node/node0", root);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/devices/system/node/node0/cpulist",
		 root);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("0\n", f); /* cpu 0 exists everywhere */
	fclose(f);
	assert_int_equal(0, burnin_pin_numa(0, root));
	assert_int_equal(-ENOENT, burnin_pin_numa(1, root));
	unlink(path);
	for (int i = 0; i < 4; i++) {
		*strrchr(path, '/') = '\0';
		rmdir(path);
	}
	rmdir(root);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_send_recv_by_tag),
		cmocka_unit_test(test_partial_gather),
		cmocka_unit_test(test_pin_numa_fixture),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
