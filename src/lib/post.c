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

#include "btf_post.h"

void b2b_post_result_free(struct b2b_post_result *res)
{
	if (res->sorted)
		res->btf.map = NULL;	/* the sorted result's */
	b2b_sorted_free(res->sorted);
	b2b_pass_out_free(&res->btf);
	free(res->base_data);
	btf__free(res->base);
	memset(res, 0, sizeof(*res));
}

/* Take a pass's output as the current result. */
static void step(struct b2b_post_in *in, struct b2b_post_result *res, struct b2b_pass_out *p)
{
	if (!p->data)
		return;
	free(in->own);
	in->own = NULL;
	free(res->btf.data);
	res->btf.data = p->data;
	res->btf.size = p->size;
	if (res->btf.map) {
		b2b_map_compose(res->btf.map, res->btf.nr_map, p->map);
		free(p->map);
	} else {
		res->btf.map = p->map;
		res->btf.nr_map = p->nr_map;
	}
	memset(p, 0, sizeof(*p));
}

/* The input in one buffer, for the passes that read nothing else. */
static int lay_out_input(struct b2b_post_in *in)
{
	void *data;
	int err;

	if (in->data)
		return 0;
	err = b2b_raw_parts_lay_out(in->parts, &data, &in->size);
	if (err)
		return err;
	in->data = in->own = data;
	return 0;
}

/*
 * Dedup then sort, no distill between: both read the input where it is (in
 * parts), and the result is left prepared (res->sorted), to be written
 * from the input without a second copy of the BTF. 1: the hash path cannot
 * decide (btf__dedup() must).
 */
static int dedup_and_sort(struct b2b_post_in *in, struct b2b_post_result *res)
{
	const struct b2b_raw_parts *parts = in->parts;
	struct b2b_raw_parts whole;
	__u32 *equal = NULL;
	int err;

	if (in->data) {
		err = b2b_raw_parts_of(&whole, in->data, in->size);
		if (err)
			return err;
		parts = &whole;
	}
	err = b2b_dedup_equals(parts, in->base, in->first_new, &equal);
	if (err)
		return err;
	err = b2b_sort_prepare(parts, in->base, equal, &res->sorted);	/* takes equal */
	if (!err && res->sorted)
		res->btf.map = (__u32 *)b2b_sorted_map(res->sorted, &res->btf.nr_map);
	return err;
}

int b2b_post_run(struct b2b_post_in *in, struct b2b_post_result *res)
{
	const struct btf *base = in->base;
	struct b2b_pass_out p = { 0 };
	int err = 0;

	memset(res, 0, sizeof(*res));
#define CUR_DATA (res->btf.data ? res->btf.data : in->data)
#define CUR_SIZE (res->btf.data ? res->btf.size : in->size)
	if (in->dedup && in->sort && !in->distill) {
		err = dedup_and_sort(in, res);
		if (err != 1)
			goto out;
		/* a case for btf__dedup(): then the sort, one pass after the other */
		res->full_dedup = true;
		err = lay_out_input(in);
		if (!err)
			err = b2b_dedup_full(in->data, in->size, base, &p);
		if (!err)
			step(in, res, &p);
	} else {
		err = lay_out_input(in);
		if (!err && in->dedup) {
			err = b2b_dedup(in->data, in->size, base, in->first_new, &p,
					&res->full_dedup);
			if (!err)
				step(in, res, &p);
		}
	}
	if (!err && in->distill) {
		err = b2b_distill_base(CUR_DATA, CUR_SIZE, base, &res->base_data,
				       &res->base_size, &p);
		if (!err) {
			step(in, res, &p);
			errno = 0;
			res->base = btf__new(res->base_data, res->base_size);
			if (!res->base)
				err = errno ? -errno : -ENOMEM;
			base = res->base;
		}
	}
	if (!err && in->sort) {
		err = b2b_sort_by_name(CUR_DATA, CUR_SIZE, base, &p);
		if (!err)
			step(in, res, &p);
	}
out:
#undef CUR_DATA
#undef CUR_SIZE
	if (err)
		b2b_post_result_free(res);
	return err;
}
