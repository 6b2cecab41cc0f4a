// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Stage 3 of the pipeline (open -> plan -> edit -> post-passes -> write): the edit.
 *
 * The plan carried out (the plan decides, this file only does), kfunc by
 * kfunc (struct b2b_edit in btf_edit.h), as append-only BTF edits (struct
 * b2b_ext): the new types are appended to a table of their own (struct
 * b2b_new_types, below), checked, then laid out after the
 * original bytes (b2b_ext_lay_out()).
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "format/btf_format.h"
#include "btf2btf.h"
#include "input/btf_check.h"
#include "edit/btf_edit.h"
#include "util/name_index.h"
#include "plan/plan.h"

/* ---- the new types, held apart until laid out ---- */

int b2b_new_types_init(struct b2b_new_types *nt)
{
	memset(nt, 0, sizeof(*nt));
	return b2b_strtab_init(&nt->strs, NULL);
}

void b2b_new_types_free(struct b2b_new_types *nt)
{
	free(nt->types);
	free(nt->offs);
	b2b_strtab_free(&nt->strs);
	memset(nt, 0, sizeof(*nt));
}

long b2b_btf_add_str(struct b2b_new_types *nt, const char *str)
{
	return str ? b2b_strtab_add(&nt->strs, str) : 0;
}

int b2b_btf_add_type(struct b2b_new_types *nt, const char *name, __u32 kind, __u32 vlen,
		     bool kflag, __u32 type)
{
	__u32 info = (kflag ? 1U << 31 : 0) | kind << 24 | vlen;
	size_t size = (size_t)b2b_btf_type_words(info) * 4;
	struct btf_type *t;
	long name_off;

	if (!size || b2b_info_kind(info) != kind || b2b_info_vlen(info) != vlen)
		return -EINVAL;
	if (nt->len + size > UINT32_MAX)
		return -E2BIG;
	/* every addition is an allocation point of the fault-injection tests */
	if (b2b_fault_nomem() ||
	    b2b_grow((void **)&nt->types, &nt->cap, nt->len + size, 1) ||
	    b2b_grow((void **)&nt->offs, &nt->cap_offs, nt->nr + 1, sizeof(*nt->offs)))
		return -ENOMEM;
	name_off = b2b_btf_add_str(nt, name);
	if (name_off < 0)
		return name_off;
	t = (struct btf_type *)(nt->types + nt->len);
	memset(t, 0, size);
	t->name_off = name_off;
	t->info = info;
	t->type = type;
	nt->offs[nt->nr++] = nt->len;
	nt->len += size;
	return nt->nr;
}

/* ---- append-only edits (struct b2b_ext) ---- */

int b2b_ext_init(struct b2b_ext *x, const struct b2b_btf *orig)
{
	const struct b2b_btf *base = b2b_btf_base(orig);

	memset(x, 0, sizeof(*x));
	x->orig = orig;
	x->first_id = b2b_btf_type_cnt(orig);
	x->start = base ? b2b_btf_type_cnt(base) : 1;
	return b2b_new_types_init(&x->add);
}

void b2b_ext_free(struct b2b_ext *x)
{
	b2b_new_types_free(&x->add);
	free(x->retype);
	memset(x, 0, sizeof(*x));
}

/* A type added, numbered n in x->add, by its id in the result (ids in
 * and out of the ext_add_*() are the result's). */
static int ext_id(const struct b2b_ext *x, int n)
{
	return n < 0 ? n : (int)(x->first_id + n - 1);
}

/* Every addition: appended to x->add, its id in the result returned. */
static int ext_add(struct b2b_ext *x, const char *name, __u32 kind, __u32 vlen, bool kflag,
		   __u32 type)
{
	return ext_id(x, b2b_btf_add_type(&x->add, name, kind, vlen, kflag, type));
}

static int ext_add_func(struct b2b_ext *x, const char *name, int linkage, __u32 proto)
{
	return ext_add(x, name, BTF_KIND_FUNC, linkage, false, proto);
}

/* kflag: an attribute tag (kind_flag 1) */
static int ext_add_decl_tag(struct b2b_ext *x, const char *value, __u32 target, int component_idx,
			    bool kflag)
{
	int n = b2b_btf_add_type(&x->add, value, BTF_KIND_DECL_TAG, 0, kflag, target);

	if (n > 0)
		b2b_decl_tag(b2b_new_type(&x->add, n))->component_idx = component_idx;
	return ext_id(x, n);
}

static int ext_add_ptr(struct b2b_ext *x, __u32 type)
{
	return ext_add(x, NULL, BTF_KIND_PTR, 0, false, type);
}

/* A TYPE_TAG; kflag: an attribute (kind_flag 1, "address_space(1)"). */
static int ext_add_type_tag(struct b2b_ext *x, const char *value, __u32 type, bool kflag)
{
	return ext_add(x, value, BTF_KIND_TYPE_TAG, 0, kflag, type);
}

/* A new FUNC_PROTO: orig's proto_id with its first nr_params parameters,
 * returning type ret; the parameters' names added in their order, as
 * btf__add_func_param() adds them. */
static int ext_add_proto(struct b2b_ext *x, __u32 proto_id, __u16 nr_params, __u32 ret)
{
	const struct btf_param *p = b2b_params(b2b_btf_type_by_id(x->orig, proto_id));
	int n = b2b_btf_add_type(&x->add, NULL, BTF_KIND_FUNC_PROTO, nr_params, false, ret);

	for (__u16 i = 0; n > 0 && i < nr_params; i++) {
		/* orig is never modified: its names stay put while ext grows */
		const char *name = b2b_btf_str(x->orig, p[i].name_off);
		long off = name ? b2b_btf_add_str(&x->add, name) : -EINVAL;
		struct btf_param *np = b2b_params(b2b_new_type(&x->add, n));

		if (off < 0)
			return off;
		np[i].name_off = off;
		np[i].type = p[i].type;
	}
	return ext_id(x, n);
}

/* The same, returning what proto_id returns. */
static int ext_add_proto_prefix(struct b2b_ext *x, __u32 proto_id, __u16 nr_params)
{
	return ext_add_proto(x, proto_id, nr_params, b2b_btf_type_by_id(x->orig, proto_id)->type);
}

/* Parameter idx of a new FUNC_PROTO now has type type. */
static int ext_set_param_type(struct b2b_ext *x, __u32 proto, __u16 idx, __u32 type)
{
	struct btf_type *t = proto < x->first_id ? NULL :
			     b2b_new_type(&x->add, proto - x->first_id + 1);

	if (!t || !b2b_is_func_proto(t) || idx >= b2b_vlen(t))
		return -EINVAL;
	b2b_params(t)[idx].type = type;
	return 0;
}

int b2b_ext_retype(struct b2b_ext *x, __u32 id, __u32 type)
{
	if (id < x->start || id >= x->first_id)
		return -EINVAL;
	if (b2b_grow((void **)&x->retype, &x->cap_retype, x->nr_retype + 1, sizeof(*x->retype)))
		return -ENOMEM;
	x->retype[x->nr_retype].id = id;
	x->retype[x->nr_retype++].type = type;
	return 0;
}

/* A type of the result by id: orig's (and its base's), or a new one; NULL past the end. */
static const struct btf_type *result_type(const struct b2b_ext *x, __u32 id)
{
	if (id < x->first_id)
		return b2b_btf_type_by_id(x->orig, id);
	return b2b_new_type(&x->add, id - x->first_id + 1);
}

/* ->type of the result's type id: repointed, new or as read. */
static __u32 result_ref(const struct b2b_ext *x, __u32 id)
{
	for (size_t i = x->nr_retype; i-- > 0;)
		if (x->retype[i].id == id)
			return x->retype[i].type;
	return result_type(x, id)->type;
}

/* The DECL_TAG tag (of the result) on target, component idx. */
static int check_tag(const struct b2b_ext *x, __u32 tag, __u32 target, int idx, const char *what,
		     const struct b2b_log *log)
{
	const struct btf_type *t = target ? result_type(x, target) : NULL, *proto;

	if (!t)
		return b2b_errno(log, -EINVAL, "%s: DECL_TAG [%u] tags type %u, out of range",
				 what, tag, target);
	if (idx < 0)
		return 0;
	proto = b2b_is_func(t) ? result_type(x, result_ref(x, target)) : NULL;
	if (!proto || !b2b_is_func_proto(proto) || idx >= (int)b2b_vlen(proto))
		return b2b_errno(log, -EINVAL, "%s: DECL_TAG [%u] component_idx %d is not a parameter of [%u]",
				 what, tag, idx, target);
	return 0;
}

static int check_func(const struct b2b_ext *x, __u32 func, __u32 proto_id, const char *what,
		      const struct b2b_log *log)
{
	const struct btf_type *p = result_type(x, proto_id);

	if (!p || !b2b_is_func_proto(p))
		return b2b_errno(log, -EINVAL, "%s: FUNC [%u] points to type %u, which is not a FUNC_PROTO",
				 what, func, proto_id);
	return 0;
}

/*
 * What the transform added or repointed, in the result's ids. The types
 * read were checked at open, the new ones are checked here before any byte
 * of the result is laid out: the references they make are what the
 * transform computed, so this is where its mistakes would show.
 */
static int ext_check(const struct b2b_ext *x, const char *what, const struct b2b_log *log)
{
	int err = 0;

	for (__u32 n = 1; n <= x->add.nr && !err; n++) {
		const struct btf_type *t = b2b_new_type(&x->add, n);
		const struct btf_param *p = b2b_params(t);
		__u32 id = x->first_id + n - 1;

		switch (b2b_kind(t)) {
		case BTF_KIND_FUNC:
			err = check_func(x, id, t->type, what, log);
			break;
		case BTF_KIND_FUNC_PROTO:
			if (!result_type(x, t->type))
				err = b2b_errno(log, -EINVAL, "%s: FUNC_PROTO [%u] returns type %u, out of range",
						what, id, t->type);
			for (__u32 i = 0; i < b2b_vlen(t) && !err; i++)
				if (!result_type(x, p[i].type))
					err = b2b_errno(log, -EINVAL, "%s: FUNC_PROTO [%u] parameter %u has type %u, out of range",
							what, id, i, p[i].type);
			break;
		case BTF_KIND_DECL_TAG:
			err = check_tag(x, id, t->type, b2b_decl_tag(t)->component_idx, what, log);
			break;
		case BTF_KIND_PTR:
		case BTF_KIND_TYPE_TAG:
			if (!result_type(x, t->type))
				err = b2b_errno(log, -EINVAL, "%s: new type [%u] refers to type %u, out of range",
						what, id, t->type);
			break;
		default:
			err = b2b_errno(log, -EINVAL, "%s: new type [%u] of kind %u", what, id, b2b_kind(t));
		}
	}
	for (size_t i = 0; i < x->nr_retype && !err; i++) {
		const struct btf_type *t = result_type(x, x->retype[i].id);

		if (b2b_is_func(t))
			err = check_func(x, x->retype[i].id, x->retype[i].type, what, log);
		else if (b2b_is_decl_tag(t))
			err = check_tag(x, x->retype[i].id, x->retype[i].type,
					b2b_decl_tag(t)->component_idx, what, log);
		else
			err = b2b_errno(log, -EINVAL, "%s: type [%u] of kind %u repointed", what,
					x->retype[i].id, b2b_kind(t));
	}
	return err;
}

/*
 * The new strings (x->add's, unique there), numbered in their order by the
 * name index, and where each goes in the result: an equal string's offset
 * in the base or orig, else after orig's strings, in that order (as
 * btf__add_str() would: a base string first, then the split's own, the
 * first occurrence).
 */
struct new_strs {
	struct b2b_name_index idx;
	__u32 *ext_off;		/* [number - 1]: offset in x->add, ascending */
	__u32 *final;		/* [number - 1]: offset in the result, UINT32_MAX unplaced */
	size_t nr;
	__u64 len;		/* the bytes of the strings appended */
};

static void new_strs_free(struct new_strs *ns)
{
	b2b_name_index_free(&ns->idx);
	free(ns->ext_off);
	free(ns->final);
}

/* The first occurrence of every new string in strs[0, len), offsets from off0. */
static void find_strs(struct new_strs *ns, const char *strs, __u64 len, __u64 off0)
{
	for (__u64 o = 0; o < len;) {
		size_t l = strnlen(strs + o, len - o);
		int n = l && b2b_name_index_may_start(&ns->idx, strs[o]) ?
			b2b_name_index_number(&ns->idx, strs + o, l) : 0;

		if (n > 0 && ns->final[n - 1] == UINT32_MAX)
			ns->final[n - 1] = (__u32)(off0 + o);
		o += l + 1;
	}
}

/* find_strs() over the strings of base and its bases, the lowest first */
static void find_base_strs(struct new_strs *ns, const struct b2b_btf *base)
{
	if (!base)
		return;
	find_base_strs(ns, base->base);
	find_strs(ns, base->strs, base->hdr.str_len, base->base_str_len);
}

static int place_strings(struct new_strs *ns, const struct b2b_ext *x, const char *ostrs,
			 __u32 olen, const char *estrs, __u32 elen, __u64 base_end)
{
	const struct b2b_btf *base = b2b_btf_base(x->orig);
	__u64 end = base_end + olen;

	for (__u32 o = 1; o < elen; o += strlen(estrs + o) + 1)
		ns->nr++;
	ns->ext_off = b2b_malloc(ns->nr * sizeof(*ns->ext_off));
	ns->final = b2b_malloc(ns->nr * sizeof(*ns->final));
	if (!ns->ext_off || !ns->final || b2b_name_index_reserve(&ns->idx, ns->nr))
		return -ENOMEM;
	for (__u32 o = 1, i = 0; o < elen; o += strlen(estrs + o) + 1, i++) {
		int n = b2b_name_index_want(&ns->idx, estrs + o, true);

		if (n < 0)
			return n;
		if (n != (int)i + 1)
			return -EINVAL;	/* x->add's strings are unique and non-empty */
		ns->ext_off[i] = o;
		ns->final[i] = UINT32_MAX;
	}
	find_base_strs(ns, base);
	find_strs(ns, ostrs, olen, base_end);
	for (size_t i = 0; i < ns->nr; i++) {
		if (ns->final[i] != UINT32_MAX)
			continue;
		ns->final[i] = (__u32)(end + ns->len);
		ns->len += ns->idx.want[i].len + 1;
		if (end + ns->len > UINT32_MAX)
			return -E2BIG;
	}
	return 0;
}

static __u32 map_str(const struct new_strs *ns, __u32 ext_off)
{
	size_t lo;

	if (!ext_off)
		return 0;
	lo = b2b_lower_bound_u32(ns->ext_off, ns->nr, ext_off);
	return lo < ns->nr && ns->ext_off[lo] == ext_off ? ns->final[lo] : UINT32_MAX;
}

/* The new types copied to out, their name offsets mapped to the result's. */
static int new_types(const struct new_strs *ns, const struct b2b_new_types *add, char *out)
{
	if (add->len)	/* types is NULL until one is added */
		memcpy(out, add->types, add->len);
	for (size_t n = 0; n < add->nr; n++) {
		__u32 *w = (__u32 *)(out + add->offs[n]);
		struct b2b_fields it = b2b_fields((const struct btf_type *)w, B2B_W_STR);

		for (__u32 i; b2b_fields_next(&it, &i); ) {
			w[i] = map_str(ns, w[i]);
			if (w[i] == UINT32_MAX)
				return -EINVAL;
		}
	}
	return 0;
}

int b2b_ext_lay_out(const struct b2b_ext *x, void **data, size_t *size)
{
	const struct b2b_btf *base = b2b_btf_base(x->orig);
	const char *oraw = x->orig->data, *otypes, *ostrs;
	struct new_strs ns = { 0 };
	struct b2b_btf_hdr oh, h;
	__u64 base_end = 0, total;
	char *out = NULL, *at;
	int err;

	*data = NULL;
	*size = 0;
	memcpy(&oh, oraw, sizeof(oh));
	otypes = oraw + oh.hdr_len + oh.type_off;
	ostrs = oraw + oh.hdr_len + oh.str_off;
	/* type ids map onto the bytes read: orig was never made modifiable */
	if (oh.type_off || oh.str_off != oh.type_len ||
	    (x->start < x->first_id && (const char *)b2b_btf_type_by_id(x->orig, x->start) != otypes))
		return -EINVAL;
	if (base)
		base_end = b2b_btf_str_end(base);
	err = place_strings(&ns, x, ostrs, oh.str_len, x->add.strs.buf, x->add.strs.len, base_end);
	total = (__u64)oh.hdr_len + oh.type_len + x->add.len + oh.str_len + ns.len;
	if (!err && total > UINT32_MAX)
		err = -E2BIG;
	if (!err) {
		out = b2b_malloc(total);
		err = out ? 0 : -ENOMEM;
	}
	if (err)
		goto out;
	/* the header read (a longer one's tail as read), then orig's types,
	 * the new ones, orig's strings, the new strings */
	h = oh;
	h.type_len = oh.type_len + x->add.len;
	h.str_off = h.type_len;
	h.str_len = oh.str_len + (__u32)ns.len;
	memcpy(out, &h, sizeof(h));
	memcpy(out + sizeof(h), oraw + sizeof(h), oh.hdr_len - sizeof(h));
	at = out + oh.hdr_len;
	memcpy(at, otypes, oh.type_len);
	/* the repointings in the order made: a type repointed twice (a kfunc
	 * reduced, then given its arena prototype) keeps the later one */
	for (size_t i = 0; i < x->nr_retype; i++) {
		__u32 id = x->retype[i].id;
		const char *t = (const char *)b2b_btf_type_by_id(x->orig, id);

		if (id < x->start || id >= x->first_id) {
			err = -EINVAL;
			goto out;
		}
		memcpy(at + (t - otypes) + offsetof(struct btf_type, type), &x->retype[i].type,
		       sizeof(__u32));
	}
	err = new_types(&ns, &x->add, at + oh.type_len);
	if (err)
		goto out;
	at += h.type_len;
	memcpy(at, ostrs, oh.str_len);
	at += oh.str_len;
	for (size_t i = 0; i < ns.nr; i++) {
		const struct b2b_name_want *w = &ns.idx.want[i];

		if (ns.final[i] < base_end + oh.str_len)
			continue;	/* found in the base or orig */
		memcpy(at, w->name, w->len + 1);
		at += w->len + 1;
	}
	*data = out;
	*size = total;
	out = NULL;
out:
	free(out);
	new_strs_free(&ns);
	return err;
}

/* ---- the edit: the plan carried out ---- */

/* Copy the kfunc's decl tags to _impl, bpf_kfunc excepted. A tag on a
 * parameter the reduced proto drops moves to _impl instead: left on the
 * kfunc it would point past the end of its prototype. */
static int move_tags(struct b2b_edit *ed, const struct btf2btf_kfunc *k, __u32 impl_id,
		     const char *impl_name, bool copy, int keep)
{
	size_t first, n;

	n = b2b_tag_index_find(ed->tags, k->btf_id, &first);
	for (size_t i = first; i < first + n; i++) {
		__u32 tag_id = ed->tags->ids[i];
		const struct btf_type *t = b2b_btf_type_by_id(ed->btf, tag_id);
		int idx = b2b_decl_tag(t)->component_idx;
		int err;

		if (b2b_is_kfunc_tag(ed->btf, tag_id))
			continue;
		if (idx >= keep) {
			err = b2b_ext_retype(&ed->ext, tag_id, impl_id);
			if (err)
				return b2b_errno(ed->log, err, "cannot move a decl tag of %s", k->name);
			continue;
		}
		if (!copy)
			continue;
		/* ed->btf is never modified: its strings stay put */
		err = ext_add_decl_tag(&ed->ext, b2b_btf_str(ed->btf, t->name_off),
				       impl_id, idx, b2b_kflag(t));
		if (err < 0)
			return b2b_errno(ed->log, err, "cannot add decl tag to %s: %s", impl_name,
					 strerror(-err));
	}
	return 0;
}

/* One reduced proto per original proto: kfuncs sharing a proto share it. */
static int reduced_proto(struct b2b_edit *ed, __u32 proto_id, __u16 keep)
{
	int id;

	if (proto_id < ed->nr_orig && ed->reduced_of[proto_id])
		return ed->reduced_of[proto_id];
	id = ext_add_proto_prefix(&ed->ext, proto_id, keep);
	if (id > 0 && proto_id < ed->nr_orig)
		ed->reduced_of[proto_id] = id;
	return id;
}

static int add_func_tag(struct b2b_edit *ed, const char *value, __u32 id, const char *name)
{
	int tag = ext_add_decl_tag(&ed->ext, value, id, -1, false);

	if (tag < 0)
		return b2b_errno(ed->log, tag, "cannot add %s tag to %s: %s", value, name,
				 strerror(-tag));
	return 0;
}

/* A new pointer to ptr_id's target through an address_space(1) attribute. */
static int arena_ptr(struct b2b_edit *ed, __u32 ptr_id)
{
	int tag = ext_add_type_tag(&ed->ext, B2B_ARENA_ATTR, b2b_btf_type_by_id(ed->btf, ptr_id)->type,
				   true);

	return tag < 0 ? tag : ext_add_ptr(&ed->ext, tag);
}

/* The kfunc's prototype (its first nr params) with the arena pointers tagged. */
static int arena_proto(struct b2b_edit *ed, const struct btf2btf_kfunc *k, __u32 proto_id,
		       __u16 nr)
{
	const struct btf_type *proto = b2b_btf_type_by_id(ed->btf, proto_id);
	int ret = proto->type, id, err = 0;

	if (k->actions & BTF2BTF_ACT_ARENA_RET)
		ret = arena_ptr(ed, proto->type);
	id = ret < 0 ? ret : ext_add_proto(&ed->ext, proto_id, nr, ret);
	for (__u16 i = 0; id > 0 && i < nr && i < 64 && !err; i++) {
		int ptr;

		if (!(k->arena_args & (1ULL << i)))
			continue;
		ptr = arena_ptr(ed, b2b_params(proto)[i].type);
		err = ptr < 0 ? ptr : ext_set_param_type(&ed->ext, id, i, ptr);
	}
	if (id > 0 && !err)
		err = b2b_ext_retype(&ed->ext, k->btf_id, id);
	if (id < 0 || err)
		return b2b_errno(ed->log, id < 0 ? id : err,
				 "cannot add the arena prototype of %s: %s", k->name,
				 strerror(-(id < 0 ? id : err)));
	ed->stats.arena_protos++;
	return 0;
}

static int edit_kfunc(struct b2b_edit *ed, const struct btf2btf_kfunc *k)
{
	const struct btf_type *func = b2b_btf_type_by_id(ed->btf, k->btf_id);
	__u32 proto_id = func->type;
	__u16 nr = b2b_vlen(b2b_btf_type_by_id(ed->btf, proto_id));
	int keep = k->actions & BTF2BTF_ACT_REDUCE_PROTO ? (int)k->reduced_params : nr;
	int err, id;

	if (k->planned == BTF2BTF_KFUNC_ALREADY)
		ed->stats.already++;
	if (k->actions & BTF2BTF_ACT_FASTCALL_TAG) {
		err = add_func_tag(ed, "bpf_fastcall", k->btf_id, k->name);
		if (err)
			return err;
		ed->stats.fastcall_added++;
	}
	if (k->actions & BTF2BTF_ACT_ADD_IMPL) {
		const char *impl_name = k->impl_name;	/* named by the plan */

		if (!impl_name)
			return b2b_errno(ed->log, -EINVAL, "kfunc %s: the plan named no %s",
					 k->name, BTF2BTF_IMPL_SUFFIX);
		id = ext_add_func(&ed->ext, impl_name, b2b_vlen(func), proto_id);
		if (id < 0)
			return b2b_errno(ed->log, id, "cannot add FUNC %s: %s", impl_name,
					 strerror(-id));
		ed->new_impl[ed->nr_new_impl++] = id;
		err = move_tags(ed, k, id, impl_name, true, keep);
		if (!err && (k->actions & BTF2BTF_ACT_FASTCALL_TAG))
			err = add_func_tag(ed, "bpf_fastcall", id, impl_name);
		if (err)
			return err;
		if (k->actions & BTF2BTF_ACT_FASTCALL_TAG)
			ed->stats.fastcall_added++;
		ed->stats.impl_added++;
		ed->stats.transformed++;
	} else if (k->actions & BTF2BTF_ACT_USE_LEGACY) {
		if (k->actions & BTF2BTF_ACT_MOVE_TAGS) {
			err = move_tags(ed, k, k->impl_id, NULL, false, keep);
			if (err)
				return err;
		}
		ed->stats.legacy++;
		ed->stats.transformed++;
	}
	if (k->actions & BTF2BTF_ACT_REDUCE_PROTO) {
		id = reduced_proto(ed, proto_id, keep);
		if (id < 0)
			return b2b_errno(ed->log, id, "cannot add the reduced prototype of %s: %s",
					 k->name, strerror(-id));
		err = b2b_ext_retype(&ed->ext, k->btf_id, id);
		if (err)
			return b2b_errno(ed->log, err, "cannot repoint kfunc %s", k->name);
	}
	if (k->actions & (BTF2BTF_ACT_ARENA_RET | BTF2BTF_ACT_ARENA_ARGS))
		return arena_proto(ed, k, proto_id, keep);
	return 0;
}

/* Every kfunc's actions, in kfunc order. */
static int edit_kfuncs(struct b2b_edit *ed, const struct b2b_kfuncs *kfuncs)
{
	int err = 0;

	for (size_t i = 0; i < kfuncs->nr && !err; i++)
		err = edit_kfunc(ed, &kfuncs->items[i]);
	/* after every other addition, where the --add-kfunc-tags run always put them */
	for (size_t i = 0; i < kfuncs->nr && !err; i++) {
		const struct btf2btf_kfunc *k = &kfuncs->items[i];

		if (!(k->actions & BTF2BTF_ACT_KFUNC_TAG))
			continue;
		err = add_func_tag(ed, "bpf_kfunc", k->btf_id, k->name);
		if (!err)
			ed->stats.tags_added++;
	}
	return err;
}

static int edit_start(struct b2b_edit *ed, const struct b2b_kfuncs *kfuncs)
{
	size_t nr_add = 0;

	ed->nr_orig = b2b_btf_type_cnt(ed->btf);
	if (b2b_ext_init(&ed->ext, ed->btf))
		return -ENOMEM;
	ed->reduced_of = b2b_calloc(ed->nr_orig, sizeof(*ed->reduced_of));
	for (size_t i = 0; i < kfuncs->nr; i++)
		nr_add += !!(kfuncs->items[i].actions & BTF2BTF_ACT_ADD_IMPL);
	ed->new_impl = b2b_calloc(nr_add + 1, sizeof(*ed->new_impl));
	if (!ed->reduced_of || !ed->new_impl)
		return -ENOMEM;
	return 0;
}

int b2b_edit_run(struct b2b_edit *ed, const struct b2b_btf *btf, const struct b2b_kfuncs *kfuncs,
		 const struct b2b_tag_index *tags, const struct b2b_log *log,
		 const struct btf2btf_stats *stats)
{
	int err;

	ed->btf = btf;
	ed->tags = tags;
	ed->log = log;
	ed->stats = *stats;
	err = edit_start(ed, kfuncs);
	if (!err)
		err = edit_kfuncs(ed, kfuncs);
	else
		err = b2b_errno(log, err, "out of memory");
	/* what served the edit alone: its memory serves what follows */
	free(ed->reduced_of);
	ed->reduced_of = NULL;
	ed->changed = ed->ext.add.nr || ed->ext.nr_retype;
	ed->first_new = ed->ext.first_id;
	if (!err && ed->changed)
		err = ext_check(&ed->ext, "transformed BTF", log);
	if (!err && ed->changed) {
		err = b2b_ext_lay_out(&ed->ext, &ed->data, &ed->size);
		if (err)
			b2b_errno(log, err, "cannot lay out the transformed BTF: %s", strerror(-err));
	}
	return err;
}

void b2b_edit_free(struct b2b_edit *ed)
{
	b2b_ext_free(&ed->ext);
	free(ed->reduced_of);
	free(ed->new_impl);
	free(ed->data);
	memset(ed, 0, sizeof(*ed));
}
