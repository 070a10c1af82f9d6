/* SPDX-License-Identifier: MIT */
/*
 * xcvr_fake_ethtool.h: the fake behind struct xcvr_ethtool_ops: netlink page
 * reads and the ioctl's flat view answered from a module image
 * (xcvr_images.h), each failure and a hung driver on request. One fake per
 * test program (`fake`, static).
 */
#ifndef IBPROOF_TESTS_XCVR_FAKE_ETHTOOL_H
#define IBPROOF_TESTS_XCVR_FAKE_ETHTOOL_H

#include <time.h>

#include "fabric/xcvr_ethtool.h"
#include "xcvr_images.h"

struct fake_eth {
	struct fake_module *m;
	int open_rc;
	int nl_rc; /* every netlink read fails with it */
	const char *kmsg; /* ... and the kernel says this */
	int info_rc; /* ETHTOOL_GMODULEINFO */
	uint32_t flat_type, flat_len;
	double hang_s; /* each netlink read sleeps this long */
	int nl_reads, flat_reads, bad_bank, bad_i2c;
	int closed;
};

static struct fake_eth fake;

static inline int fake_open(const char *ifname, unsigned timeout_ms,
			    struct xcvr_ethtool **out)
{
	(void)ifname;
	(void)timeout_ms;
	*out = (struct xcvr_ethtool *)&fake;
	return fake.open_rc;
}

static inline int fake_read_page(struct xcvr_ethtool *h, int page, int bank,
				 int i2c, int offset, int len, uint8_t *buf,
				 char *kmsg, size_t kmsg_len)
{
	struct fake_eth *f = (struct fake_eth *)h;
	char why[64];

	f->nl_reads++;
	f->bad_bank += bank != 0;
	f->bad_i2c += i2c != 0x50;
	if (f->hang_s > 0 && f->nl_reads == 1) { /* the first read */
		struct timespec ts = {
			(time_t)f->hang_s,
			(long)((f->hang_s - (double)(time_t)f->hang_s) * 1e9)
		};

		nanosleep(&ts, NULL);
	}
	if (f->nl_rc) {
		if (f->kmsg)
			snprintf(kmsg, kmsg_len, "%s", f->kmsg);
		return f->nl_rc;
	}
	return fm_read(f->m, page, offset, len, buf, why, sizeof(why));
}

static inline int fake_module_info(struct xcvr_ethtool *h, uint32_t *type,
				   uint32_t *len)
{
	struct fake_eth *f = (struct fake_eth *)h;

	*type = f->flat_type;
	*len = f->flat_len;
	return f->info_rc;
}

/* The flat view: lower page and page 00h at 0-255, page N at (N+1)*128. */
static inline int fake_read_flat(struct xcvr_ethtool *h, uint32_t offset,
				 uint32_t len, uint8_t *buf)
{
	struct fake_eth *f = (struct fake_eth *)h;

	f->flat_reads++;
	if (offset + len > f->flat_len)
		return -EINVAL;
	for (uint32_t i = 0; i < len; i++) {
		uint32_t o = offset + i;
		int page = o < 256 ? 0 : (int)(o / 128) - 1;

		buf[i] = *fm_at(f->m, page,
				o < 256 ? (int)o : 128 + (int)(o % 128));
	}
	return 0;
}

static inline void fake_close(struct xcvr_ethtool *h)
{
	((struct fake_eth *)h)->closed++;
}

static const struct xcvr_ethtool_ops fake_ops = {
	.open = fake_open,
	.read_page = fake_read_page,
	.module_info = fake_module_info,
	.read_flat = fake_read_flat,
	.close = fake_close,
};

#endif
