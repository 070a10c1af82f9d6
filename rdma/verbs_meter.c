// SPDX-License-Identifier: MIT
/* Per-window bandwidth of a run; see verbs_meter.h. No ibv_* calls. */
#include <errno.h>
#include <stdlib.h>

#include "rdma/verbs_meter.h"

int dpath_meter_init(struct dpath_meter *m, int64_t start_ns, int64_t end_ns,
		     int64_t window_ns)
{
	if (end_ns <= start_ns || window_ns <= 0)
		return -EINVAL;
	m->start_ns = start_ns;
	m->end_ns = end_ns;
	m->window_ns = window_ns;
	m->last_ns = start_ns;
	m->n_windows = (int)((end_ns - start_ns + window_ns - 1) / window_ns);
	m->bytes = 0;
	m->window_bytes = calloc((size_t)m->n_windows, sizeof(double));
	return m->window_bytes ? 0 : -ENOMEM;
}

void dpath_meter_add(struct dpath_meter *m, int64_t now_ns, uint64_t bytes)
{
	int64_t from = m->last_ns, to = now_ns;
	double rate;

	if (to <= from) {
		/*
		 * Same instant as the previous completion: no time to spread;
		 * it belongs to the window that ends at or after it.
		 */
		if (to > m->start_ns && to <= m->end_ns) {
			int w = (int)((to - 1 - m->start_ns) / m->window_ns);

			m->window_bytes[w] += (double)bytes;
			m->bytes += (double)bytes;
		}
		return;
	}
	m->last_ns = now_ns;
	rate = (double)bytes / (double)(to - from);
	if (from < m->start_ns)
		from = m->start_ns;
	if (to > m->end_ns)
		to = m->end_ns;
	while (from < to) {
		int w = (int)((from - m->start_ns) / m->window_ns);
		int64_t wend = m->start_ns + (int64_t)(w + 1) * m->window_ns;
		int64_t seg = (wend < to ? wend : to) - from;

		m->window_bytes[w] += rate * (double)seg;
		m->bytes += rate * (double)seg;
		from += seg;
	}
}

void dpath_meter_result(const struct dpath_meter *m, int64_t stop_ns,
			double *seconds, double *gbps, double *gbps_min)
{
	int64_t stop = stop_ns < m->end_ns ? stop_ns : m->end_ns;
	int complete;
	double min = -1;

	if (stop < m->start_ns)
		stop = m->start_ns;
	*seconds = (double)(stop - m->start_ns) / 1e9;
	*gbps = *seconds > 0 ? m->bytes * 8 / *seconds / 1e9 : 0;
	complete = (int)((stop - m->start_ns) / m->window_ns);
	for (int w = 0; w < complete; w++) {
		double g = m->window_bytes[w] * 8 / (double)m->window_ns;

		if (min < 0 || g < min)
			min = g;
	}
	*gbps_min = min < 0 ? *gbps : min;
}

void dpath_meter_free(struct dpath_meter *m)
{
	free(m->window_bytes);
	m->window_bytes = NULL;
}
