/* SPDX-License-Identifier: MIT */
#ifndef IBPROOF_COMMON_SYSFS_H
#define IBPROOF_COMMON_SYSFS_H

/*
 * The one reader of /sys. Every path is relative to a root directory that
 * stands for /sys (the UCX ucs_topo_get_pci_bw(dev, sysfs_path) model), so
 * tests point it at a fixture tree and a captured tree can be audited
 * offline. Symlinks are followed by hand, relative to the root: neither a
 * ".." nor a link can lead above it. burnin, node, pcie and rdma open no
 * sysfs file or directory but through here.
 */
#include <stddef.h>

/*
 * Resolves rel ("bus/pci/devices/0000:00:01.0") inside root, following every
 * symlink relative to the root and never above it ("/.." stays at root; an
 * absolute "/sys/x" target is root's "x"). out gets the canonical path
 * relative to root, without symlinks. 0 or -errno.
 */
int sysfs_resolve(const char *root, const char *rel, char *out, size_t len);

/* Reads a small attribute file (trailing newlines and blanks dropped). 0 or
 * -errno. */
int sysfs_read(const char *root, const char *rel, char *buf, size_t len);

/* Reads a whole file (config space) up to len bytes; bytes read or -errno. */
long sysfs_read_bin(const char *root, const char *rel, void *buf, size_t len);

/*
 * sysfs_read() and sysfs_read_bin() of rel below dir, a canonical path that
 * sysfs_resolve() gave ("devices/pci0000:00/0000:00:01.0"): dir is not
 * walked again, rel is resolved from it as sysfs_resolve() does (its links,
 * its "..", never above root). A device's attributes cost a few system
 * calls instead of a walk of the whole path each.
 */
int sysfs_read_in(const char *root, const char *dir, const char *rel, char *buf,
		  size_t len);
long sysfs_read_bin_in(const char *root, const char *dir, const char *rel,
		       void *buf, size_t len);

/*
 * Calls fn(ctx, name) for every entry of directory rel inside root, except
 * names starting with '.', in cmp order (strcmp, strverscmp; NULL: the
 * directory's own order). Stops at fn's first non-zero return and returns
 * it; -errno when the directory cannot be read.
 */
int sysfs_list(const char *root, const char *rel,
	       int (*cmp)(const char *a, const char *b),
	       int (*fn)(void *ctx, const char *name), void *ctx);

/*
 * "class/infiniband/CA/ports/PORT/ATTR" into out (attr may name a folder,
 * "counters", or a file below one, "gids/3"; port 0 is a switch's management
 * port). 0, -EINVAL for a negative port or an empty name, -ENAMETOOLONG.
 */
int sysfs_port_rel(char *out, size_t len, const char *ca, int port,
		   const char *attr);

/* sysfs_read() of ROOT/class/infiniband/CA/ports/PORT/ATTR. */
int sysfs_port_read(const char *root, const char *ca, int port,
		    const char *attr, char *buf, size_t len);

/* sysfs_read() of ROOT/class/infiniband/CA/ATTR ("node_guid", "fw_ver"). */
int sysfs_ca_read(const char *root, const char *ca, const char *attr, char *buf,
		  size_t len);

/*
 * Calls fn(ctx, ca, port) for every port of root/class/infiniband/CA/ports
 * (every CA, or only ca_filter), in CA name then port number order. Stops
 * at fn's first non-zero return and returns it; -errno when
 * class/infiniband cannot be read. CAs without a ports folder are skipped,
 * and so is port 0 (a switch's management port): its callers, node and pcie,
 * look at HCA ports.
 */
int sysfs_ib_ports(const char *root, const char *ca_filter,
		   int (*fn)(void *ctx, const char *ca, int port), void *ctx);

/*
 * An attribute's text as a whole number in base (0: "0x" prefix allowed),
 * nothing after it: "4", "-1", "0x1a". 0, -EINVAL (not a number, or text
 * after it) or -ERANGE.
 */
int sysfs_parse_long(const char *text, int base, long *out);

#endif
