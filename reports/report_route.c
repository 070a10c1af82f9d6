// SPDX-License-Identifier: MIT
/*
 * Judging by route in the report (docs/judging.md "Judging by route"):
 * the paths pair records carry (`cables`, `cables_ba`, cable ids) and the
 * `cable` records (ends, counters) go through judge_cables(), the same
 * judge burnin's rank 0 runs, and its findings come from the same maker
 * (judge/cablefind.h): a blamed cable's `bad-cable` (replace-cable, both
 * ends, so both transceivers join as for any cable); the candidates the
 * evidence fits equally, one `cable-or-port` or `ambiguous-cables`
 * finding (locate) naming them all.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/array.h"
#include "common/record.h"
#include "common/strtab.h"
#include "judge/cablefind.h"
#include "judge/cablejudge.h"
#include "reports/report.h"
#include "reports/report_scan.h"

_Static_assert(SCAN_PATH_MAX == 16, "report.h's idx[][16]");

struct route_cable {
	const char *id; /* interned "0xGUID:PORT" */
	bool at_edge, inside; /* first or last of a path; in between */
	json_t *rec; /* its cable record, or NULL */
	bool load_read,
		load_inter; /* cable-load: counters read, inter-switch */
	uint64_t load_err; /* their error rises, both ends, every step */
};

struct report_routes {
	struct strtab ids; /* cable id -> index + 1 */
	struct route_cable *cables;
	size_t n_cables, cap_cables;
	/* the paths as CSR: pair p's cables are ent_cable[pstart[p] ..
	 * pstart[p + 1]) (pairs come in order: report_pair_add appends them
	 * under the lock their paths are taken under); pairs past n_pstart
	 * have none */
	uint32_t *pstart, *ent_cable;
	size_t n_pstart, cap_pstart, n_ent, cap_ent;
	uint8_t *explained; /* per pair, after judging: a cable explains it */
	size_t n_explained;
	/* the steps of routes-not-followed findings: no route evidence */
	struct judge_step *unfollowed;
	size_t n_unfollowed, cap_unfollowed;
};

static struct report_routes *routes_of(struct report *r)
{
	if (!r->routes)
		r->routes = calloc(1, sizeof(*r->routes));
	return r->routes;
}

void report_route_free(struct report *r)
{
	struct report_routes *rt = r->routes;

	if (!rt)
		return;
	for (size_t c = 0; c < rt->n_cables; c++)
		json_decref(rt->cables[c].rec);
	strtab_free(&rt->ids);
	free(rt->cables);
	free(rt->pstart);
	free(rt->ent_cable);
	free(rt->explained);
	free(rt->unfollowed);
	free(rt);
	r->routes = NULL;
}

/* The index of cable id, added when new; -1 on ENOMEM. */
static long cable_index(struct report *r, const char *id)
{
	struct report_routes *rt = r->routes;
	const long *idx = strtab_get(&rt->ids, id);
	struct route_cable *c;

	if (idx)
		return *idx - 1;
	if (array_reserve(&rt->cables, &rt->cap_cables, rt->n_cables,
			  sizeof(*c)))
		return -1;
	c = &rt->cables[rt->n_cables];
	*c = (struct route_cable){ .id = strtab_intern(&r->strs, id) };
	if (!c->id || strtab_put(&rt->ids, id, (long)rt->n_cables + 1) < 0)
		return -1;
	return (long)rt->n_cables++;
}

/* Entry k of n of a pair's path: cable c, its place in the path. */
static int take_index(struct report *r, long c, size_t k, size_t n, size_t pair)
{
	struct report_routes *rt = r->routes;

	if (pair + 1 < rt->n_pstart || rt->n_ent >= UINT32_MAX)
		return -EINVAL; /* out of order, or past the CSR's index */
	if (c < 0 || array_reserve(&rt->ent_cable, &rt->cap_ent, rt->n_ent,
				   sizeof(*rt->ent_cable)))
		return -ENOMEM;
	for (; rt->n_pstart <= pair; rt->n_pstart++) {
		if (array_reserve(&rt->pstart, &rt->cap_pstart, rt->n_pstart,
				  sizeof(*rt->pstart)))
			return -ENOMEM;
		rt->pstart[rt->n_pstart] = (uint32_t)rt->n_ent;
	}
	if (k == 0 || k + 1 == n)
		rt->cables[c].at_edge = true;
	else
		rt->cables[c].inside = true;
	rt->ent_cable[rt->n_ent++] = (uint32_t)c;
	return 0;
}

static int take_id(struct report *r, const char *id, size_t k, size_t n,
		   size_t pair)
{
	return take_index(r, cable_index(r, id), k, n, pair);
}

static int take_path(struct report *r, const json_t *arr, size_t pair)
{
	size_t n = json_array_size(arr);

	for (size_t k = 0; k < n; k++) {
		const char *id = json_string_value(json_array_get(arr, k));
		int ret = id ? take_id(r, id, k, n, pair) : 0;

		if (ret)
			return ret;
	}
	return 0;
}

void report_route_cache_free(struct report_route_cache *c)
{
	strtab_free(&c->ids);
}

/* The index of cable id: the thread's table, else the report's. */
static long cached_index(struct report *r, struct report_route_cache *cache,
			 const char *id)
{
	const long *v = strtab_get(&cache->ids, id);
	long c;

	if (v)
		return *v - 1;
	pthread_mutex_lock(&r->lock);
	c = routes_of(r) ? cable_index(r, id) : -1;
	pthread_mutex_unlock(&r->lock);
	if (c >= 0 && strtab_put(&cache->ids, id, c + 1) < 0)
		return -1;
	return c;
}

int report_route_resolve_scan(struct report *r, struct report_route_cache *c,
			      const struct scan_path *path, uint32_t idx[][16])
{
	for (int i = 0; i < 2; i++)
		for (int k = 0; k < path[i].n; k++) {
			char id[SCAN_CABLE_ID_MAX + 1];
			long ci;

			memcpy(id, path[i].id[k].s, path[i].id[k].len);
			id[path[i].id[k].len] = '\0';
			ci = cached_index(r, c, id);
			if (ci < 0)
				return -ENOMEM;
			idx[i][k] = (uint32_t)ci;
		}
	return 0;
}

/* The same from the fast scanner's paths (report_scan.h), resolved. */
int report_route_take_scan(struct report *r, const struct scan_path *path,
			   uint32_t idx[][16], size_t pair)
{
	if (!path[0].present && !path[1].present)
		return 0;
	if (!routes_of(r))
		return -ENOMEM;
	for (int i = 0; i < 2; i++)
		for (int k = 0; k < path[i].n; k++) {
			int ret = take_index(r, idx[i][k], (size_t)k,
					     (size_t)path[i].n, pair);

			if (ret)
				return ret;
		}
	return 0;
}

int report_route_take_pair(struct report *r, const json_t *rec, size_t pair)
{
	const json_t *ab = json_object_get(rec, "cables");
	const json_t *ba = json_object_get(rec, "cables_ba");

	if (!json_is_array(ab) && !json_is_array(ba))
		return 0;
	if (!routes_of(r))
		return -ENOMEM;
	return take_path(r, ab, pair) ?: take_path(r, ba, pair);
}

int report_route_take_cable(struct report *r, const json_t *rec)
{
	const char *id = json_string_value(json_object_get(rec, "id"));
	long c;

	if (!id)
		return 0;
	if (!routes_of(r) || (c = cable_index(r, id)) < 0)
		return -ENOMEM;
	json_decref(r->routes->cables[c].rec);
	r->routes->cables[c].rec = json_incref((json_t *)rec);
	return 0;
}

int report_route_take_finding(struct report *r, const json_t *rec, uint16_t run)
{
	const char *cat = json_string_value(json_object_get(rec, "category"));
	const json_t *ev = json_object_get(rec, "evidence");
	const json_t *round = json_object_get(ev, "round");
	const char *test = json_string_value(json_object_get(ev, "test"));
	struct report_routes *rt;

	if (!cat || strcmp(cat, "routes-not-followed") ||
	    !json_is_integer(round) || json_integer_value(round) < 0 || !test)
		return 0; /* not one, or no step to withhold */
	rt = routes_of(r);
	if (!rt || array_reserve(&rt->unfollowed, &rt->cap_unfollowed,
				 rt->n_unfollowed, sizeof(*rt->unfollowed)))
		return -ENOMEM;
	/* rounds as the pair records count them (from 1), run: the file */
	rt->unfollowed[rt->n_unfollowed++] = (struct judge_step){
		.run = run,
		.round = (uint32_t)json_integer_value(round),
		.test = !strcmp(test, "read"),
	};
	return 0;
}

/* The sum of an errors_from / errors_to object, saturating. */
static uint64_t error_sum(const json_t *errs, uint64_t sum)
{
	const char *name;
	json_t *v;

	json_object_foreach((json_t *)errs, name, v)
	{
		json_int_t n = json_integer_value(v);

		(void)name;
		if (n > 0)
			sum = sum > UINT64_MAX - (uint64_t)n
				      ? UINT64_MAX
				      : sum + (uint64_t)n;
	}
	return sum;
}

/*
 * A `cable-load` record of the load proof: its error rises at both ends,
 * summed over the steps into the cable judge's cable (joined on the egress
 * end, from.guid + from.port, the cable id), as burnin's rank 0 sums them
 * (burnin_load_proof_cable_error_total): counters count when read. Since
 * issue 35 burnin judges each rise by the counter limits with the bits of
 * its step, and only those over their limit count (`errors_over_from`,
 * `errors_over_to`); a record from before has every rise counted.
 */
int report_route_take_load(struct report *r, const json_t *rec)
{
	const json_t *from = json_object_get(rec, "from");
	const json_t *ef = json_object_get(rec, "errors_from");
	struct route_cable *c;
	uint64_t guid;
	char id[48];
	long i;

	if (!json_is_string(json_object_get(from, "guid")) ||
	    record_guid_parse(json_string_value(json_object_get(from, "guid")),
			      &guid))
		return 0; /* the reader validated it: nothing to join */
	snprintf(id, sizeof(id), "0x%016" PRIx64 ":%d", guid,
		 (int)json_integer_value(json_object_get(from, "port")));
	if (!routes_of(r) || (i = cable_index(r, id)) < 0)
		return -ENOMEM;
	c = &r->routes->cables[i];
	c->load_inter |= json_is_true(json_object_get(rec, "inter_switch"));
	if (!json_is_object(ef))
		return 0; /* unread: no counters of this step */
	c->load_read = true;
	if (json_is_object(json_object_get(rec, "errors_over_from")))
		c->load_err = error_sum(
			json_object_get(rec, "errors_over_to"),
			error_sum(json_object_get(rec, "errors_over_from"),
				  c->load_err));
	else
		c->load_err = error_sum(json_object_get(rec, "errors_to"),
					error_sum(ef, c->load_err));
	return 0;
}

/* The CSR's starts for n_pairs pairs (those past the last path: none). */
static uint32_t *paths_start(const struct report_routes *rt, size_t n_pairs)
{
	uint32_t *start = malloc((n_pairs + 1) * sizeof(*start));

	for (size_t p = 0; start && p <= n_pairs; p++)
		start[p] =
			p < rt->n_pstart ? rt->pstart[p] : (uint32_t)rt->n_ent;
	return start;
}

/* Its counters: the cable record's err_delta (burnin judged them), or
 * the load proof's rises; the larger when both. */
static void cable_in_of(const struct route_cable *c, struct judge_cable_in *in)
{
	uint64_t guid = 0;
	unsigned int port = 0;
	const json_t *err = json_object_get(json_object_get(c->rec, "evidence"),
					    "err_delta");
	uint64_t rec_err = json_is_integer(err) && json_integer_value(err) > 0
				   ? (uint64_t)json_integer_value(err)
				   : 0;

	*in = (struct judge_cable_in){
		.inter_switch =
			!c->at_edge && (c->inside || c->rec || c->load_inter),
		.has_counters = json_is_integer(err) || c->load_read,
		.err_delta = rec_err > c->load_err ? rec_err : c->load_err,
	};
	if (sscanf(c->id, "0x%" SCNx64 ":%u", &guid, &port) == 2) {
		in->id_guid = guid;
		in->id_port = port;
	}
}

bool report_route_explained(const struct report *r, size_t pair)
{
	const struct report_routes *rt = r->routes;

	return rt && rt->explained && pair < rt->n_explained &&
	       rt->explained[pair];
}

/* The module a transceiver record put at the end, when it has none. */
static json_t *with_xcvr(const struct report *r, json_t *ref)
{
	const struct report_xcvr *x;
	uint64_t guid = 0;

	if (!ref || json_object_get(ref, "transceiver"))
		return ref;
	if (!json_is_string(json_object_get(ref, "guid")) ||
	    record_guid_parse(json_string_value(json_object_get(ref, "guid")),
			      &guid))
		return ref;
	x = report_xcvr_at(
		r, guid, (int)json_integer_value(json_object_get(ref, "port")));
	if (x && (x->vendor || x->part_number || x->serial))
		json_object_set_new(ref, "transceiver",
				    json_pack("{s:s?, s:s?, s:s?}", "vendor",
					      x->vendor, "part_number",
					      x->part_number, "serial",
					      x->serial));
	return ref;
}

/* One end of the cable ("from", "to"): from its record, else the egress
 * port of its id and the link there. */
static json_t *cable_end(struct report *r, const struct route_cable *c,
			 const char *which)
{
	const json_t *ref = json_object_get(c->rec, which);
	bool from = !strcmp(which, "from");
	const struct report_end *e = NULL;
	uint64_t guid = 0;
	int port = 0, li;
	char g[19];

	if (json_is_object(ref))
		return json_deep_copy(ref);
	if (sscanf(c->id, "0x%" SCNx64 ":%d", &guid, &port) != 2)
		return NULL;
	li = report_link_find(r, guid, port);
	if (li >= 0) {
		bool a = r->links[li].a.guid == guid &&
			 r->links[li].a.port == port;

		e = a == from ? &r->links[li].a : &r->links[li].b;
	}
	if (e && e->name)
		return record_switch_port_ref(e->name, e->guid, e->port);
	if (!from)
		return NULL;
	/* no name known: the node GUID (the id adds the port) */
	return record_switch_port_ref(
		report_node_name(r, guid, record_guid_str(guid, g)), guid,
		port);
}

/* The one finding maker (judge/cablefind.h) names the parts from the
 * records: the cable records' ends, else the links, else the id. */
static void namer_id(void *arg, uint32_t c, char *buf, size_t len)
{
	struct report *r = arg;

	snprintf(buf, len, "%s", r->routes->cables[c].id);
}

static json_t *namer_end(void *arg, uint32_t c, bool from)
{
	struct report *r = arg;

	return with_xcvr(
		r, cable_end(r, &r->routes->cables[c], from ? "from" : "to"));
}

static json_t *namer_port(void *arg, uint32_t p)
{
	struct report *r = arg;
	const struct report_hport *h = &r->hports[p];

	return record_port_ref(h->host, h->ca, h->port, h->guid);
}

int report_route_judge(struct report *r, const struct judge_pair *pairs,
		       struct judge_result *res, json_t *findings)
{
	struct report_routes *rt = r->routes;
	struct judge_cable_params cp;
	struct judge_cable_result cr;
	struct judge_cable_in *in;
	uint32_t *start = NULL;
	uint64_t *key = NULL;
	uint8_t *adaptive = NULL;
	int ret;

	if (!rt || !rt->n_cables)
		return 0;
	in = calloc(rt->n_cables, sizeof(*in));
	key = malloc((r->n_hports + 1) * sizeof(*key));
	start = paths_start(rt, res->n_pairs);
	adaptive = malloc(res->n_pairs + 1);
	ret = in && key && start && adaptive ? 0 : -ENOMEM;
	if (ret)
		goto out;
	for (size_t i = 0; i < res->n_pairs; i++) /* as burnin recorded */
		adaptive[i] = r->meas[i].adaptive;
	for (size_t c = 0; c < rt->n_cables; c++)
		cable_in_of(&rt->cables[c], &in[c]);
	for (size_t p = 0; p < r->n_hports; p++)
		key[p] = judge_port_key(r->hports[p].guid, r->hports[p].host,
					r->hports[p].ca, r->hports[p].port);
	judge_cable_defaults(&cp);
	ret = judge_cables(&cp, pairs,
			   &(struct judge_routes){
				   .path_start = start,
				   .path_cables = rt->ent_cable,
				   .cables = in,
				   .n_cables = rt->n_cables,
				   .port_key = key,
				   .adaptive = adaptive,
				   .unfollowed = rt->unfollowed,
				   .n_unfollowed = rt->n_unfollowed,
			   },
			   res, &cr);
	if (!ret) {
		ret = judge_cable_findings(
			&cr,
			&(struct judge_cable_namer){ r, namer_id, namer_end,
						     namer_port },
			findings);
		free(rt->explained);
		rt->explained = cr.explained;
		rt->n_explained = res->n_pairs;
		cr.explained = NULL;
		judge_cable_result_free(&cr);
	}
out:
	free(in);
	free(key);
	free(start);
	free(adaptive);
	return ret;
}
