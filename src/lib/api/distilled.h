/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* Split BTF that carries its own distilled base (.BTF.base, FILE.base): distilled.c. */
#ifndef BTF2BTF_DISTILLED_H
#define BTF2BTF_DISTILLED_H

#include "api/handle.h"

/* The object's .BTF.base section, parsed and checked into *dist; *dist
 * empty when there is none. */
int b2b_distilled_base_section(struct btf2btf *b, struct b2b_btf *dist);
/* The same from path + ".base", beside raw BTF file path, when it exists
 * (decompressed up to max_decompressed, 0: the default). */
int b2b_distilled_base_file(struct btf2btf *b, const char *path, uint64_t max_decompressed,
			    struct b2b_btf *dist);
/* b->res.btf, just read on dist (which this takes; empty: nothing to do) with
 * error err (returned, dist freed): without a base, dist becomes b->res.base
 * (written back with the BTF); with b->res.base (read from base_path), b->res.btf
 * is relocated onto it, and a transform distills again. */
int b2b_distilled_settle(struct btf2btf *b, struct b2b_btf *dist, int err, const char *base_path);

#endif /* BTF2BTF_DISTILLED_H */
