/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* BTF edits libbpf 1.1.2 lacks, made safe against its string buffer moving. */
#ifndef BTF2BTF_BTF_EDIT_H
#define BTF2BTF_BTF_EDIT_H

#include <bpf/btf.h>

#include "internal.h"

/* Writable view of a type; only for fields that do not change its size. */
struct btf_type *b2b_type_mut(struct btf *btf, __u32 id);

/* Copy a string of btf into buf (btf__add_* may free the original). */
int b2b_copy_str(const struct btf *btf, __u32 off, char *buf, size_t size);

/* btf__add_decl_tag(), plus kind_flag (an attribute tag) when kflag is set. */
int b2b_add_decl_tag(struct btf *btf, const char *value, __u32 target, int component_idx,
		     bool kflag);

/* Clone FUNC_PROTO proto_id keeping only its first nr_params parameters. */
int b2b_add_proto_prefix(struct btf *btf, __u32 proto_id, __u16 nr_params);

#endif /* BTF2BTF_BTF_EDIT_H */
