// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The name index (name_index.h): the names some lookup will ask for,
 * found by one scan of a BTF's types or strings.
 */
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/btf_info.h"
#include "util/name_index.h"

/* 8 bytes at a time: names average ~20 bytes, a byte loop costs more than the probe */
__u32 b2b_hash_str(const char *s, size_t len)
{
	const __u64 k = 0x9e3779b97f4a7c15ULL;
	__u64 h = len * k, w;

	for (; len >= 8; s += 8, len -= 8) {
		memcpy(&w, s, 8);
		h = (h ^ w) * k;
		h ^= h >> 32;
	}
	w = 0;
	memcpy(&w, s, len);
	h = (h ^ w) * k;
	return (__u32)(h ^ (h >> 29) ^ (h >> 32));
}

/* Cheap first test of a name: its length and first byte, both mod 64. */
static bool filter_has(const struct b2b_name_index *idx, const char *name, size_t len)
{
	return idx->filter[len & 63] & (1ULL << (name[0] & 63));
}

/* First slot of hash: its high bits, so that names alike in their last bytes spread. */
static size_t first_slot(const struct b2b_name_index *idx, __u32 hash)
{
	return ((__u64)hash * (idx->mask + 1)) >> 32;
}

/* The slot of name: its entry's, or the empty one where it goes. */
static struct b2b_name_slot *slot_of(const struct b2b_name_index *idx, const char *name,
				     size_t len, __u32 hash)
{
	for (size_t h = first_slot(idx, hash);; h = (h + 1) & idx->mask) {
		struct b2b_name_slot *slot = &idx->slots[h];
		const struct b2b_name_want *w;

		if (!slot->want)
			return slot;
		if (slot->hash != hash)
			continue;	/* most probes end here, without touching want[] */
		w = &idx->want[slot->want - 1];
		if (w->len == len && !memcmp(w->name, name, len))
			return slot;
	}
}

/* At least size slots (a power of 2), the names rehashed. */
static int grow_slots(struct b2b_name_index *idx, size_t size)
{
	struct b2b_name_slot *slots = b2b_calloc(size, sizeof(*slots));

	if (!slots)
		return -ENOMEM;
	free(idx->slots);
	idx->slots = slots;
	idx->mask = size - 1;
	for (size_t i = 0; i < idx->nr; i++) {
		const struct b2b_name_want *w = &idx->want[i];
		struct b2b_name_slot *slot = slot_of(idx, w->name, w->len, w->hash);

		slot->want = i + 1;
		slot->hash = w->hash;
	}
	return 0;
}

int b2b_name_index_reserve(struct b2b_name_index *idx, size_t nr)
{
	size_t size = 64;

	while (size < 2 * nr)
		size *= 2;
	if (size > idx->mask + 1 && grow_slots(idx, size))
		return -ENOMEM;
	return b2b_grow((void **)&idx->want, &idx->cap, nr, sizeof(*idx->want));
}

int b2b_name_index_want(struct b2b_name_index *idx, const char *name, bool borrow)
{
	size_t len = strlen(name);
	__u32 hash = b2b_hash_str(name, len);
	struct b2b_name_slot *slot;
	struct b2b_name_want *w;

	if (!len || len > UINT32_MAX || idx->nr >= INT_MAX)
		return 0;
	if (2 * (idx->nr + 1) > idx->mask + 1 &&
	    grow_slots(idx, idx->mask ? 2 * (idx->mask + 1) : 64))
		return -ENOMEM;
	slot = slot_of(idx, name, len, hash);
	if (slot->want)
		return slot->want;
	if (b2b_grow((void **)&idx->want, &idx->cap, idx->nr + 1, sizeof(*idx->want)))
		return -ENOMEM;
	w = &idx->want[idx->nr];
	memset(w, 0, sizeof(*w));
	w->name = borrow ? name : b2b_arena_strndup(&idx->arena, name, len);
	if (!w->name)
		return -ENOMEM;
	w->len = len;
	w->hash = hash;
	slot->want = ++idx->nr;
	slot->hash = hash;
	idx->filter[len & 63] |= 1ULL << (name[0] & 63);
	idx->first[(unsigned char)name[0] >> 6] |= 1ULL << ((unsigned char)name[0] & 63);
	return slot->want;
}

void b2b_name_index_free(struct b2b_name_index *idx)
{
	b2b_arena_free(&idx->arena);
	free(idx->want);
	free(idx->slots);
	memset(idx, 0, sizeof(*idx));
}

int b2b_name_index_number(const struct b2b_name_index *idx, const char *name, size_t len)
{
	if (!idx->nr || !filter_has(idx, name, len))
		return 0;
	return slot_of(idx, name, len, b2b_hash_str(name, len))->want;
}

__u32 b2b_name_index_find(const struct b2b_name_index *idx, const char *name, int kind)
{
	size_t len = strlen(name);

	return len ? b2b_name_index_found(idx, b2b_name_index_number(idx, name, len), kind) : 0;
}

__u32 b2b_name_index_found(const struct b2b_name_index *idx, int want, int kind)
{
	if (want <= 0 || (size_t)want > idx->nr)
		return 0;
	return kind == BTF_KIND_FUNC ? idx->want[want - 1].func_id : idx->want[want - 1].any_id;
}
