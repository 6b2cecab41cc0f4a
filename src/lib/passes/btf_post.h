/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Post-passes over the transform's result, as 7.3's resolve_btfids runs
 * them after its BTF edits (finalize_btf): dedup, distilled base, sort by
 * name. Each takes raw native-endian BTF bytes in one buffer (plus the base
 * of split BTF) and gives new bytes and the old -> new id map (struct
 * b2b_pass_out); out->data == NULL means "unchanged" (and out->map is then
 * NULL too).
 * Nothing is logged: callers name the file in their messages.
 */
#ifndef BTF2BTF_BTF_POST_H
#define BTF2BTF_BTF_POST_H

#include "format/btf_raw.h"

/*
 * Sort this BTF's own types (the split part of split BTF) by name, strcmp
 * order, anonymous types first, ties in id order; every type id remapped.
 */
int b2b_sort_by_name(const void *data, size_t size, const struct b2b_btf *base,
		     struct b2b_pass_out *out);
/*
 * Deduplicate, with the result btf__dedup() gives. Types with ids below
 * first_new are taken to be deduplicated already (pahole's output is); the
 * types from first_new on (what the transform appended) and the types
 * referring to them are matched against the rest by hash. When that
 * assumption cannot be checked cheaply to hold (a new type of a kind that
 * takes a graph comparison, two equal old types, an old type that became
 * equal to another), a split BTF has btf__dedup()'s phases followed on the
 * model (fold mode: an input not deduplicated against its base), and
 * where their outcome is not certain, libbpf's full btf__dedup() runs;
 * *way (may be NULL) says which decided. first_new = start id: never the
 * hash path.
 */
enum b2b_dedup_way {
	B2B_DEDUP_HASH,		/* new types matched by hash */
	B2B_DEDUP_FOLD,		/* btf__dedup()'s phases, on the model */
	B2B_DEDUP_FULL,		/* libbpf's btf__dedup() */
};

int b2b_dedup(const void *data, size_t size, const struct b2b_btf *base, __u32 first_new,
	      struct b2b_pass_out *out, enum b2b_dedup_way *way);

/* Full dedup with libbpf's btf__dedup(), id map included. */
int b2b_dedup_full(const void *data, size_t size, const struct b2b_btf *base,
		   struct b2b_pass_out *out);

/*
 * libbpf's btf__distill_base() for split BTF on base: *base_out gets the
 * distilled base (raw), out the split BTF rewritten on it (map: ids of the
 * input, base ids included, to ids on the distilled base; 0 for base types
 * not kept).
 */
int b2b_distill_base(const void *data, size_t size, const struct b2b_btf *base,
		     void **base_out, size_t *base_size, struct b2b_pass_out *out);

/* Compose: map[i] = second[map[i]] (second NULL: identity). */
void b2b_map_compose(__u32 *map, __u32 nr, const __u32 *second);


/*
 * The passes in 7.3's order (dedup, distill, sort), each pass's result the
 * next one's input, their maps composed.
 */
struct b2b_post {
	/* in: the transform's result (given up: freed once a pass replaced
	 * it); out: the final BTF and the map from the input's ids to it
	 * (NULL: identity) */
	struct b2b_pass_out btf;
	const struct b2b_btf *base;	/* of the input */
	__u32 first_new;	/* the first type the transform appended */
	bool dedup, distill, sort;
	/* out */
	bool changed;		/* a pass changed the BTF */
	enum b2b_dedup_way dedup_way;	/* what decided the dedup */
	struct b2b_btf new_base;	/* the distilled base (its bytes owned), or empty */
};

int b2b_post_run(struct b2b_post *p);
void b2b_post_free(struct b2b_post *p);

/*
 * The transform's stage 4: the passes over p->btf, the edit's result, or,
 * when the edit changed nothing (p->btf.data NULL), a copy of read, the BTF
 * read; every failure logged. resolved_set: the name of a set8 that
 * resolve_btfids resolved already (NULL: none), whose ids a renumbering
 * would leave stale: refused then.
 */
int b2b_post_stage(struct b2b_post *p, const struct b2b_btf *read, const char *resolved_set,
		   const struct b2b_log *log);
#endif /* BTF2BTF_BTF_POST_H */
