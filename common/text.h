/* SPDX-License-Identifier: MIT */
/*
 * text.h: strings from outside (NodeDescriptions, node-name-map, spec and
 * topology names, host names, RDMA device names) are bytes. They are made
 * valid UTF-8 once, where they enter: a byte that does not begin a
 * well-formed UTF-8 character is written "\xNN" (never dropped, never an
 * error), so the JSON library and every output format can take them.
 *
 * Terminal text is escaped when printed: C0 and C1 controls, DEL and the
 * bidi overrides (U+202A-U+202E, U+2066-U+2069) are written "\xNN" byte by
 * byte, so that a name cannot move the cursor, retitle the window or
 * reorder what the reader sees.
 */
#ifndef IBPROOF_COMMON_TEXT_H
#define IBPROOF_COMMON_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdarg.h>
#include <stdio.h>

/*
 * The length (1-4) of the well-formed UTF-8 character at s, which has n
 * bytes left, with its code point in *cp; 0 when s does not start one
 * (overlong forms, surrogates and values past U+10FFFF included).
 */
size_t text_utf8_char(const char *s, size_t n, uint32_t *cp);

/* Whether the n bytes at s are valid UTF-8. */
bool text_is_utf8(const char *s, size_t n);

/*
 * Writes the n bytes at src into dst (dstlen bytes, dstlen > 0) as valid
 * UTF-8, invalid bytes as "\xNN"; when dst is too small the text is cut
 * between two characters, never inside one or inside an escape. A NUL in
 * src ends it. Returns dst.
 */
char *text_from_bytes(char *dst, size_t dstlen, const char *src, size_t n);

/* text_from_bytes() into a new string: NULL with errno ENOMEM. */
char *text_dupn(const char *src, size_t n);
char *text_dup(const char *src);

/* Drops an incomplete character at the end of s, where snprintf() cut
 * text short. Returns s. */
char *text_trim(char *s);

/* Whether the character cp must not reach a terminal as it is. */
bool text_term_unsafe(uint32_t cp);

/*
 * The terminal escaper: calls put on the pieces of s with every unsafe
 * character (text_term_unsafe(), or a byte that is not valid UTF-8)
 * written "\xNN".
 */
typedef void (*text_put_fn)(void *ctx, const char *s, size_t n);
void text_term_each(const char *s, text_put_fn put, void *ctx);

/* text_term_each() to a stream. */
void text_term_fputs(const char *s, FILE *f);

/* The same into a new string: NULL with errno ENOMEM. */
char *text_term_dup(const char *s);

/* vfprintf() of fmt to f with the result through the terminal escaper. */
void text_term_vfprintf(FILE *f, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));
void text_term_fprintf(FILE *f, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif
