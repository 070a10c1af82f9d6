// SPDX-License-Identifier: MIT
/*
 * Fuzz target: ibdiagnet2.cables (fabric/xcvr_cables.c): blocks of
 * "Key: value" lines under "Port=... GUID=..." headers, every error
 * FILE:LINE. Oracle beyond the sanitizers: each row is a port 1-255 with a
 * non-zero GUID and printable text, and a present module names itself.
 */
#include "fabric/xcvr.h"
#include "fuzz.h"

static void check_text(const char *s)
{
	for (; s && *s; s++)
		if ((unsigned char)*s < 0x20 || (unsigned char)*s >= 0x7f) {
			fprintf(stderr, "oracle: unprintable byte 0x%02x\n",
				(unsigned char)*s);
			abort();
		}
}

static int take_row(void *ctx, const struct xcvr_row *row)
{
	const struct xcvr_info *x = &row->info;

	(void)ctx;
	if (row->port < 1 || row->port > 255 || !row->port_guid ||
	    row->node_guid || row->line < 1 ||
	    (x->present && !x->vendor[0] && !x->part_number[0] &&
	     !x->serial[0])) {
		fprintf(stderr, "oracle: bad row (port %d, line %d)\n",
			row->port, row->line);
		abort();
	}
	check_text(row->port_name);
	check_text(x->vendor);
	check_text(x->part_number);
	check_text(x->serial);
	check_text(x->type);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = fuzz_file(data, size);
	char err[512] = "";
	int rc = xcvr_load_cables(path, take_row, NULL, err, sizeof(err));

	if (rc == -EINVAL)
		fuzz_check_path_err(path, err);
	return 0;
}
