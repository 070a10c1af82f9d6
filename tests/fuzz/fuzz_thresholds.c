// SPDX-License-Identifier: MIT
/* Fuzz target: ibqueryerrors thresholds (fabric/fabric_counters.c). */
#include "fabric/fabric_counters.h"
#include "fabric/fabric_spec.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size), err[FABRIC_ERR_LEN] = "";
	struct fabric_thresholds t;
	int rc;

	fabric_thresholds_default(&t);
	rc = fabric_thresholds_parse(FUZZ_PATH, text, &t, err, sizeof(err));
	fuzz_check_err(rc, err);
	free(text);
	return 0;
}
