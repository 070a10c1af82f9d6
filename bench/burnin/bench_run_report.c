// SPDX-License-Identifier: MIT
/* `ibproof report` as the judge benches run it (bench_run_report.h). */
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench_run_report.h"

int bench_run_report(const char *ibproof, const char *path, const char *log,
		     const char *json, struct rusage *ru)
{
	int status;
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (!pid) {
		if (!freopen(log, "w", stderr) ||
		    !freopen("/dev/null", "w", stdout))
			_exit(127);
		execl(ibproof, ibproof, "report", "-v", path, "--json", json,
		      (char *)NULL);
		_exit(127);
	}
	if (pid < 0 || wait4(pid, &status, 0, ru) < 0 || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}
