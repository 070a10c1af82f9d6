/* SPDX-License-Identifier: MIT */
#ifndef IBPROOF_COMMON_STRTAB_H
#define IBPROOF_COMMON_STRTAB_H

#include <stddef.h>

#include "common/hashmap.h"

/*
 * The one string table: interned strings, each with a long value. Equal
 * strings share one copy, kept in an arena and freed with the table. A
 * zeroed struct is an empty table. Built on common/hashmap.h (string hash
 * -> entry).
 */
struct strtab_chunk;

struct strtab {
	struct hashmap by_hash;
	struct strtab_chunk *chunks;
	size_t n;
};

/*
 * Adds s with value if absent and returns 0; returns the stored value if
 * s is there (store values > 0 to tell the two apart); -ENOMEM.
 */
long strtab_put(struct strtab *t, const char *s, long value);
/* Pointer to the value stored with s, or NULL if s is absent. */
long *strtab_get(const struct strtab *t, const char *s);
/* The table's copy of s, added (value 0) if new; NULL: s NULL or ENOMEM. */
const char *strtab_intern(struct strtab *t, const char *s);
void strtab_free(struct strtab *t);

#endif
