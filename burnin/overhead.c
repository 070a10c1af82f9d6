// SPDX-License-Identifier: MIT
/*
 * What burnin adds to each step beyond the measurement window (instructions
 * to every rank, endpoint setup, the connection exchange, connect, the
 * gather to rank 0, the flushed records): measured by rank 0 in every run
 * (the run end record's "orchestration"), and the model --dry-run predicts
 * with, fitted to bench/burnin/orchestration (docs/burnin.md, "Per-step
 * overhead").
 */
#include "burnin/coord.h"

/*
 * overhead(n) = BASE + PER_PORT x n, n the ports (ranks) of the run. Each
 * rank's own part runs in parallel on a cluster; what grows with n is
 * rank 0's serial part: an instruction to send, a result to take and a
 * pair record to write per rank: 20-50 us per rank measured under mpirun
 * at 64-256 ranks (bench/burnin/orchestration, duplex steps); the base is
 * a step of 8-16 ranks (1.2-1.9 ms). Figures in docs/burnin.md.
 */
#define STEP_BASE_S 0.002
#define STEP_PER_PORT_S 40e-6

double burnin_step_overhead_s(int n_ports)
{
	return STEP_BASE_S + STEP_PER_PORT_S * (n_ports > 0 ? n_ports : 0);
}

void burnin_overhead_note(struct burnin_coord *co, double step_s,
			  double serial_s)
{
	const struct dpath_params *p = &co->ctx->cfg->params;
	double over = step_s - p->warmup_s - p->duration_s;

	co->overhead.steps++;
	co->overhead.total_s += over > 0 ? over : 0;
	co->overhead.serial_s += serial_s;
}

json_t *burnin_overhead_json(const struct burnin_coord *co)
{
	int n = co->overhead.steps;

	return json_pack("{s:i,s:f,s:f,s:f}", "steps", n, "step_overhead_s",
			 n ? co->overhead.total_s / n : 0.0, "rank0_serial_s",
			 n ? co->overhead.serial_s / n : 0.0,
			 "model_step_overhead_s",
			 burnin_step_overhead_s(co->n_inv));
}
