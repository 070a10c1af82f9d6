/* SPDX-License-Identifier: MIT */
#ifndef IBPROOF_COMMON_ARRAY_H
#define IBPROOF_COMMON_ARRAY_H

#include <stddef.h>

#define ARRAY_MIN_CAP 64

/* array_reserve() when there is no room: grows *arr, see below. */
int array_grow(void *arr, size_t *cap, size_t n, size_t size);

/*
 * The one array grower: makes room in *arr (a pointer to the array
 * pointer) for element n of size bytes, doubling the capacity *cap
 * (first ARRAY_MIN_CAP); 0 or -ENOMEM, *arr and *cap unchanged then.
 * Inline for the test that there is room: pairs are added millions of
 * times.
 */
static inline int array_reserve(void *arr, size_t *cap, size_t n, size_t size)
{
	return n < *cap ? 0 : array_grow(arr, cap, n, size);
}

#endif
