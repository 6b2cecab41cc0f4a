/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* The bytes an ELF object or raw BTF says it spans, from its first bytes. */
#ifndef BTF2BTF_EXTENT_H
#define BTF2BTF_EXTENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct b2b_extent {
	/* known: the object spans exactly end bytes (trusting its headers);
	 * else it spans at least end bytes, and a call with that many tells
	 * more (saturated at UINT64_MAX) */
	uint64_t end;
	bool known;
	const char *why;	/* -ENOEXEC: what the bytes are instead */
};

/* From the first len bytes of data: 0 with *x filled in, or -ENOEXEC when
 * they are neither an ELF object nor raw BTF, or a header no reader takes
 * (x->why says which). Checks nothing else: the readers do. */
int b2b_extent_of(const void *data, size_t len, struct b2b_extent *x);

#endif /* BTF2BTF_EXTENT_H */
