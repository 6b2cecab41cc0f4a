/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* KF_IMPLICIT_ARGS: <kfunc>_impl FUNC + tags, reduced FUNC_PROTO. */
#ifndef BTF2BTF_IMPLICIT_H
#define BTF2BTF_IMPLICIT_H

#include "kfuncs.h"

struct b2b_ext;

struct b2b_transform {
	const struct btf *btf;			/* as read: never modified */
	struct b2b_ext *ext;			/* what the transform adds and repoints */
	__u32 start;				/* first id of the split part (1 if not split) */
	const struct b2b_name_index *names;	/* of btf, as read */
	const struct b2b_name_index *base_names;	/* NULL unless split */
	const struct b2b_tag_index *tags;	/* of btf, as read */
	struct btf2btf_stats *stats;
	const struct b2b_log *log;
	__u32 *reduced_of;			/* original proto id -> reduced proto id */
	__u32 nr_orig;				/* type count as read */
};

/* Is type_id a struct bpf_prog_aux pointer, through typedefs and modifiers? */
bool b2b_is_implicit_arg(const struct btf *btf, __u32 type_id);
/* Index of the first implicit parameter of a FUNC_PROTO, or -1. */
int b2b_first_implicit_arg(const struct btf *btf, __u32 proto_id);

int b2b_transform_init(struct b2b_transform *tr);
int b2b_transform_kfunc(struct b2b_transform *tr, struct btf2btf_kfunc *k);
int b2b_add_kfunc_tag(struct b2b_transform *tr, struct btf2btf_kfunc *k);
void b2b_transform_free(struct b2b_transform *tr);

#endif /* BTF2BTF_IMPLICIT_H */
