// SPDX-License-Identifier: MIT
/*
 * Writing ibsim's console FIFO (fake_console.h). ibsim 0.10 reads a
 * console line into 128 bytes, so longer lines are refused here rather
 * than cut there. The FIFO is non-blocking: a full one is waited on with
 * poll(2) up to a deadline; SIGPIPE is blocked around each write so that
 * an ibsim gone away is an error, not the death of the rank.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "burnin/fake_console.h"
#include "common/clock.h"

#define CONSOLE_LINE_MAX 120 /* ibsim reads 127 bytes of a line */

int fake_console_open(const char *fifo)
{
	int fd = open(fifo, O_WRONLY | O_NONBLOCK | O_CLOEXEC);

	return fd < 0 ? -errno : fd;
}

/* write(2) with SIGPIPE held back; a pending one is taken away. */
static ssize_t write_nosigpipe(int fd, const char *buf, size_t len)
{
	sigset_t pipe_set, old;
	struct timespec zero = { 0, 0 };
	ssize_t w;
	int saved;

	sigemptyset(&pipe_set);
	sigaddset(&pipe_set, SIGPIPE);
	pthread_sigmask(SIG_BLOCK, &pipe_set, &old);
	w = write(fd, buf, len);
	saved = errno;
	if (w < 0 && saved == EPIPE)
		while (sigtimedwait(&pipe_set, NULL, &zero) < 0 &&
		       errno == EINTR)
			;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	errno = saved;
	return w;
}

int fake_console_line(int fd, const char *line, double timeout_s)
{
	char buf[CONSOLE_LINE_MAX + 2];
	double deadline = clock_mono_now() + timeout_s;
	int len = snprintf(buf, sizeof(buf), "%s\n", line);

	if (len < 0 || len > CONSOLE_LINE_MAX)
		return -E2BIG;
	for (;;) {
		struct pollfd p = { .fd = fd, .events = POLLOUT };
		double left = deadline - clock_mono_now();

		if (write_nosigpipe(fd, buf, (size_t)len) == len)
			return 0; /* <= PIPE_BUF: all or nothing */
		if (errno != EAGAIN && errno != EINTR)
			return -errno;
		if (left <= 0)
			return -ETIMEDOUT;
		poll(&p, 1, left > 0.1 ? 100 : (int)(left * 1000) + 1);
	}
}

int fake_console_drain(int fd, double timeout_s)
{
	double deadline = clock_mono_now() + timeout_s;
	struct timespec nap = { 0, 2 * 1000 * 1000 };
	int unread = 0;

	while (!ioctl(fd, FIONREAD, &unread) && unread > 0) {
		if (clock_mono_now() > deadline)
			return -ETIMEDOUT;
		nanosleep(&nap, NULL);
	}
	return 0;
}

int fake_console_node_id(const char *desc, char *buf, size_t len)
{
	size_t i;

	for (i = 0; desc[i]; i++) {
		unsigned char c = (unsigned char)desc[i];

		if (i + 1 >= len || (c < 0x21 && c != ' ') || c == '"' ||
		    c >= 0x7f)
			return -EINVAL; /* not a name ibsim's console takes */
		buf[i] = c == ' ' ? '-' : (char)c;
	}
	if (!i || i >= len)
		return -EINVAL;
	buf[i] = '\0';
	return 0;
}
