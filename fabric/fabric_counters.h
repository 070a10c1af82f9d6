/* SPDX-License-Identifier: MIT */
/*
 * fabric_counters.h: PMA port counters as plain data, thresholds, deltas
 * against a baseline and the per-cable check. Pure: mad_ops.c reads the
 * counters, this file judges them.
 */
#ifndef IBPROOF_FABRIC_COUNTERS_H
#define IBPROOF_FABRIC_COUNTERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/ibport.h"
#include "fabric/fabric_finding.h"
#include "fabric/fabric_model.h"

/*
 * Counters are indexed by enum ib_pc (common/ibport.h, with their names and
 * widths); fabric judges the ones before FABRIC_PC_ERRORS_END: the error
 * counters and XmitWait.
 */
#define FABRIC_PC_ERRORS_END (IB_PC_XMIT_WAIT + 1)

struct fabric_pc {
	uint64_t v[IB_PC_COUNT];
	bool ext; /* data/pkts are 64-bit PortCountersExtended */
	bool ext_err; /* error counters too (its additional counters) */
};

struct fabric_thresholds {
	uint64_t v[IB_PC_COUNT];
};

/* Which rise a run judges (docs/fabric.md, "Counters"). */
enum fabric_window_mode {
	FABRIC_WINDOW_TIMED, /* read, wait, read (or reset, wait, read) */
	FABRIC_WINDOW_SINCE_CLEAR, /* the values since the last clear */
	FABRIC_WINDOW_BASELINE, /* against --baseline records */
};

struct fabric_window {
	enum fabric_window_mode mode;
	char start[32], end[32]; /* RFC 3339 UTC; start "" when unknown */
	double seconds; /* the length; 0 when unknown */
};

/* Counters of one port: what was read, and the delta judged. */
struct fabric_port_counters {
	bool valid, has_base;
	struct fabric_pc cur, base, delta;
	bool saturated[IB_PC_COUNT];
};

/* The count thresholds since the last clear (fabric_limits.h) ... */
void fabric_thresholds_default(struct fabric_thresholds *t);
/* ... and per window. */
void fabric_thresholds_default_window(struct fabric_thresholds *t);
/* ibqueryerrors' error_thresholds format: Name=value, # comments. */
int fabric_thresholds_parse(const char *path, const char *text,
			    struct fabric_thresholds *t, char *err,
			    size_t errlen);
/* A counter's maximum: its PortCounters width, or 64-bit when ext. */
uint64_t fabric_pc_max(int id, bool ext);
/* Fills delta and saturated from cur (and base when has_base). */
void fabric_pc_compute(struct fabric_port_counters *pc);
/*
 * The wording of every counter finding: "A - B: Counter 15 since the last
 * clear at A; 0 since the last clear at B; threshold 10" (with a baseline:
 * "rose by 15 during the check (0 at the baseline)"). b may be NULL.
 */
void fabric_counter_message(char *buf, size_t len, int id, const char *a_name,
			    const struct fabric_port_counters *a,
			    const char *b_name,
			    const struct fabric_port_counters *b,
			    uint64_t threshold);
/*
 * One finding per cable and error category; pcs is indexed by port id.
 * Each counter is judged per fabric_limits.h: bit errors per bit received,
 * events per window, XmitWait as a share of the window's ticks. w: the
 * window judged (NULL: since the last clear).
 */
int fabric_counters_check(const struct fabric *m,
			  const struct fabric_port_counters *pcs,
			  const struct fabric_thresholds *t,
			  const struct fabric_window *w,
			  struct fabric_findings *out);
/*
 * The BER of p's SymbolErrorCounter rise in window w, judged as the check
 * judges it (fabric_limits.h): o->how FABRIC_JUDGED_BER with the bits,
 * figure, bound and source; FABRIC_JUDGED_COUNT when no bits are known.
 * For the counters record's window (docs/records.md).
 */
struct fabric_limit_out;
void fabric_port_ber(const struct fabric_port *p,
		     const struct fabric_port_counters *pc,
		     const struct fabric_window *w, struct fabric_limit_out *o);
/* "window", "since-clear" or "baseline" (records' window.mode). */
const char *fabric_window_mode_name(const struct fabric_window *w);

#endif
