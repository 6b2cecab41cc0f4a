/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* The kfunc table: found by "bpf_kfunc" decl tag and/or set8 membership. */
#ifndef BTF2BTF_KFUNCS_H
#define BTF2BTF_KFUNCS_H

#include "btf_ids.h"

struct btf;

/* Named types of one BTF (split part only, when split): an open-addressing
 * hash holding the lowest type id of each (name, kind). */
struct b2b_name_slot {
	__u32 id;		/* 0: empty */
	__u32 hash;		/* of the name: most probes skip the strcmp */
};

struct b2b_name_index {
	const struct btf *btf;
	struct b2b_name_slot *slots;
	size_t size, used;
};

/* DECL_TAGs of the split part, sorted by (target, tag id). */
struct b2b_tag_index {
	__u32 *ids;
	size_t nr;
};

struct b2b_kfuncs {
	struct btf2btf_kfunc *items;	/* sorted by btf_id */
	size_t nr;
	unsigned int conflicts;		/* lenient: set8s disagreeing on KF_IMPLICIT_ARGS */
};

int b2b_name_index_build(struct b2b_name_index *idx, const struct btf *btf);
void b2b_name_index_free(struct b2b_name_index *idx);
/* The lowest id of a type named name, of kind (or any kind when kind < 0); 0 if none. */
__u32 b2b_name_index_find(const struct b2b_name_index *idx, const char *name, int kind);

int b2b_tag_index_build(struct b2b_tag_index *idx, const struct btf *btf);
void b2b_tag_index_free(struct b2b_tag_index *idx);
/* Tags of target: *first is the first index into idx->ids, returns the count. */
size_t b2b_tag_index_find(const struct b2b_tag_index *idx, const struct btf *btf,
			  __u32 target, size_t *first);

int b2b_collect_kfuncs(const struct btf *btf, const struct b2b_name_index *names,
		       const struct b2b_name_index *base_names, const struct b2b_tag_index *tags,
		       const struct b2b_btf_ids *ids, bool lenient, struct b2b_kfuncs *out,
		       const struct b2b_log *log);
void b2b_kfuncs_free(struct b2b_kfuncs *k);

bool b2b_is_kfunc_tag(const struct btf *btf, __u32 tag_id);

#endif /* BTF2BTF_KFUNCS_H */
