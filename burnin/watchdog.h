/* SPDX-License-Identifier: MIT */
#ifndef IBPROOF_BURNIN_WATCHDOG_H
#define IBPROOF_BURNIN_WATCHDOG_H

/*
 * Names the stage of a step that runs past its budget. Every wait of
 * ibproof's own has a deadline, but a call that blocks in the kernel
 * (rdma_destroy_id waiting for the CM, a wedged device) cannot be bounded
 * from the thread that made it; a second thread can at least say where this
 * rank is stuck, while it is stuck, and how long the stage took in the end.
 * A NULL watchdog is valid and does nothing.
 */
struct burnin_watchdog;

/* who: what the messages name ("rank 3 (node7:mlx5_2:1)"). NULL on failure. */
struct burnin_watchdog *burnin_watchdog_start(const char *who);
/* Stage begins; one warning when it is still running after budget_s. */
void burnin_watchdog_enter(struct burnin_watchdog *wd, const char *stage,
			   double budget_s);
/* Stage ends; returns its seconds (a warning when it overran). */
double burnin_watchdog_leave(struct burnin_watchdog *wd);
void burnin_watchdog_stop(struct burnin_watchdog *wd);

#endif
