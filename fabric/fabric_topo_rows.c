// SPDX-License-Identifier: MIT
/*
 * fabric_topo_rows.c: the ecosystem's one-line-per-port topology outputs.
 *
 * ibnetdiscover -p (a CA's GUID is its port GUID):
 *   CA    18  1 0x0008f104000000b1 4x EDR - SW     5  3 0x0008f1030000000f ( 'node012 mlx5_0' - 'leaf04' )
 *   SW     5  8 0x0008f1030000000f 4x SDR                                    'leaf04'
 * iblinkinfo (default; -S GUID prints one switch):
 *   Switch: 0x0008f1030000000f leaf04:
 *              5    1[  ] ==( 4X      25.78125 Gbps Active/  LinkUp)==>      16    1[  ] "node010 mlx5_0" ( ... )
 *   CA: node012 mlx5_0:
 *         0x0008f104000000b1     18    1[  ] ==( 4X ... )==>       5    3[  ] "leaf04" ( ... )
 * iblinkinfo --line (GUID and name on each line, the peer's GUID too):
 *   0x0008f1030000000d "  leaf02"  3  4[  ] ==( 4X  14.0625 Gbps Active/  LinkUp)==>  0x0008f10300000010  6  2[  ] "spine01" ( ... )
 *
 * Each line is a port: a row. Nodes are keyed by the GUID printed (a CA's
 * port GUID: its node GUID is not in these outputs, so the node is marked
 * guid_unknown and a spec made from it names it only). The default form
 * names a peer by LID only: peers are found by LID once every row is in.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/array.h"
#include "common/strtab.h"
#include "fabric/fabric_topo_priv.h"

struct row_end {
	uint64_t guid; /* 0: not printed */
	long lid, port;
	enum fabric_node_type type;
	char name[65];
};

struct row {
	struct row_end a, z; /* z.port 0: no link */
	int width, speed, line;
};

struct rows_ctx {
	struct lines *in;
	enum fabric_topo_format fmt;
	struct row hdr; /* iblinkinfo default: the node of the lines below */
	struct row *v;
	size_t n, cap;
	uint64_t made_up;
};

static const struct {
	const char *gbps;
	enum ib_speed speed;
} lane_rates[] = {
	{ "2.5", IB_SPEED_SDR },     { "5.0", IB_SPEED_DDR },
	{ "10.0", IB_SPEED_QDR },    { "10.3125", IB_SPEED_FDR10 },
	{ "14.0625", IB_SPEED_FDR }, { "25.78125", IB_SPEED_EDR },
	{ "53.125", IB_SPEED_HDR },  { "106.25", IB_SPEED_NDR },
	{ "212.5", IB_SPEED_XDR },
};

static const char *skip_blank(const char *s)
{
	return s + strspn(s, " \t");
}

/* A decimal number 0..max at *s, advancing *s; -1 if none. */
static long row_number(const char **s, long max)
{
	char *end;
	long v;

	*s = skip_blank(*s);
	if (!isdigit((unsigned char)**s))
		return -1;
	errno = 0;
	v = strtol(*s, &end, 10);
	if (errno || v > max)
		return -1;
	*s = end;
	return v;
}

/* A "0x..." GUID token at *s, advancing *s. */
static int row_guid(const char **s, uint64_t *guid)
{
	size_t n;

	*s = skip_blank(*s);
	n = strcspn(*s, " \t");
	if (strncmp(*s, "0x", 2) || topo_guid(*s, n, guid) || !*guid)
		return -EINVAL;
	*s += n;
	return 0;
}

/* Text between quote q at *s and the next end (a string), advancing *s. */
static int row_name(const char **s, char q, const char *end, char *buf,
		    size_t len)
{
	const char *b, *e;

	*s = skip_blank(*s);
	if (**s != q || !(e = strstr(*s + 1, end)))
		return -EINVAL;
	b = skip_blank(*s + 1); /* iblinkinfo --line pads names */
	snprintf(buf, len, "%.*s", (int)(e - b), b);
	*s = e + 1;
	return 0;
}

static enum fabric_node_type row_type(const char *s)
{
	if (!strncmp(s, "SW", 2))
		return FABRIC_NODE_SWITCH;
	if (!strncmp(s, "CA", 2))
		return FABRIC_NODE_CA;
	if (!strncmp(s, "RT", 2))
		return FABRIC_NODE_ROUTER;
	return FABRIC_NODE_UNKNOWN;
}

/* "CA    18  1 0x... 4x EDR - SW     5  3 0x... ( 'a' - 'b' )" */
static int parse_ports_line(struct row *r, const char *s)
{
	char tok[16];
	int n = 0;

	r->a.type = row_type(s);
	s += 2;
	if ((r->a.lid = row_number(&s, UINT16_MAX)) < 0 ||
	    (r->a.port = row_number(&s, 254)) < 0 || row_guid(&s, &r->a.guid))
		return -EINVAL;
	if (sscanf(s, " %15s %n", tok, &n) != 1 ||
	    !(r->width = ib_width_from_name(tok)))
		return -EINVAL;
	s += n;
	if (sscanf(s, "%15s %n", tok, &n) != 1 ||
	    !(r->speed = ib_speed_from_name(tok)))
		return -EINVAL;
	s += n;
	if (*s == '\'') /* not connected: only its own name */
		return row_name(&s, '\'', "'", r->a.name, sizeof(r->a.name));
	if (*s != '-' || !(r->z.type = row_type(skip_blank(s + 1))))
		return -EINVAL;
	s = skip_blank(s + 1) + 2;
	if ((r->z.lid = row_number(&s, UINT16_MAX)) < 0 ||
	    (r->z.port = row_number(&s, 254)) < 1 || row_guid(&s, &r->z.guid))
		return -EINVAL;
	s = skip_blank(s);
	if (*s != '(')
		return -EINVAL;
	s++;
	if (row_name(&s, '\'', "' - '", r->a.name, sizeof(r->a.name)))
		return -EINVAL;
	s += 2;
	if (row_name(&s, '\'', "' )", r->z.name, sizeof(r->z.name)))
		return -EINVAL;
	return *skip_blank(s + 2) ? -EINVAL : 0;
}

/* "LID PORT[..] ==( 4X 25.78125 Gbps Active/  LinkUp)==> [0xGUID] LID
 * PORT[..] "name" (...)", from LID on. */
static int parse_link(struct row *r, const char *s, bool peer_guid)
{
	char w[8], g[16];
	const char *arrow;
	size_t i;

	if ((r->a.lid = row_number(&s, UINT16_MAX)) < 0 ||
	    (r->a.port = row_number(&s, 254)) < 0 || *s != '[' ||
	    !(s = strstr(s, "==(")) || !(arrow = strstr(s, ")==>")))
		return -EINVAL;
	if (!strstr(s, "Active/") && !strstr(s, "Armed/") &&
	    !strstr(s, "Initialize/"))
		return 0; /* down: a port with no link */
	if (sscanf(s + 3, " %7s %15s Gbps", w, g) != 2 ||
	    !(r->width = ib_width_from_name(w)))
		return -EINVAL;
	for (i = 0; i < sizeof(lane_rates) / sizeof(lane_rates[0]); i++)
		if (!strcmp(g, lane_rates[i].gbps))
			r->speed = lane_rates[i].speed;
	if (!r->speed)
		return -EINVAL;
	s = arrow + 4;
	if (peer_guid && row_guid(&s, &r->z.guid))
		return -EINVAL;
	if ((r->z.lid = row_number(&s, UINT16_MAX)) < 1 ||
	    (r->z.port = row_number(&s, 254)) < 1 || *s != '[' ||
	    !(s = strchr(s, ']')))
		return -EINVAL;
	s++;
	return row_name(&s, '"', "\"", r->z.name, sizeof(r->z.name));
}

/* "Switch: 0x... leaf04:" or "CA: node012 mlx5_0:" */
static int parse_header(struct rows_ctx *c, const char *s)
{
	size_t n;

	memset(&c->hdr, 0, sizeof(c->hdr));
	if (!strncmp(s, "Switch:", 7)) {
		c->hdr.a.type = FABRIC_NODE_SWITCH;
		s += 7;
		if (row_guid(&s, &c->hdr.a.guid))
			return -EINVAL;
	} else {
		c->hdr.a.type = !strncmp(s, "CA:", 3) ? FABRIC_NODE_CA
						      : FABRIC_NODE_ROUTER;
		s = strchr(s, ':') + 1;
	}
	s = skip_blank(s);
	n = strlen(s);
	if (!n || s[n - 1] != ':')
		return -EINVAL;
	snprintf(c->hdr.a.name, sizeof(c->hdr.a.name), "%.*s", (int)(n - 1), s);
	return 0;
}

static int parse_row_line(void *arg, char *line)
{
	struct rows_ctx *c = arg;
	struct row r = { .line = c->in->line };
	const char *s = line;
	int rc;

	if (c->fmt == FABRIC_TOPO_IBLINKINFO &&
	    (!strncmp(line, "Switch:", 7) || !strncmp(line, "CA:", 3) ||
	     !strncmp(line, "Router:", 7))) {
		if (parse_header(c, line))
			return lines_error(c->in, "expected \"Switch: 0xGUID "
						  "name:\" or \"CA: name:\"");
		return 0;
	}
	if (c->fmt == FABRIC_TOPO_PORTS) {
		rc = parse_ports_line(&r, s);
	} else if (c->fmt == FABRIC_TOPO_IBLINKINFO_LINE) {
		rc = row_guid(&s, &r.a.guid) ||
		     row_name(&s, '"', "\"", r.a.name, sizeof(r.a.name));
		rc = rc ? -EINVAL : parse_link(&r, s, true);
	} else if (!c->hdr.a.type) {
		rc = -EINVAL;
	} else {
		r.a = c->hdr.a;
		if (r.a.type != FABRIC_NODE_SWITCH && row_guid(&s, &r.a.guid))
			rc = -EINVAL;
		else
			rc = parse_link(&r, s, false);
	}
	if (rc)
		return lines_error(c->in, "expected a port line of %s",
				   fabric_topo_format_name(c->fmt));
	if (array_reserve(&c->v, &c->cap, c->n, sizeof(*c->v)))
		return -ENOMEM;
	c->v[c->n++] = r;
	return 0;
}

/* ---- rows -> model ---- */

static struct fabric_node *node_of(const struct fabric *f, uint64_t guid)
{
	return guid ? fabric_find_guid(f, guid) : NULL;
}

/* The largest port number rows give the node of guid. */
static long max_port(const struct rows_ctx *c, uint64_t guid)
{
	long m = 0;
	size_t i;

	for (i = 0; i < c->n; i++) {
		if (c->v[i].a.guid == guid && c->v[i].a.port > m)
			m = c->v[i].a.port;
		if (c->v[i].z.guid == guid && c->v[i].z.port > m)
			m = c->v[i].z.port;
	}
	return m;
}

/* --line prints no node type: a node with two ports at one LID is a
 * switch (a CA port has a LID of its own). */
static enum fabric_node_type guess_type(const struct rows_ctx *c,
					const struct row_end *e)
{
	size_t i;

	if (e->type)
		return e->type;
	for (i = 0; i < c->n; i++)
		if (c->v[i].a.guid == e->guid && c->v[i].a.lid == e->lid &&
		    c->v[i].a.port != e->port)
			return FABRIC_NODE_SWITCH;
	return FABRIC_NODE_CA;
}

static int add_node(struct rows_ctx *c, struct fabric *f,
		    const struct row_end *e, bool defined)
{
	struct fabric_node *n;

	n = fabric_add_node(f, e->guid, guess_type(c, e), e->name,
			    (int)max_port(c, e->guid));
	if (!n)
		return -errno;
	/* a CA's GUID here is a port GUID; an undefined peer's may be made up */
	n->guid_unknown = n->type != FABRIC_NODE_SWITCH || !defined;
	if (n->type == FABRIC_NODE_SWITCH)
		n->lid = (uint16_t)e->lid;
	return 0;
}

/* The peer of row r: by GUID, else by LID (the default form). */
static uint64_t peer_guid(const struct rows_ctx *c, const struct row *r)
{
	size_t i;

	if (r->z.guid)
		return r->z.guid;
	for (i = 0; i < c->n; i++)
		if (c->v[i].a.lid == r->z.lid &&
		    (c->v[i].a.type == FABRIC_NODE_SWITCH ||
		     c->v[i].a.port == r->z.port))
			return c->v[i].a.guid;
	return 0;
}

static void set_port(struct fabric_port *p, const struct row *r,
		     const struct row_end *e)
{
	p->valid = true;
	p->state = IB_PORT_STATE_ACTIVE;
	p->phys_state = IB_PHYS_STATE_LINKUP;
	p->width = (uint8_t)r->width;
	p->speed = (uint8_t)r->speed;
	p->width_enabled = (uint16_t)(1u << r->width);
	p->speed_enabled = (uint16_t)(1u << r->speed);
	p->lid = (uint16_t)e->lid;
	if (p->node->type != FABRIC_NODE_SWITCH)
		p->guid = e->guid;
}

static int link_row(struct rows_ctx *c, struct fabric *f, struct row *r,
		    bool strict)
{
	struct fabric_port *a, *z;
	char what[160];
	int rc;

	c->in->line = r->line;
	r->z.guid = peer_guid(c, r);
	if (!node_of(f, r->z.guid)) {
		snprintf(what, sizeof(what), "\"%s\" (LID %ld)", r->z.name,
			 r->z.lid);
		if ((rc = topo_unknown_node(c->in, strict, what)))
			return rc;
		if (!r->z.guid)
			r->z.guid = TOPO_GUID_MADE_UP + ++c->made_up;
		if ((rc = add_node(c, f, &r->z, false)))
			return rc;
	}
	a = fabric_port(node_of(f, r->a.guid), (int)r->a.port);
	z = fabric_port(node_of(f, r->z.guid), (int)r->z.port);
	if (!a || !z || fabric_connect(a, z))
		return lines_error(c->in, "port %ld linked twice", r->a.port);
	set_port(a, r, &r->a);
	set_port(z, r, &r->z);
	return 0;
}

static int rows_build(struct rows_ctx *c, struct fabric *f, bool strict)
{
	size_t i;
	int rc;

	for (i = 0; i < c->n; i++) {
		if (node_of(f, c->v[i].a.guid))
			continue;
		c->in->line = c->v[i].line;
		if ((rc = add_node(c, f, &c->v[i].a, true)))
			return rc == -EEXIST
				       ? lines_error(c->in, "GUID repeated")
				       : rc;
	}
	for (i = 0; i < c->n; i++)
		if (c->v[i].z.port && (rc = link_row(c, f, &c->v[i], strict)))
			return rc;
	if (!f->nnodes)
		return lines_error(c->in, "no port in the %s output",
				   fabric_topo_format_name(c->fmt));
	return 0;
}

int topo_rows_read(struct lines *in, enum fabric_topo_format fmt, bool strict,
		   struct fabric **out)
{
	struct rows_ctx c = { .in = in, .fmt = fmt };
	struct fabric *f = fabric_new();
	int rc = f ? lines_each(in, parse_row_line, &c) : -ENOMEM;

	if (!rc)
		rc = rows_build(&c, f, strict);
	if (!rc) {
		snprintf(f->source, sizeof(f->source), "topology");
		*out = f;
		f = NULL;
	}
	if (rc == -ENOMEM)
		snprintf(in->err, in->errlen, "%s: out of memory", in->path);
	free(c.v);
	fabric_free(f);
	lines_close(in);
	return rc;
}
