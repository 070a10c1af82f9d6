/* SPDX-License-Identifier: MIT */
#ifndef IBPROOF_NODE_NODE_H
#define IBPROOF_NODE_NODE_H

/*
 * ibproof node: may a node that came back from repair go back into service?
 *   sysfs (root given) -> node_port[] -> node_judge_ports() -> findings
 *   + pcie_run() + error counters + burnin's node: schedule (--against)
 *   -> node_verdict_line() first, then the detail.
 * The judge and the verdict never touch a device (unit-tested).
 */
#include <stdbool.h>
#include <stdint.h>

#include <jansson.h>

#include "common/ibrate.h"

#define NODE_NAME_LEN 64
#define NODE_XCVR_TIMEOUT_S 5.0 /* one module read, unless --timeout */

struct xcvr_ethtool_ops;
#define NODE_TEXT_LEN 64

struct node_port {
	char ca[NODE_NAME_LEN];
	int port;
	int state; /* enum ib_port_state (common/ibport.h) */
	int phys_state; /* enum ib_phys_state */
	int lanes; /* from rate: "(4X HDR)"; 0 unknown */
	enum ib_speed speed;
	double nominal_gbps; /* the figure of sysfs rate */
	double rate_gbps; /* data rate: lanes x lane rate; RoCE: netdev */
	char link_layer[16]; /* InfiniBand | Ethernet */
	int lid;
	uint64_t guid; /* port GUID (GID 0), RoCE: node GUID */
	uint64_t node_guid;
	char fw_ver[NODE_TEXT_LEN];
	char board_id[NODE_TEXT_LEN];
	char hca_type[NODE_TEXT_LEN];
	char driver[NODE_TEXT_LEN];
	char netdev[NODE_TEXT_LEN];
	int rail; /* index among this host's ports */
};

/* ---- node_ports.c: sysfs -> ports, and their records ---- */

/*
 * Every port of ROOT/class/infiniband (ca_filter: one CA, or NULL), sorted
 * by CA and port. 0 (n may be 0), -ENOENT when there is no class/infiniband,
 * -ENOMEM.
 */
int node_ports_scan(const char *root, const char *ca_filter,
		    struct node_port **ports, int *n);
/* Parses "200 Gb/sec (4X HDR)" into p's nominal_gbps, lanes and speed. */
void node_parse_rate(const char *text, struct node_port *p);
/* The `port` record of p (contract in docs/records.md). */
json_t *node_port_record(const struct node_port *p);
/*
 * node_xcvr.c: the `transceiver` record of p's module. An Ethernet/RoCE
 * port's module is read through ops (the kernel's module EEPROM API),
 * bounded by timeout_s, and its fail and warn findings (transceiver-alarm,
 * -warning, -rx-power-low) appended to findings (NULL: not judged); ops
 * NULL: the ports are not this host's (a --sysfs-root fixture), said in
 * the record. An InfiniBand port's module is not readable from the host:
 * the record says where to read it. A module the kernel can be asked for
 * (its driver has module EEPROM ops) is in node's scope: one it did not
 * return (an error, the timeout) is a `not-tested` finding, never a
 * silent pass. scope (NULL: not counted) counts them.
 */
struct node_module_scope {
	int in_scope, tested;
};
json_t *node_xcvr_record(const struct node_port *p,
			 const struct xcvr_ethtool_ops *ops, double timeout_s,
			 json_t *findings, struct node_module_scope *scope);
/* A port reference of p on this host. */
json_t *node_port_ref(const char *host, const struct node_port *p);
/*
 * The `port` records of FILE (a previous `ibproof node --records`): the
 * reference inventory. Records of other kinds are skipped. 0, -EINVAL
 * (message printed: FILE:LINE: ...), -errno.
 */
int node_ports_load(const char *path, struct node_port **ports, int *n);

/* ---- node_judge.c: pure judgement of the ports ---- */

struct node_expect {
	const struct node_port *ref; /* --reference-inventory, or NULL */
	int n_ref;
	int min_ports; /* --expect-ports, 0: none */
	double min_rate_gbps; /* --expect-rate, 0: none */
};

/*
 * Appends finding records to findings: port-missing, port-down,
 * degraded-width, degraded-speed, firmware-mismatch. Each carries
 * evidence.short, the few words of the verdict line. Returns the number of
 * fail findings.
 */
int node_judge_ports(const char *host, const struct node_port *ports, int n,
		     const struct node_expect *ex, json_t *findings);
/* Usable: ACTIVE and (LinkUp or phys_state unknown). */
bool node_port_usable(const struct node_port *p);

/* ---- node_verdict.c ---- */

/*
 * "node gpu017: PASS" or "node gpu017: FAIL — mlx5_3 port 1 at 2x width;
 * PCIe 0000:c1:00.0 at Gen1": the short text of every fail finding (its
 * evidence.short, else its message), in order, duplicates once. Caller
 * frees. NULL + errno.
 */
char *node_verdict_line(const char *host, const json_t *findings);
/* Short text of a finding of another part (pcie, burnin) for the verdict. */
const char *node_finding_short(const json_t *finding, char *buf, size_t len);
/* Count findings of a severity. */
int node_count_severity(const json_t *findings, const char *severity);
/* not-tested findings: a part of the node's scope not read (INCOMPLETE). */
int node_count_not_tested(const json_t *findings);

/* ---- node_counters.c: error counters before and after ---- */

struct node_counters; /* snapshot of every port's counters */

struct node_counters *node_counters_take(const char *root,
					 const struct node_port *ports, int n);
void node_counters_free(struct node_counters *c);
/* True for a counter whose increase is an error (names in docs/node.md). */
bool node_counter_is_error(const char *name);
/*
 * Compares after with before (same ports) and appends a counter-errors
 * finding (fail, reseat) per port whose error counters went up; during
 * names the phase ("the DMA loopback"). Returns the number added.
 */
int node_counters_judge(const char *host, const struct node_port *ports, int n,
			const struct node_counters *before,
			const struct node_counters *after, const char *during,
			json_t *findings);
/* `counters` records of a snapshot (written for the records file). */
json_t *node_counters_records(const char *host, const struct node_port *ports,
			      int n, const struct node_counters *c);

#endif
