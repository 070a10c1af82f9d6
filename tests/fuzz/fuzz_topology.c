// SPDX-License-Identifier: MIT
/* Fuzz target: every topology format (fabric/fabric_topo*.c), lenient and
 * strict, and the model it gives through the checks that read it. */
#include "fabric/fabric_diff.h"
#include "fabric/fabric_spec.h"
#include "fabric/fabric_topo.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size), err[FABRIC_ERR_LEN] = "";
	struct fabric_findings fs = { 0 };
	struct fabric_spec *s = NULL;
	struct fabric *f = NULL;
	int strict, rc;

	for (strict = 0; strict < 2; strict++) {
		err[0] = '\0';
		rc = fabric_topo_parse_opts(FUZZ_PATH, text, strict, &f, err,
					    sizeof(err));
		fuzz_check_err(rc, err);
		if (rc)
			continue;
		if (fabric_model_check(f, &fs) == 0 &&
		    fabric_spec_from_model(f, FUZZ_PATH, &s) == 0) {
			cabling_diff(f, s, &fs);
			fabric_spec_free(s);
		}
		fabric_findings_free(&fs);
		fabric_free(f);
		f = NULL;
	}
	free(text);
	return 0;
}
