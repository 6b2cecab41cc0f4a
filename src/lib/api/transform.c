// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The transform, stages 3 and 4 of the pipeline (open -> plan -> edit ->
 * post-passes -> write), each in the file of its job: the plan is checked
 * (plan.c), carried out (the edit, btf_edit.c), the post-passes run over
 * its result (post.c); then the one result is committed to the handle
 * here, once nothing can fail any more.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "edit/btf_edit.h"
#include "passes/btf_post.h"
#include "api/handle.h"
#include "plan/plan.h"

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

/*
 * The result becomes the handle's: post->btf, the edit's result with every
 * post-pass applied (NULL data: the BTF read is the result), taken as it
 * is (libbpf's view of it is made when asked for: btf2btf__btf()). What
 * can fail comes first, and leaves the handle as it was; from the kfunc
 * states on nothing can fail, the transform being all or nothing.
 */
static int commit(struct btf2btf *b, const struct b2b_edit *ed, struct b2b_post *post)
{
	bool made_base = !b2b_btf_empty(&post->new_base);
	bool changed = ed->changed || post->changed || made_base;
	bool replace = post->btf.data && (ed->changed || post->changed);
	struct b2b_btf result = { 0 };
	__u32 *scratch = NULL;
	size_t added = 0;
	int err;

	/* the kfunc table's re-sort by the new ids needs room: taken now, when
	 * the passes have given theirs back and a failure can still undo */
	if (post->btf.map) {
		scratch = b2b_malloc((b->kfuncs.nr + 1) * sizeof(*scratch));
		if (!scratch)
			return b2b_errno(&b->log, -ENOMEM, "out of memory");
	}
	/* the result indexed, on the base it is split on (the distilled one
	 * made, moved into b->res.base below: its address is b->res.base's then) */
	if (replace) {
		err = b2b_btf_open(&result, post->btf.data, post->btf.size,
				   made_base ? &post->new_base : b2b_handle_base(b));
		if (err) {
			free(scratch);
			return b2b_errno(&b->log, err, "the transform's result: %s", strerror(-err));
		}
	}
	/* what the edit did, all of it */
	for (size_t i = 0; i < b->kfuncs.nr; i++) {
		struct btf2btf_kfunc *k = &b->kfuncs.items[i];

		if (k->actions & BTF2BTF_ACT_ADD_IMPL) {
			k->state = BTF2BTF_KFUNC_TRANSFORMED;
			k->impl_id = ed->new_impl[added++];
		} else if (k->actions & BTF2BTF_ACT_USE_LEGACY) {
			k->state = BTF2BTF_KFUNC_LEGACY;
		}
	}
	b->stats = ed->stats;
	if (post->btf.map) {
		b2b_handle_remap(b, post->btf.map, post->btf.nr_map);
		sort_kfuncs_by_id(&b->kfuncs, scratch);
		/* the decl tag index served the transform and describes the old ids */
		b2b_tag_index_free(&b->tags);
	}
	free(scratch);
	if (replace) {
		/* the BTF read is not needed any more: its memory goes now */
		b2b_btf_free(&b->res.btf);
		b->res.btf = result;
		b->res.btf.owned = post->btf.data;
		post->btf.data = NULL;
		b2b_bytes_forget(&b->res.btf_out);
	}
	if (made_base) {
		/* a base the caller lent stays theirs (b2b_btf_free() knows) */
		b2b_bytes_forget(&b->res.base_out);
		b2b_btf_free(&b->res.base);
		b->res.base = post->new_base;
		memset(&post->new_base, 0, sizeof(post->new_base));
		b->res.btf.base = &b->res.base;
		b->res.distilled = true;
	}
	b->res.transformed = true;
	b->res.changed = changed;
	return 0;
}

int btf2btf__transform(struct btf2btf *b)
{
	struct b2b_edit ed = { 0 };
	struct b2b_post post = {
		.dedup = b->plan.features & BTF2BTF_FEAT_DEDUP,
		.sort = b->plan.features & BTF2BTF_FEAT_SORT,
		.distill = b->res.distill,
		.base = b2b_handle_base(b),
	};
	bool passes = post.dedup || post.sort || post.distill;
	const char *resolved_set = NULL;
	int err;

	if (b->res.transformed)
		return 0;
	if (b->plan.nr_errors) {
		b2b_plan_log_errors(&b->plan, &b->log);
		return -EINVAL;
	}
	err = b2b_edit_run(&ed, &b->res.btf, &b->kfuncs, &b->tags, &b->log, &b->stats);
	/* one BTF from here on: laid out, through the passes, kept */
	post.first_new = ed.first_new;
	post.btf.data = ed.data;
	post.btf.size = ed.size;
	ed.data = NULL;
	/* a set8 resolve_btfids filled in names ids a renumbering would leave stale */
	for (size_t i = 0; i < b->obj.ids.nr_sets && !resolved_set; i++)
		if (b->obj.ids.sets[i].resolved)
			resolved_set = b->obj.ids.sets[i].name;
	if (!err && passes)
		err = b2b_post_stage(&post, &b->res.btf, resolved_set, &b->log);
	if (!err)
		err = commit(b, &ed, &post);
	b2b_post_free(&post);
	b2b_edit_free(&ed);
	return err;
}
