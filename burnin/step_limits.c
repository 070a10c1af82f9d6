// SPDX-License-Identifier: MIT
/*
 * step_limits.c: burnin's per-step counter rises through the one table of
 * counter limits (fabric/fabric_limits.c).
 */
#include <string.h>

#include "burnin/step_limits.h"
#include "common/ibrate.h"
#include "fabric/fabric_limits.h"

/* Bits received in the step: sysfs port_rcv_data counts 4-octet words
 * (IBTA PortRcvData); a worker sends it when it moved. */
static double rcv_bits(const struct wire_result *r)
{
	for (int i = 0; i < r->n_counters; i++)
		if (!strcmp(r->counters[i].name, "port_rcv_data"))
			return r->counters[i].saturated
				       ? -1
				       : (double)r->counters[i].delta * 32.0;
	return 0;
}

bool burnin_step_rise_fails(const struct dpath_port *port,
			    const struct wire_result *r,
			    const struct wire_counter *c)
{
	int id = ib_pc_sysfs_index(c->name);
	struct fabric_limit_in in = { 0 };
	struct fabric_limit_out o;

	if (id < 0 || !ib_pc_defs[id].error || !c->delta)
		return false;
	in.count = c->delta;
	in.saturated = c->saturated;
	in.data_bits = rcv_bits(r);
	in.seconds = r->res.seconds > 0 ? r->res.seconds : 0;
	in.speed = ib_speed_from_name(port->speed);
	in.lanes = port->width;
	in.threshold = fabric_limits[id].window;
	fabric_limit_judge(id, &in, &o);
	return o.severity && !strcmp(o.severity, "fail");
}
