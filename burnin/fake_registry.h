/* SPDX-License-Identifier: MIT */
#ifndef IBPROOF_BURNIN_FAKE_REGISTRY_H
#define IBPROOF_BURNIN_FAKE_REGISTRY_H

/*
 * The fake fabric's per-job registry: which flows run in which step, and
 * what each cable has carried, shared by every rank of the job. The flows
 * of one step run in several processes under mpirun (one rank per port)
 * or in one (the threads bootstrap): either way they meet in one file in
 * /dev/shm named by the uid and the job (IBP_FAKE_JOB, else Open MPI's
 * PMIX_NAMESPACE / OMPI_MCA_ess_base_jobid, else SLURM_JOB_ID.STEP, else
 * the process id), every access under flock(2). Each file is removed by
 * the last process of the job that used it.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct fake_registry_flow {
	int32_t step;
	int32_t reserved;
	uint64_t src, dst; /* port GUIDs */
	double cap_gbps;
	double t_wall; /* CLOCK_REALTIME seconds at its start */
};

/* What a cable has carried since the job began. */
struct fake_cable_total {
	uint64_t xmit_words, rcv_words; /* 4-octet words, as PMA counts */
	uint64_t errors;
};

/*
 * The registry's base path for this job into buf (the files add a
 * suffix). True when no job is known: the registry is this process's.
 */
bool fake_registry_path(char *buf, size_t len);

/* Empties the flows and the totals (a process's own registry). 0, -errno. */
int fake_registry_clear(const char *base);

/*
 * Adds a flow to its step, dropping the flows of steps before the one
 * before it. 0, -errno.
 */
int fake_registry_add(const char *base, const struct fake_registry_flow *f);

/*
 * The flows of step whose start is within span seconds of t_wall (a
 * registry left by an earlier job of the same key is not this one), in a
 * malloc'd array. 0, -errno.
 */
int fake_registry_step(const char *base, int step, double t_wall, double span,
		       struct fake_registry_flow **flows, int *n);

/*
 * Adds words to cables[n] (x share[i] on cable i when share is not
 * NULL: a flow spread by adaptive routing; and errors[i] to cable i's
 * errors; errors may be NULL), then calls seen(cable, its totals, arg) for each while the
 * lock is held, so that what seen() writes comes out in the order of the
 * totals. 0, -errno.
 */
int fake_registry_carry(
	const char *base, const int *cables, int n, uint64_t words,
	const double *share, const uint32_t *errors,
	void (*seen)(int cable, const struct fake_cable_total *t, void *arg),
	void *arg);

/* Joins the job's users (once per process; the last one removes it). */
void fake_registry_join(const char *base);

#endif
