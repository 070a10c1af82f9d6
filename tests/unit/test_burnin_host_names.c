// SPDX-License-Identifier: MIT
/*
 * D16, what was left: a port's host name holds the longest legal host
 * name (64 bytes, Linux HOST_NAME_MAX) whole; a longer one is refused,
 * never cut, in an inventory file (FILE:LINE) and in the fake transport
 * (IBPROOF_HOST), so two ports never merge into one.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <errno.h>

#include <cmocka.h>

#include "burnin/burnin.h"
#include "rdma/fake_transport.h"
#include "rdma/transport.h"

/* An inventory of two ports whose hosts are len bytes, differing last. */
static char *write_inventory(size_t len)
{
	char *path = strdup("/tmp/ibproof-test-hosts-XXXXXX"), host[128];
	int fd = mkstemp(path);
	FILE *f = fdopen(fd, "w");

	assert_non_null(f);
	memset(host, 'h', len);
	host[len] = '\0';
	for (int i = 0; i < 2; i++) {
		host[len - 1] = (char)('a' + i);
		fprintf(f,
			"{\"schema\":\"ibproof/1\",\"kind\":\"port\","
			"\"time\":\"2026-12-02T15:04:05.123Z\",\"host\":"
			"\"%s\",\"version\":\"0.1.0\",\"ca\":\"mlx5_0\","
			"\"port\":1,\"guid\":\"0x000000000000000%d\",\"lid\":%d,"
			"\"link_layer\":\"InfiniBand\",\"state\":\"ACTIVE\","
			"\"rate_gbps\":100.0,\"rail\":0}\n",
			host, i + 1, i + 1);
	}
	fclose(f);
	return path;
}

/* Two hosts of 64 bytes that differ in their last byte: two ports. */
static void test_d16_longest_host_kept(void **state)
{
	char *path = write_inventory(64);
	struct dpath_port *inv = NULL;
	int n = 0;

	(void)state;
	assert_int_equal(0, burnin_inventory_load(path, &inv, &n));
	assert_int_equal(2, n);
	assert_int_equal(64, strlen(inv[0].host));
	assert_int_equal(64, strlen(inv[1].host));
	assert_string_not_equal(inv[0].host, inv[1].host);
	free(inv);
	unlink(path);
	free(path);
}

/* 65 bytes is no host name: refused, not cut to 64 (and merged). */
static void test_d16_host_past_64_refused(void **state)
{
	char *path = write_inventory(65);
	struct dpath_port *inv = NULL;
	int n = 0;

	(void)state;
	assert_int_equal(-EINVAL, burnin_inventory_load(path, &inv, &n));
	assert_null(inv);
	unlink(path);
	free(path);
}

/*
 * The fake transport's ports on host IBPROOF_HOST of len bytes, in a
 * child (record_hostname() reads the variable once a process): the exit
 * status, 0 when the host was kept whole, 1 when list_ports refused it.
 */
static int fake_ports_on_host(size_t len)
{
	pid_t pid = fork();
	int status;

	assert_true(pid >= 0);
	if (!pid) {
		char host[128];
		struct dpath_port *p = NULL;
		int n = 0, rc;

		memset(host, 'h', len);
		host[len] = '\0';
		setenv("IBPROOF_HOST", host, 1);
		dpath_fake_reset();
		rc = dpath_fake_ops.list_ports(NULL, &p, &n);
		if (rc == -EINVAL && !p)
			_exit(1);
		_exit(!rc && n > 0 && !strcmp(p[0].host, host) ? 0 : 2);
	}
	assert_int_equal(pid, waitpid(pid, &status, 0));
	assert_true(WIFEXITED(status));
	return WEXITSTATUS(status);
}

static void test_d16_fake_host_not_cut(void **state)
{
	(void)state;
	assert_int_equal(0, fake_ports_on_host(64));
	assert_int_equal(1, fake_ports_on_host(65));
	assert_int_equal(1, fake_ports_on_host(100));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_d16_longest_host_kept),
		cmocka_unit_test(test_d16_host_past_64_refused),
		cmocka_unit_test(test_d16_fake_host_not_cut),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
