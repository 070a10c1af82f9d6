// SPDX-License-Identifier: MIT
/*
 * The light check's bandwidth samples: at most every --sample-every seconds
 * (default an hour) one sample per ACTIVE HCA port, the RDMA WRITE and READ
 * loopback of `ibproof pcie` (LIGHT_DMA_SAMPLES runs each, the lower of the
 * two medians), kept in the state with the port's floor (that of its PCIe
 * path's generation and width, pcie_dma_ports). The mean of the last K is
 * judged by light_bw_judge(); a changed floor (new card, other slot) starts
 * the samples afresh.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/record.h"
#include "node/light.h"
#include "node/node.h"
#include "node/node_run.h"
#include "pcie/pcie.h"

#define LIGHT_KEEP_MAX 1000 /* samples kept per port */

static json_t *port_state(struct light_ctx *x, const char *key)
{
	json_t *dma = json_object_get(x->next, "dma");

	if (!dma) {
		dma = json_deep_copy(json_object_get(x->state, "dma"));
		if (!json_is_object(dma)) {
			json_decref(dma);
			dma = json_object();
		}
		json_object_set_new(x->next, "dma", dma);
	}
	return json_object_get(dma, key);
}

/* Appends one sample to the port's list, starting afresh on a new floor. */
static void keep_sample(struct light_ctx *x, const struct pcie_dma_port *p,
			const char *key, double GBps)
{
	json_t *ps = port_state(x, key), *list;
	int keep = x->lo->mean_of > LIGHT_KEEP_MAX ? LIGHT_KEEP_MAX
						   : x->lo->mean_of;
	double floor = json_number_value(json_object_get(ps, "floor"));

	if (!ps || floor != p->floor_GBps) {
		if (ps)
			json_array_append_new(
				x->c->notes,
				json_sprintf("dma: %s port %d: floor %.2f -> "
					     "%.2f GB/s (PCIe path changed); "
					     "samples start afresh",
					     p->ca_text, p->port, floor,
					     p->floor_GBps));
		ps = json_pack("{s:f, s:s, s:s, s:i, s:[]}", "floor",
			       p->floor_GBps, "floor_why", p->floor_why, "ca",
			       p->ca_text, "port", p->port, "samples");
		json_object_set_new(json_object_get(x->next, "dma"), key, ps);
	}
	list = json_object_get(ps, "samples");
	json_array_append_new(list, json_pack("[f, f]", x->now, GBps));
	while ((int)json_array_size(list) > keep)
		json_array_remove(list, 0);
}

static void sample_port(struct light_ctx *x, const struct pcie_dma_ops *ops,
			const struct pcie_dma_port *p)
{
	double v[LIGHT_DMA_SAMPLES], low = 0;
	struct pcie_dma_sample_stats s;
	char err[256], key[PCIE_NAME_LEN * 4 + 16];

	for (int test = PCIE_DMA_WRITE; test <= PCIE_DMA_READ; test++) {
		err[0] = '\0';
		if (ops->measure(p->ca, p->port, test, LIGHT_DMA_SAMPLES, v,
				 err, sizeof(err))) {
			json_array_append_new(
				x->c->skipped,
				json_sprintf("dma: %s port %d: %s; no sample "
					     "this hour",
					     p->ca_text, p->port, err));
			return;
		}
		pcie_dma_stats(v, LIGHT_DMA_SAMPLES, &s);
		if (test == PCIE_DMA_WRITE || s.median < low)
			low = s.median;
	}
	snprintf(key, sizeof(key), "%s:%d", p->ca_text, p->port);
	keep_sample(x, p, key, low);
}

static bool sample_due(struct light_ctx *x)
{
	double last = json_number_value(json_object_get(x->state, "dma_last"));
	const struct node_run_opts *o = x->c->o;

	if (o->no_dma) {
		json_array_append_new(x->c->skipped,
				      json_string("dma: --no-dma given"));
		return false;
	}
	if (!x->lo->dma && strcmp(o->sysfs_root, "/sys")) {
		json_array_append_new(
			x->c->skipped,
			json_sprintf("dma: --sysfs-root %s is a captured "
				     "tree; DMA is sampled on the running "
				     "system only",
				     o->sysfs_root));
		return false;
	}
	if (last > 0 && x->now - last < x->lo->sample_every_s) {
		json_object_set_new(x->next, "dma_last", json_real(last));
		return false;
	}
	json_object_set_new(x->next, "dma_last", json_real(x->now));
	return true;
}

static void take_samples(struct light_ctx *x, const struct pcie_topo *t)
{
	const struct pcie_dma_ops *ops =
		x->lo->dma ? x->lo->dma : &pcie_dma_loopback_ops;
	struct pcie_dma_port *ports = NULL;
	int n = 0;

	if (pcie_dma_ports(t, x->c->o->ca, x->c->o->port, &ports, &n) || !n)
		json_array_append_new(x->c->skipped,
				      json_string("dma: no ACTIVE RDMA port "
						  "to sample"));
	for (int i = 0; i < n; i++)
		sample_port(x, ops, &ports[i]);
	free(ports);
}

/* ---- judging the mean of the last K ---- */

static void low_finding(struct light_ctx *x, const json_t *ps,
			const struct light_bw_verdict *v)
{
	const char *ca = json_string_value(json_object_get(ps, "ca"));
	int port = (int)json_integer_value(json_object_get(ps, "port"));
	double floor = json_number_value(json_object_get(ps, "floor"));
	char s[96];

	snprintf(s, sizeof(s), "%s port %d DMA mean low", ca, port);
	json_array_append_new(
		x->c->findings,
		record_finding(
			"fail", "pcie-low-dma-bandwidth",
			record_port_ref(x->c->o->host, ca, port, 0),
			json_pack("{s:s, s:f, s:f, s:f, s:i, s:i, s:i, s:O?}",
				  "short", s, "mean_GBps", v->mean_GBps,
				  "min_GBps", v->min_GBps, "floor_GBps", floor,
				  "samples", v->used, "low_samples", v->low,
				  "missing_samples", v->missing, "floor",
				  json_object_get(ps, "floor_why")),
			"check-pcie",
			"%s port %d: the mean of the last %d DMA loopback "
			"samples is %.2f GB/s (%d under the floor), under the "
			"floor of %.2f GB/s (%s): the PCIe path of this HCA is "
			"slow; check the slot, riser and link",
			ca, port, v->used, v->mean_GBps, v->low, floor,
			json_string_value(json_object_get(ps, "floor_why"))));
}

static void judge_port(struct light_ctx *x, const json_t *ps)
{
	const json_t *list = json_object_get(ps, "samples");
	int n = (int)json_array_size(list), port;
	struct light_sample *s = calloc(n ? (size_t)n : 1, sizeof(*s));
	double floor = json_number_value(json_object_get(ps, "floor"));
	const char *ca = json_string_value(json_object_get(ps, "ca"));
	struct light_bw_verdict v;
	char pstr[16];

	if (!s || !ca)
		goto out;
	port = (int)json_integer_value(json_object_get(ps, "port"));
	for (int i = 0; i < n; i++) {
		s[i].t = json_number_value(
			json_array_get(json_array_get(list, i), 0));
		s[i].GBps = json_number_value(
			json_array_get(json_array_get(list, i), 1));
	}
	light_bw_judge(s, n, x->lo->mean_of, floor, x->lo->sample_every_s, &v);
	snprintf(pstr, sizeof(pstr), "%d", port);
	if (n)
		light_metric(x->m, "ibproof_dma_sample_bytes_per_second",
			     s[n - 1].GBps * 1e9, "ca", ca, "port", pstr, NULL);
	light_metric(x->m, "ibproof_dma_mean_bytes_per_second",
		     v.mean_GBps * 1e9, "ca", ca, "port", pstr, NULL);
	light_metric(x->m, "ibproof_dma_floor_bytes_per_second", floor * 1e9,
		     "ca", ca, "port", pstr, NULL);
	light_metric(x->m, "ibproof_dma_samples", v.used, "ca", ca, "port",
		     pstr, NULL);
	light_metric(x->m, "ibproof_dma_low", v.state == LIGHT_BW_LOW, "ca", ca,
		     "port", pstr, NULL);
	if (v.state == LIGHT_BW_LOW)
		low_finding(x, ps, &v);
	if (v.state == LIGHT_BW_COLLECTING)
		json_array_append_new(
			x->c->notes,
			json_sprintf("dma %s port %d: %d of %d samples, not "
				     "judged yet (mean %.2f GB/s, floor %.2f "
				     "GB/s)",
				     ca, port, v.used, x->lo->mean_of,
				     v.mean_GBps, floor));
	else
		json_array_append_new(
			x->c->notes,
			json_sprintf("dma %s port %d: %s, mean of the last %d "
				     "samples %.2f GB/s, floor %.2f GB/s",
				     ca, port, light_bw_state_name(v.state),
				     v.used, v.mean_GBps, floor));
	if (v.missing)
		json_array_append_new(
			x->c->notes,
			json_sprintf("dma %s port %d: %d sample%s missing "
				     "within the last %d (the check did not "
				     "run, or a sample failed)",
				     ca, port, v.missing,
				     v.missing == 1 ? "" : "s", v.used));
out:
	free(s);
}

void light_dma(struct light_ctx *x, const struct pcie_topo *t)
{
	const char *key;
	json_t *ps;

	if (sample_due(x))
		take_samples(x, t);
	port_state(x, ""); /* the kept samples, also when none was due */
	json_object_foreach(json_object_get(x->next, "dma"), key, ps)
		judge_port(x, ps);
}
