/* SPDX-License-Identifier: MIT */
/*
 * fabric_model.h: the plain C model of a discovered (or loaded) fabric.
 * Nodes own their ports; a link is a pair of ports pointing at each other.
 * No library types leak in here: ibnd_ops.c and fabric_topo.c fill it.
 */
#ifndef IBPROOF_FABRIC_MODEL_H
#define IBPROOF_FABRIC_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/hashmap.h"
#include "common/ibport.h"
#include "common/ibrate.h"

enum fabric_node_type {
	FABRIC_NODE_UNKNOWN = 0,
	FABRIC_NODE_CA = 1,
	FABRIC_NODE_SWITCH = 2,
	FABRIC_NODE_ROUTER = 3,
};

/*
 * Speeds are enum ib_speed (common/ibrate.h, ordered by rate), widths are
 * lane counts (1, 2, 4, 8, 12); 0 = unknown or not up.
 */
/* Port states and physical states: enum ib_port_state, ib_phys_state. */

struct fabric_node;

struct fabric_port {
	struct fabric_node *node;
	struct fabric_port *remote; /* NULL: nothing discovered beyond */
	uint64_t guid;
	int num;
	int id; /* index over all ports of the model */
	bool valid; /* PortInfo was read */
	uint16_t lid;
	uint8_t state, phys_state;
	uint8_t width, speed; /* active: lanes, enum ib_speed */
	uint16_t width_enabled; /* mask of 1 << lanes */
	uint16_t speed_enabled; /* mask of 1 << enum ib_speed */
	/* a walk reached it (it is linked) but its PortInfo never answered:
	 * its state, width, speed and LID are unknown */
	bool info_unread;
};

struct fabric_node {
	uint64_t guid;
	enum fabric_node_type type;
	char desc[64 * 4 + 1]; /* NodeDescription as text (common/text.h) */
	const char *name; /* map name if mapped, else desc */
	char *map_name;
	bool guid_unknown; /* guid not the node's: a port's or made up */
	uint16_t
		device_id; /* NodeInfo DeviceID (0xd2f2 Quantum-2); 0 unknown */
	int nports;
	int idx;
	uint16_t lid; /* switch port 0 / first CA port */
	struct fabric_port *ports; /* [0..nports] */
	/* live walk: the directed route from the local port, dr_path[1..
	 * dr_hops] the egress ports (dr_path[0] = 0); dr_hops -1: unknown */
	int dr_hops;
	uint8_t dr_path[64];
};

struct fabric {
	struct fabric_node **nodes;
	size_t nnodes, cap;
	size_t nports_total;
	struct hashmap by_guid; /* guid -> index in nodes */
	char source[32]; /* "live", "cache", "topology" */
};

struct fabric *fabric_new(void);
void fabric_free(struct fabric *f);
struct fabric_node *fabric_add_node(struct fabric *f, uint64_t guid,
				    enum fabric_node_type type,
				    const char *desc, int nports);
struct fabric_node *fabric_find_guid(const struct fabric *f, uint64_t guid);
int fabric_connect(struct fabric_port *a, struct fabric_port *b);
struct fabric_port *fabric_port(const struct fabric_node *n, int num);
size_t fabric_count_links(const struct fabric *f);
bool fabric_port_up(const struct fabric_port *p);

const char *fabric_node_type_name(int type);
int fabric_best_of_mask(uint16_t mask);
const char *fabric_width_str(int lanes);

#endif
