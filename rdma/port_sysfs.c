// SPDX-License-Identifier: MIT
/*
 * Port inventory bits and counters from sysfs, read under a root argument so
 * tests point it at a fixture tree (tests/fixtures/sysfs-ib/).
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rdma/port_sysfs.h"
#include "common/ibrate.h"
#include "common/sysfs.h"

#define GID_TABLE_MAX 4096 /* rxe has 1024 entries, mlx5 255 */

/* Copy with truncation, always terminated. */
static void str_copy(char *dst, size_t size, const char *src)
{
	size_t len = strnlen(src, size - 1);

	memcpy(dst, src, len);
	dst[len] = '\0';
}

int dpath_gid_parse(const char *text, uint8_t gid[16])
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

int dpath_gid_is_ipv4_mapped(const uint8_t gid[16])
{
	for (int i = 0; i < 10; i++)
		if (gid[i])
			return 0;
	return gid[10] == 0xff && gid[11] == 0xff;
}

int dpath_port_sysfs_roce_gid(const char *root, const char *ca, int port,
			      uint8_t gid[16])
{
	char rel[64], text[64];
	uint8_t g[16];
	int ret;

	for (int i = 0; i < GID_TABLE_MAX; i++) {
		snprintf(rel, sizeof(rel), "gids/%d", i);
		ret = sysfs_port_read(root, ca, port, rel, text, sizeof(text));
		if (ret == -ENOENT)
			break;
		if (ret || dpath_gid_parse(text, g) ||
		    !dpath_gid_is_ipv4_mapped(g))
			continue;
		snprintf(rel, sizeof(rel), "gid_attrs/types/%d", i);
		if (sysfs_port_read(root, ca, port, rel, text, sizeof(text)) ||
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

static void fill_gid_guid(const char *root, struct dpath_port *p)
{
	char text[64];
	int idx;

	if (p->ethernet) {
		idx = dpath_port_sysfs_roce_gid(root, p->ca, p->port, p->gid);
		p->gid_index = idx >= 0 ? idx : -1;
		if (!sysfs_ca_read(root, p->ca, "node_guid", text,
				   sizeof(text)))
			p->guid = guid_parse(text);
		return;
	}
	p->gid_index = -1;
	if (!sysfs_port_read(root, p->ca, p->port, "gids/0", text,
			     sizeof(text)) &&
	    !dpath_gid_parse(text, p->gid))
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
 * The deepest PCI function on the resolved path of ROOT/REL (a device link,
 * resolved inside the root): its address into p->pci_addr and its
 * numa_node. 0 or -ENOENT.
 */
static int fill_pci_from_link(const char *root, const char *rel,
			      struct dpath_port *p)
{
	char canon[PATH_MAX], rel_numa[PATH_MAX + 16], text[32];
	char *comp, *best = NULL;
	long numa;

	if (sysfs_resolve(root, rel, canon, sizeof(canon)))
		return -ENOENT;
	for (comp = canon; comp; comp = strchr(comp, '/')) {
		size_t len;

		comp += *comp == '/';
		len = strcspn(comp, "/");
		if (is_pci_addr(comp, len))
			best = comp;
	}
	if (!best)
		return -ENOENT;
	memcpy(p->pci_addr, best, 12);
	p->pci_addr[12] = '\0';
	snprintf(rel_numa, sizeof(rel_numa), "%.*s/numa_node",
		 (int)(best + 12 - canon), canon);
	if (!sysfs_read(root, rel_numa, text, sizeof(text)) &&
	    !sysfs_parse_long(text, 10, &numa))
		p->numa_node = numa < 0 || numa > INT_MAX ? -1 : (int)numa;
	return 0;
}

static void fill_location(const char *root, struct dpath_port *p)
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

int dpath_port_sysfs_fill(const char *root, struct dpath_port *p)
{
	char rel[PATH_MAX];
	char text[64];

	if (sysfs_port_read(root, p->ca, p->port, "state", text,
			    sizeof(text)) == -ENOENT)
		return -ENOENT;
	fill_gid_guid(root, p);
	p->netdev[0] = '\0';
	snprintf(rel, sizeof(rel), "gid_attrs/ndevs/%d",
		 p->gid_index >= 0 ? p->gid_index : 0);
	if (!sysfs_port_read(root, p->ca, p->port, rel, text, sizeof(text)))
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
	long type;

	snprintf(rel, sizeof(rel), "class/net/%s/type", name);
	if (sysfs_read(root, rel, text, sizeof(text)) ||
	    sysfs_parse_long(text, 10, &type) || type != 32)
		return false;
	snprintf(rel, sizeof(rel), "class/net/%s/address", name);
	return !sysfs_read(root, rel, text, sizeof(text)) &&
	       !ipoib_hwaddr_parse(text, addr) && !memcmp(addr + 4, gid, 16);
}

struct ipoib_search {
	const char *root;
	const uint8_t *gid;
	char *netdev;
	size_t len;
};

/* 1 (found: stop the listing) when name carries the GID. */
static int ipoib_match(void *ctx, const char *name)
{
	struct ipoib_search *s = ctx;

	if (!ipoib_netdev_has_gid(s->root, name, s->gid))
		return 0;
	str_copy(s->netdev, s->len, name);
	return 1;
}

int dpath_port_sysfs_ipoib_netdev(const char *root, const uint8_t gid[16],
				  char *netdev, size_t len)
{
	struct ipoib_search s = { root, gid, netdev, len };

	/* version order: ib0 before ib10 */
	return sysfs_list(root, "class/net", strverscmp, ipoib_match, &s) == 1
		       ? 0
		       : -ENOENT;
}

long dpath_netdev_speed_mbps(const char *root, const char *netdev)
{
	char rel[PATH_MAX], text[32];
	long v;

	if (!netdev || !netdev[0])
		return 0;
	snprintf(rel, sizeof(rel), "class/net/%s/speed", netdev);
	if (sysfs_read(root, rel, text, sizeof(text)) ||
	    sysfs_parse_long(text, 10, &v))
		return 0;
	return v > 0 ? v : 0;
}

double dpath_port_rate_gbps(int ethernet, int active_speed, int active_width,
			    long netdev_mbps)
{
	if (ethernet)
		return netdev_mbps > 0 ? netdev_mbps / 1000.0 : 0.0;
	return ib_data_rate_gbps(ib_speed_from_verbs(active_speed),
				 ib_width_lanes_from_code(active_width));
}

void dpath_port_set_ib_rate(const char *root, struct dpath_port *p,
			    int active_width, int active_speed)
{
	enum ib_speed speed = ib_speed_from_verbs(active_speed);
	int lanes = ib_width_lanes_from_code(active_width);
	char text[64];
	double nominal;

	if (speed == IB_SPEED_UNKNOWN &&
	    !sysfs_port_read(root, p->ca, p->port, "rate", text, sizeof(text)))
		ib_rate_parse_sysfs(text, &nominal, &lanes, &speed);
	p->width = speed == IB_SPEED_UNKNOWN ? 0 : lanes;
	snprintf(p->speed, sizeof(p->speed), "%s",
		 speed == IB_SPEED_UNKNOWN ? "" : ib_speed_name(speed));
	p->rate_gbps = ib_data_rate_gbps(speed, p->width);
}

/* Whether s[0..len) is all digits and spells port. */
static bool port_token_is(const char *s, size_t len, int port)
{
	char *end;
	long v;

	if (!len || strspn(s, "0123456789") != len)
		return false;
	errno = 0;
	v = strtol(s, &end, 10);
	return !errno && end == s + len && v == port;
}

int dpath_port_filter_match(const char *filter, const char *ca, int port)
{
	size_t calen = strlen(ca);
	const char *tok = filter;

	if (!filter || !filter[0])
		return 1;
	while (tok && *tok) {
		size_t len = strcspn(tok, ",");

		if (len >= calen && !strncmp(tok, ca, calen) &&
		    (len == calen ||
		     (tok[calen] == ':' &&
		      port_token_is(tok + calen + 1, len - calen - 1, port))))
			return 1;
		tok = tok[len] ? tok + len + 1 : NULL;
	}
	return 0;
}

static int counter_index(char (*names)[DPATH_COUNTER_NAME_MAX], int n,
			 const char *name)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(names[i], name))
			return i;
	return -1;
}

/* A counter file's text as a number: digits only ("N/A" is not one). */
static int counter_parse(const char *text, uint64_t *v)
{
	char *end;

	if (!isdigit((unsigned char)text[0]))
		return -EINVAL;
	errno = 0;
	*v = strtoull(text, &end, 10);
	return errno || *end ? -EINVAL : 0;
}

struct counter_dir {
	const char *root;
	const char *dir; /* resolved inside root */
	int hw;
	char (*names)[DPATH_COUNTER_NAME_MAX];
	uint64_t *values;
	int max;
	int *n;
};

/* Appends one counter file; unreadable or non-numeric ones are skipped. */
static int add_counter(void *ctx, const char *nm)
{
	struct counter_dir *c = ctx;
	char rel[PATH_MAX], text[32], *name;
	uint64_t v;

	if (*c->n >= c->max ||
	    snprintf(rel, sizeof(rel), "%s/%s", c->dir, nm) >=
		    (int)sizeof(rel) ||
	    sysfs_read(c->root, rel, text, sizeof(text)) ||
	    counter_parse(text, &v))
		return 0;
	name = c->names[*c->n];
	if (c->hw && counter_index(c->names, *c->n, nm) >= 0) {
		str_copy(name, DPATH_COUNTER_NAME_MAX, "hw_");
		str_copy(name + 3, DPATH_COUNTER_NAME_MAX - 3, nm);
	} else {
		str_copy(name, DPATH_COUNTER_NAME_MAX, nm);
	}
	c->values[(*c->n)++] = v;
	return 0;
}

/* Append the counters of one directory; -ENOENT if it does not exist. */
static int read_counter_dir(struct counter_dir *c, const char *ca, int port,
			    const char *what)
{
	char rel[PATH_MAX], canon[PATH_MAX];
	int ret = sysfs_port_rel(rel, sizeof(rel), ca, port, what);

	if (!ret)
		ret = sysfs_resolve(c->root, rel, canon, sizeof(canon));
	if (ret)
		return ret;
	c->dir = canon;
	return sysfs_list(c->root, canon, strcmp, add_counter, c);
}

int dpath_port_sysfs_counters(const char *root, const char *ca, int port,
			      char (*names)[DPATH_COUNTER_NAME_MAX],
			      uint64_t *values, int max, int *n)
{
	struct counter_dir c = { root, NULL, 0, names, values, max, n };
	int found = 0;

	*n = 0;
	found += !read_counter_dir(&c, ca, port, "counters");
	c.hw = 1;
	found += !read_counter_dir(&c, ca, port, "hw_counters");
	return found ? 0 : -ENOENT;
}

void dpath_counters_delta(const char (*names_before)[DPATH_COUNTER_NAME_MAX],
			  const uint64_t *before, int n_before,
			  const char (*names_after)[DPATH_COUNTER_NAME_MAX],
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
