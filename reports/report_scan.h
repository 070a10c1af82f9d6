/* SPDX-License-Identifier: MIT */
#ifndef IBPROOF_REPORTS_REPORT_SCAN_H
#define IBPROOF_REPORTS_REPORT_SCAN_H

#include <stddef.h>

/*
 * The fast path for pair records: recognises a strict subset of the lines
 * that the record reader accepts (plain ASCII strings without escapes,
 * scalar values, the contract's fields and types) without building JSON.
 * Anything else is left to the reader, which parses, validates and reports
 * errors with FILE:LINE as always.
 */
struct scan_str {
	const char *s;
	size_t len;
};

struct scan_ref {
	struct scan_str host, ca, guid;
	long long port;
	unsigned int seen;
};

/* A pair's path, `cables` or `cables_ba`: plain strings, bounded; a
 * longer path or id leaves the line to the reader. */
#define SCAN_PATH_MAX 16
#define SCAN_CABLE_ID_MAX 48

struct scan_path {
	struct scan_str id[SCAN_PATH_MAX];
	int n;
	int present;
};

struct scan_pair {
	struct scan_str str[9]; /* enum scan_str_field */
	struct scan_path path[2]; /* "cables" (a -> b), "cables_ba" */
	long long round;
	double gbps, gbps_min, expected;
	long long error_completions; /* 0 when absent */
	int retest; /* "retest": true */
	int adaptive; /* "adaptive": true (its path is adaptive) */
	struct scan_ref a, b;
	unsigned long seen;
};

enum scan_str_field {
	SF_SCHEMA,
	SF_KIND,
	SF_TIME,
	SF_HOST,
	SF_VERSION,
	SF_TEST,
	SF_DIR,
	SF_STATUS,
	SF_ERROR,
};

/* 1: a valid pair record, fields filled (pointing into line); 0: not taken. */
int report_scan_pair(const char *line, size_t len, struct scan_pair *out);

/* Whether a scanned string equals s. */
int scan_eq(const struct scan_str *v, const char *s);

#endif
