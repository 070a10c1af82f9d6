/* SPDX-License-Identifier: MIT */
#ifndef IBPROOF_COMMON_IBPORT_H
#define IBPROOF_COMMON_IBPORT_H

#include <stdbool.h>
#include <stdint.h>

/*
 * InfiniBand port states, physical states and PMA PortCounters: the one
 * table of their names (as docs/records.md spells them) and widths. Every
 * part that reads or writes a port's state or its error counters (rdma,
 * fabric, burnin, node, reports) goes through it.
 */

/* PortInfo PortState: sysfs "4: ACTIVE", MAD 4, verbs IBV_PORT_ACTIVE. */
enum ib_port_state {
	IB_PORT_STATE_UNKNOWN = 0, /* also MAD NoChange */
	IB_PORT_STATE_DOWN = 1,
	IB_PORT_STATE_INIT = 2,
	IB_PORT_STATE_ARMED = 3,
	IB_PORT_STATE_ACTIVE = 4,
	IB_PORT_STATE_ACTIVE_DEFER = 5,
};

/* PortInfo PortPhysicalState: sysfs "5: LinkUp". */
enum ib_phys_state {
	IB_PHYS_STATE_UNKNOWN = 0, /* also MAD NoChange */
	IB_PHYS_STATE_SLEEP = 1,
	IB_PHYS_STATE_POLLING = 2,
	IB_PHYS_STATE_DISABLED = 3,
	IB_PHYS_STATE_TRAINING = 4,
	IB_PHYS_STATE_LINKUP = 5,
	IB_PHYS_STATE_LINK_ERROR_RECOVERY = 6,
	IB_PHYS_STATE_PHY_TEST = 7,
};

/* "DOWN", "INIT", "ARMED", "ACTIVE", "ACTIVE_DEFER"; "unknown" otherwise. */
const char *ib_port_state_name(int state);
/*
 * The state a record names, 0 if none. Takes the documented spelling and,
 * exactly, the one older fabric link records on disk use ("Active").
 */
int ib_port_state_from_name(const char *name);
/*
 * The number a sysfs state or phys_state file starts with: "4: ACTIVE" -> 4,
 * "5: LinkUp" -> 5; 0 (unknown) when the text does not start with one.
 */
int ib_state_from_sysfs(const char *text);
/* "Sleep", "Polling", ..., "LinkUp", ..., "PhyTest"; "unknown" otherwise. */
const char *ib_phys_state_name(int phys);
/* The physical state a record names, 0 if none. */
int ib_phys_state_from_name(const char *name);

/* PMA PortCounters (and the data/packet counters), in this order. */
enum ib_pc {
	IB_PC_SYMBOL_ERRORS,
	IB_PC_LINK_ERROR_RECOVERY,
	IB_PC_LINK_DOWNED,
	IB_PC_RCV_ERRORS,
	IB_PC_RCV_REMOTE_PHYS_ERRORS,
	IB_PC_RCV_SWITCH_RELAY_ERRORS,
	IB_PC_XMIT_DISCARDS,
	IB_PC_XMIT_CONSTRAINT_ERRORS,
	IB_PC_RCV_CONSTRAINT_ERRORS,
	IB_PC_LOCAL_LINK_INTEGRITY_ERRORS,
	IB_PC_BUFFER_OVERRUN_ERRORS,
	IB_PC_VL15_DROPPED,
	IB_PC_XMIT_WAIT,
	IB_PC_XMIT_DATA,
	IB_PC_RCV_DATA,
	IB_PC_XMIT_PKTS,
	IB_PC_RCV_PKTS,
	IB_PC_COUNT
};

struct ib_pc_def {
	const char *name; /* IBTA, error_thresholds: SymbolErrorCounter */
	const char *sysfs; /* counters/ file: "symbol_error" */
	int bits; /* width in PortCounters: it saturates there */
	bool error; /* counts errors (XmitWait: congestion) */
};

extern const struct ib_pc_def ib_pc_defs[IB_PC_COUNT];

/* Index of an IBTA counter name, -1 if none. */
int ib_pc_index(const char *name);
/* Index of a sysfs counters/ file name, -1 if none. */
int ib_pc_sysfs_index(const char *sysfs);
/* Whether a sysfs counter name is one of the PMA error counters. */
bool ib_counter_is_error(const char *sysfs);
/* An error counter's width in bits, 0: not an error counter. */
int ib_counter_bits(const char *sysfs);
/* An error counter at its maximum: it counts no more until cleared. */
bool ib_counter_saturated(const char *sysfs, uint64_t value);

#endif
