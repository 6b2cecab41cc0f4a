// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The kfunc table. A kfunc is a FUNC tagged "bpf_kfunc" (clang, or pahole
 * >= 1.27 with decl_tag_kfuncs) or listed in a set8 flagged BTF_SET8_KFUNCS.
 * The second path is the one that works with pahole 1.24 and GCC, which
 * emit no decl tags at all. Its flags are the OR of the flags words of the
 * BTF_SET8_KFUNCS set8s that list it (the plan refuses sets that disagree).
 * Nothing here judges: what is wrong with an entry or a kfunc is the plan's.
 *
 * Lookups go through indexes built in one pass each (names hashed, decl tags
 * sorted by target) so the cost stays linear in the BTF and the sets.
 */
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/btf_info.h"
#include "input/kfuncs.h"

/* ---- decl tag index ---- */

/*
 * (target, id) order in linear time: a counting sort by target over the
 * range of targets the tags have (a module's tags name its own types: not
 * a counter for every base type), the tags taken in id order. The targets
 * are kept beside the ids, so that a lookup's binary search reads one
 * compact array instead of a tag type per step (a cache miss each, in a
 * BTF of megabytes).
 */
int b2b_tag_index_build(struct b2b_tag_index *idx, const struct b2b_btf *btf)
{
	__u32 cnt = b2b_btf_type_cnt(btf), lo = UINT32_MAX, hi = 0, n = 0;
	__u32 *pos, *src;

	memset(idx, 0, sizeof(*idx));
	for (__u32 id = btf->start_id; id < cnt; id++) {
		const struct btf_type *t = b2b_btf_own_type(btf, id);

		/* b2b_check_btf_types() refused targets past the last type */
		if (b2b_is_decl_tag(t) && t->type < cnt) {
			lo = t->type < lo ? t->type : lo;
			hi = t->type > hi ? t->type : hi;
			idx->nr++;
		}
	}
	if (!idx->nr)
		return 0;
	/* one block: the ids, then the targets */
	idx->ids = b2b_malloc(idx->nr * 2 * sizeof(*idx->ids));
	src = b2b_malloc(idx->nr * sizeof(*src));
	pos = b2b_calloc((size_t)(hi - lo) + 2, sizeof(*pos));
	if (!idx->ids || !src || !pos) {
		free(pos);
		free(src);
		b2b_tag_index_free(idx);
		return -ENOMEM;
	}
	idx->targets = idx->ids + idx->nr;
	for (__u32 id = btf->start_id; id < cnt; id++) {
		const struct btf_type *t = b2b_btf_own_type(btf, id);

		if (b2b_is_decl_tag(t) && t->type < cnt) {
			src[n++] = id;
			pos[t->type - lo + 1]++;
		}
	}
	for (__u32 k = 1; k <= hi - lo + 1; k++)
		pos[k] += pos[k - 1];
	for (__u32 k = 0; k < n; k++) {
		__u32 target = b2b_btf_own_type(btf, src[k])->type;
		__u32 at = pos[target - lo]++;

		idx->ids[at] = src[k];
		idx->targets[at] = target;
	}
	free(pos);
	free(src);
	return 0;
}

void b2b_tag_index_free(struct b2b_tag_index *idx)
{
	free(idx->ids);
	memset(idx, 0, sizeof(*idx));
}

size_t b2b_tag_index_find(const struct b2b_tag_index *idx, __u32 target, size_t *first)
{
	size_t lo = b2b_lower_bound_u32(idx->targets, idx->nr, target), end;

	for (end = lo; end < idx->nr && idx->targets[end] == target; end++)
		;
	*first = lo;
	return end - lo;
}

bool b2b_is_func_tag(const struct b2b_btf *btf, __u32 tag_id, const char *value)
{
	const struct btf_type *t = b2b_btf_type_by_id(btf, tag_id);
	const char *name;

	if (!t || !b2b_is_decl_tag(t) || b2b_kflag(t) || b2b_decl_tag(t)->component_idx != -1)
		return false;
	name = b2b_btf_str(btf, t->name_off);
	return name && !strcmp(name, value);
}

bool b2b_is_kfunc_tag(const struct b2b_btf *btf, __u32 tag_id)
{
	return b2b_is_func_tag(btf, tag_id, "bpf_kfunc");
}

/* b2b_is_kfunc_tag() for a run over every tag: once a tag named bpf_kfunc
 * is met, its name offset (*name_off) answers for the others without a
 * strcmp (pahole and clang write each string once). */
static bool is_kfunc_tag_cached(const struct b2b_btf *btf, __u32 tag_id, __u32 *name_off)
{
	const struct btf_type *t = b2b_btf_type_by_id(btf, tag_id);

	if (*name_off && t && t->name_off == *name_off)
		return b2b_is_decl_tag(t) && !b2b_kflag(t) && b2b_decl_tag(t)->component_idx == -1;
	if (!b2b_is_kfunc_tag(btf, tag_id))
		return false;
	*name_off = t->name_off;
	return true;
}

/* One pass over btf's own types, in ascending ids: the first type of a
 * name and kind seen is the lowest. */
void b2b_name_index_scan(struct b2b_name_index *idx, const struct b2b_btf *btf)
{
	__u32 cnt = b2b_btf_type_cnt(btf);

	if (!idx->nr)
		return;
	for (__u32 id = btf->start_id; id < cnt; id++) {
		const struct btf_type *t = b2b_btf_own_type(btf, id);
		const char *name = t->name_off ? b2b_btf_str(btf, t->name_off) : NULL;
		struct b2b_name_want *w;
		int want;

		if (!name || !*name || !b2b_name_index_may_start(idx, *name))
			continue;
		want = b2b_name_index_number(idx, name, strlen(name));
		if (!want)
			continue;
		w = &idx->want[want - 1];
		if (!w->any_id)
			w->any_id = id;
		if (!w->func_id && b2b_is_func(t))
			w->func_id = id;
	}
}

/* ---- the table ---- */

/*
 * Built straight into its final array, in three passes: mark every FUNC a
 * kfunc tag or a BTF_SET8_KFUNCS entry names (by how it was found, a byte
 * per type), number the marked ones in id order (the order the table is
 * kept in: no sort of the items) and fill them, then take the entries'
 * flags and names (an entry's item found by its FUNC, near the previous).
 */
struct builder {
	const struct b2b_btf *btf;
	__u32 start;
	__u8 *found_by;		/* type id - start: BTF2BTF_FOUND_* bits */
};

/* FUNC id of a set8 entry in the split part, or 0 (the plan says why). */
static __u32 entry_func(const struct builder *b, const struct b2b_set8_entry *ent,
			const struct b2b_name_index *names, int want)
{
	const struct btf_type *t;

	if (ent->name)
		return want ? b2b_name_index_found(names, want, BTF_KIND_FUNC)
			    : b2b_name_index_find(names, ent->name, BTF_KIND_FUNC);
	t = ent->id < b2b_btf_type_cnt(b->btf) ? b2b_btf_type_by_id(b->btf, ent->id) : NULL;
	return ent->id >= b->start && t && b2b_is_func(t) ? ent->id : 0;
}

/* Entry i's item index + 1, 0 when its FUNC is no kfunc; *hint: the
 * previous entry's (a set8 lists its FUNCs in id order as a rule). */
static __u32 entry_item(const struct b2b_kfuncs *out, size_t i, size_t *hint)
{
	const struct btf2btf_kfunc *k = b2b_kfunc_by_id_near(out, out->entry_func[i], hint);

	return k ? k - out->items + 1 : 0;
}

/*
 * k->sets of kfuncs listed by more than one set8: "a,b", the distinct set8
 * names in set order. Two passes over the entries, sorted by set so that a
 * repeat is adjacent: the lengths, then the strings.
 */
static int join_set_lists(const struct b2b_btf_ids *ids, struct b2b_kfuncs *out)
{
	size_t nr = out->nr ? out->nr : 1;
	__u32 *lens = b2b_calloc(nr, sizeof(*lens));
	__u32 *last = b2b_calloc(nr, sizeof(*last));
	int err = -ENOMEM;
	char *list;

	if (!lens || !last)
		goto out;
	for (size_t i = 0; i < out->nr; i++)
		out->items[i].sets = NULL;
	for (int pass = 0; pass < 2; pass++) {
		size_t hint = 0;

		memset(last, 0, nr * sizeof(*last));
		for (size_t i = 0; i < ids->nr_entries; i++) {
			__u32 r = entry_item(out, i, &hint);
			struct btf2btf_kfunc *k = &out->items[r ? r - 1 : 0];
			const char *name;
			size_t len;

			if (!r || last[r - 1] == ids->entries[i].set + 1)
				continue;
			last[r - 1] = ids->entries[i].set + 1;
			name = ids->sets[ids->entries[i].set].name;
			len = strlen(name);
			if (!pass) {
				/* the first set8: k->sets takes its name; from
				 * the second on, lens[] counts the list (commas, NUL) */
				if (!k->sets && !lens[r - 1]) {
					k->sets = name;
					continue;
				}
				if (k->sets)
					lens[r - 1] = strlen(k->sets) + 1;
				lens[r - 1] += len + 1;
				k->sets = NULL;
				continue;
			}
			if (!lens[r - 1])
				continue;	/* one set8: k->sets is its name */
			list = (char *)k->sets;
			if (!list) {
				list = b2b_arena_alloc(&out->strs, lens[r - 1]);
				if (!list)
					goto out;
				k->sets = list;
				lens[r - 1] = 0;
			} else {
				list[lens[r - 1]++] = ',';
			}
			memcpy(list + lens[r - 1], name, len + 1);
			lens[r - 1] += len;
		}
	}
	err = 0;
out:
	free(lens);
	free(last);
	return err;
}

/*
 * k->sets: the set8 names listing each kfunc ("" when none). A kfunc listed
 * by one set8 only (the rule) gets that set's name itself, which lives with
 * the handle: no copy per kfunc, and no memory at all when every kfunc is
 * listed by one set8 (one set is one name pointer, in every entry of it).
 */
static int set_lists(const struct b2b_btf_ids *ids, struct b2b_kfuncs *out)
{
	size_t hint = 0;
	bool joined = false;
	int err = 0;

	for (size_t i = 0; i < ids->nr_entries && !joined; i++) {
		__u32 r = entry_item(out, i, &hint);
		struct btf2btf_kfunc *k = &out->items[r ? r - 1 : 0];
		const char *name = ids->sets[ids->entries[i].set].name;

		if (!r)
			continue;
		joined = k->sets && k->sets != name;
		k->sets = name;
	}
	if (joined)
		err = join_set_lists(ids, out);
	for (size_t i = 0; i < out->nr; i++)
		if (!out->items[i].sets)
			out->items[i].sets = "";
	return err;
}

/* The FUNCs found numbered in id order and their items filled, but for
 * what the entries give. */
static int number_items(const struct builder *b, struct b2b_kfuncs *out)
{
	__u32 cnt = b2b_btf_type_cnt(b->btf), nr = 0;

	for (__u32 id = b->start; id < cnt; id++)
		nr += b->found_by[id - b->start] != 0;
	out->items = b2b_calloc(nr, sizeof(*out->items));
	if (!out->items)
		return -ENOMEM;
	for (__u32 id = b->start; id < cnt; id++) {
		struct btf2btf_kfunc *k;

		if (!b->found_by[id - b->start])
			continue;
		k = &out->items[out->nr++];
		k->btf_id = id;
		k->found_by = b->found_by[id - b->start];
		k->orig_proto_id = b2b_btf_type_by_id(b->btf, id)->type;
		k->state = k->planned = BTF2BTF_KFUNC_PLAIN;	/* the plan decides */
		k->implicit_arg = -1;
	}
	return 0;
}

int b2b_collect_kfuncs(const struct b2b_btf *btf, const struct b2b_name_index *names,
		       const int *entry_want, const struct b2b_tag_index *tags,
		       const struct b2b_btf_ids *ids, struct b2b_kfuncs *out,
		       const struct b2b_log *log)
{
	const struct b2b_btf *base = b2b_btf_base(btf);
	struct builder b = { .btf = btf, .start = base ? b2b_btf_type_cnt(base) : 1 };
	__u32 kfunc_name_off = 0;
	size_t hint = 0;
	int err = -ENOMEM;

	memset(out, 0, sizeof(*out));
	b.found_by = b2b_calloc(b2b_btf_type_cnt(btf) - b.start + 1, sizeof(*b.found_by));
	out->entry_func = b2b_calloc(ids->nr_entries + 1, sizeof(*out->entry_func));
	if (!b.found_by || !out->entry_func)
		goto out;

	for (size_t i = 0; i < tags->nr; i++) {
		const struct btf_type *tag = b2b_btf_type_by_id(btf, tags->ids[i]);
		const struct btf_type *t = b2b_btf_type_by_id(btf, tag->type);

		if (is_kfunc_tag_cached(btf, tags->ids[i], &kfunc_name_off) && b2b_is_func(t) &&
		    tag->type >= b.start)
			b.found_by[tag->type - b.start] |= BTF2BTF_FOUND_TAG;
	}
	for (size_t i = 0; i < ids->nr_entries; i++) {
		const struct b2b_set8_entry *ent = &ids->entries[i];
		__u32 id = entry_func(&b, ent, names, entry_want ? entry_want[i] : 0);

		out->entry_func[i] = id;
		/* as upstream: only a BTF_SET8_KFUNCS set8 makes a kfunc (for
		 * the transform); 6.0-6.8 kfunc sets are found for the views */
		if (id && (ids->sets[ent->set].flags & BTF2BTF_SET8_KFUNCS))
			b.found_by[id - b.start] |= BTF2BTF_FOUND_SET8;
		else if (id && b2b_set8_lists_kfuncs(&ids->sets[ent->set]))
			b.found_by[id - b.start] |= BTF2BTF_FOUND_KFUNC_ID_SET;
	}
	err = number_items(&b, out);
	if (err)
		goto out;
	/* the marks served: their memory serves what follows */
	free(b.found_by);
	b.found_by = NULL;
	for (size_t i = 0; i < ids->nr_entries; i++) {
		const struct b2b_set8_entry *ent = &ids->entries[i];
		__u32 item = entry_item(out, i, &hint);
		struct btf2btf_kfunc *k = &out->items[item ? item - 1 : 0];

		if (!item)
			continue;	/* in no BTF_SET8_KFUNCS set8, and not tagged */
		if (ent->name)
			k->name = ent->name;	/* lives with the handle */
		if (b2b_set8_lists_kfuncs(&ids->sets[ent->set]))
			k->flags |= ent->flags;
	}
	for (size_t i = 0; i < out->nr; i++) {
		struct btf2btf_kfunc *k = &out->items[i];

		if (!k->name)	/* found by tag alone: a copy, as BTF strings go with the BTF */
			k->name = b2b_arena_strdup(&out->strs,
						   b2b_btf_str(btf, b2b_btf_type_by_id(btf, k->btf_id)->name_off));
		if (!k->name) {
			err = -ENOMEM;
			goto out;
		}
	}
	err = set_lists(ids, out);
out:
	if (err == -ENOMEM)
		b2b_err(log, "out of memory");
	if (err)
		b2b_kfuncs_free(out);
	free(b.found_by);
	return err;
}

static int cmp_kfunc_id(const void *key, const void *item)
{
	__u32 id = *(const __u32 *)key, other = ((const struct btf2btf_kfunc *)item)->btf_id;

	return id < other ? -1 : id > other;
}

struct btf2btf_kfunc *b2b_kfunc_by_id(const struct b2b_kfuncs *k, __u32 id)
{
	return id ? bsearch(&id, k->items, k->nr, sizeof(*k->items), cmp_kfunc_id) : NULL;
}

struct btf2btf_kfunc *b2b_kfunc_by_id_near(const struct b2b_kfuncs *k, __u32 id, size_t *hint)
{
	struct btf2btf_kfunc *kf;

	for (size_t i = *hint; i < k->nr && i <= *hint + 1; i++)
		if (k->items[i].btf_id == id)
			return &k->items[*hint = i];
	kf = b2b_kfunc_by_id(k, id);
	if (kf)
		*hint = kf - k->items;
	return kf;
}

void b2b_kfuncs_free(struct b2b_kfuncs *k)
{
	b2b_arena_free(&k->strs);
	free(k->items);
	free(k->entry_func);
	memset(k, 0, sizeof(*k));
}
