// SPDX-License-Identifier: MIT
/*
 * The plain model of a node's PCIe tree: every device under bus/pci/devices,
 * its place in devices/pci*, its link attributes, AER counters and NUMA node;
 * the devices that matter (HCAs, GPUs, NVMe) and every bridge above them.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/array.h"
#include "common/log.h"
#include "common/sysfs.h"
#include "common/text.h"
#include "pcie/pcie.h"

static const char *const aer_files[PCIE_AER_KINDS] = {
	"aer_dev_correctable",
	"aer_dev_nonfatal",
	"aer_dev_fatal",
};

static bool is_bdf(const char *s)
{
	unsigned int dom, bus, dev, fn;
	char end;

	return strlen(s) < PCIE_BDF_LEN &&
	       sscanf(s, "%x:%x:%x.%x%c", &dom, &bus, &dev, &fn, &end) == 4 &&
	       strchr(s, ':') - s >= 4;
}

enum pcie_role pcie_role_of(uint16_t vendor, uint32_t class)
{
	uint32_t cls = class >> 8;

	if (vendor == 0x15b3 && (cls == 0x0207 || cls == 0x0200))
		return PCIE_ROLE_HCA;
	if (cls == 0x0300 || cls == 0x0302)
		return PCIE_ROLE_GPU;
	if (cls == 0x0108)
		return PCIE_ROLE_NVME;
	if (cls == 0x0604)
		return PCIE_ROLE_BRIDGE;
	return PCIE_ROLE_OTHER;
}

const char *pcie_role_name(enum pcie_role role)
{
	static const char *const names[] = {
		[PCIE_ROLE_OTHER] = "device",
		[PCIE_ROLE_BRIDGE] = "PCIe bridge",
		[PCIE_ROLE_HCA] = "HCA",
		[PCIE_ROLE_GPU] = "GPU",
		[PCIE_ROLE_NVME] = "NVMe",
	};
	return names[role];
}

double pcie_parse_gts(const char *s)
{
	char *end;
	double v;

	while (isspace((unsigned char)*s))
		s++;
	v = strtod(s, &end);
	if (end == s || v <= 0 || v > 1000)
		return 0;
	return v;
}

/* Reads dev's attribute; a missing file is quiet, others are logged. */
static int dev_attr(const struct pcie_topo *t, struct pcie_dev *d,
		    const char *attr, char *buf, size_t len)
{
	char rel[PCIE_PATH_LEN + 64];
	int ret;

	snprintf(rel, sizeof(rel), "bus/pci/devices/%s/%s", d->bdf, attr);
	ret = sysfs_read_in(t->root, d->path, attr, buf, len);
	if (ret && ret != -ENOENT) {
		log_warn("%s/%s: cannot read: %s", t->root, rel,
			 strerror(-ret));
		if (!d->problem[0])
			snprintf(d->problem, sizeof(d->problem), "%s: %s", attr,
				 strerror(-ret));
	}
	return ret;
}

static int dev_hex(const struct pcie_topo *t, struct pcie_dev *d,
		   const char *attr, uint32_t *out)
{
	char buf[32], *end;
	unsigned long v;

	if (dev_attr(t, d, attr, buf, sizeof(buf)))
		return -EIO;
	errno = 0;
	v = strtoul(buf, &end, 16);
	if (errno || end == buf || *end) {
		log_warn("%s/bus/pci/devices/%s/%s: expected a hex number, "
			 "got '%s'",
			 t->root, d->bdf, attr, buf);
		snprintf(d->problem, sizeof(d->problem), "%s: not a hex number",
			 attr);
		return -EINVAL;
	}
	*out = (uint32_t)v;
	return 0;
}

static int dev_int(const struct pcie_topo *t, struct pcie_dev *d,
		   const char *attr, int *out)
{
	char buf[32];
	long v;

	if (dev_attr(t, d, attr, buf, sizeof(buf)))
		return -EIO;
	if (sysfs_parse_long(buf, 10, &v) || v < INT_MIN || v > INT_MAX)
		return -EINVAL;
	*out = (int)v;
	return 0;
}

static void read_link(const struct pcie_topo *t, struct pcie_dev *d)
{
	char buf[64];
	int n = 0;

	if (!dev_attr(t, d, "current_link_speed", buf, sizeof(buf))) {
		d->link.cur_gts = pcie_parse_gts(buf);
		n++;
	}
	if (!dev_attr(t, d, "max_link_speed", buf, sizeof(buf))) {
		d->link.max_gts = pcie_parse_gts(buf);
		n++;
	}
	n += !dev_int(t, d, "current_link_width", &d->link.cur_width);
	n += !dev_int(t, d, "max_link_width", &d->link.max_width);
	if (d->link.cur_width < 0 || d->link.max_width < 0)
		d->link.cur_width = d->link.max_width = 0;
	d->link.present = n > 0;
	d->link.missing = n > 0 && n < 4;
}

static void parse_aer(const char *text, struct pcie_aer_file *f)
{
	const char *line = text;
	char name[24];
	unsigned long long v;
	bool have_total = false;

	f->present = true;
	for (; *line; line = strchrnul(line, '\n'), line += *line == '\n') {
		if (sscanf(line, "%23s %llu", name, &v) != 2)
			continue;
		if (strncmp(name, "TOTAL_", 6) == 0) {
			f->total = v;
			have_total = true;
			continue;
		}
		if (!have_total)
			f->total += v;
		if (f->n < PCIE_AER_MAX) {
			memcpy(f->names[f->n], name, strlen(name) + 1);
			f->values[f->n++] = v;
		}
	}
}

static void read_aer(const struct pcie_topo *t, struct pcie_dev *d)
{
	char buf[2048];

	for (int k = 0; k < PCIE_AER_KINDS; k++)
		if (!dev_attr(t, d, aer_files[k], buf, sizeof(buf)))
			parse_aer(buf, &d->aer[k]);
}

static int read_dev(struct pcie_topo *t, struct pcie_dev *d)
{
	char rel[PCIE_PATH_LEN];
	uint32_t v;
	int ret;

	snprintf(rel, sizeof(rel), "bus/pci/devices/%s", d->bdf);
	ret = sysfs_resolve(t->root, rel, d->path, sizeof(d->path));
	if (ret) {
		log_warn("%s/%s: cannot resolve the link: %s", t->root, rel,
			 strerror(-ret));
		return ret;
	}
	d->parent = -1;
	d->numa_node = -1;
	if (!dev_hex(t, d, "vendor", &v))
		d->vendor = (uint16_t)v;
	if (!dev_hex(t, d, "device", &v))
		d->device = (uint16_t)v;
	if (!dev_hex(t, d, "class", &v))
		d->class = v;
	dev_int(t, d, "numa_node", &d->numa_node);
	read_link(t, d);
	d->role = pcie_role_of(d->vendor, d->class);
	/* A VGA device without a PCIe link is a BMC's display, not a GPU. */
	if (d->role == PCIE_ROLE_GPU && !d->link.present)
		d->role = PCIE_ROLE_OTHER;
	read_aer(t, d);
	return 0;
}

struct scan_ctx {
	struct pcie_topo *t;
	size_t cap;
};

/* A PCI function of bus/pci/devices; other names are passed over. */
static int add_dev(void *ctx, const char *bdf)
{
	struct scan_ctx *c = ctx;
	struct pcie_topo *t = c->t;
	struct pcie_dev *d;

	if (!is_bdf(bdf))
		return 0;
	if (array_reserve(&t->devs, &c->cap, (size_t)t->n, sizeof(*t->devs)))
		return -ENOMEM;
	d = &t->devs[t->n];
	memset(d, 0, sizeof(*d));
	snprintf(d->bdf, sizeof(d->bdf), "%s", bdf);
	if (read_dev(t, d))
		return 0; /* logged; the device is left out */
	t->n++;
	return 0;
}

static int bdf_cmp(const void *a, const void *b)
{
	return strcmp(((const struct pcie_dev *)a)->bdf,
		      ((const struct pcie_dev *)b)->bdf);
}

static int scan_devices(struct pcie_topo *t)
{
	struct scan_ctx c = { t, 0 };
	int ret = sysfs_list(t->root, "bus/pci/devices", strcmp, add_dev, &c);

	if (ret)
		log_error("%s/bus/pci/devices: cannot list PCI devices: %s",
			  t->root, strerror(-ret));
	else if (t->n)
		qsort(t->devs, (size_t)t->n, sizeof(*t->devs), bdf_cmp);
	return ret;
}

int pcie_topo_find(const struct pcie_topo *t, const char *bdf)
{
	for (int i = 0; i < t->n; i++)
		if (strcmp(t->devs[i].bdf, bdf) == 0)
			return i;
	return -1;
}

/* The parent is the directory above, when that is a PCI device. */
static int parent_of(const struct pcie_topo *t, const struct pcie_dev *d)
{
	char up[PCIE_PATH_LEN], *slash;

	snprintf(up, sizeof(up), "%s", d->path);
	slash = strrchr(up, '/');
	if (!slash)
		return -1;
	*slash = '\0';
	slash = strrchr(up, '/');
	return pcie_topo_find(t, slash ? slash + 1 : up);
}

/* Logs the loop that device i's chain of parents runs into. */
static void log_parent_loop(const struct pcie_topo *t, int i)
{
	char path[2048];
	size_t used = 0;
	int c = i, p, hops = 0;

	for (int k = 0; k < t->n; k++) /* n steps up: surely in the loop */
		c = t->devs[c].parent;
	p = c;
	do {
		used += (size_t)snprintf(path + used, sizeof(path) - used,
					 "%s -> ", t->devs[p].path);
		p = t->devs[p].parent;
	} while (p != c && used < sizeof(path) && ++hops < t->n);
	if (used < sizeof(path))
		snprintf(path + used, sizeof(path) - used, "%s",
			 t->devs[c].path);
	log_error("%s: PCI devices form a parent loop (each folder lies "
		  "below the next): %s",
		  t->root, path);
}

/*
 * Parents and depths; a chain of parents longer than the number of devices
 * is a loop (a captured tree whose folders carry their own BDF above them),
 * refused with -ELOOP so that no walk up the tree runs forever.
 */
static int link_parents(struct pcie_topo *t)
{
	for (int i = 0; i < t->n; i++)
		t->devs[i].parent = parent_of(t, &t->devs[i]);
	for (int i = 0; i < t->n; i++) {
		int depth = 0;

		for (int p = t->devs[i].parent; p >= 0 && depth <= t->n;
		     p = t->devs[p].parent)
			depth++;
		if (depth > t->n) {
			log_parent_loop(t, i);
			return -ELOOP;
		}
		t->devs[i].depth = depth;
	}
	return 0;
}

static void mark_relevant(struct pcie_topo *t)
{
	for (int i = 0; i < t->n; i++) {
		enum pcie_role r = t->devs[i].role;
		int hops = 0;

		if (r != PCIE_ROLE_HCA && r != PCIE_ROLE_GPU &&
		    r != PCIE_ROLE_NVME)
			continue;
		for (int p = i; p >= 0 && hops++ <= t->n; p = t->devs[p].parent)
			t->devs[p].relevant = true;
	}
}

/* class/infiniband/NAME/device -> the HCA it sits on. */
static int map_ibdev(void *ctx, const char *name)
{
	struct pcie_topo *t = ctx;
	char rel[PCIE_PATH_LEN], canon[PCIE_PATH_LEN];

	if (strlen(name) >= PCIE_NAME_LEN)
		return 0;
	snprintf(rel, sizeof(rel), "class/infiniband/%s/device", name);
	if (sysfs_resolve(t->root, rel, canon, sizeof(canon)))
		return 0;
	for (int i = 0; i < t->n; i++)
		if (strcmp(t->devs[i].path, canon) == 0)
			text_from_bytes(t->devs[i].ibdev,
					sizeof(t->devs[i].ibdev), name,
					strlen(name));
	return 0;
}

/* No class/infiniband (no RDMA devices, or no driver): HCAs stay unnamed. */
static void map_ibdevs(struct pcie_topo *t)
{
	sysfs_list(t->root, "class/infiniband", NULL, map_ibdev, t);
}

int pcie_topo_scan(const char *root, struct pcie_topo *t)
{
	int ret;

	memset(t, 0, sizeof(*t));
	if (snprintf(t->root, sizeof(t->root), "%s", root) >=
	    (int)sizeof(t->root))
		return -ENAMETOOLONG;
	ret = scan_devices(t);
	if (!ret)
		ret = link_parents(t);
	if (ret) {
		pcie_topo_free(t);
		return ret;
	}
	mark_relevant(t);
	map_ibdevs(t);
	return 0;
}

void pcie_topo_free(struct pcie_topo *t)
{
	for (int i = 0; i < t->n; i++)
		json_decref(t->devs[i].kernel_lines);
	free(t->devs);
	t->devs = NULL;
	t->n = 0;
}

/* Walks up at most t->n hops (pcie_topo_scan() refuses parent loops). */
int pcie_topo_common_ancestor(const struct pcie_topo *t, int a, int b)
{
	int i = 0, j;

	for (int p = t->devs[a].parent; p >= 0 && i++ < t->n;
	     p = t->devs[p].parent) {
		j = 0;
		for (int q = t->devs[b].parent; q >= 0 && j++ < t->n;
		     q = t->devs[q].parent)
			if (p == q)
				return p;
	}
	return -1;
}

bool pcie_topo_same_switch(const struct pcie_topo *t, int a, int b)
{
	int c = pcie_topo_common_ancestor(t, a, b);

	return c >= 0 && t->devs[c].depth > 0;
}

/* The devices that matter below bridge i, for naming it. */
static void below(const struct pcie_topo *t, int i, char *buf, size_t len)
{
	size_t used = 0;
	int shown = 0, more = 0;

	buf[0] = '\0';
	for (int k = 0; k < t->n; k++) {
		const struct pcie_dev *d = &t->devs[k];
		int p = d->parent, hops = 0;

		if (d->role < PCIE_ROLE_HCA)
			continue;
		while (p >= 0 && p != i && hops++ < t->n)
			p = t->devs[p].parent;
		if (p != i)
			continue;
		if (shown++ == 2) {
			more++;
			continue;
		}
		used += (size_t)snprintf(buf + used, len - used, "%s%s %s",
					 used ? ", " : "",
					 d->ibdev[0] ? d->ibdev : d->bdf,
					 pcie_role_name(d->role));
		if (used >= len)
			return;
	}
	if (more)
		snprintf(buf + used, len - used, " and %d more", more);
}

void pcie_dev_what(const struct pcie_topo *t, int i, char *buf, size_t len)
{
	const struct pcie_dev *d = &t->devs[i];
	char under[PCIE_NOTE_LEN];

	if (d->role == PCIE_ROLE_HCA && d->ibdev[0]) {
		snprintf(buf, len, "%s, HCA", d->ibdev);
		text_trim(buf); /* a long escaped name may be cut */
		return;
	}
	if (d->role != PCIE_ROLE_BRIDGE) {
		snprintf(buf, len, "%s", pcie_role_name(d->role));
		return;
	}
	below(t, i, under, sizeof(under));
	snprintf(buf, len, "%s%s%s",
		 d->depth == 0 ? "root port" : "PCIe switch port",
		 under[0] ? " above " : "", under);
}
