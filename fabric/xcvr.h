/* SPDX-License-Identifier: MIT */
/*
 * xcvr.h: cable modules (transceivers). One pure decoder of the module
 * memory maps, SFF-8636 (QSFP, QSFP28, QSFP56) and CMIS (QSFP-DD, OSFP),
 * into plain figures; the image reader over any page-read function (the
 * CableInfo SMP of mad_ops.c, a test's module image); the parsers of
 * ibdiagnet2.db_csv and mlxlink output (xcvr_files.c) and of
 * ibdiagnet2.cables (xcvr_cables.c); and the judge that
 * turns figures and flags into findings (xcvr_judge.c). Nothing here
 * touches a device.
 */
#ifndef IBPROOF_FABRIC_XCVR_H
#define IBPROOF_FABRIC_XCVR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/lines.h"

#define XCVR_LANES 8
#define XCVR_PAGES 0x12 /* upper pages 00h..11h are kept */
#define XCVR_WHY_LEN 256

/* Flag bits, the same for every quantity whatever the map's own order. */
#define XCVR_HALARM 0x1
#define XCVR_LALARM 0x2
#define XCVR_HWARN 0x4
#define XCVR_LWARN 0x8
#define XCVR_ALARMS (XCVR_HALARM | XCVR_LALARM)
#define XCVR_WARNS (XCVR_HWARN | XCVR_LWARN)

enum xcvr_map { XCVR_MAP_NONE, XCVR_MAP_SFF8636, XCVR_MAP_CMIS };

/* A module's own thresholds for one quantity (valid: read from it). */
struct xcvr_thresh {
	bool valid;
	double high_alarm, low_alarm, high_warn, low_warn;
};

/* One quantity: temperature (degC), Vcc (V), or a lane's figure. */
enum xcvr_qty {
	XCVR_TEMP,
	XCVR_VCC,
	XCVR_RX_POWER, /* mW */
	XCVR_TX_BIAS, /* mA */
	XCVR_TX_POWER, /* mW */
	XCVR_NQTY
};

struct xcvr_info {
	bool present; /* a module answered */
	enum xcvr_map map;
	uint8_t identifier; /* SFF-8024 byte 0 */
	/* identity: printable ASCII, trailing blanks removed ("" unknown) */
	char vendor[17], oui[9], part_number[17], revision[5], serial[17];
	char date_code[9];
	char type[48]; /* "850 nm VCSEL", "copper, passive" ... */
	bool one_part; /* DAC or AOC: cable and modules are one part */
	double length_m; /* cable assembly length, 0 unknown */
	int lanes; /* 4 SFF-8636, 8 CMIS */
	/* monitors: has[q] when read; lane figures in [lane] */
	bool has[XCVR_NQTY];
	double temp_c, vcc_v;
	double lane[XCVR_NQTY][XCVR_LANES]; /* RX/TX rows only */
	uint8_t flags[XCVR_NQTY][XCVR_LANES]; /* XCVR_HALARM...; [0] module */
	struct xcvr_thresh thresh[XCVR_NQTY];
	bool has_rx_los;
	uint8_t rx_los; /* bit per lane, from mlxlink */
	const char *source; /* "cableinfo-smp", "ibdiagnet", "mlxlink" */
	char why[XCVR_WHY_LEN]; /* not readable, or what part was not */
};

/* A module image: the lower page and the upper pages that were read. */
struct xcvr_image {
	bool have_lower;
	uint8_t lower[128];
	uint32_t have_page; /* bit n: upper page n was read */
	uint8_t page[XCVR_PAGES][128]; /* upper page n, offsets 128..255 */
	char why[XCVR_WHY_LEN]; /* first page that could not be read */
};

/*
 * Reads len bytes (len <= 128, offset + len <= 256) of page at offset
 * (0-127: the lower page, 128-255: upper page `page`). 0, or -errno with a
 * sentence in why (-ENODEV: no module).
 */
typedef int (*xcvr_read_fn)(void *ctx, int page, int offset, int len,
			    uint8_t *buf, char *why, size_t why_len);

/*
 * Reads the pages the decoder uses: lower page and upper page 00h; for
 * SFF-8636 page 03h, for CMIS pages 01h, 02h and 11h (unless the module
 * says its memory is flat). A failed lower page or page 00h is an error
 * (-errno, img->why); a failed optional page is noted in img->why.
 */
int xcvr_read_image(xcvr_read_fn read, void *ctx, struct xcvr_image *img);

/* Decodes an image. -ENODEV when there is no lower page or no module,
 * -ENOTSUP for an identifier that is not SFF-8636 or CMIS (info->why). */
int xcvr_decode(const struct xcvr_image *img, struct xcvr_info *info);

/*
 * The files operators have (xcvr_files.c). Lines are read through
 * common/lines.c, up to LINES_MAX bytes: a longer one is an error naming
 * FILE:LINE.
 */
#define XCVR_LINE_MAX LINES_MAX
#define XCVR_JSON_MAX (8L << 20) /* mlxlink --json: the whole file */

/* One module of an ibdiagnet2.db_csv CABLE_INFO section. */
struct xcvr_row {
	uint64_t node_guid, port_guid; /* port_guid 0 when not given */
	int port;
	int line; /* of the row in the file */
	const char *port_name; /* ibdiagnet2.cables "Port Name=", or NULL */
	struct xcvr_info info;
};

typedef int (*xcvr_row_fn)(void *ctx, const struct xcvr_row *row);

/*
 * Calls fn for each row of the START_CABLE_INFO ... END_CABLE_INFO section
 * of an ibdiagnet2.db_csv; columns are found by their header names. 0, fn's
 * non-zero result, or -errno with "FILE:LINE: what was expected" in err.
 */
int xcvr_load_ibdiagnet(const char *path, xcvr_row_fn fn, void *ctx, char *err,
			size_t errlen);

/*
 * Calls fn for each port block of an ibdiagnet2.cables (ibdiagnet
 * --get_cable_info): keys found by name, in any order. The block's GUID=
 * is the port's GUID: row->port_guid, with node_guid 0 (the caller places
 * it); row->port_name its "Port Name=". 0, fn's non-zero result, or -errno
 * with "FILE:LINE: what was expected" in err (-ENOENT: no block at all).
 */
int xcvr_load_cables(const char *path, xcvr_row_fn fn, void *ctx, char *err,
		     size_t errlen);
/* Does the file look like an ibdiagnet2.cables (not a db_csv)? */
bool xcvr_is_cables_file(const char *path);

/*
 * The module of one port from `mlxlink -m` text or `mlxlink -m --json`
 * output (told apart by the first character). *link_up: 1 Active, 0 not,
 * -1 not said. 0 or -errno with "FILE[:LINE]: why" in err.
 */
int xcvr_load_mlxlink(const char *path, struct xcvr_info *x, int *link_up,
		      char *err, size_t errlen);

/* "QSFP28", "OSFP", ... for an SFF-8024 identifier. */
const char *xcvr_identifier_name(uint8_t id);
/* dBm of a power in mW (-40 for 0). */
double xcvr_dbm(double mw);
/* "temperature", "rx_power" ... */
const char *xcvr_qty_name(enum xcvr_qty q);

#endif
