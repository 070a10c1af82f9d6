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
};

struct fabric_thresholds {
	uint64_t v[IB_PC_COUNT];
};

/* Counters of one port: what was read, and the delta judged. */
struct fabric_port_counters {
	bool valid, has_base;
	struct fabric_pc cur, base, delta;
	bool saturated[IB_PC_COUNT];
};

void fabric_thresholds_default(struct fabric_thresholds *t);
/* ibqueryerrors' error_thresholds format: Name=value, # comments. */
int fabric_thresholds_parse(const char *path, const char *text,
			    struct fabric_thresholds *t, char *err,
			    size_t errlen);
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
/* One finding per cable and error category; pcs is indexed by port id. */
int fabric_counters_check(const struct fabric *m,
			  const struct fabric_port_counters *pcs,
			  const struct fabric_thresholds *t,
			  struct fabric_findings *out);

#endif
