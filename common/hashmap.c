// SPDX-License-Identifier: MIT
/* hashmap.c: 64-bit keys to 64-bit values, open addressing. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/hashmap.h"

#define HASHMAP_MIN_CAP 256

static int grow(struct hashmap *m)
{
	size_t cap = m->cap ? 2 * m->cap : HASHMAP_MIN_CAP;
	struct hashmap_slot *slots = calloc(cap, sizeof(*slots));

	if (!slots)
		return -ENOMEM;
	for (size_t i = 0; i < m->cap; i++) {
		const struct hashmap_slot *s = &m->slots[i];

		if (s->key)
			*hashmap_slot_of(slots, cap, s->key) = *s;
	}
	free(m->slots);
	m->slots = slots;
	m->cap = cap;
	return 0;
}

int hashmap_put(struct hashmap *m, uint64_t key, uint64_t val)
{
	struct hashmap_slot *s;

	if (!key) {
		m->has_zero = true;
		m->zero_val = val;
		return 0;
	}
	if (2 * (m->n + 1) > m->cap && grow(m))
		return -ENOMEM;
	s = hashmap_slot_of(m->slots, m->cap, key);
	if (!s->key) {
		s->key = key;
		m->n++;
	}
	s->val = val;
	return 0;
}

void hashmap_free(struct hashmap *m)
{
	free(m->slots);
	memset(m, 0, sizeof(*m));
}
