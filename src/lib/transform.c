// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Stage 3 of the pipeline (open -> plan -> edit -> post-passes -> write):
 * drives the edit and the post-passes and commits their one result.
 *
 * The transform carries out the plan (plan.c decides, this file only does).
 * For kfunc bpf_foo(int a, struct bpf_prog_aux *aux) flagged KF_IMPLICIT_ARGS:
 *
 *   bpf_foo_impl(int a, struct bpf_prog_aux *aux)   new FUNC, original proto,
 *                                                   every decl tag but bpf_kfunc
 *   __bpf_kfunc bpf_foo(int a)                      new, reduced FUNC_PROTO
 *
 * Prototypes are shared (GCC + pahole give f and f_impl one proto), so a
 * proto is never edited: a new one is added and only the kfunc's FUNC is
 * repointed. With the features asked for, also "bpf_fastcall" and
 * "bpf_kfunc" decl tags and address_space(1) type attributes on arena
 * pointers (upstream's order: the arena proto is made from the reduced one).
 *
 * All of it is built aside (struct b2b_ext, new states and stats in struct
 * tx) and committed to the handle only once nothing can fail any more.
 */
#include <bpf/btf.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "btf_format.h"
#include "btf_edit.h"
#include "btf_post.h"
#include "handle.h"
#include "libbpf_compat.h"
#include "plan.h"

struct tx {
	const struct btf *btf;			/* as read: never modified */
	const struct b2b_tag_index *tags;	/* of btf */
	const struct b2b_log *log;
	struct b2b_ext ext;			/* what the transform adds and repoints */
	__u32 *reduced_of;			/* original proto id -> reduced proto id */
	__u32 nr_orig;				/* type count as read */
	struct btf2btf_stats stats;		/* the handle's, updated aside */
	/* the FUNCs <name>_impl added, a kfunc with BTF2BTF_ACT_ADD_IMPL each,
	 * in kfunc order: with the actions, all the kfuncs' results (committed
	 * at the end), 4 bytes an added _impl instead of 12 a kfunc */
	__u32 *new_impl;
	size_t nr_new_impl;
};

/* Copy the kfunc's decl tags to _impl, bpf_kfunc excepted. A tag on a
 * parameter the reduced proto drops moves to _impl instead: left on the
 * kfunc it would point past the end of its prototype. */
static int move_tags(struct tx *tx, const struct btf2btf_kfunc *k, __u32 impl_id,
		     const char *impl_name, bool copy, int keep)
{
	size_t first, n;

	n = b2b_tag_index_find(tx->tags, k->btf_id, &first);
	for (size_t i = first; i < first + n; i++) {
		__u32 tag_id = tx->tags->ids[i];
		const struct btf_type *t = btf__type_by_id(tx->btf, tag_id);
		int idx = btf_decl_tag(t)->component_idx;
		int err;

		if (b2b_is_kfunc_tag(tx->btf, tag_id))
			continue;
		if (idx >= keep) {
			err = b2b_ext_retype(&tx->ext, tag_id, impl_id);
			if (err)
				return b2b_errno(tx->log, err, "cannot move a decl tag of %s", k->name);
			continue;
		}
		if (!copy)
			continue;
		/* tx->btf is never modified: its strings stay put */
		err = b2b_ext_add_decl_tag(&tx->ext, btf__name_by_offset(tx->btf, t->name_off),
					   impl_id, idx, btf_kflag(t));
		if (err < 0)
			return b2b_errno(tx->log, err, "cannot add decl tag to %s: %s", impl_name,
					 strerror(-err));
	}
	return 0;
}

/* One reduced proto per original proto: kfuncs sharing a proto share it. */
static int reduced_proto(struct tx *tx, __u32 proto_id, __u16 keep)
{
	int id;

	if (proto_id < tx->nr_orig && tx->reduced_of[proto_id])
		return tx->reduced_of[proto_id];
	id = b2b_ext_add_proto_prefix(&tx->ext, proto_id, keep);
	if (id > 0 && proto_id < tx->nr_orig)
		tx->reduced_of[proto_id] = id;
	return id;
}

static int add_func_tag(struct tx *tx, const char *value, __u32 id, const char *name)
{
	int tag = b2b_ext_add_decl_tag(&tx->ext, value, id, -1, false);

	if (tag < 0)
		return b2b_errno(tx->log, tag, "cannot add %s tag to %s: %s", value, name,
				 strerror(-tag));
	return 0;
}

/* A new pointer to ptr_id's target through an address_space(1) attribute. */
static int arena_ptr(struct tx *tx, __u32 ptr_id)
{
	int tag = b2b_ext_add_type_tag(&tx->ext, B2B_ARENA_ATTR, btf__type_by_id(tx->btf, ptr_id)->type,
				       true);

	return tag < 0 ? tag : b2b_ext_add_ptr(&tx->ext, tag);
}

/* The kfunc's prototype (its first nr params) with the arena pointers tagged. */
static int arena_proto(struct tx *tx, const struct btf2btf_kfunc *k, __u32 proto_id, __u16 nr)
{
	const struct btf_type *proto = btf__type_by_id(tx->btf, proto_id);
	int ret = proto->type, id, err = 0;

	if (k->actions & BTF2BTF_ACT_ARENA_RET)
		ret = arena_ptr(tx, proto->type);
	id = ret < 0 ? ret : b2b_ext_add_proto(&tx->ext, proto_id, nr, ret);
	for (__u16 i = 0; id > 0 && i < nr && i < 64 && !err; i++) {
		int ptr;

		if (!(k->arena_args & (1ULL << i)))
			continue;
		ptr = arena_ptr(tx, btf_params(proto)[i].type);
		err = ptr < 0 ? ptr : b2b_ext_set_param_type(&tx->ext, id, i, ptr);
	}
	if (id > 0 && !err)
		err = b2b_ext_retype(&tx->ext, k->btf_id, id);
	if (id < 0 || err)
		return b2b_errno(tx->log, id < 0 ? id : err,
				 "cannot add the arena prototype of %s: %s", k->name,
				 strerror(-(id < 0 ? id : err)));
	tx->stats.arena_protos++;
	return 0;
}

static int run_kfunc(struct tx *tx, const struct btf2btf_kfunc *k)
{
	const struct btf_type *func = btf__type_by_id(tx->btf, k->btf_id);
	__u32 proto_id = func->type;
	__u16 nr = b2b_vlen(btf__type_by_id(tx->btf, proto_id));
	int keep = k->actions & BTF2BTF_ACT_REDUCE_PROTO ? (int)k->reduced_params : nr;
	int err, id;

	if (k->planned == BTF2BTF_KFUNC_ALREADY)
		tx->stats.already++;
	if (k->actions & BTF2BTF_ACT_FASTCALL_TAG) {
		err = add_func_tag(tx, "bpf_fastcall", k->btf_id, k->name);
		if (err)
			return err;
		tx->stats.fastcall_added++;
	}
	if (k->actions & BTF2BTF_ACT_ADD_IMPL) {
		const char *impl_name = k->impl_name;	/* named by the plan */

		if (!impl_name)
			return b2b_errno(tx->log, -EINVAL, "kfunc %s: the plan named no %s",
					 k->name, BTF2BTF_IMPL_SUFFIX);
		id = b2b_ext_add_func(&tx->ext, impl_name, b2b_vlen(func), proto_id);
		if (id < 0)
			return b2b_errno(tx->log, id, "cannot add FUNC %s: %s", impl_name,
					 strerror(-id));
		tx->new_impl[tx->nr_new_impl++] = id;
		err = move_tags(tx, k, id, impl_name, true, keep);
		if (!err && (k->actions & BTF2BTF_ACT_FASTCALL_TAG))
			err = add_func_tag(tx, "bpf_fastcall", id, impl_name);
		if (err)
			return err;
		if (k->actions & BTF2BTF_ACT_FASTCALL_TAG)
			tx->stats.fastcall_added++;
		tx->stats.impl_added++;
		tx->stats.transformed++;
	} else if (k->actions & BTF2BTF_ACT_USE_LEGACY) {
		if (k->actions & BTF2BTF_ACT_MOVE_TAGS) {
			err = move_tags(tx, k, k->impl_id, NULL, false, keep);
			if (err)
				return err;
		}
		tx->stats.legacy++;
		tx->stats.transformed++;
	}
	if (k->actions & BTF2BTF_ACT_REDUCE_PROTO) {
		id = reduced_proto(tx, proto_id, keep);
		if (id < 0)
			return b2b_errno(tx->log, id, "cannot add the reduced prototype of %s: %s",
					 k->name, strerror(-id));
		err = b2b_ext_retype(&tx->ext, k->btf_id, id);
		if (err)
			return b2b_errno(tx->log, err, "cannot repoint kfunc %s", k->name);
	}
	if (k->actions & (BTF2BTF_ACT_ARENA_RET | BTF2BTF_ACT_ARENA_ARGS))
		return arena_proto(tx, k, proto_id, keep);
	return 0;
}

/* The plan, carried out into tx. */
static int run(struct tx *tx, const struct btf2btf *b)
{
	int err = 0;

	for (size_t i = 0; i < b->kfuncs.nr && !err; i++)
		err = run_kfunc(tx, &b->kfuncs.items[i]);
	/* after every other addition, where the --add-kfunc-tags run always put them */
	for (size_t i = 0; i < b->kfuncs.nr && !err; i++) {
		const struct btf2btf_kfunc *k = &b->kfuncs.items[i];

		if (!(k->actions & BTF2BTF_ACT_KFUNC_TAG))
			continue;
		err = add_func_tag(tx, "bpf_kfunc", k->btf_id, k->name);
		if (!err)
			tx->stats.tags_added++;
	}
	return err;
}

static int cmp_item_by_id(const void *a, const void *b, void *items)
{
	__u32 x = ((const struct btf2btf_kfunc *)items)[*(const __u32 *)a].btf_id;
	__u32 y = ((const struct btf2btf_kfunc *)items)[*(const __u32 *)b].btf_id;

	return x < y ? -1 : x > y;
}

/*
 * The kfunc table sorted by the new ids. Sorted through their indexes, from[] (scratch, nr entries), and
 * then moved in place, a cycle at a time: a qsort() of the items themselves
 * would take a temporary copy of the table.
 */
static void sort_kfuncs_by_id(struct b2b_kfuncs *k, __u32 *from)
{
	for (size_t i = 0; i < k->nr; i++)
		from[i] = i;
	qsort_r(from, k->nr, sizeof(*from), cmp_item_by_id, k->items);
	for (size_t i = 0; i < k->nr; i++) {
		struct btf2btf_kfunc item;
		size_t j = i;

		if (from[i] == i)
			continue;
		item = k->items[i];
		while (from[j] != i) {
			size_t next = from[j];

			k->items[j] = k->items[next];
			from[j] = j;
			j = next;
		}
		k->items[j] = item;
		from[j] = j;
	}
}

static void remap_id(__u32 *id, const __u32 *map, __u32 nr)
{
	if (*id && *id < nr)
		*id = map[*id];
}

/* Every id the handle exposes, after the post-passes renumbered the types. */
static void remap_handle(struct btf2btf *b, const __u32 *map, __u32 nr, __u32 *scratch)
{
	for (size_t i = 0; i < b->kfuncs.nr; i++) {
		struct btf2btf_kfunc *k = &b->kfuncs.items[i];

		remap_id(&k->btf_id, map, nr);
		remap_id(&k->orig_proto_id, map, nr);
		remap_id(&k->impl_id, map, nr);
	}
	sort_kfuncs_by_id(&b->kfuncs, scratch);
	for (size_t i = 0; i < b->plan.nr; i++)
		remap_id(&b->plan.problems[i].id, map, nr);
	for (size_t i = 0; i < b->ids.nr_entries; i++)
		remap_id(&b->kfuncs.entry_func[i], map, nr);
	for (size_t i = 0; i < b->base_names.nr; i++) {
		remap_id(&b->base_names.want[i].func_id, map, nr);
		remap_id(&b->base_names.want[i].any_id, map, nr);
	}
	for (size_t i = 0; b->set8_view && i < b->ids.nr_entries; i++)
		remap_id(&b->set8_view[i].id, map, nr);
	/* the decl tag index served the transform and describes the old ids */
	b2b_tag_index_free(&b->tags);
	b->tags_built = false;
}

static bool is_identity(const __u32 *map, __u32 nr)
{
	for (__u32 i = 0; map && i < nr; i++)
		if (map[i] != i)
			return false;
	return true;
}

/* dedup, sort or distill: passes that read the result laid out whole */
static bool post_passes_wanted(const struct btf2btf *b)
{
	return b->features & (BTF2BTF_FEAT_DEDUP | BTF2BTF_FEAT_SORT) || b->distill;
}

/*
 * Dedup, distilled base and sort by name (b->features, b->distill) over
 * post->btf: the transform's result, or a copy of the BTF read when the
 * transform changed nothing. b is not touched: commit() applies the result.
 */
static int run_post_passes(const struct btf2btf *b, struct b2b_post *post)
{
	int err;

	if (!post->btf.data) {
		const void *raw;
		__u32 sz = 0;

		raw = btf__raw_data(b->btf, &sz);	/* native: btf_format.h */
		post->btf.data = raw ? b2b_malloc(sz) : NULL;
		if (!post->btf.data)
			return b2b_errno(&b->log, -ENOMEM, "out of memory");
		memcpy(post->btf.data, raw, sz);
		post->btf.size = sz;
	}
	err = b2b_post_run(post);
	if (err == -EINVAL && post->distill)
		return b2b_errno(&b->log, err,
				 "cannot distill the base: the split BTF refers to a base type of a kind a distilled base cannot hold (FUNC, VAR, DATASEC or a tag)");
	if (err)
		return b2b_errno(&b->log, err, "cannot %s the BTF: %s",
				 post->dedup ? "deduplicate/sort" : "sort", strerror(-err));
	if (post->dedup)
		b2b_debug(&b->log, "dedup: %s",
			  post->full_dedup ? "libbpf's btf__dedup() (the input is not deduplicated, or a new type needs a graph comparison)"
					   : "new types matched by hash against the deduplicated input");
	if (!is_identity(post->btf.map, post->btf.nr_map)) {
		for (size_t i = 0; i < b->ids.nr_sets; i++) {
			if (b->ids.sets[i].resolved)
				return b2b_errno(&b->log, -EINVAL,
						 "set8 %s in .BTF_ids is resolved already (resolve_btfids ran): dedup/sort/distill would renumber the types its ids name; run btf2btf before resolve_btfids",
						 b->ids.sets[i].name);
		}
	}
	return 0;
}

static int start(struct tx *tx, const struct btf2btf *b)
{
	size_t nr_add = 0;

	tx->btf = b->btf;
	tx->tags = &b->tags;
	tx->log = &b->log;
	tx->stats = b->stats;
	tx->nr_orig = btf__type_cnt(b->btf);
	if (b2b_ext_init(&tx->ext, b->btf))
		return -ENOMEM;
	tx->reduced_of = b2b_calloc(tx->nr_orig, sizeof(*tx->reduced_of));
	for (size_t i = 0; i < b->kfuncs.nr; i++)
		nr_add += !!(b->kfuncs.items[i].actions & BTF2BTF_ACT_ADD_IMPL);
	tx->new_impl = b2b_calloc(nr_add + 1, sizeof(*tx->new_impl));
	if (!tx->reduced_of || !tx->new_impl)
		return -ENOMEM;
	return 0;
}

static void finish(struct tx *tx)
{
	b2b_ext_free(&tx->ext);
	free(tx->reduced_of);
	free(tx->new_impl);
}

/* Nothing here can fail: the transform's result becomes the handle's.
 * result: the transformed BTF with every post-pass applied (NULL: the BTF
 * read is the result). scratch: room for the kfunc table's indexes when
 * post has an id map. */
static void commit(struct btf2btf *b, struct tx *tx, struct btf *result, bool changed,
		   struct b2b_post *post, __u32 *scratch)
{
	size_t added = 0;

	/* what run_kfunc() did, all of it, as the transform is all or nothing */
	for (size_t i = 0; i < b->kfuncs.nr; i++) {
		struct btf2btf_kfunc *k = &b->kfuncs.items[i];

		if (k->actions & BTF2BTF_ACT_ADD_IMPL) {
			k->state = BTF2BTF_KFUNC_TRANSFORMED;
			k->impl_id = tx->new_impl[added++];
		} else if (k->actions & BTF2BTF_ACT_USE_LEGACY) {
			k->state = BTF2BTF_KFUNC_LEGACY;
		}
	}
	b->stats = tx->stats;
	if (post->btf.map)
		remap_handle(b, post->btf.map, post->btf.nr_map, scratch);
	if (result) {
		btf__free(b->btf);
		b->btf = result;
		b2b_raw_out_forget(b, 0);
	}
	if (post->new_base) {
		b2b_raw_out_forget(b, 1);
		if (b->base != b->lent_base)	/* a base the caller lent stays theirs */
			btf__free(b->base);
		b->base = post->new_base;
		b->distilled = true;
		post->new_base = NULL;
	}
	b->transformed = true;
	b->changed = changed || post->changed || b->distilled;
}

int btf2btf__transform(struct btf2btf *b)
{
	struct b2b_post post = {
		.dedup = b->features & BTF2BTF_FEAT_DEDUP,
		.sort = b->features & BTF2BTF_FEAT_SORT,
		.distill = b->distill,
		.base = b->base,
	};
	struct btf *result = NULL;
	struct tx tx = { 0 };
	__u32 *scratch = NULL;
	bool changed;
	int err;

	if (b->transformed)
		return 0;
	if (b->plan.nr_errors) {
		b2b_plan_log_errors(&b->plan, &b->log);
		return -EINVAL;
	}
	/* a transform the post-passes failed freed the tag index */
	err = b->tags_built ? 0 : b2b_tag_index_build(&b->tags, b->btf);
	b->tags_built = !err;
	if (!err)
		err = start(&tx, b);
	if (err)
		err = b2b_errno(&b->log, err, "out of memory");
	if (!err)
		err = run(&tx, b);
	/* what served the transform alone: its memory serves the post-passes */
	free(tx.reduced_of);
	tx.reduced_of = NULL;
	if (!err && post_passes_wanted(b)) {
		b2b_tag_index_free(&b->tags);
		b->tags_built = false;
	}
	changed = btf__type_cnt(tx.ext.btf ? tx.ext.btf : b->btf) > 1 || tx.ext.nr_retype;
	if (!err && changed)
		err = b2b_ext_check(&tx.ext, "transformed BTF", &b->log);
	/* one BTF from here on: laid out, through the passes, parsed */
	post.first_new = tx.ext.first_id;
	if (!err && changed) {
		err = b2b_ext_lay_out(&tx.ext, &post.btf.data, &post.btf.size);
		if (err)
			b2b_errno(&b->log, err, "cannot lay out the transformed BTF: %s",
				  strerror(-err));
	}
	if (!err && post_passes_wanted(b))
		err = run_post_passes(b, &post);
	if (!err && post.btf.data && (changed || post.changed)) {
		errno = 0;
		result = b2b_btf_new(post.btf.data, post.btf.size,
				     post.new_base ? post.new_base : b->base);
		if (!result)
			err = b2b_errno(&b->log, errno ? -errno : -EINVAL,
					"transformed BTF: cannot parse: %s",
					strerror(errno ? errno : EINVAL));
	}
	/* the kfunc table's re-sort by the new ids needs room: taken now, when
	 * the passes have given theirs back and a failure can still undo */
	if (!err && post.btf.map) {
		scratch = b2b_malloc((b->kfuncs.nr + 1) * sizeof(*scratch));
		if (!scratch)
			err = b2b_errno(&b->log, -ENOMEM, "out of memory");
	}
	if (!err) {
		commit(b, &tx, result, changed, &post, scratch);
	} else {
		btf__free(result);
	}
	free(scratch);
	b2b_post_free(&post);
	finish(&tx);
	return err;
}
