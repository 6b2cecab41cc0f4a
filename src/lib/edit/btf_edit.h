/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* The edit: the plan carried out as append-only BTF edits (new types after
 * the original bytes, never in place). */
#ifndef BTF2BTF_BTF_EDIT_H
#define BTF2BTF_BTF_EDIT_H

#include "format/btf_raw.h"
#include "util/internal.h"
#include "input/kfuncs.h"

/*
 * Types appended to a BTF, held apart from it until they are laid out
 * after its own: native types one after another (each as long as the
 * table of kinds says), numbered from 1 in the order added, and their own
 * strings, each once, in the order added. What libbpf's btf__new_empty()
 * and btf__add_*() would hold, without a second representation of BTF.
 */
struct b2b_new_types {
	char *types;
	size_t len, cap;
	__u32 *offs;		/* type n at types + offs[n - 1] */
	size_t nr, cap_offs;
	struct b2b_strtab strs;
};

int b2b_new_types_init(struct b2b_new_types *nt);
void b2b_new_types_free(struct b2b_new_types *nt);
/* Append a type: name (NULL or "": none), kind, vlen and kind_flag, word
 * 2 (size or type id); the words after it zeroed. Its number (> 0), or
 * -ENOMEM / -E2BIG / -EINVAL (a kind the table does not know). */
int b2b_btf_add_type(struct b2b_new_types *nt, const char *name, __u32 kind, __u32 vlen,
		     bool kflag, __u32 type);
/* The offset of str among nt's strings (0: NULL or ""), added when new. */
long b2b_btf_add_str(struct b2b_new_types *nt, const char *str);
/* Type number n (1 .. nr), NULL past the end; moves when a type is added. */
static inline struct btf_type *b2b_new_type(const struct b2b_new_types *nt, __u32 n)
{
	return n && n <= nt->nr ? (struct btf_type *)(nt->types + nt->offs[n - 1]) : NULL;
}

/*
 * Append-only edits. The transform only appends types (FUNC, FUNC_PROTO,
 * DECL_TAG, PTR, TYPE_TAG) and repoints a few existing ones. Going through
 * libbpf 1.1.2's btf__add_*() on the BTF read makes all of it modifiable
 * first: every type copied and every string put in a hash map, two to three
 * times the cost of reading and writing the BTF (make bench:
 * parse+modify+write). Instead the new types are appended to a table of
 * their own (struct b2b_new_types: their type references are already the
 * ids they get in the result) and the repointings are recorded;
 * b2b_ext_lay_out() then writes the result: the original bytes, the new
 * types, the original strings, the new strings. Strings are deduplicated as
 * btf__add_str() would (base strings first, then the split's, the first
 * occurrence), so the output is the one the libbpf path gives.
 */
struct b2b_ext {
	const struct b2b_btf *orig;	/* the BTF as read: never modified */
	struct b2b_new_types add;	/* the new types: number n is id first_id + n - 1 */
	__u32 first_id;			/* b2b_btf_type_cnt(orig) */
	__u32 start;			/* first id of orig's own (split) part */
	struct b2b_retype { __u32 id, type; } *retype;	/* orig id's ->type, at merge */
	size_t nr_retype, cap_retype;
};

int b2b_ext_init(struct b2b_ext *x, const struct b2b_btf *orig);
void b2b_ext_free(struct b2b_ext *x);
/* Set ->type of orig's type id (FUNC or DECL_TAG) in the result. */
int b2b_ext_retype(struct b2b_ext *x, __u32 id, __u32 type);
/* The result, raw BTF in orig's layout, native endian, in one new buffer
 * (b2b_malloc'd); x is not changed. */
int b2b_ext_lay_out(const struct b2b_ext *x, void **data, size_t *size);

/*
 * The edit: the plan carried out. For kfunc bpf_foo(int a, struct
 * bpf_prog_aux *aux) flagged KF_IMPLICIT_ARGS:
 *
 *   bpf_foo_impl(int a, struct bpf_prog_aux *aux)   new FUNC, original proto,
 *                                                   every decl tag but bpf_kfunc
 *   __bpf_kfunc bpf_foo(int a)                      new, reduced FUNC_PROTO
 *
 * Prototypes are shared (GCC + pahole give f and f_impl one proto), so a
 * proto is never edited: a new one is added and only the kfunc's FUNC is
 * repointed. With the features asked for, also "bpf_fastcall" and
 * "bpf_kfunc" decl tags and address_space(1) type attributes on arena
 * pointers (upstream's order: the arena proto is made from the reduced one).
 *
 * All of it is built aside (struct b2b_ext) and laid out once, after the
 * original bytes; the handle is not touched: its caller commits the result.
 */
struct b2b_edit {
	/* out */
	struct btf2btf_stats stats;	/* the handle's, updated */
	/* the FUNCs <name>_impl added, a kfunc with BTF2BTF_ACT_ADD_IMPL
	 * each, in kfunc order: with the actions, all the kfuncs' results,
	 * 4 bytes an added _impl instead of 12 a kfunc */
	__u32 *new_impl;
	size_t nr_new_impl;
	bool changed;		/* a type added or repointed */
	__u32 first_new;	/* the id of the first type added */
	void *data;		/* changed: the result laid out (b2b_malloc'd, the caller's) */
	size_t size;
	/* the edit's own */
	const struct b2b_btf *btf;		/* as read: never modified */
	const struct b2b_tag_index *tags;	/* of btf */
	const struct b2b_log *log;
	struct b2b_ext ext;	/* what the edit adds and repoints */
	__u32 *reduced_of;	/* original proto id -> reduced proto id */
	__u32 nr_orig;		/* type count as read */
};

/*
 * Carry out the plan's actions (kfuncs) on btf, as read, into ed; stats:
 * the handle's, updated in ed->stats. tags: btf's decl tags. 0, or a
 * negative errno (logged).
 */
int b2b_edit_run(struct b2b_edit *ed, const struct b2b_btf *btf, const struct b2b_kfuncs *kfuncs,
		 const struct b2b_tag_index *tags, const struct b2b_log *log,
		 const struct btf2btf_stats *stats);
void b2b_edit_free(struct b2b_edit *ed);

#endif /* BTF2BTF_BTF_EDIT_H */
