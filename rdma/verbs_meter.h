/* SPDX-License-Identifier: MIT */
#ifndef IBPROOF_RDMA_VERBS_METER_H
#define IBPROOF_RDMA_VERBS_METER_H

/*
 * Bandwidth over a measurement window [start, end) of CLOCK_MONOTONIC
 * nanoseconds, cut into DPATH_WINDOW_MS windows. The bytes of a completion
 * are spread evenly over the time since the previous completion, so that
 * large messages do not make a steady link look bursty (a window without a
 * completion is not a window without traffic) while a real gap still shows:
 * a completion after a 500 ms stall spreads one message over 500 ms. Bytes
 * that fall outside [start, end) (warm-up, drain) are not counted. Pure.
 */
#include <stdint.h>

struct dpath_meter {
	int64_t start_ns, end_ns, window_ns;
	int64_t last_ns; /* previous completion (or start) */
	int n_windows;
	double *window_bytes;
	double bytes; /* inside [start, end) */
};

/* 0 or -ENOMEM / -EINVAL (end <= start). */
int dpath_meter_init(struct dpath_meter *m, int64_t start_ns, int64_t end_ns,
		     int64_t window_ns);
/* A completion of bytes at now_ns (non-decreasing). */
void dpath_meter_add(struct dpath_meter *m, int64_t now_ns, uint64_t bytes);
/*
 * Results for a run that stopped at stop_ns (end_ns, or earlier after an
 * error): seconds measured, average Gb/s and the lowest complete window's
 * Gb/s (the average when no window is complete).
 */
void dpath_meter_result(const struct dpath_meter *m, int64_t stop_ns,
			double *seconds, double *gbps, double *gbps_min);
void dpath_meter_free(struct dpath_meter *m);

#endif
