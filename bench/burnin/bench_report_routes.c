// SPDX-License-Identifier: MIT
/*
 * bench_report_routes [--keep] [PORTS...]: `ibproof report` judging by
 * route at scale (issue 16, target: 8.4 M routed pair records <= 30 s and
 * <= 2 GB). All-pairs of PORTS ports (default 4096: 8,386,560 records),
 * bidirectional, written as burnin --routes writes them (`cables` and
 * `cables_ba`, ids 0xGUID:PORT of the egress ports) on the tree of
 * bench_judge_routes: leaves of 32 hosts, 32 spines, routed as opensm's
 * ftree (the flow to host i of a leaf goes up to spine i). Planted as
 * there: a slow up-link (leaf 0 -> spine 1), a slow HCA (port 1000) and a
 * slow down-link (spine 5 -> the leaf before the last, with its host's
 * intra-leaf pairs). Prints the report's wall time, CPU, peak RSS and its
 * disable list; asserts nothing. The records go to $TMPDIR (4.6 GB at
 * 4,096 ports), removed after unless --keep.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/cli.h"
#include "common/clock.h"

#include "bench_run_report.h"

#define HOSTS 32 /* a leaf */
#define SPINES 32
#define CA_GUID 0x0002c90300001000ull
#define LEAF_GUID 0x0008f10300000100ull
#define SPINE_GUID 0x0008f10300010000ull
#define SLOW_HCA 1000

struct tree {
	int ports, leaves;
};

/* A directed cable by its egress port, as burnin_cable_id() writes it. */
struct hop {
	uint64_t guid;
	int port;
};

static int route(const struct tree *t, struct hop *out, int a, int b)
{
	int la = a / HOSTS, lb = b / HOSTS, spine = b % HOSTS, n = 0;

	(void)t;
	out[n++] = (struct hop){ CA_GUID + (uint64_t)a, 1 };
	if (la != lb) {
		out[n++] = (struct hop){ LEAF_GUID + (uint64_t)la,
					 1 + HOSTS + spine };
		out[n++] = (struct hop){ SPINE_GUID + (uint64_t)spine, 1 + lb };
	}
	out[n++] = (struct hop){ LEAF_GUID + (uint64_t)lb, 1 + b % HOSTS };
	return n;
}

static bool slow_hop(const struct tree *t, const struct hop *h)
{
	return (h->guid == LEAF_GUID && h->port == 1 + HOSTS + 1) ||
	       (h->guid == SPINE_GUID + 5 && h->port == 1 + t->leaves - 2);
}

static void write_path(FILE *f, const char *key, const struct hop *h, int n)
{
	fprintf(f, ",\"%s\":[", key);
	for (int i = 0; i < n; i++)
		fprintf(f, "%s\"0x%016llx:%d\"", i ? "," : "",
			(unsigned long long)h[i].guid, h[i].port);
	fputc(']', f);
}

static void port_ref(FILE *f, int p)
{
	fprintf(f,
		"{\"host\":\"node%04d\",\"ca\":\"mlx5_0\",\"port\":1,\"guid\":\"0x%016llx\"}",
		p, (unsigned long long)(CA_GUID + (uint64_t)p));
}

static void write_pair(FILE *f, const struct tree *t, int a, int b, size_t k)
{
	struct hop ab[4], ba[4];
	int n_ab = route(t, ab, a, b), n_ba = route(t, ba, b, a);
	bool slow = a == SLOW_HCA || b == SLOW_HCA;
	double g;

	for (int i = 0; i < n_ab; i++)
		slow |= slow_hop(t, &ab[i]);
	for (int i = 0; i < n_ba; i++)
		slow |= slow_hop(t, &ba[i]);
	g = slow ? 45 : 95 + (double)(k % 7) * 0.1;
	fprintf(f,
		"{\"schema\":\"ibproof/1\",\"kind\":\"pair\",\"time\":\"2026-12-04T00:00:00Z\",\"host\":\"node0000\",\"version\":\"0.1.0\",\"round\":%zu,\"test\":\"write\",\"dir\":\"bi\",\"a\":",
		k % (size_t)(t->ports - 1) + 1);
	port_ref(f, a);
	fputs(",\"b\":", f);
	port_ref(f, b);
	fprintf(f,
		",\"gbps\":%.1f,\"gbps_min\":%.1f,\"expected_gbps\":100.0,\"status\":\"ok\",\"error_completions\":0,\"retest\":false",
		g, g - 1);
	write_path(f, "cables", ab, n_ab);
	write_path(f, "cables_ba", ba, n_ba);
	fputs("}\n", f);
}

static int write_records(const char *path, const struct tree *t)
{
	FILE *f = fopen(path, "w");
	size_t k = 0;

	if (!f)
		return -errno;
	for (int a = 0; a < t->ports; a++)
		for (int b = a + 1; b < t->ports; b++, k++)
			write_pair(f, t, a, b, k);
	return fclose(f) ? -errno : 0;
}

static double cpu_s(const struct rusage *ru)
{
	return (double)ru->ru_utime.tv_sec + ru->ru_utime.tv_usec / 1e6 +
	       (double)ru->ru_stime.tv_sec + ru->ru_stime.tv_usec / 1e6;
}

/* The report's own timing line ("judged N pair records ... in S s"). */
static void print_judged(const char *log)
{
	FILE *f = fopen(log, "r");
	char line[512];

	while (f && fgets(line, sizeof(line), f))
		if (strstr(line, "judged "))
			printf("  %s", line);
	if (f)
		fclose(f);
}

/* The disable list of the JSON report: action and location per entry. */
static void print_disable(const char *json)
{
	char cmd[1024], line[512];
	FILE *f;

	snprintf(
		cmd, sizeof(cmd),
		"python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))\n"
		"for e in r[\"disable\"]: print(\"  \", e[\"action\"], (e.get(\"port\") or {}).get(\"location\"), \"->\", (e.get(\"peer\") or {}).get(\"location\"))' %s",
		json);
	f = popen(cmd, "r");
	while (f && fgets(line, sizeof(line), f))
		fputs(line, stdout);
	if (f)
		pclose(f);
}

static void bench(const char *ibproof, int ports, bool keep)
{
	struct tree t = { ports, ports / HOSTS };
	const char *tmp = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
	char path[512], log[512], json[512];
	double t0, t_write, wall;
	struct rusage ru;
	struct stat st;
	int rc;

	snprintf(path, sizeof(path), "%s/bench-report-routes-%d.jsonl", tmp,
		 ports);
	snprintf(log, sizeof(log), "%s/bench-report-routes-%d.log", tmp, ports);
	snprintf(json, sizeof(json), "%s/bench-report-routes-%d.json", tmp,
		 ports);
	t0 = clock_mono_now();
	if (write_records(path, &t) || stat(path, &st)) {
		printf("%d ports: cannot write %s\n", ports, path);
		return;
	}
	t_write = clock_mono_now() - t0;
	t0 = clock_mono_now();
	rc = bench_run_report(ibproof, path, log, json, &ru);
	wall = clock_mono_now() - t0;
	printf("%5d ports, %8zu routed pair records (%.2f GB, written in %.1f s): ibproof report exit %d, wall %.2f s, CPU %.2f s, peak RSS %.0f MB\n",
	       ports, (size_t)ports * (size_t)(ports - 1) / 2,
	       (double)st.st_size / 1e9, t_write, rc, wall, cpu_s(&ru),
	       ru.ru_maxrss / 1024.0);
	print_judged(log);
	if (rc == 0 || rc == 1)
		print_disable(json);
	else
		printf("  see %s\n", log);
	if (!keep) {
		unlink(path);
		unlink(json);
		if (rc == 0 || rc == 1)
			unlink(log);
	}
}

int main(int argc, char **argv)
{
	const char *ibproof =
		getenv("IBPROOF_BIN") ? getenv("IBPROOF_BIN") : IBPROOF_BIN;
	bool keep = false;
	int n = 0;

	printf("planted: up-link leaf0 -> spine1, HCA node%04d, down-link "
	       "spine5 -> the leaf before the last\n",
	       SLOW_HCA);
	for (int i = 1; i < argc; i++) {
		long v;

		if (!strcmp(argv[i], "--keep")) {
			keep = true;
			continue;
		}
		if (cli_str_to_long(argv[i], 2 * HOSTS, 32768, &v) ||
		    v % HOSTS || v <= SLOW_HCA) {
			fprintf(stderr,
				"bench_report_routes: '%s': expected a port "
				"count, a multiple of %d over %d\n",
				argv[i], HOSTS, SLOW_HCA);
			return 2;
		}
		bench(ibproof, (int)v, keep);
		n++;
	}
	if (!n)
		bench(ibproof, 4096, keep);
	return 0;
}
