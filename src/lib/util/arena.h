/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* String arenas: copies freed together, with the table that owns them. */
#ifndef BTF2BTF_ARENA_H
#define BTF2BTF_ARENA_H

#include <stddef.h>

#include "util/internal.h"

struct b2b_arena_block;

struct b2b_arena {
	struct b2b_arena_block *head;	/* zeroed: empty */
};

/* size bytes (not aligned: for strings), NULL when out of memory */
void *b2b_arena_alloc(struct b2b_arena *a, size_t size);
char *b2b_arena_strdup(struct b2b_arena *a, const char *s);
char *b2b_arena_strndup(struct b2b_arena *a, const char *s, size_t len);
/* Everything allocated from a; a is empty (and reusable) after. */
void b2b_arena_free(struct b2b_arena *a);

#endif /* BTF2BTF_ARENA_H */
