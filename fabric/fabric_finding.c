// SPDX-License-Identifier: MIT
/* fabric_finding.c: collecting findings (plain C, no JSON here). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/array.h"
#include "common/text.h"
#include "fabric/fabric_finding.h"
#include "fabric/fabric_util.h"

struct fabric_finding *fabric_finding_add(struct fabric_findings *fs,
					  const char *severity,
					  const char *category,
					  const char *action)
{
	struct fabric_finding *f;

	if (array_reserve(&fs->v, &fs->cap, fs->n, sizeof(*f)))
		return NULL;
	f = memset(&fs->v[fs->n++], 0, sizeof(*f));
	f->severity = severity;
	f->category = category;
	f->action = action;
	return f;
}

void fabric_finding_port(struct fabric_finding *f, const struct fabric_port *p)
{
	struct fabric_ref *r;

	if (f->nrefs == FABRIC_MAX_REFS)
		return;
	r = &f->refs[f->nrefs++];
	snprintf(r->name, sizeof(r->name), "%s", p->node->name);
	text_trim(r->name);
	r->guid = p->node->guid_unknown ? 0 : p->node->guid;
	r->port_guid = p->node->type == FABRIC_NODE_SWITCH ? 0 : p->guid;
	r->port = p->num;
	r->type = p->node->type;
}

void fabric_finding_spec_end(struct fabric_finding *f, const char *name,
			     uint64_t guid, int port)
{
	struct fabric_ref *r;

	if (f->nrefs == FABRIC_MAX_REFS)
		return;
	r = &f->refs[f->nrefs++];
	snprintf(r->name, sizeof(r->name), "%s", name);
	text_trim(r->name);
	r->guid = guid;
	r->port = port;
	r->type = FABRIC_NODE_UNKNOWN;
}

static struct fabric_ev *next_ev(struct fabric_finding *f, const char *key)
{
	if (f->nev == FABRIC_MAX_EV)
		return NULL;
	f->ev[f->nev].key = key;
	return &f->ev[f->nev++];
}

void fabric_finding_str(struct fabric_finding *f, const char *key,
			const char *fmt, ...)
{
	struct fabric_ev *e = next_ev(f, key);
	va_list ap;

	if (!e)
		return;
	e->kind = FABRIC_EV_STR;
	va_start(ap, fmt);
	vsnprintf(e->str, sizeof(e->str), fmt, ap);
	text_trim(e->str);
	va_end(ap);
}

void fabric_finding_num(struct fabric_finding *f, const char *key, long long v)
{
	struct fabric_ev *e = next_ev(f, key);

	if (e) {
		e->kind = FABRIC_EV_NUM;
		e->num = v;
	}
}

void fabric_finding_real(struct fabric_finding *f, const char *key, double v)
{
	struct fabric_ev *e = next_ev(f, key);

	if (e) {
		e->kind = FABRIC_EV_REAL;
		e->real = v;
	}
}

void fabric_finding_bool(struct fabric_finding *f, const char *key, bool v)
{
	struct fabric_ev *e = next_ev(f, key);

	if (e) {
		e->kind = FABRIC_EV_BOOL;
		e->num = v;
	}
}

void fabric_finding_msg(struct fabric_finding *f, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(f->message, sizeof(f->message), fmt, ap);
	text_trim(f->message);
	va_end(ap);
}

size_t fabric_findings_count(const struct fabric_findings *fs,
			     const char *severity)
{
	size_t i, n = 0;

	for (i = 0; i < fs->n; i++)
		if (!severity || !strcmp(fs->v[i].severity, severity))
			n++;
	return n;
}

void fabric_findings_free(struct fabric_findings *fs)
{
	free(fs->v);
	fs->v = NULL;
	fs->n = fs->cap = 0;
}

const char *fabric_port_str(const struct fabric_port *p, char *buf, size_t len)
{
	snprintf(buf, len, "%s port %d", p->node->name, p->num);
	return buf;
}
