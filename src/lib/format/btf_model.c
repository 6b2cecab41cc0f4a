// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* The library's model of a BTF (btf_model.h): indexing, lookups, libbpf's view. */
#include <bpf/btf.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "btf_model.h"
#include "elf_file.h"
#include "libbpf_compat.h"

int b2b_btf_open(struct b2b_btf *v, const void *data, size_t size, const struct b2b_btf *base)
{
	const char *d = data;
	struct b2b_btf_hdr *h = &v->hdr;
	__u32 cap;

	memset(v, 0, sizeof(*v));
	if (size < sizeof(*h) || (uintptr_t)d % 4)
		return -EINVAL;
	memcpy(h, data, sizeof(*h));
	if (h->magic != B2B_BTF_MAGIC || h->hdr_len != B2B_BTF_HDR_LEN ||
	    h->type_off % 4 || (__u64)h->type_off + h->type_len > size - h->hdr_len ||
	    (__u64)h->str_off + h->str_len > size - h->hdr_len)
		return -EINVAL;
	v->types = d + h->hdr_len + h->type_off;
	v->strs = d + h->hdr_len + h->str_off;
	/* libbpf's reading of the strings: NUL-terminated, and "" at offset 0
	 * unless split (a split BTF may have none of its own) */
	if (h->str_len ? v->strs[h->str_len - 1] || (!base && v->strs[0]) : !base)
		return -EINVAL;
	v->data = data;
	v->size = size;
	v->base = base;
	v->start_id = base ? b2b_btf_type_cnt(base) : 1;
	v->base_str_len = base ? b2b_btf_str_end(base) : 0;
	/* room for the most types type_len can hold (12 bytes the smallest):
	 * one allocation, of which only what is used gets touched */
	cap = h->type_len / sizeof(struct btf_type) + 1;
	v->offs = b2b_malloc((size_t)cap * sizeof(*v->offs));
	if (!v->offs) {
		memset(v, 0, sizeof(*v));
		return -ENOMEM;
	}
	for (__u32 off = 0, words; off < h->type_len; off += words * 4) {
		const struct btf_type *t = (const struct btf_type *)(v->types + off);

		words = h->type_len - off < sizeof(*t) ? 0 : b2b_type_words(t);
		/* b2b_btf_check_kinds() says which and why */
		if (!words || !b2b_kind(t) || b2b_vlen(t) > B2B_LIBBPF_MAX_VLEN ||
		    (__u64)words * 4 > h->type_len - off || v->nr == cap) {
			b2b_btf_free(v);
			return -EINVAL;
		}
		v->offs[v->nr++] = off;
	}
	return 0;
}

const char *b2b_btf_refusal(const void *data, size_t size, const struct b2b_btf *base)
{
	struct b2b_btf_hdr h;
	const char *strs;

	if (size < sizeof(h) || (uintptr_t)data % 4)
		return "not the native form";
	memcpy(&h, data, sizeof(h));
	strs = (const char *)data + h.hdr_len + h.str_off;
	if (h.magic != B2B_BTF_MAGIC || h.hdr_len != B2B_BTF_HDR_LEN || h.type_off % 4 ||
	    (__u64)h.type_off + h.type_len > size - h.hdr_len ||
	    (__u64)h.str_off + h.str_len > size - h.hdr_len)
		return "not the native form";
	if (!h.str_len && !base)
		return "it has no strings";
	if (h.str_len && strs[h.str_len - 1])
		return "its last string is not NUL-terminated";
	if (h.str_len && !base && strs[0])
		return "its strings do not start with \"\" (split BTF, read without its base?)";
	return "a type runs past the type section";
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

int b2b_btf_own(struct b2b_btf *v)
{
	void *copy;
	ptrdiff_t types, strs;

	if (v->owned)
		return 0;
	copy = b2b_malloc(v->size);
	if (!copy)
		return -ENOMEM;
	memcpy(copy, v->data, v->size);
	types = v->types - (const char *)v->data;
	strs = v->strs - (const char *)v->data;
	b2b_elf_close(v->file);
	v->file = NULL;
	v->owned = copy;
	v->data = copy;
	v->types = (const char *)copy + types;
	v->strs = (const char *)copy + strs;
	return 0;
}

void b2b_btf_release_pages(const struct b2b_btf *v)
{
	if (v->file)
		b2b_elf_release(v->file, v->data, v->size);
}

struct btf *b2b_btf_libbpf(const struct b2b_btf *v)
{
	struct b2b_btf *mut = (struct b2b_btf *)v;	/* a cache, as libbpf's own */
	struct btf *base = NULL;

	if (v->lib)
		return v->lib;
	if (v->base && !(base = b2b_btf_libbpf(v->base)))
		return NULL;
	errno = 0;
	mut->lib = b2b_fault_nomem() ? NULL : b2b_btf_new(v->data, v->size, base);
	if (!mut->lib && !errno)
		errno = ENOMEM;
	return v->lib;
}

int b2b_btf_of_libbpf(struct b2b_btf *v, const struct btf *btf)
{
	const struct btf *lbase = btf__base_btf(btf);
	struct b2b_btf *base = NULL;
	const void *raw;
	__u32 size = 0;
	int err;

	memset(v, 0, sizeof(*v));
	/* native: libbpf gives raw bytes in its own byte order */
	raw = btf__raw_data(btf, &size);
	if (!raw)
		return -ENOMEM;
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
	err = b2b_btf_open(v, raw, size, base);
	if (err) {
		if (base)
			b2b_btf_free(base);
		free(base);
		return err;
	}
	v->owned_base = base;
	v->lib = (struct btf *)btf;
	v->lib_lent = true;
	return 0;
}
