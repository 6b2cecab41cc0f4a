// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The one reader and the one writer of BTF bytes (btf_format.h): header by
 * the length it gives, sections as the kernel checks them (btf_parse_hdr(),
 * btf_check_sec_info()), the layout section, either byte order.
 */
#include <byteswap.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "format/btf_format.h"

_Static_assert(sizeof(struct b2b_btf_hdr) == B2B_BTF_HDR_LEN, "the 24-byte BTF header");
_Static_assert(sizeof(struct b2b_btf_layout) == 4, "a layout entry is 4 bytes");

/* The layout section's entry of a kind this library knows (the table's
 * words in bytes, as libbpf 1.8 writes them); all zero for another. */
static struct b2b_btf_layout known_layout(__u32 kind)
{
	const struct b2b_kind_layout *k = b2b_kind_layout(kind);

	if (!k)
		return (struct b2b_btf_layout){ 0 };
	return (struct b2b_btf_layout){ (k->words - 3) * 4, k->elem_words * 4, 0 };
}

const char *btf2btf__kind_name(unsigned int kind)
{
	const struct b2b_kind_layout *k = b2b_kind_layout(kind);

	return k ? k->name : "UNKNOWN";
}

void b2b_btf_format_free(struct b2b_btf_format *fmt)
{
	free(fmt->layout);
	memset(fmt, 0, sizeof(*fmt));
}

bool b2b_btf_format_is_plain(const struct b2b_btf_format *fmt)
{
	return !fmt->swapped && !fmt->nr_layout && fmt->hdr_len <= B2B_BTF_HDR_LEN;
}

static __u32 load32(const unsigned char *p, bool swap)
{
	__u32 v;

	memcpy(&v, p, sizeof(v));
	return swap ? bswap_32(v) : v;
}

static void swap_words(void *p, size_t bytes)
{
	unsigned char *b = p;
	__u32 w;

	/* every BTF type record is 32-bit words: no kind needs to be known;
	 * word by memcpy: a header of 30 bytes puts them off 4-byte alignment */
	for (size_t i = 0; i + 4 <= bytes; i += 4) {
		memcpy(&w, b + i, 4);
		w = bswap_32(w);
		memcpy(b + i, &w, 4);
	}
}

/* The header's fields (the 24-byte part native), the layout section's
 * offset and length (0 and 0 without one). */
struct hdr_read {
	struct b2b_btf_hdr h;
	__u32 layout_off, layout_len;
	bool swap;
};

static int read_hdr(const unsigned char *d, size_t size, const char *what,
		    const struct b2b_log *log, struct hdr_read *r)
{
	__u16 magic;

	memset(r, 0, sizeof(*r));
	if (size < B2B_BTF_HDR_LEN)
		return b2b_errno(log, -EINVAL, "%s: %zu bytes, shorter than a BTF header",
				 what, size);
	memcpy(&magic, d, sizeof(magic));
	r->swap = magic == bswap_16(B2B_BTF_MAGIC);
	if (magic != B2B_BTF_MAGIC && !r->swap)
		return b2b_errno(log, -EINVAL, "%s: bad BTF magic 0x%04x", what, magic);
	r->h.magic = B2B_BTF_MAGIC;
	r->h.version = d[2];
	r->h.flags = d[3];
	r->h.hdr_len = load32(d + 4, r->swap);
	r->h.type_off = load32(d + 8, r->swap);
	r->h.type_len = load32(d + 12, r->swap);
	r->h.str_off = load32(d + 16, r->swap);
	r->h.str_len = load32(d + 20, r->swap);
	if (r->h.version != B2B_BTF_VERSION)
		return b2b_errno(log, -EINVAL, "%s: unsupported BTF version %u", what, r->h.version);
	if (r->h.hdr_len < B2B_BTF_HDR_LEN || r->h.hdr_len > size)
		return b2b_errno(log, -EINVAL, "%s: BTF header length %u out of range (%zu bytes)",
				 what, r->h.hdr_len, size);
	if (r->h.flags)
		return b2b_errno(log, -EINVAL, "%s: unsupported BTF header flags 0x%x", what,
				 r->h.flags);
	if (r->h.hdr_len >= B2B_BTF_HDR_LAYOUT_LEN) {
		r->layout_off = load32(d + 24, r->swap);
		r->layout_len = load32(d + 28, r->swap);
	}
	/* fields of a header newer than this library must be zero, as the
	 * kernel wants them (it refuses "Unsupported btf_header" otherwise);
	 * so must a header cut inside the layout fields (25-31 bytes): a
	 * kernel of a 24-byte struct btf_header wants them zero, one of the
	 * 32-byte struct would read a layout_len of a few bytes */
	for (__u32 i = r->h.hdr_len >= B2B_BTF_HDR_LAYOUT_LEN ? B2B_BTF_HDR_LAYOUT_LEN : B2B_BTF_HDR_LEN;
	     i < r->h.hdr_len; i++)
		if (d[i])
			return b2b_errno(log, -EINVAL,
					 "%s: BTF header of %u bytes has fields this library does not know (byte %u is not zero)%s",
					 what, r->h.hdr_len, i,
					 r->h.hdr_len < B2B_BTF_HDR_LAYOUT_LEN ?
					 ": it ends inside the layout fields" : "");
	return 0;
}

static int check_sections(const struct hdr_read *r, size_t size, const char *what,
			  const struct b2b_log *log)
{
	const struct b2b_btf_hdr *h = &r->h;
	__u64 data = size - h->hdr_len;

	if ((__u64)h->type_off + h->type_len > data || (__u64)h->str_off + h->str_len > data)
		return b2b_errno(log, -EINVAL,
				 "%s: BTF header lengths (types %u+%u, strings %u+%u) exceed the %llu bytes of data",
				 what, h->type_off, h->type_len, h->str_off, h->str_len,
				 (unsigned long long)data);
	if ((__u64)r->layout_off + r->layout_len > data)
		return b2b_errno(log, -EINVAL,
				 "%s: BTF layout section %u+%u exceeds the %llu bytes of data",
				 what, r->layout_off, r->layout_len, (unsigned long long)data);
	if (h->type_off % 4 || h->type_len % 4)
		return b2b_errno(log, -EINVAL,
				 "%s: BTF type section at %u+%u is not 4-byte aligned words", what,
				 h->type_off, h->type_len);
	if (r->layout_len && (r->layout_off % 4 || r->layout_len % sizeof(struct b2b_btf_layout)))
		return b2b_errno(log, -EINVAL,
				 "%s: BTF layout section at %u+%u is not a 4-byte aligned array of 4-byte entries",
				 what, r->layout_off, r->layout_len);
	/* types, then the layout if any, then strings, with no gap: where
	 * every writer puts them (libbpf, pahole); the kernel refuses gaps */
	if (!r->layout_len && (h->type_off != 0 || h->str_off != h->type_len))
		return b2b_errno(log, -EINVAL,
				 "%s: BTF sections are not contiguous (types %u+%u, strings %u+%u)",
				 what, h->type_off, h->type_len, h->str_off, h->str_len);
	if (r->layout_len && (h->type_off != 0 || r->layout_off != h->type_len ||
			      h->str_off != (__u64)r->layout_off + r->layout_len))
		return b2b_errno(log, -EINVAL,
				 "%s: BTF sections are not contiguous (types %u+%u, layout %u+%u, strings %u+%u)",
				 what, h->type_off, h->type_len, r->layout_off, r->layout_len,
				 h->str_off, h->str_len);
	/* the sections end where the data does: the kernel refuses bytes
	 * past them ("Unsupported section found"), and a writer would drop
	 * them (a module signature after raw BTF is not one) */
	if ((__u64)h->str_off + h->str_len != data)
		return b2b_errno(log, -EINVAL,
				 "%s: %llu bytes past the BTF sections (they end at %llu of %llu bytes of data)",
				 what, (unsigned long long)(data - h->str_off - h->str_len),
				 (unsigned long long)h->str_off + h->str_len, (unsigned long long)data);
	return 0;
}

/* The layout section, native, into fmt; each entry of a kind this library
 * knows must say what the library knows of it. */
static int read_layout(const unsigned char *p, const struct hdr_read *r, const char *what,
		       const struct b2b_log *log, struct b2b_btf_format *fmt)
{
	__u32 n = r->layout_len / sizeof(struct b2b_btf_layout);

	if (!n)
		return 0;
	fmt->layout = b2b_malloc(n * sizeof(*fmt->layout));
	if (!fmt->layout)
		return b2b_errno(log, -ENOMEM, "%s: out of memory", what);
	memcpy(fmt->layout, p, n * sizeof(*fmt->layout));
	fmt->nr_layout = n;
	for (__u32 k = 0; k < n; k++) {
		struct b2b_btf_layout *l = &fmt->layout[k];
		struct b2b_btf_layout known = known_layout(k);

		if (r->swap)
			l->flags = bswap_16(l->flags);
		if (b2b_kind_layout(k) &&
		    (l->info_sz != known.info_sz || l->elem_sz != known.elem_sz))
			return b2b_errno(log, -EINVAL,
					 "%s: the BTF layout section says kind %u has %u+%u*vlen bytes after struct btf_type, not %u+%u*vlen",
					 what, k, l->info_sz, l->elem_sz, known.info_sz, known.elem_sz);
	}
	return 0;
}

int b2b_btf_check_kinds(const void *types, __u32 type_len, __u32 start_id,
			const struct b2b_btf_format *fmt, const char *what,
			const struct b2b_log *log)
{
	const __u32 *w = types;
	__u32 id = start_id, words = type_len / 4;

	for (__u32 i = 0, n; i + 3 <= words; i += n, id++) {
		__u32 info = w[i + 1], kind = b2b_info_kind(info);

		n = b2b_btf_type_words(info);
		if (!n || !kind) {
			if (kind < fmt->nr_layout)
				return b2b_errno(log, -EOPNOTSUPP,
						 "%s: type [%u] is of kind %u, which btf2btf does not know (the layout section gives its size, not which of its words are type ids)",
						 what, id, kind);
			return b2b_errno(log, -EINVAL, "%s: type [%u] has unknown kind %u",
					 what, id, kind);
		}
	}
	return 0;	/* a truncated last type: the type checks name it */
}

int b2b_btf_read(const void *data, size_t size, const char *what,
		 const struct b2b_log *log, void **out, size_t *out_size,
		 struct b2b_btf_format *fmt)
{
	const unsigned char *d = data;
	struct b2b_btf_hdr nh;
	struct hdr_read r;
	unsigned char *p;
	size_t total;
	int err;

	*out = NULL;
	*out_size = 0;
	memset(fmt, 0, sizeof(*fmt));
	err = read_hdr(d, size, what, log, &r);
	if (!err)
		err = check_sections(&r, size, what, log);
	if (err)
		return err;
	fmt->swapped = r.swap;
	fmt->hdr_len = r.h.hdr_len;
	err = read_layout(d + r.h.hdr_len + r.layout_off, &r, what, log, fmt);
	if (err)
		goto fail;
	total = B2B_BTF_HDR_LEN + (size_t)r.h.type_len + r.h.str_len;
	if (!r.swap && r.h.hdr_len == B2B_BTF_HDR_LEN && !r.h.type_off &&
	    r.h.str_off == r.h.type_len && !fmt->nr_layout && !((uintptr_t)d % 4)) {
		*out = (void *)data;
		*out_size = total;
		return 0;
	}
	p = b2b_malloc(total);
	if (!p) {
		err = b2b_errno(log, -ENOMEM, "%s: out of memory", what);
		goto fail;
	}
	nh = r.h;
	nh.hdr_len = B2B_BTF_HDR_LEN;
	nh.type_off = 0;
	nh.str_off = r.h.type_len;
	memcpy(p, &nh, sizeof(nh));
	memcpy(p + B2B_BTF_HDR_LEN, d + r.h.hdr_len + r.h.type_off, r.h.type_len);
	memcpy(p + B2B_BTF_HDR_LEN + r.h.type_len, d + r.h.hdr_len + r.h.str_off, r.h.str_len);
	if (r.swap)
		swap_words(p + B2B_BTF_HDR_LEN, r.h.type_len);
	*out = p;
	*out_size = total;
	return 0;
fail:
	b2b_btf_format_free(fmt);
	return err;
}

/* Entries for kinds 0 .. the largest kind the types use: fmt's, then the
 * library's own. */
static __u32 layout_entries(const __u32 *w, __u32 words, const struct b2b_btf_format *fmt)
{
	__u32 n = fmt->nr_layout;

	for (__u32 i = 0, len; i + 3 <= words; i += len) {
		__u32 kind = b2b_info_kind(w[i + 1]);

		len = b2b_btf_type_words(w[i + 1]);
		if (kind >= n)
			n = kind + 1;
		if (!len)
			break;
	}
	return n;
}

int b2b_btf_write(const void *native, size_t size, const struct b2b_btf_format *fmt,
		  void **out, size_t *out_size)
{
	const unsigned char *d = native;
	__u32 hdr_len = fmt->hdr_len > B2B_BTF_HDR_LEN ? fmt->hdr_len : B2B_BTF_HDR_LEN;
	__u32 nr_layout = 0, layout_len, tail[2] = { 0, 0 };
	struct b2b_btf_hdr h;
	unsigned char *p, *types, *layout;
	__u64 total;

	*out = NULL;
	*out_size = 0;
	if (size < B2B_BTF_HDR_LEN)
		return -EINVAL;
	memcpy(&h, d, sizeof(h));
	if (h.hdr_len != B2B_BTF_HDR_LEN || h.type_off || h.str_off != h.type_len ||
	    (__u64)h.hdr_len + h.type_len + h.str_len > size || h.type_len % 4)
		return -EINVAL;
	if (fmt->nr_layout)
		nr_layout = layout_entries((const __u32 *)(d + B2B_BTF_HDR_LEN), h.type_len / 4, fmt);
	layout_len = nr_layout * sizeof(struct b2b_btf_layout);
	total = (__u64)hdr_len + h.type_len + layout_len + h.str_len;
	if (total > UINT32_MAX)
		return -E2BIG;
	p = b2b_calloc(1, total);
	if (!p)
		return -ENOMEM;
	types = p + hdr_len;
	layout = types + h.type_len;
	memcpy(types, d + B2B_BTF_HDR_LEN, h.type_len);
	for (__u32 k = 0; k < nr_layout; k++) {
		struct b2b_btf_layout l = k < fmt->nr_layout ? fmt->layout[k] : known_layout(k);

		if (fmt->swapped)
			l.flags = bswap_16(l.flags);
		memcpy(layout + k * sizeof(l), &l, sizeof(l));
	}
	memcpy(layout + layout_len, d + B2B_BTF_HDR_LEN + h.type_len, h.str_len);
	h.hdr_len = hdr_len;
	h.str_off = h.type_len + layout_len;
	if (hdr_len >= B2B_BTF_HDR_LAYOUT_LEN && layout_len) {
		tail[0] = h.type_len;
		tail[1] = layout_len;
	}
	if (fmt->swapped) {
		swap_words(types, h.type_len);
		h.magic = bswap_16(h.magic);
		swap_words(&h.hdr_len, 5 * sizeof(__u32));
		swap_words(tail, sizeof(tail));
	}
	memcpy(p, &h, sizeof(h));
	if (hdr_len >= B2B_BTF_HDR_LAYOUT_LEN)
		memcpy(p + B2B_BTF_HDR_LEN, tail, sizeof(tail));
	*out = p;
	*out_size = total;
	return 0;
}
