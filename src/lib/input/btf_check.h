/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* Checks of BTF that libbpf 1.1.2 does not make, with messages naming the type. */
#ifndef BTF2BTF_BTF_CHECK_H
#define BTF2BTF_BTF_CHECK_H

#include <linux/types.h>

#include "internal.h"

struct btf;

/* Every type id, name offset and decl tag component in range; FUNC -> FUNC_PROTO. */
int b2b_check_btf_types(const struct btf *btf, const char *what, const struct b2b_log *log);

/* The same on the native bytes b2b_btf_read() made (on base, when split)
 * that libbpf refused: the message that names the type, or 0 when these
 * checks find nothing. */
int b2b_check_btf_raw(const void *data, size_t size, const struct btf *base, const char *what,
		      const struct b2b_log *log);

#endif /* BTF2BTF_BTF_CHECK_H */
