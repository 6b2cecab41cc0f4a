// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* The handle: closing it and every accessor of the public API. */
#include <bpf/btf.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "api/handle.h"
#include "util/libbpf_compat.h"

/* After the result: its BTF may be read in place in the file. */
void b2b_object_free(struct b2b_object *obj)
{
	b2b_btf_ids_free(&obj->ids);
	b2b_elf_close(obj->elf);
	free(obj->path);
	free(obj->btf_path);
}

void b2b_result_free(struct b2b_result *res)
{
	/* the BTF before its base; a base the caller lent (opts.base_btf)
	 * stays theirs */
	b2b_btf_free(&res->btf);
	b2b_btf_free(&res->base);
	b2b_btf_format_free(&res->fmt);
	b2b_bytes_forget(&res->btf_out);
	b2b_bytes_forget(&res->base_out);
}

void btf2btf__close(struct btf2btf *b)
{
	if (!b)
		return;
	b2b_kfuncs_free(&b->kfuncs);
	b2b_plan_free(&b->plan);
	b2b_tag_index_free(&b->tags);
	b2b_name_index_free(&b->base_names);
	free(b->set8_view);
	b2b_result_free(&b->res);
	b2b_object_free(&b->obj);
	free(b);
}

bool btf2btf__changed(const struct btf2btf *b)
{
	return b->res.changed;
}

static void remap_id(__u32 *id, const __u32 *map, __u32 nr)
{
	if (*id && *id < nr)
		*id = map[*id];
}

/*
 * The one place that knows which of the handle's tables name types: the
 * relocation onto a base at open (only the set8 entries exist then) and the
 * transform's passes (all of them) renumber through it. Resolved set8
 * entries hold ids of the BTF as written (the kernel maps them through its
 * relocation too); the passes never renumber under one (post.c refuses).
 */
void b2b_handle_remap(struct btf2btf *b, const __u32 *map, __u32 nr)
{
	for (size_t i = 0; i < b->obj.ids.nr_entries; i++) {
		struct b2b_set8_entry *ent = &b->obj.ids.entries[i];

		if (b->obj.ids.sets[ent->set].resolved)
			remap_id(&ent->id, map, nr);
	}
	for (size_t i = 0; i < b->kfuncs.nr; i++) {
		struct btf2btf_kfunc *k = &b->kfuncs.items[i];

		remap_id(&k->btf_id, map, nr);
		remap_id(&k->orig_proto_id, map, nr);
		remap_id(&k->impl_id, map, nr);
	}
	for (size_t i = 0; i < b->plan.nr; i++)
		remap_id(&b->plan.problems[i].id, map, nr);
	for (size_t i = 0; b->kfuncs.entry_func && i < b->obj.ids.nr_entries; i++)
		remap_id(&b->kfuncs.entry_func[i], map, nr);
	for (size_t i = 0; i < b->base_names.nr; i++) {
		remap_id(&b->base_names.want[i].func_id, map, nr);
		remap_id(&b->base_names.want[i].any_id, map, nr);
	}
	for (size_t i = 0; b->set8_view && i < b->obj.ids.nr_entries; i++)
		remap_id(&b->set8_view[i].id, map, nr);
}

char *b2b_base_path_of(const char *path)
{
	size_t len = strlen(path);
	char *base_path = b2b_malloc(len + sizeof(".base"));

	if (base_path) {
		memcpy(base_path, path, len);
		memcpy(base_path + len, ".base", sizeof(".base"));
	}
	return base_path;
}

void b2b_bytes_forget(struct b2b_bytes *out)
{
	free(out->data);
	*out = (struct b2b_bytes){ 0 };
}

/* Raw bytes of btf laid out as the BTF read (b->res.fmt), from native ones:
 * native when that is the native 24-byte form (kept with what they are of),
 * else *out (kept until that BTF is replaced). */
static int raw_of(struct btf2btf *b, const void *native, size_t native_size,
		  struct b2b_bytes *out, const void **data, size_t *size)
{
	int err;

	if (out->data) {
		*data = out->data;
		*size = out->size;
		return 0;
	}
	if (!native)
		return b2b_errno(&b->log, -ENOMEM, "cannot serialise BTF: out of memory");
	if (b2b_btf_format_is_plain(&b->res.fmt)) {
		*data = native;
		*size = native_size;
		return 0;
	}
	err = b2b_btf_write(native, native_size, &b->res.fmt, &out->data, &out->size);
	if (err)
		return b2b_errno(&b->log, err, "cannot serialise BTF: %s", strerror(-err));
	*data = out->data;
	*size = out->size;
	return 0;
}

int btf2btf__raw_btf(struct btf2btf *b, const void **data, size_t *size)
{
	return raw_of(b, b->res.btf.data, b->res.btf.size, &b->res.btf_out, data, size);
}

int btf2btf__raw_base_btf(struct btf2btf *b, const void **data, size_t *size)
{
	if (!b->res.distilled)
		return -ENOENT;
	return raw_of(b, b->res.base.data, b->res.base.size, &b->res.base_out, data, size);
}

const struct btf *btf2btf__btf(const struct btf2btf *b)
{
	/* libbpf's view, made on first use (a cache, as the kfunc and set8
	 * views are: making it does not change what b holds); libbpf copies
	 * the bytes, whose writers' form stays */
	const struct btf *btf = b2b_btf_libbpf(&b->res.btf);
	__u32 wide = btf ? 0 : b2b_btf_wide_id(&b->res.btf);

	if (wide) {
		b2b_errno(&b->log, -EOPNOTSUPP,
			  "type [%u] has vlen %u, more than the %u libbpf holds: libbpf's view of this BTF cannot be made",
			  wide, b2b_vlen(b2b_btf_type_by_id(&b->res.btf, wide)), B2B_LIBBPF_MAX_VLEN);
		errno = EOPNOTSUPP;
	}
	return btf;
}

const struct btf *btf2btf__base_btf(const struct btf2btf *b)
{
	return b2b_handle_base(b) ? b2b_btf_libbpf(&b->res.base) : NULL;
}

const char *btf2btf__path(const struct btf2btf *b)
{
	return b->obj.path;
}

const struct btf2btf_stats *btf2btf__stats(const struct btf2btf *b)
{
	return &b->stats;
}

size_t btf2btf__kfunc_cnt(const struct btf2btf *b)
{
	return b->kfuncs.nr;
}

/* The library's own table: valid until close; after a transform entry idx
 * may be another kfunc (the table follows the result's ids). */
const struct btf2btf_kfunc *btf2btf__kfunc(const struct btf2btf *b, size_t idx)
{
	if (!b || idx >= b->kfuncs.nr) {
		errno = EINVAL;
		return NULL;
	}
	return &b->kfuncs.items[idx];
}

const struct btf2btf_object_info *btf2btf__object_info(const struct btf2btf *b)
{
	return &b->obj.info;
}

size_t btf2btf__set8_entry_cnt(const struct btf2btf *b)
{
	return b->obj.ids.nr_entries;
}

/* The public view of every set8 pair, made on first use (names looked up
 * once) and kept with the handle, so callers get a pointer that stays valid
 * and a struct that can grow. */
static int make_set8_view(struct btf2btf *b)
{
	struct btf2btf_set8_entry *view;
	size_t i;

	view = b2b_calloc(b->obj.ids.nr_entries, sizeof(*view));
	if (!view)
		return -ENOMEM;
	for (i = 0; i < b->obj.ids.nr_entries; i++) {
		const struct b2b_set8_entry *ent = &b->obj.ids.entries[i];
		const struct b2b_set8 *set = &b->obj.ids.sets[ent->set];
		struct btf2btf_set8_entry *out = &view[i];

		out->set = set->name;
		out->set_flags = set->flags;
		out->name = ent->name;
		out->flags = ent->flags;
		out->id = ent->id;
		if (ent->name) {
			/* the FUNC the name lookup found when the handle opened */
			out->id = b->kfuncs.entry_func[i];
			if (!out->id && b2b_handle_base(b))
				out->id = b2b_name_index_find(&b->base_names, ent->name,
							      BTF_KIND_FUNC);
		}
	}
	b->set8_view = view;
	return 0;
}

const struct btf2btf_set8_entry *btf2btf__set8_entry(const struct btf2btf *b, size_t idx)
{
	int err;

	if (!b || idx >= b->obj.ids.nr_entries) {
		errno = EINVAL;
		return NULL;
	}
	/* a cache: making it does not change what b holds */
	err = b->set8_view ? 0 : make_set8_view((struct btf2btf *)b);
	if (err)
		errno = -err;
	return err ? NULL : &b->set8_view[idx];
}

size_t btf2btf__problem_cnt(const struct btf2btf *b)
{
	return b->plan.nr;
}

const struct btf2btf_problem *btf2btf__problem(const struct btf2btf *b, size_t idx)
{
	return idx < b->plan.nr ? &b->plan.problems[idx] : NULL;
}

unsigned int btf2btf__features(const struct btf2btf *b)
{
	return b->plan.features;
}

int btf2btf__implicit_arg(const struct btf *btf, uint32_t proto_id)
{
	const struct btf_type *t;
	struct b2b_btf v;
	int idx;

	/* read where libbpf keeps its types and strings */
	if (!btf || b2b_btf_of_libbpf(&v, btf))
		return -EINVAL;
	t = b2b_btf_type_by_id(&v, proto_id);
	idx = t && b2b_is_func_proto(t) ? b2b_first_implicit_arg(&v, proto_id) : -EINVAL;
	b2b_btf_free(&v);
	return idx == -EINVAL ? idx : idx < 0 ? -ENOENT : idx;
}

const char *btf2btf__kf_flag_name(unsigned int bit)
{
	return b2b_kf_flag_name(bit);
}

const char *btf2btf__version(void)
{
	return BTF2BTF_VERSION;
}
