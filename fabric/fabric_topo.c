// SPDX-License-Identifier: MIT
/*
 * fabric_topo.c: ibnetdiscover topology text -> fabric model.
 *
 *   switchguid=0x2c90000000100(2c90000000100)
 *   Switch  36 "S-0002c90000000100"  # "leaf1" base port 0 lid 2 lmc 0
 *   [3]  "S-0002c90000000101"[3]     # "leaf2" lid 3 4xEDR
 *   caguid=0x2c90000002000
 *   Ca  1 "H-0002c90000002000"       # "host2 mlx5_0"
 *   [1](2c90000002001)  "S-0002c90000000100"[2]  # lid 4 lmc 0 "leaf1" ...
 *
 * A CA or router port line carries the port GUID in parentheses. Only
 * connected ports are listed, so ports of the model are valid (LinkUp,
 * Active) exactly where a link was printed; width and speed come from the
 * trailing "4xEDR".
 */
#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/array.h"
#include "common/lines.h"
#include "common/strtab.h"
#include "fabric_spec.h"
#include "fabric_topo.h"
#include "fabric_util.h"

struct topo_link {
	struct fabric_port *port;
	char *remote_id;
	int remote_port, line;
};

struct topo_ctx {
	struct lines in; /* path, line number, err */
	struct fabric *f;
	struct fabric_node *cur;
	uint64_t next_guid;
	struct strtab ids; /* node id -> node idx + 1 */
	struct topo_link *links;
	size_t nlinks, cap;
};

static const char *const topo_keys[] = {
	"vendid=", "devid=", "sysimgguid=", "switchguid=", "caguid=", "rtguid=",
	"Switch",  "Ca\t",   "Ca ",	    "Rt\t",	   "Rt "
};

bool fabric_topo_detect(const char *text)
{
	const char *p = text;
	size_t i;

	for (;;) {
		while (isspace((unsigned char)*p))
			p++;
		if (*p != '#')
			break;
		p += strcspn(p, "\n");
	}
	for (i = 0; i < sizeof(topo_keys) / sizeof(topo_keys[0]); i++)
		if (!strncmp(p, topo_keys[i], strlen(topo_keys[i])))
			return true;
	return false;
}

/* Copy the text between the first quote after s and the next quote. */
static const char *quoted(const char *s, char *buf, size_t len)
{
	const char *b = strchr(s, '"'), *e;

	if (!b || !(e = strchr(b + 1, '"')))
		return NULL;
	snprintf(buf, len, "%.*s", (int)(e - b - 1), b + 1);
	return e + 1;
}

/* The decimal number at s, or -1 when there is none or it is past max. */
static long topo_number(const char *s, long max)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (end == s || errno || v < 0 || v > max)
		return -1;
	return v;
}

static int parse_guid_line(struct topo_ctx *c, const char *line)
{
	const char *eq = strchr(line, '=');

	c->next_guid = strtoull(eq + 1, NULL, 16);
	if (!c->next_guid)
		return lines_error(&c->in, "expected a GUID after '='");
	return 0;
}

static int parse_node(struct topo_ctx *c, const char *line,
		      enum fabric_node_type type)
{
	char id[128], desc[128] = "";
	const char *rest, *hash, *lid;
	uint64_t guid = c->next_guid;
	long nports = topo_number(line + strcspn(line, "0123456789"), 255);
	long prev;

	rest = quoted(line, id, sizeof(id));
	if (!rest || nports < 1)
		return lines_error(&c->in,
				   "expected Switch|Ca|Rt N \"id\" # \"desc\"");
	hash = strchr(rest, '#');
	if (hash)
		quoted(hash, desc, sizeof(desc));
	if (!guid && strlen(id) > 2 && id[1] == '-')
		guid = strtoull(id + 2, NULL, 16);
	if (!guid)
		return lines_error(&c->in, "no GUID for node \"%s\"", id);
	c->next_guid = 0;
	c->cur = fabric_add_node(c->f, guid, type, desc, (int)nports);
	if (!c->cur)
		return errno == EEXIST
			       ? lines_error(&c->in, "node GUID repeated")
			       : -errno;
	lid = hash ? strstr(hash, " lid ") : NULL;
	if (type == FABRIC_NODE_SWITCH && lid) {
		long v = topo_number(lid + 5, UINT16_MAX);

		if (v < 0)
			return lines_error(&c->in,
					   "expected a LID after \"lid\"");
		c->cur->lid = (uint16_t)v;
	}
	prev = strtab_put(&c->ids, id, c->cur->idx + 1);
	if (prev < 0)
		return (int)prev;
	if (prev)
		return lines_error(&c->in, "node id \"%s\" repeated", id);
	return 0;
}

/* The trailing "4xEDR" of a port line: active width and speed. */
static void parse_rate(struct fabric_port *p, const char *line)
{
	const char *s = line + strlen(line), *x;
	char tok[16], *sp;

	while (s > line && isspace((unsigned char)s[-1]))
		s--;
	x = s;
	while (x > line && !isspace((unsigned char)x[-1]))
		x--;
	snprintf(tok, sizeof(tok), "%.*s", (int)(s - x), x);
	sp = strchr(tok, 'x');
	if (!sp || !isdigit((unsigned char)tok[0]))
		return;
	p->speed = ib_speed_from_name(sp + 1);
	sp[1] = '\0';
	p->width = ib_width_from_name(tok);
	p->speed_enabled = 1u << p->speed;
	p->width_enabled = 1u << p->width;
}

static int add_link(struct topo_ctx *c, struct fabric_port *p, const char *id,
		    int rport)
{
	struct topo_link *l;

	if (array_reserve(&c->links, &c->cap, c->nlinks, sizeof(*l)))
		return -ENOMEM;
	l = &c->links[c->nlinks++];
	l->port = p;
	l->remote_id = strdup(id);
	l->remote_port = rport;
	l->line = c->in.line;
	return l->remote_id ? 0 : -ENOMEM;
}

/* "[1](2c90000002001)": the port GUID after the port number, or 0. */
static uint64_t port_guid(const char *line)
{
	const char *close = strchr(line, ']');

	if (!close || close[1] != '(')
		return 0;
	return strtoull(close + 2, NULL, 16);
}

static int parse_port_line(struct topo_ctx *c, const char *line)
{
	char id[128];
	const char *rest, *hash, *lid;
	struct fabric_port *p;
	long num = topo_number(line + 1, 255), rport = -1, v;

	p = num > 0 ? fabric_port(c->cur, (int)num) : NULL;
	rest = quoted(line, id, sizeof(id));
	if (rest && *rest == '[')
		rport = topo_number(rest + 1, 255);
	if (!p || !rest || rport < 0)
		return lines_error(&c->in,
				   "expected a port line like "
				   "[1] \"S-guid\"[2] (node has %d ports)",
				   c->cur ? c->cur->nports : 0);
	p->guid = port_guid(line);
	p->valid = true;
	p->state = IB_PORT_STATE_ACTIVE;
	p->phys_state = IB_PHYS_STATE_LINKUP;
	hash = strchr(rest, '#');
	lid = hash ? strstr(hash, "# lid ") : NULL;
	if (lid && c->cur->type != FABRIC_NODE_SWITCH) {
		v = topo_number(lid + 6, UINT16_MAX);
		if (v < 0)
			return lines_error(&c->in,
					   "expected a LID after \"# lid\"");
		p->lid = c->cur->lid = (uint16_t)v;
	}
	if (c->cur->type == FABRIC_NODE_SWITCH)
		p->lid = c->cur->lid;
	parse_rate(p, line);
	return add_link(c, p, id, (int)rport);
}

static int parse_topo_line(void *arg, char *line)
{
	static const char *const guid_keys[] = { "switchguid=", "caguid=",
						 "rtguid=" };
	struct topo_ctx *c = arg;
	size_t i;

	for (i = 0; i < 3; i++)
		if (!strncmp(line, guid_keys[i], strlen(guid_keys[i])))
			return parse_guid_line(c, line);
	if (!strncmp(line, "Switch", 6))
		return parse_node(c, line, FABRIC_NODE_SWITCH);
	if (!strncmp(line, "Ca", 2))
		return parse_node(c, line, FABRIC_NODE_CA);
	if (!strncmp(line, "Rt", 2))
		return parse_node(c, line, FABRIC_NODE_ROUTER);
	if (*line == '[') {
		if (!c->cur)
			return lines_error(&c->in, "port line before any node");
		return parse_port_line(c, line);
	}
	if (strchr(line, '=')) /* vendid=, devid=, sysimgguid= */
		return 0;
	return lines_error(&c->in, "expected a node, port or key=value line");
}

static int resolve_links(struct topo_ctx *c)
{
	struct topo_link *l;
	struct fabric_port *r;
	long *idx;
	size_t i;

	for (i = 0; i < c->nlinks; i++) {
		l = &c->links[i];
		c->in.line = l->line;
		idx = strtab_get(&c->ids, l->remote_id);
		r = idx ? fabric_port(c->f->nodes[*idx - 1], l->remote_port)
			: NULL;
		if (!r || !l->remote_port)
			return lines_error(&c->in,
					   "link to unknown node or "
					   "port \"%s\"[%d]",
					   l->remote_id, l->remote_port);
		if (fabric_connect(l->port, r))
			return lines_error(&c->in, "port %d linked twice",
					   l->port->num);
	}
	return 0;
}

static void topo_ctx_free(struct topo_ctx *c)
{
	size_t i;

	for (i = 0; i < c->nlinks; i++)
		free(c->links[i].remote_id);
	free(c->links);
	strtab_free(&c->ids);
}

/* Reads the topology from c->in (opened by the caller); closes it. */
static int topo_read(struct topo_ctx *c, struct fabric **out)
{
	int rc = -ENOMEM;

	c->f = fabric_new();
	if (c->f)
		rc = lines_each(&c->in, parse_topo_line, c);
	if (!rc)
		rc = resolve_links(c);
	if (!rc) {
		snprintf(c->f->source, sizeof(c->f->source), "topology");
		*out = c->f;
		c->f = NULL;
	}
	if (rc == -ENOMEM)
		snprintf(c->in.err, c->in.errlen, "%s: out of memory",
			 c->in.path);
	lines_close(&c->in);
	topo_ctx_free(c);
	fabric_free(c->f);
	return rc;
}

int fabric_topo_parse(const char *path, const char *text, struct fabric **out,
		      char *err, size_t errlen)
{
	struct topo_ctx c = { 0 };

	lines_open_text(&c.in, path, text, err, errlen);
	return topo_read(&c, out);
}

int fabric_topo_load(const char *path, struct fabric **out, char *err,
		     size_t errlen)
{
	struct topo_ctx c = { 0 };
	int rc = lines_open(&c.in, path, err, errlen);

	return rc ? rc : topo_read(&c, out);
}
