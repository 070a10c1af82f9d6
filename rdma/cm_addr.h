/* SPDX-License-Identifier: MIT */
#ifndef IBPROOF_RDMA_CM_ADDR_H
#define IBPROOF_RDMA_CM_ADDR_H

/*
 * The IP address a port answers on for the RDMA CM (burnin --cm rdmacm):
 * RoCE: the address its RoCE v2 GID carries; InfiniBand: the first IPv4
 * address of its IPoIB netdev (found under the sysfs root by GID).
 */
#include <stddef.h>
#include <sys/socket.h>

#include "rdma/transport.h"

/* 0, or -ENOENT / -EADDRNOTAVAIL with the reason in err. */
int dpath_port_cm_addr(const char *root, const struct dpath_port *p,
		       struct sockaddr_storage *addr, char *err, size_t len);

/* "10.100.0.1" or "fe80::1"; the port is not shown. */
void dpath_sockaddr_str(const struct sockaddr_storage *addr, char *buf,
			size_t len);

#endif
