/* SPDX-License-Identifier: MIT */
/*
 * fabric_portinfo.h: the SMP attributes the model needs, decoded from their
 * raw bytes (big-endian, as on the wire and in ibnd's info[] buffers). Pure;
 * no libibmad: Debian 12's libibmad (rdma-core 44) has no field for the
 * XDR speeds (LinkSpeedExtActive2 and friends).
 */
#ifndef IBPROOF_FABRIC_PORTINFO_H
#define IBPROOF_FABRIC_PORTINFO_H

#include <stdint.h>

#include "fabric/fabric_model.h"

/* PortInfo (attribute 0x15) fields, raw codes. */
struct fabric_portinfo {
	uint32_t cap_mask; /* CapabilityMask */
	uint16_t cap_mask2; /* CapabilityMask2 */
	uint8_t state, phys_state;
	uint8_t width_enabled, width_active; /* codes: 1 1x, 2 4x, ... */
	uint8_t speed_enabled, speed_active; /* 1 SDR, 2 DDR, 4 QDR */
	uint8_t ext_enabled, ext_active; /* 1 FDR, 2 EDR, 4 HDR, 8 NDR */
	uint8_t ext2_enabled, ext2_active; /* 1 XDR */
};

/* CapabilityMask bit 14: IsExtendedSpeedsSupported. */
#define FABRIC_PI_CAP_EXT_SPEEDS (1u << 14)
/* CapabilityMask2 bit 11: IsExtendedSpeeds2Supported (XDR). */
#define FABRIC_PI_CAP2_EXT_SPEEDS2 (1u << 11)

/* The fields of a 64-byte PortInfo image. */
void fabric_portinfo_parse(const uint8_t *info, struct fabric_portinfo *pi);

/*
 * Fills p's state, phys_state, active width and speed and the enabled
 * masks from PortInfo info. cap_info: the PortInfo holding the capability
 * masks (a switch's port 0: both are reserved on its external ports; an
 * HCA's own port). The extended speeds count only where CapabilityMask
 * says so, XDR only where CapabilityMask2 does; a port not up has width
 * and speed 0.
 */
void fabric_portinfo_decode(const uint8_t *info, const uint8_t *cap_info,
			    struct fabric_port *p);

/* NodeInfo (attribute 0x11): DeviceID (0xd2f0 for Quantum-2). */
uint16_t fabric_nodeinfo_device_id(const uint8_t *info);
/* NodeInfo VendorID (24 bits; 0x02c9 Mellanox/NVIDIA). */
uint32_t fabric_nodeinfo_vendor_id(const uint8_t *info);

#endif
