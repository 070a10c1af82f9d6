// SPDX-License-Identifier: MIT
/* Fuzz target: the node-name-map (common/namemap.c). */
#include "common/namemap.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size), err[512] = "";
	struct namemap *m = NULL;
	int rc = namemap_parse(FUZZ_PATH, text, &m, err, sizeof(err));

	fuzz_check_err(rc, err);
	if (!rc) {
		namemap_lookup(m, 0x0008f10300000001ULL);
		namemap_free(m);
	}
	free(text);
	return 0;
}
