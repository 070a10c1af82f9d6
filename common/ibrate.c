// SPDX-License-Identifier: MIT
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/ibrate.h"

/*
 * Per lane: the signalling rate, the line encoding, and the data rate
 * after it (ib-facts.md). HDR and faster carry 256b/257b transcoding plus
 * RS-FEC (544,514): 106.25 Gb/s of signal carry 100 of data; XDR doubles
 * the lane (212.5 -> 200: the kernel's "800 Gb/sec (4X XDR)").
 */
static const struct {
	const char *name;
	double lane_gbps; /* data rate per lane after encoding */
	double signal_gbps; /* signalling rate per lane */
	const char *encoding;
	int verbs_code; /* ibv_port_attr.active_speed */
} speeds[] = {
	[IB_SPEED_UNKNOWN] = { "unknown", 0, 0, "", 0 },
	[IB_SPEED_SDR] = { "SDR", 2.0, 2.5, "8b/10b", 1 },
	[IB_SPEED_DDR] = { "DDR", 4.0, 5.0, "8b/10b", 2 },
	[IB_SPEED_QDR] = { "QDR", 8.0, 10.0, "8b/10b", 4 },
	[IB_SPEED_FDR10] = { "FDR10", 10.0, 10.3125, "64b/66b", 8 },
	[IB_SPEED_FDR] = { "FDR", 54.5 / 4, 14.0625, "64b/66b", 16 },
	[IB_SPEED_EDR] = { "EDR", 25.0, 25.78125, "64b/66b", 32 },
	[IB_SPEED_HDR] = { "HDR", 50.0, 53.125, "256b/257b+FEC", 64 },
	[IB_SPEED_NDR] = { "NDR", 100.0, 106.25, "256b/257b+FEC", 128 },
	/* verbs: only in active_speed_ex (rdma-core >= 47) */
	[IB_SPEED_XDR] = { "XDR", 200.0, 212.5, "256b/257b+FEC", 0 },
};

#define N_SPEEDS (sizeof(speeds) / sizeof(speeds[0]))

const char *ib_speed_name(enum ib_speed speed)
{
	return (unsigned)speed < N_SPEEDS ? speeds[speed].name : "unknown";
}

enum ib_speed ib_speed_from_name(const char *name)
{
	for (unsigned i = 1; name && i < N_SPEEDS; i++)
		if (!strcasecmp(name, speeds[i].name))
			return i;
	return IB_SPEED_UNKNOWN;
}

double ib_speed_lane_gbps(enum ib_speed speed)
{
	return (unsigned)speed < N_SPEEDS ? speeds[speed].lane_gbps : 0;
}

double ib_speed_signal_gbps(enum ib_speed speed)
{
	return (unsigned)speed < N_SPEEDS ? speeds[speed].signal_gbps : 0;
}

const char *ib_speed_encoding(enum ib_speed speed)
{
	return (unsigned)speed < N_SPEEDS ? speeds[speed].encoding : "";
}

enum ib_speed ib_speed_from_verbs(int active_speed)
{
	for (unsigned i = 1; i < N_SPEEDS; i++)
		if (speeds[i].verbs_code &&
		    speeds[i].verbs_code == active_speed)
			return i;
	return IB_SPEED_UNKNOWN;
}

enum ib_speed ib_speed_from_mad(int speed_active, int ext_active, int fdr10)
{
	switch (ext_active) {
	case 1:
		return IB_SPEED_FDR;
	case 2:
		return IB_SPEED_EDR;
	case 4:
		return IB_SPEED_HDR;
	case 8:
		return IB_SPEED_NDR;
	case 16: /* LinkSpeedExtActive2 1 (XDR) in the aggregate */
		return IB_SPEED_XDR;
	}
	if (fdr10)
		return IB_SPEED_FDR10;
	switch (speed_active) {
	case 1:
		return IB_SPEED_SDR;
	case 2:
		return IB_SPEED_DDR;
	case 4:
		return IB_SPEED_QDR;
	}
	return IB_SPEED_UNKNOWN;
}

static const int width_codes[][2] = {
	{ 1, 1 }, { 2, 4 }, { 4, 8 }, { 8, 12 }, { 16, 2 },
};

int ib_width_lanes_from_code(int code)
{
	for (unsigned i = 0; i < sizeof(width_codes) / sizeof(width_codes[0]);
	     i++)
		if (width_codes[i][0] == code)
			return width_codes[i][1];
	return 0;
}

int ib_width_code_from_lanes(int lanes)
{
	for (unsigned i = 0; i < sizeof(width_codes) / sizeof(width_codes[0]);
	     i++)
		if (width_codes[i][1] == lanes)
			return width_codes[i][0];
	return 0;
}

const char *ib_width_name(int lanes, char buf[8])
{
	snprintf(buf, 8, "%dx", lanes);
	return buf;
}

int ib_width_from_name(const char *name)
{
	char *end;
	long lanes;

	if (!name)
		return 0;
	lanes = strtol(name, &end, 10);
	if (end == name || (*end != 'x' && *end != 'X') || end[1])
		return 0;
	return ib_width_code_from_lanes((int)lanes) ? (int)lanes : 0;
}

int ib_rate_parse_sysfs(const char *text, double *nominal, int *lanes,
			enum ib_speed *speed)
{
	const char *paren = text ? strchr(text, '(') : NULL;
	char width[8] = "", name[16] = "";
	char *end;

	*nominal = 0;
	*lanes = 0;
	*speed = IB_SPEED_UNKNOWN;
	if (!text)
		return -EINVAL;
	*nominal = strtod(text, &end);
	if (end == text || *nominal < 0)
		*nominal = 0;
	if (!paren || sscanf(paren + 1, "%7s %15[A-Za-z0-9]", width, name) != 2)
		return -EINVAL;
	*lanes = ib_width_from_name(width);
	*speed = ib_speed_from_name(name);
	return *lanes && *speed ? 0 : -EINVAL;
}

double ib_data_rate_gbps(enum ib_speed speed, int lanes)
{
	return ib_speed_lane_gbps(speed) * lanes;
}

static int rate_cmp(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;

	return a < b ? -1 : a > b;
}

/* count at rate before count2 at rate2: more ports, then the higher. */
static bool rate_before(size_t count, double rate, size_t count2, double rate2)
{
	return count > count2 || (count == count2 && rate > rate2);
}

static void top_consider(struct ib_rate_top *top, double rate, size_t count)
{
	if (rate_before(count, rate, top->count[0], top->rate[0])) {
		top->rate[1] = top->rate[0];
		top->count[1] = top->count[0];
		top->rate[0] = rate;
		top->count[0] = count;
	} else if (rate_before(count, rate, top->count[1], top->rate[1])) {
		top->rate[1] = rate;
		top->count[1] = count;
	}
}

void ib_rate_top(double *rates, size_t n, struct ib_rate_top *top)
{
	size_t i = 0, j;

	*top = (struct ib_rate_top){ .n = n };
	if (n > 1)
		qsort(rates, n, sizeof(*rates), rate_cmp);
	for (; i < n; i = j) {
		for (j = i + 1; j < n && rates[j] - rates[i] < IB_RATE_EPS; j++)
			;
		top_consider(top, rates[i], j - i);
	}
}

size_t ib_rate_top_without(const struct ib_rate_top *top, double r,
			   double *rate)
{
	size_t left;

	*rate = top->rate[0];
	if (!top->count[0] || fabs(r - top->rate[0]) >= IB_RATE_EPS)
		return top->count[0];
	left = top->count[0] - 1;
	if (top->count[1] &&
	    rate_before(top->count[1], top->rate[1], left, top->rate[0])) {
		*rate = top->rate[1];
		return top->count[1];
	}
	return left;
}

double ib_rate_plurality(double *rates, size_t n, size_t *count)
{
	struct ib_rate_top top;

	ib_rate_top(rates, n, &top);
	*count = top.count[0];
	return ib_quorum(top.count[0], n) ? top.rate[0] : 0;
}
