// SPDX-License-Identifier: MIT
/* Fuzz target: the CSV cabling spec (fabric/fabric_spec.c). */
#include "fabric/fabric_spec.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size), err[FABRIC_ERR_LEN] = "";
	struct fabric_spec *s = NULL;
	int rc = fabric_spec_parse_csv(FUZZ_PATH, text, &s, err, sizeof(err));

	fuzz_check_err(rc, err);
	if (!rc)
		fabric_spec_free(s);
	free(text);
	return 0;
}
