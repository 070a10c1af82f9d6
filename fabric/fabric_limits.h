/* SPDX-License-Identifier: MIT */
/*
 * fabric_limits.h: the one table of how a PMA counter's rise is judged
 * (docs/judging.md, "Counter limits"). Error counters of the bit-error kind
 * are judged per bit the port received (a BER bound by link class), events
 * (LinkDowned ...) per window, PortXmitWait as a fraction of the window's
 * ticks (congestion: info or warn, never a cable action). `fabric counters`
 * and burnin's per-step counter rises use it. Pure.
 */
#ifndef IBPROOF_FABRIC_LIMITS_H
#define IBPROOF_FABRIC_LIMITS_H

#include <stdbool.h>
#include <stdint.h>

#include "common/ibport.h"
#include "common/ibrate.h"

enum fabric_limit_kind {
	FABRIC_LIMIT_BER, /* errors per bit received */
	FABRIC_LIMIT_COUNT, /* events in the window (or since the clear) */
	FABRIC_LIMIT_WAIT, /* PortXmitWait: share of the window's ticks */
};

struct fabric_limit {
	const char *category, *severity, *action;
	enum fabric_limit_kind kind;
	uint64_t since_clear; /* count threshold since the last clear */
	uint64_t window; /* count threshold per window */
};

/* Indexed by enum ib_pc; the entries before IB_PC_XMIT_DATA are used. */
extern const struct fabric_limit fabric_limits[IB_PC_COUNT];

/*
 * A rate needs this many errors: with fewer, a high figure over few bits is
 * chance (at 1e10 bits and a 1e-12 bound, 3 errors have a probability of
 * 2e-7 on a link that meets the bound; 1 error has 1e-2).
 */
#define FABRIC_BER_MIN_ERRORS 3
/* XmitWait: "info" from 1% of the window's ticks, "warn" from 10%. */
#define FABRIC_WAIT_INFO 0.01
#define FABRIC_WAIT_WARN 0.10

/*
 * The bit error rate a link of this speed must stay under, and its source
 * (a short citation for messages and records). Speeds with FEC (HDR and
 * faster): the symbol errors left after correction.
 */
double fabric_ber_limit(enum ib_speed speed, const char **source);

/* What a counter rose by, and over what. */
struct fabric_limit_in {
	uint64_t count;
	bool saturated; /* count is a lower bound */
	double data_bits; /* bits received (PortRcvData x 32); < 0: unknown */
	double seconds; /* the window's length; 0: unknown (since a clear) */
	enum ib_speed speed;
	int lanes;
	uint64_t threshold; /* the count threshold in effect */
};

enum fabric_limit_how {
	FABRIC_JUDGED_COUNT, /* a count against threshold */
	FABRIC_JUDGED_BER, /* errors per bit against the BER bound */
	FABRIC_JUDGED_WAIT, /* a share of the window's ticks */
};

struct fabric_limit_out {
	enum fabric_limit_how how;
	const char *severity; /* NULL: within the limit */
	double bits; /* BER: the bits judged */
	double figure; /* BER, or the share of ticks */
	double limit; /* the BER bound, or the share that warns */
	const char *source; /* the BER bound's source */
};

/*
 * Judges one end's rise of counter id. The bits judged are the larger of
 * the data received and the link's signalling over the window (a link
 * sends idles when it has no data, and symbol errors count on them too).
 * Without bits (an unknown data counter and no window), a BER counter is
 * judged by its count.
 */
void fabric_limit_judge(int id, const struct fabric_limit_in *in,
			struct fabric_limit_out *out);

/* The higher of two severities ("fail" > "warn" > "info" > NULL). */
const char *fabric_severity_max(const char *a, const char *b);

#endif
