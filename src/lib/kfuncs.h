/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* The kfunc table: found by "bpf_kfunc" decl tag and/or set8 membership. */
#ifndef BTF2BTF_KFUNCS_H
#define BTF2BTF_KFUNCS_H

#include "btf_ids.h"
#include "name_index.h"

struct btf;

/* DECL_TAGs of the split part, sorted by (target, tag id). */
struct b2b_tag_index {
	__u32 *ids;
	__u32 *targets;		/* targets[i]: the type ids[i] tags */
	size_t nr;
};

/*
 * One kfunc as the library works on it: the fields of struct btf2btf_kfunc
 * (include/btf2btf.h, same names and meaning), packed, and no impl_name
 * (b2b_impl_name() of name when impl_named). The public table is made from
 * these on first use (btf2btf__kfunc()): a run that never asks for it never
 * holds it.
 */
struct b2b_kfunc {
	const char *name;
	const char *sets;
	__u64 arena_args;
	__u32 btf_id;
	__u32 flags;
	__u32 orig_proto_id;
	__u32 impl_id;
	__u32 problems;
	int implicit_arg;
	__u16 reduced_params;		/* at most a prototype's vlen: 16 bits */
	__u16 actions;
	__u8 found_by;
	__u8 state;			/* enum btf2btf_kfunc_state */
	__u8 planned;
	bool impl_named;		/* the plan named its <name>_impl */
};

struct b2b_kfuncs {
	struct b2b_kfunc *items;	/* sorted by btf_id */
	size_t nr;
	__u32 *entry_func;		/* per .BTF_ids entry: its FUNC in the split part, 0 */
	/* the items' sets and some names; a name is the BTF read's as a rule
	 * (load.c share_names()), else a set8 entry's or a copy here */
	struct b2b_arena strs;
};

int b2b_tag_index_build(struct b2b_tag_index *idx, const struct btf *btf);
void b2b_tag_index_free(struct b2b_tag_index *idx);
/* Tags of target: *first is the first index into idx->ids, returns the count. */
size_t b2b_tag_index_find(const struct b2b_tag_index *idx, __u32 target, size_t *first);

/* entry_want (may be NULL): per set8 entry, its name's number in names. */
int b2b_collect_kfuncs(const struct btf *btf, const struct b2b_name_index *names,
		       const int *entry_want, const struct b2b_tag_index *tags,
		       const struct b2b_btf_ids *ids, struct b2b_kfuncs *out,
		       const struct b2b_log *log);
/* The kfunc of FUNC id, NULL if it is none. */
struct b2b_kfunc *b2b_kfunc_by_id(const struct b2b_kfuncs *k, __u32 id);
/* The same for ids met mostly in ascending order (set8 entries as a rule):
 * items[*hint] and the next one are tried before a binary search over the
 * table; *hint is updated. */
struct b2b_kfunc *b2b_kfunc_by_id_near(const struct b2b_kfuncs *k, __u32 id, size_t *hint);
void b2b_kfuncs_free(struct b2b_kfuncs *k);

bool b2b_is_kfunc_tag(const struct btf *btf, __u32 tag_id);
/* A DECL_TAG named value on the whole FUNC (component -1, kind_flag 0). */
bool b2b_is_func_tag(const struct btf *btf, __u32 tag_id, const char *value);

#endif /* BTF2BTF_KFUNCS_H */
