// SPDX-License-Identifier: MIT
/*
 * fabric_spec.c: the CSV cable list.
 *
 *   # comment
 *   a_node,a_port,z_node,z_port[,speed,width,label,rack]   (header, any order)
 *   leaf01,17/1,spine03,5,NDR,4x,C0042,R12
 *
 * Ports are IB port numbers or cage/lane aliases of twin-port cages: IB port
 * n sits in cage (n+1)/2, lane 1 (odd n) or 2 (even n); or the names the
 * switch OS gives them, 1/17/1 and, split, 1/17/1/2 (common/ibcage.h).
 * Fields may be double-quoted. Errors name file:line.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/array.h"
#include "common/ibcage.h"
#include "common/lines.h"
#include "common/strtab.h"
#include "common/text.h"
#include "fabric/fabric_spec.h"
#include "fabric/fabric_topo.h"
#include "fabric/fabric_util.h"

enum spec_col {
	COL_A_NODE,
	COL_A_PORT,
	COL_Z_NODE,
	COL_Z_PORT,
	COL_SPEED,
	COL_WIDTH,
	COL_LABEL,
	COL_RACK,
	COL_COUNT
};

static const char *const col_names[COL_COUNT] = { "a_node", "a_port", "z_node",
						  "z_port", "speed",  "width",
						  "label",  "rack" };

#define MAX_FIELDS 16

struct csv_ctx {
	struct lines in; /* path, line number, err */
	int col_of[COL_COUNT]; /* field index per column, -1 = absent */
	int nfields;
	struct strtab ends; /* "node\nport" -> line */
	struct fabric_spec *spec;
};

/* IB port number 1..255, cage/port ("17/1") or the switch OS's names
 * ("1/17/1", split "1/17/1/2"): common/ibcage.c. -EINVAL otherwise. */
int fabric_port_parse(const char *s)
{
	return ib_cage_port_parse(s);
}

static int parse_header(struct csv_ctx *c, char **f, int n)
{
	int i, k;

	for (k = 0; k < COL_COUNT; k++)
		c->col_of[k] = -1;
	for (i = 0; i < n; i++) {
		for (k = 0; k < COL_COUNT; k++)
			if (!strcasecmp(f[i], col_names[k]))
				break;
		if (k == COL_COUNT || c->col_of[k] >= 0)
			return lines_error(&c->in,
					   "expected a header of "
					   "columns a_node,a_port,z_node,"
					   "z_port[,speed,width,label,rack], "
					   "got \"%s\"",
					   f[i]);
		c->col_of[k] = i;
	}
	for (k = 0; k <= COL_Z_PORT; k++)
		if (c->col_of[k] < 0)
			return lines_error(&c->in,
					   "header lacks column %s "
					   "(expected a_node,a_port,z_node,"
					   "z_port[,speed,width,label,rack])",
					   col_names[k]);
	c->nfields = n;
	return 0;
}

static const char *field(const struct csv_ctx *c, char **f, int col)
{
	return c->col_of[col] >= 0 ? f[c->col_of[col]] : "";
}

static int parse_end(struct csv_ctx *c, char **f, int ncol, int pcol,
		     struct fabric_spec_end *e)
{
	const char *node = field(c, f, ncol), *port = field(c, f, pcol);

	if (!*node)
		return lines_error(&c->in,
				   "%s: expected a node name, got "
				   "nothing",
				   col_names[ncol]);
	e->port = fabric_port_parse(port);
	if (e->port < 0)
		return lines_error(&c->in,
				   "%s: expected a port number "
				   "(1-255) or cage/lane like 17/1, got \"%s\"",
				   col_names[pcol], port);
	e->node = text_dup(node);
	return e->node ? 0 : -ENOMEM;
}

static int parse_rate(struct csv_ctx *c, char **f, struct fabric_cable *cb)
{
	const char *s = field(c, f, COL_SPEED), *w = field(c, f, COL_WIDTH);

	if (*s && !(cb->speed = ib_speed_from_name(s)))
		return lines_error(&c->in,
				   "speed: expected SDR, DDR, QDR, "
				   "FDR10, FDR, EDR, HDR, NDR or XDR, "
				   "got \"%s\"",
				   s);
	if (*w && !(cb->width = ib_width_from_name(w)))
		return lines_error(&c->in,
				   "width: expected 1x, 2x, 4x, 8x or "
				   "12x, got \"%s\"",
				   w);
	return 0;
}

/* The key is the whole name (a fixed buffer cut long names: D15). */
static int claim_end(struct csv_ctx *c, const struct fabric_spec_end *e)
{
	size_t len = strlen(e->node) + 16;
	char *key = malloc(len);
	int prev;

	if (!key)
		return -ENOMEM;
	snprintf(key, len, "%s\n%d", e->node, e->port);
	prev = strtab_put(&c->ends, key, c->in.line);
	free(key);
	if (prev == -ENOMEM)
		return prev;
	if (prev > 0)
		return lines_error(&c->in,
				   "%s port %d is already in the "
				   "cable at line %d",
				   e->node, e->port, prev);
	return 0;
}

struct fabric_cable *fabric_spec_add(struct fabric_spec *s)
{
	if (array_reserve(&s->cables, &s->cap, s->ncables, sizeof(*s->cables)))
		return NULL;
	return memset(&s->cables[s->ncables++], 0, sizeof(*s->cables));
}

static int parse_row(struct csv_ctx *c, char **f, struct fabric_spec *s)
{
	struct fabric_cable *cb;
	int rc;

	if (!(cb = fabric_spec_add(s)))
		return -ENOMEM;
	cb->line = c->in.line;
	if ((rc = parse_end(c, f, COL_A_NODE, COL_A_PORT, &cb->a)) ||
	    (rc = parse_end(c, f, COL_Z_NODE, COL_Z_PORT, &cb->z)) ||
	    (rc = parse_rate(c, f, cb)))
		return rc;
	if (!strcmp(cb->a.node, cb->z.node) && cb->a.port == cb->z.port)
		return lines_error(&c->in, "cable from %s port %d to itself",
				   cb->a.node, cb->a.port);
	if ((rc = claim_end(c, &cb->a)) || (rc = claim_end(c, &cb->z)))
		return rc;
	cb->label = text_dup(field(c, f, COL_LABEL));
	cb->rack = text_dup(field(c, f, COL_RACK));
	return cb->label && cb->rack ? 0 : -ENOMEM;
}

static int parse_line(void *arg, char *line)
{
	struct csv_ctx *c = arg;
	char *f[MAX_FIELDS];
	int n;

	n = fabric_csv_split(line, f, MAX_FIELDS);
	if (n < 0)
		return lines_error(&c->in, "unbalanced double quote");
	if (!c->nfields)
		return parse_header(c, f, n);
	if (n != c->nfields)
		return lines_error(&c->in,
				   "expected %d columns as in the "
				   "header, got %d",
				   c->nfields, n);
	return parse_row(c, f, c->spec);
}

int fabric_spec_parse_csv(const char *path, const char *text,
			  struct fabric_spec **out, char *err, size_t errlen)
{
	struct csv_ctx c = { .spec = calloc(1, sizeof(*c.spec)) };
	struct fabric_spec *s = c.spec;
	int rc = -ENOMEM;

	lines_open_text(&c.in, path, text, err, errlen);
	if (!s || !(s->path = strdup(path)))
		goto fail;
	rc = lines_each(&c.in, parse_line, &c);
	if (rc)
		goto fail;
	if (!c.nfields) {
		c.in.line = 1;
		rc = lines_error(&c.in, "expected a header line a_node,"
					"a_port,z_node,z_port[,...], got none");
		goto fail;
	}
	*out = s;
	s = NULL;
fail:
	if (rc == -ENOMEM)
		snprintf(err, errlen, "%s: out of memory", path);
	lines_close(&c.in);
	strtab_free(&c.ends);
	fabric_spec_free(s);
	return rc;
}

void fabric_spec_free(struct fabric_spec *s)
{
	size_t i;

	if (!s)
		return;
	for (i = 0; i < s->ncables; i++) {
		free(s->cables[i].a.node);
		free(s->cables[i].z.node);
		free(s->cables[i].label);
		free(s->cables[i].rack);
	}
	free(s->cables);
	free(s->path);
	free(s);
}

static int spec_end_set(struct fabric_spec_end *e, const struct fabric_port *p)
{
	e->node = strdup(p->node->name);
	e->guid = p->node->guid_unknown ? 0 : p->node->guid;
	e->port = p->num;
	return e->node ? 0 : -ENOMEM;
}

static int spec_add_link(struct fabric_spec *s, const struct fabric_port *p)
{
	struct fabric_cable *cb = fabric_spec_add(s);

	if (!cb)
		return -ENOMEM;
	cb->speed = p->speed;
	cb->width = p->width;
	cb->label = strdup("");
	cb->rack = strdup("");
	if (!cb->label || !cb->rack || spec_end_set(&cb->a, p) ||
	    spec_end_set(&cb->z, p->remote))
		return -ENOMEM;
	return 0;
}

/* Every link of a known-good model becomes a cable (ends keep GUIDs). */
int fabric_spec_from_model(const struct fabric *f, const char *path,
			   struct fabric_spec **out)
{
	struct fabric_spec *s = calloc(1, sizeof(*s));
	const struct fabric_port *p;
	size_t i;
	int n;

	if (!s || !(s->path = strdup(path)))
		goto fail;
	for (i = 0; i < f->nnodes; i++) {
		for (n = 1; n <= f->nodes[i]->nports; n++) {
			p = &f->nodes[i]->ports[n];
			if (!p->remote || p->remote->id < p->id)
				continue;
			if (spec_add_link(s, p))
				goto fail;
		}
	}
	*out = s;
	return 0;
fail:
	fabric_spec_free(s);
	return -ENOMEM;
}

/* A spec file is either a CSV cable list or a topology output. */
int fabric_spec_load_opts(const char *path, bool strict,
			  struct fabric_spec **out, char *err, size_t errlen)
{
	struct fabric *f;
	char *text;
	int rc = fabric_read_text(path, &text, err, errlen);

	if (rc)
		return rc;
	if (fabric_topo_detect(text)) {
		rc = fabric_topo_parse_opts(path, text, strict, &f, err,
					    errlen);
		if (!rc) {
			rc = fabric_spec_from_model(f, path, out);
			fabric_free(f);
		}
	} else {
		rc = fabric_spec_parse_csv(path, text, out, err, errlen);
	}
	free(text);
	return rc;
}

int fabric_spec_load(const char *path, struct fabric_spec **out, char *err,
		     size_t errlen)
{
	return fabric_spec_load_opts(path, false, out, err, errlen);
}
