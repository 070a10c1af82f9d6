// SPDX-License-Identifier: MIT
/*
 * Reading record files into the model as they stream by: one record at a
 * time through common/record.h's reader, never a whole file. Big files are
 * read in byte ranges by several threads; the model is shared under a lock
 * held only for the short update after each record is parsed.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/array.h"
#include "common/clock.h"
#include "common/ibcage.h"
#include "common/log.h"
#include "common/progress.h"
#include "common/record.h"
#include "reports/report.h"
#include "reports/report_scan.h"

#define SPLIT_MIN \
	(32L << 20) /* default: files from this size are read in parts */
#define MAX_THREADS 16

static const char *str_field(const json_t *o, const char *key)
{
	return json_string_value(json_object_get(o, key));
}

static uint64_t guid_field(const json_t *o, const char *key)
{
	const char *s = str_field(o, key);
	uint64_t g = 0;

	if (s && record_guid_parse(s, &g))
		g = 0;
	return g;
}

static int int_field(const json_t *o, const char *key, int dflt)
{
	const json_t *v = json_object_get(o, key);

	return json_is_integer(v) ? (int)json_integer_value(v) : dflt;
}

/* Transceiver facts, when a record carries them: {vendor, part_number, serial}. */
void report_xcvr_from(struct report *r, const json_t *obj,
		      struct report_xcvr *x)
{
	const json_t *t = json_object_get(obj, "transceiver");

	if (!json_is_object(t))
		return;
	x->vendor = strtab_intern(&r->strs, str_field(t, "vendor"));
	x->part_number = strtab_intern(&r->strs, str_field(t, "part_number"));
	x->serial = strtab_intern(&r->strs, str_field(t, "serial"));
}

static char type_code(const char *type)
{
	if (!type)
		return 0;
	return !strcmp(type, "switch")	 ? 's'
	       : !strcmp(type, "ca")	 ? 'c'
	       : !strcmp(type, "router") ? 'r'
					 : 0;
}

/* "node01 mlx5_0": the Linux convention for HCA node descriptions. */
static void split_ca_name(struct report *r, struct report_end *e)
{
	const char *sp = e->name ? strchr(e->name, ' ') : NULL;
	char host[256];

	if (!sp || strchr(sp + 1, ' ') ||
	    (size_t)(sp - e->name) >= sizeof(host))
		return;
	snprintf(host, sizeof(host), "%.*s", (int)(sp - e->name), e->name);
	e->host = strtab_intern(&r->strs, host);
	e->ca = strtab_intern(&r->strs, sp + 1);
}

/* A twin-port switch's cage name of port ("17/1"), from the one cage table
 * (common/ibcage.h); a record names a split port itself (its alias). */
static const char *twin_label(int port, char buf[32])
{
	return ib_cage_label(ib_cage_model_of(IB_CAGE_DEVID_QUANTUM2, 65), port,
			     buf);
}

/* The cage/lane alias of a switch port, when the records or type say so. */
static void end_alias(struct report *r, const json_t *ref, struct report_end *e)
{
	char buf[32], g[19];
	const char *alias = str_field(ref, "alias");
	bool twin = json_is_true(json_object_get(ref, "twin_port")) ||
		    json_object_get(ref, "cage") ||
		    int_field(ref, "devid", 0) == IB_CAGE_DEVID_QUANTUM2;

	if (e->type != 's')
		return;
	record_guid_str(e->guid, g);
	if (twin)
		json_object_set_new(r->twin_switches, g, json_true());
	else
		twin = json_object_get(r->twin_switches, g) != NULL;
	if (!alias && twin && e->port > 0 && *twin_label(e->port, buf))
		alias = buf;
	e->alias = strtab_intern(&r->strs, alias);
}

/* Once every file is read, a twin-port switch known from any record. */
void report_end_alias(struct report *r, struct report_end *e)
{
	char g[19], buf[32];

	if (e->type != 's' || e->alias || e->port <= 0 ||
	    !json_object_get(r->twin_switches, record_guid_str(e->guid, g)))
		return;
	if (*twin_label(e->port, buf))
		e->alias = strtab_intern(&r->strs, buf);
}

/*
 * Any port reference of the records: an HCA port (host, ca, port, guid),
 * a switch port (node, guid, port) or a link end (name, guid, port, type).
 */
int report_end_from(struct report *r, const json_t *ref, struct report_end *e)
{
	memset(e, 0, sizeof(*e));
	if (!json_is_object(ref))
		return -EINVAL;
	e->guid = guid_field(ref, "guid");
	e->port = int_field(ref, "port", 0);
	e->type = type_code(str_field(ref, "type"));
	if (str_field(ref, "ca")) {
		e->type = 'c';
		e->host = strtab_intern(&r->strs, str_field(ref, "host"));
		e->ca = strtab_intern(&r->strs, str_field(ref, "ca"));
	} else if (str_field(ref, "node")) {
		/* a switch port reference has no type; "unknown" stays 0 */
		if (!json_object_get(ref, "type"))
			e->type = 's';
		e->name = strtab_intern(&r->strs, str_field(ref, "node"));
	} else {
		e->name = strtab_intern(&r->strs, str_field(ref, "name"));
		if (e->type == 'c')
			split_ca_name(r, e);
	}
	if (e->type == 's')
		e->name = report_node_name(r, e->guid, e->name);
	report_xcvr_from(r, ref, &e->xcvr);
	end_alias(r, ref, e);
	return e->guid || e->name || e->host ? 0 : -EINVAL;
}

static uint8_t status_code(const char *s)
{
	return !strcmp(s, "ok") ? 0 : !strcmp(s, "error") ? 1 : 2;
}

/* A pair record's fields, from jansson or from the fast scanner. */
struct pair_in {
	const char *host[2], *ca[2], *error;
	int port[2];
	uint64_t guid[2];
	struct report_meas m;
};

static int add_pair(struct report *r, struct pair_in *in, const json_t *rec,
		    const struct scan_path *path, struct report_route_cache *c)
{
	struct attr_pair p = { .verdict = ATTR_UNTESTED };
	uint32_t idx[2][SCAN_PATH_MAX];
	int ret = 0;

	if (path && (path[0].present || path[1].present))
		ret = report_route_resolve_scan(r, c, path, idx);
	if (ret)
		return ret;
	pthread_mutex_lock(&r->lock);
	if (in->m.status)
		in->m.error = strtab_intern(&r->strs, in->error);
	ret = report_hport_get(r, in->host[0], in->ca[0], in->port[0],
			       in->guid[0], &p.a) ?:
	      report_hport_get(r, in->host[1], in->ca[1], in->port[1],
			       in->guid[1], &p.b) ?:
	      report_pair_add(r, &p, &in->m);
	if (!ret && rec) /* its path, with routes (report_route.c) */
		ret = report_route_take_pair(r, rec, r->n_pairs - 1);
	else if (!ret && path)
		ret = report_route_take_scan(r, path, idx, r->n_pairs - 1);
	pthread_mutex_unlock(&r->lock);
	return ret;
}

static void pair_ref_in(struct pair_in *in, int i, const json_t *ref)
{
	in->host[i] = str_field(ref, "host");
	in->ca[i] = str_field(ref, "ca");
	in->port[i] = int_field(ref, "port", 0);
	in->guid[i] = guid_field(ref, "guid");
}

static uint32_t error_completions(const json_t *rec)
{
	json_int_t n =
		json_integer_value(json_object_get(rec, "error_completions"));

	return n < 0 ? 0 : n > UINT32_MAX ? UINT32_MAX : (uint32_t)n;
}

static int ingest_pair(struct report *r, const json_t *rec, uint16_t run)
{
	struct pair_in
		in = { .m = {
			       .gbps = (float)json_number_value(
				       json_object_get(rec, "gbps")),
			       .gbps_min = (float)json_number_value(
				       json_object_get(rec, "gbps_min")),
			       .expected = (float)json_number_value(
				       json_object_get(rec, "expected_gbps")),
			       .round = (uint32_t)int_field(rec, "round", 0),
			       .test = !strcmp(str_field(rec, "test"), "read"),
			       .dir = !strcmp(str_field(rec, "dir"), "bi"),
			       .status = status_code(str_field(rec, "status")),
			       .retest = json_is_true(
				       json_object_get(rec, "retest")),
			       .adaptive = json_is_true(
				       json_object_get(rec, "adaptive")),
			       .error_completions = error_completions(rec),
			       .run = run,
		       } };

	pair_ref_in(&in, 0, json_object_get(rec, "a"));
	pair_ref_in(&in, 1, json_object_get(rec, "b"));
	in.error = str_field(rec, "error");
	return add_pair(r, &in, rec, NULL, NULL);
}

#define SCAN_STR_MAX 256

/* Copies a scanned string; false when too long for the fast path. */
static bool scan_copy(char *buf, const struct scan_str *v)
{
	if (v->len >= SCAN_STR_MAX)
		return false;
	memcpy(buf, v->s, v->len);
	buf[v->len] = '\0';
	return true;
}

static bool scan_ref_in(struct pair_in *in, int i, const struct scan_ref *ref,
			char bufs[3][SCAN_STR_MAX])
{
	if (!scan_copy(bufs[0], &ref->host) || !scan_copy(bufs[1], &ref->ca) ||
	    !scan_copy(bufs[2], &ref->guid))
		return false;
	in->host[i] = bufs[0];
	in->ca[i] = bufs[1];
	in->port[i] = (int)ref->port;
	if (record_guid_parse(bufs[2], &in->guid[i]))
		in->guid[i] = 0;
	return true;
}

/* Where a record comes from: the run is the file (burnin writes one run
 * per record file; --resume appends to it). */
struct ingest_src {
	struct report *r;
	uint16_t run;
	struct report_route_cache cables; /* this thread's */
};

/* record_fast_fn: takes plain pair lines without building JSON. */
static int ingest_pair_fast(void *ctx, const char *line, size_t len)
{
	struct ingest_src *src = ctx;
	struct report *r = src->r;
	char bufs[2][3][SCAN_STR_MAX], error[SCAN_STR_MAX];
	struct scan_pair sp;
	struct pair_in in = { 0 };
	int ret;

	if (r->params.no_fast_path || !report_scan_pair(line, len, &sp) ||
	    !scan_ref_in(&in, 0, &sp.a, bufs[0]) ||
	    !scan_ref_in(&in, 1, &sp.b, bufs[1]) ||
	    (sp.str[SF_ERROR].s && !scan_copy(error, &sp.str[SF_ERROR])))
		return 0;
	in.error = sp.str[SF_ERROR].s ? error : NULL;
	in.m = (struct report_meas){
		.gbps = (float)sp.gbps,
		.gbps_min = (float)sp.gbps_min,
		.expected = (float)sp.expected,
		.round = (uint32_t)sp.round,
		.test = scan_eq(&sp.str[SF_TEST], "read"),
		.dir = scan_eq(&sp.str[SF_DIR], "bi"),
		.status = scan_eq(&sp.str[SF_STATUS], "ok")	 ? 0
			  : scan_eq(&sp.str[SF_STATUS], "error") ? 1
								 : 2,
		.retest = (uint8_t)sp.retest,
		.adaptive = (uint8_t)sp.adaptive,
		.error_completions = sp.error_completions > UINT32_MAX
					     ? UINT32_MAX
					     : (uint32_t)sp.error_completions,
		.run = src->run,
	};
	ret = add_pair(r, &in, NULL, sp.path, &src->cables);
	if (ret)
		r->fast_error = ret;
	return ret ? 0 : 1;
}

/*
 * burnin's findings about pairs (low-bandwidth, intermittent,
 * completion-errors): the report judges the pair records themselves with
 * the same judge (judge/pairjudge.h), so taking these too would count
 * the same verdicts twice.
 */
static bool pair_finding(const json_t *rec)
{
	static const char *const cats[] = {
		"low-bandwidth", "intermittent",  "completion-errors",
		"bad-cable",	 "cable-or-port", "ambiguous-cables"
	};
	const char *cat = str_field(rec, "category");

	for (size_t i = 0; i < sizeof(cats) / sizeof(cats[0]); i++)
		if (!strcmp(cat, cats[i]))
			return true;
	return false;
}

static int ingest_port(struct report *r, const json_t *rec)
{
	uint32_t idx;
	struct report_hport *h;
	int ret = report_hport_get(
		r, str_field(rec, "host"), str_field(rec, "ca"),
		int_field(rec, "port", 0), guid_field(rec, "guid"), &idx);

	if (ret)
		return ret;
	h = &r->hports[idx];
	h->rail = int_field(rec, "rail", -1);
	h->rate_gbps = json_number_value(json_object_get(rec, "rate_gbps"));
	report_xcvr_from(r, rec, &h->xcvr);
	return 0;
}

static int xcvr_key(struct report *r, uint64_t guid, int port, size_t idx)
{
	return guid ? hashmap_put(&r->xcvr_by_end, report_end_key(guid, port),
				  idx)
		    : 0;
}

/* A `transceiver` record: the module at a port, or why it was not read. */
static int ingest_transceiver(struct report *r, const json_t *rec)
{
	const json_t *ref = json_object_get(rec, "port");
	struct report_xcvr *x;
	struct report_end e;

	if (report_end_from(r, ref, &e))
		return 0; /* the reader validated it: nothing to place */
	if (array_reserve(&r->xcvrs, &r->cap_xcvrs, r->n_xcvrs, sizeof(*x)))
		return -ENOMEM;
	x = memset(&r->xcvrs[r->n_xcvrs], 0, sizeof(*x));
	if (json_is_true(json_object_get(rec, "present"))) {
		x->vendor = strtab_intern(&r->strs, str_field(rec, "vendor"));
		x->part_number =
			strtab_intern(&r->strs, str_field(rec, "part_number"));
		x->serial = strtab_intern(&r->strs, str_field(rec, "serial"));
	}
	if (!x->vendor && !x->part_number && !x->serial)
		x->unreadable = strtab_intern(
			&r->strs, str_field(rec, "unreadable")
					  ?: "the module did not answer");
	r->n_xcvrs++;
	return report_phy_take(r, rec, &e) ?:
	       xcvr_key(r, e.guid, e.port, r->n_xcvrs - 1)
		       ?: xcvr_key(r, guid_field(ref, "port_guid"), e.port,
				   r->n_xcvrs - 1);
}

static int ingest_link(struct report *r, const json_t *rec)
{
	struct report_link l = { 0 };

	if (report_end_from(r, json_object_get(rec, "a"), &l.a) ||
	    report_end_from(r, json_object_get(rec, "b"), &l.b))
		return 0; /* the reader validated it: nothing to place */
	l.width = strtab_intern(&r->strs, str_field(rec, "width"));
	l.speed = strtab_intern(&r->strs, str_field(rec, "speed"));
	l.state = strtab_intern(&r->strs, str_field(rec, "state"));
	l.phys_state = strtab_intern(&r->strs, str_field(rec, "phys_state"));
	return report_link_add(r, &l);
}

/* A counters record: its window and errors (the per-cable view); it and
 * port records may carry the transceiver of a port. */
static int ingest_counters(struct report *r, const json_t *rec)
{
	const json_t *subj = json_object_get(rec, "subject");
	struct report_end e;
	uint64_t idx;
	int ret;

	if (report_end_from(r, subj, &e))
		return 0; /* no port to join it to */
	ret = report_window_take(r, rec, &e);
	if (ret || !json_object_get(rec, "transceiver") || e.type != 'c' ||
	    !e.guid || !hashmap_get(&r->hport_by_guid, e.guid, &idx))
		return ret;
	report_xcvr_from(r, rec, &r->hports[idx].xcvr);
	return 0;
}

static int ingest_run(struct report *r, json_t *rec, uint16_t run,
		      unsigned long line)
{
	const char *event = str_field(rec, "event");
	int ret = report_coverage_note_run(r, rec, run, line);

	if (ret)
		return ret;
	if (!strcmp(event, "start"))
		return report_run_start_take(r, rec, run, line);
	return strcmp(event, "end") ? 0 : json_array_append(r->runs, rec);
}

static int ingest_record(struct report *r, json_t *rec, uint16_t run,
			 unsigned long line)
{
	const char *kind = str_field(rec, "kind");
	int ret = 0;

	if (!strcmp(kind, "pair"))
		return ingest_pair(r, rec, run);
	pthread_mutex_lock(&r->lock);
	r->n_records++;
	if (!strcmp(kind, "port"))
		ret = ingest_port(r, rec);
	else if (!strcmp(kind, "link"))
		ret = ingest_link(r, rec);
	else if (!strcmp(kind, "finding") && !pair_finding(rec))
		ret = report_route_take_finding(r, rec, run)
			      ?: report_finding_take(r, rec);
	else if (!strcmp(kind, "counters"))
		ret = ingest_counters(r, rec);
	else if (!strcmp(kind, "event"))
		ret = json_array_append(r->events, rec);
	else if (!strcmp(kind, "transceiver"))
		ret = ingest_transceiver(r, rec);
	else if (!strcmp(kind, "cable"))
		ret = report_route_take_cable(r, rec);
	else if (!strcmp(kind, "cable-load"))
		ret = report_route_take_load(r, rec);
	else if (!strcmp(kind, "pcie"))
		ret = json_array_append(r->pcie, rec);
	else if (!strcmp(kind, "run"))
		ret = ingest_run(r, rec, run, line);
	pthread_mutex_unlock(&r->lock);
	return ret;
}

int report_ingest_record(struct report *r, json_t *rec)
{
	return ingest_record(r, rec, 0, 0);
}

struct ingest_part {
	const char *path;
	off_t start, end;
	uint16_t run; /* the file's index */
};

struct ingest_job {
	struct report *r;
	struct ingest_part *parts;
	size_t n_parts, next;
	double deadline; /* clock_mono_now() seconds, 0: none */
	int ret; /* first error */
	uint64_t bytes; /* of the regular files */
	struct progress prog; /* bytes read, on a terminal */
};

static void job_fail(struct ingest_job *j, int ret, const char *msg)
{
	pthread_mutex_lock(&j->r->lock);
	if (!j->ret) {
		j->ret = ret;
		snprintf(j->r->error, sizeof(j->r->error), "%s", msg);
	}
	pthread_mutex_unlock(&j->r->lock);
}

/* Adds what this part read since `shown` to the progress line. */
static off_t show_progress(struct ingest_job *j, const struct record_reader *rd,
			   off_t shown)
{
	off_t at = record_reader_offset(rd);

	if (at >> 20 > shown >> 20) /* whole MiB */
		progress_add(&j->prog, (uint64_t)((at >> 20) - (shown >> 20)));
	return at > shown ? at : shown;
}

static int read_part(struct ingest_job *j, const struct ingest_part *p)
{
	struct record_reader *rd =
		record_reader_open_range(p->path, p->start, p->end);
	off_t shown = p->start;
	unsigned long n = 0;
	struct ingest_src src = { .r = j->r, .run = p->run };
	json_t *rec;
	char msg[600];
	int ret = 0;

	if (!rd) {
		ret = -errno;
		snprintf(msg, sizeof(msg), "%s: %s", p->path,
			 ret == -EINVAL ? "not a regular file (give - to read "
					  "a pipe on stdin)"
					: strerror(errno));
		job_fail(j, ret, msg);
		return ret;
	}
	record_reader_set_deadline(rd, j->deadline, j->r->params.timeout_s);
	while (!__atomic_load_n(&j->ret, __ATOMIC_RELAXED) &&
	       (ret = record_reader_next_fast(rd, &rec, ingest_pair_fast,
					      &src)) > 0) {
		ret = rec ? ingest_record(j->r, rec, p->run,
					  record_reader_line(rd))
			  : 0;
		json_decref(rec);
		if (++n % 4096 == 0)
			shown = show_progress(j, rd, shown);
		if (ret) {
			snprintf(msg, sizeof(msg), "%s:%lu: %s", p->path,
				 record_reader_line(rd), strerror(-ret));
			job_fail(j, ret, msg);
		}
	}
	if (ret < 0)
		job_fail(j, ret, record_reader_error(rd));
	show_progress(j, rd, shown);
	record_reader_close(rd);
	report_route_cache_free(&src.cables);
	return ret < 0 ? ret : 0;
}

static void *ingest_worker(void *arg)
{
	struct ingest_job *j = arg;

	for (;;) {
		size_t i;

		pthread_mutex_lock(&j->r->lock);
		i = j->next++;
		pthread_mutex_unlock(&j->r->lock);
		if (i >= j->n_parts ||
		    __atomic_load_n(&j->ret, __ATOMIC_RELAXED))
			return NULL;
		read_part(j, &j->parts[i]);
	}
}

static int thread_count(const struct report *r)
{
	long n = r->params.threads > 0 ? r->params.threads
				       : sysconf(_SC_NPROCESSORS_ONLN);

	return n < 1 ? 1 : n > MAX_THREADS ? MAX_THREADS : (int)n;
}

/* Splits big regular files into one byte range per thread. */
static int plan_parts(struct ingest_job *j, char **paths, int n, int threads)
{
	size_t cap = (size_t)n * (size_t)threads;
	long split =
		j->r->params.split_min > 0 ? j->r->params.split_min : SPLIT_MIN;

	j->parts = calloc(cap, sizeof(*j->parts));
	if (!j->parts)
		return -ENOMEM;
	for (int i = 0; i < n; i++) {
		struct stat st;
		int k = 1;

		if (strcmp(paths[i], "-") && !stat(paths[i], &st) &&
		    S_ISREG(st.st_mode)) {
			j->bytes += (uint64_t)st.st_size;
			if (st.st_size >= split)
				k = threads;
		}
		for (int p = 0; p < k; p++) {
			struct ingest_part *part = &j->parts[j->n_parts++];

			part->path = paths[i];
			part->run = i < UINT16_MAX ? (uint16_t)i : UINT16_MAX;
			part->start = k == 1 ? 0 : st.st_size * p / k;
			part->end = k == 1 || p == k - 1
					    ? -1
					    : st.st_size * (p + 1) / k;
		}
	}
	return 0;
}

int report_ingest_files(struct report *r, char **paths, int n)
{
	struct ingest_job j = { .r = r };
	pthread_t tids[MAX_THREADS];
	int threads = thread_count(r), started = 0, ret;

	if (r->params.timeout_s > 0)
		j.deadline = clock_mono_now() + r->params.timeout_s;

	ret = plan_parts(&j, paths, n, threads);
	if (ret)
		return ret;
	if ((size_t)threads > j.n_parts)
		threads = (int)j.n_parts;
	progress_start(&j.prog, "report", "MiB read", j.bytes >> 20);
	for (; started < threads - 1; started++)
		if (pthread_create(&tids[started], NULL, ingest_worker, &j))
			break;
	ingest_worker(&j);
	for (int i = 0; i < started; i++)
		pthread_join(tids[i], NULL);
	progress_end(&j.prog);
	free(j.parts);
	report_link_hports(r);
	return j.ret;
}
