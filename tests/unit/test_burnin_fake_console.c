// SPDX-License-Identifier: MIT
/* The fake fabric's plumbing: ibsim's console FIFO (burnin/fake_console.c:
 * a full FIFO is waited on, no line lost or torn) and the job's registry
 * (burnin/fake_registry.c: flows by step, cable totals). */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "burnin/fake_console.h"
#include "burnin/fake_registry.h"

#define LINES 3000 /* ~150 KB: more than a FIFO holds (64 KiB) */

struct reader {
	int fd, lines, bad;
};

/* A slow ibsim: reads a byte at a time, naps now and then. */
static void *read_slowly(void *arg)
{
	struct reader *r = arg;
	struct timespec nap = { 0, 1000 * 1000 };
	char line[128];
	size_t len = 0;
	char c;

	while (r->lines < LINES) {
		ssize_t n = read(r->fd, &c, 1);

		if (n <= 0) {
			nanosleep(&nap, NULL);
			continue;
		}
		if (c != '\n') {
			if (len < sizeof(line) - 1)
				line[len++] = c;
			continue;
		}
		line[len] = '\0';
		char want[64];

		snprintf(want, sizeof(want),
			 "PerformanceSet \"leaf01\"[%d] x=%d",
			 r->lines % 36 + 1, r->lines);
		r->bad += strcmp(line, want) != 0;
		r->lines++;
		len = 0;
	}
	return NULL;
}

static void a_full_fifo_is_waited_on_not_dropped(void **state)
{
	char dir[] = "/tmp/ibp-console-XXXXXX", fifo[64], line[64];
	struct reader r = { 0 };
	pthread_t t;
	int fd;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(fifo, sizeof(fifo), "%s/console", dir);
	assert_int_equal(mkfifo(fifo, 0600), 0);
	assert_int_equal(fake_console_open(fifo), -ENXIO); /* nobody reads */
	r.fd = open(fifo, O_RDONLY | O_NONBLOCK);
	assert_true(r.fd >= 0);
	fd = fake_console_open(fifo);
	assert_true(fd >= 0);
	/* fill it before the reader starts: the writer must wait */
	assert_int_equal(pthread_create(&t, NULL, read_slowly, &r), 0);
	for (int i = 0; i < LINES; i++) {
		snprintf(line, sizeof(line),
			 "PerformanceSet \"leaf01\"[%d] x=%d", i % 36 + 1, i);
		assert_int_equal(fake_console_line(fd, line, 30), 0);
	}
	assert_int_equal(fake_console_drain(fd, 30), 0);
	pthread_join(t, NULL);
	assert_int_equal(r.lines, LINES);
	assert_int_equal(r.bad, 0);
	char big[200];

	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	assert_int_equal(fake_console_line(fd, big, 1), -E2BIG);
	close(r.fd); /* ibsim gone: an error, not SIGPIPE */
	assert_int_equal(fake_console_line(fd, "Dump", 1), -EPIPE);
	close(fd);
	unlink(fifo);
	rmdir(dir);
}

static void node_ids_are_ibsims(void **state)
{
	char id[32];

	(void)state;
	assert_int_equal(fake_console_node_id("node001 mlx5_0", id, sizeof(id)),
			 0);
	assert_string_equal(id, "node001-mlx5_0");
	assert_int_equal(fake_console_node_id("leaf01", id, sizeof(id)), 0);
	assert_string_equal(id, "leaf01");
	assert_int_equal(fake_console_node_id("bad\"name", id, sizeof(id)),
			 -EINVAL);
	assert_int_equal(fake_console_node_id("tab\tname", id, sizeof(id)),
			 -EINVAL);
	assert_int_equal(fake_console_node_id("", id, sizeof(id)), -EINVAL);
	assert_int_equal(
		fake_console_node_id("a-name-longer-than-the-buffer-is", id, 8),
		-EINVAL);
}

static void seen_total(int cable, const struct fake_cable_total *t, void *arg)
{
	uint64_t *out = arg;

	out[cable] = t->xmit_words * 1000 + t->errors;
}

static void the_registry_keeps_flows_by_step(void **state)
{
	char base[256];
	struct fake_registry_flow f = {
		.step = 3, .src = 1, .dst = 2, .cap_gbps = 100, .t_wall = 1000
	};
	struct fake_registry_flow *got;
	int n, cables[] = { 0, 2 };
	uint32_t errors[] = { 0, 5 };
	uint64_t seen[3] = { 0 };

	(void)state;
	setenv("IBP_FAKE_JOB", "unit-registry", 1);
	assert_false(fake_registry_path(base, sizeof(base)));
	assert_non_null(strstr(base, "unit-registry"));
	assert_int_equal(fake_registry_clear(base), 0);
	fake_registry_join(base);
	assert_int_equal(fake_registry_add(base, &f), 0);
	f.src = 5;
	assert_int_equal(fake_registry_add(base, &f), 0);
	f.step = 4; /* the next step: step 3 stays (a late end may read it) */
	assert_int_equal(fake_registry_add(base, &f), 0);
	assert_int_equal(fake_registry_step(base, 3, 1000, 60, &got, &n), 0);
	assert_int_equal(n, 2);
	assert_int_equal(got[1].src, 5);
	free(got);
	/* a flow of the same step number long before: another job's */
	assert_int_equal(fake_registry_step(base, 3, 5000, 60, &got, &n), 0);
	assert_int_equal(n, 0);
	free(got);
	f.step = 5; /* step 3 is gone now */
	assert_int_equal(fake_registry_add(base, &f), 0);
	assert_int_equal(fake_registry_step(base, 3, 1000, 60, &got, &n), 0);
	assert_int_equal(n, 0);
	free(got);

	assert_int_equal(fake_registry_carry(base, cables, 2, 10, NULL, errors,
					     seen_total, seen),
			 0);
	assert_int_equal(fake_registry_carry(base, cables, 2, 7, NULL, errors,
					     seen_total, seen),
			 0);
	assert_int_equal(seen[0], 17000);
	assert_int_equal(seen[2], 17010);
	assert_int_equal(seen[1], 0);
	unsetenv("IBP_FAKE_JOB");
	assert_true(fake_registry_path(base, sizeof(base))); /* the pid's */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(a_full_fifo_is_waited_on_not_dropped),
		cmocka_unit_test(node_ids_are_ibsims),
		cmocka_unit_test(the_registry_keeps_flows_by_step),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
