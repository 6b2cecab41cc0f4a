// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * What the kernel checks of a module's split BTF on vmlinux beyond ids and
 * names in range (btf_check.c): every member of the module's structs and
 * unions fits in it (kernel/bpf/btf.c btf_struct_resolve(): "Member exceeds
 * struct_size", the module's BTF refused with -EINVAL). A module built
 * against another vmlinux whose ids still land on types of the right kinds
 * is caught when a base struct it embeds grew; what its ids point at cannot
 * be compared with the vmlinux it was built on otherwise (plain split BTF
 * names nothing of its base: that is what a distilled base adds).
 *
 * Before that, and before any type is read through the base, what split BTF
 * expects of its base without naming it (b2b_check_split_base()): that it
 * is split BTF at all, and that its names, offsets into the base's strings
 * followed by its own, each start a string there.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "format/btf_kinds.h"
#include "format/btf_model.h"
#include "input/split_check.h"

/* What libbpf's btf__resolve_size() takes a pointer's size to be: that of
 * an INT named like "long", else this machine's. */
static long pointer_size(const struct b2b_btf *btf)
{
	static const char *const longs[] = { "long", "long int", "unsigned long",
					     "long unsigned int", "unsigned long int" };
	const struct b2b_btf *chain[8];
	int depth = 0;

	/* in id order, the outermost base first, each one's types through its
	 * own index (a 7.3 vmlinux sorted by name has "long int" past 40,000) */
	for (const struct b2b_btf *m = btf; m && depth < (int)ARRAY_SIZE(chain); m = m->base)
		chain[depth++] = m;
	while (depth--) {
		const struct b2b_btf *m = chain[depth];

		for (__u32 id = m->start_id; id < b2b_btf_type_cnt(m); id++) {
			const struct btf_type *t = b2b_btf_own_type(m, id);

			if (!b2b_is_int(t) || (t->size != 4 && t->size != 8))
				continue;
			for (size_t i = 0; i < ARRAY_SIZE(longs); i++)
				if (!strcmp(b2b_btf_name(m, t), longs[i]))
					return t->size;
		}
	}
	return sizeof(void *);
}

/* Size in bytes of type id, through typedefs, modifiers and arrays, as
 * btf__resolve_size(); < 0 for a type without one. */
static long resolve_size(const struct b2b_btf *btf, __u32 id, long ptr_size)
{
	const struct btf_type *t = b2b_btf_type_by_id(btf, id);
	__u64 nelems = 1;

	for (int depth = 0; t && depth < 32; depth++) {
		switch (b2b_kind(t)) {
		case BTF_KIND_INT: case BTF_KIND_STRUCT: case BTF_KIND_UNION: case BTF_KIND_ENUM:
		case BTF_KIND_ENUM64: case BTF_KIND_DATASEC: case BTF_KIND_FLOAT:
			return nelems * t->size > UINT32_MAX ? -E2BIG : (long)(nelems * t->size);
		case BTF_KIND_PTR:
			return nelems * ptr_size > UINT32_MAX ? -E2BIG : (long)(nelems * ptr_size);
		case BTF_KIND_TYPEDEF: case BTF_KIND_VOLATILE: case BTF_KIND_CONST:
		case BTF_KIND_RESTRICT: case BTF_KIND_VAR: case BTF_KIND_DECL_TAG:
		case BTF_KIND_TYPE_TAG:
			id = t->type;
			break;
		case BTF_KIND_ARRAY: {
			const struct btf_array *a = (const struct btf_array *)(t + 1);

			nelems *= a->nelems;
			if (nelems > UINT32_MAX)
				return -E2BIG;
			id = a->type;
			break;
		}
		default:
			return -EINVAL;
		}
		t = b2b_btf_type_by_id(btf, id);
	}
	return -EINVAL;
}

static const char *size_str(long size, char *buf, size_t len)
{
	snprintf(buf, len, "%ld bytes", size);
	return buf;
}

/* Bytes a member at bit offset bits_off of type id needs from its byte
 * offset on; -EINVAL when its size cannot be resolved. */
static long member_need(const struct b2b_btf *btf, __u32 id, __u32 bits_off, long ptr_size)
{
	const struct btf_type *t = b2b_btf_type_by_id(btf, id);

	/* an INT member (after modifiers) may sit at any bit: its bits count */
	for (int depth = 0; t && depth < 32 && (b2b_is_mod(t) || b2b_is_typedef(t)); depth++)
		t = b2b_btf_type_by_id(btf, t->type);
	if (t && b2b_is_int(t))
		return (bits_off % 8 + BTF_INT_BITS(*(const __u32 *)(t + 1)) + 7) / 8;
	return resolve_size(btf, id, ptr_size);
}

int b2b_check_split_fits(const struct b2b_btf *btf, const char *base_name,
			 const struct b2b_log *log)
{
	__u32 nr = b2b_btf_type_cnt(btf);
	long ptr_size = 0;	/* looked up once a pointer needs it */

	for (__u32 id = btf->start_id; id < nr; id++) {
		const struct btf_type *t = b2b_btf_own_type(btf, id);
		const struct btf_member *m = (const struct btf_member *)(t + 1);

		if (!b2b_is_composite(t))
			continue;
		for (__u32 i = 0; i < b2b_vlen(t); i++) {
			/* kind_flag: offset holds a bitfield's size above its bit offset */
			__u32 bits_off = b2b_kflag(t) ? BTF_MEMBER_BIT_OFFSET(m[i].offset) : m[i].offset;
			const struct btf_type *mt = b2b_btf_type_by_id(btf, m[i].type);
			char buf[32];
			long need;

			if (b2b_kflag(t) && BTF_MEMBER_BITFIELD_SIZE(m[i].offset))
				continue;	/* a bitfield: the kernel's rules for those */
			if (!ptr_size)
				ptr_size = pointer_size(btf);
			need = member_need(btf, m[i].type, bits_off, ptr_size);
			if (need >= 0 && bits_off / 8 <= t->size && t->size - bits_off / 8 >= need)
				continue;
			return b2b_errno(log, -EINVAL,
					 "%s '%s' [%u]: member '%s' (%s '%s' [%u], %s) at byte %u %s %u bytes: the module's BTF does not fit %s (built against another?)" KERNEL_REFUSES,
					 btf2btf__kind_name(b2b_kind(t)), b2b_btf_name(btf, t), id,
					 b2b_btf_str(btf, m[i].name_off) ?: "",
					 btf2btf__kind_name(b2b_kind(mt)), b2b_btf_name(btf, mt), m[i].type,
					 need < 0 ? "no size" : size_str(need, buf, sizeof(buf)),
					 bits_off / 8, need < 0 ? "of a type of" : "runs past its", t->size,
					 base_name);
		}
	}
	return 0;
}

/* Is off, of the strings of btf and its bases, the start of a string? */
static bool starts_string(const struct b2b_btf *btf, __u32 off)
{
	while (off < btf->base_str_len)
		btf = btf->base;
	off -= btf->base_str_len;
	return off < btf->hdr.str_len && (!off || !btf->strs[off - 1]);
}

struct name_tally {
	__u32 names, inside, max_off;
};

static void tally_name(const struct b2b_btf *btf, __u32 off, struct name_tally *n)
{
	if (!off)
		return;		/* anonymous: "" at 0 of every base */
	n->names++;
	n->inside += !starts_string(btf, off);
	if (off > n->max_off)
		n->max_off = off;
}

int b2b_check_split_base(const struct b2b_btf *btf, const char *what, const struct b2b_log *log)
{
	const struct b2b_btf *base = btf->base;
	struct name_tally n = { 0 };
	__u32 last = 0;

	if (!base)
		return 0;
	/* a vmlinux's (complete) BTF starts its strings with "", split BTF
	 * with its first name: read on the base it would be the base's types
	 * again with ids past them, none of its own */
	if (btf->hdr.str_len && !btf->strs[0])
		return b2b_errno(log, -EINVAL,
				 "%s: " B2B_NOT_SPLIT ": its strings start with their own empty string, as a vmlinux's do; on that base it would have no types of its own (a base is for a module's split BTF)",
				 what);
	for (__u32 id = btf->start_id; id < b2b_btf_type_cnt(btf); id++) {
		const struct btf_type *t = b2b_btf_own_type(btf, id);
		struct b2b_fields it = b2b_fields(t, B2B_W_STR);

		for (__u32 i; b2b_fields_next(&it, &i); )
			tally_name(btf, ((const __u32 *)t)[i], &n);
	}
	/* right base: every name starts a string; a string shared by suffix
	 * is not wrong, so a few are let be */
	if (!n.inside || n.inside * 2 <= n.names)
		return 0;
	/* the own strings' last one is some name's: its offset, less where it
	 * starts among them, is where the base the BTF was made on ends */
	/* (no own strings: nothing to start from; str_len - 1 would wrap) */
	for (__u32 i = btf->hdr.str_len ? btf->hdr.str_len - 1 : 0; i > 0 && !last; i--)
		if (!btf->strs[i - 1] && i < btf->hdr.str_len - 1)
			last = i;
	if (n.max_off >= btf->base_str_len + last && n.max_off - last != btf->base_str_len)
		return b2b_errno(log, -EINVAL,
				 "%s: built for another kernel: %u of its %u names fall inside a string, not where one starts; its own names fit a base with %u bytes of strings, the base has %u (and %u types)",
				 what, n.inside, n.names, n.max_off - last, btf->base_str_len,
				 b2b_btf_type_cnt(base));
	return b2b_errno(log, -EINVAL,
			 "%s: built for another kernel: %u of its %u names fall inside a string, not where one starts (the base has %u bytes of strings and %u types)",
			 what, n.inside, n.names, btf->base_str_len, b2b_btf_type_cnt(base));
}
