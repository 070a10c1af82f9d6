/* SPDX-License-Identifier: MIT */
#ifndef IBPROOF_NODE_SLURM_H
#define IBPROOF_NODE_SLURM_H

#include <stdbool.h>
#include <stddef.h>

/*
 * Drain and resume through scontrol, like LBNL NHC: ibproof only ever
 * resumes a node whose drain reason it wrote itself (it starts with the
 * mark). scontrol runs without a shell and with a timeout.
 */
#define SLURM_REASON_MARK "ibproof:"

/* The Reason= of `scontrol show node` output, without " [user@time]". */
int slurm_parse_reason(const char *show_output, char *reason, size_t len);
/* True if the State= of `scontrol show node` output includes DRAIN. */
bool slurm_parse_drained(const char *show_output);
/* "ibproof: " + text with control characters replaced, at most len - 1. */
void slurm_make_reason(const char *text, char *reason, size_t len);

int slurm_drain(const char *node, const char *text, double timeout_s);
/*
 * Resumes node if ibproof drained it; *resumed says whether it did. A node
 * drained for another reason is left alone (0, *resumed false, a message).
 */
int slurm_resume_if_ours(const char *node, double timeout_s, bool *resumed);

#endif
