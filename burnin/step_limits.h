/* SPDX-License-Identifier: MIT */
/*
 * step_limits.h: a port's error counter rise in one burn-in step, judged
 * by the counter limits of `fabric counters` (fabric/fabric_limits.h,
 * docs/judging.md): bit errors per bit the port received in the step
 * (at least the link's rate x the step's measured seconds), events per
 * step as per window. Pure.
 */
#ifndef IBPROOF_BURNIN_STEP_LIMITS_H
#define IBPROOF_BURNIN_STEP_LIMITS_H

#include <stdbool.h>

#include "burnin/rank.h"

/*
 * Whether c's rise in the step r reports breaks its limit with severity
 * fail (a cable finding); port: the inventory port it was read on.
 */
bool burnin_step_rise_fails(const struct dpath_port *port,
			    const struct wire_result *r,
			    const struct wire_counter *c);

#endif
