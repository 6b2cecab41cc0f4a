// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Sort by name, as 7.3's resolve_btfids does (sort_btf_by_name): the
 * kernel's btf_find_by_name_kind() binary-searches vmlinux BTF from the
 * first named type on (btf_check_sorted()), so this order is part of the
 * format 7.3 expects, not cosmetics.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "btf_post.h"

/* 12 bytes: the radix passes move these around (up to 4 or 8 times), and
 * two arrays of them (keys and the passes' scratch) are the sort's memory */
struct sort_key {
	__u64 prefix;		/* 8 bytes of the name from the current depth, big-endian, 0-padded */
	__u32 id : 31;		/* type ids are below 2^31 (checked) */
	__u32 short_name : 1;	/* the name ends within the prefix */
} __attribute__((packed));

struct sorter {
	const struct b2b_raw *r;
	struct sort_key *tmp;	/* as many as the keys */
	__u32 *count;		/* 65536 */
	size_t depth;		/* bytes of the names already sorted on */
};

/* Below this many keys of one prefix, qsort() beats four 65536-bucket passes. */
#define RADIX_MIN 2048

static void set_prefix(struct sort_key *k, const char *name)
{
	int j;

	k->prefix = 0;
	for (j = 0; j < 8 && name[j]; j++)
		k->prefix |= (__u64)(unsigned char)name[j] << (56 - 8 * j);
	k->short_name = j < 8;
}

/* Keys of one prefix, names longer than it: by the rest of the name, then id. */
static int cmp_long_names(const void *pa, const void *pb, void *ctx)
{
	const struct sort_key *a = pa, *b = pb;
	const struct sorter *s = ctx;
	int c = strcmp(b2b_raw_name(s->r, b2b_raw_type(s->r, a->id)) + s->depth,
		       b2b_raw_name(s->r, b2b_raw_type(s->r, b->id)) + s->depth);

	if (c)
		return c;
	return a->id < b->id ? -1 : a->id > b->id;
}

/*
 * Stable LSD radix sort of keys[0..nr) by prefix: 16 bits a pass from
 * 65,536 keys on, 8 below, where clearing and summing 65,536 counts per
 * pass (256 KB) would cost more than the keys.
 */
static void radix_by_prefix(struct sorter *s, struct sort_key *keys, __u32 nr)
{
	struct sort_key *src = keys, *dst = s->tmp, *sw;
	int bits = nr >= 65536 ? 16 : 8;
	__u32 *count = s->count, digits = 1U << bits, mask = digits - 1;

	for (int shift = 0; shift < 64; shift += bits) {
		__u32 sum = 0;

		memset(count, 0, digits * sizeof(*count));
		for (__u32 i = 0; i < nr; i++)
			count[(src[i].prefix >> shift) & mask]++;
		if (nr && count[(src[0].prefix >> shift) & mask] == nr)
			continue;	/* one digit for all: nothing moves */
		for (__u32 d = 0; d < digits; d++) {
			__u32 c = count[d];

			count[d] = sum;
			sum += c;
		}
		for (__u32 i = 0; i < nr; i++)
			dst[count[(src[i].prefix >> shift) & mask]++] = src[i];
		sw = src;
		src = dst;
		dst = sw;
	}
	if (src != keys)
		memcpy(keys, src, (size_t)nr * sizeof(*keys));
}

/*
 * keys[0..nr), in id order and sharing their first s->depth name bytes,
 * sorted by name then id: by the next 8 bytes with the radix sort, then
 * each run of one 8-byte prefix among longer names the same way, 8 bytes
 * deeper (qsort() with strcmp once a run is small). qsort() with strcmp
 * over a vmlinux (130,000 names, many sharing "bpf_" or "__x64_sys") cost
 * more than reading and writing the BTF; at 100,000 kfuncs sharing
 * "bpf_synth_kfunc_", sorting the runs of one prefix by qsort() did too.
 */
static void sort_by_name(struct sorter *s, struct sort_key *keys, __u32 nr)
{
	radix_by_prefix(s, keys, nr);
	for (__u32 i = 0, j; i < nr; i = j) {
		for (j = i + 1; j < nr && keys[j].prefix == keys[i].prefix; j++)
			;
		/* short names equal in full stay in id order (the radix sort is stable) */
		if (j - i < 2 || keys[i].short_name)
			continue;
		s->depth += 8;
		if (j - i < RADIX_MIN) {
			qsort_r(keys + i, j - i, sizeof(*keys), cmp_long_names, s);
		} else {
			/* the run is in id order: the radix sort is stable */
			for (__u32 k = i; k < j; k++)
				set_prefix(&keys[k], b2b_raw_name(s->r, b2b_raw_type(s->r, keys[k].id)) +
						     s->depth);
			sort_by_name(s, keys + i, j - i);
		}
		s->depth -= 8;
	}
}

/* keys[] (in id order) by name, anonymous first, ties by id. */
static int sort_keys(struct sort_key *keys, __u32 nr, const struct b2b_raw *r)
{
	struct sorter s = {
		.r = r,
		.tmp = b2b_malloc((size_t)nr * sizeof(*s.tmp)),
		.count = b2b_malloc(65536 * sizeof(*s.count)),
	};

	if (!s.tmp || !s.count) {
		free(s.tmp);
		free(s.count);
		return -ENOMEM;
	}
	sort_by_name(&s, keys, nr);
	free(s.tmp);
	free(s.count);
	return 0;
}

void b2b_map_compose(__u32 *map, __u32 nr, const __u32 *second)
{
	if (!second)
		return;
	for (__u32 i = 0; i < nr; i++)
		map[i] = second[map[i]];
}

/*
 * A sort's result before it is laid out: the kept types' order over the
 * input, read where it is (in parts), and the id map. Written out a chunk
 * at a time, it never holds a second copy of the BTF.
 */
struct b2b_sorted {
	struct b2b_raw r;
	__u32 *order;		/* the kept ids in output order */
	__u32 nr_order;
	__u32 *map;		/* input id -> output id (base ids: themselves) */
	__u32 cnt;		/* the input's type count */
	__u32 type_len;		/* the kept types' bytes */
	char *chunk;		/* CHUNK bytes, or the biggest type's if more */
	__u32 chunk_len;
};

#define CHUNK (64U << 10)

void b2b_sorted_free(struct b2b_sorted *s)
{
	if (!s)
		return;
	b2b_raw_free(&s->r);
	free(s->order);
	free(s->map);
	free(s->chunk);
	free(s);
}

/*
 * The kept ids in output order and the map, from the keys sorted: the
 * anonymous kept types first, in id order (map puts them there), then the
 * named ones in key order.
 */
static int order_from_keys(struct b2b_sorted *s, const struct sort_key *keys, __u32 nr,
			   __u32 nr_anon, const __u32 *equal)
{
	const struct b2b_raw *r = &s->r;
	__u32 n = 0, biggest = 0;

	s->order = b2b_malloc(((size_t)nr_anon + nr) * sizeof(*s->order));
	if (!s->order)
		return -ENOMEM;
	for (__u32 id = r->start_id; id < s->cnt; id++)
		if ((!equal || equal[id] == id) && s->map[id] < r->start_id + nr_anon)
			s->order[n++] = id;
	for (__u32 i = 0; i < nr; i++)
		s->order[n++] = keys[i].id;
	s->nr_order = n;
	for (__u32 i = 0; i < n; i++) {
		__u32 len = b2b_type_words(b2b_raw_type(r, s->order[i])) * 4;

		if (len > biggest)
			biggest = len;
	}
	s->chunk_len = biggest > CHUNK ? biggest : CHUNK;
	s->chunk = b2b_malloc(s->chunk_len);
	return s->chunk ? 0 : -ENOMEM;
}

int b2b_sort_prepare(const struct b2b_raw_parts *in, const struct btf *base, const __u32 *equal,
		     struct b2b_sorted **out)
{
	struct sort_key *keys = NULL;
	struct b2b_sorted *s;
	struct b2b_raw *r;
	__u32 nr = 0, nr_anon = 0;
	bool identity = true;
	int err;

	*out = NULL;
	s = b2b_calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	r = &s->r;
	err = b2b_raw_open_parts(r, in, base);
	if (err)
		goto out;
	s->cnt = b2b_raw_type_cnt(r);
	if (s->cnt > 1U << 31) {
		err = -E2BIG;
		goto out;
	}
	keys = b2b_malloc((size_t)r->nr * sizeof(*keys));
	s->map = b2b_malloc((size_t)s->cnt * sizeof(*s->map));
	if (!keys || !s->map) {
		err = -ENOMEM;
		goto out;
	}
	/* the kept types only (a dropped one takes its equal's place below);
	 * the anonymous ones first, in id order, as the sort would put them:
	 * keys for the named ones only */
	for (__u32 i = 0; i < r->start_id; i++)
		s->map[i] = i;
	for (__u32 id = r->start_id; id < s->cnt; id++) {
		const struct btf_type *t = b2b_raw_type(r, id);
		const char *name;

		if (equal && equal[id] != id)
			continue;
		s->type_len += b2b_type_words(t) * 4;
		name = b2b_raw_name(r, t);
		if (!*name) {
			identity &= id == r->start_id + nr_anon;
			s->map[id] = r->start_id + nr_anon++;
			continue;
		}
		keys[nr].id = id;
		set_prefix(&keys[nr++], name);
	}
	err = sort_keys(keys, nr, r);
	if (err)
		goto out;
	for (__u32 i = 0; i < nr; i++) {
		s->map[keys[i].id] = r->start_id + nr_anon + i;
		identity &= keys[i].id == r->start_id + nr_anon + i;
	}
	for (__u32 id = r->start_id; equal && id < s->cnt; id++)
		if (equal[id] != id)
			s->map[id] = s->map[equal[id]];	/* equal[] names kept types only */
	if (identity && nr_anon + nr == r->nr)
		goto out;	/* already sorted, nothing dropped: unchanged, byte for byte */
	err = order_from_keys(s, keys, nr, nr_anon, equal);
	if (!err) {
		*out = s;
		s = NULL;
	}
out:
	free(keys);
	b2b_sorted_free(s);
	return err;
}

const __u32 *b2b_sorted_map(const struct b2b_sorted *s, __u32 *nr)
{
	*nr = s->cnt;
	return s->map;
}

size_t b2b_sorted_size(const struct b2b_sorted *s)
{
	return sizeof(struct btf_header) + (size_t)s->type_len + s->r.hdr.str_len;
}

int b2b_sorted_emit(const struct b2b_sorted *s, b2b_sink_fn sink, void *ctx)
{
	const struct b2b_raw *r = &s->r;
	struct btf_header h = {
		.magic = BTF_MAGIC, .version = BTF_VERSION, .hdr_len = sizeof(h),
		.type_off = 0, .type_len = s->type_len, .str_off = s->type_len,
		.str_len = r->hdr.str_len,
	};
	__u32 pos = 0;
	int err;

	err = sink(ctx, &h, sizeof(h));
	for (__u32 i = 0; !err && i < s->nr_order; i++) {
		const struct btf_type *t = b2b_raw_type(r, s->order[i]);
		__u32 len = b2b_type_words(t) * 4;

		if (pos + len > s->chunk_len) {
			err = sink(ctx, s->chunk, pos);
			pos = 0;
		}
		memcpy(s->chunk + pos, t, len);
		b2b_type_remap((__u32 *)(s->chunk + pos), s->map, s->cnt);
		pos += len;
	}
	if (!err && pos)
		err = sink(ctx, s->chunk, pos);
	if (!err && r->str_len0)
		err = sink(ctx, r->strs[0], r->str_len0);
	if (!err && r->hdr.str_len > r->str_len0)
		err = sink(ctx, r->strs[1], r->hdr.str_len - r->str_len0);
	return err;
}

int b2b_sort_kept_by_name(const struct b2b_raw_parts *in, const struct btf *base,
			  const __u32 *equal, struct b2b_pass_out *out)
{
	struct b2b_sorted *s;
	char *at;
	int err;

	memset(out, 0, sizeof(*out));
	err = b2b_sort_prepare(in, base, equal, &s);
	if (err || !s)
		return err;
	out->size = b2b_sorted_size(s);
	out->data = at = b2b_malloc(out->size);
	if (!out->data) {
		b2b_sorted_free(s);
		memset(out, 0, sizeof(*out));
		return -ENOMEM;
	}
	b2b_sorted_emit(s, b2b_sink_memory, &at);	/* cannot fail */
	out->map = s->map;
	out->nr_map = s->cnt;
	s->map = NULL;
	b2b_sorted_free(s);
	return 0;
}

int b2b_sort_by_name(const void *data, size_t size, const struct btf *base,
		     struct b2b_pass_out *out)
{
	struct b2b_raw_parts in;
	int err = b2b_raw_parts_of(&in, data, size);

	memset(out, 0, sizeof(*out));
	return err ?: b2b_sort_kept_by_name(&in, base, NULL, out);
}
