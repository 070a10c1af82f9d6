// SPDX-License-Identifier: MIT
/* The report on stdout: the verdict first, then findings by severity, then
 * the disable list. Also the small text helpers the other formats share. */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/record.h"
#include "reports/report.h"

struct host_num {
	const char *name;
	size_t prefix_len; /* up to the trailing digits */
	size_t width; /* number of trailing digits */
	unsigned long num;
};

static void split_host(const char *name, struct host_num *h)
{
	size_t len = strlen(name), i = len;

	while (i > 0 && isdigit((unsigned char)name[i - 1]) && len - i < 9)
		i--;
	h->name = name;
	h->prefix_len = i;
	h->width = len - i;
	h->num = h->width ? strtoul(name + i, NULL, 10) : 0;
}

static int host_cmp(const void *x, const void *y)
{
	const struct host_num *a = x, *b = y;
	size_t n =
		a->prefix_len < b->prefix_len ? a->prefix_len : b->prefix_len;
	int c = strncmp(a->name, b->name, n);

	if (c)
		return c;
	if (a->prefix_len != b->prefix_len)
		return a->prefix_len < b->prefix_len ? -1 : 1;
	if (a->width != b->width)
		return a->width < b->width ? -1 : 1;
	return (a->num > b->num) - (a->num < b->num);
}

static bool same_group(const struct host_num *a, const struct host_num *b)
{
	return a->width && a->width == b->width &&
	       a->prefix_len == b->prefix_len &&
	       !strncmp(a->name, b->name, a->prefix_len);
}

/* One group "prefix[01-03,07]" from h[0..n), all sharing prefix and width. */
static void put_group(struct report_buf *b, const struct host_num *h, size_t n)
{
	int w = (int)h[0].width;

	if (n == 1) {
		report_buf_puts(b, h[0].name);
		return;
	}
	report_buf_printf(b, "%.*s[", (int)h[0].prefix_len, h[0].name);
	for (size_t i = 0; i < n;) {
		size_t j = i;

		while (j + 1 < n && h[j + 1].num == h[j].num + 1)
			j++;
		report_buf_printf(b, "%s%0*lu", i ? "," : "", w, h[i].num);
		if (j > i)
			report_buf_printf(b, "-%0*lu", w, h[j].num);
		i = j + 1;
	}
	report_buf_puts(b, "]");
}

void report_host_ranges(struct report_buf *b, const char **hosts, size_t n)
{
	struct host_num *h = calloc(n + 1, sizeof(*h));
	size_t k = 0;

	if (!h) {
		b->oom = true;
		return;
	}
	for (size_t i = 0; i < n; i++)
		split_host(hosts[i], &h[i]);
	qsort(h, n, sizeof(*h), host_cmp);
	for (size_t i = 0; i < n; i++) /* drop duplicates */
		if (!k || strcmp(h[k - 1].name, h[i].name))
			h[k++] = h[i];
	for (size_t i = 0; i < k;) {
		size_t j = i + 1;

		while (j < k && same_group(&h[i], &h[j]))
			j++;
		if (i)
			report_buf_puts(b, ",");
		put_group(b, &h[i], j - i);
		i = j;
	}
	free(h);
}

void report_xcvr_text(struct report_buf *b, const struct report_xcvr *x)
{
	if (x->vendor || x->part_number || x->serial)
		report_buf_printf(b, "%s %s SN %s", x->vendor ? x->vendor : "?",
				  x->part_number ? x->part_number : "?",
				  x->serial ? x->serial : "?");
	else
		report_buf_printf(b, "unknown (not readable: %s)",
				  x->unreadable ? x->unreadable
						: "no transceiver record "
						  "for this port");
}

/* "leaf01 port 5 <-> spine01 port 1" or "node03 mlx5_0 port 1" of a
 * locate entry's candidate. */
static void candidate_text(struct report_buf *b, const json_t *c)
{
	const json_t *a = json_object_get(c, "a"), *z = json_object_get(c, "b");

	if (!a) {
		report_buf_printf(
			b, "%s %s port %d",
			json_string_value(json_object_get(c, "host")) ?: "?",
			json_string_value(json_object_get(c, "ca")) ?: "?",
			(int)json_integer_value(json_object_get(c, "port")));
		return;
	}
	report_buf_printf(b, "%s port %d",
			  json_string_value(json_object_get(a, "node")) ?: "?",
			  (int)json_integer_value(json_object_get(a, "port")));
	if (z)
		report_buf_printf(
			b, " <-> %s port %d",
			json_string_value(json_object_get(z, "node")) ?: "?",
			(int)json_integer_value(json_object_get(z, "port")));
}

void report_locate_text(struct report_buf *b, const struct report_entry *e)
{
	const json_t *ra = json_object_get(e->retest, "a"),
		     *rb = json_object_get(e->retest, "b");

	report_buf_printf(b, "one of %zu: ", json_array_size(e->candidates));
	for (size_t k = 0; k < json_array_size(e->candidates); k++) {
		report_buf_puts(b, k ? "; " : "");
		candidate_text(b, json_array_get(e->candidates, k));
	}
	if (!ra || !rb) {
		report_buf_puts(b, " (no known pair tells them apart)");
		return;
	}
	report_buf_puts(b, " (retest ");
	candidate_text(b, ra);
	report_buf_puts(b, " with ");
	candidate_text(b, rb);
	report_buf_puts(b, ")");
}

void report_entry_ends_text(struct report_buf *b, const struct report_entry *e)
{
	if (e->candidates) {
		report_locate_text(b, e);
		return;
	}
	if (e->kind == ENTRY_NODE) {
		report_buf_printf(b, "%s %s", e->host, e->device);
		return;
	}
	report_end_text(b, &e->port);
	report_buf_puts(b, " <-> ");
	report_end_text(b, &e->peer);
	for (int i = 0; i < e->n_also; i++) {
		report_buf_puts(b, i ? ", " : "; same module: ");
		report_end_text(b, &e->also[i]);
		report_buf_puts(b, " <-> ");
		report_end_text(b, &e->also_peer[i]);
	}
	if (!e->swap_port.type && !e->swap_port.guid)
		return;
	report_buf_puts(b, " and ");
	report_end_text(b, &e->swap_port);
	report_buf_puts(b, " <-> ");
	report_end_text(b, &e->swap_peer);
}

static const char *const severities[] = { "fail", "warn", "info" };

/* Prints one line with control characters made harmless. */
static void put_line(FILE *out, const struct report_buf *b)
{
	struct report_buf clean = { 0 };

	report_term_text(&clean, b->s ? b->s : "");
	fprintf(out, "%s\n", clean.s ? clean.s : "");
	report_buf_free(&clean);
}

static void print_findings(const struct report *r, FILE *out, const char *sev)
{
	size_t n = 0;

	for (size_t i = 0; i < r->n_findings; i++)
		n += !strcmp(sev, json_string_value(json_object_get(
					  r->findings[i].rec, "severity")));
	fprintf(out, "\n%s (%zu):\n", sev, n);
	for (size_t i = 0; i < r->n_findings; i++) {
		const json_t *f = r->findings[i].rec;
		struct report_buf b = { 0 };

		if (strcmp(sev,
			   json_string_value(json_object_get(f, "severity"))))
			continue;
		report_buf_printf(
			&b, "  [%s%s%s] %s",
			json_string_value(json_object_get(f, "category")),
			report_scope_text(f) ? ", " : "",
			report_scope_text(f) ? report_scope_text(f) : "",
			json_string_value(json_object_get(f, "message")));
		if (r->findings[i].count > 1)
			report_buf_printf(&b, " (reported %u times)",
					  r->findings[i].count);
		put_line(out, &b);
		report_buf_free(&b);
	}
}

static void entry_line(struct report_buf *b, const struct report_entry *e)
{
	report_buf_printf(b, "  %-4s %-13s ", e->is_new ? "new" : "",
			  e->action);
	report_entry_ends_text(b, e);
	report_buf_puts(b, ":");
	for (size_t k = 0; k < json_array_size(e->reasons); k++)
		report_buf_printf(
			b, "%s %s", k ? "," : "",
			json_string_value(json_object_get(
				json_array_get(e->reasons, k), "category")));
	if (e->confidence < 1)
		report_buf_printf(b, " (confidence %.2f)", e->confidence);
	if (e->group)
		report_buf_printf(b, " [%s]", e->group);
}

/* The transceiver at each end, under its entry. */
static void xcvr_lines(FILE *out, const struct report_entry *e)
{
	const struct report_end *ends[2] = { &e->port, &e->peer };

	for (int k = 0; k < 2; k++) {
		struct report_buf b = { 0 };

		if (k && !e->peer.type && !e->peer.guid && !e->peer.name &&
		    !e->peer.host)
			break;
		report_buf_printf(
			&b, "         %s transceiver: ", k ? "peer" : "port");
		report_xcvr_text(&b, &ends[k]->xcvr);
		put_line(out, &b);
		report_buf_free(&b);
	}
}

/* The counters window and the BER before FEC at each end, under its
 * entry, when the records hold any (the per-cable view, issue 35). */
static void figure_lines(const struct report *r, FILE *out,
			 const struct report_entry *e)
{
	const struct report_end *ends[2] = { &e->port, &e->peer };

	for (int k = 0; k < 2 && (r->n_windows || r->n_phys); k++) {
		struct report_buf b = { 0 };

		if (k && !e->peer.type && !e->peer.guid && !e->peer.name &&
		    !e->peer.host)
			break;
		report_buf_printf(
			&b, "         %s counters: ", k ? "peer" : "port");
		report_window_text(&b, report_window_at(r, ends[k]));
		put_line(out, &b);
		report_buf_free(&b);
		if (!r->n_phys)
			continue;
		report_buf_printf(&b, "         %s ", k ? "peer" : "port");
		report_phy_text(&b, report_phy_at(r, ends[k]));
		put_line(out, &b);
		report_buf_free(&b);
	}
}

/* One end of a row of the per-cable view: its window, and its BER before
 * FEC when any port's was read. */
static void row_end_line(const struct report *r, FILE *out,
			 const struct report_end *e, int window, int phy)
{
	struct report_buf name = { 0 }, b = { 0 };

	if (e->type || e->guid || e->name || e->host)
		report_end_text(&name, e);
	else
		report_buf_puts(&name, "far end (not known)");
	report_buf_printf(&b, "    %s: ", name.s ? name.s : "");
	report_window_text(&b, window >= 0 ? &r->windows[window] : NULL);
	put_line(out, &b);
	report_buf_free(&b);
	if (r->n_phys) {
		report_buf_printf(&b, "    %s: ", name.s ? name.s : "");
		report_phy_text(&b, phy >= 0 ? &r->phys[phy] : NULL);
		put_line(out, &b);
		report_buf_free(&b);
	}
	report_buf_free(&name);
}

/* The cables with an error in their window or a BER before FEC. */
static void print_cables(const struct report *r, FILE *out)
{
	size_t ports = 0;

	if (!r->n_cable_rows)
		return;
	for (size_t i = 0; i < r->n_cable_rows; i++)
		ports += !r->cable_rows[i].b.type && !r->cable_rows[i].b.guid &&
			 !r->cable_rows[i].b.name;
	fprintf(out,
		"\ncables: %zu with counters or BER read (and %zu ports on "
		"no known cable), %zu with errors or BER before FEC:\n",
		r->n_cable_rows - ports, ports, r->n_cable_notable);
	for (size_t i = 0; i < r->n_cable_rows; i++) {
		const struct report_cable_row *row = &r->cable_rows[i];
		struct report_buf b = { 0 };

		if (!row->notable)
			continue;
		report_buf_puts(&b, "  ");
		report_end_text(&b, &row->a);
		if (row->b.type || row->b.guid || row->b.name) {
			report_buf_puts(&b, " <-> ");
			report_end_text(&b, &row->b);
		}
		put_line(out, &b);
		report_buf_free(&b);
		row_end_line(r, out, &row->a, row->window[0], row->phy[0]);
		row_end_line(r, out, &row->b, row->window[1], row->phy[1]);
	}
}

static void print_entries(const struct report *r, FILE *out)
{
	fprintf(out, "\ndisable list (%zu):\n", r->n_entries);
	for (size_t i = 0; i < r->n_entries; i++) {
		struct report_buf b = { 0 };

		entry_line(&b, &r->entries[i]);
		put_line(out, &b);
		report_buf_free(&b);
		if (r->entries[i].kind != ENTRY_PORT)
			continue;
		xcvr_lines(out, &r->entries[i]);
		figure_lines(r, out, &r->entries[i]);
	}
	if (!json_array_size(r->reenable))
		return;
	fprintf(out, "\nre-enable (%zu): disabled before, passed now\n",
		json_array_size(r->reenable));
	for (size_t i = 0; i < json_array_size(r->reenable); i++) {
		struct report_buf b = { 0 };

		report_buf_printf(
			&b, "  %s",
			json_string_value(json_object_get(
				json_array_get(r->reenable, i), "location")));
		put_line(out, &b);
		report_buf_free(&b);
	}
}

/* The coverage block (issue 32); its names are made safe in it. */
static void print_coverage(const struct report *r, FILE *out)
{
	struct report_buf b = { 0 };

	report_coverage_lines(r, &b);
	if (b.s)
		fputs(b.s, out);
	report_buf_free(&b);
}

int report_print_text(const struct report *r, FILE *out)
{
	char verdict[1024];
	struct report_buf line = { 0 };

	report_verdict_line(r, verdict, sizeof(verdict));
	report_buf_puts(&line, verdict); /* INCOMPLETE names tools: text */
	put_line(out, &line);
	report_buf_free(&line);
	fprintf(out,
		"read %zu pair and %zu other records: %zu HCA ports, %zu links\n",
		r->n_pairs, r->n_records, r->n_hports, r->n_links);
	print_coverage(r, out);
	for (size_t s = 0; s < 3; s++)
		print_findings(r, out, severities[s]);
	print_entries(r, out);
	print_cables(r, out);
	return fflush(out) ? -errno : 0;
}
