// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Stage 4 of the pipeline (open -> plan -> edit -> post-passes -> write): sort.
 *
 * Sort by name, as 7.3's resolve_btfids does (sort_btf_by_name): the
 * kernel's btf_find_by_name_kind() binary-searches vmlinux BTF from the
 * first named type on (btf_check_sorted()), so this order is part of the
 * format 7.3 expects, not cosmetics.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "passes/btf_post.h"

/* 8 bytes: the keys are the sort's memory, sorted in place; 4 name bytes
 * each, the names read again past them. */
struct sort_key {
	__u32 prefix;		/* PREFIX bytes of the name from the key's depth, big-endian, 0-padded */
	__u32 id : 31;		/* type ids are below 2^31 (checked) */
	__u32 short_name : 1;	/* the name ends within the prefix */
};

/* The name bytes a key holds; its digits are those and then the id's 4. */
#define PREFIX		4
#define LEVELS		(PREFIX + 4)

/* qsort_r()'s context: keys of one run share their first depth name bytes */
struct run_ctx {
	const struct b2b_btf *r;
	size_t depth;
};

/* Below this many keys, qsort() beats counting 256 buckets a byte. */
#define SMALL_RUN 64

static void set_prefix(struct sort_key *k, const char *name)
{
	int j;

	k->prefix = 0;
	for (j = 0; j < PREFIX && name[j]; j++)
		k->prefix |= (__u32)(unsigned char)name[j] << (8 * (PREFIX - 1 - j));
	k->short_name = j < PREFIX;
}

static const char *key_name(const struct b2b_btf *r, const struct sort_key *k)
{
	return b2b_btf_name(r, b2b_btf_own_type(r, k->id));
}

/* By name from the run's depth, then by id. (Equal prefixes: both names
 * end within them, or neither does.) */
static int cmp_keys(const void *pa, const void *pb, void *ctx)
{
	const struct sort_key *a = pa, *b = pb;
	const struct run_ctx *c = ctx;

	if (a->prefix != b->prefix)
		return a->prefix < b->prefix ? -1 : 1;
	if (!a->short_name) {
		int d = strcmp(key_name(c->r, a) + c->depth + PREFIX,
				   key_name(c->r, b) + c->depth + PREFIX);

		if (d)
			return d;
	}
	return a->id < b->id ? -1 : a->id > b->id;
}

/*
 * The key's digit at a level: the prefix's bytes (levels 0 to PREFIX - 1),
 * most significant first; then, past a name that ends within the prefix,
 * the id's 4 bytes: the sort is not stable, so equal names go by id this way.
 */
static unsigned int digit(const struct sort_key *k, unsigned int level)
{
	if (level < PREFIX)
		return (k->prefix >> (8 * (PREFIX - 1 - level))) & 0xff;
	return (k->id >> (8 * (LEVELS - 1 - level))) & 0xff;
}

/*
 * The first level from level on whose digit is not the same in all of
 * keys[0..nr): one pass over the keys instead of one a level. Names that
 * share many bytes ("bpf_synth_kfunc_", decl tags of one name) skip those
 * in one go.
 */
static unsigned int first_differing_level(const struct sort_key *keys, __u32 nr,
					  unsigned int level)
{
	__u32 diff = 0, id_diff = 0;

	if (level < PREFIX) {
		for (__u32 i = 1; i < nr; i++)
			diff |= keys[i].prefix ^ keys[0].prefix;
		diff &= ~0U >> (8 * level);	/* the digits above level are shared */
		if (diff)
			return __builtin_clz(diff) / 8;
		level = PREFIX;
	}
	if (!keys[0].short_name)
		return PREFIX;	/* the prefix is used up: the next bytes */
	for (__u32 i = 1; i < nr; i++)
		id_diff |= keys[i].id ^ keys[0].id;
	id_diff &= ~0U >> (8 * (level - PREFIX));
	return id_diff ? PREFIX + __builtin_clz(id_diff) / 8 : LEVELS;
}

/* Bucket d (lo <= d <= hi) is keys bounds[d] .. bounds[d + 1]. */
struct buckets {
	__u32 bounds[257];
	unsigned int lo, hi;
};

/*
 * keys[0..nr) into 256 buckets of the level's digit, in place (American
 * flag sort). Only the digits present are walked: a few letters or id
 * bytes in most runs, not 256.
 */
static void split(struct sort_key *keys, __u32 nr, unsigned int level, struct buckets *b)
{
	__u32 count[256] = { 0 }, next[256], *bounds = b->bounds;
	unsigned int lo = 255, hi = 0;

	for (__u32 i = 0; i < nr; i++) {
		unsigned int d = digit(&keys[i], level);

		count[d]++;
		lo = d < lo ? d : lo;
		hi = d > hi ? d : hi;
	}
	b->lo = lo;
	b->hi = hi;
	bounds[lo] = 0;
	for (unsigned int d = lo; d <= hi; d++) {
		next[d] = bounds[d];
		bounds[d + 1] = bounds[d] + count[d];
	}
	for (unsigned int d = lo; d <= hi; d++) {
		while (next[d] < bounds[d + 1]) {
			struct sort_key k = keys[next[d]];
			unsigned int kd = digit(&k, level);

			while (kd != d) {	/* follow the cycle */
				struct sort_key t = keys[next[kd]];

				keys[next[kd]++] = k;
				k = t;
				kd = digit(&k, level);
			}
			keys[next[d]++] = k;
		}
	}
}

/*
 * keys[0..nr) of one name (equal in all but the id) put in id order: the
 * ids marked in a bitmap and read back in order, when their range is
 * dense enough for that to be cheaper than radix passes (the decl tags of
 * one name in a big BTF). false: not done, the radix sort goes on.
 */
static bool ids_in_order(struct sort_key *keys, __u32 nr)
{
	__u32 lo = keys[0].id, hi = keys[0].id, n = 0;
	__u64 *bits, words;

	for (__u32 i = 1; i < nr; i++) {
		lo = keys[i].id < lo ? keys[i].id : lo;
		hi = keys[i].id > hi ? keys[i].id : hi;
	}
	words = ((__u64)hi - lo) / 64 + 1;
	if (words > 4 * (__u64)nr)
		return false;
	bits = b2b_calloc(words, sizeof(*bits));
	if (!bits)
		return false;	/* the radix passes need no memory */
	for (__u32 i = 0; i < nr; i++)
		bits[(keys[i].id - lo) / 64] |= 1ULL << ((keys[i].id - lo) % 64);
	for (__u64 w = 0; w < words; w++)
		for (__u64 m = bits[w]; m; m &= m - 1)
			keys[n++].id = lo + w * 64 + __builtin_ctzll(m);
	free(bits);
	return true;
}

/*
 * keys[0..nr), sharing their first depth name bytes and the digits above
 * level, sorted by name then id: a most-significant-digit radix sort, in
 * place. A run whose prefix is used up among longer names takes the next
 * PREFIX bytes. Every bucket but the biggest is sorted by a call (at most half
 * the keys: the calls nest at most log2(nr) deep), the biggest by the loop.
 * qsort() with strcmp over a vmlinux (130,000 names, many sharing "bpf_" or
 * "__x64_sys") cost more than reading and writing the BTF.
 */
static void sort_run(const struct b2b_btf *r, struct sort_key *keys, __u32 nr, size_t depth,
		     unsigned int level)
{
	for (;;) {
		struct buckets b;
		unsigned int big;

		if (nr < SMALL_RUN || level == LEVELS) {
			struct run_ctx c = { r, depth };

			if (nr > 1)
				qsort_r(keys, nr, sizeof(*keys), cmp_keys, &c);
			return;
		}
		level = first_differing_level(keys, nr, level);
		if (level == LEVELS)
			return;	/* no digit differs: equal keys (ids are unique: none) */
		if (level >= PREFIX && keys[0].short_name && ids_in_order(keys, nr))
			return;
		if (level == PREFIX && !keys[0].short_name) {
			/* one prefix, longer names: the next bytes */
			depth += PREFIX;
			for (__u32 i = 0; i < nr; i++)
				set_prefix(&keys[i], key_name(r, &keys[i]) + depth);
			level = 0;
			continue;
		}
		split(keys, nr, level, &b);	/* the digits differ: two buckets or more */
		big = b.lo;
		for (unsigned int d = b.lo + 1; d <= b.hi; d++)
			if (b.bounds[d + 1] - b.bounds[d] > b.bounds[big + 1] - b.bounds[big])
				big = d;
		for (unsigned int d = b.lo; d <= b.hi; d++)
			if (d != big && b.bounds[d + 1] - b.bounds[d] > 1)
				sort_run(r, keys + b.bounds[d], b.bounds[d + 1] - b.bounds[d], depth,
					 level + 1);
		keys += b.bounds[big];
		nr = b.bounds[big + 1] - b.bounds[big];
		level++;
	}
}

int b2b_sort_by_name(const void *data, size_t size, const struct b2b_btf *base,
		     struct b2b_pass_out *out)
{
	struct sort_key *keys = NULL;
	struct b2b_btf r;
	__u32 *map = NULL, cnt, start, nr = 0, nr_anon = 0, pos = 0;
	bool identity = true;
	char *types;
	int err;

	memset(out, 0, sizeof(*out));
	err = b2b_btf_open(&r, data, size, base);
	if (err)
		return err;
	start = r.start_id;
	cnt = b2b_btf_type_cnt(&r);
	if (cnt > 1U << 31) {
		err = -E2BIG;
		goto out;
	}
	keys = b2b_malloc((size_t)r.nr * sizeof(*keys));
	map = b2b_malloc((size_t)cnt * sizeof(*map));
	if (!keys || !map) {
		err = -ENOMEM;
		goto out;
	}
	/* the anonymous types first, in id order: keys for the named ones only */
	for (__u32 i = 0; i < start; i++)
		map[i] = i;
	for (__u32 id = start; id < cnt; id++) {
		const char *name = b2b_btf_name(&r, b2b_btf_own_type(&r, id));

		if (!*name) {
			identity &= id == start + nr_anon;
			map[id] = start + nr_anon++;
			continue;
		}
		keys[nr].id = id;
		set_prefix(&keys[nr++], name);
	}
	sort_run(&r, keys, nr, 0, 0);	/* by name, ties by id; needs no memory */
	for (__u32 i = 0; i < nr; i++) {
		map[keys[i].id] = start + nr_anon + i;
		identity &= keys[i].id == start + nr_anon + i;
	}
	if (identity)
		goto out;	/* sorted already: unchanged, byte for byte */
	types = b2b_raw_alloc(&r, r.hdr.type_len, &out->data, &out->size);
	if (!types) {
		err = -ENOMEM;
		goto out;
	}
	for (__u32 i = 0, id = start; i < nr_anon + nr; i++) {
		const struct btf_type *t;
		__u32 len;

		if (i < nr_anon)	/* the next anonymous one */
			while (map[id] >= start + nr_anon)
				id++;
		t = b2b_btf_own_type(&r, i < nr_anon ? id++ : keys[i - nr_anon].id);
		len = b2b_type_words(t) * 4;
		memcpy(types + pos, t, len);
		b2b_type_remap((__u32 *)(types + pos), map, cnt);
		pos += len;
	}
	out->map = map;
	out->nr_map = cnt;
	map = NULL;
out:
	free(keys);
	free(map);
	b2b_btf_free(&r);
	return err;
}
