// SPDX-License-Identifier: MIT
/* strtab.c: interned strings with a value each, on common/hashmap. */
#include <errno.h>
#include <stdalign.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/strtab.h"

#define STRTAB_CHUNK (64 * 1024)

struct strtab_entry {
	long value;
	char s[];
};

struct strtab_chunk {
	struct strtab_chunk *next;
	size_t used, size;
	alignas(max_align_t) char data[];
};

static struct strtab_entry *entry_new(struct strtab *t, const char *s,
				      long value)
{
	size_t len = strlen(s) + 1, need;
	struct strtab_chunk *c = t->chunks;
	struct strtab_entry *e;

	need = sizeof(*e) + len;
	need = (need + alignof(struct strtab_entry) - 1) &
	       ~(alignof(struct strtab_entry) - 1);
	if (!c || c->size - c->used < need) {
		size_t size = need > STRTAB_CHUNK ? need : STRTAB_CHUNK;

		c = malloc(sizeof(*c) + size);
		if (!c)
			return NULL;
		c->size = size;
		c->used = 0;
		c->next = t->chunks;
		t->chunks = c;
	}
	e = (struct strtab_entry *)(c->data + c->used);
	c->used += need;
	e->value = value;
	memcpy(e->s, s, len);
	return e;
}

/*
 * The entry of s, or NULL with *free_key the map key where it would go.
 * Map keys are string hashes; two strings with one hash (rare: 64 bits)
 * take the next free key after it. Entries are never removed, so a
 * search can stop at the first free key.
 */
static struct strtab_entry *find(const struct strtab *t, const char *s,
				 uint64_t *free_key)
{
	uint64_t k = hash_str(0, s), v;
	struct strtab_entry *e;

	for (;; k++) {
		if (!hashmap_get(&t->by_hash, k, &v))
			break;
		e = (struct strtab_entry *)(uintptr_t)v;
		if (!strcmp(e->s, s))
			return e;
	}
	*free_key = k;
	return NULL;
}

/* The entry of s, added with value if new (*added then true); NULL. */
static struct strtab_entry *lookup_add(struct strtab *t, const char *s,
				       long value, bool *added)
{
	uint64_t k;
	struct strtab_entry *e = find(t, s, &k);

	*added = !e;
	if (e)
		return e;
	e = entry_new(t, s, value);
	if (!e)
		return NULL;
	if (hashmap_put(&t->by_hash, k, (uint64_t)(uintptr_t)e))
		return NULL; /* e stays in the arena, unreachable */
	t->n++;
	return e;
}

long strtab_put(struct strtab *t, const char *s, long value)
{
	bool added;
	struct strtab_entry *e = lookup_add(t, s, value, &added);

	if (!e)
		return -ENOMEM;
	return added ? 0 : e->value;
}

long *strtab_get(const struct strtab *t, const char *s)
{
	uint64_t k;
	struct strtab_entry *e = find(t, s, &k);

	return e ? &e->value : NULL;
}

const char *strtab_intern(struct strtab *t, const char *s)
{
	struct strtab_entry *e;
	bool added;

	if (!s)
		return NULL;
	e = lookup_add(t, s, 0, &added);
	return e ? e->s : NULL;
}

void strtab_free(struct strtab *t)
{
	while (t->chunks) {
		struct strtab_chunk *c = t->chunks;

		t->chunks = c->next;
		free(c);
	}
	hashmap_free(&t->by_hash);
	t->n = 0;
}
