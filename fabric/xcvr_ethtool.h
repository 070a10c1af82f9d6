/* SPDX-License-Identifier: MIT */
/*
 * xcvr_ethtool.h: the module of an Ethernet/RoCE port through the kernel's
 * module EEPROM API. Netlink ETHTOOL_MSG_MODULE_EEPROM_GET reads by page
 * and bank (Linux 5.13 and later); the SIOCETHTOOL ioctl
 * (ETHTOOL_GMODULEINFO, ETHTOOL_GMODULEEEPROM: a flat view of the lower
 * page and a few upper pages) is the fallback. Every call to the kernel
 * lives in ethtool_ops.c behind struct xcvr_ethtool_ops; tests put a fake
 * with module images behind it.
 *
 * Not for IPoIB: mlx5's IPoIB netdevs have no module ops, so the kernel
 * answers EOPNOTSUPP there by design (`ethtool -m ib0` fails the same
 * way). An InfiniBand port's module is read in-band (`fabric cables`).
 */
#ifndef IBPROOF_FABRIC_XCVR_ETHTOOL_H
#define IBPROOF_FABRIC_XCVR_ETHTOOL_H

#include <stddef.h>
#include <stdint.h>

#include "fabric/xcvr.h"

#define XCVR_ETHTOOL_I2C 0x50
#define XCVR_ETHTOOL_KMSG 128 /* the kernel's extack text */

/* The legacy view's types (linux/ethtool.h ETH_MODULE_SFF_*). */
#define XCVR_ETH_SFF_8079 0x1
#define XCVR_ETH_SFF_8472 0x2
#define XCVR_ETH_SFF_8636 0x3
#define XCVR_ETH_SFF_8436 0x4

struct xcvr_ethtool;

struct xcvr_ethtool_ops {
	/*
	 * Opens the module path of ifname; timeout_ms bounds each answer
	 * the kernel owes. -ENODEV: no such network interface.
	 */
	int (*open)(const char *ifname, unsigned timeout_ms,
		    struct xcvr_ethtool **out);
	/*
	 * Netlink: len (1-128) bytes at offset (0-255; 128-255 for a page
	 * other than 0) of page/bank at I2C address i2c. 0 or -errno; kmsg
	 * gets the kernel's own words when it gave some. -EPROTONOSUPPORT:
	 * no ethtool netlink here (no family, or no netlink socket).
	 */
	int (*read_page)(struct xcvr_ethtool *h, int page, int bank, int i2c,
			 int offset, int len, uint8_t *buf, char *kmsg,
			 size_t kmsg_len);
	/* ioctl ETHTOOL_GMODULEINFO: the flat view's type and length. */
	int (*module_info)(struct xcvr_ethtool *h, uint32_t *type,
			   uint32_t *len);
	/* ioctl ETHTOOL_GMODULEEEPROM: len bytes at a flat offset. */
	int (*read_flat)(struct xcvr_ethtool *h, uint32_t offset, uint32_t len,
			 uint8_t *buf);
	void (*close)(struct xcvr_ethtool *h);
};

/* The kernel's, in ethtool_ops.c. */
extern const struct xcvr_ethtool_ops xcvr_ethtool_kernel_ops;

/* One port's module, for xcvr_read_image(xcvr_ethtool_read, ...). */
struct xcvr_ethtool_port {
	const struct xcvr_ethtool_ops *ops;
	struct xcvr_ethtool *h;
	const char *ifname;
	int bank; /* CMIS bank of the banked pages (0: lanes 1-8) */
	/* set by the reads: */
	bool legacy; /* netlink refused: the ioctl's flat view */
	uint32_t flat_type, flat_len;
	const char *source; /* "ethtool-netlink" or "ethtool-ioctl" */
};

/* xcvr_read_fn over the seam; ctx is a struct xcvr_ethtool_port. */
int xcvr_ethtool_read(void *ctx, int page, int offset, int len, uint8_t *buf,
		      char *why, size_t why_len);

/*
 * A plain sentence for an error of the module EEPROM API on ifname
 * ("eth2: the driver has no module EEPROM ops ..."), with the kernel's own
 * words when given.
 */
void xcvr_ethtool_strerror(int rc, const char *ifname, const char *kmsg,
			   char *why, size_t why_len);

/*
 * The module of ifname, decoded into info (info->source set, info->why
 * saying why it was not read or what part was not). The whole read ends
 * within timeout_s (> 0), whatever the driver does: a read the kernel has
 * not returned by then is left behind and said as such. 0, or -errno with
 * info->why set.
 */
int xcvr_ethtool_module(const struct xcvr_ethtool_ops *ops, const char *ifname,
			double timeout_s, struct xcvr_info *info);

#endif
