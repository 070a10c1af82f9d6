/* SPDX-License-Identifier: MIT */
#ifndef IBPROOF_COMMON_HASHMAP_H
#define IBPROOF_COMMON_HASHMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * The one hash map: 64-bit keys to 64-bit values, open addressing with
 * linear probing, at most half full. A zeroed struct is an empty map;
 * every key may be stored, 0 included. Keys are GUIDs, indexes or hashes
 * (hash_str()); common/strtab.h builds string tables on it.
 */
struct hashmap_slot {
	uint64_t key; /* 0: empty (key 0 lives in zero_val) */
	uint64_t val;
};

struct hashmap {
	struct hashmap_slot *slots;
	size_t cap, n; /* cap: 0 or a power of two */
	bool has_zero;
	uint64_t zero_val;
};

/* Stores val under key, replacing what was there; 0 or -ENOMEM. */
int hashmap_put(struct hashmap *m, uint64_t key, uint64_t val);
/* Frees the slots and leaves an empty map. */
void hashmap_free(struct hashmap *m);

/* A well-mixed 64-bit hash of an integer (murmur3's finaliser). */
static inline uint64_t hash_u64(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ULL;
	return x ^ (x >> 33);
}

/* The slot holding key (not 0), or the empty slot where it would go. */
static inline struct hashmap_slot *hashmap_slot_of(struct hashmap_slot *slots,
						   size_t cap, uint64_t key)
{
	size_t i = hash_u64(key) & (cap - 1);

	while (slots[i].key && slots[i].key != key)
		i = (i + 1) & (cap - 1);
	return &slots[i];
}

/*
 * Whether key is there; if so its value into *val (val may be NULL).
 * Inline: the report looks up two ports per pair record, millions of times.
 */
static inline bool hashmap_get(const struct hashmap *m, uint64_t key,
			       uint64_t *val)
{
	const struct hashmap_slot *s;

	if (!key || !m->cap) {
		if (!key && m->has_zero && val)
			*val = m->zero_val;
		return !key && m->has_zero;
	}
	s = hashmap_slot_of(m->slots, m->cap, key);
	if (s->key && val)
		*val = s->val;
	return s->key;
}

/*
 * FNV-1a of s continued from h (0: start afresh), ending in a separator so
 * that hash_str(hash_str(0, "ab"), "c") differs from that of "a", "bc".
 */
static inline uint64_t hash_str(uint64_t h, const char *s)
{
	if (!h)
		h = 1469598103934665603ULL;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ULL;
	return (h ^ 0xff) * 1099511628211ULL;
}

#endif
