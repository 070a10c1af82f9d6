// SPDX-License-Identifier: MIT
/*
 * fabric_topo.c: ibnetdiscover topology text -> fabric model (the other
 * formats of fabric_topo.h are read by fabric_topo_rows.c).
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
#include "common/log.h"
#include "common/strtab.h"
#include "fabric/fabric_spec.h"
#include "fabric/fabric_topo_priv.h"
#include "fabric/fabric_util.h"

struct topo_link {
	struct fabric_port *port;
	char *remote_id;
	int remote_port, line;
};

struct topo_ctx {
	struct lines in; /* path, line number, err */
	bool strict; /* a link to an undefined node is an error */
	struct fabric *f;
	struct fabric_node *cur;
	uint64_t next_guid;
	struct strtab ids; /* node id -> node idx + 1 */
	struct topo_link *links;
	size_t nlinks, cap;
	uint16_t devid; /* devid= of the node block being read */
};

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

/* "switchguid=0x2c90000000100(2c90000000100)": the GUID, then optionally
 * the same digits in parentheses, then nothing. */
static int parse_guid_line(struct topo_ctx *c, const char *line)
{
	const char *v = strchr(line, '=') + 1, *close;
	size_t n = strcspn(v, "( \t");
	uint64_t paren;

	if (topo_guid(v, n, &c->next_guid) || !c->next_guid)
		goto bad;
	v += n;
	if (*v == '(') {
		close = strchr(v, ')');
		if (!close || topo_guid(v + 1, (size_t)(close - v - 1), &paren))
			goto bad;
		v = close + 1;
	}
	v += strspn(v, " \t");
	if (!*v)
		return 0;
bad:
	c->next_guid = 0;
	return lines_error(
		&c->in, "expected a GUID of at most 16 hex digits after '='");
}

/* "Switch  36 ": the port count right after the keyword, 1-254 (255 is
 * reserved), followed by a blank. -1 when there is none. */
static long node_port_count(const char *line, size_t keylen)
{
	const char *s = line + keylen;
	char *end;
	long v;

	if (!isspace((unsigned char)*s))
		return -1;
	s += strspn(s, " \t");
	if (!isdigit((unsigned char)*s))
		return -1;
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || v < 1 || v > 254 ||
	    (*end && !isspace((unsigned char)*end)))
		return -1;
	return v;
}

/* The node GUID in an id "S-0002c90000000100", or 0. */
static uint64_t id_guid(const char *id)
{
	uint64_t guid = 0;

	if (strlen(id) > 2 && id[1] == '-' &&
	    topo_guid(id + 2, strlen(id + 2), &guid))
		guid = 0;
	return guid;
}

static int parse_node(struct topo_ctx *c, const char *line,
		      enum fabric_node_type type, const char *key)
{
	char id[128], desc[128] = "";
	const char *rest, *hash, *lid;
	uint64_t guid = c->next_guid;
	long nports = node_port_count(line, strlen(key));
	long prev;

	if (nports < 0)
		return lines_error(&c->in,
				   "expected a port count 1-254 after \"%s\"",
				   key);
	rest = quoted(line, id, sizeof(id));
	if (!rest)
		return lines_error(&c->in,
				   "expected Switch|Ca|Rt N \"id\" # \"desc\"");
	hash = strchr(rest, '#');
	if (hash)
		quoted(hash, desc, sizeof(desc));
	if (!guid)
		guid = id_guid(id);
	if (!guid)
		return lines_error(&c->in, "no GUID for node \"%s\"", id);
	c->next_guid = 0;
	c->cur = fabric_add_node(c->f, guid, type, desc, (int)nports);
	if (c->cur)
		c->cur->device_id = c->devid;
	c->devid = 0;
	if (!c->cur)
		return errno == ENOMEM ? -ENOMEM
		       : errno == EEXIST
			       ? lines_error(&c->in, "node GUID repeated")
			       : lines_error(&c->in, "node not added: %s",
					     strerror(errno));
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

/* "[1](2c90000002001)": the port GUID after the port number (0 when the
 * line has none), or -EINVAL when it is not 64 bits of hex. */
static int port_guid(const char *line, uint64_t *guid)
{
	const char *close = strchr(line, ']'), *end;

	*guid = 0;
	if (!close || close[1] != '(')
		return 0;
	end = strchr(close + 2, ')');
	if (!end)
		return -EINVAL;
	return topo_guid(close + 2, (size_t)(end - close - 2), guid);
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
	if (port_guid(line, &p->guid))
		return lines_error(&c->in,
				   "expected a port GUID of at most 16 hex "
				   "digits in \"[N](GUID)\"");
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
		return parse_node(c, line, FABRIC_NODE_SWITCH, "Switch");
	if (!strncmp(line, "Ca", 2))
		return parse_node(c, line, FABRIC_NODE_CA, "Ca");
	if (!strncmp(line, "Rt", 2))
		return parse_node(c, line, FABRIC_NODE_ROUTER, "Rt");
	if (*line == '[') {
		if (!c->cur)
			return lines_error(&c->in, "port line before any node");
		return parse_port_line(c, line);
	}
	if (!strncmp(line, "devid=", 6)) {
		c->devid = (uint16_t)strtoul(line + 6, NULL, 16);
		return 0;
	}
	if (strchr(line, '=')) /* vendid=, sysimgguid= */
		return 0;
	return lines_error(&c->in, "expected a node, port or key=value line");
}

/* A node only named by links to it ("S-guid"[port]): kept with the type
 * and GUID its id gives (else a made-up one) and as many ports as the
 * links to it need. */
static int add_undefined(struct topo_ctx *c, const struct topo_link *l)
{
	enum fabric_node_type type = l->remote_id[0] == 'S' ? FABRIC_NODE_SWITCH
				     : l->remote_id[0] == 'H' ? FABRIC_NODE_CA
				     : l->remote_id[0] == 'R'
					     ? FABRIC_NODE_ROUTER
					     : FABRIC_NODE_UNKNOWN;
	uint64_t guid = id_guid(l->remote_id);
	struct fabric_node *n;
	int nports = 0, rc;
	char what[160];
	size_t i;
	long prev;

	snprintf(what, sizeof(what), "\"%s\"", l->remote_id);
	if ((rc = topo_unknown_node(&c->in, c->strict, what)))
		return rc;
	for (i = 0; i < c->nlinks; i++)
		if (!strcmp(c->links[i].remote_id, l->remote_id) &&
		    c->links[i].remote_port > nports)
			nports = c->links[i].remote_port;
	if (!guid || fabric_find_guid(c->f, guid))
		guid = TOPO_GUID_MADE_UP + ++c->next_guid;
	n = fabric_add_node(c->f, guid, type, "", nports);
	if (!n)
		return -ENOMEM;
	n->guid_unknown = true;
	prev = strtab_put(&c->ids, l->remote_id, n->idx + 1);
	return prev < 0 ? (int)prev : 0;
}

static int resolve_links(struct topo_ctx *c)
{
	struct topo_link *l;
	struct fabric_port *r;
	long *idx;
	size_t i;
	int rc;

	c->next_guid = 0; /* counts made-up GUIDs from here */
	for (i = 0; i < c->nlinks; i++) {
		l = &c->links[i];
		c->in.line = l->line;
		idx = strtab_get(&c->ids, l->remote_id);
		if (!idx && l->remote_port > 0) {
			if ((rc = add_undefined(c, l)))
				return rc;
			idx = strtab_get(&c->ids, l->remote_id);
		}
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
		if (r->node->guid_unknown) { /* only this line tells */
			r->valid = true;
			r->state = l->port->state;
			r->phys_state = l->port->phys_state;
			r->width = l->port->width;
			r->speed = l->port->speed;
			r->width_enabled = l->port->width_enabled;
			r->speed_enabled = l->port->speed_enabled;
		}
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
	if (!rc && !c->f->nnodes) { /* an empty file is no fabric */
		if (!c->in.line)
			c->in.line = 1;
		rc = lines_error(&c->in, "no node in the topology (expected "
					 "Switch, Ca or Rt lines)");
	}
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

/* Reads c->in in the format of text (NULL: read the file first). */
static int topo_dispatch(struct topo_ctx *c, const char *text,
			 struct fabric **out)
{
	enum fabric_topo_format fmt = fabric_topo_format(text);

	log_info("%s: %s format", c->in.path, fabric_topo_format_name(fmt));
	if (fmt == FABRIC_TOPO_NONE || fmt == FABRIC_TOPO_IBNETDISCOVER)
		return topo_read(c, out);
	return topo_rows_read(&c->in, fmt, c->strict, out);
}

int fabric_topo_parse_opts(const char *path, const char *text, bool strict,
			   struct fabric **out, char *err, size_t errlen)
{
	struct topo_ctx c = { .strict = strict };

	lines_open_text(&c.in, path, text, err, errlen);
	return topo_dispatch(&c, text, out);
}

int fabric_topo_load_opts(const char *path, bool strict, struct fabric **out,
			  char *err, size_t errlen)
{
	char *text;
	int rc = fabric_read_text(path, &text, err, errlen);

	if (rc)
		return rc;
	rc = fabric_topo_parse_opts(path, text, strict, out, err, errlen);
	free(text);
	return rc;
}

int fabric_topo_parse(const char *path, const char *text, struct fabric **out,
		      char *err, size_t errlen)
{
	return fabric_topo_parse_opts(path, text, false, out, err, errlen);
}

int fabric_topo_load(const char *path, struct fabric **out, char *err,
		     size_t errlen)
{
	return fabric_topo_load_opts(path, false, out, err, errlen);
}
