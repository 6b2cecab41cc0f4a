// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* Growable arrays: the one realloc-by-doubling every table here uses, and
 * the one search of a sorted uint32_t array. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

#include "util/internal.h"

int b2b_grow(void **arr, size_t *cap, size_t need, size_t elem)
{
	size_t n = *cap ? *cap * 2 : 64;
	void *p;

	if (need <= *cap)
		return 0;
	if (n < need)
		n = need;
	if (n > SIZE_MAX / elem)
		return -ENOMEM;
	p = b2b_realloc(*arr, n * elem);
	if (!p)
		return -ENOMEM;
	*arr = p;
	*cap = n;
	return 0;
}

size_t b2b_lower_bound_u32(const uint32_t *a, size_t n, uint32_t key)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (a[mid] < key)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}
