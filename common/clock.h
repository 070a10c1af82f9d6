/* SPDX-License-Identifier: MIT */
#ifndef IBPROOF_COMMON_CLOCK_H
#define IBPROOF_COMMON_CLOCK_H

/* Seconds on CLOCK_MONOTONIC: the clock of every deadline in ibproof. */
double clock_mono_now(void);

#endif
