/* SPDX-License-Identifier: MIT */
/* fabric_diff_priv.h: state shared by fabric_diff.c and its rules. */
#ifndef IBPROOF_FABRIC_DIFF_PRIV_H
#define IBPROOF_FABRIC_DIFF_PRIV_H

#include <stdbool.h>

#include "common/strtab.h"
#include "fabric_diff.h"

enum diff_end_res { END_ABSENT, END_FOUND, END_AMBIGUOUS };

struct diff_ctx {
	const struct fabric *m;
	const struct fabric_spec *s;
	struct fabric_findings *out;
	struct strtab names; /* name -> node idx + 1, -1 ambiguous */
	struct strtab reported; /* one finding per name / node */
	struct fabric_port **end; /* 2 per cable: a = 2i, z = 2i + 1 */
	unsigned char *res; /* 2 per cable, enum diff_end_res */
	bool *node_ambig; /* per node */
	int *exp; /* per port id: cable end, -1 = none */
	bool *cable_done, *port_done;
};

int diff_rules(struct diff_ctx *c);
int fabric_check_rate(struct fabric_findings *out, const struct fabric_port *a,
		      int want_w, int want_s, int line);

#endif
