/* SPDX-License-Identifier: MIT */
/*
 * fabric_records.h: the model and the forwarding tables back from the
 * records of `ibproof fabric routes --records` (its `link` and `lft`
 * records; every other kind is skipped). Pure: no MAD.
 */
#ifndef IBPROOF_FABRIC_RECORDS_H
#define IBPROOF_FABRIC_RECORDS_H

#include <stddef.h>

#include "fabric/fabric_model.h"
#include "fabric/fabric_route.h"

/*
 * Reads path into a new model *m and its tables r (initialised here; the
 * caller frees both with fabric_routes_free() and fabric_free(), also
 * after an error). 0; -EINVAL with "FILE:LINE: what was expected" in err;
 * -errno when the file cannot be read; -ENOMEM.
 */
int fabric_records_load(const char *path, struct fabric **m,
			struct fabric_routes *r, char *err, size_t errlen);

#endif
