// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Stage 4 of the pipeline (open -> plan -> edit -> post-passes -> write):
 * dedup's hash path.
 *
 * 7.3's resolve_btfids runs btf__dedup() on the whole BTF; its input is
 * pahole's output, deduplicated already, so only what the transform
 * appended (FUNCs, FUNC_PROTOs, decl and type tags, pointers) and the old
 * types now pointing at it can have an equal. Those are matched by hash
 * against the old types of the same kinds, as btf__dedup()'s reference-type
 * phase would match them. The lookups serve the fold mode too
 * (btf_dedup_fold.c).
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "passes/dedup_state.h"
#include "util/internal.h"
#include "util/name_index.h"

/* Kinds btf__dedup() matches by content alone (its reference-type phase). */
static bool hash_matched_kind(__u16 kind)
{
	switch (kind) {
	case BTF_KIND_PTR: case BTF_KIND_CONST: case BTF_KIND_VOLATILE: case BTF_KIND_RESTRICT:
	case BTF_KIND_FUNC: case BTF_KIND_TYPE_TAG: case BTF_KIND_DECL_TAG: case BTF_KIND_ARRAY:
	case BTF_KIND_FUNC_PROTO:
		return true;
	default:
		return false;
	}
}

#define PAIR_BITS 16

static __u32 hash_type(const struct dedup *d, const struct btf_type *t)
{
	const __u32 *w = (const __u32 *)t;
	__u32 h = 2166136261u;
	const char *str;

	for (struct b2b_words it = b2b_words(t, 0); b2b_words_next(&it); ) {
		switch (it.cls) {
		case B2B_W_STR:
			str = b2b_btf_str(&d->r, w[it.i]) ?: "";
			h = (h ^ b2b_hash_str(str, strlen(str))) * 16777619u;
			break;
		case B2B_W_REF:
			h = (h ^ d->map[w[it.i]]) * 16777619u;
			break;
		default:
			h = (h ^ w[it.i]) * 16777619u;
		}
	}
	return h;
}

/* Base type id (< d->r.start_id) of the walks over the base: its own
 * types through the index, inline; those of its bases as type_of(). */
static const struct btf_type *base_type(const struct dedup *d, __u32 id)
{
	const struct b2b_btf *base = d->r.base;

	return id >= base->start_id ? b2b_btf_own_type(base, id) : type_of(d, id);
}

/* Words of a type its base key reads: enough to tell most types apart. */
#define KEY_WORDS 8

/*
 * The base index's key: the type's name, the info word and the first words
 * after it that are not names (type ids through d->map). Equal types
 * (b2b_dedup_equal()) have equal keys whatever their string offsets: a name
 * equal in content may sit at another offset (a string table not
 * deduplicated, or a split BTF's own copy of a base string), so the name
 * is hashed by its content. Without it a module's FUNC had the key of
 * every base FUNC of its prototype (hundreds for int (void)).
 */
static __u32 bucket_of(const struct base_index *x, __u32 key)
{
	return x->shift < 32 ? key >> x->shift : 0;
}

static __u32 base_key(const struct dedup *d, const struct btf_type *t)
{
	const __u32 *w = (const __u32 *)t;
	const char *name = b2b_btf_name(&d->r, t);
	__u32 n = 0;
	__u32 h = (w[1] ^ b2b_hash_str(name, strlen(name))) * 0x9e3779b1u;

	for (struct b2b_words it = b2b_words(t, 2); n < KEY_WORDS && b2b_words_next(&it); ) {
		switch (it.cls) {
		case B2B_W_STR:
			continue;
		case B2B_W_REF:
			h = (h ^ d->map[w[it.i]]) * 16777619u;
			break;
		default:
			h = (h ^ w[it.i]) * 16777619u;
		}
		n++;
	}
	return h ^ (h >> 15);
}

bool b2b_dedup_equal(const struct dedup *d, const struct btf_type *a, const struct btf_type *b)
{
	const __u32 *wa = (const __u32 *)a, *wb = (const __u32 *)b;

	if (a->info != b->info)
		return false;	/* (the same info: the same words) */
	for (struct b2b_words it = b2b_words(a, 0); b2b_words_next(&it); ) {
		__u32 i = it.i;

		switch (it.cls) {
		case B2B_W_STR:
			if (d->fold ? canon_str(d, wa[i]) != canon_str(d, wb[i])
				    : wa[i] != wb[i] && strcmp(b2b_btf_str(&d->r, wa[i]) ?: "",
							       b2b_btf_str(&d->r, wb[i]) ?: ""))
				return false;
			break;
		case B2B_W_REF:
			if (d->map[wa[i]] != d->map[wb[i]])
				return false;
			break;
		default:
			if (wa[i] != wb[i])
				return false;
		}
	}
	return true;
}

/* Whether a type id t refers to lies in [lo, hi), each read through map
 * (NULL: as it is). */
static bool refs_any_in(const struct btf_type *t, const __u32 *map, __u32 lo, __u32 hi)
{
	const __u32 *w = (const __u32 *)t;
	struct b2b_fields ids = b2b_fields(t, B2B_W_REF);

	for (__u32 i; b2b_fields_next(&ids, &i); ) {
		__u32 id = map ? map[w[i]] : w[i];

		if (id >= lo && id < hi)
			return true;
	}
	return false;
}

/* Whether every type id t refers to is (or stands for) a base type: only
 * then can a base type equal it, base types referring to base types only. */
static bool refs_in_base(const struct dedup *d, const struct btf_type *t)
{
	return !refs_any_in(t, d->map, d->r.start_id, UINT32_MAX);
}

/* Word i of t (not a name), a type id read through d->map. */
static __u32 mapped_word(const struct dedup *d, const struct btf_type *t, __u32 i)
{
	const __u32 *w = (const __u32 *)t;

	return b2b_word_class(b2b_kind(t), i) == B2B_W_REF ? d->map[w[i]] : w[i];
}

/*
 * A filter on the info word and the next two words that are not names
 * (sizes, values; type ids through d->map), which equal types share too:
 * most base types fail it, and are not keyed. Two words, not one: an
 * ARRAY's first is 0 and a FUNC_PROTO's its return type, which a thousand
 * base types share; the element's or the first member's or parameter's
 * type tells them apart. Here: the index of that second word, 0 for none.
 */
static __u32 pair_second(const struct btf_type *t)
{
	switch (b2b_kind(t)) {
	case BTF_KIND_INT: case BTF_KIND_ARRAY:
		return 3;	/* the encoding; the element type */
	case BTF_KIND_STRUCT: case BTF_KIND_UNION: case BTF_KIND_FUNC_PROTO: case BTF_KIND_ENUM:
		return b2b_vlen(t) ? 4 : 0;	/* the first member's or parameter's type; value */
	default:
		return 0;
	}
}

static __u32 pair_mix(__u32 info, __u32 first, __u32 second)
{
	return ((info * 0x9e3779b1u ^ first) * 0x85ebca6bu ^ second) * 0xc2b2ae35u >> (32 - PAIR_BITS);
}

static __u32 pair_hash(const struct dedup *d, const struct btf_type *t)
{
	__u32 i = pair_second(t);

	return pair_mix(t->info, mapped_word(d, t, 2), i ? mapped_word(d, t, i) : 0);
}

/* pair_hash() of a base type: base types refer to base types, on which
 * d->map is the identity, so its words are read as they are (the scan
 * reads every base type: no lookup in the map, 4 bytes a type, for each). */
static __u32 base_pair_hash(const struct btf_type *t)
{
	const __u32 *w = (const __u32 *)t;
	__u32 i = pair_second(t);

	return pair_mix(w[1], w[2], i ? w[i] : 0);
}

static bool pair_wanted(const struct base_index *x, __u32 pair)
{
	return x->pair_bits[pair / 64] >> (pair % 64) & 1;
}

static bool key_wanted(const struct base_index *x, __u32 key)
{
	if (!key)
		return x->want_zero;
	for (__u32 i = key * 0x9e3779b1u & x->want_mask; x->want[i]; i = (i + 1) & x->want_mask)
		if (x->want[i] == key)
			return true;
	return false;
}

static void want_key(struct base_index *x, __u32 key)
{
	__u32 i = key * 0x9e3779b1u & x->want_mask;

	if (!key) {
		x->want_zero = true;
		return;
	}
	for (; x->want[i]; i = (i + 1) & x->want_mask)
		if (x->want[i] == key)
			return;
	x->want[i] = key;
}

int b2b_cmp_u64(const void *a, const void *b)
{
	__u64 x = *(const __u64 *)a, y = *(const __u64 *)b;

	return x < y ? -1 : x > y;
}

/* A kind b2b_type_words() knows: it has the words pair_hash() reads. */
static bool known_kind(const struct btf_type *t)
{
	return b2b_type_words(t) >= 3;
}

/*
 * The keys wanted: those of the own types whose type ids are all base ids
 * (the own old types, and the candidates referring to base types only;
 * d->map is the identity still). The base is scanned once for them. Two
 * equal base types are only looked for when an own type equals one of them
 * (base_lookup()): btf__dedup() leaves a base as it is, so equal base types
 * no own type equals change nothing in its result.
 */
static int scan_base(struct dedup *d)
{
	struct base_index *x = &d->base;
	__u32 start = d->r.start_id, nr = 0, slots = 16, kinds = 0;
	const struct btf_type *t;
	size_t cap = 0;
	int err = 0;

	if (start <= 1)
		return 0;
	for (__u32 id = start; id < d->cnt; id++)
		nr += refs_in_base(d, b2b_btf_own_type(&d->r, id));
	if (!nr)
		return 0;
	while (slots < 2 * nr)
		slots <<= 1;
	x->want = b2b_calloc(slots, sizeof(*x->want));
	x->pair_bits = b2b_calloc((1U << PAIR_BITS) / 64, sizeof(*x->pair_bits));
	if (!x->want || !x->pair_bits)
		return -ENOMEM;
	x->want_mask = slots - 1;
	for (__u32 id = start; id < d->cnt; id++) {
		__u32 pair;

		t = b2b_btf_own_type(&d->r, id);
		if (!refs_in_base(d, t))
			continue;
		pair = pair_hash(d, t);
		x->pair_bits[pair / 64] |= 1ULL << (pair % 64);
		want_key(x, base_key(d, t));
		kinds |= 1U << b2b_kind(t);	/* a kind this library knows: < 32 */
	}
	for (__u32 id = 1; id < start && !err; id++) {
		__u32 key;

		t = base_type(d, id);
		/* the kinds no wanted type has (most often FUNC: a module's
		 * FUNCs point at its own FUNC_PROTOs) fail the pair filter
		 * too, which the kind test spares them */
		if (b2b_kind(t) >= 32 || !(kinds >> b2b_kind(t) & 1) || !known_kind(t) ||
		    !pair_wanted(x, base_pair_hash(t)))
			continue;
		key = base_key(d, t);
		if (!key_wanted(x, key))
			continue;
		err = b2b_grow((void **)&x->found, &cap, x->nr_found + 1, sizeof(*x->found));
		if (!err)
			x->found[x->nr_found++] = (__u64)key << 32 | id;
	}
	if (!err && x->nr_found)	/* qsort() takes no NULL, even for 0 items */
		qsort(x->found, x->nr_found, sizeof(*x->found), b2b_cmp_u64);
	return err;
}

/* Every base type of the kinds the own types have, counted into buckets of
 * its key, then placed. */
static int index_base(struct dedup *d)
{
	struct base_index *x = &d->base;
	__u32 start = d->r.start_id, nr = 0, nr_buckets = 1, bits = 0, sum = 0;
	const struct btf_type *t = NULL;
	__u64 *tmp;

	tmp = b2b_malloc((size_t)start * sizeof(*tmp));
	if (!tmp)
		return -ENOMEM;
	for (__u32 id = 1; id < start; id++) {
		t = base_type(d, id);
		if (d->kinds >> b2b_kind(t) & 1)
			tmp[nr++] = (__u64)base_key(d, t) << 32 | id;
	}
	/* about one type a bucket */
	while (nr_buckets < nr && bits < 31) {
		nr_buckets <<= 1;
		bits++;
	}
	x->shift = 32 - bits;
	x->start = b2b_calloc((size_t)nr_buckets + 1, sizeof(*x->start));
	x->ent = b2b_malloc((size_t)nr * sizeof(*x->ent));
	if (!x->start || !x->ent) {
		free(tmp);
		return -ENOMEM;
	}
	for (__u32 i = 0; i < nr; i++)
		x->start[bucket_of(x, tmp[i] >> 32) + 1]++;
	for (__u32 b = 1; b <= nr_buckets; b++) {
		sum += x->start[b];
		x->start[b] = sum;
	}
	/* each placed at its bucket's next free entry: start[b] moves on to
	 * where bucket b + 1 begins, then is moved back */
	for (__u32 i = 0; i < nr; i++)
		x->ent[x->start[bucket_of(x, tmp[i] >> 32)]++] = tmp[i];
	for (__u32 b = nr_buckets; b > 0; b--)
		x->start[b] = x->start[b - 1];
	x->start[0] = 0;
	free(tmp);
	return 0;
}

/* The first of the n entries of a (key << 32 | id, sorted) with key >= key. */
__u32 b2b_first_of_key(const __u64 *a, __u32 n, __u32 key)
{
	__u32 lo = 0, hi = n;

	while (lo < hi) {
		__u32 mid = lo + (hi - lo) / 2;

		if ((__u32)(a[mid] >> 32) < key)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Entries [*lo, *hi) of the base types with this key. */
static void base_range(struct dedup *d, __u32 key, const __u64 **lo, const __u64 **hi)
{
	struct base_index *x = &d->base;

	if (x->start) {
		__u32 b = bucket_of(x, key);

		*lo = x->ent + x->start[b];
		*hi = x->ent + x->start[b + 1];
		return;
	}
	/* from the first entry of the key in the sorted found ones */
	*lo = x->found + b2b_first_of_key(x->found, x->nr_found, key);
	*hi = x->found + x->nr_found;
}

/*
 * A key not wanted by the scan: a candidate that refers to the base only
 * once a type it refers to was found there (a reduced prototype equal to a
 * base one, then its FUNC). The first few are looked for by a walk of the
 * base comparing the info word and the word after it, a few instructions a
 * type; the index of every base type (index_base()) costs 200 a type, the
 * name hashed, and is built after that.
 */
#define MAX_BASE_WALKS 8

/* Like base_lookup(), by a walk of the base. */
static int walk_base(const struct dedup *d, const struct btf_type *t, __u32 *found)
{
	__u32 second = mapped_word(d, t, 2);

	/* base types refer to base types: d->map is the identity on them */
	for (__u32 id = 1; id < d->r.start_id; id++) {
		const struct btf_type *b = base_type(d, id);

		if (b->info != t->info || ((const __u32 *)b)[2] != second ||
		    !b2b_dedup_equal(d, t, b))
			continue;
		if (*found)
			return 1;
		*found = id;
	}
	return 0;
}

/*
 * *found: the base type equal to t, else 0. 1 when two are (which one
 * btf__dedup() would pick is its hash table's business), < 0 error.
 */
static int base_lookup(struct dedup *d, const struct btf_type *t, __u32 *found)
{
	struct base_index *x = &d->base;
	__u32 key = base_key(d, t);
	const __u64 *e, *end;
	int err;

	*found = 0;
	if (!x->start && !(x->want && pair_wanted(x, pair_hash(d, t)) && key_wanted(x, key))) {
		if (x->nr_walks < MAX_BASE_WALKS) {
			x->nr_walks++;
			return walk_base(d, t, found);
		}
		err = index_base(d);
		if (err)
			return err;
	}
	base_range(d, key, &e, &end);
	for (; e < end; e++) {
		__u32 id = (__u32)*e;

		if ((__u32)(*e >> 32) != key) {
			if (!x->start)
				break;	/* sorted: past the key */
			continue;
		}
		if (!b2b_dedup_equal(d, t, type_of(d, id)))
			continue;
		if (*found)
			return 1;
		*found = id;
	}
	return 0;
}

/* A hash's first slot: the table is sized for its load, not to a power
 * of two, so the hash is mixed and scaled, not masked. */
static __u32 home_slot(const struct dedup *d, __u32 h)
{
	return (__u32)(((__u64)(h * 0x9e3779b1u) * d->nr_slots) >> 32);
}

/*
 * *other: the type equal to candidate id, a base type, an own old type or
 * a candidate matched before, else 0 (and id joins the candidates). 1: two
 * base types are equal to it; < 0 error.
 */
int b2b_dedup_lookup(struct dedup *d, __u32 id, __u32 *other)
{
	const struct btf_type *t = type_of(d, id);
	__u32 h, i;

	if (d->r.start_id > 1 && refs_in_base(d, t)) {
		int err = base_lookup(d, t, other);

		if (err || *other)
			return err;
	}
	h = hash_type(d, t);
	for (i = b2b_first_of_key(d->old, d->nr_old, h);
	     i < d->nr_old && (__u32)(d->old[i] >> 32) == h; i++) {
		*other = (__u32)d->old[i];
		if (b2b_dedup_equal(d, t, type_of(d, *other)))
			return 0;
	}
	for (i = home_slot(d, h); d->slots[i]; i = i + 1 < d->nr_slots ? i + 1 : 0) {
		*other = d->slots[i] - 1;
		if (b2b_dedup_equal(d, t, type_of(d, *other)))
			return 0;
	}
	*other = 0;
	d->slots[i] = id + 1;
	return 0;
}

/* keys[0, n) sorted by their high 32 bits, equal ones in their order:
 * four stable byte passes through tmp. */
static void sort_by_hash(__u64 *keys, __u64 *tmp, __u32 n)
{
	for (int shift = 32; shift < 64; shift += 8) {
		__u32 count[257] = { 0 };

		for (__u32 i = 0; i < n; i++)
			count[(keys[i] >> shift & 0xff) + 1]++;
		for (int b = 0; b < 256; b++)
			count[b + 1] += count[b];
		for (__u32 i = 0; i < n; i++)
			tmp[count[keys[i] >> shift & 0xff]++] = keys[i];
		memcpy(keys, tmp, (size_t)n * sizeof(*keys));
	}
}

/*
 * The own old types by hash, sorted: a radix sort, sequential passes where
 * putting each into a hash table missed the cache once a type. 1 when one
 * equals another or a base type (the input is not deduplicated).
 */
static int index_old_types(struct dedup *d)
{
	__u64 *tmp;
	__u32 n = 0;
	int err = 0;

	for (__u32 id = d->r.start_id; id < d->first_new; id++)
		n += d->state[id] == CLEAN;
	d->old = b2b_malloc((size_t)n * sizeof(*d->old));
	tmp = b2b_malloc((size_t)n * sizeof(*tmp));
	if (!d->old || !tmp) {
		free(tmp);
		return -ENOMEM;
	}
	for (__u32 id = d->r.start_id; id < d->first_new && !err; id++) {
		const struct btf_type *t = type_of(d, id);
		__u32 other = 0;

		if (d->state[id] != CLEAN)
			continue;
		if (d->r.start_id > 1 && refs_in_base(d, t))
			err = base_lookup(d, t, &other);
		if (!err && other)
			err = 1;
		d->old[d->nr_old++] = (__u64)hash_type(d, t) << 32 | id;
	}
	if (!err)
		sort_by_hash(d->old, tmp, d->nr_old);
	free(tmp);
	/* equal types have equal hashes: compare within each run of a hash */
	for (__u32 i = 0; i < d->nr_old && !err; i++)
		for (__u32 j = i + 1; j < d->nr_old && !err &&
		     (__u32)(d->old[j] >> 32) == (__u32)(d->old[i] >> 32); j++)
			if (b2b_dedup_equal(d, type_of(d, (__u32)d->old[i]), type_of(d, (__u32)d->old[j])))
				err = 1;
	return err;
}

/* Whether t refers to a type the transform appended. */
static bool refs_candidate(const struct dedup *d, const struct btf_type *t)
{
	return refs_any_in(t, NULL, d->first_new, d->cnt);
}

/* Resolve a candidate after the candidates it refers to; 1: give up (full dedup). */
static int resolve(struct dedup *d, __u32 id)
{
	const struct btf_type *t = type_of(d, id);
	const __u32 *w = (const __u32 *)t;
	struct b2b_fields ids = b2b_fields(t, B2B_W_REF);
	__u32 other;
	int err;

	if (d->state[id] == DONE)
		return 0;
	if (d->state[id] == BUSY)
		return 1;	/* a loop of reference types */
	d->state[id] = BUSY;
	for (__u32 i; b2b_fields_next(&ids, &i); ) {
		if (w[i] < d->cnt && d->state[w[i]] != CLEAN) {
			int r = resolve(d, w[i]);

			if (r)
				return r;
		}
	}
	d->state[id] = DONE;
	err = b2b_dedup_lookup(d, id, &other);
	if (err || !other)
		return err;
	/* an old type became equal to another: merging it moves ids */
	if (id < d->first_new)
		return 1;
	d->map[id] = other;
	return 0;
}

/*
 * Match the new types and those referring to them against the rest:
 * d->map[id] becomes the kept equal of a dropped type (itself when kept).
 * 0 done (*changed: a type is dropped), 1 fall back to the full dedup,
 * < 0 error.
 */
int b2b_dedup_match(struct dedup *d, bool *changed)
{
	__u32 start = d->r.start_id, nr_table = 0;
	size_t need;
	int err;

	if (d->cnt == UINT32_MAX)
		return 1;	/* a slot holds id + 1 */
	for (__u32 id = start; id < d->cnt; id++) {
		const struct btf_type *t = b2b_btf_own_type(&d->r, id);

		d->kinds |= 1U << b2b_kind(t);
		if (id >= d->first_new || refs_candidate(d, t)) {
			if (!hash_matched_kind(b2b_kind(t)))
				return 1;
			d->state[id] = CAND;
		}
	}
	/*
	 * Every own old type is indexed, checked against the others and the
	 * base (base_lookup()): one equal to another (an input not deduplicated,
	 * or a split BTF not deduplicated against its base) sends us to
	 * btf__dedup(), which would fold them. What this cannot see: equal
	 * types that differ in the ids they refer to all the way round a loop
	 * (a struct and its copy pointing at themselves), which no
	 * deduplicating encoder emits. The candidates go into a table of
	 * their own, at most 5/8 full: two or three slots probed per insertion.
	 */
	for (__u32 id = start; id < d->cnt; id++)
		nr_table += d->state[id] == CAND;
	need = (size_t)nr_table * 8 / 5 + 16;
	if (need > UINT32_MAX)
		return -E2BIG;
	d->nr_slots = (__u32)need;
	d->slots = b2b_calloc(need, sizeof(*d->slots));
	if (!d->slots)
		return -ENOMEM;
	err = scan_base(d);
	if (!err)
		err = index_old_types(d);
	if (err)
		return err;
	*changed = false;
	for (__u32 id = start; id < d->cnt; id++) {
		if (d->state[id] == CAND) {
			err = resolve(d, id);
			if (err)
				return err;
		}
		*changed |= d->map[id] != id;
	}
	return 0;
}
