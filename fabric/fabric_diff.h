/* SPDX-License-Identifier: MIT */
/*
 * fabric_diff.h: compare a fabric model with the expected cabling.
 *
 * cabling_diff() is pure: it reads the model and the spec and appends
 * findings (missing-link, unexpected-link, miswired, wrong-port, swapped,
 * node-replaced, port-disabled, degraded-width, degraded-speed,
 * unreachable, ambiguous-name, link-not-active). Each physical fault is
 * reported once.
 */
#ifndef IBPROOF_FABRIC_DIFF_H
#define IBPROOF_FABRIC_DIFF_H

#include "fabric/fabric_finding.h"
#include "fabric/fabric_model.h"
#include "fabric/fabric_spec.h"

int cabling_diff(const struct fabric *m, const struct fabric_spec *s,
		 struct fabric_findings *out);

/* Without a spec: ports that are up but lead to nodes that did not answer,
 * links below the best width/speed both ends have enabled, and links the
 * SM never activated. */
int fabric_model_check(const struct fabric *m, struct fabric_findings *out);

/*
 * fabric_active.c: `link-not-active` (action check-sm) for each link whose
 * ends are both LinkUp and one of them INIT or ARMED; when no port of the
 * fabric is ACTIVE, one finding for the whole fabric instead. Run by both
 * checks above.
 */
int fabric_check_active(const struct fabric *m, struct fabric_findings *out);

#endif
