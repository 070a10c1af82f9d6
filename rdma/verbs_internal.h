/* SPDX-License-Identifier: MIT */
#ifndef IBPROOF_RDMA_VERBS_INTERNAL_H
#define IBPROOF_RDMA_VERBS_INTERNAL_H

/* Between the verbs backend's files and loopback.c; not for orchestration. */
#include "rdma/transport.h"
#include "rdma/verbs_conn.h"

/* Parameters a verbs endpoint can run with; 0 or -EINVAL (logged). */
int dpath_verbs_check_params(const struct dpath_port *port,
			     const struct dpath_params *params);
/* The peer must use the same QP count and message size; 0 or -EINVAL. */
int dpath_verbs_check_peer(const char *name, const struct dpath_params *params,
			   const struct dpath_vconn *peer);
/* Warm-up of the endpoint's next runs (loopback: only the first sample). */
void dpath_verbs_set_warmup(struct dpath_endpoint *ep, double warmup_s);

#endif
