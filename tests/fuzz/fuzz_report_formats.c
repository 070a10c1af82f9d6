// SPDX-License-Identifier: MIT
/*
 * Fuzz target: `ibproof report` over a records file, every output format
 * written (reports/), each checked by its own grammar's tool: the JUnit
 * XML by libxml2 (xmllint's parser, in the process), the disable script
 * by `sh -n`; JSON, CSV, Prometheus,
 * HTML and the terminal text by tests/fuzz/check-outputs.py (run once, as
 * a server). A refused file is "PATH:LINE: ...". The outputs are written
 * under /dev/shm, one folder a process; a failed check prints the output
 * and aborts.
 */
#include <fcntl.h>
#include <dirent.h>
#include <stdbool.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <libxml/parser.h>

#include "common/log.h"
#include "judge/pairjudge.h"
#include "reports/report.h"
#include "fuzz.h"

#ifndef FUZZ_CHECK_OUTPUTS
#error "FUZZ_CHECK_OUTPUTS: the path of tests/fuzz/check-outputs.py"
#endif

extern char **environ;

static char dir[64];
static int to_checker = -1, from_checker = -1;

static void fail(const char *what, const char *path)
{
	char cmd[256];

	fprintf(stderr, "oracle: %s\n", what);
	if (path) {
		snprintf(cmd, sizeof(cmd), "head -c 4000 '%s' >&2", path);
		if (system(cmd))
			fprintf(stderr, "(could not show %s)\n", path);
	}
	abort();
}

/* Runs argv with its output into dir/tool.log; its exit status. */
static int run_tool(char *const argv[])
{
	posix_spawn_file_actions_t fa;
	char log[96];
	pid_t pid;
	int status;

	snprintf(log, sizeof(log), "%s/tool.log", dir);
	if (posix_spawn_file_actions_init(&fa) ||
	    posix_spawn_file_actions_addopen(
		    &fa, 1, log, O_WRONLY | O_CREAT | O_TRUNC, 0644) ||
	    posix_spawn_file_actions_adddup2(&fa, 1, 2))
		abort();
	if (posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ)) {
		fprintf(stderr, "oracle: cannot run %s (scripts/deps)\n",
			argv[0]);
		abort();
	}
	posix_spawn_file_actions_destroy(&fa);
	/* libFuzzer's -timeout alarm interrupts the wait: try again */
	while (waitpid(pid, &status, 0) != pid)
		if (errno != EINTR)
			abort();
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}

static const char *const outputs[] = { "report.json",  "disable.csv",
				       "metrics.prom", "report.html",
				       "junit.xml",    "disable.sh",
				       "report.txt",   "tool.log" };

/* At exit: the outputs and their folder go. */
static void remove_outputs(void)
{
	char path[128];

	for (size_t i = 0; i < sizeof(outputs) / sizeof(outputs[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, outputs[i]);
		unlink(path);
	}
	rmdir(dir);
}

/* check-outputs.py --serve, spawned once (no fork: libFuzzer has threads). */
static void start_checker(void)
{
	char *argv[] = { "python3", FUZZ_CHECK_OUTPUTS, "--serve", NULL };
	posix_spawn_file_actions_t fa;
	int in[2], out[2];
	pid_t pid;

	snprintf(dir, sizeof(dir), "/dev/shm/ibproof-fuzz-report-%d",
		 (int)getpid());
	if ((mkdir(dir, 0755) && errno != EEXIST) || pipe2(in, O_CLOEXEC) ||
	    pipe2(out, O_CLOEXEC))
		abort();
	atexit(remove_outputs);
	signal(SIGPIPE, SIG_IGN);
	if (posix_spawn_file_actions_init(&fa) ||
	    posix_spawn_file_actions_adddup2(&fa, in[0], 0) ||
	    posix_spawn_file_actions_adddup2(&fa, out[1], 1) ||
	    posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ)) {
		fprintf(stderr, "oracle: cannot run python3 (scripts/deps)\n");
		abort();
	}
	posix_spawn_file_actions_destroy(&fa);
	close(in[0]);
	close(out[1]);
	to_checker = in[1];
	from_checker = out[0];
}

/* One request, one answer line; reads and writes retried when libFuzzer's
 * alarm interrupts them. */
static bool ask_checker(const char *request, char *answer, size_t len)
{
	size_t n = strlen(request), k = 0;
	ssize_t got;

	while (n) {
		got = write(to_checker, request, n);
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			return false;
		request += got;
		n -= (size_t)got;
	}
	while (k + 1 < len) {
		got = read(from_checker, answer + k, 1);
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			return false;
		if (answer[k++] == '\n')
			break;
	}
	answer[k] = '\0';
	return true;
}

static void check_with_server(const char *fmt, const char *path)
{
	char request[256], answer[1024];

	snprintf(request, sizeof(request), "%s %s\n", fmt, path);
	if (!ask_checker(request, answer, sizeof(answer)))
		fail("check-outputs.py gave no answer (python3?)", NULL);
	if (strcmp(answer, "ok\n"))
		fail(answer, path);
}

static void check_with_tool(const char *tool, const char *flag,
			    const char *path)
{
	char *argv[] = { (char *)tool, (char *)flag, (char *)path, NULL };
	char log[96];

	snprintf(log, sizeof(log), "%s/tool.log", dir);
	if (run_tool(argv)) {
		fprintf(stderr, "oracle: %s %s %s failed:\n", tool, flag, path);
		fail("its output does not parse", log);
	}
}

/*
 * What `xmllint --noout` does: parse, no network, no validation; libxml2
 * prints why a file does not parse to stderr, as xmllint would.
 */
static void check_xml(const char *path)
{
	xmlDocPtr doc = xmlReadFile(path, NULL, XML_PARSE_NONET);

	if (!doc)
		fail("the JUnit XML does not parse (libxml2)", path);
	xmlFreeDoc(doc);
}

/* Each output written, then checked; path is dir/NAME. */
static void write_and_check(const struct report *r)
{
	static const struct {
		const char *name, *fmt;
		int (*write)(const struct report *r, const char *path);
	} outs[] = {
		{ "report.json", "json", report_write_json },
		{ "disable.csv", "csv", report_write_csv },
		{ "metrics.prom", "prom", report_write_prometheus },
		{ "report.html", "html", report_write_html },
		{ "junit.xml", "xml", report_write_junit },
		{ "disable.sh", "sh", report_write_script },
	};
	char path[128];
	FILE *f;

	for (size_t i = 0; i < sizeof(outs) / sizeof(outs[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, outs[i].name);
		if (outs[i].write(r, path))
			fail("an output could not be written", NULL);
		if (!strcmp(outs[i].fmt, "xml"))
			check_xml(path);
		else if (!strcmp(outs[i].fmt, "sh"))
			check_with_tool("sh", "-n", path);
		else
			check_with_server(outs[i].fmt, path);
	}
	snprintf(path, sizeof(path), "%s/report.txt", dir);
	f = fopen(path, "w");
	if (!f || report_print_text(r, f) || fclose(f))
		fail("the text could not be written", NULL);
	check_with_server("text", path);
}

/* Open file descriptors of this process (the reader closes what it
 * opened, and only that: the checker's pipes must survive each input). */
static int open_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	int n = 0;

	if (!d)
		abort();
	while (readdir(d))
		n++;
	closedir(d);
	return n;
}

static void check_fds(int before)
{
	if (fcntl(to_checker, F_GETFD) < 0 || fcntl(from_checker, F_GETFD) < 0)
		fail("the code under test closed the checker's pipes", NULL);
	if (open_fds() != before)
		fail("file descriptors leaked or closed", NULL);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *files[1] = { (char *)fuzz_file(data, size) };
	struct report r;
	int ret, fds;

	if (to_checker < 0) {
		xmlInitParser();
		start_checker();
		log_set_level(LOG_LEVEL_ERROR);
	}
	fds = open_fds();
	if (report_init(&r))
		abort();
	judge_defaults(&r.params.judge);
	r.params.group_min = 4;
	r.params.threads = 1;
	ret = report_analyse(&r, files, 1, NULL);
	if (!ret)
		write_and_check(&r);
	else if (ret == -EINVAL)
		fuzz_check_path_err(files[0], r.error);
	else if (ret != -ENODATA && ret != -ENOMEM)
		fail("report_analyse: an error without its input", NULL);
	report_fini(&r);
	check_fds(fds);
	return 0;
}
