/* SPDX-License-Identifier: MIT */
/*
 * fabric_scope.h: what a fabric tool set out to check, and what it could
 * not. Each tool counts the parts of its scope (ports, links, switches,
 * modules ...) as tested or not; every part not tested gets one
 * `not-tested` finding with the reason (no answer, a MAD status and its
 * meaning, ...). The run's end record carries the counts (`scope`), the
 * text groups the gaps by reason, and a run with a gap the operator did
 * not accept (--accept-untested) says INCOMPLETE and exits 1. Pure: no
 * MAD here.
 */
#ifndef IBPROOF_FABRIC_SCOPE_H
#define IBPROOF_FABRIC_SCOPE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include <jansson.h>

#include "fabric/fabric_finding.h"

/* The kinds of part a tool's scope is made of (docs/records.md). */
enum fabric_part {
	FABRIC_PART_PORTS,
	FABRIC_PART_LINKS,
	FABRIC_PART_SWITCHES,
	FABRIC_PART_NODES,
	FABRIC_PART_MODULES,
	FABRIC_PART_CABLES,
	FABRIC_PART_PAIRS,
	FABRIC_PART_TABLES,
	FABRIC_PART_COUNT
};

struct fabric_scope {
	bool used[FABRIC_PART_COUNT]; /* the tool's scope has this kind */
	size_t in_scope[FABRIC_PART_COUNT];
	size_t tested[FABRIC_PART_COUNT];
	size_t accepted[FABRIC_PART_COUNT]; /* not tested, accepted by name */
	/* --accept-untested NAME[,NAME...]: the operator's known gaps (the
	 * names point into the argument) */
	const char **accept;
	size_t naccept, cap;
};

/* "ports", "links", ...: the key in records. */
const char *fabric_part_name(enum fabric_part k);

/*
 * The meaning of a 16-bit MAD status (IBTA 13.4.7): "busy", "redirect",
 * "unsupported class/version", "unsupported method", "unsupported
 * attribute or modifier", "invalid field", "reserved code N", and the
 * class-specific bits 8-15 as "class-specific 0xNN". Several bits at once
 * are joined with ", ". Returns buf.
 */
const char *fabric_mad_status_text(unsigned status, char *buf, size_t len);

/*
 * Splits an --accept-untested value (NAME[,NAME...]) into s->accept;
 * arg stays owned by the caller. 0, or -ENOMEM.
 */
int fabric_scope_accept_arg(struct fabric_scope *s, char *arg);
/* Frees the names' array (a copy made by fabric_scope_init() shares it:
 * free the one the parser filled). */
void fabric_scope_accept_free(struct fabric_scope *s);

/* Declares that the tool's scope has parts of kind k (even 0 of them). */
void fabric_scope_use(struct fabric_scope *s, enum fabric_part k);
/* One part of kind k in scope, read and checked. */
void fabric_scope_tested(struct fabric_scope *s, enum fabric_part k);

/* Why a part was not tested; mad_status only with reason "mad-status". */
struct fabric_gap {
	enum fabric_part part;
	const char *reason; /* "no-answer", "mad-status", "no-lid", ... */
	int mad_status; /* the MAD status, 0 = none */
	const char *what; /* the query: "PortCounters", ... (static) */
	const char *detail; /* a sentence more, or NULL (copied) */
};

/*
 * A part of kind gap->part in scope that was not tested: counts it and
 * adds its `not-tested` finding (warn; action retest for a busy device,
 * check-sm for no LID, else check-access). subject: the port (a node's
 * port 0 for a switch or node). Names matching an --accept-untested entry
 * ("NODE", "NODE:PORT" or the node's 0xGUID[:PORT]) are counted as
 * accepted and the finding says so (severity info). NULL on ENOMEM.
 */
struct fabric_finding *fabric_scope_untested(struct fabric_scope *s,
					     struct fabric_findings *fs,
					     const struct fabric_port *subject,
					     const struct fabric_gap *gap);

/*
 * The scope of a pure check whose rules made the not-tested findings
 * (fabric check, discover): parts of kind k in scope are base (those the
 * check set out with: a spec's cables, the walk's links) plus each
 * not-tested finding of that part for which outside() is true (NULL:
 * every one); --accept-untested is applied to their subjects.
 */
void fabric_scope_from_findings(struct fabric_scope *s,
				struct fabric_findings *fs, enum fabric_part k,
				size_t base,
				bool (*outside)(const struct fabric_finding *));
/* The evidence string key of a finding, "" when absent. */
const char *fabric_finding_ev_str(const struct fabric_finding *f,
				  const char *key);

/* Parts not tested and not accepted, over every kind. */
size_t fabric_scope_gaps(const struct fabric_scope *s);

/*
 * {"ports": {"in_scope": N, "tested": N, "not_tested": N, "accepted": N},
 * ...} for the kinds in use; NULL on ENOMEM.
 */
json_t *fabric_scope_json(const struct fabric_scope *s);

/*
 * The not-tested findings grouped by kind, reason and status, one line
 * each ("  warn not-tested 3 ports, PortCounters: no answer: a, b, c"),
 * then the verdict line "INCOMPLETE: ..." when a gap is left.
 */
void fabric_scope_print(FILE *out, const struct fabric_scope *s,
			const struct fabric_findings *fs);

#endif
