// SPDX-License-Identifier: MIT
/*
 * text.c: bytes from outside made valid UTF-8 once where they enter, and
 * the one terminal escaper (common/text.h).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/text.h"

size_t text_utf8_char(const char *s, size_t n, uint32_t *cp)
{
	const unsigned char *u = (const unsigned char *)s;
	uint32_t v, min;
	size_t len, i;

	if (!n)
		return 0;
	if (u[0] < 0x80) {
		*cp = u[0];
		return 1;
	}
	if (u[0] >= 0xc2 && u[0] <= 0xdf) {
		len = 2, v = u[0] & 0x1f, min = 0x80;
	} else if (u[0] >= 0xe0 && u[0] <= 0xef) {
		len = 3, v = u[0] & 0x0f, min = 0x800;
	} else if (u[0] >= 0xf0 && u[0] <= 0xf4) {
		len = 4, v = u[0] & 0x07, min = 0x10000;
	} else {
		return 0;
	}
	if (n < len)
		return 0;
	for (i = 1; i < len; i++) {
		if ((u[i] & 0xc0) != 0x80)
			return 0;
		v = v << 6 | (u[i] & 0x3f);
	}
	if (v < min || v > 0x10ffff || (v >= 0xd800 && v <= 0xdfff))
		return 0;
	*cp = v;
	return len;
}

bool text_is_utf8(const char *s, size_t n)
{
	uint32_t cp;
	size_t k;

	for (size_t i = 0; i < n; i += k)
		if (!(k = text_utf8_char(s + i, n - i, &cp)))
			return false;
	return true;
}

char *text_from_bytes(char *dst, size_t dstlen, const char *src, size_t n)
{
	size_t out = 0, k;
	uint32_t cp;

	for (size_t i = 0; i < n && src[i]; i += k ? k : 1) {
		k = text_utf8_char(src + i, n - i, &cp);
		if (out + (k ? k : 4) >= dstlen)
			break;
		if (k)
			memcpy(dst + out, src + i, k);
		else
			snprintf(dst + out, 5, "\\x%02X",
				 (unsigned char)src[i]);
		out += k ? k : 4;
	}
	dst[out] = '\0';
	return dst;
}

char *text_dupn(const char *src, size_t n)
{
	size_t len = strnlen(src, n);
	char *s;

	if (text_is_utf8(src, len))
		return strndup(src, len);
	s = malloc(len * 4 + 1);
	if (!s) {
		errno = ENOMEM;
		return NULL;
	}
	return text_from_bytes(s, len * 4 + 1, src, len);
}

char *text_dup(const char *src)
{
	return text_dupn(src, strlen(src));
}

char *text_trim(char *s)
{
	size_t n = strlen(s);
	uint32_t cp;

	for (size_t k = 1; k <= 3 && k <= n; k++) {
		unsigned char c = (unsigned char)s[n - k];

		if (c < 0x80)
			break;
		if (c >= 0xc0) {
			if (!text_utf8_char(s + n - k, k, &cp))
				s[n - k] = '\0';
			break;
		}
	}
	return s;
}

bool text_term_unsafe(uint32_t cp)
{
	return cp < 0x20 || (cp >= 0x7f && cp <= 0x9f) ||
	       (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069);
}

void text_term_each(const char *s, text_put_fn put, void *ctx)
{
	size_t i = 0, start = 0, n = s ? strlen(s) : 0, k;
	char esc[5];
	uint32_t cp;

	while (i < n) {
		k = text_utf8_char(s + i, n - i, &cp);
		if (k && !text_term_unsafe(cp)) {
			i += k;
			continue;
		}
		if (i > start)
			put(ctx, s + start, i - start);
		for (size_t j = 0; j < (k ? k : 1); j++) {
			snprintf(esc, sizeof(esc), "\\x%02X",
				 (unsigned char)s[i + j]);
			put(ctx, esc, 4);
		}
		i += k ? k : 1;
		start = i;
	}
	if (i > start)
		put(ctx, s + start, i - start);
}

static void put_file(void *ctx, const char *s, size_t n)
{
	fwrite(s, 1, n, ctx);
}

void text_term_fputs(const char *s, FILE *f)
{
	text_term_each(s, put_file, f);
}

struct grow {
	char *s;
	size_t len, cap;
	bool oom;
};

static void put_grow(void *ctx, const char *s, size_t n)
{
	struct grow *g = ctx;
	char *p;

	if (g->oom)
		return;
	if (g->len + n + 1 > g->cap) {
		g->cap = (g->len + n + 1) * 2;
		p = realloc(g->s, g->cap);
		if (!p) {
			g->oom = true;
			return;
		}
		g->s = p;
	}
	memcpy(g->s + g->len, s, n);
	g->len += n;
	g->s[g->len] = '\0';
}

char *text_term_dup(const char *s)
{
	struct grow g = { 0 };

	put_grow(&g, "", 0);
	text_term_each(s, put_grow, &g);
	if (g.oom) {
		free(g.s);
		errno = ENOMEM;
		return NULL;
	}
	return g.s;
}

void text_term_vfprintf(FILE *f, const char *fmt, va_list ap)
{
	char *msg = NULL;

	if (vasprintf(&msg, fmt, ap) < 0) {
		fputs("(out of memory)", f);
		return;
	}
	text_term_fputs(msg, f);
	free(msg);
}

void text_term_fprintf(FILE *f, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	text_term_vfprintf(f, fmt, ap);
	va_end(ap);
}
