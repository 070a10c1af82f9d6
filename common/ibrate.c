// SPDX-License-Identifier: MIT
#include <stdio.h>
#include <stdlib.h>
#include <strings.h>

#include "common/ibrate.h"

static const struct {
	const char *name;
	double lane_gbps; /* data rate per lane after encoding */
	int verbs_code; /* ibv_port_attr.active_speed */
} speeds[] = {
	[IB_SPEED_UNKNOWN] = { "unknown", 0, 0 },
	[IB_SPEED_SDR] = { "SDR", 2.0, 1 },
	[IB_SPEED_DDR] = { "DDR", 4.0, 2 },
	[IB_SPEED_QDR] = { "QDR", 8.0, 4 },
	[IB_SPEED_FDR10] = { "FDR10", 10.0, 8 },
	[IB_SPEED_FDR] = { "FDR", 54.5 / 4, 16 },
	[IB_SPEED_EDR] = { "EDR", 25.0, 32 },
	[IB_SPEED_HDR] = { "HDR", 50.0, 64 },
	[IB_SPEED_NDR] = { "NDR", 100.0, 128 },
	[IB_SPEED_XDR] = { "XDR", 200.0, 0 }, /* needs active_speed_ex */
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
	case 16:
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

double ib_data_rate_gbps(enum ib_speed speed, int lanes)
{
	return ib_speed_lane_gbps(speed) * lanes;
}
