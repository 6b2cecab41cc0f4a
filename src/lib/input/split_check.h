/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* The kernel's checks of a module's split BTF on vmlinux that need the base: split_check.c. */
#ifndef BTF2BTF_SPLIT_CHECK_H
#define BTF2BTF_SPLIT_CHECK_H

#include "format/btf_model.h"
#include "util/internal.h"

/* What the kernel says when it refuses a module's BTF (kernel/bpf/btf.c),
 * the end of every message of these checks and of the relocation's. */
#define KERNEL_REFUSES "; the kernel refuses such a module's BTF at load (\"failed to validate module [NAME] BTF: -22\")"

/* The start of the message b2b_check_split_base() refuses complete BTF
 * with (the CLI takes it as bad usage). */
#define B2B_NOT_SPLIT "complete BTF, not split BTF"

/* What split btf expects of its base, checked before any type is read
 * through it: that btf is split BTF (its strings do not start with their
 * own ""), and that its names start strings of the base and its own; 0, or
 * -EINVAL logged with the figures ("built for another kernel"). what names
 * the BTF, as b2b_parse_btf()'s. */
int b2b_check_split_base(const struct b2b_btf *btf, const char *what, const struct b2b_log *log);

/* Every member of split btf's own structs and unions fits in it, on the
 * base (named base_name): 0, or -EINVAL logged naming the first that does
 * not. Bitfields are left out. */
int b2b_check_split_fits(const struct b2b_btf *btf, const char *base_name,
			 const struct b2b_log *log);

#endif /* BTF2BTF_SPLIT_CHECK_H */
