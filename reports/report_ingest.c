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

#include "common/log.h"
#include "common/record.h"
#include "reports/report.h"

#define SPLIT_MIN (32L << 20) /* files from this size are read in parts */
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
	x->vendor = report_intern(r->strs, str_field(t, "vendor"));
	x->part_number = report_intern(r->strs, str_field(t, "part_number"));
	x->serial = report_intern(r->strs, str_field(t, "serial"));
}

static char type_code(const char *type)
{
	if (!type)
		return 0;
	return !strcmp(type, "switch") ? 's' : !strcmp(type, "ca") ? 'c' :
	       !strcmp(type, "router") ? 'r' : 0;
}

/* "node01 mlx5_0": the Linux convention for HCA node descriptions. */
static void split_ca_name(struct report *r, struct report_end *e)
{
	const char *sp = e->name ? strchr(e->name, ' ') : NULL;
	char host[256];

	if (!sp || strchr(sp + 1, ' ') || (size_t)(sp - e->name) >= sizeof(host))
		return;
	snprintf(host, sizeof(host), "%.*s", (int)(sp - e->name), e->name);
	e->host = report_intern(r->strs, host);
	e->ca = report_intern(r->strs, sp + 1);
}

/* The cage/lane alias of a switch port, when the records or type say so. */
static void end_alias(struct report *r, const json_t *ref, struct report_end *e)
{
	char buf[32], g[19];
	const char *alias = str_field(ref, "alias");
	bool twin = json_is_true(json_object_get(ref, "twin_port")) ||
		    json_object_get(ref, "cage") ||
		    int_field(ref, "devid", 0) == 0xd2f2;

	if (e->type != 's')
		return;
	record_guid_str(e->guid, g);
	if (twin)
		json_object_set_new(r->twin_switches, g, json_true());
	else
		twin = json_object_get(r->twin_switches, g) != NULL;
	if (!alias && twin && e->port > 0) {
		snprintf(buf, sizeof(buf), "%d/%d", (e->port + 1) / 2,
			 e->port % 2 ? 1 : 2);
		alias = buf;
	}
	e->alias = report_intern(r->strs, alias);
}

/* Once every file is read, a twin-port switch known from any record. */
void report_end_alias(struct report *r, struct report_end *e)
{
	char g[19], buf[32];

	if (e->type != 's' || e->alias || e->port <= 0 ||
	    !json_object_get(r->twin_switches, record_guid_str(e->guid, g)))
		return;
	snprintf(buf, sizeof(buf), "%d/%d", (e->port + 1) / 2,
		 e->port % 2 ? 1 : 2);
	e->alias = report_intern(r->strs, buf);
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
		e->host = report_intern(r->strs, str_field(ref, "host"));
		e->ca = report_intern(r->strs, str_field(ref, "ca"));
	} else if (str_field(ref, "node")) {
		e->type = e->type ? e->type : 's';
		e->name = report_intern(r->strs, str_field(ref, "node"));
	} else {
		e->name = report_intern(r->strs, str_field(ref, "name"));
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

static int pair_port(struct report *r, const json_t *ref, uint32_t *idx)
{
	return report_hport_get(r, str_field(ref, "host"), str_field(ref, "ca"),
				int_field(ref, "port", 0), guid_field(ref, "guid"),
				idx);
}

static int ingest_pair(struct report *r, const json_t *rec)
{
	const json_t *a = json_object_get(rec, "a"), *b = json_object_get(rec, "b");
	struct report_meas m = {
		.gbps = (float)json_number_value(json_object_get(rec, "gbps")),
		.gbps_min = (float)json_number_value(json_object_get(rec, "gbps_min")),
		.expected = (float)json_number_value(json_object_get(rec, "expected_gbps")),
		.round = (uint32_t)int_field(rec, "round", 0),
		.test = !strcmp(str_field(rec, "test"), "read"),
		.dir = !strcmp(str_field(rec, "dir"), "bi"),
		.status = status_code(str_field(rec, "status")),
	};
	struct attr_pair p = { .verdict = ATTR_UNTESTED };
	int ret;

	pthread_mutex_lock(&r->lock);
	if (m.status)
		m.error = report_intern(r->strs, str_field(rec, "error"));
	ret = pair_port(r, a, &p.a) ?: pair_port(r, b, &p.b) ?:
	      report_pair_add(r, &p, &m);
	pthread_mutex_unlock(&r->lock);
	return ret;
}

static int ingest_port(struct report *r, const json_t *rec)
{
	uint32_t idx;
	struct report_hport *h;
	int ret = report_hport_get(r, str_field(rec, "host"), str_field(rec, "ca"),
				   int_field(rec, "port", 0),
				   guid_field(rec, "guid"), &idx);

	if (ret)
		return ret;
	h = &r->hports[idx];
	h->rail = int_field(rec, "rail", -1);
	h->rate_gbps = json_number_value(json_object_get(rec, "rate_gbps"));
	report_xcvr_from(r, rec, &h->xcvr);
	return 0;
}

static int ingest_link(struct report *r, const json_t *rec)
{
	struct report_link l = { 0 };

	if (report_end_from(r, json_object_get(rec, "a"), &l.a) ||
	    report_end_from(r, json_object_get(rec, "b"), &l.b))
		return 0; /* the reader validated it: nothing to place */
	l.width = report_intern(r->strs, str_field(rec, "width"));
	l.speed = report_intern(r->strs, str_field(rec, "speed"));
	l.state = report_intern(r->strs, str_field(rec, "state"));
	l.phys_state = report_intern(r->strs, str_field(rec, "phys_state"));
	return report_link_add(r, &l);
}

/* counters and port records may carry the transceiver of a port. */
static int ingest_counters(struct report *r, const json_t *rec)
{
	const json_t *subj = json_object_get(rec, "subject");
	struct report_end e;
	uint32_t idx;

	if (!json_object_get(rec, "transceiver") || report_end_from(r, subj, &e) ||
	    e.type != 'c' || !e.guid ||
	    !report_map_get(&r->hport_by_guid, e.guid, &idx))
		return 0;
	report_xcvr_from(r, rec, &r->hports[idx].xcvr);
	return 0;
}

int report_ingest_record(struct report *r, json_t *rec)
{
	const char *kind = str_field(rec, "kind");
	int ret = 0;

	if (!strcmp(kind, "pair"))
		return ingest_pair(r, rec);
	pthread_mutex_lock(&r->lock);
	r->n_records++;
	if (!strcmp(kind, "port"))
		ret = ingest_port(r, rec);
	else if (!strcmp(kind, "link"))
		ret = ingest_link(r, rec);
	else if (!strcmp(kind, "finding"))
		ret = report_finding_take(r, rec);
	else if (!strcmp(kind, "counters"))
		ret = ingest_counters(r, rec);
	else if (!strcmp(kind, "pcie"))
		ret = json_array_append(r->pcie, rec);
	else if (!strcmp(kind, "run") && !strcmp(str_field(rec, "event"), "end"))
		ret = json_array_append(r->runs, rec);
	pthread_mutex_unlock(&r->lock);
	return ret;
}

struct ingest_part {
	const char *path;
	off_t start, end;
};

struct ingest_job {
	struct report *r;
	struct ingest_part *parts;
	size_t n_parts, next;
	int ret;		/* first error */
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

static int read_part(struct ingest_job *j, const struct ingest_part *p)
{
	struct record_reader *rd = record_reader_open_range(p->path, p->start,
							    p->end);
	json_t *rec;
	char msg[600];
	int ret = 0;

	if (!rd) {
		ret = -errno;
		snprintf(msg, sizeof(msg), "%s: %s", p->path, strerror(errno));
		job_fail(j, ret, msg);
		return ret;
	}
	while (!__atomic_load_n(&j->ret, __ATOMIC_RELAXED) &&
	       (ret = record_reader_next(rd, &rec)) > 0) {
		ret = report_ingest_record(j->r, rec);
		json_decref(rec);
		if (ret) {
			snprintf(msg, sizeof(msg), "%s:%lu: %s", p->path,
				 record_reader_line(rd), strerror(-ret));
			job_fail(j, ret, msg);
		}
	}
	if (ret < 0)
		job_fail(j, ret, record_reader_error(rd));
	record_reader_close(rd);
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
		if (i >= j->n_parts || __atomic_load_n(&j->ret, __ATOMIC_RELAXED))
			return NULL;
		read_part(j, &j->parts[i]);
	}
}

static int thread_count(const struct report *r)
{
	long n = r->params.threads > 0 ? r->params.threads :
		 sysconf(_SC_NPROCESSORS_ONLN);

	return n < 1 ? 1 : n > MAX_THREADS ? MAX_THREADS : (int)n;
}

/* Splits big regular files into one byte range per thread. */
static int plan_parts(struct ingest_job *j, char **paths, int n, int threads)
{
	size_t cap = (size_t)n * (size_t)threads;

	j->parts = calloc(cap, sizeof(*j->parts));
	if (!j->parts)
		return -ENOMEM;
	for (int i = 0; i < n; i++) {
		struct stat st;
		int k = 1;

		if (strcmp(paths[i], "-") && !stat(paths[i], &st) &&
		    S_ISREG(st.st_mode) && st.st_size >= SPLIT_MIN)
			k = threads;
		for (int p = 0; p < k; p++) {
			struct ingest_part *part = &j->parts[j->n_parts++];

			part->path = paths[i];
			part->start = k == 1 ? 0 : st.st_size * p / k;
			part->end = k == 1 || p == k - 1 ? -1 :
				    st.st_size * (p + 1) / k;
		}
	}
	return 0;
}

int report_ingest_files(struct report *r, char **paths, int n)
{
	struct ingest_job j = { .r = r };
	pthread_t tids[MAX_THREADS];
	int threads = thread_count(r), started = 0, ret;

	ret = plan_parts(&j, paths, n, threads);
	if (ret)
		return ret;
	if ((size_t)threads > j.n_parts)
		threads = (int)j.n_parts;
	for (; started < threads - 1; started++)
		if (pthread_create(&tids[started], NULL, ingest_worker, &j))
			break;
	ingest_worker(&j);
	for (int i = 0; i < started; i++)
		pthread_join(tids[i], NULL);
	free(j.parts);
	report_link_hports(r);
	return j.ret;
}
