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
	struct strtab_entry *next;	/* same hash, other string */
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

static struct strtab_entry *chain(const struct strtab *t, uint64_t h)
{
	uint64_t v;

	return hashmap_get(&t->by_hash, h, &v) ?
		       (struct strtab_entry *)(uintptr_t)v : NULL;
}

static struct strtab_entry *find(const struct strtab *t, const char *s,
				 uint64_t h)
{
	struct strtab_entry *e;

	for (e = chain(t, h); e; e = e->next)
		if (!strcmp(e->s, s))
			return e;
	return NULL;
}

/* The entry of s, added with value if new (*added then true); NULL. */
static struct strtab_entry *lookup_add(struct strtab *t, const char *s,
				       long value, bool *added)
{
	uint64_t h = hash_str(0, s);
	struct strtab_entry *e = find(t, s, h);

	*added = !e;
	if (e)
		return e;
	e = entry_new(t, s, value);
	if (!e)
		return NULL;
	e->next = chain(t, h);
	if (hashmap_put(&t->by_hash, h, (uint64_t)(uintptr_t)e))
		return NULL;	/* e stays in the arena, unreachable */
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
	struct strtab_entry *e = find(t, s, hash_str(0, s));

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
