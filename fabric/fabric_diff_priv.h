/* SPDX-License-Identifier: MIT */
/* fabric_diff_priv.h: state shared by fabric_diff.c and its rules. */
#ifndef IBPROOF_FABRIC_DIFF_PRIV_H
#define IBPROOF_FABRIC_DIFF_PRIV_H

#include <stdbool.h>

#include "common/strtab.h"
#include "fabric/fabric_diff.h"

/* Links by class (pair of tiers: CA 0, leaf 1, spine 2, core 3; the last
 * tier holds switches no CA reaches), and what each class runs at. */
#define FABRIC_CLASS_TIERS 5
#define FABRIC_CLASS_WIDTHS 13 /* lanes 0..12 */
#define FABRIC_CLASS_SPEEDS (IB_SPEED_XDR + 1)
#define FABRIC_CLASSES (FABRIC_CLASS_TIERS * FABRIC_CLASS_TIERS)

struct fabric_classes {
	int *tier; /* per node idx */
	int links[FABRIC_CLASSES];
	int width[FABRIC_CLASSES][FABRIC_CLASS_WIDTHS];
	int speed[FABRIC_CLASSES][FABRIC_CLASS_SPEEDS];
};

int fabric_classes_build(struct fabric_classes *k, const struct fabric *m);
void fabric_classes_free(struct fabric_classes *k);
/* The width (lanes) or speed that 3/4 of a's class run at, 0 if none. */
int fabric_class_want(const struct fabric_classes *k,
		      const struct fabric_port *a, bool width);
/* "CA-leaf", "leaf-spine", "spine-core", ... */
const char *fabric_class_name(const struct fabric_classes *k,
			      const struct fabric_port *a, char *buf,
			      size_t len);

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
	struct fabric_classes classes;
};

int diff_rules(struct diff_ctx *c);
int fabric_check_rate(struct diff_ctx *c, const struct fabric_port *a,
		      int want_w, int want_s, int line);

#endif
