/* SPDX-License-Identifier: MIT */
#ifndef IBPROOF_RDMA_PORT_SYSFS_H
#define IBPROOF_RDMA_PORT_SYSFS_H

/*
 * The parts of a port's inventory and its counters that only sysfs knows.
 * Every reader takes the sysfs root as an argument ("/sys" on a live host; a
 * fixture tree in tests): ROOT/class/infiniband/CA/ports/N/..., ROOT/class/
 * net/IF/speed. Nothing here calls ibv_*.
 */
#include <stddef.h>
#include <stdint.h>

#include "rdma/transport.h"

/*
 * Fill the sysfs-only fields of p (p->ca and p->port set by the caller):
 * gid + gid_index (RoCE: the IPv4-mapped RoCE v2 GID; InfiniBand: -1 and
 * GID 0), guid (InfiniBand: GID 0's interface id; RoCE: node_guid), netdev,
 * numa_node and pci_addr (of the HCA, or of the netdev's device for a
 * software device such as rxe). Missing files leave -1 / "" and are not
 * errors; 0, or -ENOENT if the port directory itself is missing.
 */
int dpath_port_sysfs_fill(const char *root, struct dpath_port *p);

/*
 * Index of the IPv4-mapped RoCE v2 GID of a port, or -ENOENT; gid receives
 * the 16 bytes.
 */
int dpath_port_sysfs_roce_gid(const char *root, const char *ca, int port,
			      uint8_t gid[16]);

/* 1 when gid is an IPv4-mapped address (::ffff:a.b.c.d), else 0. */
int dpath_gid_is_ipv4_mapped(const uint8_t gid[16]);

/* "fe80:0000:...:0001" (8 groups of 4 hex digits) to 16 bytes; 0 or -EINVAL. */
int dpath_gid_parse(const char *text, uint8_t gid[16]);

/*
 * The IPoIB netdev of an InfiniBand port: the ROOT/class/net entry of type
 * 32 (ARPHRD_INFINIBAND) whose hardware address (4 bytes of QPN, then the
 * GID) carries gid; the first in name order. 0, or -ENOENT.
 */
int dpath_port_sysfs_ipoib_netdev(const char *root, const uint8_t gid[16],
				  char *netdev, size_t len);

/* Speed of a netdev in Mb/s from ROOT/class/net/IF/speed; 0 if unknown. */
long dpath_netdev_speed_mbps(const char *root, const char *netdev);

/*
 * Rate of a port in Gb/s: InfiniBand from verbs active_speed x active_width
 * (common/ibrate.h); RoCE from the netdev speed, 0 when the netdev does not
 * know it (virtio, rxe's nominal figures mean nothing).
 */
double dpath_port_rate_gbps(int ethernet, int active_speed, int active_width,
			    long netdev_mbps);

/*
 * InfiniBand: p->width, p->speed and p->rate_gbps from the verbs codes;
 * when verbs does not know the speed (XDR is only in active_speed_ex,
 * which rdma-core 44 lacks, so active_speed reads 0), from the kernel's
 * ROOT/class/infiniband/CA/ports/N/rate ("800 Gb/sec (4X XDR)"). Neither:
 * width 0, speed "", rate 0 (no expected rate).
 */
void dpath_port_set_ib_rate(const char *root, struct dpath_port *p,
			    int active_width, int active_speed);

/*
 * Whether ca:port is selected by filter: NULL or "" selects every port;
 * otherwise comma-separated "ca:port" or "ca" (all its ports).
 */
int dpath_port_filter_match(const char *filter, const char *ca, int port);

/*
 * counters/ then hw_counters/ of a port: name -> value. A name already seen
 * in counters/ is prefixed "hw_" when it appears again in hw_counters/.
 * Unreadable files are skipped. *n gets the count (at most max); 0, or
 * -ENOENT when the port has neither directory.
 */
int dpath_port_sysfs_counters(const char *root, const char *ca, int port,
			      char (*names)[DPATH_COUNTER_NAME_MAX],
			      uint64_t *values, int max, int *n);

/*
 * after - before for each name of after; a counter that went down was reset
 * (or wrapped) in between, so its delta is its new value. Names missing from
 * before count from 0. delta has room for n_after values.
 */
void dpath_counters_delta(const char (*names_before)[DPATH_COUNTER_NAME_MAX],
			  const uint64_t *before, int n_before,
			  const char (*names_after)[DPATH_COUNTER_NAME_MAX],
			  const uint64_t *after, int n_after, uint64_t *delta);

#endif
