/* SPDX-License-Identifier: MIT */
#ifndef IBPROOF_JUDGE_CABLEFIND_H
#define IBPROOF_JUDGE_CABLEFIND_H

/*
 * The findings of judge_cables()'s groups (issue 31, docs/judging.md
 * "Judging by route"): burnin's rank 0 and `ibproof report` both make
 * their cable findings here from the one judge's result, so that on the
 * same records they say the same. Each entry point only names the parts
 * (judge_cable_namer): the cables' ends and the ports, from the routes or
 * from the records.
 *
 * - A cable blamed alone: `bad-cable` (replace-cable).
 * - One cable and the HCA port behind it: `cable-or-port` (locate).
 * - Several cables the pairs cannot tell apart (and the port, when it
 *   is one of the candidates): `ambiguous-cables` (locate).
 * A locate finding names every candidate (evidence.candidates) and the
 * retest that separates them (evidence.retest, a pair whose path crosses
 * some of them and not the others; null when no known path does).
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "judge/cablejudge.h"

struct judge_cable_namer {
	void *arg;
	/* cable c's id, "0xNODEGUID:PORT" of its egress port */
	void (*cable_id)(void *arg, uint32_t c, char *buf, size_t len);
	/* a switch port reference ({node, guid, port}) of its egress end
	 * (from) or far end; NULL when unknown (the egress end: the
	 * cable cannot be named, and its finding is left out) */
	json_t *(*cable_end)(void *arg, uint32_t c, bool from);
	/* port p's reference ({host, ca, port, guid}) */
	json_t *(*port_ref)(void *arg, uint32_t p);
};

/*
 * Appends to out the finding of each group of cr (judge_cables()), in
 * cr's order (by their first cable's id). 0 or -ENOMEM.
 */
int judge_cable_findings(const struct judge_cable_result *cr,
			 const struct judge_cable_namer *nm, json_t *out);

#endif
