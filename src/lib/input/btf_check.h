/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* Checks of BTF the transform relies on, with messages naming the type. */
#ifndef BTF2BTF_BTF_CHECK_H
#define BTF2BTF_BTF_CHECK_H

#include <linux/types.h>

#include "format/btf_model.h"
#include "util/internal.h"



/* Every type id, name offset and decl tag component in range; FUNC -> FUNC_PROTO. */
int b2b_check_btf_types(const struct b2b_btf *btf, const char *what, const struct b2b_log *log);

#endif /* BTF2BTF_BTF_CHECK_H */
