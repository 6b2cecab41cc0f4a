// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Relocation of split BTF from its distilled base onto the real base, by
 * the rules of the kernel's (and libbpf >= 1.5's) btf_relocate.c: each
 * distilled base type is looked up in the base by name; INT, FLOAT, ENUM
 * (an ENUM64 of the same size too) match by kind and size, an INT by its
 * encoding too; a FWD matches a FWD of the same kind_flag or the STRUCT or
 * UNION it declares; a STRUCT or UNION matches by kind, and by size too
 * when the split BTF embeds it (a member, through modifiers, typedefs and
 * arrays but no pointer) or when the base has more than one composite of
 * that name. Two base candidates for one distilled type is an error (which
 * one would the kernel take?), as is a distilled type without a match.
 * Split ids move by the difference in type counts, split strings by the
 * difference in string lengths; names of distilled types become the base's.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "input/btf_check.h"
#include "input/btf_relocate.h"
#include "input/split_check.h"

/* A distilled type as looked up: by name, then size. */
struct dist_key {
	const char *name;
	__u32 size;
	__u32 id;
};

struct relocate {
	const struct b2b_btf *split, *dist, *base;
	__u32 nr_dist, nr_base, nr;
	__u32 dist_str_len, base_str_len;
	struct dist_key *keys;	/* distilled types 1 .. nr_dist - 1, sorted */
	bool *embedded;		/* per distilled id: a split composite holds it by value */
	__u32 *id_map;		/* split's ids (distilled base ones too) -> ids on base */
	__u32 *str_map;		/* distilled name offset -> base name offset */
	const char *base_name;
	const struct b2b_log *log;
};

static int cmp_key(const struct dist_key *a, const struct dist_key *b, bool by_size)
{
	int d = strcmp(a->name, b->name);

	if (d || !by_size)
		return d;
	return a->size < b->size ? -1 : a->size > b->size;
}

static int cmp_keys(const void *a, const void *b)
{
	int d = cmp_key(a, b, true);

	return d ? d : (((const struct dist_key *)a)->id > ((const struct dist_key *)b)->id) -
		       (((const struct dist_key *)a)->id < ((const struct dist_key *)b)->id);
}

/* The first key equal to *key (by name, and size when by_size), or NULL. */
static const struct dist_key *find_first(const struct relocate *r, const struct dist_key *key,
					 bool by_size)
{
	size_t lo = 0, hi = r->nr_dist - 1;	/* keys of ids 1 .. nr_dist - 1 */

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (cmp_key(&r->keys[mid], key, by_size) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < r->nr_dist - 1 && !cmp_key(&r->keys[lo], key, by_size))
		return &r->keys[lo];
	return NULL;
}

static const char *type_name(const struct b2b_btf *btf, const struct btf_type *t)
{
	const char *name = b2b_btf_str(btf, t->name_off);

	return name ? name : "";
}

int b2b_check_distilled_base(const struct b2b_btf *dist, const char *what,
			     const struct b2b_log *log)
{
	__u32 nr = b2b_btf_type_cnt(dist);

	for (__u32 id = 1; id < nr; id++) {
		const struct btf_type *t = b2b_btf_type_by_id(dist, id);

		switch (b2b_kind(t)) {
		case BTF_KIND_INT: case BTF_KIND_FLOAT: case BTF_KIND_ENUM:
		case BTF_KIND_STRUCT: case BTF_KIND_UNION: case BTF_KIND_FWD:
			if (t->name_off)
				continue;
			return b2b_errno(log, -EINVAL,
					 "%s: type [%u] (%s) is anonymous: a distilled base holds named types only",
					 what, id, btf2btf__kind_name(b2b_kind(t)));
		default:
			return b2b_errno(log, -EINVAL,
					 "%s: type [%u] '%s' is a %s: a distilled base holds only INT, FLOAT, ENUM, STRUCT, UNION and FWD",
					 what, id, type_name(dist, t), btf2btf__kind_name(b2b_kind(t)));
		}
	}
	return 0;
}

/* The distilled composites a split struct or union holds by value. */
static void mark_embedded(struct relocate *r, const struct btf_type *t)
{
	const struct btf_member *m = b2b_members(t);

	for (__u32 i = 0; i < b2b_vlen(t); i++) {
		__u32 id = m[i].type;

		while (id) {
			const struct btf_type *mt = b2b_btf_type_by_id(r->split, id);

			switch (b2b_kind(mt)) {
			case BTF_KIND_CONST: case BTF_KIND_RESTRICT: case BTF_KIND_VOLATILE:
			case BTF_KIND_TYPEDEF: case BTF_KIND_TYPE_TAG:
				id = mt->type;
				break;
			case BTF_KIND_ARRAY:
				id = b2b_array(mt)->type;
				break;
			case BTF_KIND_STRUCT: case BTF_KIND_UNION:
				if (id < r->nr_dist)
					r->embedded[id] = true;
				id = 0;
				break;
			default:
				id = 0;
			}
		}
	}
}

/* Can distilled type dt stand for base type bt (same name)? */
static bool compatible(const struct relocate *r, __u32 dist_id, const struct btf_type *dt,
		       const struct btf_type *bt)
{
	__u16 bkind = b2b_kind(bt);

	switch (b2b_kind(dt)) {
	case BTF_KIND_FWD:
		if (bkind == BTF_KIND_FWD)
			return b2b_kflag(dt) == b2b_kflag(bt);
		if (bkind == BTF_KIND_STRUCT)
			return !b2b_kflag(bt);
		if (bkind == BTF_KIND_UNION)
			return b2b_kflag(bt);
		return false;
	case BTF_KIND_INT:
		return bkind == BTF_KIND_INT && b2b_int_encoding(bt) == b2b_int_encoding(dt);
	case BTF_KIND_FLOAT:
		return bkind == BTF_KIND_FLOAT;
	case BTF_KIND_ENUM:
		return bkind == BTF_KIND_ENUM || bkind == BTF_KIND_ENUM64;
	case BTF_KIND_STRUCT: case BTF_KIND_UNION:
		/* the kernel compares the kinds only through the name lookup
		 * (a union and a struct of one name are two candidates) */
		return (bkind == BTF_KIND_STRUCT || bkind == BTF_KIND_UNION) &&
		       (!r->embedded[dist_id] || bt->size == dt->size);
	default:
		return false;
	}
}

static const char *int_encoding(const struct btf_type *t)
{
	switch (b2b_int_encoding(t)) {
	case 0: return "none";
	case BTF_INT_SIGNED: return "SIGNED";
	case BTF_INT_CHAR: return "CHAR";
	case BTF_INT_BOOL: return "BOOL";
	default: return "several";
	}
}

/* Why base type bt, of the same name, is no match for distilled type dt. */
static void mismatch(const struct btf_type *dt, const struct btf_type *bt, char *buf, size_t size)
{
	__u16 dkind = b2b_kind(dt), bkind = b2b_kind(bt);

	if (dkind == BTF_KIND_INT && bkind == BTF_KIND_INT && dt->size == bt->size)
		snprintf(buf, size, "has encoding %s, the distilled one %s", int_encoding(bt),
			 int_encoding(dt));
	else if (dkind == BTF_KIND_FWD || bkind == BTF_KIND_FWD)
		snprintf(buf, size, "is a %s%s", btf2btf__kind_name(bkind),
			 bkind == BTF_KIND_FWD ? (b2b_kflag(bt) ? " of a union" : " of a struct") : "");
	else if (dkind != bkind && !(dkind == BTF_KIND_ENUM && bkind == BTF_KIND_ENUM64) &&
		 !(b2b_is_composite(dt) && b2b_is_composite(bt)))
		snprintf(buf, size, "is of another kind");
	else
		snprintf(buf, size, "has size %u", bt->size);
}

/* Why distilled type id matched nothing in the base: a message naming it. */
static int no_match(const struct relocate *r, __u32 id)
{
	const struct btf_type *dt = b2b_btf_type_by_id(r->dist, id), *bt;
	const char *name = type_name(r->dist, dt);
	char dsize[96] = "", why[96];

	if (b2b_kind(dt) != BTF_KIND_FWD)
		snprintf(dsize, sizeof(dsize), " (size %u%s)", dt->size,
			 r->embedded[id] ? ", embedded in a type of the module: sizes must match" : "");
	for (__u32 bid = 1; bid < r->nr_base; bid++) {
		bt = b2b_btf_type_by_id(r->base, bid);
		if (!bt->name_off || strcmp(type_name(r->base, bt), name))
			continue;
		switch (b2b_kind(bt)) {
		case BTF_KIND_INT: case BTF_KIND_FLOAT: case BTF_KIND_ENUM: case BTF_KIND_ENUM64:
		case BTF_KIND_STRUCT: case BTF_KIND_UNION: case BTF_KIND_FWD:
			break;
		default:
			continue;	/* a typedef or func of that name is no candidate */
		}
		mismatch(dt, bt, why, sizeof(why));
		return b2b_errno(r->log, -EINVAL,
				 "distilled base type %s '%s' [%u]%s does not match %s: its %s '%s' [%u] %s" KERNEL_REFUSES,
				 btf2btf__kind_name(b2b_kind(dt)), name, id, dsize, r->base_name,
				 btf2btf__kind_name(b2b_kind(bt)), name, bid, why);
	}
	return b2b_errno(r->log, -EINVAL,
			 "distilled base type %s '%s' [%u]%s does not match %s: no type of that name there" KERNEL_REFUSES,
			 btf2btf__kind_name(b2b_kind(dt)), name, id, dsize, r->base_name);
}

/* id_map and str_map of the distilled base, from one pass over the base. */
static int map_distilled(struct relocate *r)
{
	__u8 *name_cnt;
	int err = 0;

	for (__u32 id = 1; id < r->nr_dist; id++) {
		const struct btf_type *t = b2b_btf_type_by_id(r->dist, id);

		r->keys[id - 1] = (struct dist_key){ type_name(r->dist, t), t->size, id };
	}
	qsort(r->keys, r->nr_dist - 1, sizeof(*r->keys), cmp_keys);

	/* composites of a name the base has more than once match by size */
	name_cnt = b2b_calloc(r->base_str_len, 1);
	if (!name_cnt)
		return -ENOMEM;
	for (__u32 id = 1; id < r->nr_base; id++) {
		const struct btf_type *t = b2b_btf_type_by_id(r->base, id);

		if (b2b_is_composite(t) && t->name_off < r->base_str_len && name_cnt[t->name_off] < 255)
			name_cnt[t->name_off]++;
	}

	for (__u32 id = 1; id < r->nr_base && !err; id++) {
		const struct btf_type *bt = b2b_btf_type_by_id(r->base, id);
		struct dist_key key = { .id = id };
		bool by_size;

		if (!bt->name_off)
			continue;
		switch (b2b_kind(bt)) {
		case BTF_KIND_INT: case BTF_KIND_FLOAT: case BTF_KIND_ENUM: case BTF_KIND_ENUM64:
			by_size = true;
			break;
		case BTF_KIND_FWD:
			by_size = false;
			break;
		case BTF_KIND_STRUCT: case BTF_KIND_UNION:
			by_size = bt->name_off < r->base_str_len && name_cnt[bt->name_off] > 1;
			break;
		default:
			continue;
		}
		key.name = type_name(r->base, bt);
		key.size = bt->size;
		for (const struct dist_key *k = find_first(r, &key, by_size);
		     k && k < r->keys + r->nr_dist - 1 && !cmp_key(k, &key, by_size); k++) {
			const struct btf_type *dt = b2b_btf_type_by_id(r->dist, k->id);

			if (!compatible(r, k->id, dt, bt))
				continue;
			if (r->id_map[k->id]) {
				err = b2b_errno(r->log, -EINVAL,
						"distilled base type %s '%s' [%u] (size %u) matches two types of %s: [%u] and [%u] (it cannot tell which)" KERNEL_REFUSES,
						btf2btf__kind_name(b2b_kind(dt)), k->name, k->id,
						dt->size, r->base_name, r->id_map[k->id], id);
				break;
			}
			r->id_map[k->id] = id;
			r->str_map[dt->name_off] = bt->name_off;
		}
	}
	free(name_cnt);
	for (__u32 id = 1; id < r->nr_dist && !err; id++)
		if (!r->id_map[id])
			err = no_match(r, id);
	return err;
}

/* Ids and name offsets of split type words w, onto the base. */
static int rewrite_type(struct relocate *r, __u32 *w)
{
	for (struct b2b_words it = b2b_words((const struct btf_type *)w, 0); b2b_words_next(&it); ) {
		__u32 i = it.i;

		switch (it.cls) {
		case B2B_W_REF:
			if (w[i] >= r->nr)
				return -EINVAL;	/* parsed and checked already */
			w[i] = r->id_map[w[i]];
			break;
		case B2B_W_STR:
			if (!w[i])
				break;
			if (w[i] >= r->dist_str_len) {
				w[i] += r->base_str_len - r->dist_str_len;
			} else if (r->str_map[w[i]]) {
				w[i] = r->str_map[w[i]];
			} else {
				return b2b_errno(r->log, -EINVAL,
						 "the split BTF names '%s' (offset %u) of its distilled base, which is no distilled type's name" KERNEL_REFUSES,
						 b2b_btf_str(r->dist, w[i]) ?: "", w[i]);
			}
			break;
		default:
			break;
		}
	}
	return 0;
}

int b2b_relocate(const struct b2b_btf *split, const struct b2b_btf *base, const char *base_name,
		 struct b2b_pass_out *out, const struct b2b_log *log)
{
	struct relocate r = {
		.split = split, .dist = b2b_btf_base(split), .base = base,
		.base_name = base_name, .log = log,
	};
	struct b2b_btf raw = { 0 };
	size_t size = split->size;
	int err;

	memset(out, 0, sizeof(*out));
	if (!r.dist || r.dist == base)
		return -EINVAL;
	r.nr_dist = b2b_btf_type_cnt(r.dist);
	r.nr_base = b2b_btf_type_cnt(base);
	r.nr = b2b_btf_type_cnt(split);
	r.dist_str_len = (__u32)b2b_btf_str_end(r.dist);
	r.base_str_len = (__u32)b2b_btf_str_end(base);
	err = b2b_check_distilled_base(r.dist, "distilled base", log);
	if (err)
		return err;
	err = -ENOMEM;
	out->data = b2b_malloc(size);
	r.keys = b2b_calloc(r.nr_dist, sizeof(*r.keys));
	r.embedded = b2b_calloc(r.nr_dist, sizeof(*r.embedded));
	r.id_map = b2b_calloc(r.nr, sizeof(*r.id_map));
	r.str_map = b2b_calloc(r.dist_str_len + 1, sizeof(*r.str_map));
	if (!out->data || !r.keys || !r.embedded || !r.id_map || !r.str_map)
		goto out;
	memcpy(out->data, split->data, size);
	out->size = size;
	err = b2b_btf_open(&raw, out->data, size, r.dist);
	if (err)
		goto out;

	for (__u32 id = r.nr_dist; id < r.nr; id++) {
		const struct btf_type *t = b2b_btf_type_by_id(split, id);

		r.id_map[id] = id - r.nr_dist + r.nr_base;
		if (b2b_is_composite(t))
			mark_embedded(&r, t);
	}
	err = map_distilled(&r);
	for (__u32 i = 0; i < raw.nr && !err; i++)
		/* raw indexes out->data, ours to write */
		err = rewrite_type(&r, (__u32 *)(uintptr_t)(raw.types + raw.offs[i]));
out:
	b2b_btf_free(&raw);
	free(r.keys);
	free(r.embedded);
	free(r.str_map);
	if (err == -ENOMEM)
		b2b_errno(log, err, "out of memory");
	if (err) {
		free(r.id_map);
		free(out->data);
		memset(out, 0, sizeof(*out));
		return err;
	}
	out->map = r.id_map;
	out->nr_map = r.nr;
	return 0;
}
