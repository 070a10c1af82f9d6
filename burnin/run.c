// SPDX-License-Identifier: MIT
/*
 * burnin_run(): one rank's whole life. Find the local ports, take the one
 * of this rank's node-local index, pin to its NUMA node, report it to rank
 * 0, then either follow rank 0 (worker.c) or drive the run (coord.c).
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "burnin/coord.h"
#include "burnin/resume.h"
#include "common/cli.h"
#include "common/log.h"
#include "common/sysfs.h"

int burnin_pin_numa(int numa_node, const char *sysfs_root)
{
	char rel[64], list[4096], *save = NULL, *tok;
	cpu_set_t set;
	int ret;

	snprintf(rel, sizeof(rel), "devices/system/node/node%d/cpulist",
		 numa_node);
	ret = sysfs_read(sysfs_root, rel, list, sizeof(list));
	if (ret)
		return ret;
	CPU_ZERO(&set);
	for (tok = strtok_r(list, ",\n", &save); tok;
	     tok = strtok_r(NULL, ",\n", &save)) {
		int lo, hi;
		int k = sscanf(tok, "%d-%d", &lo, &hi);

		for (int c = lo;
		     k >= 1 && c <= (k == 2 ? hi : lo) && c < CPU_SETSIZE; c++)
			CPU_SET(c, &set);
	}
	if (!CPU_COUNT(&set))
		return -EINVAL;
	return sched_setaffinity(0, sizeof(set), &set) ? -errno : 0;
}

/* Ports beyond the node's ranks: named in the inventory, a launch error. */
static void note_undriven(struct burnin_ctx *ctx,
			  const struct dpath_port *ports, int n)
{
	struct wire_inventory *u = &ctx->undriven;
	char name[2 * DPATH_NAME_MAX + 16];
	size_t len = 0;

	u->node_ports = n;
	u->node_ranks = ctx->bs->local_size;
	for (int i = ctx->bs->local_size; i < n && len < sizeof(u->untested);
	     i++) {
		burnin_port_name(&ports[i], name, sizeof(name));
		len += (size_t)snprintf(u->untested + len,
					sizeof(u->untested) - len, "%s%s",
					len ? ", " : "", name);
	}
}

/* This rank's port: the node-local rank's index among the local ports. */
static int pick_port(struct burnin_ctx *ctx)
{
	struct dpath_port *ports = NULL;
	int n = 0, lr = ctx->bs->local_rank;
	int ret = ctx->cfg->ops->list_ports(ctx->cfg->ports_filter, &ports, &n);

	if (ret) {
		log_error("rank %d: listing the %s ports failed: %s",
			  ctx->bs->rank, ctx->cfg->ops->name, strerror(-ret));
		return ret;
	}
	burnin_inventory_sort(ports, n);
	if (lr < n) {
		ctx->port = ports[lr];
		ctx->has_port = true;
	}
	if (lr == 0 && ctx->bs->local_size < n)
		note_undriven(ctx, ports, n);
	if (lr >= n)
		log_warn(
			"rank %d: no port left for node-local rank %d (%d ports)",
			ctx->bs->rank, lr, n);
	free(ports);
	return 0;
}

static void pin(struct burnin_ctx *ctx)
{
	int ret;

	if (!ctx->cfg->pin_numa || !ctx->has_port || ctx->port.numa_node < 0)
		return;
	ret = burnin_pin_numa(ctx->port.numa_node, "/sys");
	if (ret)
		log_warn("%s port %d: cannot pin to NUMA node %d: %s",
			 ctx->port.ca, ctx->port.port, ctx->port.numa_node,
			 strerror(-ret));
}

static int plan(struct burnin_coord *co)
{
	int code;

	if (co->n_inv < 2) {
		log_error(
			"%d port(s) in the inventory: burnin needs at least 2 (one MPI rank per port)",
			co->n_inv);
		return IBP_EXIT_RUNTIME;
	}
	code = burnin_plan_keep(co->ctx->cfg, co->inv, co->n_inv, &co->sched,
				&co->routes);
	co->n_main_rounds = co->sched.n_rounds;
	return code;
}

static int open_records(struct burnin_coord *co)
{
	const struct burnin_config *cfg = co->ctx->cfg;
	int ret;

	if (cfg->resume) {
		ret = burnin_resume_load(co, cfg->resume);
		if (ret)
			return ret == -EINVAL ? IBP_EXIT_USAGE
					      : IBP_EXIT_RUNTIME;
	}
	if (!cfg->records)
		return IBP_EXIT_PASS;
	/* never truncate during a resume: --records may name FILE otherwise */
	co->w = record_writer_open(cfg->records, cfg->resume != NULL);
	if (!co->w) {
		log_error("%s: %m", cfg->records);
		return IBP_EXIT_RUNTIME;
	}
	return IBP_EXIT_PASS;
}

static int lead(struct burnin_coord *co)
{
	int code;

	code = burnin_inventory_gather(co);
	if (code)
		return code == -EINVAL ? IBP_EXIT_USAGE : IBP_EXIT_RUNTIME;
	code = plan(co);
	if (code == IBP_EXIT_PASS && co->ctx->cfg->dry_run) {
		burnin_print_plan(co->ctx->cfg, co->inv, co->n_inv, &co->sched);
		return IBP_EXIT_PASS;
	}
	if (code == IBP_EXIT_PASS)
		code = open_records(co);
	if (code == IBP_EXIT_PASS)
		return burnin_coordinate(co);
	return code;
}

static void start_watchdog(struct burnin_ctx *ctx)
{
	char who[256], port[2 * DPATH_NAME_MAX + 16] = "no port";

	if (ctx->cfg->dry_run)
		return;
	if (ctx->has_port)
		burnin_port_name(&ctx->port, port, sizeof(port));
	snprintf(who, sizeof(who), "rank %d (%s)", ctx->bs->rank, port);
	ctx->wd = burnin_watchdog_start(who);
	ctx->reaper = burnin_reaper_start(ctx->cfg->ops, who,
					  BURNIN_TEARDOWN_BUDGET_S);
}

/* The watchdog, and the reaper after its last teardowns (bounded). */
static void stop_helpers(struct burnin_ctx *ctx)
{
	burnin_reaper_stop(ctx->reaper, burnin_step_seconds(ctx->cfg));
	burnin_watchdog_stop(ctx->wd);
}

int burnin_run(const struct burnin_config *cfg, struct burnin_bootstrap *bs)
{
	struct burnin_ctx ctx = { .cfg = cfg, .bs = bs };
	struct burnin_coord co;
	int code;

	if (pick_port(&ctx))
		ctx.has_port = false;
	pin(&ctx);
	start_watchdog(&ctx);
	if (bs->rank) {
		if (burnin_inventory_send(&ctx))
			log_error("rank %d: rank 0 did not take the inventory",
				  bs->rank);
		code = burnin_worker_loop(&ctx);
		stop_helpers(&ctx);
		return code;
	}
	burnin_coord_init(&co, &ctx);
	code = lead(&co);
	burnin_stop_workers(&co);
	stop_helpers(&ctx);
	if (burnin_coord_release(&co))
		code = IBP_EXIT_RUNTIME;
	bs->end_job = bs->peers_lost; /* after the last record */
	bs->exit_code = code;
	return code;
}

struct thread_rank {
	pthread_t tid;
	const struct burnin_config *cfg;
	struct burnin_bootstrap *bs;
	int code;
	bool started; /* the caller's own: code is the thread's */
};

static void *thread_main(void *p)
{
	struct thread_rank *t = p;

	t->code = burnin_run(t->cfg, t->bs);
	return NULL;
}

/* No MPI launcher: the local ports against each other, a thread each. */
int burnin_run_local(const struct burnin_config *cfg)
{
	struct dpath_port *ports = NULL;
	struct burnin_bootstrap **bs;
	struct thread_rank *t;
	int n = 0, code = IBP_EXIT_RUNTIME;

	if (cfg->ops->list_ports(cfg->ports_filter, &ports, &n))
		return IBP_EXIT_RUNTIME;
	free(ports);
	if (n < 2) {
		log_error(
			"%d local %s port(s): without mpirun burnin needs 2 ports on this node",
			n, cfg->ops->name);
		return IBP_EXIT_RUNTIME;
	}
	bs = calloc((size_t)n, sizeof(*bs));
	t = calloc((size_t)n, sizeof(*t));
	if (!bs || !t || burnin_bootstrap_threads_open(n, bs))
		goto out;
	for (int i = 0; i < n; i++) {
		t[i] = (struct thread_rank){ .cfg = cfg, .bs = bs[i] };
		/* a thread not started: the others time out waiting for it */
		t[i].started =
			!pthread_create(&t[i].tid, NULL, thread_main, &t[i]);
		if (!t[i].started)
			t[i].code = -1;
	}
	for (int i = 0; i < n; i++)
		if (t[i].started)
			pthread_join(t[i].tid, NULL);
	code = t[0].code;
	burnin_bootstrap_threads_free(bs, n);
out:
	free(bs);
	free(t);
	return code;
}
