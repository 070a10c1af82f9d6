// SPDX-License-Identifier: MIT
/*
 * fabric_portinfo.c: PortInfo and NodeInfo from their raw bytes. Offsets
 * (byte, bits from the most significant) are the IBTA's, as libibmad's
 * field table gives them (libibmad/fields.c: PortInfo CapMask bit 160,
 * LinkWidthEnabled 232 .. LinkSpeedEnabled 284, CapabilityMask2 480,
 * LinkSpeedExtActive 496, LinkSpeedExtEnabled 507) and, for the XDR fields
 * rdma-core 44 lacks, NVIDIA ibutils2's ibis packet layout (SMP_PortInfo,
 * dword 14: LinkSpeedExtActive2 at bit offset 449 (2 bits),
 * LinkSpeedExtSupported2 at 451 (2), LinkSpeedExtEnabled2 at 453 (3)) and
 * its IsExtendedSpeeds2Supported check (CapabilityMask2 & 0x800).
 */
#include "fabric/fabric_portinfo.h"

static uint32_t be32(const uint8_t *b)
{
	return (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 |
	       (uint32_t)b[2] << 8 | b[3];
}

void fabric_portinfo_parse(const uint8_t *info, struct fabric_portinfo *pi)
{
	*pi = (struct fabric_portinfo){
		.cap_mask = be32(info + 20),
		.width_enabled = info[29],
		.width_active = info[31],
		.state = info[32] & 0xf,
		.phys_state = info[33] >> 4,
		.speed_active = info[35] >> 4,
		.speed_enabled = info[35] & 0xf,
		.ext2_active = (info[56] >> 5) & 0x3,
		.ext2_enabled = info[56] & 0x7,
		.cap_mask2 = (uint16_t)(info[60] << 8 | info[61]),
		.ext_active = info[62] >> 4,
		.ext_enabled = info[63] & 0x1f,
	};
}

static uint16_t width_mask(unsigned codes)
{
	uint16_t mask = 0;

	for (unsigned bit = 1; bit <= 16; bit <<= 1)
		if (codes & bit)
			mask |= 1u << ib_width_lanes_from_code((int)bit);
	return mask;
}

/* 1 << enum ib_speed of each speed the codes enable. */
static uint16_t speed_mask(unsigned speeds, unsigned ext, unsigned ext2)
{
	uint16_t mask = 0;
	unsigned bit;

	for (bit = 1; bit <= 4; bit <<= 1)
		if (speeds & bit)
			mask |= 1u << ib_speed_from_mad((int)bit, 0, 0);
	for (bit = 1; bit <= 8; bit <<= 1)
		if (ext & bit)
			mask |= 1u << ib_speed_from_mad(0, (int)bit, 0);
	if (ext2 & 1)
		mask |= 1u << IB_SPEED_XDR;
	return mask;
}

void fabric_portinfo_decode(const uint8_t *info, const uint8_t *cap_info,
			    struct fabric_port *p)
{
	struct fabric_portinfo pi, cap;
	unsigned ext_act = 0, ext_ena = 0, ext2_act = 0, ext2_ena = 0;

	fabric_portinfo_parse(info, &pi);
	fabric_portinfo_parse(cap_info, &cap);
	if (cap.cap_mask & FABRIC_PI_CAP_EXT_SPEEDS) {
		ext_act = pi.ext_active;
		ext_ena = pi.ext_enabled;
	}
	if (cap.cap_mask2 & FABRIC_PI_CAP2_EXT_SPEEDS2) {
		ext2_act = pi.ext2_active;
		ext2_ena = pi.ext2_enabled;
	}
	p->valid = true;
	p->state = pi.state;
	p->phys_state = pi.phys_state;
	p->width = (uint8_t)ib_width_lanes_from_code(pi.width_active);
	/* rdma-core's aggregate: ExtActive2 above the 4 bits of ExtActive */
	p->speed = (uint8_t)ib_speed_from_mad(
		pi.speed_active, ext2_act & 1 ? 16 : (int)ext_act, 0);
	p->width_enabled = width_mask(pi.width_enabled);
	p->speed_enabled = speed_mask(pi.speed_enabled, ext_ena, ext2_ena);
	if (p->state <= IB_PORT_STATE_DOWN) {
		p->width = 0;
		p->speed = 0;
	}
}

uint16_t fabric_nodeinfo_device_id(const uint8_t *info)
{
	return (uint16_t)(info[30] << 8 | info[31]);
}

uint32_t fabric_nodeinfo_vendor_id(const uint8_t *info)
{
	return (uint32_t)info[37] << 16 | (uint32_t)info[38] << 8 | info[39];
}
