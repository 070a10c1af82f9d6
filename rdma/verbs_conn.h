/* SPDX-License-Identifier: MIT */
#ifndef IBPROOF_RDMA_VERBS_CONN_H
#define IBPROOF_RDMA_VERBS_CONN_H

/*
 * What one verbs endpoint tells its peer (struct dpath_conn_info, encoded
 * little-endian with a magic and a version so a mismatched peer is refused),
 * and the data pattern that --verify checks. Pure, no ibv_* calls.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

#include "rdma/transport.h"

struct dpath_vconn {
	uint16_t lid;
	uint8_t gid[16];
	int8_t gid_index; /* -1: no GRH */
	uint8_t mtu_code; /* enum ibv_mtu of the sender's port */
	uint8_t nqps;
	uint32_t qpn[DPATH_MAX_QPS];
	uint32_t psn[DPATH_MAX_QPS];
	uint32_t rkey;
	uint64_t src_addr; /* pattern the peer may READ, nqps x msg_size */
	uint64_t dst_addr; /* where the peer may WRITE, nqps x msg_size */
	uint64_t msg_size;
	uint64_t seed; /* of the sender's pattern */
	/* --cm rdmacm: where the sender listens (family 0: not listening) */
	uint8_t cm_family; /* AF_INET, AF_INET6 */
	uint8_t cm_addr[16]; /* IPv4 in the first 4 bytes */
	uint16_t cm_port; /* host order */
};

void dpath_vconn_encode(const struct dpath_vconn *c,
			struct dpath_conn_info *info);
/* 0, or -EPROTO (not ours / other version) / -EINVAL (bad counts). */
int dpath_vconn_decode(const struct dpath_conn_info *info,
		       struct dpath_vconn *c);

/* The rdma_cm listening address in c (IPv4 or IPv6, with its port). */
void dpath_vconn_set_cm_addr(struct dpath_vconn *c,
			     const struct sockaddr_storage *addr);
/* 0, or -ENOENT when c carries no address. */
int dpath_vconn_get_cm_addr(const struct dpath_vconn *c,
			    struct sockaddr_storage *addr);
/*
 * Whether a connects to b (a's address and port sort before b's): the two
 * ends decide alike without another message.
 */
bool dpath_vconn_cm_first(const struct dpath_vconn *a,
			  const struct dpath_vconn *b);

struct ibv_ah_attr;
/*
 * The address vector of a QP to peer r from our port (gid_index < 0: IB,
 * no GRH), on service level sl (--sl; on RoCE the priority it maps to).
 */
void dpath_vconn_av(const struct dpath_vconn *r, int port_num, int gid_index,
		    int sl, struct ibv_ah_attr *av);

/* Fill len bytes (a multiple of 8) with the pattern of seed. */
void dpath_pattern_fill(void *buf, size_t len, uint64_t seed);
/* Offset of the first byte that differs from the pattern, or -1. */
long dpath_pattern_check(const void *buf, size_t len, uint64_t seed);

#endif
