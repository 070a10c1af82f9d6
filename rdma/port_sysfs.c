// SPDX-License-Identifier: MIT
/*
 * Port inventory bits and counters from sysfs, read under a root argument so
 * tests point it at a fixture tree (tests/fixtures/sysfs-ib/).
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rdma/port_sysfs.h"
#include "common/ibrate.h"

#define GID_TABLE_MAX 4096 /* rxe has 1024 entries, mlx5 255 */

/* First line of ROOT/REL without its newline; 0 or -errno. */
static int sysfs_read(const char *root, const char *rel, char *buf, size_t len)
{
	char path[PATH_MAX];
	FILE *f;
	int ret = 0;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	if (!fgets(buf, (int)len, f))
		ret = ferror(f) ? -EIO : -ENODATA;
	else
		buf[strcspn(buf, "\n")] = '\0';
	fclose(f);
	return ret;
}

static int port_read(const char *root, const char *ca, int port,
		     const char *what, char *buf, size_t len)
{
	char rel[PATH_MAX];

	if (snprintf(rel, sizeof(rel), "class/infiniband/%s/ports/%d/%s", ca,
		     port, what) >= (int)sizeof(rel))
		return -ENAMETOOLONG;
	return sysfs_read(root, rel, buf, len);
}

/* Copy with truncation, always terminated. */
static void str_copy(char *dst, size_t size, const char *src)
{
	size_t len = strnlen(src, size - 1);

	memcpy(dst, src, len);
	dst[len] = '\0';
}

int burnin_gid_parse(const char *text, uint8_t gid[16])
{
	unsigned int g[8];
	int used = 0;

	if (sscanf(text, "%4x:%4x:%4x:%4x:%4x:%4x:%4x:%4x%n", &g[0], &g[1],
		   &g[2], &g[3], &g[4], &g[5], &g[6], &g[7], &used) != 8 ||
	    text[used] != '\0')
		return -EINVAL;
	for (int i = 0; i < 8; i++) {
		gid[2 * i] = (uint8_t)(g[i] >> 8);
		gid[2 * i + 1] = (uint8_t)g[i];
	}
	return 0;
}

int burnin_gid_is_ipv4_mapped(const uint8_t gid[16])
{
	for (int i = 0; i < 10; i++)
		if (gid[i])
			return 0;
	return gid[10] == 0xff && gid[11] == 0xff;
}

int burnin_port_sysfs_roce_gid(const char *root, const char *ca, int port,
			       uint8_t gid[16])
{
	char rel[64], text[64];
	uint8_t g[16];
	int ret;

	for (int i = 0; i < GID_TABLE_MAX; i++) {
		snprintf(rel, sizeof(rel), "gids/%d", i);
		ret = port_read(root, ca, port, rel, text, sizeof(text));
		if (ret == -ENOENT)
			break;
		if (ret || burnin_gid_parse(text, g) || !burnin_gid_is_ipv4_mapped(g))
			continue;
		snprintf(rel, sizeof(rel), "gid_attrs/types/%d", i);
		if (port_read(root, ca, port, rel, text, sizeof(text)) ||
		    strcmp(text, "RoCE v2"))
			continue;
		memcpy(gid, g, 16);
		return i;
	}
	return -ENOENT;
}

static uint64_t bytes_be64(const uint8_t *b)
{
	uint64_t v = 0;

	for (int i = 0; i < 8; i++)
		v = v << 8 | b[i];
	return v;
}

/* "0002:c903:00a1:b2c3" -> 0x0002c90300a1b2c3; 0 if malformed. */
static uint64_t guid_parse(const char *text)
{
	unsigned int g[4];

	if (sscanf(text, "%4x:%4x:%4x:%4x", &g[0], &g[1], &g[2], &g[3]) != 4)
		return 0;
	return (uint64_t)g[0] << 48 | (uint64_t)g[1] << 32 |
	       (uint64_t)g[2] << 16 | g[3];
}

static void fill_gid_guid(const char *root, struct burnin_port *p)
{
	char text[64], rel[PATH_MAX];
	int idx;

	if (p->ethernet) {
		idx = burnin_port_sysfs_roce_gid(root, p->ca, p->port, p->gid);
		p->gid_index = idx >= 0 ? idx : -1;
		snprintf(rel, sizeof(rel), "class/infiniband/%s/node_guid",
			 p->ca);
		if (!sysfs_read(root, rel, text, sizeof(text)))
			p->guid = guid_parse(text);
		return;
	}
	p->gid_index = -1;
	if (!port_read(root, p->ca, p->port, "gids/0", text, sizeof(text)) &&
	    !burnin_gid_parse(text, p->gid))
		p->guid = bytes_be64(p->gid + 8);
}

static int is_pci_addr(const char *s, size_t len)
{
	unsigned int d, b, s_, f;
	int used = 0;

	return len == 12 &&
	       sscanf(s, "%4x:%2x:%2x.%1x%n", &d, &b, &s_, &f, &used) == 4 &&
	       used == 12;
}

/*
 * The deepest PCI function on the resolved path of ROOT/REL (a device link):
 * its address into p->pci_addr and its numa_node. 0 or -ENOENT.
 */
static int fill_pci_from_link(const char *root, const char *rel,
			      struct burnin_port *p)
{
	char path[PATH_MAX], real[PATH_MAX], text[32];
	char *comp, *best = NULL;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	if (!realpath(path, real))
		return -ENOENT;
	for (comp = real; (comp = strchr(comp, '/')); comp++) {
		size_t len = strcspn(comp + 1, "/");

		if (is_pci_addr(comp + 1, len))
			best = comp + 1;
	}
	if (!best)
		return -ENOENT;
	best[12] = '\0';
	snprintf(p->pci_addr, sizeof(p->pci_addr), "%s", best);
	if (!sysfs_read(real, "numa_node", text, sizeof(text)))
		p->numa_node = atoi(text) < 0 ? -1 : atoi(text);
	return 0;
}

static void fill_location(const char *root, struct burnin_port *p)
{
	char rel[PATH_MAX];

	p->numa_node = -1;
	p->pci_addr[0] = '\0';
	snprintf(rel, sizeof(rel), "class/infiniband/%s/device", p->ca);
	if (!fill_pci_from_link(root, rel, p) || !p->netdev[0])
		return;
	snprintf(rel, sizeof(rel), "class/net/%s/device", p->netdev);
	fill_pci_from_link(root, rel, p);
}

int burnin_port_sysfs_fill(const char *root, struct burnin_port *p)
{
	char rel[PATH_MAX];
	char text[64];

	if (port_read(root, p->ca, p->port, "state", text, sizeof(text)) ==
	    -ENOENT)
		return -ENOENT;
	fill_gid_guid(root, p);
	p->netdev[0] = '\0';
	snprintf(rel, sizeof(rel), "gid_attrs/ndevs/%d",
		 p->gid_index >= 0 ? p->gid_index : 0);
	if (port_read(root, p->ca, p->port, rel, text, sizeof(text)) == 0)
		str_copy(p->netdev, sizeof(p->netdev), text);
	fill_location(root, p);
	return 0;
}

/* "00:00:10:87:fe:80:...": 20 bytes of an IPoIB hardware address. */
static int ipoib_hwaddr_parse(const char *text, uint8_t addr[20])
{
	for (int i = 0; i < 20; i++) {
		unsigned int b;
		int used = 0;

		if (sscanf(text, "%2x%n", &b, &used) != 1 || used != 2)
			return -EINVAL;
		addr[i] = (uint8_t)b;
		text += 2;
		if (*text != (i == 19 ? '\0' : ':'))
			return -EINVAL;
		text++;
	}
	return 0;
}

/* Whether ROOT/class/net/NAME is an IPoIB netdev carrying gid. */
static bool ipoib_netdev_has_gid(const char *root, const char *name,
				 const uint8_t gid[16])
{
	char rel[PATH_MAX], text[80];
	uint8_t addr[20];

	snprintf(rel, sizeof(rel), "class/net/%s/type", name);
	if (sysfs_read(root, rel, text, sizeof(text)) || atoi(text) != 32)
		return false;
	snprintf(rel, sizeof(rel), "class/net/%s/address", name);
	return !sysfs_read(root, rel, text, sizeof(text)) &&
	       !ipoib_hwaddr_parse(text, addr) && !memcmp(addr + 4, gid, 16);
}

int burnin_port_sysfs_ipoib_netdev(const char *root, const uint8_t gid[16],
				   char *netdev, size_t len)
{
	char path[PATH_MAX];
	struct dirent **names = NULL;
	int n, ret = -ENOENT;

	snprintf(path, sizeof(path), "%s/class/net", root);
	n = scandir(path, &names, NULL, versionsort); /* ib0 before ib10 */
	if (n < 0)
		return -ENOENT;
	for (int i = 0; i < n; i++) {
		if (ret && names[i]->d_name[0] != '.' &&
		    ipoib_netdev_has_gid(root, names[i]->d_name, gid)) {
			str_copy(netdev, len, names[i]->d_name);
			ret = 0;
		}
		free(names[i]);
	}
	free(names);
	return ret;
}

long burnin_netdev_speed_mbps(const char *root, const char *netdev)
{
	char rel[PATH_MAX], text[32];
	long v;

	if (!netdev || !netdev[0])
		return 0;
	snprintf(rel, sizeof(rel), "class/net/%s/speed", netdev);
	if (sysfs_read(root, rel, text, sizeof(text)))
		return 0;
	v = strtol(text, NULL, 10);
	return v > 0 ? v : 0;
}

void burnin_port_set_width_speed(struct burnin_port *p, int active_width,
				 int active_speed)
{
	enum ib_speed speed = ib_speed_from_verbs(active_speed);

	p->width = ib_width_lanes_from_code(active_width);
	snprintf(p->speed, sizeof(p->speed), "%s",
		 speed == IB_SPEED_UNKNOWN ? "" : ib_speed_name(speed));
}

double burnin_port_rate_gbps(int ethernet, int active_speed, int active_width,
			     long netdev_mbps)
{
	if (ethernet)
		return netdev_mbps > 0 ? netdev_mbps / 1000.0 : 0.0;
	return ib_data_rate_gbps(ib_speed_from_verbs(active_speed),
				 ib_width_lanes_from_code(active_width));
}

const char *burnin_port_state_name(int state)
{
	static const char *const names[] = {
	    "unknown", "DOWN", "INIT", "ARMED", "ACTIVE", "ACTIVE_DEFER"};

	return state > 0 && state <= 5 ? names[state] : names[0];
}

const char *burnin_phys_state_name(int phys_state)
{
	static const char *const names[] = {
	    "unknown",
	    "Sleep",
	    "Polling",
	    "Disabled",
	    "PortConfigurationTraining",
	    "LinkUp",
	    "LinkErrorRecovery",
	    "PhyTest",
	};

	return phys_state > 0 && phys_state <= 7 ? names[phys_state] : names[0];
}

int burnin_port_filter_match(const char *filter, const char *ca, int port)
{
	size_t calen = strlen(ca);
	const char *tok = filter;

	if (!filter || !filter[0])
		return 1;
	while (tok && *tok) {
		size_t len = strcspn(tok, ",");

		if (len >= calen && !strncmp(tok, ca, calen) &&
		    (len == calen ||
		     (tok[calen] == ':' && atoi(tok + calen + 1) == port &&
		      strspn(tok + calen + 1, "0123456789") ==
			  len - calen - 1)))
			return 1;
		tok = tok[len] ? tok + len + 1 : NULL;
	}
	return 0;
}

static int counter_index(char (*names)[BURNIN_COUNTER_NAME_MAX], int n,
			 const char *name)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(names[i], name))
			return i;
	return -1;
}

static int name_cmp(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

/* Append the counters of one directory; -ENOENT if it does not exist. */
static int read_counter_dir(const char *root, const char *dir, int hw,
			    char (*names)[BURNIN_COUNTER_NAME_MAX],
			    uint64_t *values, int max, int *n)
{
	struct dirent **ents;
	char path[PATH_MAX], text[32];
	int count;

	snprintf(path, sizeof(path), "%s/%s", root, dir);
	count = scandir(path, &ents, NULL, name_cmp);
	if (count < 0)
		return -errno;
	for (int i = 0; i < count; i++) {
		const char *nm = ents[i]->d_name;
		char *end;
		uint64_t v;

		if (nm[0] != '.' && *n < max &&
		    !sysfs_read(path, nm, text, sizeof(text)) &&
		    isdigit((unsigned char)text[0])) {
			v = strtoull(text, &end, 10);
			if (hw && counter_index(names, *n, nm) >= 0) {
				str_copy(names[*n], BURNIN_COUNTER_NAME_MAX,
					 "hw_");
				str_copy(names[*n] + 3,
					 BURNIN_COUNTER_NAME_MAX - 3, nm);
			} else {
				str_copy(names[*n], BURNIN_COUNTER_NAME_MAX,
					 nm);
			}
			values[(*n)++] = v;
		}
		free(ents[i]);
	}
	free(ents);
	return 0;
}

int burnin_port_sysfs_counters(const char *root, const char *ca, int port,
			       char (*names)[BURNIN_COUNTER_NAME_MAX],
			       uint64_t *values, int max, int *n)
{
	char dir[PATH_MAX];
	int found = 0;

	*n = 0;
	snprintf(dir, sizeof(dir), "class/infiniband/%s/ports/%d/counters", ca,
		 port);
	found += !read_counter_dir(root, dir, 0, names, values, max, n);
	snprintf(dir, sizeof(dir), "class/infiniband/%s/ports/%d/hw_counters",
		 ca, port);
	found += !read_counter_dir(root, dir, 1, names, values, max, n);
	return found ? 0 : -ENOENT;
}

void burnin_counters_delta(const char (*names_before)[BURNIN_COUNTER_NAME_MAX],
			   const uint64_t *before, int n_before,
			   const char (*names_after)[BURNIN_COUNTER_NAME_MAX],
			   const uint64_t *after, int n_after, uint64_t *delta)
{
	for (int i = 0; i < n_after; i++) {
		uint64_t base = 0;

		for (int j = 0; j < n_before; j++)
			if (!strcmp(names_before[j], names_after[i])) {
				base = before[j];
				break;
			}
		delta[i] = after[i] >= base ? after[i] - base : after[i];
	}
}
