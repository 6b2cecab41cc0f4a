/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Split BTF on a distilled base (.BTF.base): relocated onto the real base
 * as the kernel relocates a module's BTF at load (libbpf's btf_relocate.c,
 * built into the kernel too), for libbpf 1.1.2, which has no btf__relocate().
 */
#ifndef BTF2BTF_BTF_RELOCATE_H
#define BTF2BTF_BTF_RELOCATE_H

#include "format/btf_raw.h"
#include "util/internal.h"

/* A distilled base holds only named INT, FLOAT, ENUM, STRUCT, UNION and
 * FWD types (what the kernel checks first): 0, or -EINVAL logged naming
 * the first type that is not one. */
int b2b_check_distilled_base(const struct b2b_btf *dist, const char *what,
			     const struct b2b_log *log);

/*
 * The split BTF split (parsed on its distilled base) rewritten onto base:
 * out->data the raw native split BTF to parse on base, out->map every id
 * of split (distilled base ids included) to its id on base. Each distilled
 * type matches the base type of its name and kind (INT, FLOAT, ENUM also
 * by size; a STRUCT or UNION by size when the module embeds it or when the
 * base has more than one of its name), as the kernel matches them; the first
 * that matches none, or more than one, is the error (-EINVAL, logged, base
 * named by base_name).
 */
int b2b_relocate(const struct b2b_btf *split, const struct b2b_btf *base, const char *base_name,
		 struct b2b_pass_out *out, const struct b2b_log *log);

#endif /* BTF2BTF_BTF_RELOCATE_H */
