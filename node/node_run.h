/* SPDX-License-Identifier: MIT */
#ifndef IBPROOF_NODE_NODE_RUN_H
#define IBPROOF_NODE_NODE_RUN_H

#include <stdbool.h>

#include <jansson.h>

#include "common/record.h"
#include "node/node.h"

/* The options of `ibproof node` (node_cli.c) and the whole run. */
struct node_run_opts {
	const char *host; /* this node's name (record_hostname()) */
	const char *sysfs_root; /* "/sys" */
	const char *reference; /* --reference-inventory FILE */
	int expect_ports;
	double expect_rate_gbps;
	const char *against; /* HOST[,HOST...] */
	const char *launcher; /* NULL: mpirun --host ... -np ... */
	const char *burnin_opts; /* more words for burnin (--against) */
	double duration_s; /* burnin and DMA windows */
	bool no_dma;
	int samples; /* DMA samples per port and test */
	bool drain, undrain;
	const char *records, *json;
	double timeout_s; /* --against, scontrol: 0 = computed */
	const char *ca;
	int port;
	int n_active; /* usable ports found (for --against) */
	const char *kernel_log; /* --kernel-log FILE; NULL: /dev/kmsg on /sys */
	double window_h; /* --window: flaps counted within (24) */
	double boot_time; /* --boot-time: UTC seconds, 0 unknown */
	const char *lnet_peers; /* --lnet-peers NID[,NID...] */
	/* the ports' modules: NULL when the ports are not this host's */
	const struct xcvr_ethtool_ops *ethtool;
};

struct klog_event;
struct node_port;
struct xcvr_ethtool_ops;

/* The state of one run, shared by node_run.c and node_report.c. */
struct node_ctx {
	struct node_run_opts *o;
	struct record_writer *w;
	json_t *findings; /* every finding, for the verdict */
	size_t written; /* findings already in the records file */
	json_t *skipped, *notes;
	struct node_port *ports, *ref;
	int n, n_ref;
	struct node_module_scope modules; /* RoCE modules asked, and read */
	bool no_test; /* a check could not run: exit 3 */
};

/*
 * node_report.c: prints the verdict line and the detail on stdout and sets
 * *verdict (the caller frees it; NULL when out of memory). Returns the exit
 * code the findings call for.
 */
int node_report(const struct node_ctx *c, char **verdict);
/* Writes the --json document; -1 if it cannot be written. */
int node_report_json(const struct node_ctx *c, const char *verdict, int rc);

/* Runs every check, prints the verdict and the detail; an exit code. */
int node_run(struct node_run_opts *o);
/*
 * The ports of the root (--ca, --port) into c->ports: IBP_EXIT_PASS, or
 * IBP_EXIT_USAGE (a --sysfs-root that is no /sys), IBP_EXIT_RUNTIME (said).
 */
int node_scan_ports(struct node_ctx *c);
/*
 * Judges c->ports (node_judge_ports) into c->findings, and no RDMA port
 * at all, with no expectation given, as port-missing.
 */
void node_judge_ctx_ports(struct node_ctx *c);

/*
 * node_klog.c: reads the kernel log, appends `event` records to records and
 * findings to c->findings. 0, or IBP_EXIT_USAGE (bad --kernel-log, said).
 */
int node_klog_run(struct node_ctx *c, json_t *records);
/* The port of c an event's device is (CA name or netdev), or NULL. */
const struct node_port *node_klog_port_of(void *c, const struct klog_event *ev);
/* --lnet-peers: `lctl ping` each NID; a failure is a finding. */
void node_lnet_peers(struct node_ctx *c);

/* node_against.c: burnin's node: schedule against the references. */
int node_against_run(const struct node_run_opts *o, struct record_writer *w,
		     json_t *findings, json_t *skipped);

#endif
