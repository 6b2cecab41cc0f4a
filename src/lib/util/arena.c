// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * String arenas: names (kfuncs, set8 entries, lookups) copied into blocks
 * freed all at once, instead of a malloc (its header and rounding) and a
 * free per name.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util/arena.h"

#define BLOCK_MIN (64 * 1024 - sizeof(struct b2b_arena_block))

struct b2b_arena_block {
	struct b2b_arena_block *next;
	size_t used, size;
	char data[];
};

void *b2b_arena_alloc(struct b2b_arena *a, size_t size)
{
	struct b2b_arena_block *blk = a->head;

	if (!blk || blk->size - blk->used < size) {
		size_t cap = size > BLOCK_MIN ? size : BLOCK_MIN;

		blk = b2b_malloc(sizeof(*blk) + cap);
		if (!blk)
			return NULL;
		blk->used = 0;
		blk->size = cap;
		/* a block bigger than the rest goes behind the head: the head keeps its room */
		if (a->head && cap > BLOCK_MIN) {
			blk->next = a->head->next;
			a->head->next = blk;
		} else {
			blk->next = a->head;
			a->head = blk;
		}
	}
	blk->used += size;
	return blk->data + blk->used - size;
}

char *b2b_arena_strndup(struct b2b_arena *a, const char *s, size_t len)
{
	char *p = b2b_arena_alloc(a, len + 1);

	if (p) {
		memcpy(p, s, len);
		p[len] = '\0';
	}
	return p;
}

char *b2b_arena_strdup(struct b2b_arena *a, const char *s)
{
	return b2b_arena_strndup(a, s, strlen(s));
}

void b2b_arena_free(struct b2b_arena *a)
{
	while (a->head) {
		struct b2b_arena_block *next = a->head->next;

		free(a->head);
		a->head = next;
	}
}
