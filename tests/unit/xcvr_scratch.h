/* SPDX-License-Identifier: MIT */
/*
 * xcvr_scratch.h: what the module file readers' tests share
 * (test_xcvr_files.c, test_xcvr_cables.c): scratch input files, a small
 * text or one with a 10 MB line (the bound every reader must name as
 * FILE:LINE), and the figures of the first module of the ibdiagnet
 * fixtures.
 */
#ifndef IBPROOF_TESTS_XCVR_SCRATCH_H
#define IBPROOF_TESTS_XCVR_SCRATCH_H

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fabric/xcvr.h"

/* Writes text to /tmp/ibp-xcvr-PID-NAME; returns its path (static). */
static inline const char *scratch(const char *name, const char *text)
{
	static char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "/tmp/ibp-xcvr-%d-%s", (int)getpid(),
		 name);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	return path;
}

/* head, 10 MB of 'A' (one line), then tail, into path. */
static inline void scratch_huge(const char *path, const char *head,
				const char *tail)
{
	size_t big = 10u << 20;
	char *line = malloc(big + 1);
	FILE *f = fopen(path, "w");

	assert_non_null(line);
	assert_non_null(f);
	memset(line, 'A', big);
	line[big] = '\0';
	fputs(head, f);
	fputs(line, f);
	fputs(tail, f);
	fclose(f);
	free(line);
}

/*
 * The first module of the ibdiagnet fixtures (db_csv and .cables alike): a
 * Mellanox MMA1B00-E100 SR4 optic, 30 m, 35 C, 4 lanes.
 */
static inline void assert_fixture_sr4(const struct xcvr_info *x)
{
	assert_true(x->present);
	assert_string_equal("ibdiagnet", x->source);
	assert_string_equal("Mellanox", x->vendor);
	assert_string_equal("0x2c9", x->oui);
	assert_string_equal("MMA1B00-E100", x->part_number);
	assert_string_equal("MT2231FT0042", x->serial);
	assert_string_equal("A0", x->revision);
	assert_string_equal("850 nm VCSEL", x->type);
	assert_false(x->one_part);
	assert_float_equal(30.0, x->length_m, 1e-9);
	assert_float_equal(35.0, x->temp_c, 1e-9);
	assert_int_equal(4, x->lanes);
}

typedef int (*xcvr_loader)(const char *path, xcvr_row_fn fn, void *ctx,
			   char *err, size_t errlen);

static inline int scratch_drop_row(void *ctx, const struct xcvr_row *row)
{
	(void)ctx;
	(void)row;
	return 0;
}

/* A 10 MB line (line 3 of head + line + tail) is "PATH:3: line longer". */
static inline void expect_huge_line(xcvr_loader load, const char *name,
				    const char *head, const char *tail)
{
	char err[512], want[512], path[256];

	snprintf(path, sizeof(path), "/tmp/ibp-xcvr-%d-%s", (int)getpid(),
		 name);
	scratch_huge(path, head, tail);
	assert_int_equal(-EINVAL,
			 load(path, scratch_drop_row, NULL, err, sizeof(err)));
	unlink(path);
	snprintf(want, sizeof(want), "%s:3: line longer than %d bytes", path,
		 XCVR_LINE_MAX);
	assert_string_equal(want, err);
}

#endif
