// SPDX-License-Identifier: MIT
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "common/log.h"
#include "node/probe.h"

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void child_exec(char *const argv[], int out_fd)
{
	int devnull = open("/dev/null", O_RDWR);

	setpgid(0, 0);
	if (devnull >= 0)
		dup2(devnull, STDIN_FILENO);
	dup2(out_fd, STDOUT_FILENO);
	execvp(argv[0], argv);
	_exit(127);
}

/* Reads the child's stdout until EOF or the deadline; 1 if it timed out. */
static int collect(int fd, double deadline, struct probe_result *res)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	char sink[512];

	for (;;) {
		double left = deadline - now_s();
		size_t room = sizeof(res->output) - 1 - res->output_len;
		ssize_t n;

		if (left <= 0)
			return 1;
		if (poll(&pfd, 1, (int)(left * 1000) + 1) <= 0)
			continue;
		n = room ? read(fd, res->output + res->output_len, room)
			 : read(fd, sink, sizeof(sink));
		if (n < 0 && (errno == EINTR || errno == EAGAIN))
			continue; /* closing now would SIGPIPE the child */
		if (n <= 0)
			return 0;
		if (room)
			res->output_len += (size_t)n;
	}
}

static void kill_group(pid_t pid)
{
	kill(-pid, SIGTERM);
	for (int i = 0; i < 20; i++) {
		if (waitpid(pid, NULL, WNOHANG) == pid)
			return;
		usleep(10000);
	}
	kill(-pid, SIGKILL);
	waitpid(pid, NULL, 0);
}

int probe_run(char *const argv[], double timeout_s, struct probe_result *res)
{
	double deadline = now_s() + timeout_s;
	int fds[2], status;
	pid_t pid, waited;

	memset(res, 0, sizeof(*res));
	if (pipe2(fds, O_CLOEXEC))
		return -errno;
	pid = fork();
	if (pid < 0) {
		close(fds[0]);
		close(fds[1]);
		return -errno;
	}
	if (pid == 0)
		child_exec(argv, fds[1]);
	setpgid(pid, pid);
	close(fds[1]);
	res->timed_out = collect(fds[0], deadline, res);
	close(fds[0]);
	res->output[res->output_len] = '\0';
	if (res->timed_out) {
		log_warn("%s: no answer within %.1f s, killed", argv[0],
			 timeout_s);
		kill_group(pid);
		res->exit_status = 128 + SIGKILL;
		return 0;
	}
	/* stdout closed; the child may still hang: wait, bounded. */
	while ((waited = waitpid(pid, &status, WNOHANG)) == 0) {
		if (now_s() >= deadline) {
			log_warn("%s: did not exit within %.1f s, killed",
				 argv[0], timeout_s);
			kill_group(pid);
			res->timed_out = 1;
			res->exit_status = 128 + SIGKILL;
			return 0;
		}
		usleep(5000);
	}
	if (waited < 0)
		return -errno;
	res->exit_status = WIFEXITED(status) ? WEXITSTATUS(status)
					     : 128 + WTERMSIG(status);
	return 0;
}
