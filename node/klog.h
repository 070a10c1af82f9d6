/* SPDX-License-Identifier: MIT */
#ifndef IBPROOF_NODE_KLOG_H
#define IBPROOF_NODE_KLOG_H

/*
 * What the node's kernel log says (docs/kernel-log.md):
 *   common/kernlog.h lines -> klog_match() (the pattern table) -> events
 *   -> klog_judge() -> findings: link-flapping, hca-health,
 *   transceiver-event, storage-path-errors, hung-task
 * klog_match() and klog_judge() are pure (unit-tested on fixtures).
 */
#include <stdbool.h>

#include <jansson.h>

#include "common/kernlog.h"

enum klog_kind {
	KLOG_LINK, /* a port or its netdev went down or up */
	KLOG_HCA_HEALTH,
	KLOG_TRANSCEIVER,
	KLOG_STORAGE, /* LNet / Lustre over o2ib */
	KLOG_HUNG_TASK,
};

#define KLOG_NAME_LEN 64
#define KLOG_TEXT_LEN 512

struct klog_event {
	enum klog_kind kind;
	const char *what; /* "down", "up", "fatal", "lost", ... */
	const char *pattern; /* name of the table row */
	double time; /* UTC seconds, < 0 unknown */
	double mono; /* seconds since boot, < 0 unknown */
	char device[KLOG_NAME_LEN]; /* rxe0, ens1f0np0, 0000:c1:00.0 */
	int port; /* the RDMA device's port the line names, 0 none */
	char bdf[16]; /* the PCI device the line names, or "" */
	int module; /* cable module number, -1 none */
	char peer[KLOG_NAME_LEN]; /* LNet NID, "" none */
	char target[KLOG_NAME_LEN]; /* lustre-OST0003, "" none */
	const char *target_type; /* "OST", "MDT", "MGS" or NULL */
	char process[KLOG_NAME_LEN]; /* hung task */
	long pid, seconds;
	char detail[KLOG_NAME_LEN]; /* command, error type, rc */
	char text[KLOG_TEXT_LEN]; /* the line, escaped */
	long line;
};

/*
 * Lines of one port's flap from different sources (ib_core, the netdev,
 * bonding, the cable module) within this many seconds count once.
 */
#define KLOG_FLAP_MERGE_S 5.0

/* Matches one kernel log line against the table: 1 with *ev set, else 0. */
int klog_match(const struct kernlog_line *l, struct klog_event *ev);

const char *klog_kind_name(enum klog_kind k);

struct node_port;

/* The HCA port an event's device is (CA name or netdev), or NULL. */
typedef const struct node_port *(*klog_port_fn)(void *arg,
						const struct klog_event *ev);

struct klog_params {
	const char *host;
	double window_s; /* --window: 86400 */
	int flap_fail; /* 5 */
	double now; /* UTC seconds of the check */
	klog_port_fn port_of; /* may be NULL */
	void *port_arg;
};

/*
 * Appends the findings the events call for to findings. A link-flapping
 * window with flap_fail or more downs, or an hca-health event, within
 * window_s of now (or of unknown age) is a fail; older ones, fewer downs,
 * storage-path errors and transceiver events warn; hung tasks are info.
 * Returns the number of fail findings.
 */
int klog_judge(const struct klog_event *ev, int n, const struct klog_params *p,
	       json_t *findings);

/*
 * The `event` record of ev (docs/records.md); port: the HCA port it maps
 * to, or NULL; source: the log it came from.
 */
json_t *klog_event_record(const char *host, const struct klog_event *ev,
			  const struct node_port *port, const char *source);
/* "2026-12-03T04:16:33Z", "uptime 1234.5 s" or "time unknown". */
char *klog_time_str(const struct klog_event *ev, char buf[40]);

#endif
