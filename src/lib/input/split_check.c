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
 */
#include <bpf/btf.h>
#include <errno.h>
#include <stdio.h>

#include "btf_info.h"
#include "split_check.h"

static const char *type_name(const struct btf *btf, const struct btf_type *t)
{
	return btf__name_by_offset(btf, t->name_off) ?: "";
}

static const char *size_str(long size, char *buf, size_t len)
{
	snprintf(buf, len, "%ld bytes", size);
	return buf;
}

/* Bytes a member at bit offset bits_off of type id needs from its byte
 * offset on; -EINVAL when its size cannot be resolved. */
static long member_need(const struct btf *btf, __u32 id, __u32 bits_off)
{
	const struct btf_type *t = btf__type_by_id(btf, id);

	/* an INT member (after modifiers) may sit at any bit: its bits count */
	while (t && (b2b_is_mod(t) || b2b_is_typedef(t)))
		t = btf__type_by_id(btf, t->type);
	if (t && b2b_is_int(t))
		return (bits_off % 8 + btf_int_bits(t) + 7) / 8;
	return btf__resolve_size(btf, id);
}

int b2b_check_split_fits(const struct btf *btf, const char *base_name, const struct b2b_log *log)
{
	const struct btf *base = btf__base_btf(btf);
	__u32 nr = btf__type_cnt(btf);

	for (__u32 id = base ? btf__type_cnt(base) : 1; id < nr; id++) {
		const struct btf_type *t = btf__type_by_id(btf, id);
		const struct btf_member *m = btf_members(t);

		if (!b2b_is_composite(t))
			continue;
		for (__u32 i = 0; i < b2b_vlen(t); i++) {
			__u32 bits_off = btf_member_bit_offset(t, i);
			const struct btf_type *mt = btf__type_by_id(btf, m[i].type);
			char buf[32];
			long need;

			if (btf_member_bitfield_size(t, i))
				continue;	/* a bitfield: the kernel's rules for those */
			need = member_need(btf, m[i].type, bits_off);
			if (need >= 0 && bits_off / 8 <= t->size && t->size - bits_off / 8 >= need)
				continue;
			return b2b_errno(log, -EINVAL,
					 "%s '%s' [%u]: member '%s' (%s '%s' [%u], %s) at byte %u %s %u bytes: the module's BTF does not fit %s (built against another?)" KERNEL_REFUSES,
					 btf2btf__kind_name(b2b_kind(t)), type_name(btf, t), id,
					 btf__name_by_offset(btf, m[i].name_off) ?: "",
					 btf2btf__kind_name(b2b_kind(mt)), type_name(btf, mt), m[i].type,
					 need < 0 ? "no size" : size_str(need, buf, sizeof(buf)),
					 bits_off / 8, need < 0 ? "of a type of" : "runs past its", t->size,
					 base_name);
		}
	}
	return 0;
}
