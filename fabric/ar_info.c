// SPDX-License-Identifier: MIT
/*
 * AdaptiveRoutingInfo (SMP attribute 0xFF20, NVIDIA vendor range).
 *
 * The layout is NVIDIA's published one (ibutils2's ibis layouts,
 * struct adaptive_routing_info, 20 bytes). Its offsets are written
 * "dword.bit" with bit 0 the least significant bit of the big-endian
 * dword, so bit b of dword d is bit (b % 8) of byte 4*d + 3 - b/8:
 *   dword 0 bit 0        E: adaptive routing enabled
 *   dword 0 bit 27       BySLCap: the switch supports EnableBySLMask
 *   dword 0 bit 28       BySLEn: AR only for the SLs in EnableBySLMask
 *   dword 1 bits 0-11    GroupCap: AR groups per table (0 = AR not supported)
 *   dword 2 bits 16-31   EnableBySLMask (bytes 8-9, big-endian)
 *   dword 3 bits 0-7     ByTransportDisable: bit 0 UD, 1 RC, 2 UC, 3 DCT
 * Not checked against a live Quantum switch here (ibsim answers no vendor
 * attribute); the unit test pins these offsets (docs/fabric.md).
 */
#include <stdio.h>
#include <string.h>

#include "fabric/ar_info.h"

static unsigned bits(const uint8_t *d, int dword, int lo, int width)
{
	uint32_t v = (uint32_t)d[4 * dword] << 24 |
		     (uint32_t)d[4 * dword + 1] << 16 |
		     (uint32_t)d[4 * dword + 2] << 8 | d[4 * dword + 3];

	return (unsigned)(v >> lo) & ((1u << width) - 1);
}

void fabric_ar_decode(const uint8_t *data, struct fabric_ar *ar)
{
	memset(ar, 0, sizeof(*ar));
	ar->enabled = bits(data, 0, 0, 1);
	ar->by_sl = bits(data, 0, 28, 1);
	ar->capable = bits(data, 1, 0, 12) > 0;
	ar->sl_mask = ar->by_sl ? (uint16_t)bits(data, 2, 16, 16) : 0xffff;
	ar->transport_disable = (uint8_t)bits(data, 3, 0, 8);
	ar->state = ar->capable && ar->enabled ? FABRIC_AR_ON : FABRIC_AR_OFF;
}

void fabric_ar_unknown(struct fabric_ar *ar, const char *why)
{
	memset(ar, 0, sizeof(*ar));
	snprintf(ar->why, sizeof(ar->why), "%s", why ? why : "not read");
}

enum fabric_ar_state fabric_ar_for(const struct fabric_ar *ar, int sl,
				   int transport)
{
	if (ar->state != FABRIC_AR_ON)
		return (enum fabric_ar_state)ar->state;
	if (sl < 0 || sl > 15 || !(ar->sl_mask >> sl & 1))
		return FABRIC_AR_OFF;
	if (transport >= 0 && transport < 8 &&
	    ar->transport_disable >> transport & 1)
		return FABRIC_AR_OFF;
	return FABRIC_AR_ON;
}

const char *fabric_ar_state_name(uint8_t state)
{
	return state == FABRIC_AR_ON	? "on"
	       : state == FABRIC_AR_OFF ? "off"
					: "unknown";
}

static const char *const transport_names[] = { "UD", "RC", "UC", "DCT" };

static json_t *sl_list(uint16_t mask)
{
	json_t *a = json_array();

	for (int s = 0; a && s < 16; s++)
		if (mask >> s & 1 &&
		    json_array_append_new(a, json_integer(s))) {
			json_decref(a);
			return NULL;
		}
	return a;
}

static json_t *transport_list(uint8_t disable)
{
	json_t *a = json_array();

	for (int t = 0; a && t < 4; t++)
		if (disable >> t & 1 &&
		    json_array_append_new(a, json_string(transport_names[t]))) {
			json_decref(a);
			return NULL;
		}
	return a;
}

json_t *fabric_ar_json(const struct fabric_ar *ar)
{
	if (ar->state == FABRIC_AR_UNKNOWN)
		return NULL;
	return json_pack("{s:b, s:b, s:o*, s:o*}", "capable", ar->capable,
			 "enabled", ar->enabled, "sls", sl_list(ar->sl_mask),
			 "transports_excluded",
			 transport_list(ar->transport_disable));
}

static int decode_sls(const json_t *sls, uint16_t *mask)
{
	size_t i;
	json_t *v;

	*mask = 0;
	if (!json_is_array(sls))
		return -1;
	json_array_foreach(sls, i, v)
	{
		json_int_t s = json_integer_value(v);

		if (!json_is_integer(v) || s < 0 || s > 15)
			return -1;
		*mask |= (uint16_t)(1u << s);
	}
	return 0;
}

static int decode_transports(const json_t *list, uint8_t *disable)
{
	size_t i;
	json_t *v;

	*disable = 0;
	if (!list)
		return 0;
	if (!json_is_array(list))
		return -1;
	json_array_foreach(list, i, v)
	{
		int t;

		for (t = 0; t < 4; t++)
			if (json_is_string(v) &&
			    !strcmp(json_string_value(v), transport_names[t]))
				break;
		if (t == 4)
			return -1;
		*disable |= (uint8_t)(1u << t);
	}
	return 0;
}

int fabric_ar_from_json(const json_t *lft, struct fabric_ar *ar)
{
	const char *s =
		json_string_value(json_object_get(lft, "adaptive_routing"));
	const json_t *o = json_object_get(lft, "ar");

	fabric_ar_unknown(ar, "not read");
	if (!s || !strcmp(s, "unknown"))
		return 0;
	if (strcmp(s, "on") && strcmp(s, "off"))
		return -1;
	ar->state = !strcmp(s, "on") ? FABRIC_AR_ON : FABRIC_AR_OFF;
	ar->enabled = ar->state == FABRIC_AR_ON;
	ar->capable = ar->enabled;
	ar->sl_mask = 0xffff;
	if (!o)
		return 0;
	if (!json_is_object(o) ||
	    decode_sls(json_object_get(o, "sls"), &ar->sl_mask) ||
	    decode_transports(json_object_get(o, "transports_excluded"),
			      &ar->transport_disable))
		return -1;
	ar->capable = json_is_true(json_object_get(o, "capable"));
	ar->by_sl = ar->sl_mask != 0xffff;
	return 0;
}
