// SPDX-License-Identifier: MIT
/*
 * mad_ops.c: every libibmad (mad_*, pma_*) call of ibproof. Decodes raw
 * SMP data for ibnd_ops.c and reads PMA counters (LID-routed: an SM must
 * have assigned LIDs).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <infiniband/mad.h>

#include "common/log.h"
#include "fabric_ops.h"

#define PORT_CAP_EXT_SPEEDS (1u << 14)	/* PortInfo IsExtendedSpeedsSupported */
#define PM_CAP_EXT_WIDTH (1u << 9)	/* ClassPortInfo: PortCountersExtended */
#define PM_CAP_EXT_NOIETF (1u << 10)

struct fabric_pma {
	struct ibmad_port *port;
	unsigned timeout_ms;
};

static uint16_t width_mask(unsigned codes)
{
	uint16_t mask = 0;
	unsigned bit;

	for (bit = 1; bit <= 16; bit <<= 1)
		if (codes & bit)
			mask |= 1u << ib_width_lanes_from_code((int)bit);
	return mask;
}

static uint16_t speed_mask(unsigned speeds, unsigned ext)
{
	uint16_t mask = 0;
	unsigned bit;

	for (bit = 1; bit <= 4; bit <<= 1)
		if (speeds & bit)
			mask |= 1u << ib_speed_from_mad((int)bit, 0, 0);
	for (bit = 1; bit <= 8; bit <<= 1)
		if (ext & bit)
			mask |= 1u << ib_speed_from_mad(0, (int)bit, 0);
	return mask;
}

/* cap_info: PortInfo holding the CapabilityMask (a switch's port 0; the
 * field is reserved on switch external ports). */
void fabric_mad_decode_portinfo(const uint8_t *info, const uint8_t *cap_info,
				struct fabric_port *p)
{
	void *pi = (void *)info;
	unsigned cap = mad_get_field((void *)cap_info, 0, IB_PORT_CAPMASK_F);
	unsigned ext_act = 0, ext_ena = 0;

	if (cap & PORT_CAP_EXT_SPEEDS) {
		ext_act = mad_get_field(pi, 0, IB_PORT_LINK_SPEED_EXT_ACTIVE_F);
		ext_ena = mad_get_field(pi, 0, IB_PORT_LINK_SPEED_EXT_ENABLED_F);
	}
	p->valid = true;
	p->state = (uint8_t)mad_get_field(pi, 0, IB_PORT_STATE_F);
	p->phys_state = (uint8_t)mad_get_field(pi, 0, IB_PORT_PHYS_STATE_F);
	p->width = (uint8_t)ib_width_lanes_from_code(
		(int)mad_get_field(pi, 0, IB_PORT_LINK_WIDTH_ACTIVE_F));
	p->speed = (uint8_t)ib_speed_from_mad(
		(int)mad_get_field(pi, 0, IB_PORT_LINK_SPEED_ACTIVE_F),
		(int)ext_act, 0);
	p->width_enabled = width_mask(
		mad_get_field(pi, 0, IB_PORT_LINK_WIDTH_ENABLED_F));
	p->speed_enabled = speed_mask(
		mad_get_field(pi, 0, IB_PORT_LINK_SPEED_ENABLED_F), ext_ena);
	if (p->state <= FABRIC_STATE_DOWN) {
		p->width = 0;
		p->speed = 0;
	}
}

static int pma_open(const char *ca, int port, unsigned timeout_ms,
		    struct fabric_pma **out)
{
	int classes[] = { IB_SMI_CLASS, IB_SMI_DIRECT_CLASS, IB_SA_CLASS,
			  IB_PERFORMANCE_CLASS };
	struct fabric_pma *h = calloc(1, sizeof(*h));

	if (!h)
		return -ENOMEM;
	h->port = mad_rpc_open_port((char *)ca, port, classes, 4);
	if (!h->port) {
		log_error("%s port %d: mad_rpc_open_port failed: %m",
			  ca ? ca : "first CA", port);
		free(h);
		return -EIO;
	}
	h->timeout_ms = timeout_ms;
	if (timeout_ms)
		mad_rpc_set_timeout(h->port, (int)timeout_ms);
	*out = h;
	return 0;
}

static int pma_class_info(struct fabric_pma *h, uint16_t lid, bool *ext)
{
	uint8_t buf[1024] = { 0 };
	ib_portid_t id = { 0 };
	unsigned cap;

	ib_portid_set(&id, lid, 0, 0);
	if (!pma_query_via(buf, &id, 0, h->timeout_ms, CLASS_PORT_INFO,
			   h->port))
		return -ETIMEDOUT;
	mad_decode_field(buf, IB_CPI_CAPMASK_F, &cap);
	*ext = cap & (PM_CAP_EXT_WIDTH | PM_CAP_EXT_NOIETF);
	return 0;
}

static const int pc_fields[FABRIC_PC_COUNT] = {
	IB_PC_ERR_SYM_F, IB_PC_LINK_RECOVERS_F, IB_PC_LINK_DOWNED_F,
	IB_PC_ERR_RCV_F, IB_PC_ERR_PHYSRCV_F, IB_PC_ERR_SWITCH_REL_F,
	IB_PC_XMT_DISCARDS_F, IB_PC_ERR_XMTCONSTR_F, IB_PC_ERR_RCVCONSTR_F,
	IB_PC_ERR_LOCALINTEG_F, IB_PC_ERR_EXCESS_OVR_F, IB_PC_VL15_DROPPED_F,
	IB_PC_XMT_WAIT_F, IB_PC_XMT_BYTES_F, IB_PC_RCV_BYTES_F,
	IB_PC_XMT_PKTS_F, IB_PC_RCV_PKTS_F,
};

static const int pc_ext_fields[] = {
	IB_PC_EXT_XMT_BYTES_F, IB_PC_EXT_RCV_BYTES_F, IB_PC_EXT_XMT_PKTS_F,
	IB_PC_EXT_RCV_PKTS_F,
};

static int pma_query(struct fabric_pma *h, uint16_t lid, int port, bool ext,
		     struct fabric_pc *out)
{
	uint8_t buf[1024] = { 0 };
	ib_portid_t id = { 0 };
	uint32_t v32;
	int i;

	ib_portid_set(&id, lid, 0, 0);
	if (!pma_query_via(buf, &id, port, h->timeout_ms,
			   IB_GSI_PORT_COUNTERS, h->port))
		return -ETIMEDOUT;
	for (i = 0; i < FABRIC_PC_COUNT; i++) {
		v32 = 0;
		mad_decode_field(buf, pc_fields[i], &v32);
		out->v[i] = v32;
	}
	out->ext = false;
	if (!ext)
		return 0;
	memset(buf, 0, sizeof(buf));
	if (!pma_query_via(buf, &id, port, h->timeout_ms,
			   IB_GSI_PORT_COUNTERS_EXT, h->port))
		return -ETIMEDOUT;
	for (i = 0; i < 4; i++)
		mad_decode_field(buf, pc_ext_fields[i],
				 &out->v[FABRIC_PC_XMIT_DATA + i]);
	out->ext = true;
	return 0;
}

static int pma_reset(struct fabric_pma *h, uint16_t lid, int port, bool ext)
{
	uint8_t buf[1024] = { 0 };
	ib_portid_t id = { 0 };

	ib_portid_set(&id, lid, 0, 0);
	if (!performance_reset_via(buf, &id, port, 0xffffffff, h->timeout_ms,
				   IB_GSI_PORT_COUNTERS, h->port))
		return -ETIMEDOUT;
	memset(buf, 0, sizeof(buf));
	if (ext && !performance_reset_via(buf, &id, port, 0xffffffff,
					  h->timeout_ms,
					  IB_GSI_PORT_COUNTERS_EXT, h->port))
		return -ETIMEDOUT;
	return 0;
}

static void pma_close(struct fabric_pma *h)
{
	if (!h)
		return;
	mad_rpc_close_port(h->port);
	free(h);
}

const struct fabric_pma_ops fabric_mad_pma_ops = {
	.open = pma_open,
	.class_info = pma_class_info,
	.query = pma_query,
	.reset = pma_reset,
	.close = pma_close,
};
