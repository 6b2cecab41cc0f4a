/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* The name index: a small hash of the names some lookup will ask for. */
#ifndef BTF2BTF_NAME_INDEX_H
#define BTF2BTF_NAME_INDEX_H

#include <linux/types.h>
#include <stdbool.h>
#include <stddef.h>

#include "util/arena.h"


/* The hash of len bytes of s: the library's one string hash. */
__u32 b2b_hash_str(const char *s, size_t len);

/*
 * The names some lookup will ask for, registered first
 * (b2b_name_index_want()): a small hash of those names, filled by one scan
 * of a BTF's types (b2b_name_index_scan() in kfuncs.h: the types bearing them) or
 * looked up while scanning its strings (b2b_name_index_number()). Indexing every name
 * of a vmlinux instead cost more than reading its BTF (a cache miss per
 * type), and most of the names are never asked for.
 */
struct b2b_name_want {
	const char *name;	/* in the index's arena, or borrowed */
	__u32 len;
	__u32 hash;
	__u32 func_id;		/* lowest FUNC of that name, 0: none */
	__u32 any_id;		/* lowest type of any kind */
};

struct b2b_name_slot {
	__u32 want;		/* index into want[] + 1, 0: empty */
	__u32 hash;		/* of its name: most probes skip want[] */
};

struct b2b_name_index {
	struct b2b_name_want *want;
	size_t nr, cap;
	struct b2b_name_slot *slots;	/* open addressing, linear probing */
	size_t mask;
	__u64 filter[64];	/* bit first byte % 64 of word length % 64 */
	__u64 first[4];		/* bit per first byte: tested before a length is taken */
	struct b2b_arena arena;	/* the names */
};

/* Room for nr names without growing (idx zeroed before the first call). */
int b2b_name_index_reserve(struct b2b_name_index *idx, size_t nr);
/* Register a name to look up (idx zeroed before the first call); borrow:
 * name outlives idx (a set8 entry's), no copy is made. Returns the name's
 * number (> 0, for b2b_name_index_found()), 0 for a name never found (empty),
 * or -ENOMEM. */
int b2b_name_index_want(struct b2b_name_index *idx, const char *name, bool borrow);
/* Record, for every registered name, its lowest FUNC and lowest type of btf. */
void b2b_name_index_free(struct b2b_name_index *idx);
/* The lowest FUNC (kind BTF_KIND_FUNC) or type of any kind (kind < 0) named
 * name, 0 if none. A name never registered is never found. */
__u32 b2b_name_index_find(const struct b2b_name_index *idx, const char *name, int kind);
/* The number b2b_name_index_want() gave name[0, len) (len > 0), 0 if never registered. */
int b2b_name_index_number(const struct b2b_name_index *idx, const char *name, size_t len);
/* Whether a name starting with byte c can be registered: scans over many
 * names test it before they take a name's length (strlen). */
static inline bool b2b_name_index_may_start(const struct b2b_name_index *idx, unsigned char c)
{
	return idx->first[c >> 6] >> (c & 63) & 1;
}
/* The same by the number b2b_name_index_want() gave: no hash, no probe. */
__u32 b2b_name_index_found(const struct b2b_name_index *idx, int want, int kind);

#endif /* BTF2BTF_NAME_INDEX_H */
