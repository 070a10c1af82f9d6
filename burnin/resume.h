/* SPDX-License-Identifier: MIT */
#ifndef IBPROOF_BURNIN_RESUME_H
#define IBPROOF_BURNIN_RESUME_H

/*
 * --resume FILE (resume.c): the pair records of an earlier run into rank
 * 0's state before the rounds. Its own header so that the round loop
 * (coord.c), which resume.c adds measures through, does not include it:
 * run.c calls it.
 */
struct burnin_coord;

/* 0; -EINVAL a bad or missing file (FILE:LINE logged), -ENOMEM. */
int burnin_resume_load(struct burnin_coord *co, const char *path);

#endif
