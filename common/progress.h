/* SPDX-License-Identifier: MIT */
/*
 * progress.h: one progress line on stderr for every long step (fabric
 * counters, report over large files, burnin's rounds), the same style
 * everywhere: "\r[#####...............] what: done/total unit, ETA 1m02s",
 * redrawn at most five times a second, only when stderr is a terminal;
 * quiet otherwise (logs and CI see nothing). Safe to update from several
 * threads: a thread that finds another drawing skips its turn.
 */
#ifndef IBPROOF_COMMON_PROGRESS_H
#define IBPROOF_COMMON_PROGRESS_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

struct progress {
	const char *what, *unit;
	uint64_t total, done;
	double start, last;
	FILE *out; /* NULL: off */
	bool drawn;
	pthread_mutex_t lock;
};

/* Starts a line on stderr when it is a terminal (else the progress is off). */
void progress_start(struct progress *p, const char *what, const char *unit,
		    uint64_t total);
/* The same to any stream, on or off as asked (tests, --progress). */
void progress_start_to(struct progress *p, const char *what, const char *unit,
		       uint64_t total, FILE *out);
/* Adds n to what is done, redraws when a fifth of a second has passed. */
void progress_add(struct progress *p, uint64_t n);
/* Clears the line (a finished step leaves no progress behind). */
void progress_end(struct progress *p);
/* "1h02m" or "3m07s": ETAs and durations, burnin's plan and progress too. */
void progress_fmt_duration(double seconds, char *buf, size_t len);

#endif
