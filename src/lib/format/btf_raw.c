// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* The post-passes' outputs, buffers and string tables. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "format/btf_raw.h"
#include "util/name_index.h"

void b2b_pass_out_free(struct b2b_pass_out *o)
{
	free(o->data);
	free(o->map);
	memset(o, 0, sizeof(*o));
}

char *b2b_raw_alloc(const struct b2b_btf *r, __u32 type_len, void **data, size_t *size)
{
	struct b2b_btf_hdr h = {
		.magic = B2B_BTF_MAGIC, .version = B2B_BTF_VERSION, .hdr_len = sizeof(h),
		.type_off = 0, .type_len = type_len, .str_off = type_len, .str_len = r->hdr.str_len,
	};
	size_t total = sizeof(h) + (size_t)type_len + h.str_len;
	char *p = b2b_malloc(total), *strs;

	if (!p)
		return NULL;
	memcpy(p, &h, sizeof(h));
	strs = p + sizeof(h) + type_len;
	memcpy(strs, r->strs, h.str_len);
	*data = p;
	*size = total;
	return p + sizeof(h);
}

int b2b_raw_build(const void *types, __u32 type_len, const void *strs, __u32 str_len,
		  void **data, size_t *size)
{
	struct b2b_btf_hdr h = {
		.magic = B2B_BTF_MAGIC, .version = B2B_BTF_VERSION, .hdr_len = sizeof(h),
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
		const char *str;
		size_t j;

		if (!s->slots[i])
			continue;
		str = s->buf + s->slots[i] - 1;
		j = b2b_hash_str(str, strlen(str)) & mask;
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
	h = b2b_hash_str(str, len - 1);
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
