// SPDX-License-Identifier: MIT
/*
 * xcvr_cableinfo.c: reading a module through the CableInfo SMP seam. The
 * attribute's layout and status codes are those of the Linux mlx4 driver
 * (mlx4_get_module_info): at most 48 bytes a MAD, pages 0-15, no read
 * across offset 256. Every MAD waits at most what is left of the deadline.
 */
#include <errno.h>
#include <stdio.h>

#include "common/clock.h"
#include "fabric/fabric_scope.h"
#include "fabric/xcvr_cableinfo.h"

const char *xcvr_cableinfo_status_str(int status)
{
	static const char *const s[] = {
		[1] = "invalid port (the port does not take a module)",
		[2] = "operation not supported on this port (internal or "
		      "CX4 port)",
		[3] = "cable is not connected",
		[4] = "the cable has no EEPROM (a passive copper cable)",
		[5] = "page number is greater than 15",
		[6] = "invalid address or size (size 0, or address + size "
		      "past 256)",
		[7] = "invalid I2C slave address",
		[8] = "a module violates the QSFP specification and ignores "
		      "ModSel",
		[9] = "I2C bus is constantly busy",
	};

	return status >= 1 && status <= 9 ? s[status]
					  : "unknown CableInfo "
					    "status";
}

/* Milliseconds the next MAD may wait; 0 when the deadline has passed. */
static unsigned mad_budget(const struct xcvr_cableinfo *c)
{
	double left;

	if (!c->deadline)
		return c->mad_timeout_ms;
	left = (c->deadline - clock_mono_now()) * 1000.0;
	if (left < 1)
		return 0;
	return c->mad_timeout_ms && c->mad_timeout_ms < left ? c->mad_timeout_ms
							     : (unsigned)left;
}

static int mad_error(int rc, int status, char *why, size_t why_len)
{
	if (rc == -ETIMEDOUT) {
		snprintf(why, why_len, "CableInfo MAD not answered in time");
		return rc;
	}
	if (status > 0) {
		snprintf(why, why_len, "%s (CableInfo status %d)",
			 xcvr_cableinfo_status_str(status), status);
		/* 3 no cable, 4 no EEPROM (passive copper): nothing to read;
		 * 1, 2: the port takes no module; 5-9: the read failed */
		return status == 3 || status == 4   ? -ENODEV
		       : status == 1 || status == 2 ? -ENOTSUP
						    : -EIO;
	}
	if (status < 0) {
		char st[96];

		snprintf(why, why_len,
			 "CableInfo refused: MAD status 0x%04x (%s)",
			 (unsigned)-status,
			 fabric_mad_status_text((unsigned)-status, st,
						sizeof(st)));
		return -EIO;
	}
	snprintf(why, why_len, "CableInfo MAD failed: no answer");
	return rc ? rc : -EIO;
}

int xcvr_cableinfo_read(void *ctx, int page, int offset, int len, uint8_t *buf,
			char *why, size_t why_len)
{
	struct xcvr_cableinfo *c = ctx;

	if (page < 0 || page > 15 || offset < 0 || len < 0 ||
	    offset + len > 256) {
		snprintf(why, why_len, "page %d offset %d size %d: %s", page,
			 offset, len,
			 xcvr_cableinfo_status_str(page > 15 ? 5 : 6));
		return -EINVAL;
	}
	while (len > 0) {
		int n = len < XCVR_CABLEINFO_MAD_BYTES
				? len
				: XCVR_CABLEINFO_MAD_BYTES;
		unsigned ms = mad_budget(c);
		int status = 0, rc;

		if (c->deadline && !ms)
			return mad_error(-ETIMEDOUT, 0, why, why_len);
		c->mads++;
		rc = c->ops->read_cableinfo(c->h, c->path, c->hops, c->port,
					    XCVR_I2C_LOW, page, offset, n, ms,
					    buf, &status);
		if (rc)
			return mad_error(rc, status, why, why_len);
		buf += n;
		offset += n;
		len -= n;
	}
	return 0;
}
