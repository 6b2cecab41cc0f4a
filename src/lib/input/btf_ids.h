/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* .BTF_ids: set8 ranges, their entries and each entry's flags word. */
#ifndef BTF2BTF_BTF_IDS_H
#define BTF2BTF_BTF_IDS_H

#include "format/elf_file.h"
#include "input/set8.h"

#define B2B_SET8_PREFIX "__BTF_ID__set8__"
#define B2B_FUNC_PREFIX "__BTF_ID__func__"

/* Parse .BTF_ids and the symbol table; a missing section is not an error. */
int b2b_btf_ids_parse(struct b2b_elf *e, struct b2b_btf_ids *ids, const struct b2b_log *log);
void b2b_btf_ids_free(struct b2b_btf_ids *ids);

/* Function name from "__BTF_ID__func__<name>__<counter><line>" into buf. */
int b2b_btf_id_func_name(const char *sym, char *buf, size_t size);

#endif /* BTF2BTF_BTF_IDS_H */
