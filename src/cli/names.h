/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* Named types of a BTF (its base included) sorted by name, for the inspect commands. */
#ifndef BTF2BTF_NAMES_H
#define BTF2BTF_NAMES_H

#include <stddef.h>
#include <stdint.h>

struct btf;

struct names_ent {
	const char *name;	/* into the BTF's strings: build after editing the BTF */
	uint32_t id;
};

struct names {
	const struct btf *btf;
	struct names_ent *ents;	/* by (name, id) */
	size_t nr;
};

/* kind < 0: every named type; else only that kind. 0 or -ENOMEM. */
int names_build(struct names *n, const struct btf *btf, int kind);
void names_free(struct names *n);
/* The entries named name: *first, returns their count (ids ascending). */
size_t names_find(const struct names *n, const char *name, size_t *first);
/* The lowest id named name of kind (any kind when kind < 0), 0 if none. */
uint32_t names_lookup(const struct names *n, const char *name, int kind);

#endif /* BTF2BTF_NAMES_H */
