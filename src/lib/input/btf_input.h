/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* BTF read from bytes or a file, parsed and checked (btf_input.c). */
#ifndef BTF2BTF_BTF_INPUT_H
#define BTF2BTF_BTF_INPUT_H

#include <stdbool.h>
#include <stddef.h>

#include "format/btf_model.h"
#include "util/internal.h"


struct b2b_btf_format;

bool b2b_is_elf_magic(const void *p, size_t size);
bool b2b_is_btf_magic(const unsigned char *p, size_t size);
/* Parse BTF bytes (split on base when base is set) into the model *out and
 * check every type; bytes read in place must outlive *out;
 * what names them in messages; *fmt (NULL: not wanted) says how the bytes
 * were laid out (the caller frees it with b2b_btf_format_free()). */
int b2b_parse_btf(const void *data, size_t size, const struct b2b_btf *base, const char *what,
		  struct b2b_btf *out, struct b2b_btf_format *fmt, const struct b2b_log *log);
/* BTF of an ELF file's .BTF section or of a raw BTF file, split on base
 * when not NULL; what, fmt and log as for b2b_parse_btf(); a compressed
 * file decompressed to at most max_plain bytes (b2b_file_open()). */
int b2b_load_btf_file(const char *path, const struct b2b_btf *base, const char *what,
		      uint64_t max_plain, struct b2b_btf *out, struct b2b_btf_format *fmt,
		      const struct b2b_log *parent);
#endif /* BTF2BTF_BTF_INPUT_H */
