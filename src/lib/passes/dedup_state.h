/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * One dedup's state, shared by its hash path (btf_dedup_hash.c), its fold
 * mode (btf_dedup_fold.c, which looks types up through the hash path's
 * tables) and what decides between them (btf_dedup.c).
 */
#ifndef BTF2BTF_DEDUP_STATE_H
#define BTF2BTF_DEDUP_STATE_H

#include <stdbool.h>

#include "format/btf_raw.h"
#include "util/libbpf_compat.h"

/*
 * The base types an own type can equal, by base_key(). The keys known before
 * the matching (of the own types that refer to base types only) are wanted:
 * the base is scanned once for them and the few types that have one are
 * kept, sorted. A key learnt later (a candidate referring to a new type
 * found equal to a base type) has every base type indexed, once.
 */
struct base_index {
	__u32 *want;		/* wanted keys, open addressing: key, 0 empty */
	__u32 want_mask;	/* slots - 1 (a power of two) */
	bool want_zero;		/* key 0 is wanted */
	__u64 *pair_bits;	/* a filter on the first words (pair_hash()) */
	__u64 *found;		/* key << 32 | id: base types with a wanted key, sorted */
	__u32 nr_found;
	__u32 nr_walks;		/* lookups of a key not wanted, by a walk of the base */
	/* every base type, by bucket of key (built on demand) */
	__u32 shift;		/* bucket of a key: key >> shift */
	__u32 *start;		/* per bucket, its first entry; one more at the end */
	__u64 *ent;		/* key << 32 | id, by bucket */
};

struct dedup {
	struct b2b_btf r;
	__u32 first_new, cnt;
	__u32 *map;		/* id -> canonical id (before compaction) */
	unsigned char *state;	/* per id: CLEAN, CAND, BUSY, DONE */
	__u64 *old;		/* own old types: hash << 32 | id, sorted */
	__u32 nr_old;
	__u32 *slots;		/* candidates matched, open addressing: id + 1, 0 empty */
	__u32 nr_slots;
	__u32 kinds;		/* bit per kind of the own types */
	struct base_index base;
	/* fold mode (btf_dedup_fold.c): btf__dedup()'s phases on the model */
	bool fold;
	__u64 *named;		/* name hash << 32 | id: base types matched by name */
	__u32 nr_named;
	__u64 *own_named;	/* the same of the own types */
	__u32 nr_own_named;
	__u32 *hypot;		/* the graph comparison's hypotheses: id -> id */
	__u32 *hypot_list, nr_hypot;
	bool adjust_base;	/* the comparison met a base FWD for an own struct */
	__u32 *cands;		/* named_cands()'s */
	__u32 nr_cands;
	size_t cands_cap;
	enum b2b_typedef_dedup typedef_way;	/* the running libbpf's */
	__u32 *str_map;		/* own string offset - base_str_len -> new offset */
	char *strs;		/* the own strings, as btf__dedup() rebuilds them */
	__u32 str_len;
};

enum { CLEAN, CAND, BUSY, DONE };

static inline const struct btf_type *type_of(const struct dedup *d, __u32 id)
{
	return b2b_btf_type_by_id(&d->r, id);
}

/* Fold mode: a string's offset as btf__dedup() compares them, after its
 * string phase (fold_strings()). */
static inline __u32 canon_str(const struct dedup *d, __u32 off)
{
	return off < d->r.base_str_len ? off : d->str_map[off - d->r.base_str_len];
}

/* Whether a equals b, their type ids read through d->map (names by content,
 * or in fold mode by canon_str()). */
bool b2b_dedup_equal(const struct dedup *d, const struct btf_type *a, const struct btf_type *b);
/* *other: the type equal to id (a base type, or an own one met before),
 * else 0 and id is met; 1: two base types are equal to it. */
int b2b_dedup_lookup(struct dedup *d, __u32 id, __u32 *other);
/* The first of the n entries of a (key << 32 | id, sorted) with key >= key. */
__u32 b2b_first_of_key(const __u64 *a, __u32 n, __u32 key);
/* qsort() order of __u64s */
int b2b_cmp_u64(const void *a, const void *b);

/* The hash path: 0 with d->map the new types' equals (*changed), 1 when
 * it cannot decide, < 0 error. */
int b2b_dedup_match(struct dedup *d, bool *changed);
/* Fold mode: 0 with every own type of d resolved in d->map and the strings
 * rebuilt (*changed), 1 when btf__dedup() has to decide, < 0 error. */
int b2b_dedup_fold(struct dedup *d, bool *changed);

#endif /* BTF2BTF_DEDUP_STATE_H */
