// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Stage 4 of the pipeline (open -> plan -> edit -> post-passes -> write): distill.
 *
 * Distilled base, as libbpf's btf__distill_base() (1.5; Debian 12's libbpf
 * 1.1.2 lacks it) builds it for 7.3's external modules: the split BTF keeps
 * only the names and sizes of the base types it needs, in a small base
 * (.BTF.base) that the kernel's btf_relocate.c matches against the running
 * vmlinux by name, kind and size. Anonymous and reference base types the
 * split BTF needs are copied into the split BTF itself.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "format/btf_format.h"
#include "passes/btf_post.h"

struct distill {
	struct b2b_btf r;
	__u32 start;		/* first split id of the input */
	__u32 *id_map;		/* base id -> id in the result, 0: not needed */
	struct b2b_strtab base_strs, split_strs;
	char *base_types, *split_types;
	size_t base_len, base_cap, split_len, split_cap;
	__u32 base_cnt, split_cnt;	/* types written so far (base: with void) */
};

/* Mark the base types t refers to (and, through all but named structs and
 * unions, what they refer to). -EINVAL for a kind a distilled base cannot hold. */
static int mark_refs(struct distill *d, const struct btf_type *t)
{
	const __u32 *w = (const __u32 *)t;
	struct b2b_fields ids = b2b_fields(t, B2B_W_REF);

	for (__u32 i; b2b_fields_next(&ids, &i); ) {
		const struct btf_type *bt;
		__u32 id = w[i];
		int err;

		if (!id || id >= d->start || d->id_map[id])
			continue;
		bt = b2b_btf_type_by_id(&d->r, id);
		switch (b2b_kind(bt)) {
		case BTF_KIND_INT: case BTF_KIND_FLOAT: case BTF_KIND_FWD: case BTF_KIND_ARRAY:
		case BTF_KIND_STRUCT: case BTF_KIND_UNION: case BTF_KIND_TYPEDEF:
		case BTF_KIND_ENUM: case BTF_KIND_ENUM64: case BTF_KIND_PTR: case BTF_KIND_CONST:
		case BTF_KIND_RESTRICT: case BTF_KIND_VOLATILE: case BTF_KIND_FUNC_PROTO:
		case BTF_KIND_TYPE_TAG:
			break;
		default:
			return -EINVAL;
		}
		d->id_map[id] = id;
		/* a distilled struct or union has no members to follow */
		if ((b2b_is_struct(bt) || b2b_is_union(bt)) && bt->name_off)
			continue;
		err = mark_refs(d, bt);
		if (err)
			return err;
	}
	return 0;
}

static int append(char **buf, size_t *len, size_t *cap, const void *p, size_t size)
{
	if (*len + size > *cap) {
		size_t n = *cap ? *cap * 2 : 4096;
		char *q;

		while (n < *len + size)
			n *= 2;
		q = b2b_realloc(*buf, n);
		if (!q)
			return -ENOMEM;
		*buf = q;
		*cap = n;
	}
	memcpy(*buf + *len, p, size);
	*len += size;
	return 0;
}

/* Copy type t into the split BTF, names re-added (ids fixed up later). */
static int copy_to_split(struct distill *d, const struct btf_type *t)
{
	struct b2b_fields strs = b2b_fields(t, B2B_W_STR);
	__u32 *w;
	int err;

	err = append(&d->split_types, &d->split_len, &d->split_cap, t, b2b_type_words(t) * 4);
	if (err)
		return err;
	w = (__u32 *)(d->split_types + d->split_len) - b2b_type_words(t);
	for (__u32 i; b2b_fields_next(&strs, &i); ) {
		long off = b2b_strtab_add(&d->split_strs, b2b_btf_str(&d->r, w[i]) ?: "");

		if (off < 0)
			return (int)off;
		w[i] = (__u32)off;
	}
	d->split_cnt++;
	return 0;
}

/* The base types marked: named INT/FLOAT/FWD and sized empty named
 * structs/unions/enums into the base (to_base), the rest into the split BTF. */
static int add_distilled(struct distill *d, bool to_base)
{
	for (__u32 id = 1; id < d->start; id++) {
		const struct btf_type *t;
		struct btf_type nt;
		__u16 kind;
		bool named, base_kind;
		long off;
		int err;

		if (!d->id_map[id])
			continue;
		t = b2b_btf_type_by_id(&d->r, id);
		kind = b2b_kind(t);
		named = t->name_off != 0;
		switch (kind) {
		case BTF_KIND_INT: case BTF_KIND_FLOAT: case BTF_KIND_FWD:
			base_kind = true;
			break;
		case BTF_KIND_STRUCT: case BTF_KIND_UNION: case BTF_KIND_ENUM: case BTF_KIND_ENUM64:
			base_kind = named;
			break;
		default:
			base_kind = false;
		}
		if (base_kind != to_base)
			continue;
		if (!to_base) {
			err = copy_to_split(d, t);
			if (err)
				return err;
			d->id_map[id] = d->base_cnt + d->split_cnt - 1;
			continue;
		}
		off = b2b_strtab_add(&d->base_strs, b2b_btf_name(&d->r, t));
		if (off < 0)
			return (int)off;
		nt = *t;
		nt.name_off = (__u32)off;
		if (kind == BTF_KIND_STRUCT || kind == BTF_KIND_UNION)
			nt.info = (__u32)kind << 24;
		else if (kind == BTF_KIND_ENUM || kind == BTF_KIND_ENUM64)
			nt.info = (__u32)BTF_KIND_ENUM << 24;
		err = append(&d->base_types, &d->base_len, &d->base_cap, &nt, sizeof(nt));
		if (!err && kind == BTF_KIND_INT)
			err = append(&d->base_types, &d->base_len, &d->base_cap,
				     (const __u32 *)t + 3, 4);
		if (err)
			return err;
		d->id_map[id] = d->base_cnt++;
	}
	return 0;
}

int b2b_distill_base(const void *data, size_t size, const struct b2b_btf *base,
		     void **base_out, size_t *base_size, struct b2b_pass_out *out)
{
	struct distill d = { 0 };
	__u32 cnt, diff, pos = 0, *map = NULL;
	int err;

	memset(out, 0, sizeof(*out));
	*base_out = NULL;
	if (!base)
		return -EINVAL;
	err = b2b_btf_open(&d.r, data, size, base);
	if (err)
		return err;
	d.start = d.r.start_id;
	cnt = b2b_btf_type_cnt(&d.r);
	d.base_cnt = 1;
	err = -ENOMEM;
	d.id_map = b2b_calloc(cnt, sizeof(*d.id_map));
	map = b2b_malloc((size_t)cnt * sizeof(*map));
	if (!d.id_map || !map || b2b_strtab_init(&d.base_strs, NULL))
		goto out;
	for (__u32 id = d.start; id < cnt; id++) {
		err = mark_refs(&d, b2b_btf_own_type(&d.r, id));
		if (err)
			goto out;
	}
	err = add_distilled(&d, true);
	if (err)
		goto out;
	err = b2b_strtab_init(&d.split_strs, &d.base_strs);
	for (__u32 id = d.start; id < cnt && !err; id++)
		err = copy_to_split(&d, b2b_btf_own_type(&d.r, id));
	if (!err)
		err = add_distilled(&d, false);
	if (err)
		goto out;

	/* ids: base types through id_map, split ones shifted down */
	diff = d.start - d.base_cnt;
	while (pos < d.split_len) {
		__u32 *w = (__u32 *)(d.split_types + pos);
		struct b2b_fields ids = b2b_fields((const struct btf_type *)w, B2B_W_REF);

		for (__u32 i; b2b_fields_next(&ids, &i); ) {
			if (w[i] < d.start && d.id_map[w[i]])
				w[i] = d.id_map[w[i]];
			else if (w[i] >= d.start)
				w[i] -= diff;
		}
		pos += b2b_type_words((const struct btf_type *)w) * 4;
	}
	for (__u32 id = 0; id < cnt; id++)
		map[id] = id < d.start ? d.id_map[id] : id - diff;
	err = b2b_raw_build(d.base_types, d.base_len, d.base_strs.buf, d.base_strs.len,
			    base_out, base_size);
	if (!err)
		err = b2b_raw_build(d.split_types, d.split_len, d.split_strs.buf,
				    d.split_strs.len, &out->data, &out->size);
	if (err) {
		free(*base_out);
		*base_out = NULL;
		goto out;
	}
	out->map = map;
	out->nr_map = cnt;
	map = NULL;
out:
	free(map);
	free(d.id_map);
	free(d.base_types);
	free(d.split_types);
	b2b_strtab_free(&d.base_strs);
	b2b_strtab_free(&d.split_strs);
	b2b_btf_free(&d.r);
	return err;
}
