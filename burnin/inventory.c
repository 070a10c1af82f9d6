// SPDX-License-Identifier: MIT
/*
 * The inventory: each rank reports its port to rank 0, which sorts them
 * into the order every schedule is computed over. --dry-run can read it
 * from `port` records instead (--inventory FILE), touching no device.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "burnin/run.h"
#include "common/log.h"

/* This rank's inventory message: its port, and the ports it left over. */
static struct wire_inventory my_inventory(const struct burnin_ctx *ctx)
{
	struct wire_inventory wi = ctx->undriven;

	wi.has_port = ctx->has_port;
	wi.port = ctx->port;
	return wi;
}

int burnin_inventory_send(struct burnin_ctx *ctx)
{
	struct wire_inventory wi = my_inventory(ctx);

	return ctx->bs->ops->send(ctx->bs, 0, BURNIN_TAG_INVENTORY, &wi,
				  sizeof(wi),
				  clock_mono_now() + ctx->cfg->timeout_s);
}

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
	wi[0] = my_inventory(co->ctx);
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

/* The optional "leaf" switch port reference of a port record. */
static void leaf_from_record(const json_t *leaf, struct dpath_port *p)
{
	const char *guid = json_string_value(json_object_get(leaf, "guid"));
	const char *name = json_string_value(json_object_get(leaf, "node"));

	if (!guid || record_guid_parse(guid, &p->leaf_guid))
		p->leaf_guid = 0;
	p->leaf_port = (int)json_integer_value(json_object_get(leaf, "port"));
	snprintf(p->leaf_name, sizeof(p->leaf_name), "%s", name ? name : "");
}

static void port_from_record(const json_t *rec, struct dpath_port *p)
{
	const char *s;

	memset(p, 0, sizeof(*p));
	snprintf(p->host, sizeof(p->host), "%s",
		 json_string_value(json_object_get(rec, "host")));
	snprintf(p->ca, sizeof(p->ca), "%s",
		 json_string_value(json_object_get(rec, "ca")));
	p->port = (int)json_integer_value(json_object_get(rec, "port"));
	s = json_string_value(json_object_get(rec, "guid"));
	if (s)
		record_guid_parse(s, &p->guid);
	p->lid = (uint16_t)json_integer_value(json_object_get(rec, "lid"));
	p->ethernet =
		!strcmp(json_string_value(json_object_get(rec, "link_layer")),
			"Ethernet");
	snprintf(p->state, sizeof(p->state), "%s",
		 json_string_value(json_object_get(rec, "state")));
	p->rate_gbps = json_number_value(json_object_get(rec, "rate_gbps"));
	p->width = (int)json_integer_value(json_object_get(rec, "width"));
	s = json_string_value(json_object_get(rec, "speed"));
	snprintf(p->speed, sizeof(p->speed), "%s", s ? s : "");
	p->rail = (int)json_integer_value(json_object_get(rec, "rail"));
	leaf_from_record(json_object_get(rec, "leaf"), p);
	p->numa_node = -1;
	p->gid_index = -1;
}

static bool name_too_long(const json_t *rec, const char *key, size_t size)
{
	return json_string_length(json_object_get(rec, key)) >= size;
}

int burnin_inventory_load(const char *path, struct dpath_port **ports, int *n)
{
	struct record_reader *r = record_reader_open(path);
	struct dpath_port *p = NULL, *grown;
	char name[2 * DPATH_NAME_MAX + 16];
	json_t *rec;
	int k = 0, ret;

	if (!r) {
		log_error("%s: %m", path);
		return -errno;
	}
	while ((ret = record_reader_next(r, &rec)) == 1) {
		if (!strcmp(json_string_value(json_object_get(rec, "kind")),
			    "port")) {
			grown = realloc(p, (size_t)(k + 1) * sizeof(*p));
			if (!grown) {
				json_decref(rec);
				ret = -ENOMEM;
				break;
			}
			p = grown;
			if (name_too_long(rec, "host", sizeof(p->host)) ||
			    name_too_long(rec, "ca", sizeof(p->ca))) {
				/* cut, two ports would merge (D16) */
				log_error("%s:%lu: port record: host or ca "
					  "name longer than %zu bytes",
					  path, record_reader_line(r),
					  sizeof(p->host) - 1);
				json_decref(rec);
				ret = -EINVAL;
				goto out;
			}
			port_from_record(rec, &p[k]);
			burnin_port_name(&p[k], name, sizeof(name));
			if (burnin_inventory_find(p, k, name) < 0)
				k++; /* a resumed file lists its ports again */
		}
		json_decref(rec);
	}
	if (ret == -EINVAL)
		log_error("%s", record_reader_error(r));
out:
	record_reader_close(r);
	if (ret) {
		free(p);
		return ret;
	}
	burnin_inventory_sort(p, k);
	*ports = p;
	*n = k;
	return 0;
}
