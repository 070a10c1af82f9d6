/* SPDX-License-Identifier: MIT */
/* fabric_strtab.h: a small string -> long hash table (open addressing). */
#ifndef IBPROOF_FABRIC_STRTAB_H
#define IBPROOF_FABRIC_STRTAB_H

#include <stddef.h>

struct fabric_strtab_slot {
	char *key;
	long value;
};

struct fabric_strtab {
	struct fabric_strtab_slot *slots;
	size_t size, used;
};

/* Inserts key if absent and returns 0; returns the stored value (> 0
 * values only, by convention) if the key exists; -ENOMEM on failure. */
long fabric_strtab_put(struct fabric_strtab *t, const char *key, long value);
/* Pointer to the stored value, or NULL. */
long *fabric_strtab_get(const struct fabric_strtab *t, const char *key);
void fabric_strtab_free(struct fabric_strtab *t);

#endif
