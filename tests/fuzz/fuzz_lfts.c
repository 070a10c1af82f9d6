// SPDX-License-Identifier: MIT
/*
 * Fuzz target: switch table dumps (opensm-lfts.dump, ibroute / dump_lfts
 * output; fabric/fabric_lftdump.c) over the model of a small fabric, and
 * the routing checks on what was read.
 */
#include "fabric/fabric_route.h"
#include "fabric/fabric_topo.h"
#include "fuzz.h"

#ifndef FUZZ_TOPOLOGY
#error "FUZZ_TOPOLOGY: the topology the dumps are read against"
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct fabric *m;
	const char *path = fuzz_file(data, size);
	struct fabric_findings fs = { 0 };
	struct fabric_routes r;
	char err[512] = "";
	int rc;

	if (!m && fabric_topo_load(FUZZ_TOPOLOGY, &m, err, sizeof(err)))
		abort();
	if (fabric_routes_init(&r, m))
		abort();
	rc = fabric_lft_load(&r, path, err, sizeof(err));
	if (rc == -EINVAL && !size) /* an empty file has no line to name */
		fuzz_check_empty_err(path, err);
	else if (rc == -EINVAL)
		fuzz_check_path_err(path, err);
	else if (!rc)
		fabric_route_check(&r, &fs); /* 0 or -ENOMEM */
	fabric_findings_free(&fs);
	fabric_routes_free(&r);
	return 0;
}
