/* SPDX-License-Identifier: MIT */
#ifndef IBPROOF_BENCH_BURNIN_RUN_REPORT_H
#define IBPROOF_BENCH_BURNIN_RUN_REPORT_H

#include <sys/resource.h>

/*
 * Runs `IBPROOF report -v PATH --json JSON` in a child, its stderr into
 * LOG and its stdout dropped; fills its rusage. Its exit status, or -1
 * when it could not run or did not exit.
 */
int bench_run_report(const char *ibproof, const char *path, const char *log,
		     const char *json, struct rusage *ru);

#endif
