/* SPDX-License-Identifier: MIT */
/*
 * xcvr_images.h: module memory images for the tests, built byte by byte
 * from the maps (SFF-8636 rev 2.7, CMIS 5; ethtool's qsfp.h and cmis.h),
 * and a module that answers page reads from one (the fake behind
 * xcvr_read_fn and the CableInfo seam).
 */
#ifndef IBPROOF_TESTS_XCVR_IMAGES_H
#define IBPROOF_TESTS_XCVR_IMAGES_H

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "fabric/xcvr.h"

/* A full map: lower page and upper pages 00h..11h, offsets as read. */
struct fake_module {
	uint8_t lower[128];
	uint8_t page[XCVR_PAGES][128];
	uint32_t fail_pages; /* bit n: reading upper page n fails */
	int fail_rc; /* when set, every read fails with it */
	const char *fail_why;
	int reads; /* reads answered */
};

/* A byte at a map offset: 0-127 lower, 128-255 upper page `page`. */
static inline uint8_t *fm_at(struct fake_module *m, int page, int off)
{
	return off < 128 ? &m->lower[off] : &m->page[page][off - 128];
}

static inline void fm_put16(struct fake_module *m, int page, int off,
			    unsigned v)
{
	fm_at(m, page, off)[0] = (uint8_t)(v >> 8);
	fm_at(m, page, off)[1] = (uint8_t)v;
}

/* An ASCII field, padded with blanks as the standards want. */
static inline void fm_str(struct fake_module *m, int page, int off, int len,
			  const char *s)
{
	memset(fm_at(m, page, off), ' ', (size_t)len);
	memcpy(fm_at(m, page, off), s, strlen(s));
}

/* Four thresholds from offset: high alarm, low alarm, high warn, low warn. */
static inline void fm_thresh(struct fake_module *m, int page, int off,
			     unsigned ha, unsigned la, unsigned hw, unsigned lw)
{
	fm_put16(m, page, off, ha);
	fm_put16(m, page, off + 2, la);
	fm_put16(m, page, off + 4, hw);
	fm_put16(m, page, off + 6, lw);
}

/*
 * A clean QSFP28 SR4 (SFF-8636): 35.0 C, 3.3 V; every lane Rx 0.5 mW,
 * bias 6.0 mA, Tx 0.6 mW. Thresholds (page 03h): temperature 75/-5/70/0 C,
 * Vcc 3.63/2.97/3.465/3.135 V, Rx power 3.4/0.1/2.0/0.2 mW, bias
 * 15/2/12/3 mA, Tx power 2.0/0.1/1.6/0.16 mW.
 */
static inline void fm_sff8636(struct fake_module *m)
{
	memset(m, 0, sizeof(*m));
	m->lower[0] = 0x11; /* QSFP28 */
	m->lower[1] = 0x07; /* SFF-8636 rev 2.7 */
	m->lower[2] = 0x00; /* paged memory */
	fm_put16(m, 0, 22, 0x2300); /* 35.0 C */
	fm_put16(m, 0, 26, 33000); /* 3.3 V */
	for (int l = 0; l < 4; l++) {
		fm_put16(m, 0, 34 + 2 * l, 5000); /* 0.5 mW */
		fm_put16(m, 0, 42 + 2 * l, 3000); /* 6.0 mA */
		fm_put16(m, 0, 50 + 2 * l, 6000); /* 0.6 mW */
	}
	m->page[0][0] = 0x11;
	*fm_at(m, 0, 130) = 0x0c; /* MPO */
	*fm_at(m, 0, 146) = 0; /* not a cable assembly */
	*fm_at(m, 0, 147) = 0x00; /* 850 nm VCSEL */
	fm_str(m, 0, 148, 16, "Mellanox");
	*fm_at(m, 0, 165) = 0x00;
	*fm_at(m, 0, 166) = 0x02;
	*fm_at(m, 0, 167) = 0xc9;
	fm_str(m, 0, 168, 16, "MMA1B00-E100");
	fm_str(m, 0, 184, 2, "A0");
	fm_str(m, 0, 196, 16, "MT2231FT0042");
	fm_str(m, 0, 212, 8, "220805");
	fm_thresh(m, 3, 128, 0x4b00, 0xfb00, 0x4600, 0x0000);
	fm_thresh(m, 3, 144, 36300, 29700, 34650, 31350);
	fm_thresh(m, 3, 176, 34000, 1000, 20000, 2000);
	fm_thresh(m, 3, 184, 7500, 1000, 6000, 1500);
	fm_thresh(m, 3, 192, 20000, 1000, 16000, 1600);
}

/*
 * A clean OSFP 2xNDR optic (CMIS 5): 40.5 C, 3.25 V; lanes 1-8 Rx 0.8 mW,
 * bias raw 3000 with multiplier 2 (12.0 mA), Tx 1.0 mW. Page 02h:
 * temperature 80/-5/75/0 C, Vcc 3.465/3.135/3.45/3.15 V, Tx power
 * 3.0/0.2/2.5/0.25 mW, bias (raw x2) 20/4/18/5 mA, Rx power
 * 3.0/0.1/2.5/0.15 mW.
 */
static inline void fm_cmis(struct fake_module *m)
{
	memset(m, 0, sizeof(*m));
	m->lower[0] = 0x19; /* OSFP */
	m->lower[1] = 0x50; /* CMIS 5.0 */
	m->lower[2] = 0x00; /* paged */
	fm_put16(m, 0, 14, 0x2880); /* 40.5 C */
	fm_put16(m, 0, 16, 32500); /* 3.25 V */
	m->page[0][0] = 0x19;
	fm_str(m, 0, 129, 16, "NVIDIA");
	*fm_at(m, 0, 145) = 0x48;
	*fm_at(m, 0, 146) = 0xb0;
	*fm_at(m, 0, 147) = 0x2d;
	fm_str(m, 0, 148, 16, "MMA4Z00-NS");
	fm_str(m, 0, 164, 2, "B1");
	fm_str(m, 0, 166, 16, "MT2301FT0001");
	fm_str(m, 0, 182, 8, "230115");
	*fm_at(m, 0, 202) = 0x00; /* separable: no assembly length */
	*fm_at(m, 0, 203) = 0x0c; /* MPO */
	*fm_at(m, 0, 212) = 0x00; /* 850 nm VCSEL */
	*fm_at(m, 1, 160) = 0x08 | 0x07; /* bias x2; monitors advertised */
	fm_thresh(m, 2, 128, 0x5000, 0xfb00, 0x4b00, 0x0000);
	fm_thresh(m, 2, 136, 34650, 31350, 34500, 31500);
	fm_thresh(m, 2, 176, 30000, 2000, 25000, 2500);
	fm_thresh(m, 2, 184, 5000, 1000, 4500, 1250);
	fm_thresh(m, 2, 192, 30000, 1000, 25000, 1500);
	for (int l = 0; l < 8; l++) {
		fm_put16(m, 0x11, 154 + 2 * l, 10000); /* Tx 1.0 mW */
		fm_put16(m, 0x11, 170 + 2 * l, 3000); /* 6.0 mA x2 */
		fm_put16(m, 0x11, 186 + 2 * l, 8000); /* Rx 0.8 mW */
	}
}

/* xcvr_read_fn over a fake module. */
static inline int fm_read(void *ctx, int page, int offset, int len,
			  uint8_t *buf, char *why, size_t why_len)
{
	struct fake_module *m = ctx;

	if (m->fail_rc) {
		snprintf(why, why_len, "%s", m->fail_why);
		return m->fail_rc;
	}
	if (offset >= 128 && (m->fail_pages & (1u << page))) {
		snprintf(why, why_len, "%s",
			 m->fail_why ? m->fail_why : "I2C bus is busy");
		return -EIO;
	}
	if (offset < 0 || len < 0 || offset + len > 256 || page >= XCVR_PAGES ||
	    (offset < 128 && offset + len > 128))
		return -EINVAL;
	memcpy(buf, fm_at(m, page, offset), (size_t)len);
	m->reads++;
	return 0;
}

#endif
