// SPDX-License-Identifier: MIT
/*
 * fabric_pma_decode.c: ClassPortInfo and PortCountersExtended from their
 * bytes (big-endian, as on the wire). Offsets in fabric_pma_decode.h.
 */
#include "fabric/fabric_pma_decode.h"

#define CPI_CAP_EXT_WIDTH (1u << 9)
#define CPI_CAP_EXT_NOIETF (1u << 10)
#define CPI_CAP2_ADDL_EXT (1u << 1)
#define EXT_DATA_OFFS 8 /* PortXmitData; then PortRcvData, the packets */
#define EXT_ERR_OFFS 72 /* SymbolErrorCounter; then in enum ib_pc order */

static uint64_t be64(const uint8_t *p)
{
	uint64_t v = 0;

	for (int i = 0; i < 8; i++)
		v = v << 8 | p[i];
	return v;
}

void fabric_pma_decode_cpi(const uint8_t *d, bool *ext, bool *ext_err)
{
	unsigned cap = (unsigned)d[2] << 8 | d[3];
	uint32_t w = (uint32_t)d[4] << 24 | (uint32_t)d[5] << 16 |
		     (uint32_t)d[6] << 8 | d[7];
	uint32_t cap2 = w >> 5; /* the low 5 bits: RespTimeValue */

	*ext = cap & (CPI_CAP_EXT_WIDTH | CPI_CAP_EXT_NOIETF);
	*ext_err = cap2 & CPI_CAP2_ADDL_EXT;
}

void fabric_pma_decode_ext(const uint8_t *d, bool errors, struct fabric_pc *out)
{
	for (int i = 0; i < 4; i++)
		out->v[IB_PC_XMIT_DATA + i] = be64(d + EXT_DATA_OFFS + 8 * i);
	out->ext = true;
	if (!errors)
		return;
	for (int i = 0; i <= IB_PC_XMIT_WAIT; i++)
		out->v[i] = be64(d + EXT_ERR_OFFS + 8 * i);
	out->ext_err = true;
}
