// SPDX-License-Identifier: MIT
/*
 * A port end of the report (an HCA port, or a switch port with its cage
 * alias) as text ("leaf01 port 5 (cage 3/1)", "node03 mlx5_0 port 1") and
 * as a JSON port reference with that location. The lowest of the report's
 * formatters: the text, JSON, HTML and per-cable views all name ends here.
 */
#include "common/record.h"
#include "reports/report.h"

void report_end_text(struct report_buf *b, const struct report_end *e)
{
	char g[19];

	if (e->type == 'c' && e->host) {
		report_buf_printf(b, "%s %s port %d", e->host,
				  e->ca ? e->ca : "?", e->port);
		return;
	}
	if (!e->type && !e->name && !e->guid) {
		report_buf_puts(b, "unknown");
		return;
	}
	report_buf_printf(b, "%s port %d",
			  e->name ? e->name : record_guid_str(e->guid, g),
			  e->port);
	if (e->alias)
		report_buf_printf(b, " (cage %s)", e->alias);
}

json_t *report_end_json(const struct report_end *e)
{
	struct report_buf loc = { 0 };
	json_t *o;

	if (!e->type && !e->guid && !e->name)
		return json_null();
	if (e->type == 'c' && e->host) {
		o = record_port_ref(e->host, e->ca ? e->ca : "", e->port,
				    e->guid);
	} else {
		o = record_switch_port_ref(e->name ? e->name : "", e->guid,
					   e->port);
		if (o && e->alias)
			json_object_set_new(o, "alias", json_string(e->alias));
	}
	report_end_text(&loc, e);
	if (o && loc.s)
		json_object_set_new(o, "location", json_string(loc.s));
	report_buf_free(&loc);
	return o;
}
