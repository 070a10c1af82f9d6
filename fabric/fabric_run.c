// SPDX-License-Identifier: MIT
/*
 * fabric_run.c: one fabric session, below the option parser: load the model
 * (live walk, cache or topology text), apply the node-name map, open
 * --records, then `discover` and `check`; fabric_finish() writes the
 * findings, the run end record and the summary for every subcommand.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/cli.h"
#include "common/log.h"
#include "common/namemap.h"
#include "common/record.h"
#include "fabric/fabric_diff.h"
#include "fabric/fabric_namemap.h"
#include "fabric/fabric_report.h"
#include "fabric/fabric_run.h"
#include "fabric/fabric_topo.h"

const struct fabric_disc_ops *fabric_disc = &fabric_ibnd_ops;
const struct fabric_pma_ops *fabric_pma = &fabric_mad_pma_ops;
const struct fabric_smp_ops *fabric_smp = &fabric_mad_smp_ops;

/* Loads the model from the chosen input; returns an exit code. */
int fabric_load_model(const struct fabric_args *a, struct fabric **out)
{
	struct fabric_disc_params p = {
		.ca = a->common.ca,
		.port = a->common.port,
		.timeout_ms = (unsigned)(a->common.timeout_s * 1000),
		.cache_out = a->cache_out,
		.mkey = a->mkey.key,
	};
	char err[FABRIC_ERR_LEN];
	int rc;

	if (a->topology) {
		rc = fabric_topo_load_opts(a->topology, a->strict, out, err,
					   sizeof(err));
		if (rc)
			log_error("%s", err);
		return rc ? IBP_EXIT_USAGE : IBP_EXIT_PASS;
	}
	if (a->load_cache)
		rc = fabric_disc->load_cache(a->load_cache, out);
	else
		rc = fabric_disc->discover(&p, out);
	if (rc)
		return a->load_cache && rc == -EINVAL ? IBP_EXIT_USAGE
						      : IBP_EXIT_RUNTIME;
	return IBP_EXIT_PASS;
}

int fabric_apply_map_file(const struct fabric_args *a, struct fabric *m)
{
	struct namemap *map;
	char err[FABRIC_ERR_LEN];
	int rc;

	if (!a->common.node_name_map)
		return IBP_EXIT_PASS;
	rc = namemap_load(a->common.node_name_map, &map, err, sizeof(err));
	if (rc) {
		log_error("%s", err);
		return IBP_EXIT_USAGE;
	}
	rc = fabric_apply_namemap(m, map);
	namemap_free(map);
	return rc ? IBP_EXIT_RUNTIME : IBP_EXIT_PASS;
}

static json_t *run_record(const struct fabric_args *a, const char *event)
{
	json_t *rec = record_new("run");

	json_object_set_new(rec, "tool",
			    json_string(a->tool ? a->tool : "fabric"));
	json_object_set_new(rec, "event", json_string(event));
	return rec;
}

static json_t *run_params(const struct fabric_args *a)
{
	json_t *p = json_object();
	const char *const keys[] = { "spec",	 "load_cache", "topology",
				     "baseline", "thresholds", "node_name_map",
				     "ca" };
	const char *vals[] = { a->spec,	      a->load_cache,
			       a->topology,   a->baseline,
			       a->thresholds, a->common.node_name_map,
			       a->common.ca };
	size_t i;

	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (vals[i])
			json_object_set_new(p, keys[i], json_string(vals[i]));
	if (a->common.port)
		json_object_set_new(p, "port", json_integer(a->common.port));
	if (a->reset)
		json_object_set_new(p, "reset", json_true());
	return p;
}

/* Opens --records and writes the `run` start record. */
int fabric_open_records(const struct fabric_args *a, struct record_writer **w)
{
	json_t *rec;

	*w = NULL;
	if (!a->common.records)
		return IBP_EXIT_PASS;
	*w = record_writer_open(a->common.records, false);
	if (!*w) {
		log_error("%s: cannot write records: %m", a->common.records);
		return IBP_EXIT_USAGE;
	}
	rec = run_record(a, "start");
	json_object_set_new(rec, "params", run_params(a));
	if (record_writer_emit_steal(*w, rec)) {
		log_error("%s: writing records failed", a->common.records);
		record_writer_close(*w);
		*w = NULL;
		return IBP_EXIT_RUNTIME;
	}
	return IBP_EXIT_PASS;
}

/* The names --accept-untested gave, as the end record lists them. */
static json_t *accepted_json(const struct fabric_scope *s)
{
	json_t *v = json_array();

	for (size_t i = 0; v && s && i < s->naccept; i++)
		json_array_append_new(v, json_string(s->accept[i]));
	return v;
}

static int emit_run_end(const struct fabric_args *a, struct record_writer *w,
			int code, bool incomplete,
			const struct fabric_scope *scope)
{
	static const char *const outcome[] = { "pass", "fail", "error",
					       "error" };
	json_t *rec = run_record(a, "end");

	json_object_set_new(rec, "outcome",
			    json_string(incomplete && code == IBP_EXIT_FAIL
						? "incomplete"
						: outcome[code]));
	json_object_set_new(rec, "exit_code", json_integer(code));
	if (scope) {
		json_object_set_new(rec, "scope", fabric_scope_json(scope));
		json_object_set_new(rec, "accepted_untested",
				    accepted_json(scope));
	}
	return record_writer_emit_steal(w, rec);
}

void fabric_scope_init(const struct fabric_args *a, struct fabric_scope *s)
{
	*s = a->accept;
	memset(s->used, 0, sizeof(s->used));
	memset(s->in_scope, 0, sizeof(s->in_scope));
	memset(s->tested, 0, sizeof(s->tested));
	memset(s->accepted, 0, sizeof(s->accepted));
}

void fabric_smp_use_mkey(const struct fabric_args *a, struct fabric_smp *h)
{
	if (a->mkey.set && fabric_smp->set_mkey)
		fabric_smp->set_mkey(h, a->mkey.key);
}

/* Emits findings as records; prints the summary unless records go to
 * stdout. Returns the exit code the findings call for. */
int fabric_finish(const struct fabric_args *a, struct record_writer *w,
		  const char *what, const struct fabric *m,
		  const struct fabric_findings *fs)
{
	return fabric_finish_scope(a, w, what, m, fs, NULL);
}

int fabric_finish_scope(const struct fabric_args *a, struct record_writer *w,
			const char *what, const struct fabric *m,
			const struct fabric_findings *fs,
			const struct fabric_scope *scope)
{
	bool incomplete = scope && fabric_scope_gaps(scope);
	int code = fabric_findings_count(fs, "fail") ? IBP_EXIT_FAIL
		   : incomplete			     ? IBP_EXIT_FAIL
						     : IBP_EXIT_PASS;
	size_t i;
	int rc = 0;

	for (i = 0; w && i < fs->n && !rc; i++)
		rc = record_writer_emit_steal(w,
					      fabric_finding_record(&fs->v[i]));
	if (w && !rc)
		rc = emit_run_end(a, w, code,
				  incomplete &&
					  !fabric_findings_count(fs, "fail"),
				  scope);
	if (!a->common.records || strcmp(a->common.records, "-")) {
		fabric_print_summary(stdout, what, m, fs);
		fabric_scope_print(stdout, scope, fs);
	}
	if (rc || (w && record_writer_close(w))) {
		log_error("%s: writing records failed", a->common.records);
		return IBP_EXIT_RUNTIME;
	}
	return code;
}

int fabric_emit_links(struct record_writer *w, const struct fabric *m)
{
	const struct fabric_port *p;
	size_t i;
	int j, rc = 0;

	for (i = 0; w && i < m->nnodes && !rc; i++) {
		for (j = 1; j <= m->nodes[i]->nports && !rc; j++) {
			p = &m->nodes[i]->ports[j];
			if (p->remote && p->id < p->remote->id)
				rc = record_writer_emit_steal(
					w, fabric_link_record(p));
		}
	}
	return rc;
}

static int load_spec(const struct fabric_args *a, struct fabric_spec **s)
{
	char err[FABRIC_ERR_LEN];

	if (fabric_spec_load_opts(a->spec, a->strict, s, err, sizeof(err))) {
		log_error("%s", err);
		return IBP_EXIT_USAGE;
	}
	return IBP_EXIT_PASS;
}

/*
 * A link the walk found whose end's PortInfo never answered: its state,
 * width and speed are unknown, so nothing about it was checked.
 */
static int untested_links(const struct fabric *m, struct fabric_findings *fs)
{
	for (size_t i = 0; i < m->nnodes; i++) {
		for (int j = 1; j <= m->nodes[i]->nports; j++) {
			const struct fabric_port *p = &m->nodes[i]->ports[j];
			const struct fabric_port *bad;
			struct fabric_finding *f;
			char ps[128];

			if (!p->remote || p->id > p->remote->id ||
			    (!p->info_unread && !p->remote->info_unread))
				continue;
			bad = p->info_unread ? p : p->remote;
			f = fabric_finding_add(fs, "warn", "not-tested",
					       "check-access");
			if (!f)
				return -ENOMEM;
			fabric_finding_port(f, bad); /* named first */
			fabric_finding_port(f, bad->remote);
			fabric_finding_str(f, "part", "links");
			fabric_finding_str(f, "reason", "no-answer");
			fabric_finding_str(f, "query", "PortInfo");
			fabric_finding_msg(
				f,
				"link at %s not tested: its PortInfo "
				"did not answer (state, width and "
				"speed unknown): check its "
				"management access (M_Key, SMP "
				"filtering) or retest",
				fabric_port_str(bad, ps, sizeof(ps)));
		}
	}
	return 0;
}

/* A discover gap outside the links walked: a port leading nowhere. */
static bool outside_walk(const struct fabric_finding *f)
{
	return strcmp(fabric_finding_ev_str(f, "query"), "PortInfo") != 0;
}

/* A check's gap outside the spec's cables: a port leading nowhere that
 * no spec line names (the leftover cables carry their spec_line). */
static bool outside_spec(const struct fabric_finding *f)
{
	for (int i = 0; i < f->nev; i++)
		if (!strcmp(f->ev[i].key, "spec_line"))
			return false;
	return strcmp(fabric_finding_ev_str(f, "query"), "PortInfo") != 0;
}

static int run_model_cmd(const struct fabric_args *a, bool check)
{
	struct fabric_findings fs = { 0 };
	struct fabric_scope scope;
	struct fabric_spec *spec = NULL;
	struct record_writer *w = NULL;
	struct fabric *m = NULL;
	int rc;

	if ((check && (rc = load_spec(a, &spec))) ||
	    (rc = fabric_load_model(a, &m)) ||
	    (rc = fabric_apply_map_file(a, m)) ||
	    (rc = fabric_open_records(a, &w)))
		goto out;
	rc = check ? cabling_diff(m, spec, &fs) : fabric_model_check(m, &fs);
	if (!rc && !check)
		rc = fabric_emit_links(w, m);
	/* the scope: the spec's cables, or the links the walk found; a
	 * link whose far node never answered is in it, not tested */
	if (!rc)
		rc = untested_links(m, &fs);
	fabric_scope_init(a, &scope);
	if (check)
		fabric_scope_from_findings(&scope, &fs, FABRIC_PART_LINKS,
					   spec->ncables, outside_spec);
	else
		fabric_scope_from_findings(&scope, &fs, FABRIC_PART_LINKS,
					   fabric_count_links(m), outside_walk);
	if (rc) {
		log_error("fabric %s failed: %s", check ? "check" : "discover",
			  strerror(-rc));
		record_writer_close(w);
		rc = IBP_EXIT_RUNTIME;
		goto out;
	}
	rc = fabric_finish_scope(a, w,
				 check ? "fabric check" : "fabric discover", m,
				 &fs, &scope);
out:
	fabric_findings_free(&fs);
	fabric_spec_free(spec);
	fabric_free(m);
	return rc;
}

int fabric_discover_run(const struct fabric_args *a)
{
	return run_model_cmd(a, false);
}

int fabric_check_run(const struct fabric_args *a)
{
	return run_model_cmd(a, true);
}
