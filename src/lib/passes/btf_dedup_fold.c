// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Stage 4 of the pipeline (open -> plan -> edit -> post-passes -> write):
 * dedup's fold mode.
 *
 * A split BTF not deduplicated against its base (Debian's modules carry
 * copies of base types: 6.1's struct module and the types around it,
 * 7.2's typedef chains), which btf__dedup() folds into the base's.
 * btf__dedup()'s phases are followed in its order (strings; INT, FLOAT,
 * FWD and enums; structs and unions by graph comparison; forward
 * declarations; reference types), on the model, without libbpf's copy of
 * the base; typedefs in the phase the running libbpf takes them
 * (b2b_libbpf_typedef_dedup()). Where the outcome hangs on what differs
 * between libbpf's versions or on the order of its hash table (two equal
 * candidates, a second hypothesis for one type in a graph comparison, a
 * base forward declaration completed by the module beside another
 * candidate, an enum forward declaration, a typedef with a candidate under
 * a libbpf not known), 1: btf__dedup() decides.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "passes/dedup_state.h"
#include "format/btf_raw.h"
#include "util/internal.h"
#include "util/libbpf_compat.h"
#include "util/name_index.h"

/* A string of the own table, by content, and where it goes. */
struct str_slot {
	__u32 off;		/* in the own table, + 1; 0: empty slot */
	__u32 to;		/* its offset in the result; UINT32_MAX: not placed yet */
};

static struct str_slot *str_slot(struct str_slot *tab, __u32 mask, const struct dedup *d,
				 const char *s)
{
	size_t len = strlen(s);
	__u32 i = b2b_hash_str(s, len) & mask;

	for (; tab[i].off; i = (i + 1) & mask)
		if (!strcmp(d->r.strs + tab[i].off - 1, s))
			break;
	return &tab[i];
}

/*
 * The own strings as btf__dedup() rebuilds them before it merges a type
 * (btf_dedup_strings()): every own type's names in id order, each in the
 * base when the base has it (its first copy there), else once in the new
 * table, in the order first met. d->str_map gives each own offset's.
 */
static int fold_strings(struct dedup *d)
{
	const struct b2b_btf *base = d->r.base;
	__u32 base_end = d->r.base_str_len, own_len = d->r.hdr.str_len, slots = 16, nr = 0;
	struct str_slot *tab;
	size_t cap = 0;
	int err = 0;

	if (base->base)
		return 1;	/* btf__find_str() would look in the base's base first */
	/* a string takes two bytes at least: at most half full */
	while (slots < own_len + 32)
		slots <<= 1;
	tab = b2b_calloc(slots, sizeof(*tab));
	d->str_map = b2b_malloc((size_t)own_len * sizeof(*d->str_map) + 1);
	if (!tab || !d->str_map) {
		free(tab);
		return -ENOMEM;
	}
	/* each own string met, by content */
	for (__u32 id = d->r.start_id; id < d->cnt; id++) {
		const struct btf_type *t = type_of(d, id);
		const __u32 *w = (const __u32 *)t;
		struct b2b_fields strs = b2b_fields(t, B2B_W_STR);

		for (__u32 i; b2b_fields_next(&strs, &i); ) {
			struct str_slot *slot;

			if (w[i] < base_end)
				continue;
			slot = str_slot(tab, slots - 1, d, d->r.strs + w[i] - base_end);
			if (!slot->off) {
				slot->off = w[i] - base_end + 1;
				slot->to = UINT32_MAX;
				nr++;
			}
		}
	}
	/* those the base has: their first copy there */
	for (__u32 off = 0; off < base->hdr.str_len && nr; off += strlen(base->strs + off) + 1) {
		struct str_slot *slot = str_slot(tab, slots - 1, d, base->strs + off);

		if (slot->off && slot->to == UINT32_MAX) {
			slot->to = off;
			nr--;
		}
	}
	/* the others, in the order met */
	for (__u32 id = d->r.start_id; id < d->cnt && !err; id++) {
		const struct btf_type *t = type_of(d, id);
		const __u32 *w = (const __u32 *)t;
		struct b2b_fields strs = b2b_fields(t, B2B_W_STR);

		for (__u32 i; !err && b2b_fields_next(&strs, &i); ) {
			const char *str = d->r.strs + w[i] - base_end;
			struct str_slot *slot;
			size_t len;

			if (w[i] < base_end)
				continue;
			slot = str_slot(tab, slots - 1, d, str);
			d->str_map[w[i] - base_end] = slot->to;
			if (slot->to != UINT32_MAX)
				continue;
			len = strlen(str) + 1;
			err = b2b_grow((void **)&d->strs, &cap, (size_t)d->str_len + len, 1);
			if (err)
				break;
			memcpy(d->strs + d->str_len, str, len);
			slot->to = base_end + d->str_len;
			d->str_map[w[i] - base_end] = slot->to;
			d->str_len += len;
		}
	}
	free(tab);
	return err;
}

#define FOLD_UNMAPPED	UINT32_MAX		/* libbpf's BTF_UNPROCESSED_ID */
#define FOLD_BUSY	(UINT32_MAX - 1)	/* BTF_IN_PROGRESS_ID */
#define FOLD_UNKNOWN	2			/* fold_equiv(): libbpf's versions may differ */
/* How deep the fold mode follows references before it leaves a type to
 * btf__dedup() (C's chains are short; a fuzzer's are not). */
#define FOLD_DEPTH	1024

static bool named_kind(__u16 kind)
{
	return kind == BTF_KIND_STRUCT || kind == BTF_KIND_UNION || kind == BTF_KIND_TYPEDEF ||
	       kind == BTF_KIND_ENUM || kind == BTF_KIND_ENUM64;
}

static bool is_composite_kind(__u16 kind)
{
	return kind == BTF_KIND_STRUCT || kind == BTF_KIND_UNION;
}

static __u32 name_hash(const struct dedup *d, const struct btf_type *t)
{
	const char *name = b2b_btf_name(&d->r, t);

	return b2b_hash_str(name, strlen(name));
}

static bool mapped(const struct dedup *d, __u32 id)
{
	return d->map[id] < FOLD_BUSY;
}

/* libbpf's resolve_type_id() */
static __u32 resolve_id(const struct dedup *d, __u32 id)
{
	while (mapped(d, id) && d->map[id] != id)
		id = d->map[id];
	return id;
}

/* libbpf's resolve_fwd_id(): a forward declaration mapped to a struct or
 * union (a base one, by an earlier graph comparison) is read as that */
static __u32 resolve_fwd(const struct dedup *d, __u32 id)
{
	__u32 to = resolve_id(d, id);

	return b2b_kind(type_of(d, id)) == BTF_KIND_FWD &&
	       b2b_kind(type_of(d, to)) != BTF_KIND_FWD ? to : id;
}

/* Base ids too: a base forward declaration may stand for an own struct
 * (hypot_merge()), which may have been folded since. */
static void flatten_map(struct dedup *d)
{
	for (__u32 id = 1; id < d->cnt; id++)
		if (mapped(d, id) && d->map[id] != id)
			d->map[id] = resolve_id(d, id);
}

/* btf_shallow_equal_struct(): name, info, size, member names and offsets */
static bool shallow_equal_struct(const struct dedup *d, const struct btf_type *a,
				 const struct btf_type *b)
{
	if (a->info != b->info || a->size != b->size ||
	    canon_str(d, a->name_off) != canon_str(d, b->name_off))
		return false;
	for (__u32 i = 0; i < b2b_vlen(a); i++) {
		const struct btf_member *ma = b2b_members(a) + i, *mb = b2b_members(b) + i;

		if (ma->offset != mb->offset || canon_str(d, ma->name_off) != canon_str(d, mb->name_off))
			return false;
	}
	return true;
}

/*
 * Fold mode's indexes by name hash (name hash << 32 | id, sorted): the own
 * types of a named kind (d->own_named), and the base types of a named kind
 * whose name hash an own type of a named kind or an own forward declaration
 * has (d->named).
 */
static int index_named(struct dedup *d)
{
	__u32 start = d->r.start_id, nr_want = 0;
	__u64 *want;
	size_t cap = 0;
	int err = 0;

	want = b2b_malloc((size_t)(d->cnt - start) * sizeof(*want));
	d->own_named = b2b_malloc((size_t)(d->cnt - start) * sizeof(*d->own_named));
	if (!want || !d->own_named) {
		free(want);
		return -ENOMEM;
	}
	for (__u32 id = start; id < d->cnt; id++) {
		const struct btf_type *t = type_of(d, id);
		__u64 e = (__u64)name_hash(d, t) << 32 | id;

		if (named_kind(b2b_kind(t)))
			d->own_named[d->nr_own_named++] = e;
		if (named_kind(b2b_kind(t)) || b2b_kind(t) == BTF_KIND_FWD)
			want[nr_want++] = e;
	}
	if (nr_want)
		qsort(want, nr_want, sizeof(*want), b2b_cmp_u64);
	if (d->nr_own_named)
		qsort(d->own_named, d->nr_own_named, sizeof(*d->own_named), b2b_cmp_u64);
	for (__u32 id = 1; id < start && !err && nr_want; id++) {
		const struct btf_type *t = type_of(d, id);
		__u32 h, at;

		if (!named_kind(b2b_kind(t)))
			continue;
		h = name_hash(d, t);
		at = b2b_first_of_key(want, nr_want, h);
		if (at == nr_want || (__u32)(want[at] >> 32) != h)
			continue;
		err = b2b_grow((void **)&d->named, &cap, d->nr_named + 1, sizeof(*d->named));
		if (!err)
			d->named[d->nr_named++] = (__u64)h << 32 | id;
	}
	free(want);
	if (!err && d->nr_named)
		qsort(d->named, d->nr_named, sizeof(*d->named), b2b_cmp_u64);
	return err;
}

/*
 * The candidates btf__dedup() may weigh for t by name, in d->cands
 * (d->nr_cands of them): the base types of a named kind whose name hashes as t's, then the
 * own ones before id that stand for themselves. Each phase checks the name
 * and what else it compares.
 */
static int named_cands(struct dedup *d, const struct btf_type *t, __u32 before)
{
	const __u64 *lists[2] = { d->named, d->own_named };
	__u32 sizes[2] = { d->nr_named, d->nr_own_named }, h = name_hash(d, t);

	d->nr_cands = 0;
	for (int l = 0; l < 2; l++) {
		for (__u32 i = b2b_first_of_key(lists[l], sizes[l], h);
		     i < sizes[l] && (__u32)(lists[l][i] >> 32) == h; i++) {
			__u32 c = (__u32)lists[l][i];
			int err;

			if (l && (c >= before || d->map[c] != c))
				continue;
			err = b2b_grow((void **)&d->cands, &d->cands_cap, d->nr_cands + 1,
				       sizeof(*d->cands));
			if (err)
				return err;
			d->cands[d->nr_cands++] = c;
		}
	}
	return 0;
}

static bool same_name(const struct dedup *d, const struct btf_type *a, const struct btf_type *b)
{
	return canon_str(d, a->name_off) == canon_str(d, b->name_off);
}

/*
 * The enums btf__dedup() weighs for enum t of id id (btf_hash_enum(): by
 * name alone), of its name: *nr of them, *one one of them, *fwds the
 * forward declarations among them.
 */
static int enum_cands(struct dedup *d, __u32 id, const struct btf_type *t, __u32 *nr, __u32 *one,
		      __u32 *fwds)
{
	int err = named_cands(d, t, id);

	*nr = *one = *fwds = 0;
	for (__u32 i = 0; i < d->nr_cands && !err; i++) {
		const struct btf_type *ct = type_of(d, d->cands[i]);

		if (!b2b_is_any_enum(ct) || !same_name(d, ct, t))
			continue;
		*one = d->cands[i];
		*fwds += !b2b_vlen(ct);
		(*nr)++;
	}
	return err;
}

/*
 * Full enum t of id id, whose candidates (d->cands, from enum_cands())
 * include forward declarations: btf__dedup() points each at t ("resolve
 * canonical enum fwd to full enum"), a base one too, when no candidate
 * equals t. 1 when one does.
 */
static int fwds_to_enum(struct dedup *d, __u32 id, const struct btf_type *t)
{
	__u32 n = 0;

	for (__u32 i = 0; i < d->nr_cands; i++) {
		const struct btf_type *ct = type_of(d, d->cands[i]);

		if (!b2b_is_any_enum(ct) || !same_name(d, ct, t))
			continue;
		if (b2b_vlen(ct) && b2b_dedup_equal(d, t, ct))
			return 1;
	}
	for (__u32 i = 0; i < d->nr_cands; i++) {
		const struct btf_type *ct = type_of(d, d->cands[i]);

		if (b2b_is_any_enum(ct) && !b2b_vlen(ct) && same_name(d, ct, t)) {
			d->map[d->cands[i]] = id;
			n++;
		}
	}
	return !n;
}

/* btf_dedup_prim_types(): INT, FLOAT, FWD and enums, in id order, each
 * folded into the one type equal to it, base or own before it. */
static int fold_prims(struct dedup *d)
{
	for (__u32 id = d->r.start_id; id < d->cnt; id++) {
		const struct btf_type *t = type_of(d, id);
		__u32 kind = b2b_kind(t), other;
		int err;

		if (kind != BTF_KIND_INT && kind != BTF_KIND_FLOAT && kind != BTF_KIND_FWD &&
		    !b2b_is_any_enum(t))
			continue;
		if (b2b_is_any_enum(t)) {
			__u32 fwds, n;

			err = enum_cands(d, id, t, &n, &other, &fwds);
			if (err)
				return err;

			/* a forward declaration resolves to the one enum of its
			 * name (two: the table's order picks) */
			if (!b2b_vlen(t)) {
				if (n > 1)
					return 1;
				d->map[id] = n ? other : id;
				continue;
			}
			/* a full enum's forward declarations are pointed at it,
			 * when no enum equals it (else the order decides which
			 * are met before the equal one) */
			if (fwds && fwds_to_enum(d, id, t))
				return 1;
		}
		err = b2b_dedup_lookup(d, id, &other);
		if (err)
			return err;
		d->map[id] = other ? other : id;
	}
	return 0;
}

static int hypot_add(struct dedup *d, __u32 canon, __u32 cand)
{
	d->hypot[canon] = cand;
	d->hypot_list[d->nr_hypot++] = canon;
	return 0;
}

static void hypot_clear(struct dedup *d)
{
	for (__u32 i = 0; i < d->nr_hypot; i++)
		d->hypot[d->hypot_list[i]] = FOLD_UNMAPPED;
	d->nr_hypot = 0;
	d->adjust_base = false;
}

/*
 * btf_dedup_is_equiv(): whether the graph of cand (own) equals the graph of
 * canon, hypotheses recorded canon -> cand. 1 equal, 0 not, FOLD_UNKNOWN
 * where libbpf's versions answer differently (a second hypothesis for a
 * type, an enum forward declaration). A forward declaration equals a
 * struct or union of its name and kind; a base one met against an own
 * struct sets d->adjust_base (libbpf's hypot_adjust_canon: the graphs are
 * not equal, but the base declaration is to stand for the own struct).
 */
static int fold_equiv(struct dedup *d, __u32 cand_id, __u32 canon_id, __u32 depth)
{
	const struct btf_type *ct, *nt;
	const __u32 *cw, *nw;
	__u32 kind;
	int eq;

	if (resolve_id(d, cand_id) == resolve_id(d, canon_id))
		return 1;
	if (depth > FOLD_DEPTH)
		return FOLD_UNKNOWN;
	canon_id = resolve_fwd(d, canon_id);
	if (d->hypot[canon_id] != FOLD_UNMAPPED)
		return d->hypot[canon_id] == cand_id ? 1 : FOLD_UNKNOWN;
	/* at most one hypothesis a type: the list cannot overflow */
	hypot_add(d, canon_id, cand_id);
	ct = type_of(d, cand_id);
	nt = type_of(d, canon_id);
	if (canon_str(d, ct->name_off) != canon_str(d, nt->name_off))
		return 0;
	if ((b2b_kind(ct) == BTF_KIND_FWD) != (b2b_kind(nt) == BTF_KIND_FWD)) {
		const struct btf_type *fwd = b2b_kind(ct) == BTF_KIND_FWD ? ct : nt;
		const struct btf_type *real = fwd == ct ? nt : ct;
		/* the kind flag says which a FWD declares: set, a union */
		bool same = is_composite_kind(b2b_kind(real)) && b2b_is_union(real) == b2b_kflag(fwd);

		if (same && fwd == nt && canon_id < d->r.start_id)
			d->adjust_base = true;
		return same;
	}
	if (b2b_kind(ct) != b2b_kind(nt))
		return 0;
	kind = b2b_kind(ct);
	cw = (const __u32 *)ct;
	nw = (const __u32 *)nt;
	switch (kind) {
	case BTF_KIND_INT:
		return ct->info == nt->info && cw[2] == nw[2] && cw[3] == nw[3];
	case BTF_KIND_ENUM:
	case BTF_KIND_ENUM64:
		if (!b2b_vlen(ct) || !b2b_vlen(nt))
			return FOLD_UNKNOWN;
		return b2b_dedup_equal(d, ct, nt);
	case BTF_KIND_FWD:
	case BTF_KIND_FLOAT:
		return ct->info == nt->info && ct->size == nt->size;
	case BTF_KIND_CONST: case BTF_KIND_VOLATILE: case BTF_KIND_RESTRICT: case BTF_KIND_PTR:
	case BTF_KIND_TYPEDEF: case BTF_KIND_FUNC: case BTF_KIND_TYPE_TAG:
		if (ct->info != nt->info)
			return 0;
		return fold_equiv(d, ct->type, nt->type, depth + 1);
	case BTF_KIND_ARRAY:
		/* btf_compat_array(): name, info, size word, nelems */
		if (ct->info != nt->info || cw[2] != nw[2] || cw[5] != nw[5])
			return 0;
		eq = fold_equiv(d, cw[4], nw[4], depth + 1);
		return eq != 1 ? eq : fold_equiv(d, cw[3], nw[3], depth + 1);
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
		if (!shallow_equal_struct(d, ct, nt))
			return 0;
		for (__u32 i = 0; i < b2b_vlen(ct); i++) {
			eq = fold_equiv(d, b2b_members(ct)[i].type, b2b_members(nt)[i].type, depth + 1);
			if (eq != 1)
				return eq;
		}
		return 1;
	case BTF_KIND_FUNC_PROTO:
		/* btf_compat_fnproto(): name, info, parameter names */
		if (ct->info != nt->info)
			return 0;
		for (__u32 i = 0; i < b2b_vlen(ct); i++)
			if (canon_str(d, b2b_params(ct)[i].name_off) !=
			    canon_str(d, b2b_params(nt)[i].name_off))
				return 0;
		eq = fold_equiv(d, ct->type, nt->type, depth + 1);
		for (__u32 i = 0; i < b2b_vlen(ct) && eq == 1; i++)
			eq = fold_equiv(d, b2b_params(ct)[i].type, b2b_params(nt)[i].type, depth + 1);
		return eq;
	default:
		return FOLD_UNKNOWN;	/* libbpf: -EINVAL */
	}
}

/* btf_dedup_merge_hypot_map(): a forward declaration of the canonical
 * graph stands for its counterpart; unless the base's graph was to be
 * adjusted (d->adjust_base), one of the candidate's graph for its
 * counterpart, and a struct or union of the candidate's graph not mapped
 * yet maps to its counterpart, when that one is. */
static void hypot_merge(struct dedup *d)
{
	for (__u32 i = 0; i < d->nr_hypot; i++) {
		__u32 canon = d->hypot_list[i];
		__u32 t_id = resolve_id(d, d->hypot[canon]), c_id = resolve_id(d, canon);
		__u32 t_kind = b2b_kind(type_of(d, t_id)), c_kind = b2b_kind(type_of(d, c_id));

		if (t_kind != BTF_KIND_FWD && c_kind == BTF_KIND_FWD)
			d->map[c_id] = t_id;
		if (d->adjust_base)
			continue;
		if (t_kind == BTF_KIND_FWD && c_kind != BTF_KIND_FWD)
			d->map[t_id] = c_id;
		if (is_composite_kind(t_kind) && c_kind != BTF_KIND_FWD && mapped(d, c_id) &&
		    !mapped(d, t_id))
			d->map[t_id] = c_id;
	}
}

/* Whether btf__dedup() weighs candidate c for t in the struct phase. A
 * typedef's candidates are found by name and info, and not the base's with
 * 1.7; with a libbpf whose way is not known, any candidate is 1. */
static int struct_phase_candidate(const struct dedup *d, const struct btf_type *t, __u32 c)
{
	const struct btf_type *ct = type_of(d, c);

	if (b2b_kind(t) != BTF_KIND_TYPEDEF)
		return shallow_equal_struct(d, t, ct);
	if (ct->info != t->info || !same_name(d, ct, t))
		return 0;
	if (d->typedef_way == B2B_TYPEDEF_UNKNOWN)
		return -1;
	return d->typedef_way != B2B_TYPEDEF_STRUCT_PHASE_NO_BASE || c >= d->r.start_id;
}

/*
 * btf_dedup_struct_types(): in id order, a struct or union (and a typedef,
 * where libbpf deduplicates them in this phase) not mapped yet folds into
 * the candidate (a base one, or an own one before it that stayed) whose
 * graph equals its own, and the graph comparison's hypotheses are merged.
 * A candidate equal but for base forward declarations (d->adjust_base)
 * has them merged, and is not chosen. Two equal candidates, or one of
 * those beside another: the hash table's order decides, 1.
 */
static int fold_structs(struct dedup *d)
{
	bool typedefs = d->typedef_way != B2B_TYPEDEF_REF_PHASE;

	for (__u32 id = d->r.start_id; id < d->cnt; id++) {
		const struct btf_type *t = type_of(d, id);
		__u32 kind = b2b_kind(t), chosen = 0, adjusted = 0, n = 0, weighed = 0;
		int eq;

		if ((!is_composite_kind(kind) && !(typedefs && kind == BTF_KIND_TYPEDEF)) ||
		    mapped(d, id))
			continue;
		eq = named_cands(d, t, id);
		if (eq)
			return eq;
		for (__u32 i = 0; i < d->nr_cands; i++) {
			__u32 c = d->cands[i];

			eq = struct_phase_candidate(d, t, c);
			if (eq < 0)
				return 1;
			if (!eq)
				continue;
			weighed++;
			hypot_clear(d);
			eq = fold_equiv(d, id, c, 0);
			if (eq == FOLD_UNKNOWN)
				return 1;
			if (eq && d->adjust_base)
				adjusted = c;
			else if (eq && n++)
				return 1;
			else if (eq)
				chosen = c;
		}
		if (adjusted && weighed > 1)
			return 1;
		if (adjusted || chosen) {
			hypot_clear(d);
			fold_equiv(d, id, adjusted ? adjusted : chosen, 0);
			hypot_merge(d);
		}
		d->map[id] = chosen ? chosen : id;
	}
	hypot_clear(d);
	return 0;
}

/* btf_dedup_resolve_fwds(): a forward declaration still standing for
 * itself resolves to the one canonical struct or union of its name (base
 * or own), when that is of the kind it declares. */
static int fold_fwds(struct dedup *d)
{
	for (__u32 id = d->r.start_id; id < d->cnt; id++) {
		const struct btf_type *t = type_of(d, id);
		__u32 one = 0, n = 0;
		int err;

		if (b2b_kind(t) != BTF_KIND_FWD || d->map[id] != id)
			continue;
		err = named_cands(d, t, UINT32_MAX);
		if (err)
			return err;
		for (__u32 i = 0; i < d->nr_cands; i++) {
			const struct btf_type *ct = type_of(d, d->cands[i]);

			if (is_composite_kind(b2b_kind(ct)) && same_name(d, ct, t)) {
				one = d->cands[i];
				n++;
			}
		}
		/* the kind flag says which a FWD declares: set, a union */
		if (n == 1 && b2b_is_union(type_of(d, one)) == b2b_kflag(t))
			d->map[id] = one;
	}
	return 0;
}

/* btf_dedup_ref_type(): the types it refers to first, then the one type
 * equal to it, base or own met before. */
static int fold_ref(struct dedup *d, __u32 id, __u32 depth)
{
	const struct btf_type *t = type_of(d, id);
	const __u32 *w = (const __u32 *)t;
	__u32 kind = b2b_kind(t), other, i;
	int err;

	if (d->map[id] == FOLD_BUSY)
		return 1;	/* libbpf: -ELOOP */
	if (mapped(d, id))
		return 0;
	if (depth > FOLD_DEPTH)
		return 1;
	switch (kind) {
	case BTF_KIND_CONST: case BTF_KIND_VOLATILE: case BTF_KIND_RESTRICT: case BTF_KIND_PTR:
	case BTF_KIND_FUNC: case BTF_KIND_TYPE_TAG: case BTF_KIND_DECL_TAG: case BTF_KIND_ARRAY:
	case BTF_KIND_FUNC_PROTO:
	case BTF_KIND_TYPEDEF:	/* up to libbpf 1.5; later ones mapped it before */
		break;
	default:
		return 1;	/* libbpf: -EINVAL */
	}
	d->map[id] = FOLD_BUSY;
	for (struct b2b_fields ids = b2b_fields(t, B2B_W_REF); b2b_fields_next(&ids, &i); ) {
		err = fold_ref(d, w[i], depth + 1);
		if (err)
			return err;
	}
	d->map[id] = FOLD_UNMAPPED;
	err = b2b_dedup_lookup(d, id, &other);
	if (err)
		return err;
	d->map[id] = other ? other : id;
	return 0;
}

int b2b_dedup_fold(struct dedup *d, bool *changed)
{
	__u32 start = d->r.start_id, nr_own = d->cnt - start;
	int err;

	if (start <= 1 || d->cnt >= FOLD_BUSY)
		return 1;
	d->fold = true;
	d->typedef_way = b2b_libbpf_typedef_dedup();
	for (__u32 id = start; id < d->cnt; id++) {
		const struct btf_type *t = type_of(d, id);

		d->kinds |= 1U << b2b_kind(t);	/* index_base()'s */
		d->map[id] = b2b_kind(t) == BTF_KIND_VAR || b2b_kind(t) == BTF_KIND_DATASEC ?
			     id : FOLD_UNMAPPED;
		d->state[id] = DONE;
	}
	free(d->old);
	free(d->slots);
	d->old = NULL;
	d->nr_old = 0;
	d->nr_slots = nr_own * 8 / 5 + 16;
	d->slots = b2b_calloc(d->nr_slots, sizeof(*d->slots));
	d->hypot = b2b_malloc((size_t)d->cnt * sizeof(*d->hypot));
	d->hypot_list = b2b_malloc((size_t)d->cnt * sizeof(*d->hypot_list));
	if (!d->slots || !d->hypot || !d->hypot_list)
		return -ENOMEM;
	memset(d->hypot, 0xff, (size_t)d->cnt * sizeof(*d->hypot));
	err = fold_strings(d);
	if (!err)
		err = index_named(d);
	if (!err)
		err = fold_prims(d);
	if (!err)
		err = fold_structs(d);
	if (err)
		return err;
	err = fold_fwds(d);
	if (err)
		return err;
	flatten_map(d);
	for (__u32 id = start; id < d->cnt && !err; id++)
		err = fold_ref(d, id, 0);
	if (err)
		return err;
	flatten_map(d);
	/* the strings are rebuilt whether a type went or not */
	*changed = true;
	return 0;
}
