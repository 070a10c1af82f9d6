// SPDX-License-Identifier: MIT
/*
 * Error counters of every port (sysfs counters/ and hw_counters/, read by
 * rdma/port_sysfs.c) before and after the traffic node makes: any error
 * counter that went up fails the port.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rdma/port_sysfs.h"
#include "common/ibport.h"
#include "common/record.h"
#include "node/node.h"

#define NODE_COUNTERS_MAX 128

struct node_port_counters {
	char names[NODE_COUNTERS_MAX][DPATH_COUNTER_NAME_MAX];
	uint64_t values[NODE_COUNTERS_MAX];
	int n;
	bool read;
};

struct node_counters {
	int n;
	struct node_port_counters port[];
};

bool node_counter_is_error(const char *name)
{
	size_t len;

	if (!strncmp(name, "hw_", 3))
		name += 3;
	if (ib_counter_is_error(name)) /* the PMA error counters */
		return true;
	/*
	 * rxe's completer_retry_err counts retransmits after an ACK timeout:
	 * a loaded host (Soft-RoCE under TCG) makes them without any loss, so
	 * it is no error here; retry_exceeded_err and rcvd_seq_err (a gap in
	 * what arrived) are.
	 */
	if (!strcmp(name, "completer_retry_err"))
		return false;
	len = strlen(name);
	return len > 4 && !strcmp(name + len - 4, "_err");
}

struct node_counters *node_counters_take(const char *root,
					 const struct node_port *ports, int n)
{
	struct node_counters *c =
		calloc(1, sizeof(*c) + (size_t)n * sizeof(c->port[0]));

	if (!c)
		return NULL;
	c->n = n;
	for (int i = 0; i < n; i++) {
		struct node_port_counters *pc = &c->port[i];

		pc->read = dpath_port_sysfs_counters(
				   root, ports[i].ca, ports[i].port, pc->names,
				   pc->values, NODE_COUNTERS_MAX, &pc->n) == 0;
	}
	return c;
}

void node_counters_free(struct node_counters *c)
{
	free(c);
}

/* Error counters of one port that went up: name -> increase; NULL if none. */
static json_t *increases(const struct node_port_counters *b,
			 const struct node_port_counters *a)
{
	uint64_t delta[NODE_COUNTERS_MAX];
	json_t *up = NULL;

	dpath_counters_delta(b->names, b->values, b->n, a->names, a->values,
			     a->n, delta);
	for (int k = 0; k < a->n; k++) {
		if (!delta[k] || !node_counter_is_error(a->names[k]))
			continue;
		if (!up)
			up = json_object();
		json_object_set_new(up, a->names[k],
				    json_integer((json_int_t)delta[k]));
	}
	return up;
}

static json_t *counter_finding(const char *host, const struct node_port *p,
			       json_t *up, const char *during)
{
	char s[96], list[256] = "";
	const char *name;
	size_t off = 0;
	json_t *v;

	json_object_foreach(up, name, v) if (off < sizeof(list)) off +=
		(size_t)snprintf(list + off, sizeof(list) - off, "%s%s +%lld",
				 off ? ", " : "", name,
				 (long long)json_integer_value(v));
	snprintf(s, sizeof(s), "%s port %d error counters up", p->ca, p->port);
	return record_finding("fail", "counter-errors", node_port_ref(host, p),
			      json_pack("{s:s, s:o, s:s}", "short", s,
					"increase", up, "during", during),
			      "reseat",
			      "%s during %s: %s; reseat or replace "
			      "the cable",
			      s, during, list);
}

int node_counters_judge(const char *host, const struct node_port *ports, int n,
			const struct node_counters *before,
			const struct node_counters *after, const char *during,
			json_t *findings)
{
	int added = 0;

	for (int i = 0; i < n && i < before->n && i < after->n; i++) {
		json_t *up;

		if (!before->port[i].read || !after->port[i].read)
			continue;
		up = increases(&before->port[i], &after->port[i]);
		if (!up)
			continue;
		json_array_append_new(
			findings, counter_finding(host, &ports[i], up, during));
		added++;
	}
	return added;
}

json_t *node_counters_records(const char *host, const struct node_port *ports,
			      int n, const struct node_counters *c)
{
	json_t *all = json_array();

	for (int i = 0; i < n && i < c->n; i++) {
		const struct node_port_counters *pc = &c->port[i];
		json_t *rec, *obj;

		if (!pc->read)
			continue;
		rec = record_new("counters");
		obj = json_object();
		for (int k = 0; k < pc->n; k++)
			json_object_set_new(
				obj, pc->names[k],
				json_integer((json_int_t)pc->values[k]));
		json_object_set_new(rec, "subject",
				    node_port_ref(host, &ports[i]));
		json_object_set_new(rec, "counters", obj);
		json_object_set_new(rec, "tool", json_string("node"));
		json_array_append_new(all, rec);
	}
	return all;
}
