// SPDX-License-Identifier: MIT
/*
 * Rank 0 gathers every rank's port (inventory.c sends them) into its
 * inventory, refuses a launch that leaves ports without a rank, and sorts
 * the inventory and the rank map together.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "burnin/coord.h"
#include "common/log.h"

static int add_port(struct burnin_coord *co, const struct wire_inventory *wi,
		    int rank)
{
	char name[2 * DPATH_NAME_MAX + 16];

	if (!wi->has_port)
		return 0;
	burnin_port_name(&wi->port, name, sizeof(name));
	if (burnin_inventory_find(co->inv, co->n_inv, name) >= 0) {
		log_error("rank %d: port %s is already driven by another rank",
			  rank, name);
		return -EEXIST;
	}
	co->inv[co->n_inv] = wi->port;
	co->inv_rank[co->n_inv++] = rank;
	return 0;
}

/* Sorts the inventory and the rank map together. */
static void sort_inventory(struct burnin_coord *co)
{
	char name[2 * DPATH_NAME_MAX + 16];
	struct dpath_port *copy =
		malloc((size_t)(co->n_inv + 1) * sizeof(*copy));
	int *ranks = malloc((size_t)(co->n_inv + 1) * sizeof(*ranks));

	if (!copy || !ranks)
		goto out;
	memcpy(copy, co->inv, (size_t)co->n_inv * sizeof(*copy));
	burnin_inventory_sort(co->inv, co->n_inv);
	for (int i = 0; i < co->n_inv; i++) {
		burnin_port_name(&copy[i], name, sizeof(name));
		ranks[burnin_inventory_find(co->inv, co->n_inv, name)] =
			co->inv_rank[i];
	}
	memcpy(co->inv_rank, ranks, (size_t)co->n_inv * sizeof(*ranks));
out:
	free(copy);
	free(ranks);
}

/*
 * Fail closed on a launch that leaves ports without a rank: with ports
 * found automatically they would go untested while the run passed (and
 * which ports a rank takes is the name order, not the operator's intent).
 */
static int check_undriven(const struct wire_inventory *wi, int rank)
{
	if (wi->node_ports <= wi->node_ranks)
		return 0;
	log_error(
		"%s: %d ports but %d ranks on this node (rank %d): %.*s would go untested; start one rank per port (mpirun --map-by ppr:%d:node, srun --ntasks-per-node=%d) or name the ports with --ports",
		wi->port.host[0] ? wi->port.host : "a node", wi->node_ports,
		wi->node_ranks, rank, (int)sizeof(wi->untested), wi->untested,
		wi->node_ports, wi->node_ports);
	return -EINVAL;
}

int burnin_inventory_gather(struct burnin_coord *co)
{
	struct burnin_bootstrap *bs = co->ctx->bs;
	int size = bs->size, ret = -ENOMEM;
	struct wire_inventory *wi = calloc((size_t)size, sizeof(*wi));
	int *peers = calloc((size_t)size, sizeof(*peers));
	bool *got = calloc((size_t)size, sizeof(*got));

	co->inv = calloc((size_t)size, sizeof(*co->inv));
	co->inv_rank = calloc((size_t)size, sizeof(*co->inv_rank));
	co->alive = calloc((size_t)size, sizeof(*co->alive));
	if (!wi || !peers || !got || !co->inv || !co->inv_rank || !co->alive)
		goto out;
	for (int r = 1; r < size; r++)
		peers[r - 1] = r;
	bs->ops->recv_many(bs, peers, size - 1, BURNIN_TAG_INVENTORY, wi + 1,
			   sizeof(*wi), got + 1,
			   clock_mono_now() + co->ctx->cfg->timeout_s);
	wi[0] = burnin_inventory_mine(co->ctx);
	got[0] = true;
	ret = 0;
	for (int r = 0; r < size && !ret; r++) {
		co->alive[r] = got[r];
		if (!got[r]) {
			log_error(
				"rank %d did not report its port within %.0f s; it is left out",
				r, co->ctx->cfg->timeout_s);
			burnin_drop_rank(co, r, 0);
		} else {
			ret = add_port(co, &wi[r], r);
		}
	}
	for (int r = 0; r < size && !ret; r++)
		ret = check_undriven(&wi[r], r);
	sort_inventory(co);
out:
	free(wi);
	free(peers);
	free(got);
	return ret;
}
