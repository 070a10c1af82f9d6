// SPDX-License-Identifier: MIT
/*
 * The MPI bootstrap: the only file of ibproof that includes <mpi.h>. Every
 * call is non-blocking and polled up to a deadline, so a rank that died or
 * hangs costs a timeout and never a hang (run mpirun with
 * --mca orte_enable_recovery 1 so that Open MPI keeps the others alive).
 */
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#include <mpi.h>

#include "burnin/bootstrap.h"
#include "common/log.h"

#define FINALIZE_GRACE_S 20

/*
 * Tests until all are done or the deadline passed, and at least once: a
 * rank that comes late (its own pair overran, it was descheduled) still
 * takes what arrived meanwhile.
 */
static int mpi_wait(MPI_Request *req, int n, bool *done, double deadline)
{
	int left = 0, spins = 0, failed = 0;

	for (int i = 0; i < n; i++) {
		if (!done[i] && req[i] == MPI_REQUEST_NULL)
			failed =
				1; /* never posted: not done (MPI_Test says it is) */
		else
			left += !done[i];
	}
	if (!left)
		return failed ? -EIO : 0;
	do {
		for (int i = 0; i < n; i++) {
			int flag = 0;

			if (done[i] || req[i] == MPI_REQUEST_NULL)
				continue;
			if (MPI_Test(&req[i], &flag, MPI_STATUS_IGNORE) !=
			    MPI_SUCCESS) {
				failed = 1; /* given up, and not done */
				req[i] = MPI_REQUEST_NULL;
				left--;
			} else if (flag) {
				done[i] = true;
				left--;
				spins = 0;
			}
		}
		if (left)
			burnin_poll_pause(&spins);
	} while (left && clock_mono_now() < deadline);
	return failed ? -EIO : left ? -ETIMEDOUT : 0;
}

/*
 * Gives up on what did not complete. A receive is cancelled and waited for
 * (a cancel of a receive completes locally): one that matched just before
 * the cancel has landed in its buffer and counts as done, and none is
 * freed while MPI may still write into a buffer its caller is about to
 * drop. A send is released (small messages are sent eagerly).
 */
static void mpi_abandon(MPI_Request *req, int n, bool *done, bool recv)
{
	for (int i = 0; i < n; i++) {
		MPI_Status st;
		int cancelled = 1;

		if (done[i] || req[i] == MPI_REQUEST_NULL)
			continue;
		if (!recv) {
			MPI_Request_free(&req[i]);
			continue;
		}
		MPI_Cancel(&req[i]);
		if (MPI_Wait(&req[i], &st) == MPI_SUCCESS)
			MPI_Test_cancelled(&st, &cancelled);
		done[i] = !cancelled;
	}
}

static int mpi_send(struct burnin_bootstrap *bs, int peer, int tag,
		    const void *buf, size_t len, double deadline)
{
	MPI_Request req;
	bool done = false;
	int ret;

	(void)bs;
	if (MPI_Isend(buf, (int)len, MPI_BYTE, peer, tag, MPI_COMM_WORLD,
		      &req) != MPI_SUCCESS)
		return -EIO;
	ret = mpi_wait(&req, 1, &done, deadline);
	mpi_abandon(&req, 1, &done, false);
	return ret;
}

static int mpi_recv_many(struct burnin_bootstrap *bs, const int *peers, int n,
			 int tag, void *bufs, size_t len, bool *got,
			 double deadline)
{
	MPI_Request *req = calloc((size_t)(n ? n : 1), sizeof(*req));
	int ret;

	(void)bs;
	if (!req)
		return -ENOMEM;
	for (int i = 0; i < n; i++) {
		got[i] = false;
		if (MPI_Irecv((char *)bufs + (size_t)i * len, (int)len,
			      MPI_BYTE, peers[i], tag, MPI_COMM_WORLD,
			      &req[i]) != MPI_SUCCESS)
			req[i] = MPI_REQUEST_NULL;
	}
	ret = mpi_wait(req, n, got, deadline);
	mpi_abandon(req, n, got, true);
	if (ret == -ETIMEDOUT) {
		int landed =
			0; /* the last ones may land while being cancelled */

		for (int i = 0; i < n; i++)
			landed += got[i];
		ret = landed == n ? 0 : ret;
	}
	free(req);
	return ret;
}

static int mpi_exchange(struct burnin_bootstrap *bs, int peer, int tag,
			const void *out, void *in, size_t len, double deadline)
{
	MPI_Request req[2];
	bool done[2] = { false, false };
	int ret;

	(void)bs;
	if (MPI_Irecv(in, (int)len, MPI_BYTE, peer, tag, MPI_COMM_WORLD,
		      &req[0]) != MPI_SUCCESS)
		return -EIO;
	if (MPI_Isend(out, (int)len, MPI_BYTE, peer, tag, MPI_COMM_WORLD,
		      &req[1]) != MPI_SUCCESS) {
		mpi_abandon(req, 1, done, true);
		return -EIO;
	}
	ret = mpi_wait(req, 2, done, deadline);
	mpi_abandon(req, 1, done, true);
	mpi_abandon(req + 1, 1, done + 1, false);
	return ret;
}

/*
 * MPI_Finalize waits for every rank, dead ones too: when a rank died, skip
 * it (mpirun runs with orte_enable_recovery) and let the process exit. The
 * rank that knows the run is over for everybody (rank 0 when it lost
 * ranks, a rank whose rank 0 went silent) ends the job with MPI_Abort:
 * Open MPI 4.1's mpirun with orte_enable_recovery was seen to wait forever
 * once a node's ranks had left without MPI_Finalize, its daemon gone too.
 */
static void mpi_close(struct burnin_bootstrap *bs, bool failed)
{
	if (bs->end_job) {
		log_info(
			"rank %d: ranks were lost; ending the MPI job with exit status %d",
			bs->rank, bs->exit_code);
		MPI_Abort(MPI_COMM_WORLD, bs->exit_code);
	}
	if (bs->peers_lost || failed) {
		log_debug(
			"rank %d: a peer was lost; leaving without MPI_Finalize",
			bs->rank);
		free(bs);
		return;
	}
	alarm(FINALIZE_GRACE_S); /* never hang here */
	MPI_Finalize();
	alarm(0);
	free(bs);
}

static const struct burnin_bootstrap_ops mpi_ops = {
	.name = "mpi",
	.send = mpi_send,
	.recv_many = mpi_recv_many,
	.exchange = mpi_exchange,
	.close = mpi_close,
};

bool burnin_bootstrap_mpi_launched(void)
{
	static const char *const vars[] = {
		"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_RANK", "PMI_SIZE",
		"MPI_LOCALNRANKS",	NULL
	};

	for (int i = 0; vars[i]; i++)
		if (getenv(vars[i]))
			return true;
	return false;
}

static int mpi_local_rank(int *local_rank, int *local_size)
{
	MPI_Comm local;

	if (MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0,
				MPI_INFO_NULL, &local) != MPI_SUCCESS)
		return -EIO;
	MPI_Comm_rank(local, local_rank);
	MPI_Comm_size(local, local_size);
	MPI_Comm_free(&local);
	return 0;
}

struct burnin_bootstrap *burnin_bootstrap_mpi_open(int *argc, char ***argv)
{
	struct burnin_bootstrap *bs = calloc(1, sizeof(*bs));

	if (!bs)
		return NULL;
	if (MPI_Init(argc, argv) != MPI_SUCCESS) {
		log_error("MPI_Init failed");
		free(bs);
		errno = EIO;
		return NULL;
	}
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
	MPI_Comm_rank(MPI_COMM_WORLD, &bs->rank);
	MPI_Comm_size(MPI_COMM_WORLD, &bs->size);
	if (mpi_local_rank(&bs->local_rank, &bs->local_size)) {
		log_error("rank %d: MPI_Comm_split_type failed", bs->rank);
		MPI_Finalize();
		free(bs);
		errno = EIO;
		return NULL;
	}
	bs->ops = &mpi_ops;
	return bs;
}
