// SPDX-License-Identifier: MIT
/*
 * A strict scanner for the common case of pair records (see report_scan.h).
 * Every line it takes is valid JSON that record_validate() accepts; every
 * doubt (escapes, non-ASCII, nesting, duplicate keys, wrong types, big
 * integers) returns 0 and the record reader handles the line instead.
 */
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "reports/report_scan.h"

#define MAX_UNKNOWN 16

struct scanner {
	const char *p, *end;
};

enum val_type { V_STRING, V_INT, V_REAL, V_LITERAL, V_OBJECT };

struct value {
	enum val_type type;
	struct scan_str str; /* V_STRING: contents; others: the text */
	long long i;
	double d;
};

/* The first byte first: the key dispatch compares each key with every
 * name, and most differ there (v holds no NUL). */
int scan_eq(const struct scan_str *v, const char *s)
{
	if (!v->s || (v->len ? v->s[0] != s[0] : s[0] != '\0'))
		return 0;
	return !strncmp(v->s, s, v->len) && s[v->len] == '\0';
}

static void skip_ws(struct scanner *sc)
{
	while (sc->p < sc->end && (*sc->p == ' ' || *sc->p == '\t' ||
				   *sc->p == '\n' || *sc->p == '\r'))
		sc->p++;
}

static bool take(struct scanner *sc, char c)
{
	skip_ws(sc);
	if (sc->p >= sc->end || *sc->p != c)
		return false;
	sc->p++;
	return true;
}

/* Printable ASCII without '"' or '\\': nothing to unescape or check. */
static bool scan_string(struct scanner *sc, struct scan_str *out)
{
	const char *start;

	if (!take(sc, '"'))
		return false;
	start = sc->p;
	while (sc->p < sc->end && *sc->p != '"') {
		unsigned char c = (unsigned char)*sc->p;

		if (c < 0x20 || c > 0x7e || c == '\\')
			return false;
		sc->p++;
	}
	if (sc->p >= sc->end)
		return false;
	out->s = start;
	out->len = (size_t)(sc->p - start);
	sc->p++;
	return true;
}

static const char *digits(const char *p, const char *end)
{
	while (p < end && *p >= '0' && *p <= '9')
		p++;
	return p;
}

/* The JSON number grammar exactly; integers of up to 18 digits. */
static bool scan_number(struct scanner *sc, struct value *v)
{
	const char *p = sc->p, *int_start, *q;
	char buf[64];

	if (p < sc->end && *p == '-')
		p++;
	int_start = p;
	q = digits(p, sc->end);
	if (q == p || (*p == '0' && q - p > 1))
		return false;
	p = q;
	v->type = V_INT;
	if (p < sc->end && *p == '.') {
		q = digits(p + 1, sc->end);
		if (q == p + 1)
			return false;
		p = q;
		v->type = V_REAL;
	}
	if (p < sc->end && (*p == 'e' || *p == 'E')) {
		p++;
		if (p < sc->end && (*p == '+' || *p == '-'))
			p++;
		q = digits(p, sc->end);
		if (q == p)
			return false;
		p = q;
		v->type = V_REAL;
	}
	if (p - sc->p >= (long)sizeof(buf) ||
	    (v->type == V_INT && p - int_start > 18))
		return false;
	memcpy(buf, sc->p, (size_t)(p - sc->p));
	buf[p - sc->p] = '\0';
	if (v->type == V_INT) {
		v->i = strtoll(buf, NULL, 10);
		v->d = (double)v->i;
	} else {
		errno = 0;
		v->d = strtod(buf, NULL);
		if (errno || !isfinite(v->d))
			return false;
	}
	sc->p = p;
	return true;
}

static bool scan_literal(struct scanner *sc, struct value *v)
{
	static const char *const words[] = { "true", "false", "null" };

	for (size_t i = 0; i < 3; i++) {
		size_t n = strlen(words[i]);

		if ((size_t)(sc->end - sc->p) >= n &&
		    !memcmp(sc->p, words[i], n)) {
			sc->p += n;
			v->type = V_LITERAL;
			return true;
		}
	}
	return false;
}

/* A scalar, or (when objects are allowed) the '{' of an object. */
static bool scan_value(struct scanner *sc, struct value *v, bool objects)
{
	skip_ws(sc);
	if (sc->p >= sc->end)
		return false;
	if (*sc->p == '"') {
		v->type = V_STRING;
		return scan_string(sc, &v->str);
	}
	if (*sc->p == '{') {
		v->type = V_OBJECT;
		return objects;
	}
	if (*sc->p == '-' || (*sc->p >= '0' && *sc->p <= '9'))
		return scan_number(sc, v);
	return scan_literal(sc, v);
}

/* Unknown keys may be added freely, but never twice (jansson rejects). */
static bool unknown_key(struct scan_str *seen, size_t *n,
			const struct scan_str *key)
{
	for (size_t i = 0; i < *n; i++)
		if (seen[i].len == key->len &&
		    !memcmp(seen[i].s, key->s, key->len))
			return false;
	if (*n == MAX_UNKNOWN)
		return false;
	seen[(*n)++] = *key;
	return true;
}

/* 1 handled, 0 not a known key, -1 refuse the line. */
typedef int (*field_fn)(void *ctx, const struct scan_str *key,
			struct scanner *sc);

static int skip_field(void *ctx, const struct scan_str *key, struct scanner *sc)
{
	(void)ctx;
	(void)key;
	(void)sc;
	return 0;
}

/*
 * An object; keys fn does not know take scalars, or at depth 0 an object
 * of scalars (burnin's counters_a): added fields, each key at most once.
 */
static bool scan_object(struct scanner *sc, field_fn fn, void *ctx, int depth)
{
	struct scan_str unknown[MAX_UNKNOWN], key;
	size_t n_unknown = 0;
	struct value v;
	int r;

	if (!take(sc, '{'))
		return false;
	if (take(sc, '}'))
		return true;
	for (;;) {
		if (!scan_string(sc, &key) || !take(sc, ':'))
			return false;
		r = fn(ctx, &key, sc);
		if (r < 0)
			return false;
		if (!r && (!unknown_key(unknown, &n_unknown, &key) ||
			   !scan_value(sc, &v, depth == 0) ||
			   (v.type == V_OBJECT &&
			    !scan_object(sc, skip_field, NULL, depth + 1))))
			return false;
		if (take(sc, ','))
			continue;
		return take(sc, '}');
	}
}

static bool once(unsigned long *seen, unsigned int bit)
{
	if (*seen & (1UL << bit))
		return false;
	*seen |= 1UL << bit;
	return true;
}

static int ref_field(void *ctx, const struct scan_str *key, struct scanner *sc)
{
	static const char *const names[] = { "host", "ca", "guid", "port" };
	struct scan_ref *ref = ctx;
	struct scan_str *strs[] = { &ref->host, &ref->ca, &ref->guid };
	unsigned long seen = ref->seen;
	struct value v;

	for (unsigned int i = 0; i < 4; i++) {
		if (!scan_eq(key, names[i]))
			continue;
		if (!once(&seen, i) || !scan_value(sc, &v, false))
			return -1;
		ref->seen = (unsigned int)seen;
		if (i < 3 && v.type == V_STRING)
			*strs[i] = v.str;
		else if (i == 3 && v.type == V_INT)
			ref->port = v.i;
		else
			return -1;
		return 1;
	}
	return 0;
}

static const char *const str_names[] = { "schema", "kind",    "time",
					 "host",   "version", "test",
					 "dir",	   "status",  "error" };
static const char *const num_names[] = { "round", "gbps", "gbps_min",
					 "expected_gbps" };

enum {
	BIT_NUM = 9,
	BIT_A = 13,
	BIT_B = 14,
	BITS_ALL = (1 << 15) - 1, /* the required fields */
	BIT_ERRC = 15, /* optional ones */
	BIT_RETEST = 16,
	BIT_PATH = 17, /* and 18 */
	BIT_ADAPTIVE = 19,
};

static int num_field(struct scan_pair *p, unsigned int i, struct scanner *sc)
{
	struct value v;
	double *d[] = { NULL, &p->gbps, &p->gbps_min, &p->expected };

	if (!once(&p->seen, BIT_NUM + i) || !scan_value(sc, &v, false))
		return -1;
	if (i == 0 && v.type == V_INT)
		p->round = v.i;
	else if (i > 0 && (v.type == V_INT || v.type == V_REAL) &&
		 fabs(v.d) <= FLT_MAX) /* else the full reader refuses it */
		*d[i] = v.d;
	else
		return -1;
	return 1;
}

/* An array of cable ids: plain strings, at most SCAN_PATH_MAX of them. */
static int path_field(struct scan_pair *p, unsigned int i, struct scanner *sc)
{
	struct scan_path *path = &p->path[i];

	if (!once(&p->seen, BIT_PATH + i) || !take(sc, '['))
		return -1;
	path->present = 1;
	if (take(sc, ']'))
		return 1;
	for (;;) {
		struct scan_str *id = &path->id[path->n];

		if (path->n == SCAN_PATH_MAX || !scan_string(sc, id) ||
		    id->len > SCAN_CABLE_ID_MAX)
			return -1;
		path->n++;
		if (take(sc, ','))
			continue;
		return take(sc, ']') ? 1 : -1;
	}
}

static int pair_field(void *ctx, const struct scan_str *key, struct scanner *sc)
{
	struct scan_pair *p = ctx;
	struct value v;

	for (unsigned int i = 0; i < 9; i++)
		if (scan_eq(key, str_names[i])) {
			if (!once(&p->seen, i) || !scan_value(sc, &v, false) ||
			    v.type != V_STRING)
				return -1;
			p->str[i] = v.str;
			return 1;
		}
	for (unsigned int i = 0; i < 4; i++)
		if (scan_eq(key, num_names[i]))
			return num_field(p, i, sc);
	if (scan_eq(key, "error_completions")) {
		if (!once(&p->seen, BIT_ERRC) || !scan_value(sc, &v, false) ||
		    v.type != V_INT || v.i < 0)
			return -1;
		p->error_completions = v.i;
		return 1;
	}
	if (scan_eq(key, "retest")) {
		const char *at;

		skip_ws(sc);
		at = sc->p;
		if (!once(&p->seen, BIT_RETEST) || !scan_value(sc, &v, false) ||
		    v.type != V_LITERAL)
			return -1;
		p->retest = *at == 't';
		return 1;
	}
	if (scan_eq(key, "adaptive")) { /* issue 33: no route evidence */
		const char *at;

		skip_ws(sc);
		at = sc->p;
		if (!once(&p->seen, BIT_ADAPTIVE) ||
		    !scan_value(sc, &v, false) || v.type != V_LITERAL)
			return -1;
		p->adaptive = *at == 't';
		return 1;
	}
	if (scan_eq(key, "cables") || scan_eq(key, "cables_ba"))
		return path_field(p, key->len > 6, sc);
	if (scan_eq(key, "a") || scan_eq(key, "b")) {
		bool a = key->s[0] == 'a';

		if (!once(&p->seen, a ? BIT_A : BIT_B))
			return -1;
		return scan_object(sc, ref_field, a ? &p->a : &p->b, 1) ? 1
									: -1;
	}
	return 0;
}

static bool one_of(const struct scan_str *v, const char *a, const char *b,
		   const char *c)
{
	return scan_eq(v, a) || scan_eq(v, b) || (c && scan_eq(v, c));
}

/* The contract of a pair record (common/record_schema.c), on the scan. */
/* The reader's rules for the ends (common/record_schema.c). */
static bool ends_valid(const struct scan_ref *a, const struct scan_ref *b)
{
	if (a->port < 1 || a->port > 254 || b->port < 1 || b->port > 254)
		return false;
	return a->port != b->port || a->guid.len != b->guid.len ||
	       memcmp(a->guid.s, b->guid.s, a->guid.len);
}

static bool pair_valid(const struct scan_pair *p)
{
	unsigned long need = BITS_ALL & ~(1UL << SF_ERROR);

	if ((p->seen & need) != need || p->a.seen != 15 || p->b.seen != 15)
		return false;
	if (!scan_eq(&p->str[SF_SCHEMA], "ibproof/1") ||
	    !scan_eq(&p->str[SF_KIND], "pair") ||
	    !one_of(&p->str[SF_TEST], "write", "read", NULL) ||
	    !one_of(&p->str[SF_DIR], "uni", "bi", NULL) ||
	    !one_of(&p->str[SF_STATUS], "ok", "error", "not-tested") ||
	    !ends_valid(&p->a, &p->b))
		return false;
	return scan_eq(&p->str[SF_STATUS], "ok") ||
	       (p->seen & (1UL << SF_ERROR));
}

int report_scan_pair(const char *line, size_t len, struct scan_pair *out)
{
	struct scanner sc = { line, line + len };

	memset(out, 0, sizeof(*out));
	if (!scan_object(&sc, pair_field, out, 0))
		return 0;
	skip_ws(&sc);
	return sc.p == sc.end && pair_valid(out);
}
