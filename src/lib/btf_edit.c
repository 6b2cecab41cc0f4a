// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Stage 3 of the pipeline (open -> plan -> edit -> post-passes -> write): the edit.
 *
 * Append-only BTF edits (see struct b2b_ext in btf_edit.h): the new types
 * are built with libbpf in a BTF of their own, then laid out after the
 * original bytes by a merge (b2b_merge_new(), then written or laid out).
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "btf2btf.h"
#include "btf_check.h"
#include "btf_edit.h"
#include "libbpf_compat.h"

/* btf__add_decl_tag(), plus kind_flag (an attribute tag) when kflag is set. */
static int add_decl_tag(struct btf *btf, const char *value, __u32 target, int component_idx,
			bool kflag)
{
	int id = btf__add_decl_tag(btf, value, target, component_idx);

	if (id < 0 || !kflag)
		return id;
	b2b_btf_set_kind_flag(btf, id);
	return id;
}

int b2b_ext_init(struct b2b_ext *x, const struct btf *orig)
{
	const struct btf *base = btf__base_btf(orig);

	memset(x, 0, sizeof(*x));
	x->orig = orig;
	x->first_id = btf__type_cnt(orig);
	x->start = base ? btf__type_cnt(base) : 1;
	x->btf = b2b_fault_nomem() ? NULL : btf__new_empty();
	return x->btf ? 0 : -ENOMEM;
}

void b2b_ext_free(struct b2b_ext *x)
{
	btf__free(x->btf);
	free(x->retype);
	memset(x, 0, sizeof(*x));
}

static int ext_id(const struct b2b_ext *x, int local)
{
	return local < 0 ? local : (int)(x->first_id + local - 1);
}

/* Every addition is an allocation point of the fault-injection tests. */
#define EXT_ADD(x, call) (b2b_fault_nomem() ? -ENOMEM : ext_id(x, call))

int b2b_ext_add_func(struct b2b_ext *x, const char *name, int linkage, __u32 proto)
{
	return EXT_ADD(x, btf__add_func(x->btf, name, linkage, proto));
}

int b2b_ext_add_decl_tag(struct b2b_ext *x, const char *value, __u32 target, int component_idx,
			 bool kflag)
{
	return EXT_ADD(x, add_decl_tag(x->btf, value, target, component_idx, kflag));
}

int b2b_ext_add_ptr(struct b2b_ext *x, __u32 type)
{
	return EXT_ADD(x, btf__add_ptr(x->btf, type));
}

int b2b_ext_add_type_tag(struct b2b_ext *x, const char *value, __u32 type, bool kflag)
{
	int id = EXT_ADD(x, btf__add_type_tag(x->btf, value, type));

	if (id > 0 && kflag)
		b2b_btf_set_kind_flag(x->btf, id - x->first_id + 1);
	return id;
}

int b2b_ext_add_proto(struct b2b_ext *x, __u32 proto_id, __u16 nr_params, __u32 ret)
{
	const struct btf_type *proto = btf__type_by_id(x->orig, proto_id);
	const struct btf_param *p = btf_params(proto);
	int id, err;

	/* orig is never modified: its names stay put while ext grows */
	id = EXT_ADD(x, btf__add_func_proto(x->btf, ret));
	for (__u16 i = 0; id > 0 && i < nr_params; i++) {
		const char *name = btf__name_by_offset(x->orig, p[i].name_off);

		if (!name)
			return -EINVAL;
		err = b2b_fault_nomem() ? -ENOMEM : btf__add_func_param(x->btf, name, p[i].type);
		if (err < 0)
			return err;
	}
	return id;
}

int b2b_ext_add_proto_prefix(struct b2b_ext *x, __u32 proto_id, __u16 nr_params)
{
	return b2b_ext_add_proto(x, proto_id, nr_params, btf__type_by_id(x->orig, proto_id)->type);
}

int b2b_ext_set_param_type(struct b2b_ext *x, __u32 proto, __u16 idx, __u32 type)
{
	struct btf_type *t;

	if (proto < x->first_id || proto - x->first_id + 1 >= btf__type_cnt(x->btf))
		return -EINVAL;
	t = (struct btf_type *)btf__type_by_id(x->btf, proto - x->first_id + 1);
	if (!btf_is_func_proto(t) || idx >= btf_vlen(t))
		return -EINVAL;
	btf_params(t)[idx].type = type;
	return 0;
}

int b2b_ext_retype(struct b2b_ext *x, __u32 id, __u32 type)
{
	if (id < x->start || id >= x->first_id)
		return -EINVAL;
	if (b2b_fault_nomem() || b2b_grow((void **)&x->retype, &x->cap_retype, x->nr_retype + 1, sizeof(*x->retype)))
		return -ENOMEM;
	x->retype[x->nr_retype].id = id;
	x->retype[x->nr_retype++].type = type;
	return 0;
}

/* A type of the result by id: orig's (and its base's), or a new one; NULL past the end. */
static const struct btf_type *result_type(const struct b2b_ext *x, __u32 id)
{
	if (id < x->first_id)
		return btf__type_by_id(x->orig, id);
	if (id - x->first_id + 1 < btf__type_cnt(x->btf))
		return btf__type_by_id(x->btf, id - x->first_id + 1);
	return NULL;
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
	proto = btf_is_func(t) ? result_type(x, result_ref(x, target)) : NULL;
	if (!proto || !btf_is_func_proto(proto) || idx >= btf_vlen(proto))
		return b2b_errno(log, -EINVAL, "%s: DECL_TAG [%u] component_idx %d is not a parameter of [%u]",
				 what, tag, idx, target);
	return 0;
}

static int check_func(const struct b2b_ext *x, __u32 func, __u32 proto_id, const char *what,
		      const struct b2b_log *log)
{
	const struct btf_type *p = result_type(x, proto_id);

	if (!p || !btf_is_func_proto(p))
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
int b2b_ext_check(const struct b2b_ext *x, const char *what, const struct b2b_log *log)
{
	__u32 nr = btf__type_cnt(x->btf);
	int err = 0;

	for (__u32 local = 1; local < nr && !err; local++) {
		const struct btf_type *t = btf__type_by_id(x->btf, local);
		__u32 id = x->first_id + local - 1;

		switch (btf_kind(t)) {
		case BTF_KIND_FUNC:
			err = check_func(x, id, t->type, what, log);
			break;
		case BTF_KIND_FUNC_PROTO:
			if (!result_type(x, t->type))
				err = b2b_errno(log, -EINVAL, "%s: FUNC_PROTO [%u] returns type %u, out of range",
						what, id, t->type);
			for (__u16 i = 0; i < btf_vlen(t) && !err; i++)
				if (!result_type(x, btf_params(t)[i].type))
					err = b2b_errno(log, -EINVAL, "%s: FUNC_PROTO [%u] parameter %u has type %u, out of range",
							what, id, i, btf_params(t)[i].type);
			break;
		case BTF_KIND_DECL_TAG:
			err = check_tag(x, id, t->type, btf_decl_tag(t)->component_idx, what, log);
			break;
		case BTF_KIND_PTR:
		case BTF_KIND_TYPE_TAG:
			if (!result_type(x, t->type))
				err = b2b_errno(log, -EINVAL, "%s: new type [%u] refers to type %u, out of range",
						what, id, t->type);
			break;
		default:
			err = b2b_errno(log, -EINVAL, "%s: new type [%u] of kind %u", what, id, btf_kind(t));
		}
	}
	for (size_t i = 0; i < x->nr_retype && !err; i++) {
		const struct btf_type *t = result_type(x, x->retype[i].id);

		if (btf_is_func(t))
			err = check_func(x, x->retype[i].id, x->retype[i].type, what, log);
		else if (btf_is_decl_tag(t))
			err = check_tag(x, x->retype[i].id, x->retype[i].type,
					btf_decl_tag(t)->component_idx, what, log);
		else
			err = b2b_errno(log, -EINVAL, "%s: type [%u] of kind %u repointed", what,
					x->retype[i].id, btf_kind(t));
	}
	return err;
}

struct want {
	const char *s;
	__u32 len, hash, ext_off;
	__u32 final;
	bool found;
};

struct wants {
	struct want *w;
	size_t nr;
	__u32 *slots;		/* index + 1 into w, 0: empty */
	size_t mask;
	__u64 lens[1024 / 64];	/* lengths < 1024 wanted; longer ones always looked up */
};

static __u32 fnv(const char *s, size_t len)
{
	__u32 h = 2166136261u;

	for (size_t i = 0; i < len; i++)
		h = (h ^ (unsigned char)s[i]) * 16777619u;
	return h;
}

static struct want *wants_find(const struct wants *ws, const char *s, size_t len)
{
	__u32 h;

	if (len < 1024 && !(ws->lens[len / 64] & (1ULL << (len % 64))))
		return NULL;
	h = fnv(s, len);
	for (size_t i = h & ws->mask; ws->slots[i]; i = (i + 1) & ws->mask) {
		struct want *w = &ws->w[ws->slots[i] - 1];

		if (w->hash == h && w->len == len && !memcmp(w->s, s, len))
			return w;
	}
	return NULL;
}

/* First occurrence of every wanted string in strs[0, len), offsets from off0. */
static void wants_scan(struct wants *ws, const char *strs, __u64 len, __u64 off0)
{
	for (__u64 o = 0; o < len;) {
		size_t l = strnlen(strs + o, len - o);
		struct want *w = wants_find(ws, strs + o, l);

		if (w && !w->found) {
			w->found = true;
			w->final = (__u32)(off0 + o);
		}
		o += l + 1;
	}
}

static __u32 map_str(const struct wants *ws, __u32 ext_off)
{
	size_t lo = 0, hi = ws->nr;

	if (!ext_off)
		return 0;
	while (lo < hi) {	/* ws->w is in ext offset order */
		size_t mid = lo + (hi - lo) / 2;

		if (ws->w[mid].ext_off < ext_off)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < ws->nr && ws->w[lo].ext_off == ext_off ? ws->w[lo].final : UINT32_MAX;
}

enum btf_endianness b2b_native_endianness(void)
{
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	return BTF_BIG_ENDIAN;
#else
	return BTF_LITTLE_ENDIAN;
#endif
}

/*
 * A merge, prepared: the layout of the result is known (where every new
 * string goes, the size), the bytes are not written yet. Writing them is
 * b2b_merge_emit(), in pieces; dedup and sort read the parts
 * (b2b_merge_parts()) where they are.
 */
struct b2b_merge {
	struct b2b_ext x;		/* moved in while the merge is made; x.orig stays
					 * the caller's */
	struct btf_header oh, eh;
	struct wants ws;		/* while the merge is made */
	__u64 new_len;			/* the new strings' bytes */
	/* orig's types with x.retype's ->type words patched, the new types,
	 * orig's strings, the new strings */
	struct b2b_raw_parts parts;
	/* x.retype by offset in orig's types, one per offset: the last
	 * repointing of a type wins (a kfunc reduced, then given its arena
	 * prototype, is repointed twice) */
	struct b2b_raw_patch *patches;
	char *types;			/* the new types, their strings the result's */
	char *new_strs;			/* the new strings, in ext order */
};

/* orig's and x->btf's raw bytes, native endian: libbpf keeps both until
 * the BTF is modified or freed, which neither is while the merge lives */
static int raw_views(const struct b2b_ext *x, const char **oraw, const char **eraw)
{
	struct btf *orig = (struct btf *)x->orig;	/* endianness view only, restored */
	enum btf_endianness e = btf__endianness(orig);
	__u32 osz = 0, esz = 0;

	if (btf__set_endianness(orig, b2b_native_endianness()))
		return -EINVAL;
	*oraw = btf__raw_data(orig, &osz);
	btf__set_endianness(orig, e);
	*eraw = btf__raw_data(x->btf, &esz);
	return *oraw && *eraw ? 0 : -ENOMEM;
}

/* A repointing and the order it was made in. */
struct seq_patch {
	__u32 off, type, seq;
};

/* By offset, then in the order the repointings were made. */
static int cmp_patch(const void *a, const void *b)
{
	const struct seq_patch *x = a, *y = b;

	if (x->off != y->off)
		return x->off < y->off ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Where every new string goes: an equal string's offset in the base or
 * orig, or after orig's strings, in ext order (as btf__add_str() would). */
static int place_strings(struct b2b_merge *m, const char *ostrs, const char *estrs,
			 __u64 base_end)
{
	const struct btf *base = btf__base_btf(m->x.orig);
	struct wants *ws = &m->ws;
	size_t cap;

	for (__u32 o = 1; o < m->eh.str_len; o += strlen(estrs + o) + 1)
		ws->nr++;
	ws->w = b2b_fault_nomem() ? NULL : calloc(ws->nr ? ws->nr : 1, sizeof(*ws->w));
	for (cap = 16; cap < 2 * ws->nr; cap *= 2)
		;
	ws->slots = calloc(cap, sizeof(*ws->slots));
	ws->mask = cap - 1;
	if (!ws->w || !ws->slots)
		return -ENOMEM;
	ws->nr = 0;
	for (__u32 o = 1; o < m->eh.str_len; o += strlen(estrs + o) + 1) {
		struct want *w = &ws->w[ws->nr++];
		size_t i;

		w->s = estrs + o;
		w->len = strlen(w->s);
		w->hash = fnv(w->s, w->len);
		w->ext_off = o;
		if (w->len < 1024)
			ws->lens[w->len / 64] |= 1ULL << (w->len % 64);
		for (i = w->hash & ws->mask; ws->slots[i]; i = (i + 1) & ws->mask)
			;
		ws->slots[i] = ws->nr;
	}
	/* btf__add_str(): a base string first, then one of the split's own */
	if (base)
		wants_scan(ws, btf__name_by_offset(base, 0), base_end, 0);
	wants_scan(ws, ostrs, m->oh.str_len, base_end);
	for (size_t i = 0; i < ws->nr; i++) {
		if (ws->w[i].found)
			continue;
		ws->w[i].final = (__u32)(base_end + m->oh.str_len + m->new_len);
		m->new_len += ws->w[i].len + 1;
	}
	if (base_end + m->oh.str_len + m->new_len > UINT32_MAX)
		return -E2BIG;
	m->new_strs = b2b_fault_nomem() ? NULL : malloc(m->new_len ? m->new_len : 1);
	if (!m->new_strs)
		return -ENOMEM;
	for (size_t i = 0, at = 0; i < ws->nr; i++) {
		if (ws->w[i].found)
			continue;
		memcpy(m->new_strs + at, ws->w[i].s, ws->w[i].len + 1);
		at += ws->w[i].len + 1;
	}
	return 0;
}

/* The new types, their string offsets mapped to the result's (malloc'd copy). */
static char *new_types(const struct b2b_merge *m, const char *etypes)
{
	char *types = b2b_fault_nomem() ? NULL : malloc(m->eh.type_len ? m->eh.type_len : 1);

	if (!types)
		return NULL;
	memcpy(types, etypes, m->eh.type_len);
	for (char *t = types, *end = types + m->eh.type_len; t < end;) {
		struct btf_type *bt = (struct btf_type *)t;
		size_t sz = sizeof(*bt);

		bt->name_off = map_str(&m->ws, bt->name_off);
		switch (btf_kind(bt)) {
		case BTF_KIND_FUNC:
		case BTF_KIND_PTR:
		case BTF_KIND_TYPE_TAG:
			break;
		case BTF_KIND_FUNC_PROTO: {
			struct btf_param *pp = btf_params(bt);

			for (__u16 i = 0; i < btf_vlen(bt); i++) {
				pp[i].name_off = map_str(&m->ws, pp[i].name_off);
				if (pp[i].name_off == UINT32_MAX)
					goto fail;
			}
			sz += btf_vlen(bt) * sizeof(*pp);
			break;
		}
		case BTF_KIND_DECL_TAG:
			sz += sizeof(struct btf_decl_tag);
			break;
		default:
			goto fail;	/* only these are ever added */
		}
		if (bt->name_off == UINT32_MAX)
			goto fail;
		t += sz;
	}
	return types;
fail:
	free(types);
	errno = EINVAL;
	return NULL;
}

static void wants_free(struct wants *ws)
{
	free(ws->w);
	free(ws->slots);
	memset(ws, 0, sizeof(*ws));
}

void b2b_merge_free(struct b2b_merge *m)
{
	if (!m)
		return;
	b2b_ext_free(&m->x);
	wants_free(&m->ws);
	free(m->patches);
	free(m->types);
	free(m->new_strs);
	free(m);
}

/*
 * x.retype as patches of orig's types, by offset, one per offset (the
 * later repointing of a type wins). qsort() is not stable: repointings out
 * of order are sorted with the order they were made in as the tie-break.
 */
static int make_patches(struct b2b_merge *m, const char *otypes)
{
	struct seq_patch *sp = NULL;
	size_t nr = m->x.nr_retype, n = 0;
	bool sorted = true;

	m->patches = b2b_fault_nomem() ? NULL : malloc((nr + 1) * sizeof(*m->patches));
	if (!m->patches)
		return -ENOMEM;
	for (size_t i = 0; i < nr; i++) {
		const char *t = (const char *)btf__type_by_id(m->x.orig, m->x.retype[i].id);

		m->patches[i].off = (__u32)(t - otypes) + offsetof(struct btf_type, type);
		m->patches[i].type = m->x.retype[i].type;
		sorted &= !i || m->patches[i - 1].off <= m->patches[i].off;
	}
	if (!sorted) {
		sp = b2b_fault_nomem() ? NULL : malloc(nr * sizeof(*sp));
		if (!sp)
			return -ENOMEM;
		for (size_t i = 0; i < nr; i++)
			sp[i] = (struct seq_patch){ m->patches[i].off, m->patches[i].type, (__u32)i };
		qsort(sp, nr, sizeof(*sp), cmp_patch);
		for (size_t i = 0; i < nr; i++)
			m->patches[i] = (struct b2b_raw_patch){ sp[i].off, sp[i].type };
		free(sp);
	}
	for (size_t i = 0; i < nr; i++) {
		if (n && m->patches[n - 1].off == m->patches[i].off)
			n--;	/* repointed again: the later one */
		m->patches[n++] = m->patches[i];
	}
	m->parts.patches = m->patches;
	m->parts.nr_patches = n;
	return 0;
}

int b2b_merge_new(struct b2b_ext *x, struct b2b_merge **out)
{
	const struct btf *base = btf__base_btf(x->orig);
	const char *oraw, *eraw, *otypes;
	struct b2b_raw_parts *p;
	struct b2b_merge *m;
	__u64 base_end = 0;
	int err;

	*out = NULL;
	m = b2b_fault_nomem() ? NULL : calloc(1, sizeof(*m));
	if (!m)
		return -ENOMEM;
	m->x = *x;
	memset(x, 0, sizeof(*x));
	err = raw_views(&m->x, &oraw, &eraw);
	if (err)
		goto fail;
	memcpy(&m->oh, oraw, sizeof(m->oh));
	memcpy(&m->eh, eraw, sizeof(m->eh));
	otypes = oraw + m->oh.hdr_len + m->oh.type_off;
	/* type ids map onto the bytes read: orig was never made modifiable */
	err = -EINVAL;
	if (m->oh.type_off || m->oh.str_off != m->oh.type_len ||
	    (m->x.start < m->x.first_id &&
	     (const char *)btf__type_by_id(m->x.orig, m->x.start) != otypes))
		goto fail;
	if (base)
		base_end = b2b_btf_str_end(base);
	err = place_strings(m, oraw + m->oh.hdr_len + m->oh.str_off,
			    eraw + m->eh.hdr_len + m->eh.str_off, base_end);
	if (err)
		goto fail;
	if ((__u64)m->oh.hdr_len + m->oh.type_len + m->eh.type_len + m->oh.str_len +
	    m->new_len > UINT32_MAX) {
		err = -E2BIG;
		goto fail;
	}
	err = make_patches(m, otypes);
	if (err)
		goto fail;
	errno = 0;
	m->types = new_types(m, eraw + m->eh.hdr_len + m->eh.type_off);
	if (!m->types) {
		err = errno == EINVAL ? -EINVAL : -ENOMEM;
		goto fail;
	}
	wants_free(&m->ws);
	p = &m->parts;
	p->hdr = m->oh;
	p->hdr.type_len = m->oh.type_len + m->eh.type_len;
	p->hdr.str_off = p->hdr.type_len;
	p->hdr.str_len = m->oh.str_len + (__u32)m->new_len;
	p->hdr_tail = oraw + sizeof(p->hdr);
	p->types[0] = otypes;
	p->type_len[0] = m->oh.type_len;
	p->types[1] = m->types;
	p->type_len[1] = m->eh.type_len;
	p->strs[0] = oraw + m->oh.hdr_len + m->oh.str_off;
	p->str_len[0] = m->oh.str_len;
	p->strs[1] = m->new_strs;
	p->str_len[1] = (__u32)m->new_len;
	/* the parts read the merge's own copies and orig: the new types' BTF
	 * (and the raw copy libbpf keeps of it) go before the post-passes */
	b2b_ext_free(&m->x);
	*out = m;
	return 0;
fail:
	b2b_merge_free(m);
	return err;
}

const struct b2b_raw_parts *b2b_merge_parts(const struct b2b_merge *m)
{
	return &m->parts;
}

int b2b_merge_emit(const struct b2b_merge *m, b2b_sink_fn sink, void *ctx)
{
	return b2b_raw_parts_emit(&m->parts, sink, ctx);
}

size_t b2b_merge_size(const struct b2b_merge *m)
{
	return b2b_raw_parts_size(&m->parts);
}
