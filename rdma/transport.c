// SPDX-License-Identifier: MIT
/*
 * The backends of the transport seam by name: the one place that lists
 * them, so that the orchestration chooses one without naming it.
 */
#include <stddef.h>
#include <string.h>

#include "rdma/fake_transport.h"
#include "rdma/transport.h"

static const struct dpath_transport_ops *const backends[] = {
	&dpath_verbs_ops,
	&dpath_fake_ops,
};

const struct dpath_transport_ops *dpath_transport_find(const char *name)
{
	for (size_t i = 0; i < sizeof(backends) / sizeof(backends[0]); i++)
		if (!strcmp(backends[i]->name, name))
			return backends[i];
	return NULL;
}
