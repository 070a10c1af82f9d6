// SPDX-License-Identifier: MIT
/*
 * Fuzz target: the CABLE_INFO section of ibdiagnet2.db_csv
 * (fabric/xcvr_files.c): columns by header name, every error FILE:LINE.
 */
#include "fabric/xcvr.h"
#include "fuzz.h"

static int take_row(void *ctx, const struct xcvr_row *row)
{
	(void)ctx;
	(void)row;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = fuzz_file(data, size);
	char err[512] = "";
	int rc = xcvr_load_ibdiagnet(path, take_row, NULL, err, sizeof(err));

	if (rc == -EINVAL)
		fuzz_check_path_err(path, err);
	return 0;
}
