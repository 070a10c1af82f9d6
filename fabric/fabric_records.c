// SPDX-License-Identifier: MIT
/*
 * fabric_records.c: the model and the forwarding tables back from the
 * records of `ibproof fabric routes --records`. Read in two passes over
 * memory: the records first (a node's port count is known only once all
 * its links and its table are read), then the model. Every record read
 * is dropped as soon as its fields are copied out: nothing here points
 * into jansson's memory (D11).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "common/array.h"
#include "common/hashmap.h"
#include "common/ibport.h"
#include "common/ibrate.h"
#include "common/record.h"
#include "fabric/fabric_records.h"

struct rec_end {
	uint64_t guid, port_guid;
	int port, type, lid;
	char name[64 * 4 + 1];
};

struct rec_link {
	struct rec_end e[2];
	uint8_t width, speed, state, phys;
	unsigned long line;
};

struct rec_lft {
	uint64_t guid;
	uint16_t top;
	uint8_t *ports;
	struct fabric_ar ar;
	unsigned long line;
};

/* What the model needs to know of a node before it is made. */
struct rec_node {
	uint64_t guid;
	int type, nports;
	const struct rec_end *first;
};

struct rec_ctx {
	const char *path;
	char *err;
	size_t errlen;
	unsigned long line;
	struct rec_link *links;
	size_t nlinks, links_cap;
	struct rec_lft *lfts;
	size_t nlfts, lfts_cap;
	struct rec_node *nodes;
	size_t nnodes, nodes_cap;
	struct hashmap node_idx; /* guid -> index in nodes */
};

static int bad(struct rec_ctx *c, unsigned long line, const char *what)
{
	snprintf(c->err, c->errlen, "%s:%lu: %s", c->path, line, what);
	return -EINVAL;
}

static const char *str_of(const json_t *o, const char *key)
{
	return json_string_value(json_object_get(o, key));
}

/* The string at key, "" when there is none. */
static const char *str_or_empty(const json_t *o, const char *key)
{
	const char *s = str_of(o, key);

	return s ? s : "";
}

static int int_of(const json_t *o, const char *key, long lo, long hi, int *out)
{
	const json_t *v = json_object_get(o, key);
	json_int_t x;

	if (!json_is_integer(v))
		return -EINVAL;
	x = json_integer_value(v);
	if (x < lo || x > hi)
		return -EINVAL;
	*out = (int)x;
	return 0;
}

static int node_type_of(const char *s)
{
	if (!s)
		return -1;
	if (!strcmp(s, "ca"))
		return FABRIC_NODE_CA;
	if (!strcmp(s, "switch"))
		return FABRIC_NODE_SWITCH;
	if (!strcmp(s, "router"))
		return FABRIC_NODE_ROUTER;
	return -1;
}

static int parse_end(struct rec_ctx *c, const json_t *o, struct rec_end *e)
{
	const char *name = str_of(o, "name");
	const char *pg = str_of(o, "port_guid");

	if (!name)
		name = str_of(o, "node");
	if (!json_is_object(o) || !name ||
	    record_guid_parse(str_of(o, "guid"), &e->guid) || !e->guid ||
	    int_of(o, "port", 1, 254, &e->port) ||
	    (e->type = node_type_of(str_of(o, "type"))) < 0)
		return bad(c, c->line,
			   "expected a link end {node, guid, port 1..254, "
			   "type ca|switch|router}");
	if (int_of(o, "lid", 0, FABRIC_LFT_MAX_LID, &e->lid))
		e->lid = 0;
	e->port_guid = 0;
	if (pg && record_guid_parse(pg, &e->port_guid))
		return bad(c, c->line, "expected a port_guid 0x...");
	snprintf(e->name, sizeof(e->name), "%s", name);
	return 0;
}

static int parse_link(struct rec_ctx *c, const json_t *rec)
{
	struct rec_link *l;
	const char *state = str_of(rec, "state");
	const char *phys = str_of(rec, "phys_state");
	int rc;

	if (array_reserve(&c->links, &c->links_cap, c->nlinks,
			  sizeof(*c->links)))
		return -ENOMEM;
	l = &c->links[c->nlinks];
	memset(l, 0, sizeof(*l));
	l->line = c->line;
	if ((rc = parse_end(c, json_object_get(rec, "a"), &l->e[0])) ||
	    (rc = parse_end(c, json_object_get(rec, "b"), &l->e[1])))
		return rc;
	if (!state || !phys)
		return bad(c, c->line,
			   "expected a link's state and phys_state");
	l->width = (uint8_t)ib_width_from_name(str_or_empty(rec, "width"));
	l->speed = (uint8_t)ib_speed_from_name(str_or_empty(rec, "speed"));
	l->state = (uint8_t)ib_port_state_from_name(state);
	l->phys = (uint8_t)ib_phys_state_from_name(phys);
	c->nlinks++;
	return 0;
}

static int parse_lft_ports(struct rec_ctx *c, const json_t *ports,
			   struct rec_lft *t)
{
	size_t i, n = json_array_size(ports);
	const json_t *v;

	if (!json_is_array(ports) || n != (size_t)t->top + 1)
		return bad(c, c->line,
			   "expected ports: linear_fdb_top + 1 port numbers");
	t->ports = malloc(n);
	if (!t->ports)
		return -ENOMEM;
	json_array_foreach(ports, i, v)
	{
		if (!json_is_integer(v) || json_integer_value(v) < 0 ||
		    json_integer_value(v) > FABRIC_LFT_NONE)
			return bad(c, c->line,
				   "expected a port number 0..255 in ports");
		t->ports[i] = (uint8_t)json_integer_value(v);
	}
	return 0;
}

static int parse_lft(struct rec_ctx *c, const json_t *rec)
{
	struct rec_lft *t;
	int top;

	if (array_reserve(&c->lfts, &c->lfts_cap, c->nlfts, sizeof(*c->lfts)))
		return -ENOMEM;
	t = &c->lfts[c->nlfts];
	memset(t, 0, sizeof(*t));
	t->line = c->line;
	if (record_guid_parse(str_of(rec, "guid"), &t->guid) ||
	    int_of(rec, "linear_fdb_top", 0, FABRIC_LFT_MAX_LID, &top))
		return bad(c, c->line,
			   "expected an lft record's guid and linear_fdb_top "
			   "0..0xbfff");
	t->top = (uint16_t)top;
	if (fabric_ar_from_json(rec, &t->ar))
		return bad(c, c->line,
			   "expected adaptive_routing unknown|on|off and an ar "
			   "object with sls 0..15 and transports_excluded "
			   "UD|RC|UC|DCT");
	c->nlfts++; /* owned from here: freed with the rest */
	return parse_lft_ports(c, json_object_get(rec, "ports"), t);
}

static int read_all(struct rec_ctx *c)
{
	struct record_reader *rd = record_reader_open(c->path);
	const char *kind;
	json_t *rec;
	int rc;

	if (!rd) {
		rc = -errno;
		snprintf(c->err, c->errlen, "%s: %s", c->path, strerror(-rc));
		return rc;
	}
	while ((rc = record_reader_next(rd, &rec)) == 1) {
		c->line = record_reader_line(rd);
		kind = str_of(rec, "kind");
		rc = !kind		     ? 0
		     : !strcmp(kind, "link") ? parse_link(c, rec)
		     : !strcmp(kind, "lft")  ? parse_lft(c, rec)
					     : 0;
		json_decref(rec);
		if (rc)
			break;
	}
	if (rc < 0 && !c->err[0])
		snprintf(c->err, c->errlen, "%s", record_reader_error(rd));
	record_reader_close(rd);
	return rc < 0 ? rc : 0;
}

/* Notes node (guid, type) with a port up to nports; 0 or -errno. */
static int note_node(struct rec_ctx *c, unsigned long line, uint64_t guid,
		     int type, int nports, const struct rec_end *e)
{
	struct rec_node *n;
	uint64_t idx;

	if (hashmap_get(&c->node_idx, guid, &idx)) {
		n = &c->nodes[idx];
		if (type && n->type != type)
			return bad(c, line,
				   "expected one type per node guid (a ca "
				   "and a switch share it)");
		if (nports > n->nports)
			n->nports = nports;
		return 0;
	}
	if (!type)
		return bad(c, line,
			   "expected an lft record of a switch named by the "
			   "link records");
	if (array_reserve(&c->nodes, &c->nodes_cap, c->nnodes,
			  sizeof(*c->nodes)) ||
	    hashmap_put(&c->node_idx, guid, c->nnodes))
		return -ENOMEM;
	c->nodes[c->nnodes++] = (struct rec_node){ guid, type, nports, e };
	return 0;
}

static int table_max_port(const struct rec_lft *t)
{
	int max = 0;
	size_t i;

	for (i = 0; i <= t->top; i++)
		if (t->ports[i] != FABRIC_LFT_NONE && t->ports[i] > max)
			max = t->ports[i];
	return max;
}

static int note_nodes(struct rec_ctx *c)
{
	const struct rec_end *e;
	size_t i;
	int k, rc;

	for (i = 0; i < c->nlinks; i++)
		for (k = 0; k < 2; k++) {
			e = &c->links[i].e[k];
			rc = note_node(c, c->links[i].line, e->guid, e->type,
				       e->port, e);
			if (rc)
				return rc;
		}
	for (i = 0; i < c->nlfts; i++) {
		rc = note_node(c, c->lfts[i].line, c->lfts[i].guid, 0,
			       table_max_port(&c->lfts[i]), NULL);
		if (rc)
			return rc;
	}
	return 0;
}

static int make_nodes(struct rec_ctx *c, struct fabric *m)
{
	const struct rec_node *rn;
	struct fabric_node *n;
	size_t i;

	for (i = 0; i < c->nnodes; i++) {
		rn = &c->nodes[i];
		n = fabric_add_node(m, rn->guid, rn->type, rn->first->name,
				    rn->nports);
		if (!n)
			return -errno;
		if (rn->type == FABRIC_NODE_SWITCH)
			n->lid = (uint16_t)rn->first->lid;
	}
	return 0;
}

static struct fabric_port *set_end(struct fabric *m, const struct rec_link *l,
				   int k)
{
	const struct rec_end *e = &l->e[k];
	struct fabric_node *n = fabric_find_guid(m, e->guid);
	struct fabric_port *p = fabric_port(n, e->port);

	p->guid = e->port_guid ? e->port_guid : e->guid;
	p->valid = true;
	p->width = l->width;
	p->speed = l->speed;
	p->state = l->state;
	p->phys_state = l->phys;
	if (n->type == FABRIC_NODE_SWITCH)
		return p;
	p->lid = (uint16_t)e->lid;
	if (!n->lid || p->num == 1)
		n->lid = p->lid;
	return p;
}

static int make_links(struct rec_ctx *c, struct fabric *m)
{
	struct fabric_port *a, *b;
	size_t i;

	for (i = 0; i < c->nlinks; i++) {
		a = set_end(m, &c->links[i], 0);
		b = set_end(m, &c->links[i], 1);
		if (fabric_connect(a, b))
			return bad(c, c->links[i].line,
				   "expected each port in one link record");
	}
	return 0;
}

static int make_tables(struct rec_ctx *c, struct fabric *m,
		       struct fabric_routes *r)
{
	const struct fabric_node *n;
	size_t i;
	int rc;

	for (i = 0; i < c->nlfts; i++) {
		n = fabric_find_guid(m, c->lfts[i].guid);
		if (n->type != FABRIC_NODE_SWITCH)
			return bad(c, c->lfts[i].line,
				   "expected an lft record of a switch");
		rc = fabric_routes_set(r, n, c->lfts[i].top, c->lfts[i].ports);
		if (rc)
			return rc;
		r->lft[n->idx].ar = c->lfts[i].ar;
	}
	return 0;
}

static void ctx_free(struct rec_ctx *c)
{
	size_t i;

	for (i = 0; i < c->nlfts; i++)
		free(c->lfts[i].ports);
	free(c->lfts);
	free(c->links);
	free(c->nodes);
	hashmap_free(&c->node_idx);
}

static int build(struct rec_ctx *c, struct fabric *m, struct fabric_routes *r)
{
	int rc;

	if ((rc = read_all(c)) || (rc = note_nodes(c)) ||
	    (rc = make_nodes(c, m)) || (rc = make_links(c, m)))
		return rc;
	if (!c->nlinks) {
		snprintf(c->err, c->errlen,
			 "%s: expected link records (of `ibproof fabric routes "
			 "--records`)",
			 c->path);
		return -EINVAL;
	}
	snprintf(m->source, sizeof(m->source), "records");
	if ((rc = fabric_routes_init(r, m)))
		return rc;
	return make_tables(c, m, r);
}

int fabric_records_load(const char *path, struct fabric **m,
			struct fabric_routes *r, char *err, size_t errlen)
{
	struct rec_ctx c = { .path = path, .err = err, .errlen = errlen };
	int rc;

	memset(r, 0, sizeof(*r));
	err[0] = '\0';
	*m = fabric_new();
	if (!*m)
		return -ENOMEM;
	rc = build(&c, *m, r);
	if (rc == -ENOMEM && !err[0])
		snprintf(err, errlen, "%s: out of memory", path);
	ctx_free(&c);
	return rc;
}
