// SPDX-License-Identifier: MIT
/* fabric_strtab.c: string -> long hash table for name and port lookups. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fabric_strtab.h"

static uint64_t str_hash(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 0x100000001b3ULL;
	return h;
}

static size_t find_slot(const struct fabric_strtab_slot *slots, size_t size,
			const char *key)
{
	size_t i = str_hash(key) & (size - 1);

	while (slots[i].key && strcmp(slots[i].key, key))
		i = (i + 1) & (size - 1);
	return i;
}

static int grow(struct fabric_strtab *t)
{
	size_t size = t->size ? t->size * 2 : 256, i, j;
	struct fabric_strtab_slot *slots = calloc(size, sizeof(*slots));

	if (!slots)
		return -ENOMEM;
	for (i = 0; i < t->size; i++) {
		if (!t->slots[i].key)
			continue;
		j = find_slot(slots, size, t->slots[i].key);
		slots[j] = t->slots[i];
	}
	free(t->slots);
	t->slots = slots;
	t->size = size;
	return 0;
}

long fabric_strtab_put(struct fabric_strtab *t, const char *key, long value)
{
	size_t i;

	if ((t->used + 1) * 2 > t->size && grow(t))
		return -ENOMEM;
	i = find_slot(t->slots, t->size, key);
	if (t->slots[i].key)
		return t->slots[i].value;
	t->slots[i].key = strdup(key);
	if (!t->slots[i].key)
		return -ENOMEM;
	t->slots[i].value = value;
	t->used++;
	return 0;
}

long *fabric_strtab_get(const struct fabric_strtab *t, const char *key)
{
	size_t i;

	if (!t->size)
		return NULL;
	i = find_slot(t->slots, t->size, key);
	return t->slots[i].key ? &t->slots[i].value : NULL;
}

void fabric_strtab_free(struct fabric_strtab *t)
{
	size_t i;

	for (i = 0; i < t->size; i++)
		free(t->slots[i].key);
	free(t->slots);
	t->slots = NULL;
	t->size = t->used = 0;
}
