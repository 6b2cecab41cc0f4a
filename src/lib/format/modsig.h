/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* A module's appended signature (scripts/sign-file). */
#ifndef BTF2BTF_MODSIG_H
#define BTF2BTF_MODSIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* include/uapi/linux/module_signature.h */
#define B2B_MODSIG_MARKER	"~Module signature appended~\n"

/* data (a module) ends with a signature: 1 and *elf_size where the ELF
 * ends (the signature and its struct module_signature + marker follow); 0
 * without the marker; -EBADMSG, why set, when the marker is there but the
 * trailer does not add up as the kernel's mod_check_sig() reads it (a
 * rewrite would take the trailer for ELF bytes and drop it). */
int b2b_modsig_find(const void *data, size_t size, size_t *elf_size, char *why, size_t why_size);

#endif /* BTF2BTF_MODSIG_H */
