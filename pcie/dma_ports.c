// SPDX-License-Identifier: MIT
/*
 * The ports to measure (ACTIVE ports of class/infiniband), the PCIe device
 * each one sits on, and the floor it is judged against.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/log.h"
#include "common/ibport.h"
#include "common/ibrate.h"
#include "common/sysfs.h"
#include "common/text.h"
#include "pcie/pcie.h"

/* The PCI device at path canon or above it (virtio: eth1/device is virtio1). */
static int dev_at_or_above(const struct pcie_topo *t, char *canon)
{
	for (;;) {
		char *slash;

		for (int i = 0; i < t->n; i++)
			if (strcmp(t->devs[i].path, canon) == 0)
				return i;
		slash = strrchr(canon, '/');
		if (!slash)
			return -1;
		*slash = '\0';
	}
}

/* The PCI device of an RDMA device: its own, or its netdev's (rxe). */
static int port_pci_dev(const struct pcie_topo *t, const char *ca)
{
	char rel[PCIE_PATH_LEN], canon[PCIE_PATH_LEN], parent[64];

	snprintf(rel, sizeof(rel), "class/infiniband/%s/device", ca);
	if (sysfs_resolve(t->root, rel, canon, sizeof(canon))) {
		/* rxe: "parent" names the netdev, or GID 0's netdev does */
		if (sysfs_ca_read(t->root, ca, "parent", parent,
				  sizeof(parent)) &&
		    sysfs_port_read(t->root, ca, 1, "gid_attrs/ndevs/0", parent,
				    sizeof(parent)))
			return -1;
		snprintf(rel, sizeof(rel), "class/net/%s/device", parent);
		if (sysfs_resolve(t->root, rel, canon, sizeof(canon)))
			return -1;
	}
	return dev_at_or_above(t, canon);
}

/* "800 Gb/sec (4X XDR)" -> data rate in GB/s (common/ibrate.h: lanes x
 * lane data rate; for QDR and older the figure is the signalling rate);
 * a rate the table does not know: its figure. */
static double port_rate_GBps(const struct pcie_topo *t, const char *ca,
			     int port)
{
	char buf[64];
	double nominal;
	enum ib_speed speed;
	int lanes;

	if (sysfs_port_read(t->root, ca, port, "rate", buf, sizeof(buf)))
		return 0;
	if (!ib_rate_parse_sysfs(buf, &nominal, &lanes, &speed))
		return gbps_to_GBps(ib_data_rate_gbps(speed, lanes));
	return gbps_to_GBps(nominal);
}

static void set_floor(const struct pcie_topo *t, struct pcie_dma_port *p)
{
	double gts = 0, rate;
	int width = 0;

	if (p->dev < 0 || t->devs[p->dev].role != PCIE_ROLE_HCA) {
		if (snprintf(p->floor_why, sizeof(p->floor_why),
			     "not judged: %s is not on a PCIe HCA (software "
			     "RDMA, or a virtual device)",
			     p->ca_text) >= (int)sizeof(p->floor_why))
			text_trim(p->floor_why);
		return;
	}
	if (!pcie_path_capability(t, p->dev, &gts, &width)) {
		snprintf(p->floor_why, sizeof(p->floor_why),
			 "not judged: the link speed and width of %s are "
			 "unknown",
			 t->devs[p->dev].bdf);
		return;
	}
	p->floor_GBps = pcie_dma_floor_GBps(gts, width);
	rate = port_rate_GBps(t, p->ca, p->port);
	if (rate > 0 && PCIE_DMA_FLOOR_FRACTION * rate < p->floor_GBps)
		p->floor_GBps = PCIE_DMA_FLOOR_FRACTION * rate;
	snprintf(p->floor_why, sizeof(p->floor_why),
		 "%.0f%% of %.2f GB/s (%.1f GT/s x%d after encoding)%s",
		 PCIE_DMA_FLOOR_FRACTION * 100, pcie_usable_GBps(gts, width),
		 gts, width,
		 rate > 0 && PCIE_DMA_FLOOR_FRACTION * rate <= p->floor_GBps
			 ? ", capped by the port's data rate"
			 : "");
}

static bool port_active(const struct pcie_topo *t, const char *ca, int port)
{
	char buf[32];
	int state;

	if (sysfs_port_read(t->root, ca, port, "state", buf, sizeof(buf)))
		return false;
	state = ib_state_from_sysfs(buf);
	return state == IB_PORT_STATE_ACTIVE ||
	       state == IB_PORT_STATE_ACTIVE_DEFER;
}

struct dma_ports_ctx {
	const struct pcie_topo *t;
	int port_filter;
	struct pcie_dma_port **v;
	int *n;
};

/* Adds ca:port when it passes the filter and is ACTIVE. */
static int add_port(void *ctx, const char *ca, int port)
{
	struct dma_ports_ctx *c = ctx;
	struct pcie_dma_port *p;

	if ((c->port_filter && port != c->port_filter) ||
	    !port_active(c->t, ca, port))
		return 0;
	p = realloc(*c->v, (size_t)(*c->n + 1) * sizeof(*p));
	if (!p)
		return -ENOMEM;
	*c->v = p;
	p = &p[(*c->n)++];
	memset(p, 0, sizeof(*p));
	snprintf(p->ca, sizeof(p->ca), "%s", ca);
	text_from_bytes(p->ca_text, sizeof(p->ca_text), ca, strlen(ca));
	p->port = port;
	p->dev = port_pci_dev(c->t, ca);
	set_floor(c->t, p);
	return 0;
}

int pcie_dma_ports(const struct pcie_topo *t, const char *ca_filter,
		   int port_filter, struct pcie_dma_port **ports, int *n)
{
	struct dma_ports_ctx c = { t, port_filter, ports, n };

	*ports = NULL;
	*n = 0;
	return sysfs_ib_ports(t->root, ca_filter, add_port, &c);
}
