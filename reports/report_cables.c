// SPDX-License-Identifier: MIT
/*
 * The per-cable view (issue 35): each cable with the window its counters
 * covered, the bits it carried each way, the errors counted and the BER
 * they make, and the BER before FEC where a `transceiver` record carries
 * it (`fabric cables --from-mlxlink`, ibdiagnet's PHY tables). Figures
 * are joined to a cable by its ends (node GUID and port, or the CA's port
 * GUID), the join the disable list uses for modules. A figure not read is
 * said to be not read: never a blank, never a zero.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/array.h"
#include "common/record.h"
#include "reports/report.h"

static bool lookup(const struct hashmap *m, const struct report_end *e,
		   uint64_t *idx)
{
	return e->guid && hashmap_get(m, report_end_key(e->guid, e->port), idx);
}

const struct report_window *report_window_at(const struct report *r,
					     const struct report_end *e)
{
	uint64_t i;

	return lookup(&r->window_by_end, e, &i) ? &r->windows[i] : NULL;
}

const struct report_phy *report_phy_at(const struct report *r,
				       const struct report_end *e)
{
	uint64_t i;

	return lookup(&r->phy_by_end, e, &i) ? &r->phys[i] : NULL;
}

/* --- text ---------------------------------------------------------- */

static void put_bits(struct report_buf *b, const char *what, double bits)
{
	if (isnan(bits))
		report_buf_printf(b, "%s: not known", what);
	else
		report_buf_printf(b, "%s %.3g bits", what, bits);
}

static void window_span(struct report_buf *b, const struct report_window *w)
{
	if (!w->mode) {
		report_buf_puts(b, "values as read (the record has no window)");
		return;
	}
	if (!strcmp(w->mode, "since-clear"))
		report_buf_puts(b, "since the last clear");
	else if (!strcmp(w->mode, "baseline"))
		report_buf_puts(b, "since the baseline");
	else if (!strcmp(w->mode, "window"))
		report_buf_puts(b, "window");
	else /* a mode this report does not know: as the record said */
		report_buf_printf(b, "window (mode %s)", w->mode);
	if (!isnan(w->seconds))
		report_buf_printf(b, " %.3g s", w->seconds);
	if (w->start)
		report_buf_printf(b, " from %s to %s", w->start,
				  w->end ? w->end : "an end not said");
	else if (w->end)
		report_buf_printf(b, ", read at %s", w->end);
}

static void window_error_list(struct report_buf *b,
			      const struct report_window *w)
{
	int n = 0;

	if (!w->errors_known) {
		report_buf_puts(b, "errors: not read");
		return;
	}
	for (int i = 0; i < IB_PC_COUNT; i++) {
		if (!(w->errors_known & (1u << i)) || !w->errors[i])
			continue;
		report_buf_printf(b, "%s%s %s%llu",
				  n++ ? ", " : "errors: ", ib_pc_defs[i].name,
				  w->errors_saturated & (1u << i) ? "at least "
								  : "",
				  (unsigned long long)w->errors[i]);
	}
	if (!n)
		report_buf_puts(b, "errors: none");
}

static void window_ber(struct report_buf *b, const struct report_window *w)
{
	if (isnan(w->ber_bits) || isnan(w->ber)) {
		/* fabric counters judged such a window by count */
		report_buf_puts(b, w->mode ? "BER: not known (no bits counted; "
					     "judged by count)"
					   : "BER: not known (no bits in the "
					     "record)");
		return;
	}
	report_buf_printf(b, "BER %.2g over %.3g bits", w->ber, w->ber_bits);
	if (!isnan(w->ber_limit))
		report_buf_printf(b, " (limit %.2g)", w->ber_limit);
}

void report_window_text(struct report_buf *b, const struct report_window *w)
{
	if (!w) {
		report_buf_puts(b, "counters not read");
		return;
	}
	window_span(b, w);
	report_buf_puts(b, ": ");
	put_bits(b, "sent", w->xmit_bits);
	report_buf_puts(b, ", ");
	put_bits(b, "received", w->rcv_bits);
	report_buf_puts(b, "; ");
	window_error_list(b, w);
	report_buf_puts(b, "; ");
	window_ber(b, w);
}

static void phy_figure(struct report_buf *b, const char *what, double v,
		       bool *first)
{
	report_buf_puts(b, *first ? ": " : ", ");
	*first = false;
	if (isnan(v))
		report_buf_printf(b, "%s not read", what);
	else
		report_buf_printf(b, "%s %.2g", what, v);
}

void report_phy_text(struct report_buf *b, const struct report_phy *p)
{
	bool first = true;

	if (!p) {
		report_buf_puts(b, "BER before FEC: not read");
		return;
	}
	report_buf_printf(b, "BER before FEC (%s",
			  p->source ?: "source unknown");
	if (p->speed && strcmp(p->speed, "unknown"))
		report_buf_printf(b, ", %s", p->speed);
	else
		report_buf_puts(b, ", speed not said");
	if (!isnan(p->minutes))
		report_buf_printf(b, ", over %.10g min", p->minutes);
	report_buf_puts(b, ")");
	phy_figure(b, "raw", p->raw, &first);
	phy_figure(b, "effective", p->effective, &first);
	phy_figure(b, "symbol", p->symbol, &first);
	if (!isnan(p->symbol_errors))
		report_buf_printf(b, " (%.0f symbol errors)", p->symbol_errors);
	else if (!isnan(p->effective_errors))
		report_buf_printf(b, " (%.0f effective errors)",
				  p->effective_errors);
}

/* --- rows ---------------------------------------------------------- */

static bool window_notable(const struct report_window *w)
{
	for (int i = 0; w && i < IB_PC_COUNT; i++)
		if ((w->errors_known & (1u << i)) && w->errors[i])
			return true;
	return false;
}

/* Which windows and phys a row took already. */
struct rows_used {
	bool *window, *phy;
};

static int row_add(struct report *r, struct rows_used *used,
		   const struct report_end *a, const struct report_end *b)
{
	struct report_cable_row *row;
	const struct report_end *ends[2] = { a, b };
	uint64_t idx;
	bool any = false;

	if (array_reserve(&r->cable_rows, &r->cap_cable_rows, r->n_cable_rows,
			  sizeof(*row)))
		return -ENOMEM;
	row = memset(&r->cable_rows[r->n_cable_rows], 0, sizeof(*row));
	row->a = *a;
	if (b)
		row->b = *b;
	for (int k = 0; k < 2; k++) {
		row->window[k] = row->phy[k] = -1;
		if (!ends[k])
			continue;
		if (lookup(&r->window_by_end, ends[k], &idx)) {
			row->window[k] = (int)idx;
			row->notable |= window_notable(&r->windows[idx]);
			used->window[idx] = any = true;
		}
		if (lookup(&r->phy_by_end, ends[k], &idx)) {
			row->phy[k] = (int)idx;
			row->notable = any = true;
			used->phy[idx] = true;
		}
	}
	if (!any)
		return 0; /* nothing read on it: not a row */
	r->n_cable_notable += row->notable;
	r->n_cable_rows++;
	return 0;
}

static int end_cmp(const struct report_end *a, const struct report_end *b)
{
	const char *na = a->name ?: a->host ?: "", *nb = b->name ?: b->host ?: "";
	int c = strcmp(na, nb);

	if (c)
		return c;
	c = strcmp(a->ca ?: "", b->ca ?: "");
	if (c)
		return c;
	if (a->port != b->port)
		return a->port < b->port ? -1 : 1;
	return a->guid < b->guid ? -1 : a->guid > b->guid;
}

static int row_cmp(const void *x, const void *y)
{
	const struct report_cable_row *a = x, *b = y;

	return end_cmp(&a->a, &b->a) ?: end_cmp(&a->b, &b->b);
}

/* Both ends in one order, so a cable reads the same from any record. */
static void orient(struct report_end *a, struct report_end *b)
{
	struct report_end t;

	if (end_cmp(a, b) <= 0)
		return;
	t = *a;
	*a = *b;
	*b = t;
}

static int link_rows(struct report *r, struct rows_used *used)
{
	for (size_t i = 0; i < r->n_links; i++) {
		struct report_end a = r->links[i].a, b = r->links[i].b;
		int ret;

		report_end_alias(r, &a);
		report_end_alias(r, &b);
		orient(&a, &b);
		ret = row_add(r, used, &a, &b);
		if (ret)
			return ret;
	}
	return 0;
}

/* Ports read that no link names: a row each, its far end not known. */
static int orphan_rows(struct report *r, struct rows_used *used)
{
	int ret = 0;

	uint64_t idx;

	/* a port read twice: the later read is the one its key holds */
	for (size_t i = 0; !ret && i < r->n_windows; i++)
		if (!used->window[i] &&
		    lookup(&r->window_by_end, &r->windows[i].at, &idx) &&
		    idx == i)
			ret = row_add(r, used, &r->windows[i].at, NULL);
	for (size_t i = 0; !ret && i < r->n_phys; i++)
		if (!used->phy[i] &&
		    lookup(&r->phy_by_end, &r->phys[i].at, &idx) && idx == i)
			ret = row_add(r, used, &r->phys[i].at, NULL);
	return ret;
}

int report_cable_rows_build(struct report *r)
{
	struct rows_used used = {
		.window = calloc(r->n_windows + 1, sizeof(bool)),
		.phy = calloc(r->n_phys + 1, sizeof(bool)),
	};
	int ret = -ENOMEM;

	if (used.window && used.phy)
		ret = link_rows(r, &used) ?: orphan_rows(r, &used);
	free(used.window);
	free(used.phy);
	if (!ret && r->n_cable_rows)
		qsort(r->cable_rows, r->n_cable_rows, sizeof(*r->cable_rows),
		      row_cmp);
	return ret;
}

/* --- JSON ---------------------------------------------------------- */

static json_t *num_or_null(double v)
{
	return isnan(v) ? json_null() : json_real(v);
}

static json_t *window_json(const struct report_window *w)
{
	json_t *o, *e;

	if (!w)
		return json_null();
	o = json_pack("{s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:o}", "mode",
		      w->mode ? json_string(w->mode) : json_null(), "start",
		      w->start ? json_string(w->start) : json_null(), "end",
		      w->end ? json_string(w->end) : json_null(), "seconds",
		      num_or_null(w->seconds), "xmit_bits",
		      num_or_null(w->xmit_bits), "rcv_bits",
		      num_or_null(w->rcv_bits), "ber_bits",
		      num_or_null(w->ber_bits), "ber", num_or_null(w->ber),
		      "ber_limit", num_or_null(w->ber_limit));
	e = w->errors_known ? json_object() : json_null();
	for (int i = 0; e && json_is_object(e) && i < IB_PC_COUNT; i++)
		if (w->errors_known & (1u << i))
			json_object_set_new(
				e, ib_pc_defs[i].name,
				json_integer(
					(json_int_t)(w->errors[i] > INT64_MAX
							     ? INT64_MAX
							     : w->errors[i])));
	if (o)
		json_object_set_new(o, "errors", e);
	else
		json_decref(e);
	return o;
}

static json_t *phy_json(const struct report_phy *p)
{
	if (!p)
		return json_null();
	return json_pack(
		"{s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:o}", "source",
		p->source ? json_string(p->source) : json_null(), "speed",
		p->speed ? json_string(p->speed) : json_null(), "raw",
		num_or_null(p->raw), "effective", num_or_null(p->effective),
		"symbol", num_or_null(p->symbol), "effective_errors",
		num_or_null(p->effective_errors), "symbol_errors",
		num_or_null(p->symbol_errors), "minutes",
		num_or_null(p->minutes));
}

json_t *report_cable_rows_json(const struct report *r)
{
	json_t *rows = json_array();

	for (size_t i = 0; rows && i < r->n_cable_rows; i++) {
		const struct report_cable_row *row = &r->cable_rows[i];
		const struct report_window *w[2];
		const struct report_phy *p[2];

		for (int k = 0; k < 2; k++) {
			w[k] = row->window[k] >= 0 ? &r->windows[row->window[k]]
						   : NULL;
			p[k] = row->phy[k] >= 0 ? &r->phys[row->phy[k]] : NULL;
		}
		json_array_append_new(
			rows,
			json_pack("{s:o,s:o,s:o,s:o,s:o,s:o,s:b}", "a",
				  report_end_json(&row->a), "b",
				  report_end_json(&row->b), "a_counters",
				  window_json(w[0]), "b_counters",
				  window_json(w[1]), "a_ber_before_fec",
				  phy_json(p[0]), "b_ber_before_fec",
				  phy_json(p[1]), "notable", row->notable));
	}
	return rows;
}
