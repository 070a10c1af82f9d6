/* SPDX-License-Identifier: MIT */
/*
 * ibcage.h: which logical InfiniBand ports share one cage (one pluggable
 * module) on a switch, and which of the module's lanes each uses. One
 * table (ibcage.c) says it for the switch models we know, by NodeInfo
 * device ID and port count; the cabling spec, the transceiver judge and
 * the report all read it. See docs/fabric.md "XDR, cages and split ports"
 * for the sources and how sure each row is.
 */
#ifndef IBPROOF_COMMON_IBCAGE_H
#define IBPROOF_COMMON_IBCAGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define IB_CAGE_DEVID_QUANTUM2 0xd2f2 /* NodeInfo DeviceID of Quantum-2 */

struct ib_cage_model {
	uint16_t device_id; /* NodeInfo DeviceID */
	int nports; /* NumPorts as discovered: selects the mode */
	int per_cage; /* logical ports per cage: 2 twin-port, 4 split */
	int data_ports; /* ports 1..data_ports sit in cages; above: none */
	const char *name; /* "Quantum-2 (QM97xx) twin-port OSFP" */
};

/* Where a logical port sits. */
struct ib_cage_pos {
	int cage; /* 1-based; 0: not in a cage this table knows */
	int slot; /* 0-based position among the cage's ports */
	int port; /* the switch OS's port in the cage: 1 or 2 */
	int split; /* 0 unsplit, 1 or 2: the half of a split port */
};

/* The model of a switch, or NULL when the table does not know it (then
 * each port is its own module: the caller judges all of its lanes). */
const struct ib_cage_model *ib_cage_model_of(uint16_t device_id, int nports);

/* Where port sits under model m; pos->cage 0 when outside the cages. */
void ib_cage_position(const struct ib_cage_model *m, int port,
		      struct ib_cage_pos *pos);

/* The first logical port of the cage port sits in (its module's first). */
int ib_cage_first_port(const struct ib_cage_model *m, int port);

/*
 * The module lanes (bit 0 = lane 1) port uses when its cage's module has
 * module_lanes lanes: the lanes split evenly over the cage's ports in
 * order (twin-port OSFP: port 1 lanes 1-4, port 2 lanes 5-8). 0: all.
 */
unsigned ib_cage_lane_mask(const struct ib_cage_model *m, int port,
			   int module_lanes);

/* The port's name as operators write it: "17/1" (cage/port), or as
 * MLNX-OS names a split half, "1/17/1/2" (ASIC/cage/port/split); ""
 * outside the cages. buf of 32 bytes. */
const char *ib_cage_label(const struct ib_cage_model *m, int port,
			  char buf[32]);

/*
 * A port as a spec may write it, to its IB port number: "33", "17/1"
 * (cage/port of a twin-port cage), "1/17/1" (MLNX-OS ASIC/cage/port), or
 * "1/17/1/2" (ASIC/cage/port/split: a Quantum-2 in the split-ready
 * profile, whose IB ports number 4 per cage). -EINVAL otherwise.
 */
int ib_cage_port_parse(const char *s);

#endif
