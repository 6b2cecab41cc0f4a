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

/* 16 bytes: the radix passes move these around four times */
struct sort_key {
	__u64 prefix;		/* first 8 bytes of the name, big-endian, 0-padded */
	__u32 id;
	__u32 short_name;	/* the name ends within the prefix */
};

/* Keys of one prefix, names longer than it: by the rest of the name, then id. */
static int cmp_long_names(const void *pa, const void *pb, void *ctx)
{
	const struct sort_key *a = pa, *b = pb;
	const struct b2b_raw *r = ctx;
	int c = strcmp(b2b_raw_name(r, b2b_raw_type(r, a->id)) + 8,
		       b2b_raw_name(r, b2b_raw_type(r, b->id)) + 8);

	if (c)
		return c;
	return a->id < b->id ? -1 : a->id > b->id;
}

/*
 * keys[] (in id order) sorted by prefix with a stable LSD radix sort, 16
 * bits a pass, then runs of one prefix among names longer than it by
 * strcmp: qsort() with strcmp over a vmlinux (130,000 names, many sharing
 * "bpf_" or "__x64_sys") cost more than reading and writing the BTF.
 */
static int sort_keys(struct sort_key *keys, __u32 nr, const struct b2b_raw *r)
{
	struct sort_key *tmp = b2b_malloc((size_t)nr * sizeof(*tmp)), *src = keys, *dst = tmp, *sw;
	__u32 *count = b2b_malloc(65536 * sizeof(*count));

	if (!tmp || !count) {
		free(tmp);
		free(count);
		return -ENOMEM;
	}
	for (int shift = 0; shift < 64; shift += 16) {
		__u32 sum = 0;

		memset(count, 0, 65536 * sizeof(*count));
		for (__u32 i = 0; i < nr; i++)
			count[(src[i].prefix >> shift) & 0xffff]++;
		if (nr && count[(src[0].prefix >> shift) & 0xffff] == nr)
			continue;	/* one digit for all: nothing moves */
		for (__u32 d = 0; d < 65536; d++) {
			__u32 c = count[d];

			count[d] = sum;
			sum += c;
		}
		for (__u32 i = 0; i < nr; i++)
			dst[count[(src[i].prefix >> shift) & 0xffff]++] = src[i];
		sw = src;
		src = dst;
		dst = sw;
	}
	if (src != keys)
		memcpy(keys, src, (size_t)nr * sizeof(*keys));
	for (__u32 i = 0, j; i < nr; i = j) {
		for (j = i + 1; j < nr && keys[j].prefix == keys[i].prefix; j++)
			;
		/* short names equal in full stay in id order (the radix sort is stable) */
		if (j - i > 1 && !keys[i].short_name)
			qsort_r(keys + i, j - i, sizeof(*keys), cmp_long_names, (void *)r);
	}
	free(tmp);
	free(count);
	return 0;
}

void b2b_map_compose(__u32 *map, __u32 nr, const __u32 *second)
{
	if (!second)
		return;
	for (__u32 i = 0; i < nr; i++)
		map[i] = second[map[i]];
}

int b2b_sort_by_name(const void *data, size_t size, const struct btf *base,
		     struct b2b_pass_out *out)
{
	struct sort_key *keys = NULL;
	struct b2b_raw r;
	char *types = NULL;
	__u32 *map = NULL, cnt, pos = 0;
	bool identity = true;
	int err;

	memset(out, 0, sizeof(*out));
	err = b2b_raw_open(&r, data, size, base);
	if (err)
		return err;
	cnt = b2b_raw_type_cnt(&r);
	keys = b2b_malloc((size_t)r.nr * sizeof(*keys));
	map = b2b_malloc((size_t)cnt * sizeof(*map));
	if (!keys || !map) {
		err = -ENOMEM;
		goto out;
	}
	for (__u32 i = 0; i < r.nr; i++) {
		const char *name = b2b_raw_name(&r, b2b_raw_type(&r, r.start_id + i));
		struct sort_key *k = &keys[i];
		int j;

		k->id = r.start_id + i;
		k->prefix = 0;
		for (j = 0; j < 8 && name[j]; j++)
			k->prefix |= (__u64)(unsigned char)name[j] << (56 - 8 * j);
		k->short_name = j < 8;
	}
	err = sort_keys(keys, r.nr, &r);
	if (err)
		goto out;
	for (__u32 i = 0; i < r.start_id; i++)
		map[i] = i;
	for (__u32 i = 0; i < r.nr; i++) {
		map[keys[i].id] = r.start_id + i;
		identity &= keys[i].id == r.start_id + i;
	}
	if (identity)
		goto out;	/* already sorted: unchanged, byte for byte */

	types = b2b_raw_alloc(r.hdr.type_len, r.strs, r.hdr.str_len, &out->data, &out->size);
	if (!types) {
		err = -ENOMEM;
		goto out;
	}
	for (__u32 i = 0; i < r.nr; i++) {
		const struct btf_type *t = b2b_raw_type(&r, keys[i].id);
		__u32 words = b2b_type_words(t), *dst = (__u32 *)(types + pos);

		memcpy(dst, t, words * 4);
		b2b_type_remap(dst, map, cnt);
		pos += words * 4;
	}
	out->map = map;
	out->nr_map = cnt;
	map = NULL;
out:
	free(keys);
	free(map);
	b2b_raw_free(&r);
	return err;
}
