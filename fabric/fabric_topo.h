/* SPDX-License-Identifier: MIT */
/* fabric_topo.h: read ibnetdiscover topology text into a fabric model. */
#ifndef IBPROOF_FABRIC_TOPO_H
#define IBPROOF_FABRIC_TOPO_H

#include <stdbool.h>
#include <stddef.h>

#include "fabric_model.h"

bool fabric_topo_detect(const char *text);
int fabric_topo_parse(const char *path, const char *text, struct fabric **out,
		      char *err, size_t errlen);
int fabric_topo_load(const char *path, struct fabric **out, char *err,
		     size_t errlen);

#endif
