// SPDX-License-Identifier: MIT
/*
 * The stop flag. The SIGINT/SIGTERM/SIGUSR1 handler only sets it; the rank
 * threads (one per port without MPI) and rank 0's round loop read it
 * through an atomic load, so a stop asked in one thread is seen in all.
 */
#include <signal.h>
#include <stdatomic.h>
#include <string.h>

#include "burnin/burnin.h"

/*
 * A sig_atomic_t for the handler, _Atomic for the threads: C11 lets a
 * handler write a lock-free atomic object (7.14.1.1), hence the check.
 */
static volatile _Atomic sig_atomic_t stop_flag;

_Static_assert(ATOMIC_INT_LOCK_FREE == 2 && sizeof(sig_atomic_t) == sizeof(int),
	       "the stop flag must be a lock-free atomic");

bool burnin_stop_requested(void)
{
	return atomic_load(&stop_flag) != 0;
}

void burnin_stop_set(bool stop)
{
	atomic_store(&stop_flag, stop ? 1 : 0);
}

static void on_signal(int sig)
{
	(void)sig;
	atomic_store(&stop_flag, 1);
}

void burnin_install_signal_handlers(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	/*
	 * Open MPI's mpirun kills its ranks 1 s after passing on SIGINT or
	 * SIGTERM (odls_base_sigkill_timeout), before a step can finish; it
	 * forwards SIGUSR1 and nothing else: the way to stop a run under it.
	 */
	sigaction(SIGUSR1, &sa, NULL);
	/*
	 * A rank whose stdout or stderr went away with its MPI daemon must
	 * not die of SIGPIPE on a last message: a failed write is harmless,
	 * a rank killed at exit turns a finished run into "could not test".
	 */
	sa.sa_handler = SIG_IGN;
	sigaction(SIGPIPE, &sa, NULL);
}
