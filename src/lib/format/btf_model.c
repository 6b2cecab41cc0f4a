// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* The library's model of a BTF (btf_model.h): indexing, lookups, libbpf's view. */
#include <bpf/btf.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "format/btf_model.h"
#include "format/elf_file.h"
#include "util/libbpf_compat.h"

/* Why h is not the native 24-byte form over size bytes, NULL when it is. */
static const char *hdr_refusal(const struct b2b_btf_hdr *h, size_t size)
{
	if (h->magic != B2B_BTF_MAGIC || h->hdr_len != B2B_BTF_HDR_LEN || h->type_off % 4 ||
	    (__u64)h->type_off + h->type_len > size - h->hdr_len ||
	    (__u64)h->str_off + h->str_len > size - h->hdr_len)
		return "not the native form";
	return NULL;
}

/* Why strs[0, str_len) are not strings as libbpf reads them
 * (NUL-terminated; "" at offset 0 unless split: a split BTF may have none
 * of its own), NULL when they are. */
static const char *strs_refusal(const char *strs, __u32 str_len, const struct b2b_btf *base)
{
	if (!str_len && !base)
		return "it has no strings";
	if (str_len && strs[str_len - 1])
		return "its last string is not NUL-terminated";
	if (str_len && !base && strs[0])
		return "its strings do not start with \"\" (split BTF, read without its base?)";
	return NULL;
}

/*
 * Index types[0, type_len) and check strs[0, str_len) (strs_refusal()).
 * v->data and v->hdr are the caller's to set.
 */
static int index_parts(struct b2b_btf *v, const char *types, __u32 type_len, const char *strs,
		       __u32 str_len, const struct b2b_btf *base)
{
	__u32 cap;

	if ((uintptr_t)types % 4 || strs_refusal(strs, str_len, base))
		return -EINVAL;
	v->types = types;
	v->strs = strs;
	v->hdr.type_len = type_len;
	v->hdr.str_len = str_len;
	v->base = base;
	v->start_id = base ? b2b_btf_type_cnt(base) : 1;
	v->base_str_len = base ? b2b_btf_str_end(base) : 0;
	/* room for the most types type_len can hold (12 bytes the smallest):
	 * one allocation, of which only what is used gets touched */
	cap = type_len / sizeof(struct btf_type) + 1;
	v->offs = b2b_malloc((size_t)cap * sizeof(*v->offs));
	if (!v->offs)
		return -ENOMEM;
	for (__u32 off = 0, words; off < type_len; off += words * 4) {
		const struct btf_type *t = (const struct btf_type *)(types + off);

		words = type_len - off < sizeof(*t) ? 0 : b2b_type_words(t);
		/* b2b_btf_check_kinds() says which and why */
		if (!words || !b2b_kind(t) || (__u64)words * 4 > type_len - off || v->nr == cap)
			return -EINVAL;
		if (b2b_vlen(t) > B2B_LIBBPF_MAX_VLEN && !v->wide_id)
			v->wide_id = v->start_id + v->nr;
		v->offs[v->nr++] = off;
	}
	return 0;
}

int b2b_btf_open(struct b2b_btf *v, const void *data, size_t size, const struct b2b_btf *base)
{
	const char *d = data;
	struct b2b_btf_hdr h;
	int err;

	memset(v, 0, sizeof(*v));
	if (size < sizeof(h))
		return -EINVAL;
	memcpy(&h, data, sizeof(h));
	if (hdr_refusal(&h, size))
		return -EINVAL;
	v->hdr = h;
	err = index_parts(v, d + h.hdr_len + h.type_off, h.type_len, d + h.hdr_len + h.str_off,
			  h.str_len, base);
	if (err) {
		b2b_btf_free(v);
		return err;
	}
	v->data = data;
	v->size = size;
	return 0;
}

const char *b2b_btf_refusal(const void *data, size_t size, const struct b2b_btf *base)
{
	struct b2b_btf_hdr h;
	const char *why;

	if (size < sizeof(h) || (uintptr_t)data % 4)
		return "not the native form";
	memcpy(&h, data, sizeof(h));
	why = hdr_refusal(&h, size);
	if (!why)
		why = strs_refusal((const char *)data + h.hdr_len + h.str_off, h.str_len, base);
	return why ? why : "a type runs past the type section";
}

int b2b_btf_open_owned(struct b2b_btf *v, void *data, size_t size, const struct b2b_btf *base)
{
	int err = b2b_btf_open(v, data, size, base);

	if (err) {
		free(data);
		return err;
	}
	v->owned = data;
	return 0;
}

void b2b_btf_free(struct b2b_btf *v)
{
	free(v->offs);
	free(v->owned);
	b2b_elf_close(v->file);
	if (!v->lib_lent)
		btf__free(v->lib);
	if (v->owned_base) {
		b2b_btf_free(v->owned_base);
		free(v->owned_base);
	}
	memset(v, 0, sizeof(*v));
}

void b2b_btf_release_pages(const struct b2b_btf *v)
{
	if (v->file)
		b2b_elf_release(v->file, v->data, v->size);
}

__u32 b2b_btf_wide_id(const struct b2b_btf *v)
{
	for (; v; v = v->base)
		if (v->wide_id)
			return v->wide_id;
	return 0;
}

struct btf *b2b_btf_libbpf(const struct b2b_btf *v)
{
	struct b2b_btf *mut = (struct b2b_btf *)v;	/* a cache, as libbpf's own */
	struct btf *base = NULL;

	if (v->lib)
		return v->lib;
	/* libbpf would read 16 bits of it, and the types after it wrongly */
	if (b2b_btf_wide_id(v)) {
		errno = EOPNOTSUPP;
		return NULL;
	}
	if (v->base && !(base = b2b_btf_libbpf(v->base)))
		return NULL;
	errno = 0;
	mut->lib = b2b_fault_nomem() ? NULL : b2b_btf_new(v->data, v->size, base);
	if (!mut->lib && !errno)
		errno = ENOMEM;
	return v->lib;
}

/* End of the strings of libbpf's btf and its bases: btf__str_by_offset()
 * answers exactly [0, end) (libbpf says the length nowhere else without
 * laying the BTF out again). */
static __u32 libbpf_str_end(const struct btf *btf)
{
	__u64 lo = 0, hi = (__u64)UINT32_MAX + 1;
	int saved = errno;

	if (!btf__str_by_offset(btf, 0))
		hi = 0;
	while (hi && hi - lo > 1) {
		__u64 mid = lo + (hi - lo) / 2;

		if (btf__str_by_offset(btf, (__u32)mid))
			lo = mid;
		else
			hi = mid;
	}
	errno = saved;
	return (__u32)hi;
}

/*
 * Where libbpf keeps btf's own types and strings (in id order in one
 * buffer, the strings in another, whether it read them or made them
 * modifiable, always in this machine's byte order): *types (type_len
 * bytes, v's base's types excluded) and *strs (str_len bytes). The types'
 * extent runs to the end of the last one; the index's walk must land
 * there (b2b_btf_of_libbpf()).
 */
static int libbpf_parts(const struct b2b_btf *v, const struct btf *btf, const char **types,
			__u32 *type_len, const char **strs, __u32 *str_len)
{
	__u32 start = v->base ? b2b_btf_type_cnt(v->base) : 1, cnt = btf__type_cnt(btf);
	__u32 str_start = v->base ? b2b_btf_str_end(v->base) : 0, end = libbpf_str_end(btf);
	static const __u32 no_types;	/* where there are none: aligned */
	const struct btf_type *last;
	__u64 len = 0;

	if (cnt < start || end < str_start)
		return -EINVAL;
	*strs = end > str_start ? btf__str_by_offset(btf, str_start) : "";
	*str_len = end - str_start;
	*types = (const char *)&no_types;
	if (cnt > start) {
		*types = (const char *)btf__type_by_id(btf, start);
		last = btf__type_by_id(btf, cnt - 1);
		len = (__u64)((const char *)last - *types) + b2b_type_words(last) * 4;
		if ((const char *)last < *types || !b2b_type_words(last) || len > UINT32_MAX)
			return -EINVAL;
	}
	*type_len = (__u32)len;
	return 0;
}

int b2b_btf_reread_libbpf(const struct b2b_btf *v)
{
	struct b2b_btf *mut = (struct b2b_btf *)v;	/* the same BTF, moved */
	const char *types, *strs;
	__u32 type_len, str_len;
	int err;

	if (v->base && v->base->lib_lent) {
		err = b2b_btf_reread_libbpf(v->base);
		if (err)
			return err;
	}
	err = libbpf_parts(v, v->lib, &types, &type_len, &strs, &str_len);
	if (err)
		return err;
	/* the same types and strings (libbpf keeps their order and offsets) */
	if (type_len != v->hdr.type_len || str_len != v->hdr.str_len)
		return -EINVAL;
	mut->types = types;
	mut->strs = strs;
	return 0;
}

int b2b_btf_of_libbpf(struct b2b_btf *v, const struct btf *btf)
{
	const struct btf *lbase = btf__base_btf(btf);
	struct b2b_btf *base = NULL;
	const char *types, *strs;
	__u32 type_len, str_len;
	int err;

	memset(v, 0, sizeof(*v));
	if (lbase) {
		base = b2b_calloc(1, sizeof(*base));
		if (!base)
			return -ENOMEM;
		err = b2b_btf_of_libbpf(base, lbase);
		if (err) {
			free(base);
			return err;
		}
	}
	v->base = base;
	err = libbpf_parts(v, btf, &types, &type_len, &strs, &str_len);
	if (!err)
		err = index_parts(v, types, type_len, strs, str_len, base);
	/* every type libbpf has, one after the other */
	if (!err && b2b_btf_type_cnt(v) != btf__type_cnt(btf))
		err = -EINVAL;
	v->owned_base = base;
	if (err) {
		b2b_btf_free(v);
		return err;
	}
	v->hdr.magic = B2B_BTF_MAGIC;
	v->hdr.version = B2B_BTF_VERSION;
	v->hdr.hdr_len = B2B_BTF_HDR_LEN;
	v->hdr.str_off = type_len;
	/* read where libbpf keeps it: not in one piece (data NULL) */
	v->lib = (struct btf *)btf;
	v->lib_lent = true;
	return 0;
}
