// SPDX-License-Identifier: MIT
/*
 * Fuzz target: `mlxlink -c` "Physical Counters and BER Info", as text or
 * --json (fabric/phy_ber.c, phy_ber_json.c). Oracles: a refused input is
 * "PATH:LINE: ..."; every figure read is finite and not negative; the
 * lanes stay within a port's; the judgement's findings name a category of
 * its own.
 */
#include <math.h>

#include "fabric/phy_ber.h"
#include "fuzz.h"

static void fail(const char *what)
{
	fprintf(stderr, "oracle: %s\n", what);
	abort();
}

static void check_figure(bool has, double v)
{
	if (has && (!isfinite(v) || v < 0))
		fail("a BER read is not a finite non-negative number");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size), err[512] = "";
	struct fabric_findings fs = { 0 };
	struct phy_ber b;
	int rc;

	rc = phy_ber_parse_text(FUZZ_PATH, text, &b, err, sizeof(err));
	fuzz_check_err(rc, err);
	if (!rc) {
		check_figure(b.has_raw, b.raw_ber);
		check_figure(b.has_eff, b.eff_ber);
		check_figure(b.has_sym, b.sym_ber);
		check_figure(b.minutes >= 0, b.minutes);
		if (b.lanes < 0 || b.lanes > PHY_BER_LANES)
			fail("lane count out of range");
		if (phy_ber_judge(&b, IB_SPEED_NDR, NULL, "p", &fs))
			fail("judge failed");
		for (size_t i = 0; i < fs.n; i++)
			if (strcmp(fs.v[i].category, "ber-raw") &&
			    strcmp(fs.v[i].category, "ber-post-fec"))
				fail("a finding of a foreign category");
		json_decref(phy_ber_json(&b));
		fabric_findings_free(&fs);
	}
	free(text);
	return 0;
}
