// SPDX-License-Identifier: MIT
/*
 * TEMPORARY: stands in for burnin_verbs_ops until branch burnin-verbs
 * (verbs_ops.c) is merged; removed by that merge. It tests nothing and
 * says so.
 */
#include <errno.h>

#include "burnin/transport.h"
#include "common/log.h"

static int stub_list_ports(const char *filter, struct burnin_port **ports,
			   int *n_ports)
{
	(void)filter;
	(void)ports;
	(void)n_ports;
	log_error("the verbs transport is not built yet (branch burnin-verbs); use --transport fake for tests");
	return -ENOSYS;
}

const struct burnin_transport_ops burnin_verbs_ops = {
	.name = "verbs",
	.list_ports = stub_list_ports,
};
