/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Post-passes over the transform's result, as 7.3's resolve_btfids runs
 * them after its BTF edits (finalize_btf): dedup, distilled base, sort by
 * name. Each takes raw native-endian BTF bytes (plus the base of split BTF)
 * and gives new bytes and the old -> new id map (struct b2b_pass_out);
 * out->data == NULL means "unchanged" (and out->map is then NULL too).
 * Nothing is logged: callers name the file in their messages.
 */
#ifndef BTF2BTF_BTF_POST_H
#define BTF2BTF_BTF_POST_H

#include "btf_raw.h"

/*
 * Sort this BTF's own types (the split part of split BTF) by name, strcmp
 * order, anonymous types first, ties in id order; every type id remapped.
 */
int b2b_sort_by_name(const void *data, size_t size, const struct btf *base,
		     struct b2b_pass_out *out);
/*
 * The same sort, prepared and not laid out, of the types b2b_dedup_equals()
 * keeps (equal NULL: all), so dedup and sort make one layout; the map takes
 * a dropped type to its equal's new id. equal is taken (its memory becomes
 * the map), freed on failure too. *out (NULL when the order is the input's
 * and nothing is dropped: unchanged) reads in where it is, which must
 * outlive it; written by b2b_sorted_emit() in chunks.
 */
struct b2b_sorted;
int b2b_sort_prepare(const struct b2b_raw_parts *in, const struct btf *base, __u32 *equal,
		     struct b2b_sorted **out);
/* Its id map: input id -> output id, for the input's *nr ids. */
const __u32 *b2b_sorted_map(const struct b2b_sorted *s, __u32 *nr);
size_t b2b_sorted_size(const struct b2b_sorted *s);
int b2b_sorted_emit(const struct b2b_sorted *s, b2b_sink_fn sink, void *ctx);
void b2b_sorted_free(struct b2b_sorted *s);

/*
 * Deduplicate, with the result btf__dedup() gives. Types with ids below
 * first_new are taken to be deduplicated already (pahole's output is); the
 * types from first_new on (what the transform appended) and the types
 * referring to them are matched against the rest by hash. When that
 * assumption cannot be checked cheaply to hold (a new type of a kind that
 * takes a graph comparison, two equal old types, an old type that became
 * equal to another), libbpf's full btf__dedup() runs instead;
 * *full (may be NULL) says which ran. first_new = start id: always full.
 */
int b2b_dedup(const void *data, size_t size, const struct btf *base, __u32 first_new,
	      struct b2b_pass_out *out, bool *full);

/*
 * b2b_dedup()'s hash path without the layout, for a pass that lays the
 * types out anyway (the sort): *equal (NULL: nothing dropped) gets, per id,
 * the kept type a dropped one equals, or the id itself. 1 when the hash path
 * cannot decide: then only btf__dedup() can (b2b_dedup_full()).
 */
int b2b_dedup_equals(const struct b2b_raw_parts *in, const struct btf *base, __u32 first_new,
		     __u32 **equal);

/* Full dedup with libbpf's btf__dedup(), id map included. */
int b2b_dedup_full(const void *data, size_t size, const struct btf *base,
		   struct b2b_pass_out *out);

/*
 * libbpf's btf__distill_base() for split BTF on base: *base_out gets the
 * distilled base (raw), out the split BTF rewritten on it (map: ids of the
 * input, base ids included, to ids on the distilled base; 0 for base types
 * not kept).
 */
int b2b_distill_base(const void *data, size_t size, const struct btf *base,
		     void **base_out, size_t *base_size, struct b2b_pass_out *out);

/* Compose: map[i] = second[map[i]] (second NULL: identity). */
void b2b_map_compose(__u32 *map, __u32 nr, const __u32 *second);


/* The passes in 7.3's order (dedup, distill, sort), maps composed. */
struct b2b_post_in {
	/* the transform's result, raw native-endian BTF: in one buffer, or
	 * (data NULL) in parts, laid out only for a pass that needs it */
	const void *data;
	size_t size;
	const struct b2b_raw_parts *parts;
	const struct btf *base;
	__u32 first_new;	/* the first type the transform appended */
	bool dedup, distill, sort;
	/* data itself when the caller gives it up (or NULL): freed, and set to
	 * NULL, as soon as a pass has replaced it, so that the next pass's
	 * result reuses its memory instead of touching new pages; the parts
	 * laid out, when they were and no pass replaced them */
	void *own;
};

struct b2b_post_result {
	/* data NULL: unchanged, or (sorted) not laid out; map NULL: identity */
	struct b2b_pass_out btf;
	/* dedup and sort's result, prepared only: it reads the input's parts,
	 * which the caller keeps while it lives; btf.map is its map (its own:
	 * not to be freed apart from it) */
	struct b2b_sorted *sorted;
	void *base_data;		/* distilled base (raw), or NULL */
	size_t base_size;
	struct btf *base;		/* the same, parsed */
	bool full_dedup;		/* btf__dedup() ran, not the hash path */
};

int b2b_post_run(struct b2b_post_in *in, struct b2b_post_result *res);
void b2b_post_result_free(struct b2b_post_result *res);
#endif /* BTF2BTF_BTF_POST_H */
