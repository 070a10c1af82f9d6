// SPDX-License-Identifier: MIT
/*
 * `ibproof node` end to end on a copy of sysfs-node/healthy (written into
 * the build tree by tests/fixtures/sysfs-node/make-healthy, the CTest
 * fixture sysfs_trees) with one file changed per case: exit code, verdict
 * line (in --json), records; the error counters; --drain with scontrol
 * replaced on PATH.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "common/subcommands.h"
#include "node/node.h"

#define HCA1 "devices/pci0000:c1/0000:c1:01.1/0000:c2:00.0/infiniband/mlx5_1"

static char dir[] = "/tmp/ibproof-test-node-XXXXXX";
static char root[256], json_path[256], rec_path[256], ref_path[256];

__attribute__((format(printf, 1, 2))) static void sh(const char *fmt, ...)
{
	char cmd[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	assert_int_equal(system(cmd), 0);
}

/* Writes text to base/rel with mode. */
static void write_at(const char *base, const char *rel, const char *text,
		     mode_t mode)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", base, rel);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	chmod(path, mode);
}

static void put(const char *rel, const char *text)
{
	write_at(root, rel, text, 0644);
}

static int setup(void **state)
{
	(void)state;
	if (!mkdtemp(dir))
		return -1;
	snprintf(root, sizeof(root), "%s/sys", dir);
	snprintf(json_path, sizeof(json_path), "%s/node.json", dir);
	snprintf(rec_path, sizeof(rec_path), "%s/node.jsonl", dir);
	snprintf(ref_path, sizeof(ref_path), "%s/ref.jsonl", dir);
	setenv("IBPROOF_HOST", "gpu017", 1);
	return 0;
}

static int fresh_tree(void **state)
{
	(void)state;
	sh("rm -rf %s && cp -a " GEN_FIXTURES_DIR "/sysfs-node/healthy %s",
	   root, root);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	sh("rm -rf %s", dir);
	return 0;
}

/* Runs `ibproof node --sysfs-root ROOT --json --records [extra]`. */
static int run_node(const char *extra, const char *extra_arg)
{
	char *argv[] = { "node",   "--sysfs-root", root,
			 "--json", json_path,	   "--records",
			 rec_path, (char *)extra,  (char *)extra_arg,
			 NULL };

	optind = 0;
	return node_main(extra ? (extra_arg ? 9 : 8) : 7, argv);
}

static json_t *doc(void)
{
	json_t *d = json_load_file(json_path, 0, NULL);

	assert_non_null(d);
	return d;
}

static void assert_verdict(int rc, int want_rc, const char *want)
{
	json_t *d = doc();

	assert_int_equal(rc, want_rc);
	assert_string_equal(json_string_value(json_object_get(d, "verdict")),
			    want);
	json_decref(d);
}

static void test_healthy(void **state)
{
	json_t *d;

	(void)state;
	assert_verdict(run_node(NULL, NULL), 0, "node gpu017: PASS");
	d = doc();
	assert_int_equal(json_array_size(json_object_get(d, "ports")), 2);
	json_decref(d);
	sh("grep -c '\"kind\":\"port\"' %s | grep -qx 2", rec_path);
	/* the modules of its ports: not readable from the host, said why */
	sh("grep '\"kind\":\"transceiver\"' %s | grep -c 'not readable "
	   "from the host' | grep -qx 2",
	   rec_path);
	sh("grep -q '\"tool\":\"node\",\"event\":\"end\",\"outcome\":\"pass\"' %s",
	   rec_path);
}

static void test_half_width(void **state)
{
	(void)state;
	put(HCA1 "/ports/1/rate", "200 Gb/sec (2X NDR)\n");
	assert_verdict(run_node(NULL, NULL), 1,
		       "node gpu017: FAIL \u2014 mlx5_1 port 1 at 2x width");
	sh("grep -q '\"category\":\"degraded-width\"' %s", rec_path);
}

static void test_down_and_pcie_gen1(void **state)
{
	(void)state;
	put(HCA1 "/ports/1/state", "1: DOWN\n");
	put(HCA1 "/ports/1/phys_state", "2: Polling\n");
	put("devices/pci0000:c0/0000:c0:01.1/0000:c1:00.0/current_link_speed",
	    "2.5 GT/s PCIe\n");
	assert_verdict(run_node(NULL, NULL), 1,
		       "node gpu017: FAIL \u2014 mlx5_1 port 1 DOWN/Polling; "
		       "PCIe 0000:c1:00.0 at Gen1");
}

static void test_reference_firmware(void **state)
{
	(void)state;
	assert_int_equal(run_node(NULL, NULL), 0);
	rename(rec_path, ref_path);
	put(HCA1 "/fw_ver", "28.36.1010\n");
	assert_verdict(run_node("--reference-inventory", ref_path), 1,
		       "node gpu017: FAIL \u2014 mlx5_1 firmware 28.36.1010");
	sh("rm -rf %s/class/infiniband/mlx5_1", root);
	assert_verdict(run_node("--reference-inventory", ref_path), 1,
		       "node gpu017: FAIL \u2014 mlx5_1 port 1 missing");
}

static void test_bad_reference(void **state)
{
	FILE *f = fopen(ref_path, "w");

	(void)state;
	fputs("{\"schema\":\"ibproof/1\"\n", f);
	fclose(f);
	assert_int_equal(run_node("--reference-inventory", ref_path), 2);
}

static void test_counters(void **state)
{
	struct node_port *ports;
	struct node_counters *before, *after;
	json_t *f = json_array();
	int n;

	(void)state;
	assert_int_equal(node_ports_scan(root, NULL, &ports, &n), 0);
	assert_int_equal(n, 2);
	before = node_counters_take(root, ports, n);
	put(HCA1 "/ports/1/counters/port_xmit_data", "123456\n");
	after = node_counters_take(root, ports, n);
	assert_int_equal(node_counters_judge("gpu017", ports, n, before, after,
					     "the test", f),
			 0);
	node_counters_free(after);
	put(HCA1 "/ports/1/counters/symbol_error", "7\n");
	put(HCA1 "/ports/1/hw_counters/local_ack_timeout_err", "2\n");
	after = node_counters_take(root, ports, n);
	assert_int_equal(node_counters_judge("gpu017", ports, n, before, after,
					     "the test", f),
			 1);
	assert_string_equal(
		json_string_value(json_object_get(
			json_object_get(json_array_get(f, 0), "evidence"),
			"short")),
		"mlx5_1 port 1 error counters up");
	assert_int_equal(
		json_integer_value(json_object_get(
			json_object_get(json_object_get(json_array_get(f, 0),
							"evidence"),
					"increase"),
			"symbol_error")),
		7);
	node_counters_free(before);
	node_counters_free(after);
	free(ports);
	json_decref(f);
}

static void test_drain(void **state)
{
	char path[1024], bin[300];

	(void)state;
	snprintf(bin, sizeof(bin), "%s/bin", dir);
	mkdir(bin, 0755);
	snprintf(path, sizeof(path),
		 "#!/bin/sh\nprintf '%%s\\n' \"$*\" >> "
		 "%s/scontrol.log\n",
		 dir);
	write_at(bin, "scontrol", path, 0755);
	snprintf(path, sizeof(path), "%s:%s", bin, getenv("PATH"));
	setenv("PATH", path, 1);
	put(HCA1 "/ports/1/rate", "200 Gb/sec (2X NDR)\n");
	assert_int_equal(run_node("--drain", NULL), 1);
	sh("grep -q 'update NodeName=gpu017 State=DRAIN "
	   "Reason=ibproof: FAIL .* mlx5_1 port 1 at 2x width' %s/scontrol.log",
	   dir);
}

static void test_undrain_only_ours(void **state)
{
	char text[1024];

	(void)state;
	/* PATH already holds DIR/bin (test_drain): replace its scontrol */
	snprintf(
		text, sizeof(text),
		"#!/bin/sh\nprintf '%%s\\n' \"$*\" >> "
		"%s/resume.log\n[ \"$1\" = show ] && printf '   State=IDLE+DRAIN"
		"\\n   Reason=%%s [root@now]\\n' \"$(cat %s/reason)\"\nexit 0\n",
		dir, dir);
	write_at(dir, "bin/scontrol", text, 0755);
	write_at(dir, "reason", "ibproof: FAIL x", 0644);
	assert_int_equal(run_node("--undrain", NULL), 0);
	sh("grep -q 'update NodeName=gpu017 State=RESUME' %s/resume.log", dir);
	sh("rm %s/resume.log", dir);
	write_at(dir, "reason", "bad DIMM, ticket 4711", 0644);
	assert_int_equal(run_node("--undrain", NULL), 0);
	sh("! grep -q RESUME %s/resume.log", dir);
}

/*
 * node's old --resume (burnin's --resume continues a killed run) is refused
 * with a usage error naming --undrain, before anything runs.
 */
static void test_resume_refused(void **state)
{
	char err_path[512];
	int saved, fd, rc;

	(void)state;
	snprintf(err_path, sizeof(err_path), "%s/stderr", dir);
	fflush(stderr);
	saved = dup(2);
	fd = open(err_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	assert_true(saved >= 0 && fd >= 0);
	dup2(fd, 2);
	close(fd);
	rc = run_node("--resume", NULL);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	assert_int_equal(rc, 2);
	sh("grep -q 'ibproof node: --resume was renamed --undrain (it returns "
	   "the node to Slurm' %s",
	   err_path);
	/* --help shows --undrain only */
	sh("\"$IBPROOF_BIN\" node --help > %s/help", dir);
	sh("grep -q -- '--undrain' %s/help && ! grep -q -- '--resume' %s/help",
	   dir, dir);
}

/*
 * A launcher standing in for mpirun + burnin: body runs with $out = the
 * path after --records.
 */
static void launcher(const char *name, const char *body)
{
	char text[1024];

	snprintf(text, sizeof(text),
		 "#!/bin/sh\nwhile [ $# -gt 0 ]; do "
		 "[ \"$1\" = --records ] && out=$2; shift; done\n%s\n",
		 body);
	write_at(dir, name, text, 0755);
}

static int run_against(const char *name, const char *timeout)
{
	char path[512];
	char *argv[] = { "node",      "--sysfs-root",  root,	     "--json",
			 json_path,   "--records",     rec_path,     "--no-dma",
			 "--against", "gpu001,gpu002", "--launcher", path,
			 "--timeout", (char *)timeout, NULL };

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	optind = 0;
	return node_main(14, argv);
}

static void test_against(void **state)
{
	(void)state;
	launcher("burnin-fail", "cp " FIXTURES_DIR "/sysfs-node/against.jsonl "
				"\"$out\"; exit 1");
	assert_int_equal(run_against("burnin-fail", "30"), 1);
	assert_verdict(1, 1,
		       "node gpu017: FAIL \u2014 mlx5_0 port 1 "
		       "low-bandwidth");
	/* the reference's fail is a warning, the pair is copied */
	sh("grep '\"severity\":\"warn\"' %s | grep -q 'reference gpu001: "
	   "gpu001:mlx5_1:1 was never measured: pick other references'",
	   rec_path);
	sh("grep -q '\"kind\":\"pair\"' %s", rec_path);
}

static void test_against_could_not_test(void **state)
{
	(void)state;
	launcher("burnin-none", "exit 3");
	assert_int_equal(run_against("burnin-none", "30"), 3);
	assert_verdict(3, 3, "node gpu017: COULD NOT TEST");
	launcher("burnin-hang", "sleep 60");
	assert_int_equal(run_against("burnin-hang", "1"), 3);
	sh("grep -q 'burnin killed after 1 s' %s", json_path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_healthy, fresh_tree),
		cmocka_unit_test_setup(test_half_width, fresh_tree),
		cmocka_unit_test_setup(test_down_and_pcie_gen1, fresh_tree),
		cmocka_unit_test_setup(test_reference_firmware, fresh_tree),
		cmocka_unit_test_setup(test_bad_reference, fresh_tree),
		cmocka_unit_test_setup(test_counters, fresh_tree),
		cmocka_unit_test_setup(test_drain, fresh_tree),
		cmocka_unit_test_setup(test_undrain_only_ours, fresh_tree),
		cmocka_unit_test_setup(test_resume_refused, fresh_tree),
		cmocka_unit_test_setup(test_against, fresh_tree),
		cmocka_unit_test_setup(test_against_could_not_test, fresh_tree),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
