/* SPDX-License-Identifier: MIT */
#ifndef IBPROOF_RDMA_RDMACM_H
#define IBPROOF_RDMA_RDMACM_H

/*
 * Connection setup through librdmacm (burnin --cm rdmacm): the peer's IP
 * address is resolved to a route by the RDMA CM, which also moves the QPs
 * to RTR/RTS with the path it found, as on a fabric where operators address
 * ports by IPoIB or RoCE address. rdmacm_ops.c is the ONLY file with rdma_*
 * calls; verbs_ops.c owns the PD, CQ and MR and gets its QPs from here.
 *
 * The two ends still exchange rkeys and buffer addresses over the bootstrap
 * (with each end's listening address); the end whose address sorts first
 * connects, the other accepts. Every wait is bounded by a deadline.
 */
#include <stdbool.h>
#include <stdint.h>
#include <sys/socket.h>

struct ibv_context;
struct ibv_pd;
struct ibv_qp;
struct ibv_qp_init_attr;

struct dpath_cm; /* event channel, listener and one cm id per QP */

/* How the CM is to set up the QPs it creates. */
struct dpath_cm_qp_attr {
	struct ibv_pd *pd;
	struct ibv_qp_init_attr *init; /* RC, CQs and capacities */
	uint8_t retry_cnt; /* finite: a dead link must error */
	uint8_t rnr_retry;
	uint8_t rd_atom; /* responder resources, initiator depth */
	uint8_t ack_timeout; /* 4.096 us * 2^ack_timeout */
};

/* librdmacm's own context of device ca (it owns it: never close it). */
struct ibv_context *dpath_cm_device(const char *ca);

/*
 * Listens on local (port 0: one the kernel picks) for this endpoint's QPs;
 * *bound gets the address and port the peer must connect to.
 */
int dpath_cm_listen(const struct sockaddr_storage *local, const char *name,
		    struct dpath_cm **cm, struct sockaddr_storage *bound);

/*
 * Connects (active) to the peer's listener or accepts (passive) its nqps
 * connections, creating the QPs on the CM ids: qps[q] is QP q on both ends.
 * Returns 0 or -errno with a message in err by timeout_s.
 */
int dpath_cm_connect(struct dpath_cm *cm, bool active,
		     const struct sockaddr_storage *peer, int nqps,
		     const struct dpath_cm_qp_attr *attr, struct ibv_qp **qps,
		     double timeout_s, char *err, size_t err_len);

/* Destroys the QPs it created, its ids and its event channel. */
void dpath_cm_close(struct dpath_cm *cm);

#endif
