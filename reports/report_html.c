// SPDX-License-Identifier: MIT
/*
 * The report as one self-contained HTML file: no network, inline CSS, SVG
 * pictures, and a small inline script that reads the data block. Every
 * fabric-supplied string is escaped for HTML (text and attributes alike);
 * the data block is JSON with '<', '>' and '&' written as \u escapes.
 */
#include <stdlib.h>
#include <string.h>

#include "common/record.h"
#include "reports/report.h"
#include "reports/report_map.h"
#include "reports/report_svg.h"

static const char html_head[] =
	"<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
	"<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
	"style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:\">\n"
	"<title>ibproof report</title>\n<style>\n"
	"body{font-family:sans-serif;margin:1.5em;color:#222}\n"
	"table{border-collapse:collapse;margin:.5em 0}\n"
	"td,th{border:1px solid #bbb;padding:2px 6px;text-align:left;font-size:13px;vertical-align:top}\n"
	".verdict{font-size:1.6em;font-weight:bold;padding:.3em .6em;display:inline-block}\n"
	".pass{background:#c8e6c9}.fail{background:#ffcdd2}\n"
	".incomplete{background:#ffe0b2}.coverage.unknown{background:#ffe0b2}\n"
	".sev-fail{color:#b71c1c;font-weight:bold}.sev-warn{color:#e65100}\n"
	".hm-leaf{stroke:#000;stroke-width:.6}.hm-label,.hm-host{font-size:10px}\n"
	".hm-host{font-size:8px}.hm-axis{font-size:12px;font-weight:bold}\n"
	"#fabric-map{max-width:100%;height:auto;border:1px solid #ddd}\n"
	".cable{stroke:#b0bec5;stroke-width:1;fill:none}\n"
	".cable.f-warn{stroke:#ef6c00;stroke-width:2.5}.cable.f-fail{stroke:#c62828;stroke-width:3}\n"
	".cable.absent{stroke-dasharray:5 3}.cable:hover{stroke:#000;stroke-width:4}\n"
	".switch{fill:#37474f}.switch.tier1{fill:#546e7a}.sw-label{font-size:11px;text-anchor:middle}\n"
	".hca{fill:#90caf9}.hca.blamed{fill:#c62828}.hca.not-tested{fill:#9e9e9e}\n"
	".bundle-line{stroke:#b0bec5;stroke-width:4;cursor:pointer}.bundle-line.f-warn{stroke:#ef6c00}\n"
	".bundle-line.f-fail{stroke:#c62828}.hca-group{fill:#90caf9;cursor:pointer}\n"
	"th{cursor:pointer}.filter{margin:.3em 0;display:block}\n"
	"th[data-sort=up]::after{content:' \\25B2'}th[data-sort=down]::after{content:' \\25BC'}\n"
	".hist-bar{fill:#1565c0}.axis{font-size:10px}.note{font-size:12px;color:#555}\n"
	"figure{display:inline-block;margin:.5em 1em}\n"
	".figures{font-size:11px;color:#444}\n"
	"</style></head><body>\n";

static void put_text(struct report_buf *b, const char *tag, const char *s)
{
	report_buf_printf(b, "<%s>", tag);
	report_html_escape(b, s);
	report_buf_printf(b, "</%s>", tag);
}

static void html_summary(struct report_buf *b, const struct report *r)
{
	char verdict[1024];
	bool pass = report_passed(r);

	report_verdict_line(r, verdict, sizeof(verdict));
	report_buf_puts(b, "<h1>ibproof report</h1>\n");
	report_buf_printf(b, "<div id=\"verdict\" class=\"verdict %s\">",
			  pass ? "pass"
			  : report_incomplete(r) && !strncmp(verdict, "INC", 3)
				  ? "incomplete"
				  : "fail");
	report_html_escape(b, verdict);
	report_buf_printf(
		b,
		"</div>\n<p>%zu pair records, %zu other records, %zu HCA ports, %zu links, %zu findings. <span id=\"script-status\"></span></p>\n",
		r->n_pairs, r->n_records, r->n_hports, r->n_links,
		r->n_findings);
}

/* The category, and for a kernel log finding whose scope it is. */
static void put_category(struct report_buf *b, const json_t *f)
{
	const char *scope = report_scope_text(f);
	struct report_buf t = { 0 };

	report_buf_printf(&t, "%s%s%s%s",
			  json_string_value(json_object_get(f, "category")),
			  scope ? " (" : "", scope ? scope : "",
			  scope ? ")" : "");
	put_text(b, "td", t.s ? t.s : "");
	report_buf_free(&t);
}

/* The coverage block: per tool and part, in scope / tested / not tested. */
static void html_coverage(struct report_buf *b, const struct report *r)
{
	char n[96];

	if (!r->n_coverage)
		return;
	report_buf_puts(
		b,
		"<h2>Coverage</h2>\n<table id=\"coverage\"><tr><th>tool</th><th>part</th><th>in scope</th><th>tested</th><th>not tested</th><th>accepted</th></tr>\n");
	for (size_t i = 0; i < r->n_coverage; i++) {
		const struct report_coverage *c = &r->coverage[i];

		report_buf_printf(b, "<tr class=\"coverage%s\">",
				  !c->part ? " unknown"
				  : c->not_tested && !c->accepted
					  ? " incomplete"
					  : "");
		put_text(b, "td", c->tool);
		put_text(b, "td", c->part ? c->part : "coverage unknown");
		if (c->part)
			snprintf(n, sizeof(n),
				 "<td>%lld</td><td>%lld</td><td>%lld</td>",
				 c->in_scope, c->tested, c->not_tested);
		else
			snprintf(
				n, sizeof(n),
				"<td colspan=\"3\">%u run(s) wrote no scope</td>",
				c->runs);
		report_buf_puts(b, n);
		put_text(b, "td", c->accepted ? "yes" : "no");
		report_buf_puts(b, "</tr>\n");
	}
	report_buf_puts(b, "</table>\n");
}

static void html_findings(struct report_buf *b, const struct report *r)
{
	report_buf_puts(
		b,
		"<h2>Findings</h2>\n<table id=\"findings\"><tr><th>severity</th><th>category</th><th>message</th><th>action</th></tr>\n");
	for (size_t i = 0; i < r->n_findings; i++) {
		const json_t *f = r->findings[i].rec;
		const char *sev =
			json_string_value(json_object_get(f, "severity"));

		report_buf_puts(b, "<tr class=\"finding\" data-severity=\"");
		report_html_escape(b, sev);
		report_buf_puts(b, "\"><td class=\"sev-");
		report_html_escape(b, sev);
		report_buf_puts(b, "\">");
		report_html_escape(b, sev);
		report_buf_puts(b, "</td>");
		put_category(b, f);
		put_text(b, "td",
			 json_string_value(json_object_get(f, "message")));
		put_text(b, "td",
			 json_string_value(json_object_get(f, "action")));
		report_buf_puts(b, "</tr>\n");
	}
	report_buf_puts(b, "</table>\n");
}

static void end_text(struct report_buf *t, const struct report_end *e)
{
	report_end_text(t, e);
	report_buf_puts(t, " [transceiver ");
	report_xcvr_text(t, &e->xcvr);
	report_buf_puts(t, "]");
}

/* The end's counters window and BER before FEC, when the records hold
 * any (the per-cable view, issue 35), each on a line of its own. */
static void end_figures(struct report_buf *b, const struct report *r,
			const struct report_end *e)
{
	struct report_buf t = { 0 };

	if (!r->n_windows && !r->n_phys)
		return;
	report_buf_puts(&t, "counters: ");
	report_window_text(&t, report_window_at(r, e));
	report_buf_puts(b, "<br><span class=\"figures\">");
	report_html_escape(b, t.s ? t.s : "");
	report_buf_puts(b, "</span>");
	report_buf_free(&t);
	if (!r->n_phys)
		return;
	report_phy_text(&t, report_phy_at(r, e));
	report_buf_puts(b, "<br><span class=\"figures\">");
	report_html_escape(b, t.s ? t.s : "");
	report_buf_puts(b, "</span>");
	report_buf_free(&t);
}

/* One end; a swap-cables entry shows the second cable's end below it. */
static void end_cell(struct report_buf *b, const struct report *r,
		     const struct report_end *e, const struct report_end *swap)
{
	struct report_buf t = { 0 };

	report_buf_puts(b, "<td>");
	end_text(&t, e);
	report_html_escape(b, t.s ? t.s : "");
	end_figures(b, r, e);
	if (swap->type || swap->guid) {
		report_buf_free(&t);
		end_text(&t, swap);
		report_buf_puts(b, "<br>swap with ");
		report_html_escape(b, t.s ? t.s : "");
	}
	report_buf_puts(b, "</td>");
	report_buf_free(&t);
}

static void entry_row(struct report_buf *b, const struct report *r,
		      const struct report_entry *e)
{
	report_buf_puts(b, "<tr class=\"disable\" data-key=\"");
	report_html_escape(b, e->key);
	report_buf_puts(b, "\">");
	put_text(b, "td", e->is_new ? "new" : "");
	put_text(b, "td", e->action);
	if (e->kind == ENTRY_NODE) {
		struct report_buf t = { 0 };

		report_buf_printf(&t, "%s %s", e->host, e->device);
		put_text(b, "td", t.s);
		put_text(b, "td", "");
		report_buf_free(&t);
	} else if (e->candidates) { /* locate: one cell names them all */
		struct report_buf t = { 0 };

		report_locate_text(&t, e);
		put_text(b, "td", t.s ? t.s : "");
		put_text(b, "td", "");
		report_buf_free(&t);
	} else {
		end_cell(b, r, &e->port, &e->swap_port);
		end_cell(b, r, &e->peer, &e->swap_peer);
	}
	report_buf_puts(b, "<td>");
	for (size_t k = 0; k < json_array_size(e->reasons); k++) {
		const json_t *rs = json_array_get(e->reasons, k);

		report_buf_puts(b, k ? "<br>" : "");
		report_html_escape(
			b, json_string_value(json_object_get(rs, "message")));
	}
	report_buf_printf(b, "</td><td>%.2f</td>", e->confidence);
	put_text(b, "td", e->group ? e->group : "");
	report_buf_puts(b, "</tr>\n");
}

static void html_disable(struct report_buf *b, const struct report *r)
{
	report_buf_printf(
		b,
		"<h2>Disable list (%zu)</h2>\n<table id=\"disable\"><tr><th></th><th>action</th><th>port</th><th>other end</th><th>reasons</th><th>confidence</th><th>common cause</th></tr>\n",
		r->n_entries);
	for (size_t i = 0; i < r->n_entries; i++)
		entry_row(b, r, &r->entries[i]);
	report_buf_puts(b, "</table>\n");
	if (!json_array_size(r->reenable))
		return;
	report_buf_puts(
		b,
		"<h2>Re-enable: disabled before, passed now</h2>\n<ul id=\"reenable\">");
	for (size_t i = 0; i < json_array_size(r->reenable); i++)
		put_text(b, "li",
			 json_string_value(json_object_get(
				 json_array_get(r->reenable, i), "location")));
	report_buf_puts(b, "</ul>\n");
}

/* One end of a row of the per-cable view: end, counters, BER before FEC. */
static void cable_end_row(struct report_buf *b, const struct report *r,
			  const struct report_buf *cable,
			  const struct report_end *e, int window, int phy)
{
	struct report_buf t = { 0 };

	report_buf_puts(b, "<tr class=\"cable-row\">");
	put_text(b, "td", cable->s ? cable->s : "");
	if (e->type || e->guid || e->name || e->host)
		report_end_text(&t, e);
	else
		report_buf_puts(&t, "far end (not known)");
	put_text(b, "td", t.s ? t.s : "");
	report_buf_free(&t);
	report_window_text(&t, window >= 0 ? &r->windows[window] : NULL);
	put_text(b, "td", t.s ? t.s : "");
	report_buf_free(&t);
	report_phy_text(&t, phy >= 0 ? &r->phys[phy] : NULL);
	put_text(b, "td", t.s ? t.s : "");
	report_buf_free(&t);
	report_buf_puts(b, "</tr>\n");
}

/* The per-cable view: the cables with an error in their window or a BER
 * before FEC, each end's figures (issue 35). */
static void html_cables(struct report_buf *b, const struct report *r)
{
	if (!r->n_cable_rows)
		return;
	report_buf_printf(
		b,
		"<h2>Cables: errors and BER</h2>\n<p class=\"note\">%zu cables "
		"with counters or BER read; %zu with errors in their window or "
		"a BER before FEC, below.</p>\n<table id=\"cables\"><tr><th>"
		"cable</th><th>end</th><th>counters: window, bits, errors, "
		"BER</th><th>BER before FEC</th></tr>\n",
		r->n_cable_rows, r->n_cable_notable);
	for (size_t i = 0; i < r->n_cable_rows; i++) {
		const struct report_cable_row *row = &r->cable_rows[i];
		struct report_buf c = { 0 };

		if (!row->notable)
			continue;
		report_end_text(&c, &row->a);
		if (row->b.type || row->b.guid || row->b.name) {
			report_buf_puts(&c, " <-> ");
			report_end_text(&c, &row->b);
		}
		cable_end_row(b, r, &c, &row->a, row->window[0], row->phy[0]);
		cable_end_row(b, r, &c, &row->b, row->window[1], row->phy[1]);
		report_buf_free(&c);
	}
	report_buf_puts(b, "</table>\n");
}

/*
 * The page's one script (the CSP allows inline script, nothing else): the
 * status line, a filter box and sortable columns for each table, and the
 * map's bundles opening on a click. Without it the page reads the same.
 */
static const char html_script[] =
	"<script>\n(function () {\n"
	"  var data = JSON.parse(document.getElementById('ibproof-data').textContent);\n"
	"  var cells = document.querySelectorAll('#heatmap .hm-cell').length;\n"
	"  document.getElementById('script-status').textContent =\n"
	"    cells + ' heatmap cells, ' + data.disable.length + ' in the disable list.';\n"
	"  document.body.setAttribute('data-heatmap-cells', String(cells));\n"
	"  function rows(t) { return Array.prototype.slice.call(t.rows, 1); }\n"
	"  function key(r, i) { var s = r.cells[i] ? r.cells[i].textContent : '';\n"
	"    var n = parseFloat(s); return isNaN(n) || String(n) !== s.trim() ? s : n; }\n"
	"  ['findings', 'disable', 'cables'].forEach(function (id) {\n"
	"    var t = document.getElementById(id); if (!t) return;\n"
	"    var f = document.createElement('input');\n"
	"    f.className = 'filter'; f.placeholder = 'filter ' + id; f.id = id + '-filter';\n"
	"    f.addEventListener('input', function () { var q = f.value.toLowerCase();\n"
	"      rows(t).forEach(function (r) { r.hidden = q !== '' &&\n"
	"        r.textContent.toLowerCase().indexOf(q) < 0; }); });\n"
	"    t.parentNode.insertBefore(f, t);\n"
	"    Array.prototype.forEach.call(t.rows[0].cells, function (th, i) {\n"
	"      th.title = 'click to sort';\n"
	"      th.addEventListener('click', function () {\n"
	"        var up = th.getAttribute('data-sort') !== 'up';\n"
	"        Array.prototype.forEach.call(t.rows[0].cells, function (h) {\n"
	"          h.removeAttribute('data-sort'); });\n"
	"        th.setAttribute('data-sort', up ? 'up' : 'down');\n"
	"        rows(t).sort(function (a, b) { var x = key(a, i), y = key(b, i);\n"
	"          return (x < y ? -1 : x > y ? 1 : 0) * (up ? 1 : -1); })\n"
	"          .forEach(function (r) { r.parentNode.appendChild(r); }); }); }); });\n"
	"  Array.prototype.forEach.call(document.querySelectorAll('#fabric-map .bundle'),\n"
	"    function (g) { g.firstChild.addEventListener('click', function () {\n"
	"      var m = g.querySelector('.members');\n"
	"      if (m.getAttribute('display') === 'none') m.removeAttribute('display');\n"
	"      else m.setAttribute('display', 'none'); }); });\n"
	"})();\n</script>\n";

/* The disable list and findings as data, for the script and for tools. */
static void html_data(struct report_buf *b, const struct report *r)
{
	json_t *doc = report_to_json(r);
	char *text;

	if (doc) { /* the tables show them; the data block stays small */
		json_object_del(doc, "ports");
		json_object_del(doc, "cables");
	}
	/* ASCII only: HTML takes no C1 controls or non-characters raw, and
	 * bidi overrides would reorder the page (fuzz_report_formats) */
	text = doc ? json_dumps(doc, JSON_COMPACT | JSON_SORT_KEYS |
					     JSON_ENSURE_ASCII)
		   : NULL;
	report_buf_puts(
		b, "<script type=\"application/json\" id=\"ibproof-data\">");
	report_script_json(b, text ? text : "{\"disable\":[]}");
	report_buf_puts(b, "</script>\n");
	free(text);
	json_decref(doc);
}

int report_write_html(const struct report *r, const char *path)
{
	struct report_buf b = { 0 };
	int ret;

	report_buf_puts(&b, html_head);
	html_summary(&b, r);
	html_coverage(&b, r);
	html_findings(&b, r);
	html_disable(&b, r);
	html_cables(&b, r);
	report_buf_puts(&b, "<h2>Fabric map</h2>\n");
	if (report_svg_map(&b, r))
		b.oom = true;
	report_buf_puts(&b, "<h2>Pair bandwidth heatmap</h2>\n");
	if (report_svg_heatmap(&b, r))
		b.oom = true;
	report_buf_puts(&b, "<h2>Pair bandwidth per link class</h2>\n");
	if (report_svg_histograms(&b, r))
		b.oom = true;
	html_data(&b, r);
	report_buf_puts(&b, html_script);
	report_buf_puts(&b, "</body></html>\n");
	ret = report_write_file(path, &b);
	report_buf_free(&b);
	return ret;
}
