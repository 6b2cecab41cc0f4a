// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* Raw BTF indexing, word classes and string tables for the post-passes. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "btf_check.h"
#include "btf_raw.h"

void *b2b_malloc(size_t size)
{
	return b2b_fault_nomem() ? NULL : malloc(size ? size : 1);
}

void *b2b_calloc(size_t n, size_t size)
{
	return b2b_fault_nomem() ? NULL : calloc(n ? n : 1, size ? size : 1);
}

void *b2b_realloc(void *p, size_t size)
{
	return b2b_fault_nomem() ? NULL : realloc(p, size ? size : 1);
}

int b2b_raw_parts_of(struct b2b_raw_parts *p, const void *data, size_t size)
{
	const char *d = data;
	struct btf_header *h = &p->hdr;

	memset(p, 0, sizeof(*p));
	if (size < sizeof(*h))
		return -EINVAL;
	memcpy(h, data, sizeof(*h));
	if (h->magic != BTF_MAGIC || h->hdr_len < sizeof(*h) || h->hdr_len > size ||
	    h->type_off % 4 || (__u64)h->type_off + h->type_len > size - h->hdr_len ||
	    (__u64)h->str_off + h->str_len > size - h->hdr_len)
		return -EINVAL;
	p->hdr_tail = d + sizeof(*h);
	p->types[0] = d + h->hdr_len + h->type_off;
	p->type_len[0] = h->type_len;
	p->strs[0] = d + h->hdr_len + h->str_off;
	p->str_len[0] = h->str_len;
	/* the layout the parts are emitted in */
	h->type_off = 0;
	h->str_off = h->type_len;
	return 0;
}

static int emit_part(b2b_sink_fn sink, void *ctx, const void *data, size_t len)
{
	return len ? sink(ctx, data, len) : 0;
}

int b2b_raw_parts_emit(const struct b2b_raw_parts *p, b2b_sink_fn sink, void *ctx)
{
	__u32 at = 0;
	int err;

	err = sink(ctx, &p->hdr, sizeof(p->hdr));
	if (!err)	/* a longer header's tail, as read */
		err = emit_part(sink, ctx, p->hdr_tail, p->hdr.hdr_len - sizeof(p->hdr));
	/* the first types as read, from one patched word to the next */
	for (size_t i = 0; !err && i < p->nr_patches; i++) {
		err = emit_part(sink, ctx, p->types[0] + at, p->patches[i].off - at);
		if (!err)
			err = sink(ctx, &p->patches[i].type, sizeof(p->patches[i].type));
		at = p->patches[i].off + sizeof(p->patches[i].type);
	}
	if (!err)
		err = emit_part(sink, ctx, p->types[0] + at, p->type_len[0] - at);
	if (!err)
		err = emit_part(sink, ctx, p->types[1], p->type_len[1]);
	for (int i = 0; i < 2 && !err; i++)
		err = emit_part(sink, ctx, p->strs[i], p->str_len[i]);
	return err;
}

int b2b_sink_memory(void *ctx, const void *data, size_t len)
{
	char **p = ctx;

	memcpy(*p, data, len);
	*p += len;
	return 0;
}

void b2b_raw_parts_copy(const struct b2b_raw_parts *p, void *buf)
{
	char *at = buf;

	b2b_raw_parts_emit(p, b2b_sink_memory, &at);	/* cannot fail */
}

int b2b_raw_parts_lay_out(const struct b2b_raw_parts *p, void **data, size_t *size)
{
	*data = b2b_malloc(b2b_raw_parts_size(p));
	if (!*data)
		return -ENOMEM;
	b2b_raw_parts_copy(p, *data);
	*size = b2b_raw_parts_size(p);
	return 0;
}

static bool strs_terminated(const char *strs, __u32 len)
{
	return !len || !strs[len - 1];
}

/*
 * offs[] for every type of both parts; *patched (malloc'd, NULL when there
 * are no patches) gets the indexes of the first part's types a patch falls
 * in, *patched_len their bytes.
 */
static int index_types(struct b2b_raw *r, const struct b2b_raw_parts *p, __u32 **patched,
		       size_t *nr_patched, __u64 *patched_len)
{
	/* room for the most types type_len can hold (12 bytes the smallest):
	 * one allocation, of which only what is used gets touched */
	__u32 cap = r->hdr.type_len / sizeof(struct btf_type) + 1;
	size_t k = 0;

	r->offs = b2b_malloc((size_t)cap * sizeof(*r->offs));
	*patched = p->nr_patches ? b2b_malloc(p->nr_patches * sizeof(**patched)) : NULL;
	if (!r->offs || (p->nr_patches && !*patched))
		return -ENOMEM;
	for (int part = 0; part < 2; part++) {
		const char *types = p->types[part];
		__u32 len = p->type_len[part], at = part ? p->type_len[0] : 0;

		for (__u32 off = 0, words; off < len; off += words * 4) {
			const struct btf_type *t = (const struct btf_type *)(types + off);

			if (len - off < sizeof(*t))
				return -EINVAL;
			words = b2b_type_words(t);
			if (!words || (__u64)words * 4 > len - off || r->nr == cap)
				return -EINVAL;
			if (!part && k < p->nr_patches && p->patches[k].off < off + words * 4) {
				(*patched)[(*nr_patched)++] = r->nr;
				*patched_len += words * 4;
				for (; k < p->nr_patches && p->patches[k].off < off + words * 4; k++)
					if (p->patches[k].off < off || p->patches[k].off % 4 ||
					    (k && p->patches[k].off <= p->patches[k - 1].off))
						return -EINVAL;
			}
			r->offs[r->nr++] = at + off;
		}
	}
	return k == p->nr_patches ? 0 : -EINVAL;
}

int b2b_raw_open_parts(struct b2b_raw *r, const struct b2b_raw_parts *p, const struct btf *base)
{
	__u64 patched_len = 0, own_len;
	size_t nr_patched = 0, k = 0;
	__u32 *patched = NULL, pos;
	int err;

	memset(r, 0, sizeof(*r));
	r->hdr = p->hdr;
	r->hdr.type_len = p->type_len[0] + p->type_len[1];
	r->hdr.str_len = p->str_len[0] + p->str_len[1];
	if ((__u64)p->type_len[0] + p->type_len[1] > UINT32_MAX ||
	    (__u64)p->str_len[0] + p->str_len[1] > UINT32_MAX ||
	    !strs_terminated(p->strs[0], p->str_len[0]) ||
	    !strs_terminated(p->strs[1], p->str_len[1]))
		return -EINVAL;
	r->types = p->types[0];
	r->types_len0 = p->type_len[0];
	r->strs[0] = p->strs[0];
	r->strs[1] = p->strs[1];
	r->str_len0 = p->str_len[0];
	r->base = base;
	r->start_id = base ? btf__type_cnt(base) : 1;
	r->base_str_len = base ? (__u32)b2b_btf_str_end(base) : 0;
	err = index_types(r, p, &patched, &nr_patched, &patched_len);
	own_len = p->type_len[1] + patched_len;
	if (!err && r->types_len0 + own_len > UINT32_MAX)
		err = -E2BIG;
	if (!err && own_len) {
		r->own = b2b_malloc(own_len);
		if (!r->own)
			err = -ENOMEM;
	}
	if (err) {
		free(patched);
		b2b_raw_free(r);
		return err;
	}
	if (p->type_len[1])
		memcpy(r->own, p->types[1], p->type_len[1]);
	/* a patched type is read from its copy, the patches applied */
	pos = p->type_len[1];
	for (size_t i = 0; i < nr_patched; i++) {
		__u32 off = r->offs[patched[i]];
		__u32 len = b2b_type_words((const struct btf_type *)(r->types + off)) * 4;

		memcpy(r->own + pos, r->types + off, len);
		for (; k < p->nr_patches && p->patches[k].off < off + len; k++)
			memcpy(r->own + pos + (p->patches[k].off - off), &p->patches[k].type,
			       sizeof(p->patches[k].type));
		r->offs[patched[i]] = r->types_len0 + pos;
		pos += len;
	}
	free(patched);
	return 0;
}

int b2b_raw_open(struct b2b_raw *r, const void *data, size_t size, const struct btf *base)
{
	struct b2b_raw_parts p;
	int err = b2b_raw_parts_of(&p, data, size);

	if (err) {
		memset(r, 0, sizeof(*r));
		return err;
	}
	return b2b_raw_open_parts(r, &p, base);
}

void b2b_raw_free(struct b2b_raw *r)
{
	free(r->offs);
	free(r->own);
	r->offs = NULL;
	r->own = NULL;
	r->nr = 0;
}

const char *b2b_raw_str(const struct b2b_raw *r, __u32 off)
{
	if (off < r->base_str_len)
		return btf__str_by_offset(r->base, off);
	off -= r->base_str_len;
	if (off < r->str_len0)
		return r->strs[0] + off;
	off -= r->str_len0;
	return off < r->hdr.str_len - r->str_len0 ? r->strs[1] + off : NULL;
}

const struct btf_type *b2b_raw_any_type(const struct b2b_raw *r, __u32 id)
{
	if (id < r->start_id)
		return r->base ? btf__type_by_id(r->base, id) : NULL;
	return id < b2b_raw_type_cnt(r) ? b2b_raw_type(r, id) : NULL;
}

const char *b2b_raw_name(const struct b2b_raw *r, const struct btf_type *t)
{
	const char *s = t ? b2b_raw_str(r, t->name_off) : NULL;

	return s ? s : "";
}

void b2b_pass_out_free(struct b2b_pass_out *o)
{
	free(o->data);
	free(o->map);
	memset(o, 0, sizeof(*o));
}

char *b2b_raw_alloc(const struct b2b_raw *r, __u32 type_len, void **data, size_t *size)
{
	struct btf_header h = {
		.magic = BTF_MAGIC, .version = BTF_VERSION, .hdr_len = sizeof(h),
		.type_off = 0, .type_len = type_len, .str_off = type_len, .str_len = r->hdr.str_len,
	};
	size_t total = sizeof(h) + (size_t)type_len + h.str_len;
	char *p = b2b_malloc(total), *strs;

	if (!p)
		return NULL;
	memcpy(p, &h, sizeof(h));
	strs = p + sizeof(h) + type_len;
	if (r->str_len0)
		memcpy(strs, r->strs[0], r->str_len0);
	if (h.str_len > r->str_len0)
		memcpy(strs + r->str_len0, r->strs[1], h.str_len - r->str_len0);
	*data = p;
	*size = total;
	return p + sizeof(h);
}

int b2b_raw_build(const void *types, __u32 type_len, const void *strs, __u32 str_len,
		  void **data, size_t *size)
{
	struct btf_header h = {
		.magic = BTF_MAGIC, .version = BTF_VERSION, .hdr_len = sizeof(h),
		.type_off = 0, .type_len = type_len, .str_off = type_len, .str_len = str_len,
	};
	size_t total = sizeof(h) + (size_t)type_len + str_len;
	char *p = b2b_malloc(total);

	if (!p)
		return -ENOMEM;
	memcpy(p, &h, sizeof(h));
	if (type_len)
		memcpy(p + sizeof(h), types, type_len);
	if (str_len)
		memcpy(p + sizeof(h) + type_len, strs, str_len);
	*data = p;
	*size = total;
	return 0;
}

static __u32 str_hash(const char *s)
{
	__u32 h = 2166136261u;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 16777619u;
	return h;
}

int b2b_strtab_init(struct b2b_strtab *s, const struct b2b_strtab *base)
{
	memset(s, 0, sizeof(*s));
	s->base = base;
	s->cap = 4096;
	s->buf = b2b_malloc(s->cap);
	s->mask = 1023;
	s->slots = b2b_calloc(s->mask + 1, sizeof(*s->slots));
	if (!s->buf || !s->slots) {
		b2b_strtab_free(s);
		return -ENOMEM;
	}
	if (!base)
		s->buf[s->len++] = 0;	/* "" at offset 0 */
	return 0;
}

void b2b_strtab_free(struct b2b_strtab *s)
{
	free(s->buf);
	free(s->slots);
	memset(s, 0, sizeof(*s));
}

static long strtab_find(const struct b2b_strtab *s, const char *str, __u32 h, size_t *slot)
{
	size_t i = h & s->mask;

	for (; s->slots[i]; i = (i + 1) & s->mask)
		if (!strcmp(s->buf + s->slots[i] - 1, str))
			return s->slots[i] - 1;
	if (slot)
		*slot = i;
	return -1;
}

static int strtab_rehash(struct b2b_strtab *s)
{
	size_t mask = s->mask * 2 + 1;
	__u32 *slots = b2b_calloc(mask + 1, sizeof(*slots));

	if (!slots)
		return -ENOMEM;
	for (size_t i = 0; i <= s->mask; i++) {
		size_t j;

		if (!s->slots[i])
			continue;
		j = str_hash(s->buf + s->slots[i] - 1) & mask;
		while (slots[j])
			j = (j + 1) & mask;
		slots[j] = s->slots[i];
	}
	free(s->slots);
	s->slots = slots;
	s->mask = mask;
	return 0;
}

long b2b_strtab_add(struct b2b_strtab *s, const char *str)
{
	size_t len = strlen(str) + 1, slot;
	__u32 h;
	long off;

	if (!*str)
		return 0;
	h = str_hash(str);
	if (s->base) {
		off = strtab_find(s->base, str, h, NULL);
		if (off >= 0)
			return off;
	}
	off = strtab_find(s, str, h, &slot);
	if (off >= 0)
		return off + (s->base ? s->base->len : 0);
	if (s->len + len > UINT32_MAX / 2)
		return -E2BIG;
	if ((s->nr + 1) * 2 > s->mask) {
		if (strtab_rehash(s))
			return -ENOMEM;
		strtab_find(s, str, h, &slot);
	}
	if (s->len + len > s->cap) {
		size_t cap = s->cap * 2;
		char *p;

		while (cap < s->len + len)
			cap *= 2;
		p = b2b_realloc(s->buf, cap);
		if (!p)
			return -ENOMEM;
		s->buf = p;
		s->cap = cap;
	}
	memcpy(s->buf + s->len, str, len);
	s->slots[slot] = s->len + 1;
	s->nr++;
	off = s->len;
	s->len += len;
	return off + (s->base ? s->base->len : 0);
}
