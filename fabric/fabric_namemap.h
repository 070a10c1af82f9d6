/* SPDX-License-Identifier: MIT */
/* fabric_namemap.h: names from a node-name-map (common/namemap.h). */
#ifndef IBPROOF_FABRIC_NAMEMAP_H
#define IBPROOF_FABRIC_NAMEMAP_H

#include "fabric/fabric_model.h"

struct namemap;

/* Each node the map names gets that name (n->name); 0 or -ENOMEM. */
int fabric_apply_namemap(struct fabric *f, const struct namemap *m);

#endif
