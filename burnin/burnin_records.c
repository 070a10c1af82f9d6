// SPDX-License-Identifier: MIT
/*
 * burnin's records (docs/records.md): port, pair, finding, run. Built with
 * jansson only; rank 0 writes them.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "burnin/coord.h"
#include "burnin/route_judge.h"
#include "judge/judge_options.h"

const char *burnin_test_name(int test)
{
	return test == DPATH_TEST_READ ? "read" : "write";
}

static json_t *port_ref(const struct dpath_port *p)
{
	return record_port_ref(p->host, p->ca, p->port, p->guid);
}

static json_t *gid_string(const uint8_t gid[16])
{
	char buf[40];
	int n = 0;

	for (int i = 0; i < 16; i += 2)
		n += snprintf(buf + n, sizeof(buf) - (size_t)n, "%s%02x%02x",
			      i ? ":" : "", gid[i], gid[i + 1]);
	return json_string(buf);
}

json_t *burnin_port_record(const struct dpath_port *p, const char *transport,
			   int rank)
{
	json_t *rec = record_new("port");
	char guid[19];

	if (!rec)
		return NULL;
	if (json_object_update_new(
		    rec,
		    json_pack(
			    "{s:s,s:s,s:i,s:s,s:i,s:s,s:s,s:s,s:f,s:i,s:i,s:o,s:i,s:i,s:s,s:s,s:s,s:i}",
			    "host", p->host, "ca", p->ca, "port", p->port,
			    "guid", record_guid_str(p->guid, guid), "lid",
			    p->lid, "link_layer",
			    p->ethernet ? "Ethernet" : "InfiniBand", "state",
			    p->state, "phys_state", p->phys_state, "rate_gbps",
			    p->rate_gbps, "rail", p->rail, "active_mtu",
			    p->active_mtu, "gid", gid_string(p->gid),
			    "gid_index", p->gid_index, "numa_node",
			    p->numa_node, "pci_addr", p->pci_addr, "netdev",
			    p->netdev, "transport", transport, "rank", rank))) {
		json_decref(rec);
		return NULL;
	}
	if (p->width)
		json_object_set_new(rec, "width", json_integer(p->width));
	if (p->speed[0])
		json_object_set_new(rec, "speed", json_string(p->speed));
	if (p->leaf_guid)
		json_object_set_new(rec, "leaf",
				    record_switch_port_ref(p->leaf_name,
							   p->leaf_guid,
							   p->leaf_port));
	return rec;
}

static json_t *counters_json(const struct wire_result *r)
{
	json_t *o = json_object();

	for (int i = 0; o && i < r->n_counters; i++)
		json_object_set_new(
			o, r->counters[i].name,
			json_integer((json_int_t)r->counters[i].delta));
	return o;
}

static const char *const status_names[] = { "ok", "error", "not-tested" };

/* Error completions by status, both ends: {"transport retry counter exceeded": 3}. */
static json_t *errors_by_status(const struct wire_result *ra,
				const struct wire_result *rb)
{
	const struct wire_result *ends[2] = { ra, rb };
	json_t *o = json_object();

	for (int e = 0; o && e < 2; e++)
		for (int i = 0;
		     i < ends[e]->res.n_errors && i < DPATH_MAX_ERR_STATUS;
		     i++) {
			const struct dpath_status_count *c =
				&ends[e]->res.errors[i];
			json_int_t old = json_integer_value(
				json_object_get(o, c->status));

			json_object_set_new(
				o, c->status,
				json_integer(old + (json_int_t)c->count));
		}
	return o;
}

json_t *burnin_pair_record(const struct burnin_coord *co,
			   const struct burnin_measure *m, const char *error,
			   const struct wire_result *ra,
			   const struct wire_result *rb)
{
	const struct burnin_config *cfg = co->ctx->cfg;
	json_t *rec = record_new("pair");

	if (!rec)
		return NULL;
	if (json_object_update_new(
		    rec,
		    json_pack(
			    "{s:i,s:s,s:s,s:o,s:o,s:f,s:f,s:f,s:s,s:b,s:I,s:f,s:I,s:i,s:I,s:f,s:s,s:o,s:o}",
			    "round", m->round + 1, "test",
			    burnin_test_name(m->test), "dir",
			    m->bidir ? "bi" : "uni", "a",
			    port_ref(&co->inv[m->a]), "b",
			    port_ref(&co->inv[m->b]), "gbps", m->gbps,
			    "gbps_min", m->gbps_min, "expected_gbps",
			    m->expected_gbps, "status", status_names[m->status],
			    "retest", m->round >= co->n_main_rounds, "bytes",
			    (json_int_t)ra->res.bytes, "seconds",
			    ra->res.seconds, "error_completions",
			    (json_int_t)m->error_completions, "qps",
			    cfg->params.qps, "msg_size",
			    (json_int_t)cfg->params.msg_size, "duration_s",
			    cfg->params.duration_s, "transport", cfg->ops->name,
			    "counters_a", counters_json(ra), "counters_b",
			    counters_json(rb)))) {
		json_decref(rec);
		return NULL;
	}
	if (error)
		json_object_set_new(rec, "error", json_string(error));
	if (burnin_coord_route_fields(co, m, rec)) { /* with --routes */
		json_decref(rec);
		return NULL;
	}
	if (m->error_completions)
		json_object_set_new(rec, "errors_by_status",
				    errors_by_status(ra, rb));
	return rec;
}

const char *burnin_cm_name(int cm)
{
	return cm == DPATH_CM_RDMACM ? "rdmacm" : "mpi";
}

json_t *burnin_run_record(const struct burnin_coord *co, const char *event)
{
	const struct burnin_config *cfg = co->ctx->cfg;
	json_t *rec = record_new("run"), *tests = json_array();

	if (!rec || !tests)
		goto fail;
	for (int t = 0; t < cfg->n_tests; t++)
		json_array_append_new(
			tests, json_string(burnin_test_name(cfg->tests[t])));
	if (json_object_update_new(
		    rec,
		    json_pack(
			    "{s:s,s:s,s:{s:s,s:I,s:o,s:b,s:I,s:i,s:f,s:s,s:s,s:s?,s:s?},s:i,s:i,s:i}",
			    "tool", "burnin", "event", event, "params",
			    "schedule", cfg->schedule, "seed",
			    (json_int_t)cfg->seed, "tests", tests, "bidir",
			    cfg->params.bidir, "msg_size",
			    (json_int_t)cfg->params.msg_size, "qps",
			    cfg->params.qps, "duration_s",
			    cfg->params.duration_s, "transport", cfg->ops->name,
			    "cm", burnin_cm_name(cfg->params.cm), "command",
			    cfg->argv_line, "topology", cfg->topology, "ranks",
			    co->ctx->bs ? co->ctx->bs->size : 0, "ports",
			    co->n_inv, "rounds", co->n_main_rounds)))
		goto fail_rec;
	/* the SL every QP ran on: the routes say whether it was adaptive */
	if (json_object_set_new(json_object_get(rec, "params"), "sl",
				json_integer(cfg->params.sl)))
		goto fail_rec;
	/* --max-rounds makes another route-aware plan: --resume checks it */
	if (cfg->max_rounds &&
	    json_object_set_new(json_object_get(rec, "params"), "max_rounds",
				json_integer(cfg->max_rounds)))
		goto fail_rec;
	/* every judging option, keyed by its field (judge_options.h):
	 * `ibproof report` judges with them */
	if (judge_options_to_json(&cfg->judge.pairs,
				  json_object_get(rec, "params")))
		goto fail_rec;
	return rec;
fail:
	json_decref(tests);
fail_rec:
	json_decref(rec);
	return NULL;
}
