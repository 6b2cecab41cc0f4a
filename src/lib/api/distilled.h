/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* Split BTF that carries its own distilled base (.BTF.base, FILE.base): distilled.c. */
#ifndef BTF2BTF_DISTILLED_H
#define BTF2BTF_DISTILLED_H

#include "api/handle.h"

/* The object's .BTF.base section, parsed and checked into *dist; *dist
 * empty when there is none. */
int b2b_distilled_base_section(struct btf2btf *b, struct b2b_btf *dist);
/* The same from path + ".base", beside raw BTF file path, when it exists. */
int b2b_distilled_base_file(struct btf2btf *b, const char *path, struct b2b_btf *dist);
/* b->btf, just read on dist (which this takes; empty: nothing to do) with
 * error err (returned, dist freed): without a base, dist becomes b->base
 * (written back with the BTF); with b->base (read from base_path), b->btf
 * is relocated onto it, and a transform distills again. */
int b2b_distilled_settle(struct btf2btf *b, struct b2b_btf *dist, int err, const char *base_path);

#endif /* BTF2BTF_DISTILLED_H */
