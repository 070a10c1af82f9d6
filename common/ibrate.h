/* SPDX-License-Identifier: MIT */
#ifndef IBPROOF_COMMON_IBRATE_H
#define IBPROOF_COMMON_IBRATE_H

#include <stdbool.h>
#include <stddef.h>

/*
 * InfiniBand link speeds and widths (see shared ib-facts.md). Data rates are
 * in Gb/s (10^9 bits per second) after encoding; never GB/s.
 */
enum ib_speed {
	IB_SPEED_UNKNOWN = 0,
	IB_SPEED_SDR,
	IB_SPEED_DDR,
	IB_SPEED_QDR,
	IB_SPEED_FDR10,
	IB_SPEED_FDR,
	IB_SPEED_EDR,
	IB_SPEED_HDR,
	IB_SPEED_NDR,
	IB_SPEED_XDR,
};

/* "SDR" ... "XDR", or "unknown". */
const char *ib_speed_name(enum ib_speed speed);
/* Case-insensitive name to speed; IB_SPEED_UNKNOWN if not a name. */
enum ib_speed ib_speed_from_name(const char *name);
/* Data rate of one lane in Gb/s (QDR: 8, FDR: 13.636..., EDR: 25,
 * NDR: 100, XDR: 200). */
double ib_speed_lane_gbps(enum ib_speed speed);
/* Signalling rate of one lane in Gb/s (NDR: 106.25, XDR: 212.5). */
double ib_speed_signal_gbps(enum ib_speed speed);
/* Line encoding of the speed ("8b/10b", "64b/66b", "256b/257b+FEC"). */
const char *ib_speed_encoding(enum ib_speed speed);
/* verbs ibv_port_attr.active_speed (1, 2, 4, 8, 16, 32, 64, 128); XDR has
 * no code there (only active_speed_ex): IB_SPEED_UNKNOWN. */
enum ib_speed ib_speed_from_verbs(int active_speed);
/*
 * MAD PortInfo: LinkSpeedActive (1 SDR, 2 DDR, 4 QDR), the extended
 * speeds as rdma-core aggregates them (ibnd_get_agg_linkspeedext:
 * LinkSpeedExtActive 1 FDR, 2 EDR, 4 HDR, 8 NDR, or LinkSpeedExtActive2
 * shifted by 4: 16 XDR; 0 = none; fabric/fabric_portinfo.c reads both)
 * and the FDR10 bit of MLNX ExtendedPortInfo.LinkSpeedActive (0 = none).
 */
enum ib_speed ib_speed_from_mad(int speed_active, int ext_active, int fdr10);

/* Lanes of a verbs/MAD width code (1: 1x, 2: 4x, 4: 8x, 8: 12x, 16: 2x). */
int ib_width_lanes_from_code(int code);
/* The code of a lane count (the inverse), 0 if none. */
int ib_width_code_from_lanes(int lanes);
/* "4x" for 4 lanes; buf of 8 bytes. */
const char *ib_width_name(int lanes, char buf[8]);
/* "4x" or "4X" to 4; 0 if not a width. */
int ib_width_from_name(const char *name);

/*
 * The kernel's sysfs rate string, "800 Gb/sec (4X XDR)": *nominal the
 * figure (for QDR and older the signalling rate), *lanes and *speed from
 * the parenthesis. 0; -EINVAL when the parenthesis is missing or unknown
 * (*lanes 0, *speed IB_SPEED_UNKNOWN, *nominal still the figure or 0).
 */
int ib_rate_parse_sysfs(const char *text, double *nominal, int *lanes,
			enum ib_speed *speed);

/* Data rate of a link in Gb/s: lanes x lane rate. 0 when unknown. */
double ib_data_rate_gbps(enum ib_speed speed, int lanes);

/*
 * The rate a group of ports (or links) should run at: the plurality rule
 * of `burnin`'s link-rate check and `fabric check`'s classes. The rate
 * most of them run at (the higher on a tie) holds when at least 2 and at
 * least 3/4 of them run at it; one slower is trained down. A mixed
 * cluster's node types split more evenly and so hold no quorum.
 */
#define IB_RATE_EPS 0.01 /* Gb/s: rates closer than this are one */

static inline bool ib_quorum(size_t count, size_t n)
{
	return count >= 2 && 4 * count >= 3 * n;
}

/* The two rates most of a group run at: [0] the most, [1] the next. */
struct ib_rate_top {
	double rate[2];
	size_t count[2]; /* 0: no such rate */
	size_t n; /* rates counted */
};

/* Sorts rates[0..n) and finds the top two. O(n log n). */
void ib_rate_top(double *rates, size_t n, struct ib_rate_top *top);
/*
 * The rate most of the group run at with one member at rate r left out
 * (a port among its peers): *rate and the count (0: none). O(1), so every
 * member of a group is judged against its peers in one pass.
 */
size_t ib_rate_top_without(const struct ib_rate_top *top, double r,
			   double *rate);
/* The rate most of rates[0..n) run at when it holds the quorum (*count of
 * them), else 0. Sorts rates. O(n log n). */
double ib_rate_plurality(double *rates, size_t n, size_t *count);

/* Gb/s to GB/s (10^9 bytes per second). */
static inline double gbps_to_GBps(double gbps)
{
	return gbps / 8.0;
}

#endif
