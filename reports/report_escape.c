// SPDX-License-Identifier: MIT
/*
 * Strings from the fabric (node descriptions, host names, error texts) are
 * untrusted. Every output format gets its own escaping here, in one place,
 * with unit tests: HTML text and attributes, XML, shell words, CSV fields,
 * Prometheus label values, one-line comments, JSON inside <script>.
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/record.h"
#include "common/text.h"
#include "reports/report.h"

static bool buf_reserve(struct report_buf *b, size_t more)
{
	char *s;
	size_t cap;

	if (b->oom)
		return false;
	if (b->len + more + 1 <= b->cap)
		return true;
	cap = b->cap ? b->cap : 256;
	while (cap < b->len + more + 1)
		cap *= 2;
	s = realloc(b->s, cap);
	if (!s) {
		b->oom = true;
		return false;
	}
	b->s = s;
	b->cap = cap;
	return true;
}

static void buf_putn(struct report_buf *b, const char *s, size_t n)
{
	if (!buf_reserve(b, n))
		return;
	memcpy(b->s + b->len, s, n);
	b->len += n;
	b->s[b->len] = '\0';
}

void report_buf_puts(struct report_buf *b, const char *s)
{
	buf_putn(b, s, strlen(s));
}

void report_buf_printf(struct report_buf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0 || !buf_reserve(b, (size_t)n))
		return;
	va_start(ap, fmt);
	vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
}

void report_buf_free(struct report_buf *b)
{
	free(b->s);
	memset(b, 0, sizeof(*b));
}

/*
 * Characters HTML cannot carry or that would mislead a reader: controls
 * other than TAB, LF and CR (no reference writes them either), C1, bidi
 * controls (text_term_unsafe()), and non-characters.
 */
static bool html_unsafe(uint32_t cp)
{
	return (text_term_unsafe(cp) && cp != '\t' && cp != '\n' &&
		cp != '\r') ||
	       (cp >= 0xfdd0 && cp <= 0xfdef) || (cp & 0xfffe) == 0xfffe;
}

/* Each byte of n at s as "\xNN", as the terminal text shows them. */
static void put_hex_bytes(struct report_buf *b, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		report_buf_printf(b, "\\x%02x", (unsigned char)s[i]);
}

static void html_escape_char(struct report_buf *b, char c)
{
	switch (c) {
	case '&':
		report_buf_puts(b, "&amp;");
		break;
	case '<':
		report_buf_puts(b, "&lt;");
		break;
	case '>':
		report_buf_puts(b, "&gt;");
		break;
	case '"':
		report_buf_puts(b, "&quot;");
		break;
	case '\'':
		report_buf_puts(b, "&#39;");
		break;
	default:
		buf_putn(b, &c, 1);
	}
}

/* Text and attribute values alike (attributes are always double-quoted);
 * unsafe characters and bytes that are not UTF-8 as "\xNN" (found by
 * fuzz_report_formats). */
void report_html_escape(struct report_buf *b, const char *s)
{
	size_t n = s ? strlen(s) : 0, k;
	uint32_t cp;

	for (size_t i = 0; i < n; i += k ? k : 1) {
		k = text_utf8_char(s + i, n - i, &cp);
		if (!k || html_unsafe(cp))
			put_hex_bytes(b, s + i, k ? k : 1);
		else if (k == 1)
			html_escape_char(b, s[i]);
		else
			buf_putn(b, s + i, k);
	}
}

/* XML 1.0 has no escape for most control characters, nor for U+FFFE and
 * U+FFFF (not XML characters at all): they become '?', as do bytes that
 * are not UTF-8. Tab, newline and CR are written as character references. */
void report_xml_escape(struct report_buf *b, const char *s)
{
	size_t n = s ? strlen(s) : 0, k;
	uint32_t cp;

	for (size_t i = 0; i < n; i += k ? k : 1) {
		k = text_utf8_char(s + i, n - i, &cp);
		if (!k || cp == 0xfffe || cp == 0xffff ||
		    (cp < 0x20 && cp != '\t' && cp != '\n' && cp != '\r'))
			report_buf_puts(b, "?");
		else if (cp == '\n' || cp == '\r' || cp == '\t')
			report_buf_printf(b, "&#%u;", (unsigned)cp);
		else if (k == 1)
			report_html_escape(b, (char[]){ (char)cp, 0 });
		else
			buf_putn(b, s + i, k);
	}
}

/* One shell word: '...' with each ' written as '\''. */
void report_shell_quote(struct report_buf *b, const char *s)
{
	report_buf_puts(b, "'");
	for (; s && *s; s++) {
		if (*s == '\'')
			report_buf_puts(b, "'\\''");
		else
			buf_putn(b, s, 1);
	}
	report_buf_puts(b, "'");
}

/*
 * Whether a cell holds what some reader takes for the end of a line: a
 * control (C0, DEL, C1: NEL is U+0085) or U+2028 / U+2029 (Python's
 * splitlines() splits on each). Quoted, such a cell stays one field even
 * for a reader that splits lines first.
 */
static bool csv_line_break_like(const char *s)
{
	const unsigned char *u = (const unsigned char *)s;

	for (; *u; u++)
		if (*u < 0x20 || *u == 0x7f ||
		    (u[0] == 0xc2 && u[1] >= 0x80 && u[1] <= 0x9f) ||
		    (u[0] == 0xe2 && u[1] == 0x80 &&
		     (u[2] == 0xa8 || u[2] == 0xa9)))
			return true;
	return false;
}

/* RFC 4180: quoted when needed, quotes doubled; a cell that starts with
 * one of OWASP's = + - @ TAB CR is prefixed with ' so spreadsheets do not
 * run it as a formula (D18: TAB and CR too). */
void report_csv_field(struct report_buf *b, const char *s)
{
	bool formula, quote;

	if (!s)
		return;
	formula = *s && strchr("=+-@\t\r", *s);
	quote = formula || strpbrk(s, ",\"") || csv_line_break_like(s);
	if (!quote) {
		report_buf_puts(b, s);
		return;
	}
	report_buf_puts(b, formula ? "\"'" : "\"");
	for (; *s; s++)
		report_buf_puts(b, *s == '"' ? "\"\"" : (char[]){ *s, 0 });
	report_buf_puts(b, "\"");
}

/* Exposition format: \ " and newline are escaped in label values. */
void report_prom_label(struct report_buf *b, const char *s)
{
	for (; s && *s; s++) {
		if (*s == '\\')
			report_buf_puts(b, "\\\\");
		else if (*s == '"')
			report_buf_puts(b, "\\\"");
		else if (*s == '\n')
			report_buf_puts(b, "\\n");
		else
			buf_putn(b, s, 1);
	}
}

static void put_buf(void *ctx, const char *s, size_t n)
{
	buf_putn(ctx, s, n);
}

/* Text for a terminal (common/text.h): controls, C1 and bidi overrides
 * as \xNN (D9). */
void report_term_text(struct report_buf *b, const char *s)
{
	text_term_each(s, put_buf, b);
}

/* Text for a one-line comment: C0 controls and DEL become spaces, and
 * what else a terminal would act on is escaped as in report_term_text(). */
void report_comment_text(struct report_buf *b, const char *s)
{
	struct report_buf flat = { 0 };

	for (; s && *s; s++)
		buf_putn(&flat,
			 (unsigned char)*s < 0x20 || *s == 0x7f ? " " : s, 1);
	report_term_text(b, flat.s ? flat.s : "");
	b->oom |= flat.oom;
	report_buf_free(&flat);
}

/* JSON made by jansson, made safe inside <script>: no '<', '>' or '&'
 * characters remain, nor DEL, which jansson leaves raw even with
 * JSON_ENSURE_ASCII and HTML forbids (they only occur inside strings,
 * so \u escapes). */
void report_script_json(struct report_buf *b, const char *json)
{
	for (; json && *json; json++) {
		switch (*json) {
		case '<':
			report_buf_puts(b, "\\u003c");
			break;
		case '>':
			report_buf_puts(b, "\\u003e");
			break;
		case '&':
			report_buf_puts(b, "\\u0026");
			break;
		case 0x7f:
			report_buf_puts(b, "\\u007f");
			break;
		default:
			buf_putn(b, json, 1);
		}
	}
}

const char *report_scope_text(const json_t *f)
{
	const char *scope = json_string_value(json_object_get(f, "scope"));

	if (!scope)
		return NULL;
	return !strcmp(scope, "node") ? "this node only"
				      : "part of a common cause";
}
