// SPDX-License-Identifier: MIT
/* Which IP address a port has for the RDMA CM; see cm_addr.h. */
#include <arpa/inet.h>
#include <errno.h>
#include <ifaddrs.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>

#include "rdma/cm_addr.h"
#include "rdma/port_sysfs.h"

static int gid_ipv4(const uint8_t gid[16], struct sockaddr_storage *addr)
{
	struct sockaddr_in *in = (struct sockaddr_in *)addr;

	if (!dpath_gid_is_ipv4_mapped(gid))
		return -ENOENT;
	memset(addr, 0, sizeof(*addr));
	in->sin_family = AF_INET;
	memcpy(&in->sin_addr, gid + 12, 4);
	return 0;
}

/* First IPv4 address of netdev; 0 or -EADDRNOTAVAIL. */
static int netdev_ipv4(const char *netdev, struct sockaddr_storage *addr)
{
	struct ifaddrs *list, *i;
	int ret = -EADDRNOTAVAIL;

	if (getifaddrs(&list))
		return -errno;
	for (i = list; i && ret; i = i->ifa_next)
		if (i->ifa_addr && i->ifa_addr->sa_family == AF_INET &&
		    !strcmp(i->ifa_name, netdev)) {
			memset(addr, 0, sizeof(*addr));
			memcpy(addr, i->ifa_addr, sizeof(struct sockaddr_in));
			ret = 0;
		}
	freeifaddrs(list);
	return ret;
}

int dpath_port_cm_addr(const char *root, const struct dpath_port *p,
		       struct sockaddr_storage *addr, char *err, size_t len)
{
	char netdev[64];
	int ret;

	if (p->ethernet) {
		ret = p->gid_index >= 0 ? gid_ipv4(p->gid, addr) : -ENOENT;
		if (ret)
			snprintf(
				err, len,
				"%s port %d: no RoCE v2 GID with an IPv4 address",
				p->ca, p->port);
		return ret;
	}
	ret = dpath_port_sysfs_ipoib_netdev(root, p->gid, netdev,
					    sizeof(netdev));
	if (ret) {
		snprintf(err, len,
			 "%s port %d: no IPoIB interface carries its GID",
			 p->ca, p->port);
		return ret;
	}
	ret = netdev_ipv4(netdev, addr);
	if (ret)
		snprintf(
			err, len,
			"%s port %d: its IPoIB interface %s has no IPv4 address",
			p->ca, p->port, netdev);
	return ret;
}

void dpath_sockaddr_str(const struct sockaddr_storage *addr, char *buf,
			size_t len)
{
	const void *a =
		addr->ss_family == AF_INET6
			? (const void *)&((const struct sockaddr_in6 *)addr)
				  ->sin6_addr
			: (const void *)&((const struct sockaddr_in *)addr)
				  ->sin_addr;

	if (!inet_ntop(addr->ss_family, a, buf, (socklen_t)len))
		snprintf(buf, len, "(address family %d)", addr->ss_family);
}
