/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* The kernel an object belongs to, and the kfunc sets of kernels 6.0-6.8. */
#ifndef BTF2BTF_KERNEL_SETS_H
#define BTF2BTF_KERNEL_SETS_H

#include "format/elf_file.h"
#include "input/set8.h"

#define B2B_KERNEL_VERSION(a, b) (((uint32_t)(a) << 16) | ((uint32_t)(b) << 8))

/* ids->kernel_version and kernel_release from .modinfo's vermagic (a module)
 * or linux_banner in .rodata (a vmlinux); both stay 0/"" when neither is
 * there (an unlinked object). */
void b2b_kernel_version_read(struct b2b_elf *e, struct b2b_btf_ids *ids);

/* Kernels 6.0-6.8: set the `registered` of every unflagged set8 a struct
 * btf_kfunc_id_set points at. 0, or -ENOMEM. */
int b2b_kernel_sets_classify(struct b2b_elf *e, const struct b2b_section *sec,
			     const struct b2b_symtab *symtab, struct b2b_btf_ids *ids,
			     const struct b2b_log *log);

#endif /* BTF2BTF_KERNEL_SETS_H */
