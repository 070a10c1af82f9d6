/* SPDX-License-Identifier: MIT */
#ifndef IBPROOF_BURNIN_BOOTSTRAP_H
#define IBPROOF_BURNIN_BOOTSTRAP_H

/*
 * How burnin's ranks find and talk to each other (UCX's ucx_perf_rte_t
 * model): MPI (bootstrap_mpi.c, the only file with <mpi.h>) or threads in
 * one process (bootstrap_threads.c, for unit tests). Only point-to-point
 * messages with a deadline: a dead rank costs a timeout, never a hang.
 * Deadlines are CLOCK_MONOTONIC seconds (clock_mono_now(), common/clock.h).
 */
#include <stdbool.h>
#include <stddef.h>

#include "common/clock.h"

struct burnin_bootstrap;

struct burnin_bootstrap_ops {
	const char *name;
	/* Sends len bytes to peer; 0, -ETIMEDOUT, -EIO. */
	int (*send)(struct burnin_bootstrap *bs, int peer, int tag,
		    const void *buf, size_t len, double deadline);
	/*
	 * Receives len bytes from each of peers[n] into bufs (len apart);
	 * got[i] says which arrived. 0 when all did, else -ETIMEDOUT.
	 */
	int (*recv_many)(struct burnin_bootstrap *bs, const int *peers, int n,
			 int tag, void *bufs, size_t len, bool *got,
			 double deadline);
	/* Sends out to peer and receives in from it at once. */
	int (*exchange)(struct burnin_bootstrap *bs, int peer, int tag,
			const void *out, void *in, size_t len, double deadline);
	/*
	 * Ends this rank's part; failed: do not wait for anybody. With
	 * end_job set, ends every rank of the job with exit_code (MPI_Abort):
	 * a launcher would otherwise wait for the ranks that were lost.
	 */
	void (*close)(struct burnin_bootstrap *bs, bool failed);
};

struct burnin_bootstrap {
	const struct burnin_bootstrap_ops *ops;
	int rank, size;
	int local_rank, local_size; /* among the ranks of this host */
	bool peers_lost; /* a rank died: close() must not wait for it */
	bool end_job; /* the run is over for every rank: close() ends the job */
	int exit_code; /* with end_job */
	void *priv;
};

/* Largest tag a message may carry (MPI guarantees 32767). */
#define BURNIN_TAG_MAX 32767

/* Sleeps a little while polling: backs off from 20 us to 1 ms. */
void burnin_poll_pause(int *spins);

int burnin_bootstrap_recv(struct burnin_bootstrap *bs, int peer, int tag,
			  void *buf, size_t len, double deadline);

/* MPI: MPI_Init + MPI_ERRORS_RETURN; NULL + errno. */
struct burnin_bootstrap *burnin_bootstrap_mpi_open(int *argc, char ***argv);
/* True when started by mpirun/srun (an MPI launcher's environment). */
bool burnin_bootstrap_mpi_launched(void);

/* n ranks as threads of this process: bs[i] for the thread of rank i. */
int burnin_bootstrap_threads_open(int n, struct burnin_bootstrap **bs);
/* Frees what every rank's close() left behind. */
void burnin_bootstrap_threads_free(struct burnin_bootstrap **bs, int n);

#endif
