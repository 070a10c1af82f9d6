// SPDX-License-Identifier: MIT
/*
 * xcvr_decode.c: the module memory maps, SFF-8636 (rev 2.7) and CMIS
 * (4.0/5.x), decoded into struct xcvr_info. Byte offsets as in the
 * standards (and ethtool's qsfp.h / cmis.h, the public maps). Units:
 * temperature signed 1/256 degC, Vcc 100 uV, power 0.1 uW, Tx bias 2 uA
 * (CMIS: times the multiplier of page 01h byte 160).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "fabric/xcvr.h"

/* SFF-8636: lower page */
#define SFF_STATUS2 2
#define SFF_FLAT_MEM 0x04
#define SFF_TEMP_FLAGS 6
#define SFF_VCC_FLAGS 7
#define SFF_RX_PWR_FLAGS 9
#define SFF_TX_BIAS_FLAGS 11
#define SFF_TX_PWR_FLAGS 13
#define SFF_TEMP 22
#define SFF_VCC 26
#define SFF_RX_PWR 34
#define SFF_TX_BIAS 42
#define SFF_TX_PWR 50
/* SFF-8636: upper page 00h */
#define SFF_CONNECTOR 130
#define SFF_CABLE_LEN 146
#define SFF_DEVICE_TECH 147
#define SFF_VENDOR 148
#define SFF_OUI 165
#define SFF_PN 168
#define SFF_REV 184
#define SFF_SN 196
#define SFF_DATE 212
/* SFF-8636: upper page 03h thresholds (HA, LA, HW, LW, 2 bytes each) */
#define SFF_TH_TEMP 128
#define SFF_TH_VCC 144
#define SFF_TH_RX_PWR 176
#define SFF_TH_TX_BIAS 184
#define SFF_TH_TX_PWR 192

/* CMIS: lower page */
#define CMIS_MEMORY_MODEL 2
#define CMIS_FLAT_MEM 0x80
#define CMIS_MODULE_FLAGS 9
#define CMIS_TEMP 14
#define CMIS_VCC 16
/* CMIS: upper page 00h */
#define CMIS_VENDOR 129
#define CMIS_OUI 145
#define CMIS_PN 148
#define CMIS_REV 164
#define CMIS_SN 166
#define CMIS_DATE 182
#define CMIS_CABLE_LEN 202
#define CMIS_CONNECTOR 203
#define CMIS_MEDIA_TECH 212
/* CMIS: page 01h */
#define CMIS_MON_ADVERT 160
#define CMIS_BIAS_MUL_MASK 0x18
/* CMIS: page 02h thresholds */
#define CMIS_TH_TEMP 128
#define CMIS_TH_VCC 136
#define CMIS_TH_TX_PWR 176
#define CMIS_TH_TX_BIAS 184
#define CMIS_TH_RX_PWR 192
/* CMIS: page 11h lane flags (one byte per flag, a bit per lane), monitors */
#define CMIS_TX_PWR_HALARM 139
#define CMIS_TX_BIAS_HALARM 143
#define CMIS_RX_PWR_HALARM 149
#define CMIS_TX_PWR 154
#define CMIS_TX_BIAS 170
#define CMIS_RX_PWR 186

#define CONNECTOR_NO_SEPARABLE 0x23
#define TECH_COPPER_FIRST 10

static const char *const tech_names[16] = {
	"850 nm VCSEL",
	"1310 nm VCSEL",
	"1550 nm VCSEL",
	"1310 nm FP",
	"1310 nm DFB",
	"1550 nm DFB",
	"1310 nm EML",
	"1550 nm EML",
	"other optical",
	"1490 nm DFB",
	"copper, unequalized",
	"copper, passive equalized",
	"copper, near and far end limiting active equalizers",
	"copper, far end limiting active equalizers",
	"copper, near end limiting active equalizers",
	"copper, linear active equalizers",
};

const char *xcvr_identifier_name(uint8_t id)
{
	switch (id) {
	case 0x03:
		return "SFP";
	case 0x0c:
		return "QSFP";
	case 0x0d:
		return "QSFP+";
	case 0x11:
		return "QSFP28";
	case 0x18:
		return "QSFP-DD";
	case 0x19:
		return "OSFP";
	case 0x1e:
		return "QSFP+ (CMIS)";
	default:
		return "unknown";
	}
}

const char *xcvr_qty_name(enum xcvr_qty q)
{
	static const char *const names[XCVR_NQTY] = { "temperature", "vcc",
						      "rx_power", "tx_bias",
						      "tx_power" };

	return q < XCVR_NQTY ? names[q] : "?";
}

double xcvr_dbm(double mw)
{
	return mw > 0 ? 10.0 * log10(mw) : -40.0;
}

static uint16_t be16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

/* Module bytes are untrusted: printable ASCII only, blanks trimmed. */
static void ascii_field(char *dst, size_t size, const uint8_t *src, size_t n)
{
	size_t i, len = 0;

	for (i = 0; i < n && len + 1 < size; i++)
		dst[len++] =
			src[i] >= 0x20 && src[i] < 0x7f ? (char)src[i] : '?';
	while (len && (dst[len - 1] == ' ' || dst[len - 1] == '?'))
		len--;
	dst[len] = '\0';
}

/* An upper-page byte (offset 128..255) of page n, or NULL if not read. */
static const uint8_t *upper(const struct xcvr_image *img, int page, int off)
{
	if (page >= XCVR_PAGES || !(img->have_page & (1u << page)))
		return NULL;
	return &img->page[page][off - 128];
}

typedef double (*conv_fn)(uint16_t raw, double mul);

static double conv_temp(uint16_t raw, double mul)
{
	(void)mul;
	return (int16_t)raw / 256.0;
}

static double conv_vcc(uint16_t raw, double mul)
{
	(void)mul;
	return raw / 10000.0;
}

static double conv_power(uint16_t raw, double mul)
{
	(void)mul;
	return raw / 10000.0; /* 0.1 uW -> mW */
}

static double conv_bias(uint16_t raw, double mul)
{
	return raw * 0.002 * mul; /* 2 uA -> mA */
}

static const conv_fn conv[XCVR_NQTY] = { conv_temp, conv_vcc, conv_power,
					 conv_bias, conv_power };

/* Four thresholds, high alarm first, 2 bytes each. */
static void thresholds(struct xcvr_info *x, enum xcvr_qty q, const uint8_t *p,
		       double mul)
{
	struct xcvr_thresh *t = &x->thresh[q];

	if (!p)
		return;
	t->valid = true;
	t->high_alarm = conv[q](be16(p), mul);
	t->low_alarm = conv[q](be16(p + 2), mul);
	t->high_warn = conv[q](be16(p + 4), mul);
	t->low_warn = conv[q](be16(p + 6), mul);
}

static void lane_values(struct xcvr_info *x, enum xcvr_qty q, const uint8_t *p,
			int lanes, double mul)
{
	if (!p)
		return;
	x->has[q] = true;
	for (int i = 0; i < lanes; i++)
		x->lane[q][i] = conv[q](be16(p + 2 * i), mul);
}

static void cable_type(struct xcvr_info *x, uint8_t tech, uint8_t connector)
{
	snprintf(x->type, sizeof(x->type), "%s", tech_names[tech & 0x0f]);
	x->one_part = (tech & 0x0f) >= TECH_COPPER_FIRST ||
		      connector == CONNECTOR_NO_SEPARABLE;
}

/* SFF-8636 nibble flags: high nibble first lane, bits HA LA HW LW. */
static uint8_t sff_nibble(uint8_t b)
{
	return (uint8_t)((b & 0x8 ? XCVR_HALARM : 0) |
			 (b & 0x4 ? XCVR_LALARM : 0) |
			 (b & 0x2 ? XCVR_HWARN : 0) |
			 (b & 0x1 ? XCVR_LWARN : 0));
}

static void sff_lane_flags(struct xcvr_info *x, enum xcvr_qty q,
			   const uint8_t *p)
{
	for (int i = 0; i < 4; i++)
		x->flags[q][i] =
			sff_nibble((uint8_t)(p[i / 2] >> (i % 2 ? 0 : 4)));
}

/* Where a map keeps the identity fields (upper page 00h offsets). */
struct id_offsets {
	int vendor, oui, pn, rev, sn, date;
};

static const struct id_offsets sff_ids = { SFF_VENDOR, SFF_OUI, SFF_PN,
					   SFF_REV,    SFF_SN,	SFF_DATE };
static const struct id_offsets cmis_ids = { CMIS_VENDOR, CMIS_OUI, CMIS_PN,
					    CMIS_REV,	 CMIS_SN,  CMIS_DATE };

static void identity(struct xcvr_info *x, const uint8_t *u,
		     const struct id_offsets *o)
{
	const uint8_t *oui = u + o->oui - 128;

	ascii_field(x->vendor, sizeof(x->vendor), u + o->vendor - 128, 16);
	ascii_field(x->part_number, sizeof(x->part_number), u + o->pn - 128,
		    16);
	ascii_field(x->revision, sizeof(x->revision), u + o->rev - 128, 2);
	ascii_field(x->serial, sizeof(x->serial), u + o->sn - 128, 16);
	ascii_field(x->date_code, sizeof(x->date_code), u + o->date - 128, 8);
	snprintf(x->oui, sizeof(x->oui), "%02x:%02x:%02x", oui[0], oui[1],
		 oui[2]);
}

static void sff_identity(struct xcvr_info *x, const uint8_t *u)
{
	identity(x, u, &sff_ids);
	cable_type(x, u[SFF_DEVICE_TECH - 128] >> 4, u[SFF_CONNECTOR - 128]);
	x->length_m = u[SFF_CABLE_LEN - 128];
}

static void decode_sff8636(const struct xcvr_image *img, struct xcvr_info *x)
{
	const uint8_t *lo = img->lower, *p3 = upper(img, 3, 128);

	x->map = XCVR_MAP_SFF8636;
	x->lanes = 4;
	sff_identity(x, upper(img, 0, 128));
	x->has[XCVR_TEMP] = x->has[XCVR_VCC] = true;
	x->temp_c = conv_temp(be16(lo + SFF_TEMP), 1);
	x->vcc_v = conv_vcc(be16(lo + SFF_VCC), 1);
	x->flags[XCVR_TEMP][0] = sff_nibble(lo[SFF_TEMP_FLAGS] >> 4);
	x->flags[XCVR_VCC][0] = sff_nibble(lo[SFF_VCC_FLAGS] >> 4);
	lane_values(x, XCVR_RX_POWER, lo + SFF_RX_PWR, 4, 1);
	lane_values(x, XCVR_TX_BIAS, lo + SFF_TX_BIAS, 4, 1);
	lane_values(x, XCVR_TX_POWER, lo + SFF_TX_PWR, 4, 1);
	sff_lane_flags(x, XCVR_RX_POWER, lo + SFF_RX_PWR_FLAGS);
	sff_lane_flags(x, XCVR_TX_BIAS, lo + SFF_TX_BIAS_FLAGS);
	sff_lane_flags(x, XCVR_TX_POWER, lo + SFF_TX_PWR_FLAGS);
	if (!p3)
		return;
	thresholds(x, XCVR_TEMP, p3 + SFF_TH_TEMP - 128, 1);
	thresholds(x, XCVR_VCC, p3 + SFF_TH_VCC - 128, 1);
	thresholds(x, XCVR_RX_POWER, p3 + SFF_TH_RX_PWR - 128, 1);
	thresholds(x, XCVR_TX_BIAS, p3 + SFF_TH_TX_BIAS - 128, 1);
	thresholds(x, XCVR_TX_POWER, p3 + SFF_TH_TX_PWR - 128, 1);
}

static void cmis_identity(struct xcvr_info *x, const uint8_t *u)
{
	static const double mul[4] = { 0.1, 1, 10, 100 };
	uint8_t len = u[CMIS_CABLE_LEN - 128];

	identity(x, u, &cmis_ids);
	cable_type(x, u[CMIS_MEDIA_TECH - 128], u[CMIS_CONNECTOR - 128]);
	x->length_m = mul[len >> 6] * (len & 0x3f);
}

/* CMIS page 11h: one byte per flag kind, bit n = lane n + 1. */
static void cmis_lane_flags(struct xcvr_info *x, enum xcvr_qty q,
			    const uint8_t *p)
{
	static const uint8_t bit[4] = { XCVR_HALARM, XCVR_LALARM, XCVR_HWARN,
					XCVR_LWARN };

	for (int lane = 0; lane < XCVR_LANES; lane++)
		for (int k = 0; k < 4; k++)
			if (p[k] & (1u << lane))
				x->flags[q][lane] |= bit[k];
}

static void decode_cmis(const struct xcvr_image *img, struct xcvr_info *x)
{
	const uint8_t *lo = img->lower, *p1 = upper(img, 1, 128);
	const uint8_t *p2 = upper(img, 2, 128), *p11 = upper(img, 0x11, 128);
	uint8_t f = lo[CMIS_MODULE_FLAGS];
	double bias_mul = 1;

	x->map = XCVR_MAP_CMIS;
	x->lanes = XCVR_LANES;
	cmis_identity(x, upper(img, 0, 128));
	x->has[XCVR_TEMP] = x->has[XCVR_VCC] = true;
	x->temp_c = conv_temp(be16(lo + CMIS_TEMP), 1);
	x->vcc_v = conv_vcc(be16(lo + CMIS_VCC), 1);
	/* byte 9: temperature in bits 0-3, Vcc in 4-7, each HA LA HW LW */
	x->flags[XCVR_TEMP][0] = f & 0x0f;
	x->flags[XCVR_VCC][0] = f >> 4;
	if (p1)
		bias_mul = 1 << ((p1[CMIS_MON_ADVERT - 128] &
				  CMIS_BIAS_MUL_MASK) >>
				 3);
	if (p2) {
		thresholds(x, XCVR_TEMP, p2 + CMIS_TH_TEMP - 128, 1);
		thresholds(x, XCVR_VCC, p2 + CMIS_TH_VCC - 128, 1);
		thresholds(x, XCVR_TX_POWER, p2 + CMIS_TH_TX_PWR - 128, 1);
		thresholds(x, XCVR_TX_BIAS, p2 + CMIS_TH_TX_BIAS - 128,
			   bias_mul);
		thresholds(x, XCVR_RX_POWER, p2 + CMIS_TH_RX_PWR - 128, 1);
	}
	if (!p11)
		return;
	lane_values(x, XCVR_TX_POWER, p11 + CMIS_TX_PWR - 128, 8, 1);
	lane_values(x, XCVR_TX_BIAS, p11 + CMIS_TX_BIAS - 128, 8, bias_mul);
	lane_values(x, XCVR_RX_POWER, p11 + CMIS_RX_PWR - 128, 8, 1);
	cmis_lane_flags(x, XCVR_TX_POWER, p11 + CMIS_TX_PWR_HALARM - 128);
	cmis_lane_flags(x, XCVR_TX_BIAS, p11 + CMIS_TX_BIAS_HALARM - 128);
	cmis_lane_flags(x, XCVR_RX_POWER, p11 + CMIS_RX_PWR_HALARM - 128);
}

static enum xcvr_map map_of(uint8_t id)
{
	switch (id) {
	case 0x0c:
	case 0x0d:
	case 0x11:
		return XCVR_MAP_SFF8636;
	case 0x18:
	case 0x19:
	case 0x1e:
		return XCVR_MAP_CMIS;
	default:
		return XCVR_MAP_NONE;
	}
}

int xcvr_decode(const struct xcvr_image *img, struct xcvr_info *x)
{
	memset(x, 0, sizeof(*x));
	if (!img->have_lower || img->lower[0] == 0 || img->lower[0] == 0xff) {
		snprintf(x->why, sizeof(x->why), "%s",
			 img->why[0] ? img->why : "no module in the cage");
		return -ENODEV;
	}
	x->present = true;
	x->identifier = img->lower[0];
	x->map = map_of(x->identifier);
	if (x->map == XCVR_MAP_NONE || !upper(img, 0, 128)) {
		snprintf(x->why, sizeof(x->why),
			 x->map == XCVR_MAP_NONE
				 ? "identifier 0x%02x (%s) is not SFF-8636 "
				   "or CMIS"
				 : "identifier 0x%02x (%s): upper page 00h "
				   "not read",
			 x->identifier, xcvr_identifier_name(x->identifier));
		x->map = XCVR_MAP_NONE;
		return -ENOTSUP;
	}
	if (x->map == XCVR_MAP_SFF8636)
		decode_sff8636(img, x);
	else
		decode_cmis(img, x);
	snprintf(x->why, sizeof(x->why), "%s", img->why);
	return 0;
}

/* Reads one upper page into the image; false (noted) when it failed. */
static bool read_page(xcvr_read_fn read, void *ctx, struct xcvr_image *img,
		      int page)
{
	char why[XCVR_WHY_LEN] = "";
	int rc = read(ctx, page, 128, 128, img->page[page], why, sizeof(why));

	if (!rc) {
		img->have_page |= 1u << page;
		return true;
	}
	if (!img->why[0])
		snprintf(img->why, sizeof(img->why), "page %02xh: %s", page,
			 why[0] ? why : "read failed");
	return false;
}

int xcvr_read_image(xcvr_read_fn read, void *ctx, struct xcvr_image *img)
{
	static const int cmis_pages[] = { 1, 2, 0x11 };
	char why[XCVR_WHY_LEN] = "";
	int rc;

	memset(img, 0, sizeof(*img));
	rc = read(ctx, 0, 0, 128, img->lower, why, sizeof(why));
	if (rc) {
		snprintf(img->why, sizeof(img->why), "%s",
			 why[0] ? why : "lower page not readable");
		return rc;
	}
	img->have_lower = true;
	if (!read_page(read, ctx, img, 0))
		return -EIO;
	switch (map_of(img->lower[0])) {
	case XCVR_MAP_SFF8636:
		if (!(img->lower[SFF_STATUS2] & SFF_FLAT_MEM))
			read_page(read, ctx, img, 3);
		break;
	case XCVR_MAP_CMIS:
		if (img->lower[CMIS_MEMORY_MODEL] & CMIS_FLAT_MEM)
			break;
		for (size_t i = 0; i < 3; i++)
			read_page(read, ctx, img, cmis_pages[i]);
		break;
	default:
		break;
	}
	return 0;
}
