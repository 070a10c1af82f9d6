/* SPDX-License-Identifier: MIT */
#ifndef IBPROOF_REPORTS_REPORT_MAP_H
#define IBPROOF_REPORTS_REPORT_MAP_H

#include "reports/report.h"

/* Above this many HCA ports the map bundles cables and ports. */
#define MAP_MAX_HCAS 1024
#define MAP_MAX_HCAS_TEXT "1,024"
#define MAP_SW_H 16

/* The fabric map as inline SVG; 0, or -ENOMEM. */
int report_svg_map(struct report_buf *b, const struct report *r);

#endif
