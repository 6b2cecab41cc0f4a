/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * A type's info word read by the library's own accessors: kind, vlen and
 * kind_flag as the bytes say them (the 2026 UAPI's 7-bit kind and 24-bit
 * vlen), never through the info macros of whatever <linux/btf.h> the
 * build machine has, on which the kind, vlen and is-kind helpers of
 * <bpf/btf.h> stand (make check-libbpf-api keeps those out of the
 * library).
 */
#ifndef BTF2BTF_BTF_INFO_H
#define BTF2BTF_BTF_INFO_H

/* the kind numbers only (ABI constants) and struct btf_type, the ABI's
 * three words */
#include <linux/btf.h>
#include <linux/types.h>
#include <stdbool.h>

/* The 2026 UAPI's reading of btf_type.info: 7-bit kind, 24-bit vlen (the
 * bits older BTF leaves zero), kind_flag in bit 31. */
static inline __u32 b2b_info_kind(__u32 info)
{
	return (info >> 24) & 0x7f;
}

static inline __u32 b2b_info_vlen(__u32 info)
{
	return info & 0xffffff;
}

/* Of a type read through libbpf or the raw passes (struct btf_type is the
 * ABI's three words; only its accessors are the library's own). */
static inline __u32 b2b_kind(const struct btf_type *t)
{
	return b2b_info_kind(t->info);
}

static inline __u32 b2b_vlen(const struct btf_type *t)
{
	return b2b_info_vlen(t->info);
}

static inline bool b2b_kflag(const struct btf_type *t)
{
	return t->info >> 31;
}

/* The words after a type's three, as the ABI lays them out (what
 * <bpf/btf.h>'s btf_params(), btf_decl_tag(), btf_members() and
 * btf_array() point at, without libbpf in the pipeline's stages). */
static inline struct btf_param *b2b_params(const struct btf_type *t)
{
	return (struct btf_param *)(t + 1);
}

static inline struct btf_decl_tag *b2b_decl_tag(const struct btf_type *t)
{
	return (struct btf_decl_tag *)(t + 1);
}

static inline struct btf_member *b2b_members(const struct btf_type *t)
{
	return (struct btf_member *)(t + 1);
}

static inline struct btf_array *b2b_array(const struct btf_type *t)
{
	return (struct btf_array *)(t + 1);
}

/* An INT's BTF_INT_SIGNED, _CHAR, _BOOL bits */
static inline __u8 b2b_int_encoding(const struct btf_type *t)
{
	return BTF_INT_ENCODING(*(const __u32 *)(t + 1));
}

/* b2b_is_func(t) and the like: what <bpf/btf.h>'s btf_is_*() say */
#define B2B_KIND_IS(name, kind)						\
static inline bool b2b_is_##name(const struct btf_type *t)		\
{									\
	return b2b_kind(t) == (kind);					\
}
B2B_KIND_IS(int, BTF_KIND_INT)
B2B_KIND_IS(ptr, BTF_KIND_PTR)
B2B_KIND_IS(array, BTF_KIND_ARRAY)
B2B_KIND_IS(struct, BTF_KIND_STRUCT)
B2B_KIND_IS(union, BTF_KIND_UNION)
B2B_KIND_IS(enum, BTF_KIND_ENUM)
B2B_KIND_IS(enum64, BTF_KIND_ENUM64)
B2B_KIND_IS(fwd, BTF_KIND_FWD)
B2B_KIND_IS(typedef, BTF_KIND_TYPEDEF)
B2B_KIND_IS(volatile, BTF_KIND_VOLATILE)
B2B_KIND_IS(const, BTF_KIND_CONST)
B2B_KIND_IS(func, BTF_KIND_FUNC)
B2B_KIND_IS(func_proto, BTF_KIND_FUNC_PROTO)
B2B_KIND_IS(decl_tag, BTF_KIND_DECL_TAG)
B2B_KIND_IS(type_tag, BTF_KIND_TYPE_TAG)
#undef B2B_KIND_IS

static inline bool b2b_is_composite(const struct btf_type *t)
{
	return b2b_is_struct(t) || b2b_is_union(t);
}

static inline bool b2b_is_any_enum(const struct btf_type *t)
{
	return b2b_is_enum(t) || b2b_is_enum64(t);
}

/* a modifier: what libbpf's b2b_is_mod() counts (type tags included) */
static inline bool b2b_is_mod(const struct btf_type *t)
{
	__u32 kind = b2b_kind(t);

	return kind == BTF_KIND_VOLATILE || kind == BTF_KIND_CONST ||
	       kind == BTF_KIND_RESTRICT || kind == BTF_KIND_TYPE_TAG;
}

#endif /* BTF2BTF_BTF_INFO_H */
