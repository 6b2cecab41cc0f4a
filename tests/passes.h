/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * What the tests of the passes share (tests/test_passes_*.c): BTFs compared
 * by a name-based canonical form of their types, raw BTF in and out of
 * libbpf, a pass run on the library's model of a libbpf base.
 */
#ifndef BTF2BTF_TESTS_PASSES_H
#define BTF2BTF_TESTS_PASSES_H

#include <bpf/btf.h>

#include "passes/btf_post.h"
#include "util/internal.h"
#include "util/libbpf_compat.h"
#include "helpers.h"

#define ALL_POST (BTF2BTF_FEAT_IMPLICIT_ARGS | BTF2BTF_FEAT_DEDUP | BTF2BTF_FEAT_SORT)

/* Types [first, end) of from, every step-th, mean the same (references
 * included) as their images map[id] in to. */
void pt_assert_mapped_same(const struct btf *from, const struct btf *to, const __u32 *map,
			   __u32 first, __u32 end, __u32 step);
/* a's and b's own types the same, as sorted canonical forms */
void pt_assert_same_types(const struct btf *a, const struct btf *b);
/* raw BTF parsed by libbpf (on base), asserted */
struct btf *pt_parse_raw(const void *data, size_t size, const struct btf *base);
/* libbpf's raw data of btf, asserted */
const void *pt_raw_of(struct btf *btf, size_t *size);
/* a canonical form of type id of btf: kind, name, the words, referenced
 * types by name (depth: how deep in a reference chain) */
void pt_canon(const struct btf *btf, __u32 id, int depth, char *buf, size_t size);
/* names in strcmp order, anonymous first, ties in the old id order */
void assert_sorted(const struct btf *btf, const __u32 *map, __u32 nr_map);
/* a BTF with names out of order, equal names, anonymous types and every
 * kind of reference, decl tags included */
struct btf *unsorted_btf(void);
/* b2b_dedup(), *full: whether btf__dedup() decided */
int dedup_fast(const void *raw, size_t size, const struct b2b_btf *base, __u32 first_new,
	       struct b2b_pass_out *o, bool *full);
/* the hash path's result and btf__dedup()'s: the same types, the same map */
void check_dedup_equivalent(const void *raw, size_t size, const struct btf *base,
			    __u32 first_new, bool expect_full);
/* whether b2b_dedup() took the fold mode; if so, its bytes and id map are
 * btf__dedup()'s */
bool check_fold_identical(const void *raw, size_t size, const struct btf *base,
			  __u32 first_new);

/*
 * call, with m the library's model of libbpf's base (NULL when base is):
 * the passes read the model, the tests build their BTF with libbpf.
 */
#define ON_MODEL(base, call) ({						\
	const struct btf *on_base = (base);				\
	struct b2b_btf on_model;					\
	const struct b2b_btf *m = NULL;					\
	int on_ret;							\
									\
	if (on_base) {							\
		assert_int_equal(b2b_btf_of_libbpf(&on_model, on_base), 0); \
		m = &on_model;						\
	}								\
	on_ret = (call);						\
	if (m)								\
		b2b_btf_free(&on_model);				\
	on_ret;								\
})

#endif /* BTF2BTF_TESTS_PASSES_H */
