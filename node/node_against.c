// SPDX-License-Identifier: MIT
/*
 * --against HOSTS: burnin's node: schedule through a launcher (mpirun by
 * default), run with probe_run (no shell, hard timeout). Its records are
 * copied into node's; its fail findings on this host fail the node, those
 * on a reference host become warnings.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/cli.h"
#include "common/log.h"
#include "common/record.h"
#include "node/node_run.h"
#include "node/probe.h"

#define AGAINST_MAX_ARGS 64

struct argv_buf {
	char *v[AGAINST_MAX_ARGS + 1];
	int n;
	char *words; /* the launcher, split in place */
	char *extra; /* --burnin-opts, split in place */
};

static int push(struct argv_buf *a, char *s)
{
	if (!s || a->n >= AGAINST_MAX_ARGS)
		return -E2BIG;
	a->v[a->n++] = s;
	a->v[a->n] = NULL;
	return 0;
}

/* "mpirun --host SELF:P,REF1:P,... -np TOTAL" */
static char *default_launcher(const char *self, const char *hosts, int p)
{
	size_t len = strlen(self) + 2 * strlen(hosts) + 128;
	char *s = malloc(len), *dup = strdup(hosts), *save = NULL, *h;
	size_t off;
	int n = 1;

	if (!s || !dup) {
		free(s);
		free(dup);
		return NULL;
	}
	off = (size_t)snprintf(s, len, "mpirun --host %s:%d", self, p);
	for (h = strtok_r(dup, ",", &save); h; h = strtok_r(NULL, ",", &save))
		if (*h) {
			off += (size_t)snprintf(s + off, len - off, ",%s:%d", h,
						p);
			n++;
		}
	snprintf(s + off, len - off, " -np %d", n * p);
	free(dup);
	return s;
}

static int build_argv(const struct node_run_opts *o, const char *tmp,
		      struct argv_buf *a, char *exe, char *sched, char *dur)
{
	char *save = NULL, *w;
	int ret = 0;

	a->words = o->launcher
			   ? strdup(o->launcher)
			   : default_launcher(o->host, o->against, o->n_active);
	if (!a->words)
		return -ENOMEM;
	for (w = strtok_r(a->words, " \t\n", &save); w && !ret;
	     w = strtok_r(NULL, " \t\n", &save))
		ret = push(a, w);
	ret = ret ? ret : push(a, exe);
	ret = ret ? ret : push(a, "burnin");
	ret = ret ? ret : push(a, "--schedule");
	ret = ret ? ret : push(a, sched);
	ret = ret ? ret : push(a, "--records");
	ret = ret ? ret : push(a, (char *)tmp);
	ret = ret ? ret : push(a, "--duration");
	ret = ret ? ret : push(a, dur);
	ret = ret ? ret : push(a, "--no-progress");
	if (ret || !o->burnin_opts)
		return ret;
	a->extra = strdup(o->burnin_opts);
	if (!a->extra)
		return -ENOMEM;
	for (w = strtok_r(a->extra, " \t\n", &save); w && !ret;
	     w = strtok_r(NULL, " \t\n", &save))
		ret = push(a, w);
	return ret;
}

/* A burnin finding: fail on this host stays, on a reference it is a warn. */
static void take_finding(const struct node_run_opts *o, json_t *rec,
			 json_t *findings)
{
	const char *h = json_string_value(
		json_object_get(json_object_get(rec, "subject"), "host"));
	const char *sev = json_string_value(json_object_get(rec, "severity"));
	char buf[512];

	if (h && strcmp(h, o->host) != 0 && sev && !strcmp(sev, "fail")) {
		snprintf(buf, sizeof(buf),
			 "reference %s: %s: pick other "
			 "references",
			 h, json_string_value(json_object_get(rec, "message")));
		json_object_set_new(rec, "severity", json_string("warn"));
		json_object_set_new(rec, "message", json_string(buf));
		json_object_set_new(rec, "reference", json_true());
	}
	json_array_append(findings, rec);
}

static int copy_records(const struct node_run_opts *o, const char *tmp,
			struct record_writer *w, json_t *findings, int *pairs)
{
	struct record_reader *r = record_reader_open(tmp);
	json_t *rec;
	int ret;

	if (!r) {
		log_error("--against: burnin wrote no records to %s: %m "
			  "(rank 0 must run on this host)",
			  tmp);
		return -errno;
	}
	while ((ret = record_reader_next(r, &rec)) == 1) {
		const char *kind =
			json_string_value(json_object_get(rec, "kind"));

		if (!strcmp(kind, "finding"))
			take_finding(o, rec, findings);
		*pairs += !strcmp(kind, "pair");
		if (w && (!strcmp(kind, "finding") || !strcmp(kind, "pair") ||
			  !strcmp(kind, "run")))
			record_writer_emit(w, rec);
		json_decref(rec);
	}
	if (ret < 0)
		log_error("--against: %s", ret == -EINVAL
						   ? record_reader_error(r)
						   : strerror(-ret));
	record_reader_close(r);
	return ret;
}

static double against_timeout(const struct node_run_opts *o)
{
	int hosts = 1;

	if (o->timeout_s > 0)
		return o->timeout_s;
	for (const char *s = o->against; *s; s++)
		hosts += *s == ',';
	/* node: schedule: rounds of write then read; generous set-up time */
	return 60.0 + 4.0 * (o->duration_s + 2.0) * (hosts + 1) *
			      (o->n_active > 0 ? o->n_active : 1);
}

int node_against_run(const struct node_run_opts *o, struct record_writer *w,
		     json_t *findings, json_t *skipped)
{
	char tmp[] = "/tmp/ibproof-node-burnin-XXXXXX", exe[4096];
	char sched[512], dur[32];
	struct argv_buf a = { .n = 0 };
	struct probe_result *res = calloc(1, sizeof(*res));
	int rc = IBP_EXIT_RUNTIME, fd, pairs = 0;
	ssize_t len = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	fd = mkstemp(tmp);
	if (!res || fd < 0 || len <= 0) {
		log_error("--against: cannot prepare the burnin run: %m");
		goto out;
	}
	close(fd);
	exe[len] = '\0';
	snprintf(sched, sizeof(sched), "node:%s", o->host);
	snprintf(dur, sizeof(dur), "%g", o->duration_s);
	if (build_argv(o, tmp, &a, exe, sched, dur)) {
		log_error("--against: launcher command too long");
		goto out;
	}
	log_info("--against %s: %s ... burnin --schedule %s", o->against,
		 a.v[0], sched);
	if (probe_run(a.v, against_timeout(o), res)) {
		log_error("--against: cannot run %s: %m", a.v[0]);
		goto out;
	}
	fputs(res->output, stderr);
	if (res->timed_out)
		json_array_append_new(
			skipped,
			json_sprintf(
				"against: burnin killed after %.0f s (--timeout)",
				against_timeout(o)));
	if (copy_records(o, tmp, w, findings, &pairs) < 0 || res->timed_out)
		goto out;
	rc = res->exit_status == IBP_EXIT_RUNTIME || res->exit_status > 3 ||
			     !pairs
		     ? IBP_EXIT_RUNTIME
		     : res->exit_status;
	if (rc == IBP_EXIT_RUNTIME)
		json_array_append_new(
			skipped,
			json_sprintf(
				"against: burnin could not test (exit %d, %d pairs)",
				res->exit_status, pairs));
out:
	unlink(tmp);
	free(a.words);
	free(a.extra);
	free(res);
	return rc;
}
