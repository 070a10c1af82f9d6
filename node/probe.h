/* SPDX-License-Identifier: MIT */
#ifndef IBPROOF_NODE_PROBE_H
#define IBPROOF_NODE_PROBE_H

#include <stddef.h>

/*
 * Runs an external program with a hard timeout, without a shell: a hung
 * filesystem or a hung systemctl must not hang ibproof. The child runs in
 * its own process group, which is killed (TERM, then KILL) at the deadline.
 */
struct probe_result {
	int exit_status; /* exit code, or 128 + signal */
	int timed_out; /* 1 if the deadline killed it */
	char output[4096]; /* stdout, NUL-terminated, truncated */
	size_t output_len;
};

/* 0 when the program ran (whatever its status), -errno if it could not. */
int probe_run(char *const argv[], double timeout_s, struct probe_result *res);

#endif
