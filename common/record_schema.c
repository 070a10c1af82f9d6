// SPDX-License-Identifier: MIT
/*
 * The record contract of docs/records.md as data: each kind lists the fields
 * it must carry, their JSON type and, for some, the allowed values. Fields may
 * be added freely; these are never renamed.
 */
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "common/record.h"

enum field_type {
	FT_STRING,
	FT_INTEGER,
	FT_NUMBER,
	FT_OBJECT,
	FT_ARRAY,
	FT_BOOL,
	FT_PORT
};

struct field_rule {
	const char *path; /* "a.host": field host of object a */
	enum field_type type;
	const char *const *allowed; /* NULL: any value of the type */
};

struct kind_rules {
	const char *kind;
	const struct field_rule *fields;
};

static const char *const link_layers[] = { "InfiniBand", "Ethernet", NULL };
static const char *const tests[] = { "write", "read", NULL };
static const char *const dirs[] = { "uni", "bi", NULL };
static const char *const pair_status[] = { "ok", "error", "not-tested", NULL };
static const char *const node_types[] = { "switch", "ca", "router", NULL };
static const char *const severities[] = { "fail", "warn", "info", NULL };
static const char *const run_events[] = { "start", "end", NULL };

static const struct field_rule common_fields[] = {
	{ "kind", FT_STRING },
	{ "time", FT_STRING },
	{ "host", FT_STRING },
	{ "version", FT_STRING },
	{ NULL },
};

static const struct field_rule port_fields[] = {
	{ "ca", FT_STRING },
	{ "port", FT_PORT },
	{ "guid", FT_STRING },
	{ "lid", FT_INTEGER },
	{ "link_layer", FT_STRING, link_layers },
	{ "state", FT_STRING },
	{ "rate_gbps", FT_NUMBER },
	{ "rail", FT_INTEGER },
	{ NULL },
};

#define PORT_REF(x)                                                         \
	{ x, FT_OBJECT }, { x ".host", FT_STRING }, { x ".ca", FT_STRING }, \
		{ x ".port", FT_PORT },                                     \
	{                                                                   \
		x ".guid", FT_STRING                                        \
	}

static const struct field_rule pair_fields[] = {
	{ "round", FT_INTEGER },
	{ "test", FT_STRING, tests },
	{ "dir", FT_STRING, dirs },
	PORT_REF("a"),
	PORT_REF("b"),
	{ "gbps", FT_NUMBER },
	{ "gbps_min", FT_NUMBER },
	{ "expected_gbps", FT_NUMBER },
	{ "status", FT_STRING, pair_status },
	{ NULL },
};

#define LINK_END(x)                                                           \
	{ x, FT_OBJECT }, { x ".name", FT_STRING }, { x ".guid", FT_STRING }, \
		{ x ".port", FT_PORT },                                       \
	{                                                                     \
		x ".type", FT_STRING, node_types                              \
	}

static const struct field_rule link_fields[] = {
	LINK_END("a"),
	LINK_END("b"),
	{ "width", FT_STRING },
	{ "speed", FT_STRING },
	{ "state", FT_STRING },
	{ "phys_state", FT_STRING },
	{ NULL },
};

static const struct field_rule finding_fields[] = {
	{ "severity", FT_STRING, severities },
	{ "category", FT_STRING },
	{ "subject", FT_OBJECT },
	{ "evidence", FT_OBJECT },
	{ "action", FT_STRING, record_actions },
	{ "message", FT_STRING },
	{ NULL },
};

static const struct field_rule run_fields[] = {
	{ "tool", FT_STRING },
	{ "event", FT_STRING, run_events },
	{ NULL },
};

static const struct field_rule pcie_fields[] = {
	{ "bdf", FT_STRING },
	{ NULL },
};

static const struct field_rule counters_fields[] = {
	{ "subject", FT_OBJECT },
	{ "counters", FT_OBJECT },
	{ NULL },
};

static const char *const adaptive[] = { "unknown", "on", "off", NULL };

static const struct field_rule lft_fields[] = {
	{ "node", FT_STRING },
	{ "guid", FT_STRING },
	{ "linear_fdb_top", FT_INTEGER },
	{ "ports", FT_ARRAY },
	{ "adaptive_routing", FT_STRING, adaptive },
	{ NULL },
};

static const char *const event_categories[] = { "link",	       "hca-health",
						"transceiver", "storage",
						"hung-task",   NULL };

static const struct field_rule event_fields[] = {
	{ "category", FT_STRING, event_categories },
	{ "what", FT_STRING },
	{ "subject", FT_OBJECT },
	{ "subject.host", FT_STRING },
	{ "text", FT_STRING },
	{ NULL },
};

static const struct field_rule transceiver_fields[] = {
	{ "port", FT_OBJECT },
	{ "port.port", FT_INTEGER },
	{ "source", FT_STRING },
	{ "present", FT_BOOL },
	{ NULL },
};

static const char *const cable_status[] = { "loaded", "not-loaded", "unproven",
					    "unread", "idle",	    NULL };

/* burnin's load proof (issue 16): one directed cable in one step. */
static const struct field_rule cable_load_fields[] = {
	{ "round", FT_INTEGER },
	{ "test", FT_STRING, tests },
	{ "cable", FT_STRING },
	{ "from", FT_OBJECT },
	{ "to", FT_OBJECT },
	{ "flows", FT_INTEGER },
	{ "expected_bytes", FT_NUMBER },
	{ "moved_bytes", FT_NUMBER },
	{ "status", FT_STRING, cable_status },
	{ NULL },
};

static const char *const cable_verdicts[] = { "ok",	"not-tested",
					      "blamed", "ambiguous",
					      "port",	NULL };

/* judging by route (issue 16): one directed cable's verdict. */
static const struct field_rule cable_fields[] = {
	{ "id", FT_STRING }, /* "0xGUID:PORT", its egress port */
	{ "from", FT_OBJECT },
	{ "from.node", FT_STRING },
	{ "from.guid", FT_STRING },
	{ "from.port", FT_PORT },
	{ "to", FT_OBJECT },
	{ "to.node", FT_STRING },
	{ "to.guid", FT_STRING },
	{ "to.port", FT_PORT },
	{ "verdict", FT_STRING, cable_verdicts },
	{ "evidence", FT_OBJECT },
	{ NULL },
};

static const struct kind_rules kinds[] = {
	{ "port", port_fields },
	{ "pair", pair_fields },
	{ "link", link_fields },
	{ "finding", finding_fields },
	{ "run", run_fields },
	{ "pcie", pcie_fields },
	{ "counters", counters_fields },
	{ "lft", lft_fields },
	{ "event", event_fields },
	{ "transceiver", transceiver_fields },
	{ "cable-load", cable_load_fields },
	{ "cable", cable_fields },
	{ NULL, NULL },
};

static const char *const type_names[] = {
	[FT_STRING] = "a string", [FT_INTEGER] = "an integer",
	[FT_NUMBER] = "a number", [FT_OBJECT] = "an object",
	[FT_ARRAY] = "an array",  [FT_BOOL] = "true or false",
	[FT_PORT] = "an integer",
};

static bool type_matches(const json_t *v, enum field_type t)
{
	switch (t) {
	case FT_STRING:
		return json_is_string(v);
	case FT_INTEGER:
		return json_is_integer(v);
	case FT_PORT: /* the range is checked apart */
		return json_is_integer(v);
	case FT_NUMBER:
		return json_is_number(v);
	case FT_OBJECT:
		return json_is_object(v);
	case FT_ARRAY:
		return json_is_array(v);
	case FT_BOOL:
		return json_is_boolean(v);
	}
	return false;
}

/* Follows a dotted path of at most two levels. */
static const json_t *lookup(const json_t *rec, const char *path)
{
	const char *dot = strchr(path, '.');
	const json_t *parent;
	char head[32];

	if (!dot)
		return json_object_get(rec, path);
	snprintf(head, sizeof(head), "%.*s", (int)(dot - path), path);
	parent = json_object_get(rec, head);
	return json_is_object(parent) ? json_object_get(parent, dot + 1) : NULL;
}

static int fail(char *why, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int fail(char *why, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, len, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

/* D10: the figures are kept as float: a larger one would become inf and
 * drop out of the JSON report. */
static bool number_in_range(const json_t *v)
{
	double d = json_number_value(v);

	return isfinite(d) && fabs(d) <= FLT_MAX;
}

static bool allowed_value(const json_t *v, const char *const *allowed)
{
	for (; allowed && *allowed; allowed++)
		if (!strcmp(json_string_value(v), *allowed))
			return true;
	return !allowed;
}

static int check_fields(const json_t *rec, const char *kind,
			const struct field_rule *rules, char *why, size_t len)
{
	for (const struct field_rule *r = rules; r->path; r++) {
		const json_t *v = lookup(rec, r->path);

		if (!v)
			return fail(why, len,
				    "%s record: missing required field '%s'",
				    kind, r->path);
		if (!type_matches(v, r->type))
			return fail(why, len,
				    "%s record: field '%s' must be %s", kind,
				    r->path, type_names[r->type]);
		if (r->type == FT_NUMBER && !number_in_range(v))
			return fail(why, len,
				    "%s record: field '%s' must be a finite "
				    "number of at most %g",
				    kind, r->path, (double)FLT_MAX);
		/* a cable's port: 0 is a switch's management port, 255
		 * is reserved */
		if (r->type == FT_PORT &&
		    (json_integer_value(v) < 1 || json_integer_value(v) > 254))
			return fail(why, len,
				    "%s record: field '%s' must be a port "
				    "number 1-254, got %" JSON_INTEGER_FORMAT,
				    kind, r->path, json_integer_value(v));
		if (r->type == FT_STRING && !allowed_value(v, r->allowed))
			return fail(
				why, len,
				"%s record: field '%s' has unknown value '%s'",
				kind, r->path, json_string_value(v));
	}
	return 0;
}

/* Whether the ends a and b of a pair or link are one port. */
static bool same_port(const json_t *rec)
{
	const json_t *a = json_object_get(rec, "a"),
		     *b = json_object_get(rec, "b");

	return json_equal(json_object_get(a, "guid"),
			  json_object_get(b, "guid")) &&
	       json_equal(json_object_get(a, "port"),
			  json_object_get(b, "port"));
}

/* Rules that tie two fields together. */
static int check_cross_fields(const json_t *rec, const char *kind, char *why,
			      size_t len)
{
	const char *status = json_string_value(json_object_get(rec, "status"));

	if ((!strcmp(kind, "pair") || !strcmp(kind, "link")) && same_port(rec))
		return fail(why, len, "%s record: a and b are the same port",
			    kind);

	if (!strcmp(kind, "pair") && strcmp(status, "ok") &&
	    !json_is_string(json_object_get(rec, "error")))
		return fail(why, len,
			    "pair record: status '%s' needs an 'error' string",
			    status);
	return 0;
}

int record_validate(const json_t *rec, char *why, size_t len)
{
	const json_t *schema = json_object_get(rec, "schema");
	const char *kind;

	if (!json_is_object(rec))
		return fail(why, len, "expected a JSON object");
	if (!json_is_string(schema))
		return fail(why, len,
			    "missing required field 'schema' (expected \"%s\")",
			    RECORD_SCHEMA);
	if (strcmp(json_string_value(schema), RECORD_SCHEMA))
		return fail(why, len, "unknown schema '%s' (expected \"%s\")",
			    json_string_value(schema), RECORD_SCHEMA);
	if (check_fields(rec, "a", common_fields, why, len))
		return -EINVAL;
	kind = json_string_value(json_object_get(rec, "kind"));
	for (const struct kind_rules *k = kinds; k->kind; k++)
		if (!strcmp(k->kind, kind))
			return check_fields(rec, kind, k->fields, why, len)
				       ?: check_cross_fields(rec, kind, why,
							     len);
	return fail(why, len, "unknown record kind '%s'", kind);
}
