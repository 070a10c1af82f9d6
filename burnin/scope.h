/* SPDX-License-Identifier: MIT */
#ifndef IBPROOF_BURNIN_SCOPE_H
#define IBPROOF_BURNIN_SCOPE_H

/*
 * burnin's scope (issue 32): the parts it set out to test, how many were
 * tested, and which gaps the operator accepted (--accept-untested). The
 * run end record carries it as `scope` (docs/records.md); a run with a
 * gap not accepted is INCOMPLETE and exits 1 (docs/burnin.md). Pure.
 */
#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

enum burnin_part {
	BURNIN_PART_PORTS, /* ports given pairs by the schedule */
	BURNIN_PART_PAIRS, /* pairs of the rounds and retests */
	BURNIN_PART_CABLES, /* switch-to-switch cables: cover, all-pairs */
	BURNIN_N_PARTS
};

struct burnin_scope_count {
	long in_scope, tested, not_tested;
};

struct burnin_scope {
	struct burnin_scope_count part[BURNIN_N_PARTS];
	bool has[BURNIN_N_PARTS]; /* in this run's scope at all */
};

/* The record's name of part p: "ports", "pairs", "cables". */
const char *burnin_part_name(enum burnin_part p);

/*
 * --accept-untested LIST ("cables", "ports,pairs") into a bit mask of
 * parts. 0; -EINVAL with err naming the word that is no part of burnin's.
 */
int burnin_accept_parse(const char *list, unsigned int *mask, char *err,
			size_t err_len);

/* Some part in scope was not tested, and its gap was not accepted. */
bool burnin_scope_incomplete(const struct burnin_scope *s,
			     unsigned int accepted);

/*
 * "INCOMPLETE: 2 of 16 ports not tested, 3 of 32 cables not tested", or
 * "" when nothing is missing that was not accepted; gaps accepted follow
 * as "(accepted: 3 of 32 cables not tested)".
 */
void burnin_scope_line(const struct burnin_scope *s, unsigned int accepted,
		       char *buf, size_t len);

/* {"ports": {"in_scope", "tested", "not_tested", "accepted"}, ...}. */
json_t *burnin_scope_json(const struct burnin_scope *s, unsigned int accepted);
/* ["cables", ...]: the parts accepted, for the end record. */
json_t *burnin_accept_json(unsigned int accepted);

#endif
