// SPDX-License-Identifier: MIT
/*
 * From findings to the disable list: each failing finding names a port, a
 * cable or a node's PCIe device; entries are merged per cable (a bad cable
 * seen from both ends, or by two tools, is one entry) and carry every
 * reason with its figures.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/array.h"
#include "common/record.h"
#include "reports/report.h"

static const char *const action_rank[] = {
	"none",	  "check-sm",	   "check-access",  "locate",
	"retest", "swap-cables",   "disable-port",  "check-pcie",
	"reseat", "replace-optic", "replace-cable", "drain-node",
	NULL,
};

static int rank_of(const char *action)
{
	for (int i = 0; action_rank[i]; i++)
		if (!strcmp(action_rank[i], action))
			return i;
	return 0;
}

int report_add_finding(struct report *r, json_t *finding)
{
	size_t before = r->n_findings;
	int ret;

	if (!finding)
		return -ENOMEM;
	ret = report_finding_take(r, finding);
	if (!ret && r->n_findings > before)
		r->findings[before].own = true;
	json_decref(finding);
	return ret;
}

/* "sw:0x...:17" / "ca:0x...:1": the identity of one end. */
/* An end's identity in an entry key, whole (a cut name could merge two
 * ends, or end inside a UTF-8 character); NULL on ENOMEM. */
static char *end_id(const struct report_end *e)
{
	char g[19], *id = NULL;
	int n;

	record_guid_str(e->guid, g);
	if (e->type == 'c' && !e->guid)
		n = asprintf(&id, "ca:%s/%s:%d", e->host ? e->host : "",
			     e->ca ? e->ca : "", e->port);
	else if (!e->guid)
		n = asprintf(&id, "name:%s:%d", e->name ? e->name : "",
			     e->port);
	else
		n = asprintf(&id, "%s:%s:%d", e->type == 'c' ? "ca" : "sw", g,
			     e->port);
	return n < 0 ? NULL : id;
}

/* Fills in what the model knows about an end: name, alias, transceiver. */
static void enrich_end(struct report *r, struct report_end *e,
		       const struct report_end *from_link)
{
	struct report_xcvr x = e->xcvr;

	if (from_link) {
		if (!e->name)
			e->name = from_link->name;
		if (!e->alias)
			e->alias = from_link->alias;
		if (!x.vendor && !x.part_number && !x.serial)
			x = from_link->xcvr;
	}
	if (e->type == 'c' && e->guid) {
		uint64_t idx;

		if (hashmap_get(&r->hport_by_guid, e->guid, &idx) &&
		    !x.vendor && !x.part_number && !x.serial)
			x = r->hports[idx].xcvr;
	}
	if (!x.vendor && !x.part_number && !x.serial) {
		const struct report_xcvr *t =
			report_xcvr_at(r, e->guid, e->port);

		if (t)
			x = *t;
	}
	e->xcvr = x;
	report_end_alias(r, e);
}

/* The link an end sits on, and which side of it the end is. */
static const struct report_link *end_link(const struct report *r,
					  const struct report_end *e, int *side)
{
	int li = report_link_find(r, e->guid, e->port);
	uint64_t idx;

	if (li < 0 && e->type == 'c' && e->guid &&
	    hashmap_get(&r->hport_by_guid, e->guid, &idx))
		li = r->hports[idx].link;
	if (li < 0)
		return NULL;
	if (r->links[li].a.type == 'c' && e->type == 'c')
		*side = r->links[li].a.host == e->host &&
					r->links[li].a.ca == e->ca
				? 0
				: 1;
	else
		*side = r->links[li].a.guid == e->guid &&
					r->links[li].a.port == e->port
				? 0
				: 1;
	return &r->links[li];
}

static char *entry_key(const struct report_end *port,
		       const struct report_end *peer,
		       const struct report_link *l)
{
	char *a = end_id(l ? &l->a : port), *b = l ? end_id(&l->b) : NULL;
	char *key = NULL;
	int n = -1;

	(void)peer;
	if (a && l && b)
		n = strcmp(a, b) > 0 ? asprintf(&key, "cable:%s-%s", b, a)
				     : asprintf(&key, "cable:%s-%s", a, b);
	else if (a && !l)
		n = asprintf(&key, "port:%s", a);
	free(a);
	free(b);
	return n < 0 ? NULL : key;
}

static struct report_entry *entry_new(struct report *r, const char *key)
{
	struct report_entry *e;

	if (array_reserve(&r->entries, &r->cap_entries, r->n_entries,
			  sizeof(*e)))
		return NULL;
	e = &r->entries[r->n_entries];
	memset(e, 0, sizeof(*e));
	e->key = strtab_intern(&r->strs, key);
	e->reasons = json_array();
	e->evidence = json_object();
	e->action = "none";
	if (!e->key || !e->reasons || !e->evidence ||
	    json_object_set_new(r->entry_keys, key,
				json_integer((json_int_t)r->n_entries))) {
		json_decref(e->reasons);
		json_decref(e->evidence);
		return NULL;
	}
	r->n_entries++;
	return e;
}

static struct report_entry *entry_by_key(struct report *r, const char *key,
					 bool *created)
{
	json_t *idx = json_object_get(r->entry_keys, key);

	*created = !idx;
	return idx ? &r->entries[json_integer_value(idx)] : entry_new(r, key);
}

/*
 * One cable as the report knows it: the end to act on and its far end, as
 * discovered when the model has the link, and the entry key of the cable.
 */
static char *resolve_cable(struct report *r, const struct report_end *port,
			   const struct report_end *peer, struct report_end *p,
			   struct report_end *q)
{
	const struct report_link *l;
	int side = 0;

	*p = *port;
	memset(q, 0, sizeof(*q));
	if (peer)
		*q = *peer;
	l = end_link(r, p, &side);
	if (l) { /* the cable as discovered, whatever a finding expected */
		enrich_end(r, p, side ? &l->b : &l->a);
		*q = side ? l->a : l->b;
	}
	enrich_end(r, q, NULL);
	return entry_key(p, q, l);
}

struct report_entry *report_entry_get(struct report *r,
				      const struct report_end *port,
				      const struct report_end *peer,
				      bool *created)
{
	struct report_end p, q;
	struct report_entry *e;
	char *key = resolve_cable(r, port, peer, &p, &q);

	if (!key)
		return NULL;
	e = entry_by_key(r, key, created);
	free(key);
	if (e && *created) {
		e->kind = ENTRY_PORT;
		e->port = p;
		e->peer = q;
		e->confidence = 1;
	}
	return e;
}

/* Has the entry a reason of this category (the same fault told twice)? */
static bool has_reason(const struct report_entry *e, const char *cat)
{
	for (size_t k = 0; k < json_array_size(e->reasons); k++)
		if (!strcmp(cat, json_string_value(json_object_get(
					 json_array_get(e->reasons, k),
					 "category"))))
			return true;
	return false;
}

void report_entry_reason(struct report *r, struct report_entry *e,
			 const char *action, const json_t *f)
{
	const char *cat = json_string_value(json_object_get(f, "category"));
	json_t *ev = json_object_get(f, "evidence");
	json_t *conf = json_object_get(ev, "confidence");

	(void)r;
	/* fabric discover and fabric check both see an unreachable node */
	if (has_reason(e, cat))
		return;
	json_array_append_new(
		e->reasons,
		json_pack("{s:s,s:s,s:s,s:O}", "category", cat, "severity",
			  json_string_value(json_object_get(f, "severity")),
			  "message",
			  json_string_value(json_object_get(f, "message")),
			  "figures", ev));
	json_object_set(e->evidence, cat, ev);
	if (rank_of(action) > rank_of(e->action))
		e->action = action_rank[rank_of(action)];
	if (json_is_number(conf) && e->reasons &&
	    json_array_size(e->reasons) == 1)
		e->confidence = json_number_value(conf);
}

static bool entry_action(const char *action)
{
	return rank_of(action) > 0;
}

/* A PCIe device: the node's entry, with check-pcie or drain-node. */
static int node_entry(struct report *r, const json_t *f, const json_t *subj)
{
	const char *host = json_string_value(json_object_get(subj, "host"));
	const char *bdf = json_string_value(json_object_get(subj, "bdf"));
	const char *name =
		json_string_value(json_object_get(subj, "name"))
			?: json_string_value(json_object_get(subj, "what"));
	struct report_entry *e;
	char *key, dev[160];
	bool created;

	if (!host)
		host = json_string_value(json_object_get(f, "host"));
	snprintf(dev, sizeof(dev), "%s%s%s%s", bdf, name ? " (" : "",
		 name ? name : "", name ? ")" : "");
	if (asprintf(&key, "node:%s:%s", host, bdf) < 0)
		return -ENOMEM;
	e = entry_by_key(r, key, &created);
	free(key);
	if (!e)
		return -ENOMEM;
	if (created) {
		e->kind = ENTRY_NODE;
		e->host = strtab_intern(&r->strs, host);
		e->device = strtab_intern(&r->strs, dev);
		e->confidence = 1;
	}
	report_entry_reason(r, e,
			    json_string_value(json_object_get(f, "action")), f);
	return 0;
}

/* The switch end of a cable reference comes first: it is the one to act on. */
static int cable_ends(struct report *r, const json_t *ref,
		      struct report_end *port, struct report_end *peer)
{
	struct report_end a, b;

	if (report_end_from(r, json_object_get(ref, "a"), &a) ||
	    report_end_from(r, json_object_get(ref, "b"), &b))
		return -EINVAL;
	*port = a.type == 's' || b.type != 's' ? a : b;
	*peer = a.type == 's' || b.type != 's' ? b : a;
	return 0;
}

/*
 * Two cables whose far ends are exchanged (fabric check's `swapped`): both
 * work, they only need exchanging. One entry names both cables as found,
 * whichever of the two the finding names first; nothing is disabled.
 */
static int swap_entry(struct report *r, const json_t *f, const json_t *subj,
		      const json_t *other)
{
	struct report_end p1, q1, p2, q2, port, peer;
	struct report_entry *e;
	char *k1 = NULL, *k2 = NULL, *key = NULL;
	bool created, first;
	int ret = -ENOMEM;

	if (cable_ends(r, subj, &port, &peer))
		return 0;
	k1 = resolve_cable(r, &port, &peer, &p1, &q1);
	if (cable_ends(r, other, &port, &peer)) {
		free(k1);
		return 0;
	}
	k2 = resolve_cable(r, &port, &peer, &p2, &q2);
	if (!k1 || !k2)
		goto out;
	first = strcmp(k1, k2) <= 0;
	if (asprintf(&key, "swap:%s+%s", first ? k1 : k2, first ? k2 : k1) <
	    0) {
		key = NULL;
		goto out;
	}
	e = entry_by_key(r, key, &created);
	if (!e)
		goto out;
	if (created) {
		e->kind = ENTRY_PORT;
		e->port = first ? p1 : p2;
		e->peer = first ? q1 : q2;
		e->swap_port = first ? p2 : p1;
		e->swap_peer = first ? q2 : q1;
		e->confidence = 1;
	}
	report_entry_reason(r, e, "swap-cables", f);
	ret = 0;
out:
	free(k1);
	free(k2);
	free(key);
	return ret;
}

/* A candidate's identity in a locate entry's key; NULL on ENOMEM. With
 * its ends: cable candidates give the first cable's (p, q). */
static char *candidate_key(struct report *r, const json_t *c,
			   struct report_end *p, struct report_end *q)
{
	struct report_end port, peer;
	char *key = NULL;

	if (json_is_object(json_object_get(c, "a"))) {
		if (report_end_from(r, json_object_get(c, "a"), &port))
			return strdup("?");
		if (!json_is_object(json_object_get(c, "b")) ||
		    report_end_from(r, json_object_get(c, "b"), &peer))
			return resolve_cable(r, &port, NULL, p, q);
		return resolve_cable(r, &port, &peer, p, q);
	}
	if (report_end_from(r, c, &port))
		return strdup("?");
	if (asprintf(&key, "port:%s/%s:%d",
		     json_string_value(json_object_get(c, "guid")) ?: "",
		     json_string_value(json_object_get(c, "host")) ?: "",
		     (int)json_integer_value(json_object_get(c, "port"))) < 0)
		return NULL;
	return key;
}

static int cmp_key(const void *x, const void *y)
{
	return strcmp(*(char *const *)x, *(char *const *)y);
}

/* The key of a locate entry, "locate:K1+K2+...", its candidates' keys
 * sorted; the first cable's ends into p, q. NULL on ENOMEM. */
static char *locate_key(struct report *r, const json_t *cand,
			struct report_end *p, struct report_end *q)
{
	size_t n = json_array_size(cand), len = 8;
	char **keys = calloc(n + 1, sizeof(*keys)), *key = NULL;
	bool have_ends = false;

	for (size_t k = 0; keys && k < n; k++) {
		struct report_end a, b;

		keys[k] = candidate_key(r, json_array_get(cand, k), &a, &b);
		if (!keys[k])
			goto out;
		if (!have_ends &&
		    json_object_get(json_array_get(cand, k), "a")) {
			*p = a;
			*q = b;
			have_ends = true;
		}
		len += strlen(keys[k]) + 1;
	}
	if (!keys)
		return NULL;
	qsort(keys, n, sizeof(*keys), cmp_key);
	key = malloc(len);
	for (size_t k = 0, at = 0; key && k <= n; k++) {
		int w = snprintf(key + at, len - at, "%s%s",
				 k ? (k > 1 ? "+" : "") : "locate:",
				 k ? keys[k - 1] : "");

		at += (size_t)w;
	}
out:
	for (size_t k = 0; keys && k < n; k++)
		free(keys[k]);
	free(keys);
	return key;
}

/*
 * The evidence fits several parts equally (a locate finding): one entry
 * naming every candidate and the retest that separates them; nothing is
 * disabled.
 */
static int locate_entry(struct report *r, const json_t *f)
{
	const json_t *ev = json_object_get(f, "evidence");
	const json_t *cand = json_object_get(ev, "candidates");
	struct report_end p = { 0 }, q = { 0 };
	struct report_entry *e;
	bool created;
	char *key;

	if (!json_array_size(cand))
		return 0;
	key = locate_key(r, cand, &p, &q);
	if (!key)
		return -ENOMEM;
	e = entry_by_key(r, key, &created);
	free(key);
	if (!e)
		return -ENOMEM;
	if (created) {
		e->kind = ENTRY_PORT;
		e->port = p;
		e->peer = q;
		e->confidence = 0; /* none of them more than the others */
		e->candidates = json_deep_copy(cand);
		e->retest = json_deep_copy(json_object_get(ev, "retest")
						   ?: json_null());
	}
	report_entry_reason(r, e, "locate", f);
	return 0;
}

/* A cable named by both ends: the switch end is the one to disable. */
static int link_entry(struct report *r, const json_t *f, const json_t *subj)
{
	struct report_end a, b;
	struct report_entry *e;
	bool created;

	const char *key;
	json_t *v;

	if (report_end_from(r, json_object_get(subj, "a"), &a) ||
	    report_end_from(r, json_object_get(subj, "b"), &b))
		return 0;
	e = a.type == 's' || b.type != 's'
		    ? report_entry_get(r, &a, &b, &created)
		    : report_entry_get(r, &b, &a, &created);
	if (!e)
		return -ENOMEM;
	report_entry_reason(r, e,
			    json_string_value(json_object_get(f, "action")), f);
	if (subj != json_object_get(f, "subject"))
		return 0;
	/* a finding about two cables (swapped): the other one is evidence */
	json_object_foreach(json_object_get(f, "evidence"), key,
			    v) if (json_is_object(json_object_get(v, "a")) &&
				   json_is_object(json_object_get(v, "b")) &&
				   link_entry(r, f, v)) return -ENOMEM;
	return 0;
}

static bool same_end(const struct report_end *a, const struct report_end *b)
{
	return a->guid == b->guid && a->port == b->port && a->type == b->type;
}

/*
 * The other ports one module serves (evidence.collateral of a transceiver
 * finding), each with the far end of its cable: one entry names them all.
 */
static int add_collateral(struct report *r, struct report_entry *e,
			  const json_t *list)
{
	struct report_end c, p, q;
	size_t i;
	json_t *v;

	json_array_foreach(list, i, v)
	{
		char *key;
		bool known;

		if (report_end_from(r, v, &c) || !c.port)
			continue;
		key = resolve_cable(r, &c, NULL, &p, &q);
		if (!key)
			return -ENOMEM;
		free(key);
		known = same_end(&e->port, &p);
		for (int k = 0; k < e->n_also; k++)
			known |= same_end(&e->also[k], &p);
		if (known || e->n_also == REPORT_ALSO_MAX)
			continue;
		e->also[e->n_also] = p;
		e->also_peer[e->n_also++] = q;
	}
	return 0;
}

static int port_entry(struct report *r, const json_t *f, const json_t *subj)
{
	const json_t *ev = json_object_get(f, "evidence");
	struct report_end p, peer = { 0 };
	struct report_entry *e;
	bool created;

	if (report_end_from(r, subj, &p) || !p.port)
		return 0; /* a whole node: listed, nothing to disable */
	report_end_from(r, json_object_get(ev, "peer"), &peer);
	e = report_entry_get(r, &p, peer.type ? &peer : NULL, &created);
	if (!e)
		return -ENOMEM;
	report_entry_reason(r, e,
			    json_string_value(json_object_get(f, "action")), f);
	return add_collateral(r, e, json_object_get(ev, "collateral"));
}

static int entry_from_finding(struct report *r, const json_t *f)
{
	const json_t *subj = json_object_get(f, "subject");
	const char *sev = json_string_value(json_object_get(f, "severity"));

	if (strcmp(sev, "fail") ||
	    !entry_action(json_string_value(json_object_get(f, "action"))))
		return 0;
	if (json_object_get(subj, "bdf"))
		return node_entry(r, f, subj);
	if (!strcmp(json_string_value(json_object_get(f, "action")), "locate"))
		return locate_entry(r, f);
	if (!strcmp(json_string_value(json_object_get(f, "action")),
		    "swap-cables") &&
	    json_is_object(json_object_get(json_object_get(f, "evidence"),
					   "swapped_with")))
		return swap_entry(
			r, f, subj,
			json_object_get(json_object_get(f, "evidence"),
					"swapped_with"));
	if (json_is_object(json_object_get(subj, "a")) &&
	    json_is_object(json_object_get(subj, "b")))
		return link_entry(r, f, subj);
	return port_entry(r, f, subj);
}

int report_build_disable_list(struct report *r)
{
	int ret = 0;

	for (size_t i = 0; !ret && i < r->n_findings; i++)
		ret = entry_from_finding(r, r->findings[i].rec);
	return ret;
}

static int action_count(const struct report *r, const char *action, bool nodes)
{
	json_t *hosts = json_object();
	int n = 0;

	for (size_t i = 0; hosts && i < r->n_entries; i++) {
		const struct report_entry *e = &r->entries[i];

		if (nodes && e->kind == ENTRY_NODE &&
		    !strcmp(e->action, action))
			json_object_set_new(hosts, e->host, json_true());
		else if (!nodes && e->kind == ENTRY_PORT &&
			 (!action || !strcmp(e->action, action)) &&
			 (action || (strcmp(e->action, "swap-cables") &&
				     strcmp(e->action, "retest") &&
				     strcmp(e->action, "locate"))))
			n += 1 +
			     (action ? 0 : e->n_also); /* ports of a module */
	}
	if (nodes)
		n = (int)json_object_size(hosts);
	json_decref(hosts);
	return n;
}

static size_t fail_findings(const struct report *r)
{
	size_t n = 0;

	for (size_t i = 0; i < r->n_findings; i++)
		n += !strcmp(json_string_value(json_object_get(
				     r->findings[i].rec, "severity")),
			     "fail");
	return n;
}

/* Something fails acceptance (apart from coverage). */
static bool report_failed(const struct report *r)
{
	return r->n_entries || fail_findings(r);
}

bool report_passed(const struct report *r)
{
	return !report_failed(r) && !report_incomplete(r);
}

static void append_part(char *buf, size_t len, int n, const char *one,
			const char *many)
{
	size_t used = strlen(buf);

	if (n)
		snprintf(buf + used, len - used, "%s%d %s",
			 buf[used - 1] == '(' ? "" : ", ", n,
			 n == 1 ? one : many);
}

static void append_count(char *buf, size_t len, int n, const char *one,
			 const char *many)
{
	size_t used = strlen(buf);

	if (n)
		snprintf(buf + used, len - used, "%s%d %s",
			 used > 6 ? ", " : "", n, n == 1 ? one : many);
}

/* What the disabled ports' entries replace: "(2 cables, 1 optic to replace)". */
static void append_parts(char *buf, size_t len, int cables, int optics)
{
	size_t used = strlen(buf);

	if (!cables && !optics)
		return;
	snprintf(buf + used, len - used, " (");
	append_part(buf, len, cables, "cable", "cables");
	append_part(buf, len, optics, "optic", "optics");
	used = strlen(buf);
	snprintf(buf + used, len - used, " to replace)");
}

/* "; INCOMPLETE: ..." after a FAIL line, or the whole line. */
static void append_incomplete(const struct report *r, char *buf, size_t len)
{
	size_t used = strlen(buf);

	if (!report_incomplete(r) || used + 2 >= len)
		return;
	if (used)
		snprintf(buf + used, len - used, "; ");
	used = strlen(buf);
	report_incomplete_text(r, buf + used, len - used);
}

void report_verdict_line(const struct report *r, char *buf, size_t len)
{
	if (report_passed(r)) {
		snprintf(buf, len, "PASS");
		return;
	}
	buf[0] = '\0';
	if (!report_failed(r)) {
		append_incomplete(r, buf, len);
		return;
	}
	snprintf(buf, len, "FAIL: ");
	append_count(buf, len, action_count(r, NULL, false), "port to disable",
		     "ports to disable");
	append_parts(buf, len, action_count(r, "replace-cable", false),
		     action_count(r, "replace-optic", false));
	append_count(buf, len, action_count(r, "swap-cables", false),
		     "pair of cables to swap", "pairs of cables to swap");
	append_count(buf, len, action_count(r, "retest", false),
		     "cable to retest", "cables to retest");
	append_count(buf, len, action_count(r, "locate", false),
		     "fault to locate", "faults to locate");
	append_count(buf, len, action_count(r, "drain-node", true),
		     "node to drain", "nodes to drain");
	append_count(buf, len, action_count(r, "check-pcie", true),
		     "node to check (PCIe)", "nodes to check (PCIe)");
	append_count(buf, len, (int)r->n_untested_ports, "port not tested",
		     "ports not tested");
	if (strlen(buf) == 6)
		snprintf(buf + 6, len - 6, "%zu failed checks",
			 fail_findings(r));
	append_incomplete(r, buf, len);
}
