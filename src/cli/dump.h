/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* BTF in the raw text format of `bpftool btf dump file`, so the two diff. */
#ifndef BTF2BTF_DUMP_H
#define BTF2BTF_DUMP_H

#include <stdio.h>

struct btf;
struct json;

void dump_type(FILE *f, const struct btf *btf, unsigned int id);
/* All types of btf (of the split part only, when split); JSON when j. */
void dump_btf(FILE *f, const struct btf *btf, struct json *j);

#endif /* BTF2BTF_DUMP_H */
