// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Stage 4 of the pipeline (open -> plan -> edit -> post-passes -> write).
 *
 * The post-passes in the order 7.3's resolve_btfids runs them
 * (finalize_btf: dedup, distill when the module is external, sort), each
 * pass's id map composed into one map from the transform's ids to the final ones.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "passes/btf_post.h"

void b2b_map_compose(__u32 *map, __u32 nr, const __u32 *second)
{
	if (!second)
		return;
	for (__u32 i = 0; i < nr; i++)
		map[i] = second[map[i]];
}

void b2b_post_free(struct b2b_post *p)
{
	b2b_pass_out_free(&p->btf);
	b2b_btf_free(&p->new_base);
}

/* A pass's output, when it has one, becomes the current BTF. */
static void step(struct b2b_post *p, struct b2b_pass_out *o)
{
	if (!o->data)
		return;
	p->changed = true;
	free(p->btf.data);
	p->btf.data = o->data;
	p->btf.size = o->size;
	if (p->btf.map) {
		b2b_map_compose(p->btf.map, p->btf.nr_map, o->map);
		free(o->map);
	} else {
		p->btf.map = o->map;
		p->btf.nr_map = o->nr_map;
	}
	memset(o, 0, sizeof(*o));
}

int b2b_post_run(struct b2b_post *p)
{
	const struct b2b_btf *base = p->base;
	struct b2b_pass_out o = { 0 };
	int err = 0;

	if (p->dedup) {
		err = b2b_dedup(p->btf.data, p->btf.size, base, p->first_new, &o, &p->dedup_way);
		if (!err)
			step(p, &o);
	}
	if (!err && p->distill) {
		void *base_data = NULL;
		size_t base_size = 0;

		err = b2b_distill_base(p->btf.data, p->btf.size, base, &base_data, &base_size, &o);
		if (!err) {
			step(p, &o);
			err = b2b_btf_open_owned(&p->new_base, base_data, base_size, NULL);
			base = &p->new_base;
		}
	}
	if (!err && p->sort) {
		err = b2b_sort_by_name(p->btf.data, p->btf.size, base, &o);
		if (!err)
			step(p, &o);
	}
	return err;
}

static bool is_identity(const __u32 *map, __u32 nr)
{
	for (__u32 i = 0; map && i < nr; i++)
		if (map[i] != i)
			return false;
	return true;
}

int b2b_post_stage(struct b2b_post *p, const struct b2b_btf *read, const char *resolved_set,
		   const struct b2b_log *log)
{
	int err;

	if (!p->btf.data) {
		p->btf.data = b2b_malloc(read->size);
		if (!p->btf.data)
			return b2b_errno(log, -ENOMEM, "out of memory");
		memcpy(p->btf.data, read->data, read->size);
		p->btf.size = read->size;
	}
	err = b2b_post_run(p);
	if (err == -EOPNOTSUPP && p->dedup)
		return b2b_errno(log, err,
				 "cannot deduplicate the BTF: a type's vlen is above %u, which libbpf's btf__dedup() cannot hold, and the hash path cannot decide without it",
				 B2B_LIBBPF_MAX_VLEN);
	if (err == -EINVAL && p->distill)
		return b2b_errno(log, err,
				 "cannot distill the base: the split BTF refers to a base type of a kind a distilled base cannot hold (FUNC, VAR, DATASEC or a tag)");
	if (err)
		return b2b_errno(log, err, "cannot %s the BTF: %s",
				 p->dedup ? "deduplicate/sort" : "sort", strerror(-err));
	if (p->dedup)
		b2b_debug(log, "dedup: %s",
			  p->dedup_way == B2B_DEDUP_FULL ? "libbpf's btf__dedup() (the input is not deduplicated, or a new type needs a graph comparison)"
			  : p->dedup_way == B2B_DEDUP_FOLD ? "btf__dedup()'s phases on the model (the input is not deduplicated against its base)"
			  : "new types matched by hash against the deduplicated input");
	if (resolved_set && !is_identity(p->btf.map, p->btf.nr_map))
		return b2b_errno(log, -EINVAL,
				 "set8 %s in .BTF_ids is resolved already (resolve_btfids ran): dedup/sort/distill would renumber the types its ids name; run btf2btf before resolve_btfids",
				 resolved_set);
	return 0;
}
