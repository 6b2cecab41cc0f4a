/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* BTF in the raw text format of `bpftool btf dump file`, so the two diff. */
#ifndef BTF2BTF_DUMP_H
#define BTF2BTF_DUMP_H

#include <stdio.h>

struct btf;
struct btf_type;
struct json;

const char *b2b_kind_str(const struct btf_type *t);
void b2b_dump_type(FILE *f, const struct btf *btf, unsigned int id);
/* All types of btf (of the split part only, when split); JSON when j. */
void b2b_dump_btf(FILE *f, const struct btf *btf, struct json *j);

#endif /* BTF2BTF_DUMP_H */
