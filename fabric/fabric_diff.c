// SPDX-License-Identifier: MIT
/*
 * fabric_diff.c: cabling_diff(model, spec) -> findings. Pure: no device.
 *
 * Spec cables and discovered links are two sets of port pairs. Matching
 * pairs are checked for width and speed. Of the rest, in this order:
 * two spec cables whose far ends are exchanged are one `swapped` finding;
 * a discovered link touching a spec port is `wrong-port` (right node) or
 * `miswired`, consuming the spec cables of both its ends; a spec cable left
 * over is `port-disabled`, `unreachable` or `missing-link`; a discovered
 * link left over is `unexpected-link`. Last, links the SM never activated
 * (fabric_active.c).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/record.h"
#include "fabric/fabric_diff_priv.h"

#define ADD(ctx, sev, cat, act)                                        \
	({                                                             \
		struct fabric_finding *f_ =                            \
			fabric_finding_add((ctx)->out, sev, cat, act); \
		if (!f_)                                               \
			return -ENOMEM;                                \
		f_;                                                    \
	})

static int index_name(struct strtab *t, const char *name, long idx)
{
	long *v = strtab_get(t, name);

	if (!*name)
		return 0;
	if (v) {
		if (*v != idx)
			*v = -1; /* a second node has this name */
		return 0;
	}
	return strtab_put(t, name, idx) < 0 ? -ENOMEM : 0;
}

static int build_name_index(struct diff_ctx *c)
{
	const struct fabric_node *n;
	size_t i;
	int rc;

	for (i = 0; i < c->m->nnodes; i++) {
		n = c->m->nodes[i];
		if ((rc = index_name(&c->names, n->desc, n->idx + 1)))
			return rc;
		if (n->map_name &&
		    (rc = index_name(&c->names, n->map_name, n->idx + 1)))
			return rc;
	}
	return 0;
}

static int report_once(struct diff_ctx *c, const char *key)
{
	long rc = strtab_put(&c->reported, key, 1);

	return rc < 0 ? (int)rc : rc == 0;
}

static int report_ambiguous(struct diff_ctx *c, const struct fabric_spec_end *e,
			    int line)
{
	struct fabric_finding *f;
	size_t i, count = 0;
	int rc = report_once(c, e->node);

	if (rc <= 0)
		return rc;
	for (i = 0; i < c->m->nnodes; i++) {
		if (strcmp(c->m->nodes[i]->desc, e->node) &&
		    (!c->m->nodes[i]->map_name ||
		     strcmp(c->m->nodes[i]->map_name, e->node)))
			continue;
		c->node_ambig[i] = true;
		count++;
	}
	f = ADD(c, "fail", "ambiguous-name", "none");
	fabric_finding_spec_end(f, e->node, 0, 0);
	fabric_finding_num(f, "nodes", (long long)count);
	fabric_finding_num(f, "spec_line", line);
	fabric_finding_msg(f,
			   "spec name \"%s\" (line %d) matches %zu nodes; "
			   "their cables were not checked: name them with "
			   "--node-name-map or use GUIDs in the spec",
			   e->node, line, count);
	return 0;
}

static int report_replaced(struct diff_ctx *c, const struct fabric_spec_end *e,
			   const struct fabric_node *n)
{
	struct fabric_finding *f;
	char key[40];
	int rc;

	snprintf(key, sizeof(key), "replaced %" PRIx64, n->guid);
	if ((rc = report_once(c, key)) <= 0)
		return rc;
	f = ADD(c, "info", "node-replaced", "none");
	fabric_finding_spec_end(f, n->name, n->guid, 0);
	fabric_finding_str(f, "expected_guid", "0x%016" PRIx64, e->guid);
	fabric_finding_str(f, "found_guid", "0x%016" PRIx64, n->guid);
	fabric_finding_msg(f,
			   "%s has GUID 0x%016" PRIx64 ", the spec says "
			   "0x%016" PRIx64 ": the node was replaced; update "
			   "the spec",
			   n->name, n->guid, e->guid);
	return 0;
}

static const struct fabric_node *lookup_name(struct diff_ctx *c,
					     const char *name, int *res)
{
	long *v = strtab_get(&c->names, name);
	uint64_t guid;

	if (!v && !record_guid_parse(name, &guid) &&
	    fabric_find_guid(c->m, guid)) {
		*res = END_FOUND;
		return fabric_find_guid(c->m, guid);
	}
	*res = !v ? END_ABSENT : *v < 0 ? END_AMBIGUOUS : END_FOUND;
	return *res == END_FOUND ? c->m->nodes[*v - 1] : NULL;
}

static int resolve_end(struct diff_ctx *c, size_t k,
		       const struct fabric_spec_end *e, int line)
{
	const struct fabric_node *n = NULL;
	int res = END_ABSENT, rc = 0;

	if (e->guid)
		n = fabric_find_guid(c->m, e->guid);
	if (n) {
		res = END_FOUND;
	} else {
		n = lookup_name(c, e->node, &res);
		if (res == END_AMBIGUOUS)
			rc = report_ambiguous(c, e, line);
		else if (n && e->guid)
			rc = report_replaced(c, e, n);
	}
	c->res[k] = (unsigned char)res;
	c->end[k] = n ? fabric_port(n, e->port) : NULL;
	if (c->end[k] && c->exp[c->end[k]->id] < 0)
		c->exp[c->end[k]->id] = (int)k;
	return rc;
}

/* A cable with an ambiguous end is not checked (ambiguous-name says so);
 * its other end must not look miswired either. */
static void skip_cable(struct diff_ctx *c, size_t i)
{
	size_t k;

	c->cable_done[i] = true;
	for (k = 2 * i; k <= 2 * i + 1; k++) {
		if (c->end[k] && c->exp[c->end[k]->id] == (int)k) {
			c->exp[c->end[k]->id] = -1;
			c->port_done[c->end[k]->id] = true;
		}
	}
}

static int diff_alloc(struct diff_ctx *c)
{
	size_t nc = c->s->ncables, np = c->m->nports_total;

	c->end = calloc(2 * nc + 1, sizeof(*c->end));
	c->res = calloc(2 * nc + 1, sizeof(*c->res));
	c->cable_done = calloc(nc + 1, sizeof(*c->cable_done));
	c->node_ambig = calloc(c->m->nnodes + 1, sizeof(*c->node_ambig));
	c->port_done = calloc(np + 1, sizeof(*c->port_done));
	c->exp = malloc((np + 1) * sizeof(*c->exp));
	if (!c->end || !c->res || !c->cable_done || !c->node_ambig ||
	    !c->port_done || !c->exp)
		return -ENOMEM;
	memset(c->exp, 0xff, (np + 1) * sizeof(*c->exp));
	return 0;
}

static void diff_free(struct diff_ctx *c)
{
	strtab_free(&c->names);
	strtab_free(&c->reported);
	free(c->end);
	free(c->res);
	free(c->cable_done);
	free(c->node_ambig);
	free(c->port_done);
	free(c->exp);
	fabric_classes_free(&c->classes);
}

int cabling_diff(const struct fabric *m, const struct fabric_spec *s,
		 struct fabric_findings *out)
{
	struct diff_ctx c = { .m = m, .s = s, .out = out };
	size_t i;
	int rc;

	if ((rc = diff_alloc(&c)) || (rc = build_name_index(&c)) ||
	    (rc = fabric_classes_build(&c.classes, m)))
		goto out;
	for (i = 0; i < s->ncables && !rc; i++) {
		rc = resolve_end(&c, 2 * i, &s->cables[i].a, s->cables[i].line);
		if (!rc)
			rc = resolve_end(&c, 2 * i + 1, &s->cables[i].z,
					 s->cables[i].line);
		if (c.res[2 * i] == END_AMBIGUOUS ||
		    c.res[2 * i + 1] == END_AMBIGUOUS)
			skip_cable(&c, i);
	}
	if (!rc)
		rc = diff_rules(&c);
	if (!rc)
		rc = fabric_check_active(m, out);
out:
	diff_free(&c);
	return rc;
}
