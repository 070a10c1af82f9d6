// SPDX-License-Identifier: MIT
/*
 * `ibproof node`: the kernel log (common/kernlog.h) through the pattern
 * table (klog_match.c) into events and findings (klog_judge.c), and
 * --lnet-peers through `lctl ping` (probe_run: no shell, a timeout).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/cli.h"
#include "common/kernlog.h"
#include "common/log.h"
#include "common/record.h"
#include "node/klog.h"
#include "node/node.h"
#include "node/node_run.h"
#include "node/probe.h"

#define NODE_KLOG_MAX_EVENTS 100000
#define NODE_KLOG_MAX_RECORDS 2000
#define NODE_KLOG_MAX_LINES 2000000L
#define NODE_LCTL_TIMEOUT_S 10.0

struct klog_collect {
	struct klog_event *ev;
	int n, cap;
	long dropped;
};

static int take(void *arg, const struct kernlog_line *l)
{
	struct klog_collect *k = arg;
	struct klog_event ev;

	if (!klog_match(l, &ev))
		return 0;
	if (k->n == k->cap) {
		int cap = k->cap ? k->cap * 2 : 64;
		struct klog_event *g;

		if (cap > NODE_KLOG_MAX_EVENTS) {
			k->dropped++;
			return 0;
		}
		g = realloc(k->ev, (size_t)cap * sizeof(*g));
		if (!g)
			return -ENOMEM;
		k->ev = g;
		k->cap = cap;
	}
	k->ev[k->n++] = ev;
	return 0;
}

/*
 * An event's device is a CA name (rxe0, mlx5_0; with the port when the
 * line names one: ib_core's "Port: 2") or a port's netdev.
 */
const struct node_port *node_klog_port_of(void *arg,
					  const struct klog_event *ev)
{
	const struct node_ctx *c = arg;

	for (int i = 0; i < c->n; i++)
		if ((!strcmp(c->ports[i].ca, ev->device) &&
		     (!ev->port || ev->port == c->ports[i].port)) ||
		    (c->ports[i].netdev[0] &&
		     !strcmp(c->ports[i].netdev, ev->device)))
			return &c->ports[i];
	return NULL;
}

/*
 * The lines about any netdev (addrconf's carrier on, a bonding slave's
 * link) are ours only for a netdev of one of the node's HCA ports.
 */
static bool relevant(const struct node_ctx *c, const struct klog_event *ev)
{
	return (strcmp(ev->pattern, "addrconf-ready") &&
		strcmp(ev->pattern, "bond-slave-link")) ||
	       node_klog_port_of((void *)c, ev);
}

static const char *log_path(const struct node_ctx *c)
{
	if (c->o->kernel_log)
		return c->o->kernel_log;
	return strcmp(c->o->sysfs_root, "/sys") ? NULL : "/dev/kmsg";
}

static void emit_events(const struct node_ctx *c, struct klog_collect *k,
			const char *path, json_t *records)
{
	int written = 0;

	for (int i = 0; i < k->n; i++) {
		if (!relevant(c, &k->ev[i]))
			continue;
		if (written++ == NODE_KLOG_MAX_RECORDS) {
			json_array_append_new(
				c->notes,
				json_sprintf("kernel log: %d events, the "
					     "first %d written as records",
					     k->n, NODE_KLOG_MAX_RECORDS));
			break;
		}
		json_array_append_new(
			records,
			klog_event_record(
				c->o->host, &k->ev[i],
				node_klog_port_of((void *)c, &k->ev[i]), path));
	}
}

static void judge(const struct node_ctx *c, struct klog_collect *k)
{
	struct klog_params p = {
		.host = c->o->host,
		.window_s = c->o->window_h * 3600,
		.flap_fail = 5,
		.now = (double)time(NULL),
		.port_of = node_klog_port_of,
		.port_arg = (void *)c,
	};
	int n = 0;

	for (int i = 0; i < k->n; i++) /* drop what is not ours */
		if (relevant(c, &k->ev[i]))
			k->ev[n++] = k->ev[i];
	k->n = n;
	klog_judge(k->ev, k->n, &p, c->findings);
}

int node_klog_run(struct node_ctx *c, json_t *records)
{
	struct kernlog_opts o = {
		.timeout_s = c->o->timeout_s > 0 ? c->o->timeout_s : 10,
		.max_lines = NODE_KLOG_MAX_LINES,
		.boot_time = c->o->boot_time,
	};
	struct klog_collect k = { 0 };
	struct kernlog_result res;
	const char *path = log_path(c);
	char err[512];
	int ret;

	if (!path) {
		json_array_append_new(
			c->notes,
			json_string("kernel log: not read for a captured tree "
				    "(give --kernel-log FILE)"));
		return 0;
	}
	ret = kernlog_read(path, &o, take, &k, &res, err, sizeof(err));
	if (ret == -EINVAL && c->o->kernel_log) {
		fprintf(stderr, "ibproof node: --kernel-log %s\n", err);
		free(k.ev);
		return IBP_EXIT_USAGE;
	}
	if (ret && ret != -ETIMEDOUT) {
		json_array_append_new(
			c->skipped,
			json_sprintf("kernel log: %s%s", err,
				     ret == -EPERM || ret == -EACCES
					     ? "; run as root or set "
					       "kernel.dmesg_restrict=0"
					     : ""));
		if (c->o->kernel_log)
			c->no_test = true;
		free(k.ev);
		return 0;
	}
	if (ret == -ETIMEDOUT)
		json_array_append_new(c->skipped,
				      json_sprintf("kernel log: %s", err));
	log_info("kernel log %s: %ld lines (%s), %d events", path, res.lines,
		 kernlog_format_name(res.format), k.n);
	emit_events(c, &k, path, records);
	judge(c, &k);
	free(k.ev);
	return 0;
}

/* ---- --lnet-peers ---- */

static void lnet_ping(struct node_ctx *c, const char *nid)
{
	char *argv[] = { "lctl", "ping", (char *)nid, NULL };
	struct probe_result res;
	char out[256];
	int ret = probe_run(argv,
			    c->o->timeout_s > 0 ? c->o->timeout_s
						: NODE_LCTL_TIMEOUT_S,
			    &res);

	if (ret || res.exit_status == 127) {
		json_array_append_new(
			c->skipped,
			json_sprintf("--lnet-peers: lctl could not run (%s): "
				     "is Lustre installed?",
				     ret ? strerror(-ret) : "not found"));
		return;
	}
	if (!res.timed_out && res.exit_status == 0) {
		json_array_append_new(
			c->notes, json_sprintf("lctl ping %s: answered", nid));
		return;
	}
	kernlog_escape(res.output, out, sizeof(out));
	json_array_append_new(
		c->findings,
		record_finding(
			"warn", "storage-path-errors",
			json_pack("{s:s, s:s}", "host", c->o->host, "peer",
				  nid),
			json_pack("{s:s, s:i, s:b, s:s}", "probe", "lctl ping",
				  "exit_status", res.exit_status, "timed_out",
				  res.timed_out != 0, "output", out),
			"none",
			"%s storage peer %s: `lctl ping` %s: the LNet path "
			"to it does not answer (this node, the fabric or the "
			"server)",
			c->o->host, nid,
			res.timed_out ? "timed out" : "failed"));
}

void node_lnet_peers(struct node_ctx *c)
{
	char *list, *save = NULL;

	if (!c->o->lnet_peers)
		return;
	list = strdup(c->o->lnet_peers);
	if (!list)
		return;
	for (char *nid = strtok_r(list, ",", &save); nid;
	     nid = strtok_r(NULL, ",", &save))
		if (nid[0])
			lnet_ping(c, nid);
	free(list);
}
