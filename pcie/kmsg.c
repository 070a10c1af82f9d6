// SPDX-License-Identifier: MIT
/*
 * The kernel's own verdict on PCIe links: at probe time it logs
 *   "mlx5_core 0000:c1:00.0: 31.504 Gb/s available PCIe bandwidth, limited
 *    by 8.0 GT/s PCIe x4 link at 0000:c0:01.1 (capable of ...)"
 * Read through common/kernlog.h (/dev/kmsg or a saved dmesg / journalctl -k
 * text, bounded in lines and time); each such line is attached to the
 * device it names.
 */
#include <errno.h>
#include <string.h>

#include "common/kernlog.h"
#include "common/log.h"
#include "pcie/pcie.h"

static bool hex_run(const char *s, int n)
{
	for (int i = 0; i < n; i++)
		if (!((s[i] >= '0' && s[i] <= '9') ||
		      (s[i] >= 'a' && s[i] <= 'f')))
			return false;
	return true;
}

/* "0000:c1:00.0" at s (lower-case hex, as the kernel prints it). */
static bool bdf_at(const char *s)
{
	return hex_run(s, 4) && s[4] == ':' && hex_run(s + 5, 2) &&
	       s[7] == ':' && hex_run(s + 8, 2) && s[10] == '.' &&
	       s[11] >= '0' && s[11] <= '7';
}

bool pcie_kmsg_parse(const char *line, char bdf[PCIE_BDF_LEN])
{
	const char *lim = strstr(line, "limited by");

	if (!lim || !strstr(lim, "PCIe"))
		return false;
	for (const char *p = line; p + 12 <= lim; p++)
		if (bdf_at(p) && p[12] == ':') {
			memcpy(bdf, p, 12);
			bdf[12] = '\0';
			return true;
		}
	return false;
}

struct kmsg_ctx {
	struct pcie_topo *t;
	int found;
};

static int take_line(void *arg, const struct kernlog_line *l)
{
	struct kmsg_ctx *c = arg;
	char bdf[PCIE_BDF_LEN], esc[1024];
	int i;

	if (!pcie_kmsg_parse(l->text, bdf))
		return 0;
	i = pcie_topo_find(c->t, bdf);
	if (i < 0)
		return 0;
	if (!c->t->devs[i].kernel_lines)
		c->t->devs[i].kernel_lines = json_array();
	json_array_append_new(
		c->t->devs[i].kernel_lines,
		json_string(kernlog_escape(l->text, esc, sizeof(esc))));
	c->found++;
	return 0;
}

int pcie_kmsg_collect(const char *path, struct pcie_topo *t, double timeout_s,
		      long max_lines, int *n_found)
{
	struct kernlog_opts o = { .timeout_s = timeout_s,
				  .max_lines = max_lines };
	struct kmsg_ctx c = { .t = t };
	char err[256];
	int ret;

	ret = kernlog_read(path, &o, take_line, &c, NULL, err, sizeof(err));
	*n_found = c.found;
	if (ret == -EINVAL)
		log_error("%s", err);
	return ret;
}
