// SPDX-License-Identifier: MIT
/*
 * PortInfo images (64 bytes, as an SMP carries them) through
 * fabric_portinfo_decode(): NDR, XDR, and XDR trained at NDR; the fields
 * Debian 12's libibmad knows cross-checked against mad_get_field(); and a
 * port trained down to NDR beside XDR peers is degraded-speed.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>
#include <infiniband/mad.h>

#include "fabric/fabric_diff.h"
#include "fabric/fabric_portinfo.h"

struct image {
	unsigned state, phys, width, speed, ext, ext_en, ext2, ext2_en;
	uint32_t cap;
	uint16_t cap2;
};

/* The bytes of a PortInfo, laid out by IBTA bit offsets (big-endian). */
static void build(uint8_t b[64], const struct image *im)
{
	memset(b, 0, 64);
	b[20] = (uint8_t)(im->cap >> 24);
	b[21] = (uint8_t)(im->cap >> 16);
	b[22] = (uint8_t)(im->cap >> 8);
	b[23] = (uint8_t)im->cap;
	b[29] = 2 | 16; /* LinkWidthEnabled 4x, 2x */
	b[30] = 2 | 16; /* LinkWidthSupported */
	b[31] = (uint8_t)im->width;
	b[32] = (uint8_t)(7 << 4 | im->state); /* speed supported SDR-QDR */
	b[33] = (uint8_t)(im->phys << 4 | 2); /* LinkDownDefState polling */
	b[35] = (uint8_t)(im->speed << 4 | 7);
	b[56] = (uint8_t)((im->ext2 & 3) << 5 | 1 << 3 | (im->ext2_en & 7));
	b[60] = (uint8_t)(im->cap2 >> 8);
	b[61] = (uint8_t)im->cap2;
	b[62] = (uint8_t)(im->ext << 4 | 0xf);
	b[63] = (uint8_t)im->ext_en;
}

#define CAP (1u << 14) /* IsExtendedSpeedsSupported */
#define CAP2 (1u << 11) /* IsExtendedSpeeds2Supported */

static const struct image ndr = { 4, 5, 2, 0, 8, 0xf, 0, 0, CAP, 0 };
static const struct image xdr = { 4, 5, 2, 0, 0, 0xf, 1, 1, CAP, CAP2 };
/* an XDR port (XDR enabled at both ends) that trained at NDR */
static const struct image xdr_at_ndr = { 4, 5, 2, 0, 8, 0xf, 0, 1, CAP, CAP2 };

static void decode(const struct image *im, struct fabric_port *p)
{
	uint8_t b[64];

	build(b, im);
	memset(p, 0, sizeof(*p));
	fabric_portinfo_decode(b, b, p);
}

/* Our raw offsets agree with libibmad for every field it has. */
static void test_offsets_match_libibmad(void **state)
{
	struct fabric_portinfo pi;
	uint8_t b[64];

	(void)state;
	build(b, &xdr_at_ndr);
	fabric_portinfo_parse(b, &pi);
	assert_int_equal(mad_get_field(b, 0, IB_PORT_CAPMASK_F), pi.cap_mask);
	assert_int_equal(mad_get_field(b, 0, IB_PORT_CAPMASK2_F), pi.cap_mask2);
	assert_int_equal(mad_get_field(b, 0, IB_PORT_STATE_F), pi.state);
	assert_int_equal(mad_get_field(b, 0, IB_PORT_PHYS_STATE_F),
			 pi.phys_state);
	assert_int_equal(mad_get_field(b, 0, IB_PORT_LINK_WIDTH_ACTIVE_F),
			 pi.width_active);
	assert_int_equal(mad_get_field(b, 0, IB_PORT_LINK_WIDTH_ENABLED_F),
			 pi.width_enabled);
	assert_int_equal(mad_get_field(b, 0, IB_PORT_LINK_SPEED_ACTIVE_F),
			 pi.speed_active);
	assert_int_equal(mad_get_field(b, 0, IB_PORT_LINK_SPEED_ENABLED_F),
			 pi.speed_enabled);
	assert_int_equal(mad_get_field(b, 0, IB_PORT_LINK_SPEED_EXT_ACTIVE_F),
			 pi.ext_active);
	assert_int_equal(mad_get_field(b, 0, IB_PORT_LINK_SPEED_EXT_ENABLED_F),
			 pi.ext_enabled);
	/* the XDR byte (56) is where RoundTrip's top byte was reserved */
	assert_int_equal(0, pi.ext2_active);
	assert_int_equal(1, pi.ext2_enabled);
	assert_int_equal(0, mad_get_field(b, 0, IB_PORT_LINK_ROUND_TRIP_F));
}

/*
 * The public byte fixture that a PortInfo decoder pins against rdma-core's
 * newer libibmad: byte 56 = 0x52 holds LinkSpeedExtActive2,
 * LinkSpeedExtSupported2 and LinkSpeedExtEnabled2 = 2 each.
 */
static void test_xdr_byte_layout(void **state)
{
	struct fabric_portinfo pi;
	uint8_t b[64] = { 0 };

	(void)state;
	b[56] = 0x52;
	b[62] = 0x88;
	b[63] = 0x1f;
	fabric_portinfo_parse(b, &pi);
	assert_int_equal(2, pi.ext2_active);
	assert_int_equal(2, pi.ext2_enabled);
	assert_int_equal(8, pi.ext_active);
	assert_int_equal(31, pi.ext_enabled);
}

static void test_speeds(void **state)
{
	struct fabric_port p;
	struct image no_cap2 = xdr, down = xdr;

	(void)state;
	decode(&ndr, &p);
	assert_int_equal(IB_SPEED_NDR, p.speed);
	assert_int_equal(4, p.width);
	assert_float_equal(400.0, ib_data_rate_gbps(p.speed, p.width), 1e-9);
	assert_false(p.speed_enabled & (1u << IB_SPEED_XDR));

	decode(&xdr, &p);
	assert_int_equal(IB_SPEED_XDR, p.speed);
	assert_float_equal(800.0, ib_data_rate_gbps(p.speed, p.width), 1e-9);
	assert_true(p.speed_enabled & (1u << IB_SPEED_XDR));
	assert_int_equal(IB_SPEED_XDR, fabric_best_of_mask(p.speed_enabled));

	decode(&xdr_at_ndr, &p);
	assert_int_equal(IB_SPEED_NDR, p.speed);
	assert_float_equal(400.0, ib_data_rate_gbps(p.speed, p.width), 1e-9);
	assert_true(p.speed_enabled & (1u << IB_SPEED_XDR));

	/* without IsExtendedSpeeds2Supported the XDR fields are not read */
	no_cap2.cap2 = 0;
	decode(&no_cap2, &p);
	assert_int_equal(IB_SPEED_UNKNOWN, p.speed);
	assert_false(p.speed_enabled & (1u << IB_SPEED_XDR));

	down.state = 1;
	down.phys = 2;
	decode(&down, &p);
	assert_int_equal(0, p.speed);
	assert_int_equal(0, p.width);
}

/* A switch's external ports: the capability masks come from port 0. */
static void test_switch_caps_from_port0(void **state)
{
	struct image ext = xdr, port0 = xdr;
	uint8_t b[64], b0[64];
	struct fabric_port p;

	(void)state;
	ext.cap = 0;
	ext.cap2 = 0;
	build(b, &ext);
	build(b0, &port0);
	memset(&p, 0, sizeof(p));
	fabric_portinfo_decode(b, b0, &p);
	assert_int_equal(IB_SPEED_XDR, p.speed);
}

/* One XDR switch, four HCAs: three links at XDR, one trained at NDR. */
static void test_ndr_beside_xdr_is_degraded(void **state)
{
	struct fabric *f = fabric_new();
	struct fabric_node *sw, *ca;
	struct fabric_findings out = { 0 };
	uint8_t b[64], b0[64];
	char desc[16];

	(void)state;
	assert_non_null(f);
	sw = fabric_add_node(f, 0x100, FABRIC_NODE_SWITCH, "leaf1", 4);
	assert_non_null(sw);
	build(b0, &xdr);
	for (int i = 1; i <= 4; i++) {
		const struct image *im = i == 3 ? &xdr_at_ndr : &xdr;

		snprintf(desc, sizeof(desc), "h%d mlx5_0", i);
		ca = fabric_add_node(f, 0x300 + i, FABRIC_NODE_CA, desc, 1);
		assert_non_null(ca);
		build(b, im);
		fabric_portinfo_decode(b, b0, &sw->ports[i]);
		fabric_portinfo_decode(b, b, &ca->ports[1]);
		assert_int_equal(0,
				 fabric_connect(&sw->ports[i], &ca->ports[1]));
	}
	assert_int_equal(0, fabric_model_check(f, &out));
	assert_int_equal(1, out.n);
	assert_string_equal("degraded-speed", out.v[0].category);
	assert_non_null(strstr(out.v[0].message, "leaf1 port 3"));
	assert_non_null(strstr(out.v[0].message, "expected XDR"));
	fabric_findings_free(&out);
	fabric_free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_offsets_match_libibmad),
		cmocka_unit_test(test_xdr_byte_layout),
		cmocka_unit_test(test_speeds),
		cmocka_unit_test(test_switch_caps_from_port0),
		cmocka_unit_test(test_ndr_beside_xdr_is_degraded),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
