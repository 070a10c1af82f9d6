/* SPDX-License-Identifier: MIT */
#ifndef IBPROOF_BURNIN_FAKE_CONSOLE_H
#define IBPROOF_BURNIN_FAKE_CONSOLE_H

/*
 * ibsim's console FIFO, written by the fake fabric (sim-console=FIFO) so
 * that ibsim's PMA counters follow the flow model (sim tier). ibsim reads
 * its console one line at a time between MADs; lines of one write(2) of
 * at most PIPE_BUF bytes never interleave, and a full FIFO is waited on,
 * never skipped: no update is lost while ibsim runs.
 */
#include <stddef.h>

/* The FIFO opened for writing: fd, or -errno (-ENXIO: nobody reads it). */
int fake_console_open(const char *fifo);

/*
 * Writes one console line (a '\n' is added), waiting up to timeout_s for
 * room. 0; -E2BIG a line longer than ibsim reads; -ETIMEDOUT; -EPIPE
 * ibsim gone; -errno.
 */
int fake_console_line(int fd, const char *line, double timeout_s);

/* Waits until ibsim has read all that was written (or timeout_s). 0, -ETIMEDOUT. */
int fake_console_drain(int fd, double timeout_s);

/* ibsim's node id of a NodeDescription ("node001 mlx5_0" -> "node001-mlx5_0"). */
int fake_console_node_id(const char *desc, char *buf, size_t len);

#endif
