// SPDX-License-Identifier: MIT
/*
 * fabric_scope.c: a tool's scope, the parts it could not test (one
 * `not-tested` finding each), the `scope` block of its end record and the
 * INCOMPLETE verdict. MAD status meanings are IBTA 13.4.7 (Table 111:
 * bit 0 busy, bit 1 redirect required, bits 2-4 the invalid-field code,
 * bits 8-15 class-specific).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/array.h"
#include "common/record.h"
#include "common/text.h"
#include "fabric/fabric_scope.h"

static const char *const part_names[FABRIC_PART_COUNT] = {
	"ports",   "links",  "switches", "nodes",
	"modules", "cables", "pairs",	 "tables",
};

/* One part of each kind, for messages. */
static const char *const part_one[FABRIC_PART_COUNT] = {
	"port", "link", "switch", "node", "module", "cable", "pair", "table",
};

const char *fabric_part_name(enum fabric_part k)
{
	return k < FABRIC_PART_COUNT ? part_names[k] : "parts";
}

static void append(char *buf, size_t len, const char *s)
{
	size_t at = strlen(buf);

	if (at < len)
		snprintf(buf + at, len - at, "%s%s", at ? ", " : "", s);
}

const char *fabric_mad_status_text(unsigned status, char *buf, size_t len)
{
	static const char *const code[8] = {
		NULL,
		"unsupported class/version",
		"unsupported method",
		"unsupported attribute or modifier",
		NULL,
		NULL,
		NULL,
		"invalid field",
	};
	unsigned c = (status >> 2) & 7;
	char tmp[32];

	if (!len)
		return buf;
	buf[0] = '\0';
	if (status & 1)
		append(buf, len, "busy");
	if (status & 2)
		append(buf, len, "redirect");
	if (c && code[c]) {
		append(buf, len, code[c]);
	} else if (c) {
		snprintf(tmp, sizeof(tmp), "reserved code %u", c);
		append(buf, len, tmp);
	}
	if (status & 0xff00) {
		snprintf(tmp, sizeof(tmp), "class-specific 0x%02x",
			 (status >> 8) & 0xff);
		append(buf, len, tmp);
	}
	if (!buf[0])
		snprintf(buf, len, status ? "reserved bits 0x%04x" : "success",
			 status);
	return buf;
}

int fabric_scope_accept_arg(struct fabric_scope *s, char *arg)
{
	char *save = NULL, *name;

	for (name = strtok_r(arg, ",", &save); name;
	     name = strtok_r(NULL, ",", &save)) {
		if (!*name)
			continue;
		if (array_reserve((void **)&s->accept, &s->cap, s->naccept,
				  sizeof(*s->accept)))
			return -ENOMEM;
		s->accept[s->naccept++] = name;
	}
	return 0;
}

void fabric_scope_accept_free(struct fabric_scope *s)
{
	free(s->accept);
	s->accept = NULL;
	s->naccept = s->cap = 0;
}

void fabric_scope_use(struct fabric_scope *s, enum fabric_part k)
{
	s->used[k] = true;
}

void fabric_scope_tested(struct fabric_scope *s, enum fabric_part k)
{
	s->used[k] = true;
	s->in_scope[k]++;
	s->tested[k]++;
}

static bool whole_part(enum fabric_part k)
{
	return k == FABRIC_PART_SWITCHES || k == FABRIC_PART_NODES ||
	       k == FABRIC_PART_TABLES;
}

/* The part's name as --accept-untested takes it: "NODE" or "NODE:PORT". */
static void ref_part_name(const struct fabric_ref *r, enum fabric_part k,
			  char *name, size_t len)
{
	if (whole_part(k))
		snprintf(name, len, "%s", r->name);
	else
		snprintf(name, len, "%s:%d", r->name, r->port);
}

/* An accept entry naming the GUID with or without leading zeros. */
static bool guid_entry_matches(const char *entry, const struct fabric_ref *r,
			       bool whole)
{
	char buf[64], *colon;
	uint64_t guid;
	long port = 0;

	snprintf(buf, sizeof(buf), "%s", entry);
	colon = strchr(buf, ':');
	if (colon) {
		*colon = '\0';
		port = strtol(colon + 1, NULL, 10);
	}
	if (!r->guid || record_guid_parse(buf, &guid) || guid != r->guid)
		return false;
	return whole ? !colon : colon && port == r->port;
}

static bool ref_accepted(const struct fabric_scope *s,
			 const struct fabric_ref *r, enum fabric_part k)
{
	char name[128];

	ref_part_name(r, k, name, sizeof(name));
	for (size_t i = 0; i < s->naccept; i++)
		if (!strcmp(s->accept[i], name) ||
		    guid_entry_matches(s->accept[i], r, whole_part(k)))
			return true;
	return false;
}

/* Any end of the finding's subject named by --accept-untested. */
static bool accepted(const struct fabric_scope *s,
		     const struct fabric_finding *f, enum fabric_part k)
{
	int ends = f->nrefs < 2 ? f->nrefs : 2;

	for (int i = 0; i < ends; i++)
		if (ref_accepted(s, &f->refs[i], k))
			return true;
	return false;
}

static const char *gap_action(const struct fabric_gap *g)
{
	if (!strcmp(g->reason, "no-lid"))
		return "check-sm";
	if (!strcmp(g->reason, "mad-status") && (g->mad_status & 1))
		return "retest"; /* busy */
	return "check-access";
}

/* "no answer (its management access or M_Key?)", "MAD status 0x1 (busy)" */
static void reason_text(const struct fabric_gap *g, char *buf, size_t len)
{
	char st[96];

	if (!strcmp(g->reason, "no-answer"))
		snprintf(buf, len, "no answer");
	else if (!strcmp(g->reason, "mad-status"))
		snprintf(buf, len, "MAD status 0x%04x (%s)",
			 (unsigned)g->mad_status,
			 fabric_mad_status_text((unsigned)g->mad_status, st,
						sizeof(st)));
	else if (!strcmp(g->reason, "no-lid"))
		snprintf(buf, len, "no LID (no SM has configured it)");
	else
		snprintf(buf, len, "%s", g->reason);
}

struct fabric_finding *fabric_scope_untested(struct fabric_scope *s,
					     struct fabric_findings *fs,
					     const struct fabric_port *subject,
					     const struct fabric_gap *g)
{
	struct fabric_finding *f;
	char why[160], name[128], st[96];
	bool ok;

	f = fabric_finding_add(fs, "warn", "not-tested", gap_action(g));
	if (!f)
		return NULL;
	fabric_finding_port(f, subject);
	ok = accepted(s, f, g->part);
	if (ok)
		f->severity = "info";
	s->used[g->part] = true;
	s->in_scope[g->part]++;
	s->accepted[g->part] += ok;
	ref_part_name(&f->refs[0], g->part, name, sizeof(name));
	reason_text(g, why, sizeof(why));
	fabric_finding_str(f, "part", "%s", part_names[g->part]);
	fabric_finding_str(f, "reason", "%s", g->reason);
	if (g->what)
		fabric_finding_str(f, "query", "%s", g->what);
	if (g->mad_status) {
		fabric_finding_num(f, "mad_status", g->mad_status);
		fabric_finding_str(
			f, "mad_status_text", "%s",
			fabric_mad_status_text((unsigned)g->mad_status, st,
					       sizeof(st)));
	}
	if (g->detail)
		fabric_finding_str(f, "detail", "%s", g->detail);
	if (ok)
		fabric_finding_bool(f, "accepted", true);
	fabric_finding_msg(f, "%s %s not tested (%s): %s%s%s%s%s",
			   part_one[g->part], name, g->what ? g->what : "query",
			   why, g->detail ? ": " : "",
			   g->detail ? g->detail : "",
			   strcmp(g->reason, "no-answer")
				   ? ""
				   : ": check its management access (M_Key, "
				     "SMP/PMA filtering) or retest",
			   ok ? " (accepted by --accept-untested)" : "");
	return f;
}

/* The evidence string of a finding, "" when absent. */
static const char *ev_str(const struct fabric_finding *f, const char *key)
{
	for (int i = 0; i < f->nev; i++)
		if (!strcmp(f->ev[i].key, key) &&
		    f->ev[i].kind == FABRIC_EV_STR)
			return f->ev[i].str;
	return "";
}

const char *fabric_finding_ev_str(const struct fabric_finding *f,
				  const char *key)
{
	return ev_str(f, key);
}

void fabric_scope_from_findings(struct fabric_scope *s,
				struct fabric_findings *fs, enum fabric_part k,
				size_t base,
				bool (*outside)(const struct fabric_finding *))
{
	size_t gaps = 0, extra = 0;

	s->used[k] = true;
	for (size_t i = 0; i < fs->n; i++) {
		struct fabric_finding *f = &fs->v[i];

		if (strcmp(f->category, "not-tested") ||
		    strcmp(ev_str(f, "part"), part_names[k]))
			continue;
		gaps++;
		extra += !outside || outside(f);
		if (accepted(s, f, k)) {
			f->severity = "info";
			fabric_finding_bool(f, "accepted", true);
			s->accepted[k]++;
		}
	}
	s->in_scope[k] = base + extra;
	s->tested[k] = s->in_scope[k] - gaps;
}

size_t fabric_scope_gaps(const struct fabric_scope *s)
{
	size_t n = 0;

	for (int k = 0; k < FABRIC_PART_COUNT; k++)
		n += s->in_scope[k] - s->tested[k] - s->accepted[k];
	return n;
}

json_t *fabric_scope_json(const struct fabric_scope *s)
{
	json_t *o = json_object();

	for (int k = 0; o && k < FABRIC_PART_COUNT; k++) {
		if (!s->used[k])
			continue;
		if (json_object_set_new(
			    o, part_names[k],
			    json_pack(
				    "{s:I, s:I, s:I, s:I}", "in_scope",
				    (json_int_t)s->in_scope[k], "tested",
				    (json_int_t)s->tested[k], "not_tested",
				    (json_int_t)(s->in_scope[k] - s->tested[k]),
				    "accepted", (json_int_t)s->accepted[k]))) {
			json_decref(o);
			return NULL;
		}
	}
	return o;
}

static long long ev_num(const struct fabric_finding *f, const char *key)
{
	for (int i = 0; i < f->nev; i++)
		if (!strcmp(f->ev[i].key, key) &&
		    f->ev[i].kind == FABRIC_EV_NUM)
			return f->ev[i].num;
	return 0;
}

static bool same_group(const struct fabric_finding *a,
		       const struct fabric_finding *b)
{
	return !strcmp(a->severity, b->severity) &&
	       !strcmp(ev_str(a, "part"), ev_str(b, "part")) &&
	       !strcmp(ev_str(a, "reason"), ev_str(b, "reason")) &&
	       !strcmp(ev_str(a, "query"), ev_str(b, "query")) &&
	       ev_num(a, "mad_status") == ev_num(b, "mad_status");
}

static bool is_gap(const struct fabric_finding *f)
{
	return !strcmp(f->category, "not-tested");
}

/* The subject as a person names it: "leaf01:3", "spine02". */
static void ref_name(const struct fabric_finding *f, char *buf, size_t len)
{
	const char *part = ev_str(f, "part");

	if (!strcmp(part, "switches") || !strcmp(part, "nodes") ||
	    !strcmp(part, "tables"))
		snprintf(buf, len, "%s", f->refs[0].name);
	else
		snprintf(buf, len, "%s:%d", f->refs[0].name, f->refs[0].port);
}

#define GROUP_NAMES 8 /* names shown per line; the records have all */

static void print_group(FILE *out, const struct fabric_findings *fs, size_t i,
			bool *done)
{
	const struct fabric_finding *f = &fs->v[i];
	struct fabric_gap g = { .reason = ev_str(f, "reason"),
				.mad_status = (int)ev_num(f, "mad_status") };
	char why[160], name[128];
	size_t n = 0, shown = 0;

	for (size_t j = i; j < fs->n; j++)
		n += !done[j] && is_gap(&fs->v[j]) && same_group(f, &fs->v[j]);
	reason_text(&g, why, sizeof(why));
	text_term_fprintf(out, "  %-4s %-20s %zu %s, %s: %s%s:", f->severity,
			  "not-tested", n, ev_str(f, "part"),
			  ev_str(f, "query")[0] ? ev_str(f, "query") : "query",
			  why,
			  !strcmp(f->severity, "info") ? " (accepted)" : "");
	for (size_t j = i; j < fs->n; j++) {
		if (done[j] || !is_gap(&fs->v[j]) || !same_group(f, &fs->v[j]))
			continue;
		done[j] = true;
		if (shown++ < GROUP_NAMES) {
			ref_name(&fs->v[j], name, sizeof(name));
			text_term_fprintf(out, " %s", name);
		}
	}
	if (shown > GROUP_NAMES)
		fprintf(out, " and %zu more (see the records)",
			shown - GROUP_NAMES);
	fputc('\n', out);
}

void fabric_scope_print(FILE *out, const struct fabric_scope *s,
			const struct fabric_findings *fs)
{
	bool *done = calloc(fs->n ? fs->n : 1, sizeof(*done));
	const char *sep = "";

	for (size_t i = 0; done && i < fs->n; i++)
		if (!done[i] && is_gap(&fs->v[i]))
			print_group(out, fs, i, done);
	free(done);
	if (!s || !fabric_scope_gaps(s)) {
		fflush(out);
		return;
	}
	fputs("INCOMPLETE: ", out);
	for (int k = 0; k < FABRIC_PART_COUNT; k++) {
		size_t gap = s->in_scope[k] - s->tested[k] - s->accepted[k];

		if (!gap)
			continue;
		fprintf(out, "%s%zu of %zu %s not tested", sep, gap,
			s->in_scope[k], part_names[k]);
		sep = "; ";
	}
	fputs(" (see the not-tested findings)\n", out);
	fflush(out);
}
