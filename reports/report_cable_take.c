// SPDX-License-Identifier: MIT
/*
 * The per-cable view's figures as the records are read (issue 35): a
 * counters record's window (its bits, errors and BER) and a transceiver
 * record's BER before FEC, each kept by its port's keys (node GUID and
 * port, or the CA's port GUID) for reports/report_cables.c to join to the
 * cables. The caller (reports/report_ingest.c) resolves the port reference;
 * nothing here calls back into it.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/array.h"
#include "common/record.h"
#include "reports/report.h"

static const char *str_field(const json_t *o, const char *key)
{
	return json_string_value(json_object_get(o, key));
}

/* A figure of the record (bits, seconds, BER, counts), NAN when absent,
 * null or negative: no such figure is below zero. */
static double num_field(const json_t *o, const char *key)
{
	const json_t *v = json_object_get(o, key);
	double d = json_is_number(v) ? json_number_value(v) : NAN;

	return d >= 0 ? d : NAN;
}

/* Each error counter of obj ({Name: value}) into w; other keys (data,
 * packets, a driver's hw_counters) are not errors of the PMA's. */
static void window_errors(struct report_window *w, const json_t *obj)
{
	const char *name;
	const json_t *v;

	json_object_foreach((json_t *)obj, name, v)
	{
		/* IBTA names (fabric), or sysfs ones (`ibproof node`) */
		int id = ib_pc_index(name) >= 0 ? ib_pc_index(name)
						: ib_pc_sysfs_index(name);

		if (id < 0 || !ib_pc_defs[id].error || !json_is_integer(v) ||
		    json_integer_value(v) < 0)
			continue;
		w->errors[id] = (uint64_t)json_integer_value(v);
		w->errors_known |= 1u << id;
	}
}

static void window_saturated(struct report_window *w, const json_t *names)
{
	size_t i;
	const json_t *v;

	json_array_foreach(names, i, v)
	{
		int id = ib_pc_index(json_string_value(v) ?: "");

		if (id >= 0)
			w->errors_saturated |= 1u << id;
	}
}

/* Which of two reads of a port is kept: > 0 for the first, < 0 for the
 * second; 0 only when they say the same. */
typedef int read_cmp_fn(const struct report *r, uint64_t a, uint64_t b);

static int str_cmp(const char *a, const char *b)
{
	return strcmp(a ?: "", b ?: "");
}

/* Figures in a fixed order: NAN (not read) below any figure. */
static int num_cmp(const double *a, const double *b, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (isnan(a[i]) != isnan(b[i]))
			return isnan(a[i]) ? -1 : 1;
		if (!isnan(a[i]) && a[i] != b[i])
			return a[i] < b[i] ? -1 : 1;
	}
	return 0;
}

static int window_cmp(const struct report *r, uint64_t i, uint64_t j)
{
	const struct report_window *a = &r->windows[i], *b = &r->windows[j];
	const double fa[] = { a->seconds, a->xmit_bits, a->rcv_bits,
			      a->ber_bits, a->ber },
		     fb[] = { b->seconds, b->xmit_bits, b->rcv_bits,
			      b->ber_bits, b->ber };
	int c = str_cmp(a->stamp, b->stamp) ?: num_cmp(fa, fb, 5)
						     ?: str_cmp(a->mode, b->mode);

	for (int k = 0; !c && k < IB_PC_COUNT; k++)
		c = a->errors[k] < b->errors[k]	  ? -1
		    : a->errors[k] > b->errors[k] ? 1
						  : 0;
	return c;
}

static int phy_cmp(const struct report *r, uint64_t i, uint64_t j)
{
	const struct report_phy *a = &r->phys[i], *b = &r->phys[j];
	const double fa[] = { a->raw,		a->effective,
			      a->symbol,	a->effective_errors,
			      a->symbol_errors, a->minutes },
		     fb[] = { b->raw,		b->effective,
			      b->symbol,	b->effective_errors,
			      b->symbol_errors, b->minutes };

	return str_cmp(a->stamp, b->stamp) ?: num_cmp(fa, fb, 6)
		?: str_cmp(a->source, b->source) ?: str_cmp(a->speed, b->speed);
}

/*
 * A port read twice keeps its later read (by stamp, RFC 3339 UTC); of two
 * with the same stamp, the one with the larger figures (a fixed order of
 * them), so the view does not depend on which file or reading thread came
 * first.
 */
static int put_later(const struct report *r, struct hashmap *m, uint64_t key,
		     size_t idx, read_cmp_fn *cmp)
{
	uint64_t old;

	if (hashmap_get(m, key, &old) && old != idx && cmp(r, old, idx) >= 0)
		return 0;
	return hashmap_put(m, key, idx);
}

static int end_keys(const struct report *r, struct hashmap *m,
		    const json_t *ref, const struct report_end *e, size_t idx,
		    read_cmp_fn *cmp)
{
	uint64_t pg = 0;
	const char *s = str_field(ref, "port_guid");

	if (s && record_guid_parse(s, &pg))
		pg = 0;
	if (e->guid &&
	    put_later(r, m, report_end_key(e->guid, e->port), idx, cmp))
		return -ENOMEM;
	if (pg && pg != e->guid &&
	    put_later(r, m, report_end_key(pg, e->port), idx, cmp))
		return -ENOMEM;
	return 0;
}

int report_window_take(struct report *r, const json_t *rec,
		       const struct report_end *e)
{
	const json_t *ref = json_object_get(rec, "subject");
	const json_t *win = json_object_get(rec, "window");
	struct report_window *w;

	if (!e->guid)
		return 0; /* nothing to join it to */
	if (array_reserve(&r->windows, &r->cap_windows, r->n_windows,
			  sizeof(*w)))
		return -ENOMEM;
	w = memset(&r->windows[r->n_windows], 0, sizeof(*w));
	w->at = *e;
	w->seconds = w->xmit_bits = w->rcv_bits = NAN;
	w->ber_bits = w->ber = w->ber_limit = NAN;
	if (json_is_object(win)) {
		w->mode = strtab_intern(&r->strs, str_field(win, "mode"));
		w->start = strtab_intern(&r->strs, str_field(win, "start"));
		w->end = strtab_intern(&r->strs, str_field(win, "end"));
		w->seconds = num_field(win, "seconds");
		w->xmit_bits = num_field(win, "xmit_bits");
		w->rcv_bits = num_field(win, "rcv_bits");
		w->ber_bits = num_field(win, "ber_bits");
		w->ber = num_field(win, "ber");
		w->ber_limit = num_field(win, "ber_limit");
		w->ber_source = strtab_intern(
			&r->strs, str_field(win, "ber_limit_source"));
		window_errors(w, json_object_get(win, "errors"));
		window_saturated(w, json_object_get(win, "errors_saturated"));
	}
	/* a record from before issue 35: its values since the last clear */
	if (!w->errors_known)
		window_errors(w, json_object_get(rec, "counters"));
	r->n_windows++;
	w->stamp = w->end ?: strtab_intern(&r->strs, str_field(rec, "time"));
	return end_keys(r, &r->window_by_end, ref, e, r->n_windows - 1,
			window_cmp);
}

int report_phy_take(struct report *r, const json_t *rec,
		    const struct report_end *e)
{
	const json_t *ber = json_object_get(rec, "ber");
	struct report_phy *p;

	if (!json_is_object(ber) || !e->guid)
		return 0;
	if (array_reserve(&r->phys, &r->cap_phys, r->n_phys, sizeof(*p)))
		return -ENOMEM;
	p = &r->phys[r->n_phys];
	*p = (struct report_phy){
		.at = *e,
		.source = strtab_intern(&r->strs, str_field(rec, "source")),
		.speed = strtab_intern(&r->strs, str_field(ber, "speed")),
		.raw = num_field(ber, "raw"),
		.effective = num_field(ber, "effective"),
		.symbol = num_field(ber, "symbol"),
		.effective_errors = num_field(ber, "effective_errors"),
		.symbol_errors = num_field(ber, "symbol_errors"),
		.minutes = num_field(ber, "minutes"),
	};
	r->n_phys++;
	p->stamp = strtab_intern(&r->strs, str_field(rec, "time"));
	return end_keys(r, &r->phy_by_end, json_object_get(rec, "port"), e,
			r->n_phys - 1, phy_cmp);
}
