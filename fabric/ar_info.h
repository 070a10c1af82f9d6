/* SPDX-License-Identifier: MIT */
/*
 * ar_info.h: a switch's adaptive routing as its AdaptiveRoutingInfo says
 * (NVIDIA vendor SMP attribute 0xFF20, read by directed route through
 * fabric_smp_ops.read_ar_info), and the one rule for "is a flow on this SL
 * and transport adaptively routed through this switch".
 */
#ifndef IBPROOF_FABRIC_AR_INFO_H
#define IBPROOF_FABRIC_AR_INFO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#define FABRIC_AR_ATTR 0xff20
#define FABRIC_AR_INFO_BYTES 20

enum fabric_ar_state {
	FABRIC_AR_UNKNOWN, /* not read, not answered, or refused */
	FABRIC_AR_OFF,
	FABRIC_AR_ON,
};

/* Transports of ByTransportDisable, bit numbers as the layout's. */
enum fabric_ar_transport {
	FABRIC_AR_UD = 0,
	FABRIC_AR_RC = 1,
	FABRIC_AR_UC = 2,
	FABRIC_AR_DCT = 3,
};

struct fabric_ar {
	uint8_t state; /* enum fabric_ar_state: UNKNOWN until decoded */
	bool capable; /* GroupCap > 0 */
	bool enabled; /* the E bit */
	bool by_sl; /* BySLEn: only the SLs of sl_mask */
	uint16_t sl_mask; /* bit s = SL s adaptive (all 16 when !by_sl) */
	uint8_t transport_disable; /* bit per enum fabric_ar_transport */
	char why[96]; /* UNKNOWN: why ("no answer", "MAD status 0x000c (...)") */
};

/* Decodes the attribute's first FABRIC_AR_INFO_BYTES into *ar. */
void fabric_ar_decode(const uint8_t *data, struct fabric_ar *ar);
/* Marks *ar unknown with a reason. */
void fabric_ar_unknown(struct fabric_ar *ar, const char *why);
/*
 * Whether a flow on `sl` over `transport` is routed adaptively by this
 * switch: ON (adaptive), OFF (the linear table is its path) or UNKNOWN.
 */
enum fabric_ar_state fabric_ar_for(const struct fabric_ar *ar, int sl,
				   int transport);
/* "unknown" | "off" | "on" (the lft record's adaptive_routing). */
const char *fabric_ar_state_name(uint8_t state);
/* The lft record's "ar" object; NULL when unknown (nothing was read). */
json_t *fabric_ar_json(const struct fabric_ar *ar);
/* Reads an lft record's "adaptive_routing"/"ar" back (routes files). */
int fabric_ar_from_json(const json_t *lft, struct fabric_ar *ar);

#endif
