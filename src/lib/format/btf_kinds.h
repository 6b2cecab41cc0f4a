/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The one table of BTF kinds: for each kind the library knows, how many
 * 32-bit words a type of it has (struct btf_type's three, the words after
 * it, the words of each of its vlen elements) and which of them are type
 * ids and which name offsets. Everything that walks types by their layout
 * reads it: the size of a type, the layout section a BTF is written with,
 * the checks of ids and names, relocation, the passes' hashing, comparing
 * and renumbering. (What a kind means -- when two STRUCTs are equal, what a
 * distilled base keeps -- stays with the code that needs it.) A new kind is
 * a row here, as in libbpf's btf_field_iter_init().
 */
#ifndef BTF2BTF_BTF_KINDS_H
#define BTF2BTF_BTF_KINDS_H

/* the kind numbers only (ABI constants): no struct, no macro of it */
#include <linux/btf.h>
#include <linux/types.h>
#include <stdbool.h>

#include "util/btf_info.h"

/* The kinds this library knows: BTF_KIND_UNKN (0) to BTF_KIND_ENUM64 (19). */
#define B2B_BTF_NR_KINDS	20

/* What a word of a type holds. */
enum b2b_word { B2B_W_PLAIN, B2B_W_STR, B2B_W_REF };

/*
 * A kind: its name, and its layout. Word 0 of every type is its name
 * offset, word 1 its info word, word 2 its size or type id; ids says which
 * of the words before the elements are type ids (bit i: word i; word 0 is
 * the only name offset there), elem_ids and elem_strs which of each
 * element's words are type ids and name offsets. words 0: a kind this
 * library does not know.
 */
struct b2b_kind_layout {
	const char *name;
	__u8 words;		/* struct btf_type's three and those after it */
	__u8 ids;
	__u8 elem_words;	/* each vlen element's */
	__u8 elem_ids, elem_strs;
};

#define B2B_WORD(i)	(1u << (i))

/*
 * The rows: KIND (BTF_KIND_KIND, named "KIND"), words, ids; each
 * element's words, ids, name offsets. A list of X(...) so that a walk
 * that must be fast can have a case a kind, each compiled from its row
 * (see btf_check.c).
 */
#define B2B_KINDS(X, W)										\
	X(INT,		4, 0,		0, 0,	 0)						\
	X(PTR,		3, W(2),	0, 0,	 0)						\
	X(ARRAY,	6, W(3) | W(4),	0, 0,	 0)						\
	X(STRUCT,	3, 0,		3, W(1), W(0))						\
	X(UNION,	3, 0,		3, W(1), W(0))						\
	X(ENUM,		3, 0,		2, 0,	 W(0))						\
	X(FWD,		3, 0,		0, 0,	 0)						\
	X(TYPEDEF,	3, W(2),	0, 0,	 0)						\
	X(VOLATILE,	3, W(2),	0, 0,	 0)						\
	X(CONST,	3, W(2),	0, 0,	 0)						\
	X(RESTRICT,	3, W(2),	0, 0,	 0)						\
	X(FUNC,		3, W(2),	0, 0,	 0)						\
	X(FUNC_PROTO,	3, W(2),	2, W(1), W(0))						\
	X(VAR,		4, W(2),	0, 0,	 0)						\
	X(DATASEC,	3, 0,		3, W(0), 0)						\
	X(FLOAT,	3, 0,		0, 0,	 0)						\
	X(DECL_TAG,	4, W(2),	0, 0,	 0)						\
	X(TYPE_TAG,	3, W(2),	0, 0,	 0)						\
	X(ENUM64,	3, 0,		3, 0,	 W(0))

#define B2B_KIND_ROW(kind, words, ids, elem_words, elem_ids, elem_strs)				\
	[BTF_KIND_##kind] = { #kind, words, ids, elem_words, elem_ids, elem_strs },
static const struct b2b_kind_layout b2b_kinds[B2B_BTF_NR_KINDS] = {
	B2B_KINDS(B2B_KIND_ROW, B2B_WORD)
};
#undef B2B_KIND_ROW

/* The layout of a kind; NULL for one this library does not know. */
static inline const struct b2b_kind_layout *b2b_kind_layout(__u32 kind)
{
	return kind < B2B_BTF_NR_KINDS && b2b_kinds[kind].words ? &b2b_kinds[kind] : NULL;
}

/* 32-bit words of a type, struct btf_type included, from its info word
 * (native): 0 for a kind this library does not know. (Inline: the passes
 * call it for every type. A table, not a switch: kinds follow each other in
 * no order a branch predictor learns.) */
static inline __u32 b2b_btf_type_words(__u32 info)
{
	__u32 kind = b2b_info_kind(info);

	if (kind >= B2B_BTF_NR_KINDS)
		return 0;
	return b2b_kinds[kind].words + b2b_kinds[kind].elem_words * b2b_info_vlen(info);
}

/*
 * The words of a type in order, each with what it holds, without a
 * division a word:
 *
 *	for (struct b2b_words it = b2b_words(t, 0); b2b_words_next(&it); )
 *		... w[it.i], it.cls ...
 *
 * from word from on (from < the type's words: 0 or 2, after the name and
 * info). The type's kind must be one the table knows.
 */
struct b2b_words {
	__u32 i, n;		/* the word, the type's words */
	__u32 at;		/* the next word's index within its element */
	enum b2b_word cls;	/* what word i holds */
	const struct b2b_kind_layout *k;
};

static inline struct b2b_words b2b_words(const struct btf_type *t, __u32 from)
{
	const struct b2b_kind_layout *k = &b2b_kinds[b2b_kind(t)];
	struct b2b_words it = {
		.i = from - 1, .n = b2b_btf_type_words(t->info), .at = 0, .k = k,
	};

	if (from > k->words)
		it.at = (from - k->words) % k->elem_words;
	return it;
}

static inline bool b2b_words_next(struct b2b_words *it)
{
	const struct b2b_kind_layout *k = it->k;
	__u32 ids, strs, at;

	if (++it->i >= it->n)
		return false;
	if (it->i < k->words) {
		at = it->i;
		ids = k->ids;
		strs = B2B_WORD(0);
	} else {
		at = it->at;
		if (++it->at == k->elem_words)
			it->at = 0;
		ids = k->elem_ids;
		strs = k->elem_strs;
	}
	it->cls = ids >> at & 1 ? B2B_W_REF : strs >> at & 1 ? B2B_W_STR : B2B_W_PLAIN;
	return true;
}

/*
 * The type-id words (B2B_W_REF) or name-offset words (B2B_W_STR) of a type,
 * as libbpf's btf_field_iter: only those, the others skipped by the masks.
 * It gives their indexes, so that one walk serves a type read and a type
 * written:
 *
 *	struct b2b_fields it = b2b_fields(t, B2B_W_REF);
 *	for (__u32 i; b2b_fields_next(&it, &i); )
 *		... w[i] ...
 *
 * The type's kind must be one the table knows.
 */
struct b2b_fields {
	__u32 at;		/* the part read: 0 (the type's first words), an element's first */
	__u32 elem;		/* the next element's first word */
	__u32 left;		/* the words of that class of the part still to give */
	__u32 mask;		/* an element's words of that class */
	__u32 step;		/* an element's words */
	__u32 nr;		/* the elements not read yet */
};

static inline struct b2b_fields b2b_fields(const struct btf_type *t, enum b2b_word cls)
{
	const struct b2b_kind_layout *k = &b2b_kinds[b2b_kind(t)];
	__u32 mask = cls == B2B_W_REF ? k->elem_ids : k->elem_strs;

	return (struct b2b_fields){
		.at = 0,
		.elem = k->words,
		.left = cls == B2B_W_REF ? k->ids : B2B_WORD(0),
		.mask = mask,
		.step = k->elem_words,
		.nr = mask ? b2b_vlen(t) : 0,
	};
}

static inline bool b2b_fields_next(struct b2b_fields *it, __u32 *i)
{
	while (!it->left) {
		if (!it->nr)
			return false;
		it->nr--;
		it->at = it->elem;
		it->elem += it->step;
		it->left = it->mask;
	}
	*i = it->at + __builtin_ctz(it->left);
	it->left &= it->left - 1;
	return true;
}

#endif /* BTF2BTF_BTF_KINDS_H */
