/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* The kfunc table: found by "bpf_kfunc" decl tag and/or set8 membership. */
#ifndef BTF2BTF_KFUNCS_H
#define BTF2BTF_KFUNCS_H

#include "input/btf_ids.h"
#include "format/btf_model.h"
#include "util/name_index.h"


/* DECL_TAGs of the split part, sorted by (target, tag id). */
struct b2b_tag_index {
	__u32 *ids;
	__u32 *targets;		/* targets[i]: the type ids[i] tags (in ids' block) */
	size_t nr;
};

/*
 * The kfunc table: one struct btf2btf_kfunc per kfunc, the library's own
 * and the one btf2btf__kfunc() hands out (no second copy to keep in step);
 * impl_name, set by the plan, is a copy in strs.
 */
struct b2b_kfuncs {
	struct btf2btf_kfunc *items;	/* sorted by btf_id */
	size_t nr;
	__u32 *entry_func;		/* per .BTF_ids entry: its FUNC in the split part, 0 */
	/* the items' sets, impl_names and the names of kfuncs in no set8
	 * (found by tag); the others' are their set8 entries' (ids->names):
	 * owned by the handle, never the BTF's, which the transform replaces */
	struct b2b_arena strs;
};

int b2b_tag_index_build(struct b2b_tag_index *idx, const struct b2b_btf *btf);
/* The names registered in idx found in btf's own types (b2b_name_index_want()). */
void b2b_name_index_scan(struct b2b_name_index *idx, const struct b2b_btf *btf);
void b2b_tag_index_free(struct b2b_tag_index *idx);
/* Tags of target: *first is the first index into idx->ids, returns the count. */
size_t b2b_tag_index_find(const struct b2b_tag_index *idx, __u32 target, size_t *first);

/* entry_want (may be NULL): per set8 entry, its name's number in names. */
int b2b_collect_kfuncs(const struct b2b_btf *btf, const struct b2b_name_index *names,
		       const int *entry_want, const struct b2b_tag_index *tags,
		       const struct b2b_btf_ids *ids, struct b2b_kfuncs *out,
		       const struct b2b_log *log);
/* The kfunc of FUNC id, NULL if it is none. */
struct btf2btf_kfunc *b2b_kfunc_by_id(const struct b2b_kfuncs *k, __u32 id);
/* The same for ids met mostly in ascending order (set8 entries as a rule):
 * items[*hint] and the next one are tried before a binary search over the
 * table; *hint is updated. */
struct btf2btf_kfunc *b2b_kfunc_by_id_near(const struct b2b_kfuncs *k, __u32 id, size_t *hint);
void b2b_kfuncs_free(struct b2b_kfuncs *k);

bool b2b_is_kfunc_tag(const struct b2b_btf *btf, __u32 tag_id);
/* A DECL_TAG named value on the whole FUNC (component -1, kind_flag 0). */
bool b2b_is_func_tag(const struct b2b_btf *btf, __u32 tag_id, const char *value);

#endif /* BTF2BTF_KFUNCS_H */
