// SPDX-License-Identifier: MIT
/*
 * Extended config space, the part that needs root: the ACS capability of
 * PCIe switch ports. A captured tree's `config` file is the config space
 * image (`cp -a` as root keeps all 4096 bytes; as a user only 64 or 256,
 * which is what makes the check "skipped: needs root").
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "common/sysfs.h"
#include "pcie/pcie.h"

#define PCIE_CFG_EXT_START 0x100
#define PCIE_CFG_SIZE 4096

static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

int pcie_config_find_ext_cap(const uint8_t *cfg, size_t len, uint16_t id)
{
	size_t pos = PCIE_CFG_EXT_START;

	/* At most (4096 - 256) / 4 capabilities: a loop cannot hang us. */
	for (int guard = 0; guard < 960; guard++) {
		uint32_t hdr;

		if (pos < PCIE_CFG_EXT_START || pos + 8 > len)
			return -ENOENT;
		hdr = le32(cfg + pos);
		if (hdr == 0 || hdr == 0xffffffff)
			return -ENOENT;
		if ((hdr & 0xffff) == id)
			return (int)pos;
		pos = (hdr >> 20) & 0xffc;
		if (!pos)
			return -ENOENT;
	}
	return -ENOENT;
}

static int files_read_acs(void *ctx, const struct pcie_dev *dev, uint16_t *cap,
			  uint16_t *ctrl)
{
	const char *root = ctx;
	uint8_t cfg[PCIE_CFG_SIZE];
	long n;
	int pos;

	n = sysfs_read_bin_in(root, dev->path, "config", cfg, sizeof(cfg));
	if (n < 0)
		return (int)n;
	if (n <= PCIE_CFG_EXT_START)
		return -EACCES;
	pos = pcie_config_find_ext_cap(cfg, (size_t)n, PCIE_EXT_CAP_ACS);
	if (pos < 0)
		return pos;
	*cap = (uint16_t)(cfg[pos + 4] | cfg[pos + 5] << 8);
	*ctrl = (uint16_t)(cfg[pos + 6] | cfg[pos + 7] << 8);
	return 0;
}

void pcie_config_files_init(struct pcie_config_ops *ops, const char *root)
{
	ops->name = "config files";
	ops->read_acs = files_read_acs;
	ops->ctx = (void *)root;
}

const char *pcie_acs_names(uint16_t ctrl, char *buf, size_t len)
{
	static const char *const names[] = { "SrcValid",    "TransBlk",
					     "ReqRedir",    "CmpltRedir",
					     "UpstreamFwd", "EgressCtrl",
					     "DirectTrans" };
	size_t used = 0;

	buf[0] = '\0';
	for (unsigned int b = 0; b < 7 && used < len; b++)
		if (ctrl & (1u << b))
			used += (size_t)snprintf(buf + used, len - used,
						 "%s%s+", used ? " " : "",
						 names[b]);
	if (!buf[0])
		snprintf(buf, len, "none");
	return buf;
}
