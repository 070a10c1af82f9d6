// SPDX-License-Identifier: MIT
/* xcvr_record.c: one module -> its `transceiver` record (jansson). */
#include <math.h>
#include <stdio.h>

#include "common/record.h"
#include "fabric/fabric_report.h"
#include "fabric/xcvr_judge.h"

static const char *const flag_names[4] = { "high_alarm", "low_alarm",
					   "high_warning", "low_warning" };

/* ["high_alarm", ...] for the set bits, or NULL when none. */
static json_t *flags_json(uint8_t flags)
{
	json_t *a;

	if (!flags)
		return NULL;
	a = json_array();
	for (int b = 0; a && b < 4; b++)
		if (flags & (1u << b))
			json_array_append_new(a, json_string(flag_names[b]));
	return a;
}

static json_t *round3(double v)
{
	return json_real(round(v * 1000.0) / 1000.0);
}

static json_t *lane_json(const struct xcvr_info *x, int l)
{
	json_t *o = json_object();

	if (!o)
		return NULL;
	json_object_set_new(o, "lane", json_integer(l + 1));
	if (x->has[XCVR_RX_POWER]) {
		json_object_set_new(o, "rx_power_mw",
				    round3(x->lane[XCVR_RX_POWER][l]));
		json_object_set_new(
			o, "rx_power_dbm",
			round3(xcvr_dbm(x->lane[XCVR_RX_POWER][l])));
	}
	if (x->has[XCVR_TX_BIAS])
		json_object_set_new(o, "tx_bias_ma",
				    round3(x->lane[XCVR_TX_BIAS][l]));
	if (x->has[XCVR_TX_POWER]) {
		json_object_set_new(o, "tx_power_mw",
				    round3(x->lane[XCVR_TX_POWER][l]));
		json_object_set_new(
			o, "tx_power_dbm",
			round3(xcvr_dbm(x->lane[XCVR_TX_POWER][l])));
	}
	if (x->has_rx_los)
		json_object_set_new(o, "rx_los",
				    json_boolean(x->rx_los & (1u << l)));
	for (int q = XCVR_RX_POWER; q < XCVR_NQTY; q++) {
		json_t *f = flags_json(x->flags[q][l]);
		char key[32];

		if (!f)
			continue;
		snprintf(key, sizeof(key), "%s_flags",
			 xcvr_qty_name((enum xcvr_qty)q));
		json_object_set_new(o, key, f);
	}
	return o;
}

static json_t *thresholds_json(const struct xcvr_info *x)
{
	json_t *o = json_object();

	for (int q = 0; o && q < XCVR_NQTY; q++) {
		const struct xcvr_thresh *t = &x->thresh[q];

		if (!t->valid)
			continue;
		json_object_set_new(
			o, xcvr_qty_name((enum xcvr_qty)q),
			json_pack("{s:o,s:o,s:o,s:o}", "high_alarm",
				  round3(t->high_alarm), "low_alarm",
				  round3(t->low_alarm), "high_warning",
				  round3(t->high_warn), "low_warning",
				  round3(t->low_warn)));
	}
	return o;
}

static void set_str(json_t *o, const char *key, const char *v)
{
	if (v && v[0])
		json_object_set_new(o, key, json_string(v));
}

static void module_fields(json_t *rec, const struct xcvr_info *x)
{
	json_t *lanes = json_array(), *mf;

	set_str(rec, "vendor", x->vendor);
	set_str(rec, "oui", x->oui);
	set_str(rec, "part_number", x->part_number);
	set_str(rec, "revision", x->revision);
	set_str(rec, "serial", x->serial);
	set_str(rec, "date_code", x->date_code);
	set_str(rec, "type", x->type);
	if (x->identifier)
		json_object_set_new(
			rec, "identifier",
			json_string(xcvr_identifier_name(x->identifier)));
	json_object_set_new(rec, "one_part", json_boolean(x->one_part));
	if (x->length_m > 0)
		json_object_set_new(rec, "length_m", round3(x->length_m));
	if (x->has[XCVR_TEMP])
		json_object_set_new(rec, "temperature_c", round3(x->temp_c));
	if (x->has[XCVR_VCC])
		json_object_set_new(rec, "vcc_v", round3(x->vcc_v));
	if ((mf = flags_json(x->flags[XCVR_TEMP][0])))
		json_object_set_new(rec, "temperature_flags", mf);
	if ((mf = flags_json(x->flags[XCVR_VCC][0])))
		json_object_set_new(rec, "vcc_flags", mf);
	for (int l = 0; lanes && l < x->lanes && l < XCVR_LANES; l++)
		if (x->has[XCVR_RX_POWER] || x->has[XCVR_TX_BIAS] ||
		    x->has[XCVR_TX_POWER] || x->has_rx_los)
			json_array_append_new(lanes, lane_json(x, l));
	json_object_set_new(rec, "lanes", lanes);
	json_object_set_new(rec, "thresholds", thresholds_json(x));
}

json_t *xcvr_record(const struct xcvr_port *p)
{
	const struct xcvr_info *x = &p->info;
	json_t *rec = record_new("transceiver");
	json_t *port = fabric_ref_json(&p->ref);

	if (!rec || !port || json_object_set_new(rec, "port", port)) {
		json_decref(rec);
		return NULL;
	}
	json_object_set_new(rec, "source",
			    json_string(x->source ? x->source : "unknown"));
	json_object_set_new(rec, "present", json_boolean(x->present));
	if (x->present)
		module_fields(rec, x);
	set_str(rec, "unreadable", x->why);
	return rec;
}
