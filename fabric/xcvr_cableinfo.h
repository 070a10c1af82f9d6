/* SPDX-License-Identifier: MIT */
/*
 * xcvr_cableinfo.h: module pages over the CableInfo SMP seam
 * (fabric_smp_ops.read_cableinfo): split into 48-byte MADs, bounded by a deadline,
 * every CableInfo status said as a sentence.
 */
#ifndef IBPROOF_FABRIC_XCVR_CABLEINFO_H
#define IBPROOF_FABRIC_XCVR_CABLEINFO_H

#include "fabric/fabric_ops.h"
#include "fabric/xcvr.h"

#define XCVR_CABLEINFO_MAD_BYTES 48
#define XCVR_I2C_LOW 0x50

/* The module of one port, for xcvr_read_image(xcvr_cableinfo_read, ...). */
struct xcvr_cableinfo {
	const struct fabric_smp_ops *ops;
	struct fabric_smp *h;
	const uint8_t *path; /* directed route [1..hops] */
	int hops, port;
	double deadline; /* clock_mono_now() seconds; 0 = none */
	unsigned mad_timeout_ms; /* per MAD when no deadline is nearer */
	int mads; /* MADs sent */
};

/* A plain sentence for CableInfo status 1-9 ("cable is not connected"). */
const char *xcvr_cableinfo_status_str(int status);
/* xcvr_read_fn over the seam; ctx is a struct xcvr_cableinfo. */
int xcvr_cableinfo_read(void *ctx, int page, int offset, int len, uint8_t *buf,
			char *why, size_t why_len);

#endif
