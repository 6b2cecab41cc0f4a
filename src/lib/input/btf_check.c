// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * What the transform relies on when it follows a type's links: every type
 * id and name offset in range, a FUNC pointing at a FUNC_PROTO, a decl
 * tag's component in range. Checked once, up front, on the model, with a
 * message that names the type (libbpf 1.1.2 checks none of it; 1.3 on
 * refuses such BTF with a bare EINVAL). (Header and sections: btf_format.c,
 * which reads the bytes; the types' extents: btf_model.c, which indexes
 * them.)
 */
#include <errno.h>
#include <linux/btf.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "format/btf_format.h"
#include "input/btf_check.h"
#include "format/btf_raw.h"

static bool id_ok(__u32 id, __u32 cnt)
{
	return id < cnt;
}

static int bad_ref(const struct b2b_log *log, const char *what, __u32 id, const char *field,
		   __u32 ref, __u32 cnt)
{
	return b2b_errno(log, -EINVAL, "%s: type [%u] %s references type %u, out of range (%u types)",
			 what, id, field, ref, cnt - 1);
}

/* The BTF checked, and what every type is checked against, computed once
 * per pass. */
struct view {
	const struct b2b_btf *btf;
	__u32 cnt;			/* type count, base included */
	__u64 str_end;			/* b2b_btf_str_end() */
};

static const struct btf_type *type_by_id(const struct view *v, __u32 id)
{
	/* own types through the index, inline */
	if (id >= v->btf->start_id && id < v->cnt)
		return b2b_btf_own_type(v->btf, id);
	return b2b_btf_type_by_id(v->btf, id);
}

/* Same as b2b_btf_str(btf, off) != NULL, without a call per name. */
static bool name_ok(const struct view *v, __u32 off)
{
	return off < v->str_end;
}

static const char *name_of(const struct view *v, __u32 off)
{
	return name_ok(v, off) ? b2b_btf_str(v->btf, off) : "";
}

/*
 * Every type id and name offset of t, a type of kind k, in range: one OR a
 * word, no branch (most of a kernel's words are members and parameters,
 * all of them fine; check_type() looks for the first bad one, for its
 * message, only when this says there is one). Inline with k constant
 * (types_ok() has a case a kind): each kind's check is compiled from its
 * row of the table, its masks unrolled.
 */
static inline __attribute__((always_inline)) bool
layout_ok(const struct btf_type *t, const struct b2b_kind_layout *k, __u32 cnt, __u64 str_end)
{
	const __u32 *w = (const __u32 *)t, *e = w + k->words;
	__u32 bad = w[0] >= str_end;

	for (__u32 m = k->ids; m; m &= m - 1)
		bad |= w[__builtin_ctz(m)] >= cnt;
	for (__u32 i = 0, n = k->elem_words ? b2b_vlen(t) : 0; i < n; i++, e += k->elem_words) {
		for (__u32 m = k->elem_ids; m; m &= m - 1)
			bad |= e[__builtin_ctz(m)] >= cnt;
		for (__u32 m = k->elem_strs; m; m &= m - 1)
			bad |= e[__builtin_ctz(m)] >= str_end;
	}
	return !bad;
}

/* What the type-id word i of a type of this kind names, for a message. */
static const char *ref_name(__u32 kind, __u32 i)
{
	switch (kind) {
	case BTF_KIND_ARRAY:
		return i == 3 ? "element type" : "index type";
	case BTF_KIND_STRUCT: case BTF_KIND_UNION:
		return "member type";
	case BTF_KIND_FUNC_PROTO:
		return i == 2 ? "return type" : "parameter type";
	case BTF_KIND_DATASEC:
		return "variable";
	case BTF_KIND_FUNC:
		return "prototype";
	case BTF_KIND_DECL_TAG:
		return "tagged type";
	default:
		return "type";
	}
}

/* What an element of a type of this kind is, for a message. */
static const char *elem_name(__u32 kind)
{
	switch (kind) {
	case BTF_KIND_STRUCT: case BTF_KIND_UNION:
		return "member";
	case BTF_KIND_FUNC_PROTO:
		return "parameter";
	default:
		return "value";
	}
}

/* A decl tag's component, in range of what it tags. */
static int check_decl_tag(const struct view *v, __u32 id, const struct btf_type *t,
			  const char *what, const struct b2b_log *log)
{
	const struct btf_type *target;
	int idx = b2b_decl_tag(t)->component_idx;
	__u32 n;

	if (!t->type)
		return bad_ref(log, what, id, "tagged type", t->type, v->cnt);
	target = type_by_id(v, t->type);
	if (idx < -1)
		return b2b_errno(log, -EINVAL, "%s: DECL_TAG [%u] has component_idx %d", what, id, idx);
	if (idx < 0)
		return 0;
	n = b2b_vlen(target);
	if (b2b_is_func(target)) {
		const struct btf_type *p = type_by_id(v, target->type);

		n = p && b2b_is_func_proto(p) ? b2b_vlen(p) : 0;
	} else if (!b2b_is_composite(target)) {
		return b2b_errno(log, -EINVAL, "%s: DECL_TAG [%u] has component_idx %d on a type without components",
				 what, id, idx);
	}
	if ((__u32)idx >= n)
		return b2b_errno(log, -EINVAL, "%s: DECL_TAG [%u] component_idx %d out of range (%u components)",
				 what, id, idx, n);
	return 0;
}

/* t of id id; for a FUNC, proto is its type, looked up already. The type
 * ids, then the name offsets, by the table of kinds; then what a FUNC and
 * a decl tag must be. */
static int check_type(const struct view *v, __u32 id, const struct btf_type *t,
		      const struct btf_type *proto, const char *what, const struct b2b_log *log)
{
	const struct b2b_kind_layout *k = &b2b_kinds[b2b_kind(t)];
	struct b2b_fields ids = b2b_fields(t, B2B_W_REF), strs = b2b_fields(t, B2B_W_STR);
	const __u32 *w = (const __u32 *)t;
	__u32 kind = b2b_kind(t);

	if (!name_ok(v, t->name_off))
		return b2b_errno(log, -EINVAL, "%s: type [%u] has an invalid name offset %u",
				 what, id, t->name_off);
	for (__u32 i; b2b_fields_next(&ids, &i); )
		if (!id_ok(w[i], v->cnt))
			return bad_ref(log, what, id, ref_name(kind, i), w[i], v->cnt);
	for (__u32 i; b2b_fields_next(&strs, &i); )
		if (!name_ok(v, w[i]))
			return b2b_errno(log, -EINVAL, "%s: type [%u] %s %u has an invalid name offset",
					 what, id, elem_name(kind), (i - k->words) / k->elem_words);
	switch (kind) {
	case BTF_KIND_FUNC:
		if (!proto || !b2b_is_func_proto(proto))
			return b2b_errno(log, -EINVAL, "%s: FUNC [%u] '%s' points to type %u, which is not a FUNC_PROTO",
					 what, id, name_of(v, t->name_off), t->type);
		if (!t->name_off || !*name_of(v, t->name_off))
			return b2b_errno(log, -EINVAL, "%s: FUNC [%u] has no name", what, id);
		break;
	case BTF_KIND_DECL_TAG:
		return check_decl_tag(v, id, t, what, log);
	default:
		break;
	}
	return 0;
}

/* Types ahead of the one checked whose far reads are started early (a
 * power of two: the ring below). */
#define AHEAD 16

/*
 * A FUNC's check reads its FUNC_PROTO and the first byte of its name, both
 * far from the FUNC, and most types of a kernel's BTF are FUNCs: one cache
 * miss after the other, most of the time of this pass. Started AHEAD types
 * early, they overlap. Returns the FUNC's FUNC_PROTO (or what its type id
 * names), for its check.
 */
static const struct btf_type *prefetch_func(const struct view *v, const struct btf_type *t)
{
	const struct btf_type *proto;

	if (b2b_kind(t) != BTF_KIND_FUNC || !id_ok(t->type, v->cnt))
		return NULL;
	proto = type_by_id(v, t->type);
	__builtin_prefetch(proto);
	if (name_ok(v, t->name_off))
		__builtin_prefetch(name_of(v, t->name_off));
	return proto;
}

/* The types from start on, walked in id order once (through the index): each is
 * found AHEAD - 1 ids before it is checked, its far reads started then, and
 * kept in a ring (with its FUNC_PROTO when a FUNC) until its turn. */
static int check_types(const struct view *v, __u32 start, const char *what,
		       const struct b2b_log *log)
{
	const struct btf_type *ring[AHEAD], *protos[AHEAD], *ahead;
	__u32 found = start;	/* the last type found: ring[found % AHEAD] */
	int err;

	if (start >= v->cnt)
		return 0;
	ring[start % AHEAD] = ahead = type_by_id(v, start);
	protos[start % AHEAD] = prefetch_func(v, ahead);
	for (__u32 id = start; id < v->cnt; id++) {
		for (; found < id + AHEAD - 1 && found + 1 < v->cnt; found++) {
			ahead = type_by_id(v, found + 1);
			ring[(found + 1) % AHEAD] = ahead;
			protos[(found + 1) % AHEAD] = prefetch_func(v, ahead);
		}
		err = check_type(v, id, ring[id % AHEAD], protos[id % AHEAD], what, log);
		if (err)
			return err;
	}
	return 0;
}

/* The FUNCs queued by types_ok(): each one's FUNC_PROTO (or what its type
 * id names) and name, read AHEAD FUNCs after they were asked for. */
struct func_ring {
	const struct btf_type *protos[AHEAD];
	const char *names[AHEAD];
	__u32 queued, done;
};

static void queue_func(struct func_ring *r, const struct view *v, const struct btf_type *t)
{
	__u32 i = r->queued++ % AHEAD;

	r->protos[i] = type_by_id(v, t->type);
	r->names[i] = b2b_btf_str(v->btf, t->name_off);
	__builtin_prefetch(r->protos[i]);
	__builtin_prefetch(r->names[i]);
}

/* The FUNCs queued but the last keep ones: a FUNC_PROTO each, a name not
 * empty. */
static bool funcs_ok(struct func_ring *r, __u32 keep)
{
	for (; r->queued - r->done > keep; r->done++) {
		const struct btf_type *p = r->protos[r->done % AHEAD];

		if (!p || !b2b_is_func_proto(p) || !*r->names[r->done % AHEAD])
			return false;
	}
	return true;
}

/*
 * check_types()' verdict, without its messages, in one walk that reads each
 * type's words in order: names and type ids in range by the table of kinds
 * (the elements in one OR), a FUNC's FUNC_PROTO and name once it is AHEAD
 * FUNCs behind (far reads, started when it was met), a decl tag's
 * component as check_type() sees it. check_types() runs only when this
 * finds something, to say what.
 */
static bool types_ok(const struct view *v, __u32 start)
{
	const struct b2b_btf *btf = v->btf;
	__u32 cnt = v->cnt, bad = 0;
	struct func_ring r = { .queued = 0 };

	for (__u32 id = start; id < cnt && !bad; id++) {
		const struct btf_type *t = b2b_btf_own_type(btf, id);

		switch (b2b_kind(t)) {
		/* a case a kind, its layout checked, then what the kind must be:
		 * a FUNC's FUNC_PROTO and name (queued), a decl tag's component */
#define KIND_OK(kind, ...)									\
		case BTF_KIND_##kind:								\
			bad |= !layout_ok(t, &b2b_kinds[BTF_KIND_##kind], cnt, v->str_end);	\
			if (BTF_KIND_##kind == BTF_KIND_FUNC && !bad) {				\
				queue_func(&r, v, t);						\
				bad |= !funcs_ok(&r, AHEAD - 1);				\
			}									\
			if (BTF_KIND_##kind == BTF_KIND_DECL_TAG && !bad)			\
				bad |= check_decl_tag(v, id, t, "", NULL) != 0;			\
			break;
		B2B_KINDS(KIND_OK, B2B_WORD)
#undef KIND_OK
		default:
			break;	/* none: the model's index refuses other kinds */
		}
	}
	return !bad && funcs_ok(&r, 0);
}

int b2b_check_btf_types(const struct b2b_btf *btf, const char *what, const struct b2b_log *log)
{
	struct view v = { btf, b2b_btf_type_cnt(btf), b2b_btf_str_end(btf) };
	bool ok = types_ok(&v, btf->start_id);

#if defined(BTF2BTF_FAULT_INJECTION) || defined(BTF2BTF_FUZZING)
	/* test and fuzzing builds: the verdict is check_types()' own */
	if (ok && check_types(&v, btf->start_id, what, log))
		abort();
#endif
	return ok ? 0 : check_types(&v, btf->start_id, what, log);
}
