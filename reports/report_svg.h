/* SPDX-License-Identifier: MIT */
#ifndef IBPROOF_REPORTS_REPORT_SVG_H
#define IBPROOF_REPORTS_REPORT_SVG_H

#include "reports/report.h"

/* Inline SVG for the HTML report; 0, or -1 when out of memory. */
int report_svg_heatmap(struct report_buf *b, const struct report *r);
int report_svg_histograms(struct report_buf *b, const struct report *r);

#endif
