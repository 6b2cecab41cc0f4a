/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Keys of BTF types for --diff, which matches types by what they
 * are, not by id, so that a diff survives sort and dedup (which renumber
 * every type):
 *   - a named STRUCT, UNION, ENUM, ENUM64, FWD, TYPEDEF, INT, FLOAT, FUNC,
 *     VAR or DATASEC by kind and name;
 *   - PTR, CONST, VOLATILE, RESTRICT, TYPE_TAG, ARRAY, FUNC_PROTO and
 *     DECL_TAG by what they point at (their key is their whole contents);
 *   - an anonymous STRUCT, UNION, ENUM or ENUM64 by where it is used: the
 *     shortest path from a named type (member, parameter, pointer...) to it.
 * Same-keyed types are then compared by their contents, with the ids they
 * reference replaced by keys. Identical (key, contents) pairs count once:
 * dedup merges them.
 */
#ifndef BTF2BTF_TYPE_KEYS_H
#define BTF2BTF_TYPE_KEYS_H

#include <stdint.h>

struct btf;

struct type_keys {
	const struct btf *btf;
	uint32_t cnt;
	char **key, **use;	/* memo by id */
	uint8_t *busy;		/* 1: key being built, 2: use being built */
	uint32_t *ref_first;	/* referrers of id: refs[ref_first[id] .. ref_first[id + 1]) */
	struct type_ref { uint32_t from; int idx; } *refs;
};

/* 0 or -ENOMEM; type_keys_free() in both cases. */
int type_keys_init(struct type_keys *k, const struct btf *btf);
void type_keys_free(struct type_keys *k);
/* What id is matched by; NULL on a reference loop or no memory. Owned by k. */
const char *type_key(struct type_keys *k, uint32_t id);
/* id's contents, the types it references given by their keys; NULL: no memory. */
char *type_contents(struct type_keys *k, uint32_t id);

#endif /* BTF2BTF_TYPE_KEYS_H */
