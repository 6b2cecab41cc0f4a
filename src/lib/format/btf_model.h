/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The library's one model of a BTF: native-endian bytes with the 24-byte
 * header (what btf_format.c makes of any input, or a stage writes), its own
 * types indexed by id, and the BTF it is split on. Every stage reads BTF
 * through it: the checks, the kfunc table, the plan, the edit, the
 * post-passes (each gives new bytes, opened as the next one's model), the
 * writers. libbpf's struct btf is made from the same bytes only when a
 * caller of the public API, or btf__dedup(), needs one (b2b_btf_libbpf()).
 *
 * Unlike libbpf up to 1.7, kinds and vlen are read as the bytes say them
 * (btf_info.h: a vlen above 65535 is held, and refused only where libbpf
 * is asked for), and a type is never read at an address it does not align
 * to.
 */
#ifndef BTF2BTF_BTF_MODEL_H
#define BTF2BTF_BTF_MODEL_H

#include <linux/btf.h>
#include <stdbool.h>
#include <stddef.h>

#include "format/btf_format.h"

struct btf;
struct b2b_elf;

struct b2b_btf {
	struct b2b_btf_hdr hdr;	/* native, 24 bytes */
	/* header, types, strings: size bytes; NULL when types and strings
	 * are read where libbpf keeps them (b2b_btf_of_libbpf()) */
	const void *data;
	size_t size;
	const char *types;
	const char *strs;
	const struct b2b_btf *base;	/* NULL unless split */
	struct b2b_btf *owned_base;	/* base, when v made and frees it */
	__u32 start_id;		/* first own id: 1, or the base's type count */
	__u32 base_str_len;	/* own string offsets start here */
	__u32 nr;		/* own types */
	__u32 *offs;		/* offs[id - start_id]: offset in types */
	/* the first own type whose vlen libbpf (up to 1.7: 16 bits) cannot
	 * hold, 0 if none: no libbpf view of v can be made */
	__u32 wide_id;
	/* what holds data: freed with the model (NULL: the caller's) */
	void *owned;
	struct b2b_elf *file;	/* data lies in this file's mapping */
	/* libbpf's struct btf of data, made on demand; lent: the caller's */
	struct btf *lib;
	bool lib_lent;
};

/*
 * Index data (native, 24-byte header, at a 4-byte aligned address), split
 * on base when not NULL. Borrowed: data must outlive v. -EINVAL when the
 * bytes are not that form, a type runs past the section, or the strings
 * are not what libbpf reads (NUL-terminated; "" first unless split).
 */
int b2b_btf_open(struct b2b_btf *v, const void *data, size_t size, const struct b2b_btf *base);
/* Why b2b_btf_open() refused data with -EINVAL, for a message. */
const char *b2b_btf_refusal(const void *data, size_t size, const struct b2b_btf *base);
/* The same; v frees data (b2b_malloc'd) from now on, also on failure. */
int b2b_btf_open_owned(struct b2b_btf *v, void *data, size_t size, const struct b2b_btf *base);
/* Frees what v owns (the index, owned bytes, file, libbpf's view); v is
 * then empty. Safe on an empty (zeroed) v. */
void b2b_btf_free(struct b2b_btf *v);

/* Done with v's bytes for a while: when they are a file's mapping, its
 * pages leave memory (read again from the file when next touched), so that
 * a copy made of them (libbpf's) is the only one held. */
void b2b_btf_release_pages(const struct b2b_btf *v);

/* libbpf's struct btf of v (split on its base's), made once; NULL with
 * errno set when libbpf refuses it (EOPNOTSUPP: b2b_btf_wide_id()). */
struct btf *b2b_btf_libbpf(const struct b2b_btf *v);
/* The first type of v or its bases whose vlen libbpf cannot hold, 0 if none. */
__u32 b2b_btf_wide_id(const struct b2b_btf *v);
/* A model of libbpf's btf (and of its bases), read where libbpf keeps its
 * types and strings (no copy, whether libbpf read them or made them
 * modifiable): v->lib is btf, lent; v->data is NULL. */
int b2b_btf_of_libbpf(struct b2b_btf *v, const struct btf *btf);
/* v->lib, lent, was made modifiable (btf__dedup() makes its base so, which
 * moves the types and strings v reads): v reads them where libbpf keeps
 * them now. */
int b2b_btf_reread_libbpf(const struct b2b_btf *v);

static inline bool b2b_btf_empty(const struct b2b_btf *v)
{
	return !v->types;
}

static inline __u32 b2b_btf_type_cnt(const struct b2b_btf *v)
{
	return v->start_id + v->nr;
}

static inline const struct b2b_btf *b2b_btf_base(const struct b2b_btf *v)
{
	return v->base;
}

/* Own type id (start_id <= id < type count): no check. */
static inline const struct btf_type *b2b_btf_own_type(const struct b2b_btf *v, __u32 id)
{
	return (const struct btf_type *)(v->types + v->offs[id - v->start_id]);
}

/* Type id of v or its bases, as btf__type_by_id(): id 0 is void (a type of
 * kind UNKN), NULL past the end. (Inline, as the lookups below: every
 * stage reads types through them.) */
static inline const struct btf_type *b2b_btf_type_by_id(const struct b2b_btf *v, __u32 id)
{
	static const struct btf_type void_type;

	while (id < v->start_id) {
		if (!v->base)
			return id ? NULL : &void_type;
		v = v->base;
	}
	return id < b2b_btf_type_cnt(v) ? b2b_btf_own_type(v, id) : NULL;
}

/* String at offset off of v or its bases, as btf__name_by_offset(): NULL
 * out of range. */
static inline const char *b2b_btf_str(const struct b2b_btf *v, __u32 off)
{
	while (off < v->base_str_len)
		v = v->base;
	off -= v->base_str_len;
	return off < v->hdr.str_len ? v->strs + off : NULL;
}

/* Name of type t of v or its bases: "" when anonymous or out of range. */
static inline const char *b2b_btf_name(const struct b2b_btf *v, const struct btf_type *t)
{
	const char *s = t ? b2b_btf_str(v, t->name_off) : NULL;

	return s ? s : "";
}

/* End of the strings of v and its bases: names are at offsets [0, end). */
static inline __u32 b2b_btf_str_end(const struct b2b_btf *v)
{
	return v->base_str_len + v->hdr.str_len;
}

/* 32-bit words of a type, header included; 0 for an unknown kind. */
static inline __u32 b2b_type_words(const struct btf_type *t)
{
	return b2b_btf_type_words(t->info);
}

#endif /* BTF2BTF_BTF_MODEL_H */
