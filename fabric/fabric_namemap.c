// SPDX-License-Identifier: MIT
/* fabric_namemap.c: names from a node-name-map onto the nodes of a model. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/namemap.h"
#include "fabric/fabric_namemap.h"

int fabric_apply_namemap(struct fabric *f, const struct namemap *m)
{
	struct fabric_node *n;
	const char *name;
	size_t i;

	for (i = 0; i < f->nnodes; i++) {
		n = f->nodes[i];
		name = namemap_lookup(m, n->guid);
		if (!name)
			continue;
		free(n->map_name);
		n->map_name = strdup(name);
		if (!n->map_name)
			return -ENOMEM;
		n->name = n->map_name;
	}
	return 0;
}
