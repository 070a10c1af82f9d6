// SPDX-License-Identifier: MIT
/*
 * The averaging rule of the light check's bandwidth samples and the rule
 * that keeps an idle GPU from being flagged. Pure: no device, no clock.
 * A single sample lies when the workload competes for the same PCIe path
 * (IBM's Vela operators alarm on the mean of 12 hourly samples); the mean
 * of the last K does not, unless the link really is slow.
 */
#include <math.h>

#include "node/light.h"

const char *light_bw_state_name(enum light_bw_state s)
{
	switch (s) {
	case LIGHT_BW_OK:
		return "ok";
	case LIGHT_BW_LOW:
		return "low";
	case LIGHT_BW_COLLECTING:
		return "collecting";
	case LIGHT_BW_NO_FLOOR:
		return "no-floor";
	}
	return "?";
}

/* Samples due between two taken every_s apart, not taken. */
static int missing_between(double t0, double t1, double every_s)
{
	double gap = t1 - t0;

	if (every_s <= 0 || gap <= 1.5 * every_s)
		return 0;
	return (int)lround(gap / every_s) - 1;
}

void light_bw_judge(const struct light_sample *s, int n, int k,
		    double floor_GBps, double every_s,
		    struct light_bw_verdict *v)
{
	int first = n > k ? n - k : 0;
	double sum = 0;

	*v = (struct light_bw_verdict){ .state = LIGHT_BW_COLLECTING };
	v->used = n - first;
	for (int i = first; i < n; i++) {
		sum += s[i].GBps;
		if (i == first || s[i].GBps < v->min_GBps)
			v->min_GBps = s[i].GBps;
		if (floor_GBps > 0 && s[i].GBps < floor_GBps)
			v->low++;
		if (i > first)
			v->missing +=
				missing_between(s[i - 1].t, s[i].t, every_s);
	}
	if (v->used > 0) {
		v->mean_GBps = sum / v->used;
		v->span_s = s[n - 1].t - s[first].t;
	}
	if (floor_GBps <= 0)
		v->state = LIGHT_BW_NO_FLOOR;
	else if (k <= 0 || v->used < k)
		v->state = LIGHT_BW_COLLECTING;
	else
		v->state =
			v->mean_GBps < floor_GBps ? LIGHT_BW_LOW : LIGHT_BW_OK;
}

bool light_gpu_speed_alarm(double first_t, double full_t, double now,
			   double window_s)
{
	double since = full_t > first_t ? full_t : first_t;

	return first_t > 0 && now - since >= window_s;
}
