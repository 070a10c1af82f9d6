// SPDX-License-Identifier: MIT
/*
 * Fuzz target: `mlxlink -m` output, text or --json
 * (fabric/xcvr_files.c xcvr_load_mlxlink()). Oracles: a refused file is
 * "PATH:LINE: ..."; a read module's identity is printable ASCII without
 * trailing blanks; every figure and threshold read is a finite number; the
 * lane count and Rx LOS bits stay within the lanes a module has.
 */
#include <math.h>

#include "fabric/xcvr.h"
#include "fuzz.h"

static void fail(const char *what)
{
	fprintf(stderr, "oracle: %s\n", what);
	abort();
}

static void check_ident(const char *s, size_t size)
{
	size_t n = strnlen(s, size);

	if (n == size)
		fail("identity field not terminated");
	for (size_t i = 0; i < n; i++)
		if ((unsigned char)s[i] < 0x20 || (unsigned char)s[i] >= 0x7f)
			fail("identity field not printable ASCII");
	if (n && s[n - 1] == ' ')
		fail("identity field ends in a blank");
}

#define CHECK_IDENT(f) check_ident(f, sizeof(f))

static void check_figures(const struct xcvr_info *x)
{
	const struct xcvr_thresh *t;

	if ((x->has[XCVR_TEMP] && !isfinite(x->temp_c)) ||
	    (x->has[XCVR_VCC] && !isfinite(x->vcc_v)))
		fail("temperature or Vcc not finite");
	for (int q = XCVR_RX_POWER; q < XCVR_NQTY; q++)
		for (int i = 0; x->has[q] && i < XCVR_LANES; i++)
			if (!isfinite(x->lane[q][i]))
				fail("lane figure not finite");
	for (int q = 0; q < XCVR_NQTY; q++) {
		t = &x->thresh[q];
		if (t->valid &&
		    (!isfinite(t->low_alarm) || !isfinite(t->high_alarm) ||
		     !isfinite(t->low_warn) || !isfinite(t->high_warn)))
			fail("threshold not finite");
	}
	if (x->lanes < 0 || x->lanes > XCVR_LANES)
		fail("lane count out of range");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = fuzz_file(data, size);
	struct xcvr_info x;
	char err[512] = "";
	int link_up,
		rc = xcvr_load_mlxlink(path, &x, &link_up, err, sizeof(err));

	if (rc == -EINVAL) {
		fuzz_check_path_err(path, err);
		return 0;
	}
	if (rc) {
		fprintf(stderr, "oracle: rc %d: \"%s\"\n", rc, err);
		abort();
	}
	if (link_up < -1 || link_up > 1)
		fail("link_up neither -1, 0 nor 1");
	CHECK_IDENT(x.vendor);
	CHECK_IDENT(x.oui);
	CHECK_IDENT(x.part_number);
	CHECK_IDENT(x.revision);
	CHECK_IDENT(x.serial);
	CHECK_IDENT(x.date_code);
	CHECK_IDENT(x.type);
	check_figures(&x);
	return 0;
}
