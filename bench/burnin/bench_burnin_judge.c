// SPDX-License-Identifier: MIT
/*
 * bench_burnin_judge [--no-report] [PORTS...]: the one pair judge at
 * scale, all-pairs of PORTS ports (default 1024 2048 4096) in one test,
 * with one slow port, one intermittent port and one erroring port
 * planted. Each size twice, each in a child process for its peak RSS:
 *   burnin: burnin_judge(), rank 0's entry point (before each retest
 *           round and at the end, while every other rank waits);
 *   report: `ibproof report` on the same pairs written as records (its
 *           judging time from its -v log line; wall and RSS include
 *           reading the records).
 * Prints figures; asserts nothing. The records go to $TMPDIR (2.2 GB at
 * 4,096 ports), removed after.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "burnin/burnin.h"
#include "common/cli.h"
#include "common/clock.h"

#include "bench_run_report.h"

/* The planted faults: ports 7 (slow), 11 (intermittent), 13 (errors). */
enum { SLOW = 7, DIP = 11, ERR = 13 };

struct plant {
	double gbps, gbps_min;
	bool error;
};

static struct plant plant(int a, int b, int k)
{
	struct plant p = { 95 + (k % 7) * 0.1, 0, false };

	if (a == SLOW || b == SLOW)
		p.gbps = 45;
	p.gbps_min = p.gbps - 1;
	if (a == DIP || b == DIP)
		p.gbps_min = 20;
	if (a == ERR || b == ERR)
		p.error = true;
	return p;
}

static double cpu_s(const struct rusage *ru)
{
	return (double)ru->ru_utime.tv_sec + ru->ru_utime.tv_usec / 1e6 +
	       (double)ru->ru_stime.tv_sec + ru->ru_stime.tv_usec / 1e6;
}

/* judge_s: wall time of judging alone; wall and CPU: the whole child. */
static void print_blamed(const char *what, int n_ports, size_t n_pairs,
			 double judge_s, double judge_cpu, double wall_s,
			 const struct rusage *ru, const char *blamed)
{
	printf("%-6s %4d ports, %7zu pairs: judged in %6.2f s (CPU %6.2f s); whole run %6.2f s (CPU %6.2f s), peak RSS %5.0f MB; blamed %s\n",
	       what, n_ports, n_pairs, judge_s, judge_cpu, wall_s, cpu_s(ru),
	       ru->ru_maxrss / 1024.0, blamed);
	fflush(stdout);
}

/* In a child: build the measures, judge, print. */
static int burnin_child(int n_ports)
{
	size_t n_m = (size_t)n_ports * (size_t)(n_ports - 1) / 2, k = 0;
	struct burnin_measure *m = calloc(n_m, sizeof(*m));
	struct burnin_port_verdict *v = calloc((size_t)n_ports, sizeof(*v));
	struct burnin_judge_params jp;
	char blamed[256] = "";
	struct rusage r0, r1;
	double t0, t;

	if (!m || !v)
		return 1;
	burnin_judge_defaults(&jp);
	for (int a = 0; a < n_ports; a++)
		for (int b = a + 1; b < n_ports; b++, k++) {
			struct plant p = plant(a, b, (int)k);

			m[k] = (struct burnin_measure){
				.round = (int)(k % (size_t)(n_ports - 1)),
				.a = a,
				.b = b,
				.status = p.error ? BURNIN_PAIR_ERROR
						  : BURNIN_PAIR_OK,
				.gbps = p.error ? 0 : p.gbps,
				.gbps_min = p.error ? 0 : p.gbps_min,
				.expected_gbps = 100,
			};
		}
	getrusage(RUSAGE_SELF, &r0);
	t0 = clock_mono_now();
	if (burnin_judge(&jp, m, (int)n_m, v, n_ports))
		return 1;
	t = clock_mono_now() - t0;
	getrusage(RUSAGE_SELF, &r1);
	for (int p = 0; p < n_ports; p++)
		if (v[p].blame) {
			size_t len = strlen(blamed);

			snprintf(blamed + len, sizeof(blamed) - len, "%s%d",
				 len ? "," : "", p);
		}
	printf("%.3f %.3f %s\n", t, cpu_s(&r1) - cpu_s(&r0),
	       blamed[0] ? blamed : "-");
	fflush(stdout);
	return 0;
}

/* Runs f in a child; its stdout line into out, its peak RSS. */
static int in_child(int (*f)(int), int arg, char *out, size_t len,
		    struct rusage *ru)
{
	int fd[2], status;
	pid_t pid;
	ssize_t n;

	if (pipe(fd))
		return -errno;
	fflush(stdout);
	pid = fork();
	if (pid < 0)
		return -errno;
	if (!pid) {
		close(fd[0]);
		dup2(fd[1], 1);
		_exit(f(arg));
	}
	close(fd[1]);
	n = read(fd[0], out, len - 1);
	out[n > 0 ? n : 0] = '\0';
	close(fd[0]);
	if (wait4(pid, &status, 0, ru) < 0 || !WIFEXITED(status) ||
	    WEXITSTATUS(status))
		return -EIO;
	return 0;
}

static void bench_burnin(int n_ports)
{
	size_t n_m = (size_t)n_ports * (size_t)(n_ports - 1) / 2;
	double t0 = clock_mono_now(), judge_s, judge_cpu;
	char line[512], blamed[256];
	struct rusage ru;

	if (in_child(burnin_child, n_ports, line, sizeof(line), &ru) ||
	    sscanf(line, "%lf %lf %255s", &judge_s, &judge_cpu, blamed) != 3) {
		printf("burnin %4d ports: failed\n", n_ports);
		return;
	}
	print_blamed("burnin", n_ports, n_m, judge_s, judge_cpu,
		     clock_mono_now() - t0, &ru, blamed);
}

static void port_ref(FILE *f, int p)
{
	fprintf(f,
		"{\"host\":\"node%04d\",\"ca\":\"mlx5_0\",\"port\":1,\"guid\":\"0x%016x\"}",
		p + 1, 0x1000 + p);
}

/* The same pairs as pair records (the contract's fields, burnin's
 * error_completions and retest). */
static int write_records(const char *path, int n_ports)
{
	FILE *f = fopen(path, "w");
	size_t k = 0;

	if (!f)
		return -errno;
	for (int a = 0; a < n_ports; a++)
		for (int b = a + 1; b < n_ports; b++, k++) {
			struct plant p = plant(a, b, (int)k);

			fprintf(f,
				"{\"schema\":\"ibproof/1\",\"kind\":\"pair\",\"time\":\"2026-12-03T00:00:00Z\",\"host\":\"node0001\",\"version\":\"0.1.0\",\"round\":%zu,\"test\":\"write\",\"dir\":\"uni\",\"a\":",
				k % (size_t)(n_ports - 1) + 1);
			port_ref(f, a);
			fputs(",\"b\":", f);
			port_ref(f, b);
			fprintf(f,
				",\"gbps\":%.1f,\"gbps_min\":%.1f,\"expected_gbps\":100.0,\"status\":\"%s\"%s,\"error_completions\":%d,\"retest\":false}\n",
				p.error ? 0 : p.gbps, p.error ? 0 : p.gbps_min,
				p.error ? "error" : "ok",
				p.error ? ",\"error\":\"a: 3 error completions\""
					: "",
				p.error ? 3 : 0);
		}
	return fclose(f) ? -errno : 0;
}

static void bench_report(const char *ibproof, int n_ports)
{
	size_t n_m = (size_t)n_ports * (size_t)(n_ports - 1) / 2;
	const char *tmp = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
	char path[512], log[512], json[512], cmd[2048], blamed[256] = "";
	double t0, wall, judge_s = -1, judge_cpu = -1;
	struct rusage ru;
	int status;
	FILE *f;

	snprintf(path, sizeof(path), "%s/bench-judge-%d.jsonl", tmp,
		 (int)getpid());
	snprintf(log, sizeof(log), "%s/bench-judge-%d.log", tmp, (int)getpid());
	snprintf(json, sizeof(json), "%s/bench-judge-%d.json", tmp,
		 (int)getpid());
	if (write_records(path, n_ports)) {
		printf("report %4d ports: cannot write %s\n", n_ports, path);
		return;
	}
	t0 = clock_mono_now();
	status = bench_run_report(ibproof, path, log, json, &ru);
	if (status < 0 || status > 1) {
		printf("report %4d ports: ibproof report failed (see %s)\n",
		       n_ports, log);
		unlink(path);
		return;
	}
	wall = clock_mono_now() - t0;
	f = fopen(log, "r");
	while (f && fgets(cmd, sizeof(cmd), f)) {
		char *s = strstr(cmd, "ports in ");

		if (s)
			judge_s = strtod(s + 9, &s);
		if (s && (s = strstr(s, "CPU ")))
			judge_cpu = strtod(s + 4, NULL);
	}
	if (f)
		fclose(f);
	/* the blamed ports, from the JSON report's ports */
	snprintf(
		cmd, sizeof(cmd),
		"python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); print(\",\".join(str(int(p[\"host\"][4:])-1) for p in r[\"ports\"] if p[\"blamed\"]) or \"-\")' %s",
		json);
	f = popen(cmd, "r");
	if (f && fgets(blamed, sizeof(blamed), f))
		blamed[strcspn(blamed, "\n")] = '\0';
	if (f)
		pclose(f);
	print_blamed("report", n_ports, n_m, judge_s, judge_cpu, wall, &ru,
		     blamed);
	unlink(path);
	unlink(log);
	unlink(json);
}

/* A port count from the command line; exits 2 on anything else. */
static int port_count(const char *s)
{
	long v;

	if (cli_str_to_long(s, 16, 1000000, &v)) {
		fprintf(stderr,
			"bench_burnin_judge: '%s': expected a port "
			"count from 16 to 1000000\n",
			s);
		exit(2);
	}
	return (int)v;
}

int main(int argc, char **argv)
{
	static const int dflt[] = { 1024, 2048, 4096 };
	const char *ibproof =
		getenv("IBPROOF_BIN") ? getenv("IBPROOF_BIN") : IBPROOF_BIN;
	bool report = true;
	int sizes[64], n = 0;

	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--no-report"))
			report = false;
		else if (n < 64)
			sizes[n++] = port_count(argv[i]);
	if (!n)
		for (size_t i = 0; i < sizeof(dflt) / sizeof(dflt[0]); i++)
			sizes[n++] = dflt[i];
	printf("planted: %d slow, %d intermittent, %d erroring\n", SLOW, DIP,
	       ERR);
	for (int i = 0; i < n; i++) {
		bench_burnin(sizes[i]);
		if (report)
			bench_report(ibproof, sizes[i]);
	}
	return 0;
}
