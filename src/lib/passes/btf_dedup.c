// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Stage 4 of the pipeline (open -> plan -> edit -> post-passes -> write): dedup.
 *
 * Dedup of the transform's result, as 7.3's resolve_btfids runs
 * btf__dedup() on it: the hash path (btf_dedup_hash.c) for an input
 * deduplicated already; the fold mode (btf_dedup_fold.c) for a split BTF
 * that is not, against its base; libbpf's btf__dedup() where neither is
 * certain. Here: which decides, and the result laid out with its id map.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "passes/dedup_state.h"
#include "format/btf_format.h"
#include "passes/btf_post.h"
#include "util/libbpf_compat.h"
#include "util/name_index.h"

static void dedup_free(struct dedup *d)
{
	free(d->map);
	free(d->state);
	free(d->old);
	free(d->slots);
	free(d->base.want);
	free(d->base.pair_bits);
	free(d->base.found);
	free(d->base.start);
	free(d->base.ent);
	free(d->named);
	free(d->own_named);
	free(d->hypot);
	free(d->hypot_list);
	free(d->cands);
	free(d->str_map);
	free(d->strs);
	b2b_btf_free(&d->r);
}

/* The kept types laid out, d->map turned into the old -> new id map. In
 * fold mode every own type may go, and the strings are the rebuilt ones. */
static int dedup_layout(struct dedup *d, struct b2b_pass_out *out)
{
	__u32 start = d->r.start_id, first = d->fold ? start : d->first_new;
	__u32 base_end = d->r.base_str_len, *compact, next, pos = 0, need_types = 0;
	char *types;

	/* compaction: ids below first stay, the types kept from there on are
	 * renumbered in order; a dropped type's equal is always a kept one
	 * (only those are in the table). The result is laid out once, in its
	 * final buffer: the kept types' size first. */
	for (__u32 id = start; id < d->cnt; id++)
		if (d->map[id] == id)
			need_types += b2b_type_words(b2b_btf_own_type(&d->r, id)) * 4;
	compact = b2b_malloc((size_t)d->cnt * sizeof(*compact));
	types = !compact ? NULL
		: d->fold ? b2b_malloc(need_types ? need_types : 1)
		: b2b_raw_alloc(&d->r, need_types, &out->data, &out->size);
	if (!types) {
		free(compact);
		return -ENOMEM;
	}
	next = first;
	for (__u32 id = 0; id < d->cnt; id++)
		compact[id] = id < first ? id : d->map[id] == id ? next++ : 0;
	/* a base type too, in fold mode: a forward declaration btf__dedup()
	 * points at an own enum, struct or union, whose id the references to
	 * it take (the map handed out keeps base ids as they are) */
	for (__u32 id = d->fold ? 1 : first; id < d->cnt; id++)
		if (d->map[id] != id)
			compact[id] = compact[d->map[id]];
	for (__u32 id = start; id < d->cnt; id++) {
		const struct btf_type *t = b2b_btf_own_type(&d->r, id);
		__u32 words = b2b_type_words(t), *dst = (__u32 *)(types + pos);

		if (d->map[id] != id)
			continue;
		memcpy(dst, t, words * 4);
		if (d->state[id] != CLEAN)
			b2b_type_remap(dst, compact, d->cnt);
		if (d->fold) {
			struct b2b_fields strs = b2b_fields(t, B2B_W_STR);

			for (__u32 i; b2b_fields_next(&strs, &i); )
				if (dst[i] >= base_end)
					dst[i] = d->str_map[dst[i] - base_end];
		}
		pos += words * 4;
	}
	if (d->fold) {
		int err = b2b_raw_build(types, need_types, d->strs, d->str_len, &out->data,
					&out->size);

		free(types);
		if (err) {
			free(compact);
			return err;
		}
		for (__u32 id = 1; id < start; id++)
			compact[id] = id;
	}
	free(d->map);
	d->map = compact;
	out->map = d->map;
	out->nr_map = d->cnt;
	d->map = NULL;
	return 0;
}

int b2b_dedup(const void *data, size_t size, const struct b2b_btf *base, __u32 first_new,
	      struct b2b_pass_out *out, enum b2b_dedup_way *way)
{
	struct dedup d = { 0 };
	bool changed = false;
	int err;

	memset(out, 0, sizeof(*out));
	if (way)
		*way = B2B_DEDUP_HASH;
	err = b2b_btf_open(&d.r, data, size, base);
	if (err)
		return err;
	d.cnt = b2b_btf_type_cnt(&d.r);
	d.first_new = first_new < d.r.start_id ? d.r.start_id : first_new;
	if (d.first_new > d.cnt)
		d.first_new = d.cnt;
	d.map = b2b_malloc((size_t)d.cnt * sizeof(*d.map));
	d.state = b2b_calloc(d.cnt, 1);
	if (!d.map || !d.state)
		err = -ENOMEM;
	for (__u32 i = 0; !err && i < d.cnt; i++)
		d.map[i] = i;
	/* the hash path, unless every type is new */
	if (!err)
		err = d.first_new == d.r.start_id ? 1 : b2b_dedup_match(&d, &changed);
	/* not deduplicated against its base, perhaps: folded where that is
	 * certain */
	if (err == 1)
		err = b2b_dedup_fold(&d, &changed);
	if (!err && changed)
		err = dedup_layout(&d, out);
	if (way && d.fold)
		*way = B2B_DEDUP_FOLD;
	dedup_free(&d);
	if (err != 1)
		return err;
	if (way)
		*way = B2B_DEDUP_FULL;
	return b2b_dedup_full(data, size, base, out);
}

/*
 * btf__dedup() keeps no id map, but it renumbers the type ids of a .BTF.ext
 * given with it: one func_info record per own type id gives the map.
 */
struct ext_hdr {
	__u16 magic;
	__u8 version, flags;
	__u32 hdr_len, func_info_off, func_info_len, line_info_off, line_info_len;
};

/* A base the caller lent as libbpf's struct btf. */
static bool lent_base(const struct b2b_btf *base)
{
	return base->lib_lent;
}

int b2b_dedup_full(const void *data, size_t size, const struct b2b_btf *base,
		   struct b2b_pass_out *out)
{
	struct ext_hdr h = { .magic = BTF_MAGIC, .version = 1, .hdr_len = sizeof(h) };
	struct btf_dedup_opts opts = { .sz = sizeof(opts) };
	struct btf_ext *ext = NULL;
	struct btf *btf = NULL, *lbase = NULL;
	__u32 start = base ? b2b_btf_type_cnt(base) : 1, cnt, nr, *rec, *map = NULL, wide;
	struct b2b_btf model;
	const void *raw;
	__u32 raw_size = 0, ext_size = 0;
	size_t ext_len;
	const char *ext_raw;
	char *buf = NULL;
	int err = -ENOMEM;

	memset(out, 0, sizeof(*out));
	/* btf__dedup() is libbpf's: a vlen it cannot hold, in the BTF or its
	 * base, would be read as 16 bits */
	if (base && b2b_btf_wide_id(base))
		return -EOPNOTSUPP;
	err = b2b_btf_open(&model, data, size, base);
	wide = err ? 0 : model.wide_id;
	b2b_btf_free(&model);
	if (err || wide)
		return err ? err : -EOPNOTSUPP;
	err = -ENOMEM;
	/* libbpf's base: btf__dedup() makes it modifiable (its types copied,
	 * its strings hashed, its raw bytes freed). A base the caller lent is
	 * libbpf's already: used as it is, and read again once modified (the
	 * next objects of a run find it modifiable: it is done once). Else one
	 * of the model's bytes, this run's own; the model's bytes, when mapped
	 * from the file, leave memory while libbpf's copy is held. Made
	 * modifiable here first, that copy is freed before btf__dedup()
	 * allocates its own tables, which reuse the memory: the peak of such a
	 * run drops by about the base's size (bench/README.md). */
	if (base && lent_base(base)) {
		lbase = base->lib;
		err = btf__find_str(lbase, "");
		if (err < 0 && err != -ENOENT)
			goto out;
		err = -ENOMEM;
	} else if (base) {
		errno = 0;
		lbase = b2b_btf_new(base->data, base->size, NULL);
		if (!lbase)
			return errno ? -errno : -ENOMEM;
		b2b_btf_release_pages(base);
		err = btf__find_str(lbase, "");
		if (err < 0 && err != -ENOENT)
			goto out;
		err = -ENOMEM;
	}
	errno = 0;
	btf = b2b_btf_new(data, size, lbase);
	if (!btf) {
		err = errno ? -errno : -EINVAL;
		goto out;
	}
	cnt = btf__type_cnt(btf);
	nr = cnt - start;
	h.func_info_len = 4 + 8 + 8 * nr;
	ext_len = sizeof(h) + h.func_info_len;
	buf = b2b_calloc(1, ext_len);
	if (!buf)
		goto out;
	memcpy(buf, &h, sizeof(h));
	rec = (__u32 *)(buf + sizeof(h));
	*rec++ = 8;		/* record size */
	*rec++ = 0;		/* section name: "" */
	*rec++ = nr;
	for (__u32 i = 0; i < nr; i++) {
		*rec++ = i * 8;		/* insn_off */
		*rec++ = start + i;	/* type_id */
	}
	errno = 0;
	ext = nr ? btf_ext__new((const __u8 *)buf, ext_len) : NULL;
	if (nr && !ext) {
		err = errno ? -errno : -EINVAL;
		goto out;
	}
	/* btf__dedup() of a split BTF holds the whole base twice over (its
	 * types copied, its strings hashed): the peak of such a run. What is
	 * only needed before or after it is not held across it. */
	free(buf);
	buf = NULL;
	opts.btf_ext = ext;
	err = btf__dedup(btf, &opts);
	if (err)
		goto out;
	err = -ENOMEM;
	map = b2b_malloc((size_t)cnt * sizeof(*map));
	if (!map)
		goto out;
	for (__u32 i = 0; i < start; i++)
		map[i] = i;
	if (nr) {
		ext_raw = b2b_btf_ext_raw(ext, &ext_size);
		if (!ext_raw || ext_size < ext_len) {
			err = -ENOMEM;
			goto out;
		}
		rec = (__u32 *)(ext_raw + sizeof(h) + 12);
		for (__u32 i = 0; i < nr; i++)
			map[start + i] = rec[2 * i + 1];
	}
	raw = btf__raw_data(btf, &raw_size);
	err = -ENOMEM;
	if (!raw)
		goto out;
	out->data = b2b_malloc(raw_size);
	if (!out->data)
		goto out;
	memcpy(out->data, raw, raw_size);
	out->size = raw_size;
	out->map = map;
	out->nr_map = cnt;
	map = NULL;
	err = 0;
out:
	free(map);
	free(buf);
	btf_ext__free(ext);
	btf__free(btf);
	if (base && lent_base(base)) {
		int reread = b2b_btf_reread_libbpf(base);

		err = err ? err : reread;
	} else {
		btf__free(lbase);
	}
	return err;
}
