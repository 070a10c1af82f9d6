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

#include "fabric_finding.h"
#include "fabric_model.h"

enum fabric_pc_id {
	FABRIC_PC_SYMBOL_ERRORS,
	FABRIC_PC_LINK_ERROR_RECOVERY,
	FABRIC_PC_LINK_DOWNED,
	FABRIC_PC_RCV_ERRORS,
	FABRIC_PC_RCV_REMOTE_PHYS_ERRORS,
	FABRIC_PC_RCV_SWITCH_RELAY_ERRORS,
	FABRIC_PC_XMIT_DISCARDS,
	FABRIC_PC_XMIT_CONSTRAINT_ERRORS,
	FABRIC_PC_RCV_CONSTRAINT_ERRORS,
	FABRIC_PC_LOCAL_LINK_INTEGRITY_ERRORS,
	FABRIC_PC_BUFFER_OVERRUN_ERRORS,
	FABRIC_PC_VL15_DROPPED,
	FABRIC_PC_XMIT_WAIT,
	FABRIC_PC_ERRORS_END,		/* error counters end here */
	FABRIC_PC_XMIT_DATA = FABRIC_PC_ERRORS_END,
	FABRIC_PC_RCV_DATA,
	FABRIC_PC_XMIT_PKTS,
	FABRIC_PC_RCV_PKTS,
	FABRIC_PC_COUNT
};

struct fabric_pc_def {
	const char *name;	/* IBTA / error_thresholds name */
	const char *category;	/* finding category */
	const char *severity;
	const char *action;
	int bits;		/* width in PortCounters */
	uint64_t threshold;	/* default: a delta above it is a finding */
};

extern const struct fabric_pc_def fabric_pc_defs[FABRIC_PC_COUNT];

struct fabric_pc {
	uint64_t v[FABRIC_PC_COUNT];
	bool ext;		/* data/pkts are 64-bit PortCountersExtended */
};

struct fabric_thresholds {
	uint64_t v[FABRIC_PC_COUNT];
};

/* Counters of one port: what was read, and the delta judged. */
struct fabric_port_counters {
	bool valid, has_base;
	struct fabric_pc cur, base, delta;
	bool saturated[FABRIC_PC_COUNT];
};

void fabric_thresholds_default(struct fabric_thresholds *t);
/* ibqueryerrors' error_thresholds format: Name=value, # comments. */
int fabric_thresholds_parse(const char *path, const char *text,
			    struct fabric_thresholds *t, char *err,
			    size_t errlen);
int fabric_pc_index(const char *name);
uint64_t fabric_pc_max(int id, bool ext);
/* Fills delta and saturated from cur (and base when has_base). */
void fabric_pc_compute(struct fabric_port_counters *pc);
/* One finding per cable and error category; pcs is indexed by port id. */
int fabric_counters_check(const struct fabric *m,
			  const struct fabric_port_counters *pcs,
			  const struct fabric_thresholds *t,
			  struct fabric_findings *out);

#endif
