// SPDX-License-Identifier: MIT
/* array.c: growing arrays by doubling. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

#include "common/array.h"

int array_grow(void *arr, size_t *cap, size_t n, size_t size)
{
	void **p = arr, *v;
	size_t c = *cap ? *cap : ARRAY_MIN_CAP;

	while (c <= n && c <= SIZE_MAX / 2)
		c *= 2;
	if (c <= n || (size && c > SIZE_MAX / size))
		return -ENOMEM;
	v = realloc(*p, c * size);
	if (!v)
		return -ENOMEM;
	*p = v;
	*cap = c;
	return 0;
}
