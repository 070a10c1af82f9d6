// SPDX-License-Identifier: MIT
#include <time.h>

#include "common/clock.h"

double clock_mono_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}
