/* SPDX-License-Identifier: MIT */
/*
 * xcvr_judge.h: a module at a port -> findings and its `transceiver`
 * record. Pure: the figures come from xcvr_decode.c or xcvr_files.c.
 */
#ifndef IBPROOF_FABRIC_XCVR_JUDGE_H
#define IBPROOF_FABRIC_XCVR_JUDGE_H

#include <stdbool.h>

#include <jansson.h>

#include "fabric/fabric_finding.h"
#include "fabric/xcvr.h"

/* Margins of "near its own threshold" (a transceiver-warning). */
#define XCVR_NEAR_DB 1.0
#define XCVR_NEAR_DEGC 5.0

/* The module of one port. */
struct xcvr_port {
	struct fabric_ref ref; /* the port it sits in */
	int link_up; /* 1 up, 0 down, -1 unknown */
	unsigned lanes; /* module lanes the port uses (bit 0: lane 1); 0 all */
	struct xcvr_info info;
};

/* The most logical ports one module serves (a cage of 1:2 splits). */
#define XCVR_MAX_SERVED 4

struct xcvr_judge_params {
	const char *approved_vendors; /* "Mellanox,NVIDIA", NULL: any */
};

/*
 * Findings of one module: transceiver-alarm, transceiver-warning,
 * transceiver-rx-power-low, transceiver-unreadable, transceiver-unapproved
 * (docs/fabric.md). 0 or -ENOMEM.
 */
int xcvr_judge(const struct xcvr_port *p, const struct xcvr_judge_params *jp,
	       struct fabric_findings *fs);
/*
 * The same for one module that serves the ports p[0..n) (n <=
 * XCVR_MAX_SERVED; a twin-port or split cage): every port's own lanes are
 * judged against its own link state, so the dark lanes of a sibling that
 * is down or unused are not a fault; each finding is made once, on p[0],
 * and names the other ports in evidence `collateral` (replacing the module
 * takes them down too).
 */
int xcvr_judge_module(const struct xcvr_port *p, int n,
		      const struct xcvr_judge_params *jp,
		      struct fabric_findings *fs);
/* Is vendor in the comma-separated list (case-insensitive, trimmed)? */
bool xcvr_vendor_approved(const char *list, const char *vendor);
/* "replace-cable" for a DAC/AOC, else "replace-optic". */
const char *xcvr_replace_action(const struct xcvr_info *x);
/* The `transceiver` record (docs/records.md). NULL on ENOMEM. */
json_t *xcvr_record(const struct xcvr_port *p);

#endif
