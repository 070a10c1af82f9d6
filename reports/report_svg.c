// SPDX-License-Identifier: MIT
/*
 * The two pictures of the HTML report, as inline SVG (no script needed to
 * see them): the bandwidth heatmap, ports ordered by leaf switch, rail and
 * host (not by rank), and a histogram of pair bandwidth per link class.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "reports/report.h"
#include "reports/report_svg.h"

#define HM_MAX_CELLS 128
#define HM_PIXELS 640
#define HIST_BINS 44 /* 2.5 % of expected each, 0 .. 110 % */
#define MAX_HIST_CLASSES 16

static const char *leaf_of(const struct report *r, const struct report_hport *h)
{
	const struct report_link *l;

	if (h->link < 0)
		return "";
	l = &r->links[h->link];
	if (l->a.type == 's')
		return l->a.name ? l->a.name : "";
	return l->b.type == 's' && l->b.name ? l->b.name : "";
}

static const struct report *sort_ctx;

static int strcmp0(const char *a, const char *b)
{
	return strcmp(a ? a : "", b ? b : "");
}

static int hport_order(const void *x, const void *y)
{
	const struct report *r = sort_ctx;
	const struct report_hport *a = &r->hports[*(const uint32_t *)x];
	const struct report_hport *b = &r->hports[*(const uint32_t *)y];
	int c = strcmp0(leaf_of(r, a), leaf_of(r, b));

	if (c)
		return c;
	if (a->rail != b->rail)
		return a->rail < b->rail ? -1 : 1;
	c = strcmp0(a->host, b->host) ?: strcmp0(a->ca, b->ca);
	return c ? c : a->port - b->port;
}

/*
 * One panel: the HCA ports of one rail (every port when rail < 0).
 * order[k]: port at place k; pos[i]: place of port i, UINT32_MAX when port
 * i is not on this panel; *n: ports on the panel.
 */
static int heatmap_order(const struct report *r, int rail, uint32_t **order,
			 uint32_t **pos, size_t *n)
{
	*order = malloc((r->n_hports + 1) * sizeof(**order));
	*pos = malloc((r->n_hports + 1) * sizeof(**pos));
	*n = 0;
	if (!*order || !*pos)
		return -1;
	for (uint32_t i = 0; i < r->n_hports; i++) {
		(*pos)[i] = UINT32_MAX;
		if (rail < 0 || r->hports[i].rail == rail)
			(*order)[(*n)++] = i;
	}
	sort_ctx = r;
	qsort(*order, *n, sizeof(**order), hport_order);
	for (uint32_t k = 0; k < *n; k++)
		(*pos)[(*order)[k]] = k;
	return 0;
}

static float meas_ratio(const struct report_meas *m)
{
	float v;

	if (m->status == 1)
		return 0;
	v = m->expected > 0 ? m->gbps / m->expected : 1;
	return v > 0 ? v : 0;
}

/* Worst ratio per cell, -1 where nothing was measured. */
static float *heatmap_grid(const struct report *r, const uint32_t *pos,
			   size_t cells, size_t block)
{
	float *grid = malloc(cells * cells * sizeof(*grid));

	if (!grid)
		return NULL;
	for (size_t i = 0; i < cells * cells; i++)
		grid[i] = -1;
	for (size_t i = 0; i < r->n_pairs; i++) {
		uint32_t pa = pos[r->pairs[i].a], pb = pos[r->pairs[i].b];
		size_t a = pa / block, b = pb / block;
		float v;

		if (r->pairs[i].verdict == ATTR_UNTESTED || pa == UINT32_MAX ||
		    pb == UINT32_MAX)
			continue;
		v = meas_ratio(&r->meas[i]);
		if (grid[a * cells + b] < 0 || v < grid[a * cells + b])
			grid[a * cells + b] = grid[b * cells + a] = v;
	}
	return grid;
}

static void ratio_colour(float v, char *buf, size_t len)
{
	double hue = v >= 1 ? 120 : v <= 0.5 ? 0 : (v - 0.5) * 240;

	snprintf(buf, len, "hsl(%.0f,70%%,%s)", hue, v < 0.9 ? "45%" : "38%");
}

static void port_label(struct report_buf *b, const struct report *r,
		       uint32_t idx)
{
	const struct report_hport *h = &r->hports[idx];

	report_buf_printf(b, "%s %s port %d", h->host, h->ca, h->port);
}

static void cell_title(struct report_buf *b, const struct report *r,
		       const uint32_t *order, size_t i, size_t j, size_t block,
		       float v)
{
	struct report_buf t = { 0 };

	if (block == 1) {
		port_label(&t, r, order[i]);
		report_buf_puts(&t, " - ");
		port_label(&t, r, order[j]);
	} else {
		report_buf_printf(&t, "ports %zu-%zu x %zu-%zu", i * block,
				  (i + 1) * block - 1, j * block,
				  (j + 1) * block - 1);
	}
	report_buf_printf(&t, ": worst %.0f%% of expected", v * 100);
	report_buf_puts(b, "<title>");
	report_html_escape(b, t.s);
	report_buf_puts(b, "</title>");
	report_buf_free(&t);
}

static void heatmap_cells(struct report_buf *b, const struct report *r,
			  const uint32_t *order, const float *grid,
			  size_t cells, size_t block, double px)
{
	char colour[48];

	for (size_t i = 0; i < cells; i++)
		for (size_t j = 0; j < cells; j++) {
			float v = grid[i * cells + j];

			if (v < 0)
				continue;
			ratio_colour(v, colour, sizeof(colour));
			report_buf_printf(
				b,
				"<rect class=\"hm-cell\" x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" fill=\"%s\">",
				j * px, i * px, px, px, colour);
			if (cells <= 64)
				cell_title(b, r, order, i, j, block, v);
			report_buf_puts(b, "</rect>");
		}
}

#define HM_LEFT 150 /* room for the y axis: its title, leaf and host */
#define HM_TOP 8
#define HM_BOTTOM 110 /* room for the x axis: leaf names and its title */
#define HM_LEGEND 240

static void axis_text(struct report_buf *b, double x, double y, bool rotate,
		      const char *cls, const char *text)
{
	if (rotate)
		report_buf_printf(
			b,
			"<text class=\"%s\" text-anchor=\"end\" transform=\"translate(%.2f,%.2f) rotate(-60)\">",
			cls, x, y);
	else
		report_buf_printf(
			b,
			"<text class=\"%s\" text-anchor=\"end\" x=\"%.2f\" y=\"%.2f\">",
			cls, x, y);
	report_html_escape(b, text);
	report_buf_puts(b, "</text>");
}

/* A host's name on both axes, where one port is one cell and there is room. */
static void heatmap_hosts(struct report_buf *b, const struct report *r,
			  const uint32_t *order, size_t n, double px)
{
	struct report_buf t = { 0 };

	if (px < 9)
		return;
	for (size_t k = 0; k < n; k++) {
		report_buf_free(&t);
		port_label(&t, r, order[k]);
		axis_text(b, -4, k * px + px * 0.75, false, "hm-host",
			  t.s ? t.s : "");
		axis_text(b, k * px + px * 0.75, HM_PIXELS + 4, true, "hm-host",
			  t.s ? t.s : "");
	}
	report_buf_free(&t);
}

/* Lines and names where the leaf switch changes, where there is room. */
static void heatmap_leaves(struct report_buf *b, const struct report *r,
			   const uint32_t *order, size_t n, size_t block,
			   double px)
{
	const char *prev = NULL;
	double last_line = -100, last_label = -100;
	bool hosts = block == 1 && px >= 9;

	for (size_t k = 0; k < n; k++) {
		const char *leaf = leaf_of(r, &r->hports[order[k]]);
		double at = (double)(k / block) * px;

		if (prev && !strcmp(prev, leaf))
			continue;
		prev = leaf;
		if (k && at - last_line >= 8) {
			report_buf_printf(
				b,
				"<line class=\"hm-leaf\" x1=\"0\" y1=\"%.2f\" x2=\"%d\" y2=\"%.2f\"/>"
				"<line class=\"hm-leaf\" x1=\"%.2f\" y1=\"0\" x2=\"%.2f\" y2=\"%d\"/>",
				at, HM_PIXELS, at, at, at, HM_PIXELS);
			last_line = at;
		}
		if (*leaf && !hosts && at - last_label >= 12) {
			axis_text(b, -4, at + 10, false, "hm-label", leaf);
			axis_text(b, at + 10, HM_PIXELS + 4, true, "hm-label",
				  leaf);
			last_label = at;
		} else if (*leaf && hosts) {
			report_buf_printf(
				b,
				"<text class=\"hm-label\" x=\"%d\" y=\"%.2f\">",
				HM_PIXELS + 4, at + 10);
			report_html_escape(b, leaf);
			report_buf_puts(b, "</text>");
		}
	}
}

static void heatmap_axes(struct report_buf *b, bool hosts)
{
	const char *what =
		hosts ? "host, CA and port" : "leaf switch, then host";

	report_buf_printf(
		b,
		"<text class=\"hm-axis\" text-anchor=\"middle\" transform=\"translate(%d,%d) rotate(-90)\">port (%s)</text>"
		"<text class=\"hm-axis\" text-anchor=\"middle\" x=\"%d\" y=\"%d\">partner port (%s)</text>",
		-HM_LEFT + 12, HM_PIXELS / 2, what, HM_PIXELS / 2,
		HM_PIXELS + HM_BOTTOM - 6, what);
}

/* What the colours mean, right of the grid. */
static void heatmap_legend(struct report_buf *b)
{
	static const float share[] = { 1.0f, 0.9f, 0.8f, 0.7f, 0.6f, 0.5f };
	char colour[48];
	int x = HM_PIXELS + 70, y = 4;

	report_buf_printf(
		b,
		"<g class=\"hm-legend\"><text class=\"hm-axis\" x=\"%d\" y=\"%d\">worst pair / expected</text>",
		x, y + 10);
	for (size_t i = 0; i < sizeof(share) / sizeof(share[0]); i++) {
		ratio_colour(share[i], colour, sizeof(colour));
		report_buf_printf(
			b,
			"<rect x=\"%d\" y=\"%zu\" width=\"14\" height=\"14\" fill=\"%s\"/>"
			"<text class=\"hm-label\" x=\"%d\" y=\"%zu\">%s%.0f%%</text>",
			x, y + 18 + i * 18, colour, x + 20, y + 29 + i * 18,
			i + 1 == sizeof(share) / sizeof(share[0]) ? "&#8804; "
								  : "",
			share[i] * 100);
	}
	report_buf_printf(
		b,
		"<rect x=\"%d\" y=\"%d\" width=\"14\" height=\"14\" fill=\"#e0e0e0\"/>"
		"<text class=\"hm-label\" x=\"%d\" y=\"%d\">not measured</text></g>",
		x, y + 18 + 6 * 18, x + 20, y + 29 + 6 * 18);
}

/* One panel: the ports of one rail (rail < 0: every port). */
static int heatmap_panel(struct report_buf *b, const struct report *r, int rail)
{
	uint32_t *order = NULL, *pos = NULL;
	size_t n, cells, block;
	float *grid = NULL;
	double px;
	int ret = -1;

	if (heatmap_order(r, rail, &order, &pos, &n))
		goto out;
	block = (n + HM_MAX_CELLS - 1) / HM_MAX_CELLS;
	cells = (n + block - 1) / block;
	px = (double)HM_PIXELS / (double)cells;
	grid = heatmap_grid(r, pos, cells, block);
	if (!grid)
		goto out;
	if (rail >= 0)
		report_buf_printf(b, "<h3>Rail %d</h3>\n", rail);
	report_buf_printf(
		b,
		"<svg class=\"heatmap\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" role=\"img\" aria-label=\"pair bandwidth heatmap\">"
		"<g transform=\"translate(%d,%d)\"><rect width=\"%d\" height=\"%d\" fill=\"#e0e0e0\"/>",
		HM_LEFT + HM_PIXELS + HM_LEGEND, HM_TOP + HM_PIXELS + HM_BOTTOM,
		HM_LEFT, HM_TOP, HM_PIXELS, HM_PIXELS);
	heatmap_cells(b, r, order, grid, cells, block, px);
	heatmap_leaves(b, r, order, n, block, px);
	if (block == 1)
		heatmap_hosts(b, r, order, n, px);
	heatmap_axes(b, block == 1 && px >= 9);
	heatmap_legend(b);
	report_buf_puts(b, "</g></svg>\n");
	report_buf_printf(
		b,
		"<p class=\"note\">%zu ports on each axis, ordered by leaf switch, rail and host; %s.</p>\n",
		n,
		block == 1 ? "one cell per port pair"
			   : "each cell is a block of ports");
	ret = 0;
out:
	free(order);
	free(pos);
	free(grid);
	return ret;
}

static int rail_cmp(const void *x, const void *y)
{
	int a = *(const int *)x, b = *(const int *)y;

	return (a > b) - (a < b);
}

/* The distinct rails >= 0 of the ports, ascending, in a new array: a rail
 * with no port gets no panel (fuzz_report_formats: its panel divided by
 * zero), and a rail number far above the others costs nothing. */
static int *heatmap_rails(const struct report *r, size_t *n)
{
	int *rails = malloc((r->n_hports + 1) * sizeof(*rails));
	size_t k = 0;

	*n = 0;
	if (!rails)
		return NULL;
	for (size_t i = 0; i < r->n_hports; i++)
		if (r->hports[i].rail >= 0)
			rails[k++] = r->hports[i].rail;
	qsort(rails, k, sizeof(*rails), rail_cmp);
	for (size_t i = 0; i < k; i++)
		if (!*n || rails[*n - 1] != rails[i])
			rails[(*n)++] = rails[i];
	return rails;
}

/* One panel per rail when the port records say which rail a port is on. */
int report_svg_heatmap(struct report_buf *b, const struct report *r)
{
	size_t n_rails;
	int *rails, ret = 0;

	if (!r->n_hports || !r->n_pairs)
		return 0;
	rails = heatmap_rails(r, &n_rails);
	if (!rails)
		return -1;
	report_buf_puts(b, "<div id=\"heatmap\">\n");
	if (!n_rails || (n_rails == 1 && rails[0] == 0)) {
		ret = heatmap_panel(b, r, -1);
	} else {
		report_buf_puts(
			b,
			"<p class=\"note\">One panel per rail; pairs across rails are in no panel.</p>\n");
		for (size_t i = 0; i < n_rails && !ret; i++)
			ret = heatmap_panel(b, r, rails[i]);
	}
	free(rails);
	report_buf_puts(b, "</div>\n");
	return ret;
}

struct hist_class {
	float expected;
	uint8_t test, dir;
	uint32_t bins[HIST_BINS];
	uint32_t n, errors;
};

static struct hist_class *hist_class_of(struct hist_class *hc, size_t *n,
					const struct report_meas *m)
{
	for (size_t i = 0; i < *n; i++)
		if (hc[i].expected == m->expected && hc[i].test == m->test &&
		    hc[i].dir == m->dir)
			return &hc[i];
	if (*n == MAX_HIST_CLASSES)
		return NULL;
	hc[*n] = (struct hist_class){ .expected = m->expected,
				      .test = m->test,
				      .dir = m->dir };
	return &hc[(*n)++];
}

static void hist_one(struct report_buf *b, const struct hist_class *c)
{
	uint32_t max = 1;
	const int w = 10, h = 120;

	for (size_t k = 0; k < HIST_BINS; k++)
		max = c->bins[k] > max ? c->bins[k] : max;
	report_buf_puts(b, "<figure><figcaption>");
	if (c->expected > 0)
		report_buf_printf(b, "%.1f Gb/s expected", (double)c->expected);
	else
		report_buf_puts(b, "expected rate unknown");
	report_buf_printf(
		b,
		", %s %s: %u pairs, %u errors (log scale)</figcaption>"
		"<svg class=\"hist\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\">",
		c->test ? "read" : "write",
		c->dir ? "bidirectional" : "unidirectional", c->n, c->errors,
		HIST_BINS * w + 40, h + 20);
	for (size_t k = 0; k < HIST_BINS; k++) {
		double bh = c->bins[k] ? h * log10(1.0 + c->bins[k]) /
						 log10(1.0 + max)
				       : 0;

		report_buf_printf(
			b,
			"<rect class=\"hist-bar\" x=\"%zu\" y=\"%.1f\" width=\"%d\" height=\"%.1f\"><title>%.1f-%.1f%%: %u pairs</title></rect>",
			k * w, h - bh, w - 1, bh, k * 2.5, (k + 1) * 2.5,
			c->bins[k]);
	}
	for (int pct = 0; pct <= 100; pct += 25)
		report_buf_printf(
			b, "<text x=\"%d\" y=\"%d\" class=\"axis\">%d%%</text>",
			pct * w * HIST_BINS / 110, h + 14, pct);
	report_buf_puts(b, "</svg></figure>\n");
}

int report_svg_histograms(struct report_buf *b, const struct report *r)
{
	struct hist_class *hc = calloc(MAX_HIST_CLASSES, sizeof(*hc));
	size_t n = 0;

	if (!hc)
		return -1;
	for (size_t i = 0; i < r->n_pairs; i++) {
		const struct report_meas *m = &r->meas[i];
		struct hist_class *c = hist_class_of(hc, &n, m);
		double bin;

		if (!c || m->status == 2)
			continue;
		c->n++;
		c->errors += m->status == 1;
		/* clamped as a double: a ratio past size_t's range is UB */
		bin = meas_ratio(m) * 100 / 2.5;
		c->bins[bin < HIST_BINS ? (size_t)bin : HIST_BINS - 1]++;
	}
	for (size_t i = 0; i < n; i++)
		hist_one(b, &hc[i]);
	free(hc);
	return 0;
}
