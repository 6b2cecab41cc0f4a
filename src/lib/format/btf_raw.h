/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * What the post-passes (dedup, sort, distill) share beyond the model they
 * read (btf_model.h): every 32-bit word of a type classified (name offset,
 * type id, plain value) so that hashing, comparing and renumbering are
 * written once for every kind; their output (new bytes and an id map); the
 * string tables and buffers they write.
 */
#ifndef BTF2BTF_BTF_RAW_H
#define BTF2BTF_BTF_RAW_H

#include <linux/btf.h>
#include <stdbool.h>
#include <stddef.h>

#include "format/btf_model.h"

enum b2b_word { B2B_W_PLAIN, B2B_W_STR, B2B_W_REF };

/* Renumber the type ids in the words w of a type: id -> map[id] for ids
 * below nr (what word class B2B_W_REF marks, walked per kind). */
static inline void b2b_type_remap(__u32 *w, const __u32 *map, __u32 nr)
{
	const struct btf_type *t = (const struct btf_type *)w;
	__u32 vlen = b2b_vlen(t), i;

#define REMAP(x) do { if ((x) < nr) (x) = map[(x)]; } while (0)
	switch (b2b_kind(t)) {
	case BTF_KIND_PTR: case BTF_KIND_TYPEDEF: case BTF_KIND_VOLATILE: case BTF_KIND_CONST:
	case BTF_KIND_RESTRICT: case BTF_KIND_FUNC: case BTF_KIND_VAR: case BTF_KIND_DECL_TAG:
	case BTF_KIND_TYPE_TAG:
		REMAP(w[2]);
		break;
	case BTF_KIND_ARRAY:
		REMAP(w[3]);
		REMAP(w[4]);
		break;
	case BTF_KIND_STRUCT: case BTF_KIND_UNION:
		for (i = 0; i < vlen; i++)
			REMAP(w[3 + 3 * i + 1]);
		break;
	case BTF_KIND_FUNC_PROTO:
		REMAP(w[2]);
		for (i = 0; i < vlen; i++)
			REMAP(w[3 + 2 * i + 1]);
		break;
	case BTF_KIND_DATASEC:
		for (i = 0; i < vlen; i++)
			REMAP(w[3 + 3 * i]);
		break;
	default:
		break;
	}
#undef REMAP
}

/* What word i (< b2b_type_words()) of a type of this kind holds. */
static inline enum b2b_word b2b_word_class(__u16 kind, __u32 i)
{
	if (i == 0)
		return B2B_W_STR;
	if (i == 1)
		return B2B_W_PLAIN;
	if (i == 2) {
		switch (kind) {
		case BTF_KIND_PTR: case BTF_KIND_TYPEDEF: case BTF_KIND_VOLATILE:
		case BTF_KIND_CONST: case BTF_KIND_RESTRICT: case BTF_KIND_FUNC:
		case BTF_KIND_FUNC_PROTO: case BTF_KIND_VAR: case BTF_KIND_DECL_TAG:
		case BTF_KIND_TYPE_TAG:
			return B2B_W_REF;
		default:
			return B2B_W_PLAIN;
		}
	}
	i -= 3;
	switch (kind) {
	case BTF_KIND_ARRAY:
		return i < 2 ? B2B_W_REF : B2B_W_PLAIN;
	case BTF_KIND_STRUCT: case BTF_KIND_UNION:
		return i % 3 == 0 ? B2B_W_STR : i % 3 == 1 ? B2B_W_REF : B2B_W_PLAIN;
	case BTF_KIND_ENUM:
		return i % 2 == 0 ? B2B_W_STR : B2B_W_PLAIN;
	case BTF_KIND_ENUM64:
		return i % 3 == 0 ? B2B_W_STR : B2B_W_PLAIN;
	case BTF_KIND_FUNC_PROTO:
		return i % 2 == 0 ? B2B_W_STR : B2B_W_REF;
	case BTF_KIND_DATASEC:
		return i % 3 == 0 ? B2B_W_REF : B2B_W_PLAIN;
	default:
		return B2B_W_PLAIN;
	}
}


/*
 * The output of a pass: raw native-endian BTF (malloc'd) and, for every id
 * of the input (0 .. type_cnt - 1, base ids included), its id in the output.
 */
struct b2b_pass_out {
	void *data;
	size_t size;
	__u32 *map;
	__u32 nr_map;		/* the input's type count */
};

void b2b_pass_out_free(struct b2b_pass_out *o);

/* A raw BTF: header, then types, then strings (copied). */
int b2b_raw_build(const void *types, __u32 type_len, const void *strs, __u32 str_len,
		  void **data, size_t *size);
/* A raw BTF with r's strings and room for type_len bytes of types, returned
 * to be filled in: passes write their types straight into the result.
 * NULL: -ENOMEM. */
char *b2b_raw_alloc(const struct b2b_btf *r, __u32 type_len, void **data, size_t *size);


/*
 * Strings of a BTF being written: "" at 0, each string once, in the order
 * added. A split BTF's builder first looks a string up in its base's
 * builder (as libbpf's btf__add_str() does) and offsets its own by the
 * base's length.
 */
struct b2b_strtab {
	char *buf;
	size_t len, cap;
	__u32 *slots;		/* open addressing: offset + 1, 0 empty */
	size_t mask, nr;
	const struct b2b_strtab *base;
};

int b2b_strtab_init(struct b2b_strtab *s, const struct b2b_strtab *base);
void b2b_strtab_free(struct b2b_strtab *s);
/* Offset of str in the result (base strings included): >= 0, or -ENOMEM / -E2BIG. */
long b2b_strtab_add(struct b2b_strtab *s, const char *str);

#endif /* BTF2BTF_BTF_RAW_H */
