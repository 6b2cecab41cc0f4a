/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * What the post-passes (dedup, sort, distill) share beyond the model they
 * read (btf_model.h): renumbering and a word's class by the table of kinds
 * (btf_kinds.h); their output (new bytes and an id map); the string tables
 * and buffers they write.
 */
#ifndef BTF2BTF_BTF_RAW_H
#define BTF2BTF_BTF_RAW_H

#include <linux/btf.h>
#include <stdbool.h>
#include <stddef.h>

#include "format/btf_model.h"

/* Renumber the type ids in the words w of a type: id -> map[id] for ids
 * below nr. */
static inline void b2b_type_remap(__u32 *w, const __u32 *map, __u32 nr)
{
	struct b2b_fields it = b2b_fields((const struct btf_type *)w, B2B_W_REF);

	for (__u32 i; b2b_fields_next(&it, &i); )
		if (w[i] < nr)
			w[i] = map[w[i]];
}

/* What word i (< b2b_type_words()) of a type of this kind holds (one word;
 * a walk of them all: b2b_words()). */
static inline enum b2b_word b2b_word_class(__u32 kind, __u32 i)
{
	const struct b2b_kind_layout *k = &b2b_kinds[kind];
	__u32 ids = k->ids, strs = B2B_WORD(0);

	if (i >= k->words) {
		i -= k->words;
		if (i >= k->elem_words)
			i %= k->elem_words;
		ids = k->elem_ids;
		strs = k->elem_strs;
	}
	return ids >> i & 1 ? B2B_W_REF : strs >> i & 1 ? B2B_W_STR : B2B_W_PLAIN;
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
