/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The BTF format as the bytes say it, in the library's own definitions:
 * never sizeof() of whatever <linux/btf.h> the build machine has. That
 * header grows (Linux 7.1 added layout_off/layout_len: struct btf_header is
 * 32 bytes there, 24 before) and so do its macros (kind 5 -> 7 bits, vlen
 * 16 -> 24 bits), while a BTF carries its own header length.
 *
 * btf_format.c is the one reader of BTF bytes (any header length, either
 * byte order, any alignment of the caller's buffer, the layout section) and
 * the one writer; everything between works on native-endian bytes with the
 * 24-byte header, aligned, which every libbpf reads.
 */
#ifndef BTF2BTF_BTF_FORMAT_H
#define BTF2BTF_BTF_FORMAT_H

/* the kind numbers only (ABI constants): no struct, no macro of it */
#include <linux/btf.h>
#include <linux/types.h>
#include <stdbool.h>
#include <stddef.h>

#include "format/btf_kinds.h"
#include "util/btf_info.h"
#include "util/internal.h"

#define B2B_BTF_MAGIC		0xeB9F
#define B2B_BTF_VERSION		1

/* The header every BTF has since Linux 4.18 (24 bytes). */
struct b2b_btf_hdr {
	__u16 magic;
	__u8 version;
	__u8 flags;
	__u32 hdr_len;
	/* offsets from the end of the header */
	__u32 type_off;
	__u32 type_len;
	__u32 str_off;
	__u32 str_len;
};
#define B2B_BTF_HDR_LEN		24
/* Linux 7.1 on: two more words, the layout section's offset and length */
#define B2B_BTF_HDR_LAYOUT_LEN	32

/* One entry of the layout section per kind: the bytes after struct
 * btf_type, one element (info_sz) and vlen elements of elem_sz each. */
struct b2b_btf_layout {
	__u8 info_sz;
	__u8 elem_sz;
	__u16 flags;
};

/* The largest vlen libbpf (up to 1.7) holds: it reads 16 bits. The library
 * holds 24 (the model); only libbpf's view of a BTF and btf__dedup() cannot. */
#define B2B_LIBBPF_MAX_VLEN	0xffff

/* What a BTF read looked like, so that it is written back the same way. */
struct b2b_btf_format {
	bool swapped;			/* the other byte order than this machine's */
	__u32 hdr_len;			/* as read (24, 32, ...) */
	__u32 nr_layout;		/* layout entries (0: no layout section) */
	struct b2b_btf_layout *layout;	/* native byte order, owned */
};

void b2b_btf_format_free(struct b2b_btf_format *fmt);
/* True when bytes written with fmt are the native 24-byte form as they are. */
bool b2b_btf_format_is_plain(const struct b2b_btf_format *fmt);

/*
 * Check BTF bytes (data may lie at any address) and return them as native
 * byte order, 24-byte header, types then strings (*out, *out_size; 4-byte
 * aligned); *fmt says how they were laid out. Bytes that are that form
 * already, at a 4-byte aligned address, are not copied: *out is data then
 * (free *out only when it is not data), so a base read from a mapped file
 * is read in place. Refused, with a message naming what: a header or
 * section that does not fit. (The types are walked once, by the model's
 * index: btf_model.c; b2b_btf_check_kinds() says what it refused.)
 */
int b2b_btf_read(const void *data, size_t size, const char *what,
		 const struct b2b_log *log, void **out, size_t *out_size,
		 struct b2b_btf_format *fmt);

/*
 * Every type of types (native, type_len bytes) of a kind this library
 * knows: 0, or the error logged naming the type (ids from start_id, the
 * first own one) and what: a kind this library does not know (the layout
 * section of fmt gives its size, not which of its words are type ids).
 */
int b2b_btf_check_kinds(const void *types, __u32 type_len, __u32 start_id,
			const struct b2b_btf_format *fmt, const char *what,
			const struct b2b_log *log);

/*
 * BTF bytes as fmt lays them out, from native bytes with the 24-byte
 * header (types, then strings): fmt's header length, a layout section
 * describing every kind the types use (fmt's entries, then the library's
 * own for kinds past them) when fmt has one, fmt's byte order. *out is
 * new (the caller frees it).
 */
int b2b_btf_write(const void *native, size_t size, const struct b2b_btf_format *fmt,
		  void **out, size_t *out_size);

#endif /* BTF2BTF_BTF_FORMAT_H */
