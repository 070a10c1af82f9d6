/* SPDX-License-Identifier: MIT */
/*
 * fabric_pma_decode.h: the PMA attributes ibproof decodes byte by byte
 * (pure; mad_ops.c hands it the data area of each answer, MAD offset 64):
 * ClassPortInfo's capability bits and PortCountersExtended, with its 64-bit
 * error counters where advertised. Offsets: IBTA Vol 1, 16.1.3.5
 * (ClassPortInfo) and 16.1.4.11 (PortCountersExtended); the same as
 * rdma-core libibmad/fields.c (IB_CPI_CAPMASK*_F, IB_PC_EXT_*_F and its
 * "More PortCountersExtended fields").
 */
#ifndef IBPROOF_FABRIC_PMA_DECODE_H
#define IBPROOF_FABRIC_PMA_DECODE_H

#include <stdbool.h>
#include <stdint.h>

#include "fabric/fabric_counters.h"

/* Bytes of a PMA attribute's data area that these read. */
#define FABRIC_PMA_DATA_LEN 192

/*
 * ClassPortInfo: ext when CapabilityMask (bytes 2-3) has bit 9
 * (IsExtendedWidthSupported) or 10 (...NoIETF): PortCountersExtended
 * answers; ext_err when CapabilityMask2 (the 27 bits after it, bytes 4-7)
 * has bit 1 (IsAdditionalPortCountersExtendedSupported): its 64-bit error
 * counters are valid.
 */
void fabric_pma_decode_cpi(const uint8_t *d, bool *ext, bool *ext_err);

/*
 * PortCountersExtended into out: the four 64-bit data and packet counters
 * (bytes 8, 16, 24, 32), and with errors the 64-bit error counters and
 * PortXmitWait (bytes 72 + 8 i, in enum ib_pc order). Sets out->ext and,
 * with errors, out->ext_err; leaves the other fields alone.
 */
void fabric_pma_decode_ext(const uint8_t *d, bool errors,
			   struct fabric_pc *out);

#endif
