/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* Append-only BTF edits: new types after the original bytes, never in place. */
#ifndef BTF2BTF_BTF_EDIT_H
#define BTF2BTF_BTF_EDIT_H

#include <bpf/btf.h>

#include "btf_raw.h"
#include "internal.h"

/*
 * Append-only edits. The transform only appends types (FUNC, FUNC_PROTO,
 * DECL_TAG) and repoints a few existing ones. Going through libbpf 1.1.2's
 * btf__add_*() on the BTF read makes all of it modifiable first: every type
 * copied and every string put in a hash map, two to three times the cost of
 * reading and writing the BTF (make bench: parse+modify+write). Instead the
 * new types go into a small BTF of their own (their type references are
 * already the ids they get in the result) and the repointings are recorded;
 * b2b_ext_lay_out() then writes the result: the original bytes, the new
 * types, the original strings, the new strings. Strings are deduplicated as
 * btf__add_str() would (base strings first, then the split's, the first
 * occurrence), so the output is the one the libbpf path gives.
 */
struct b2b_ext {
	const struct btf *orig;		/* the BTF as read: never modified */
	struct btf *btf;		/* the new types; local id i is first_id + i - 1 */
	__u32 first_id;			/* btf__type_cnt(orig) */
	__u32 start;			/* first id of orig's own (split) part */
	struct b2b_retype { __u32 id, type; } *retype;	/* orig id's ->type, at merge */
	size_t nr_retype, cap_retype;
};

int b2b_ext_init(struct b2b_ext *x, const struct btf *orig);
void b2b_ext_free(struct b2b_ext *x);
/* Ids in and out are the ids of the result. */
int b2b_ext_add_func(struct b2b_ext *x, const char *name, int linkage, __u32 proto);
int b2b_ext_add_decl_tag(struct b2b_ext *x, const char *value, __u32 target, int component_idx,
			 bool kflag);
/* A new FUNC_PROTO: orig's proto_id with its first nr_params parameters. */
int b2b_ext_add_proto_prefix(struct b2b_ext *x, __u32 proto_id, __u16 nr_params);
/* The same, returning type ret. */
int b2b_ext_add_proto(struct b2b_ext *x, __u32 proto_id, __u16 nr_params, __u32 ret);
/* Parameter idx of a new FUNC_PROTO now has type type. */
int b2b_ext_set_param_type(struct b2b_ext *x, __u32 proto, __u16 idx, __u32 type);
int b2b_ext_add_ptr(struct b2b_ext *x, __u32 type);
/* A TYPE_TAG; kflag: an attribute (kind_flag 1, "address_space(1)"). */
int b2b_ext_add_type_tag(struct b2b_ext *x, const char *value, __u32 type, bool kflag);
/* Set ->type of orig's type id (FUNC or DECL_TAG) in the result. */
int b2b_ext_retype(struct b2b_ext *x, __u32 id, __u32 type);
/* Check the new types and repointings against the result; errors logged. */
int b2b_ext_check(const struct b2b_ext *x, const char *what, const struct b2b_log *log);

/* The result, raw BTF in orig's layout, native endian, in one new buffer
 * (b2b_malloc'd); x is not changed. */
int b2b_ext_lay_out(const struct b2b_ext *x, void **data, size_t *size);

#endif /* BTF2BTF_BTF_EDIT_H */
