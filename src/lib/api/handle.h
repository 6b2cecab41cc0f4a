/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * struct btf2btf, shared by the files of the public API: load.c (open),
 * transform.c, write.c and handle.c (accessors). Nothing else sees it.
 */
#ifndef BTF2BTF_HANDLE_H
#define BTF2BTF_HANDLE_H

#include "format/btf_format.h"
#include "format/btf_model.h"
#include "input/btf_ids.h"
#include "format/elf_file.h"
#include "input/kfuncs.h"
#include "plan/plan.h"

struct btf2btf {
	char *path;			/* the object (or raw BTF) named on the command line */
	char *btf_path;			/* raw BTF used instead of the object's .BTF */
	struct b2b_log log;
	struct b2b_elf *elf;		/* NULL when path is raw BTF */
	size_t btf_index;		/* .BTF section index in elf */
	bool lenient;
	uint64_t max_decompressed;	/* opts.max_decompressed (0: the default) */
	bool transformed;
	bool changed;
	/* the current BTF (split on base): as read, then the transform's
	 * result, the one buffer the edit laid out and the post-passes
	 * rewrote, which the writers take as it is. libbpf's struct btf of it
	 * is made only when a caller asks (btf2btf__btf()) */
	struct b2b_btf btf;
	/* base of btf (empty: none): read (-B), the caller's (opts.base_btf:
	 * base.lib is theirs, lent), or distilled (read or made) */
	struct b2b_btf base;
	/* how the BTF read was laid out (header length, layout section, byte
	 * order): btf is native, 24-byte header; the writers lay it out so */
	struct b2b_btf_format fmt;
	/* btf2btf__raw_btf() (btf_out), __raw_base_btf() (base_out) when fmt
	 * is not plain: kept until btf (base) is replaced, as libbpf keeps its
	 * own */
	struct b2b_bytes btf_out, base_out;
	/* the distilled base: asked for (opts.distill_base, or a module read
	 * on its own .BTF.base and relocated), made (base is distilled and
	 * written with the BTF); what was read of one is in info */
	struct {
		bool asked, made;
	} dist;
	struct btf2btf_set8_entry *set8_view;	/* btf2btf__set8_entry(), made on first use */
	struct btf2btf_object_info info;	/* btf2btf__object_info(), made at open */
	struct b2b_btf_ids ids;
	/* names: of the split part, freed once the plan is made (kfuncs.entry_func
	 * has what is asked later); base_names: of the base, kept */
	struct b2b_name_index names, base_names;
	struct b2b_tag_index tags;	/* freed for the post-passes: rebuilt on demand */
	struct b2b_kfuncs kfuncs;
	struct b2b_plan plan;
	struct btf2btf_stats stats;
};

/* FUNC name of type id in btf or its base, NULL if id is no FUNC. */
const char *b2b_func_name(const struct b2b_btf *btf, __u32 id);
/* b->base, or NULL when there is none. */
static inline const struct b2b_btf *b2b_handle_base(const struct btf2btf *b)
{
	return b2b_btf_empty(&b->base) ? NULL : &b->base;
}
/* Every type id the handle holds, after a pass renumbered the types (old
 * id i is now map[i]; 0 and ids past nr stay). */
void b2b_handle_remap(struct btf2btf *b, const __u32 *map, __u32 nr);
/* Forget bytes laid out of a BTF (b->btf_out, b->base_out) it replaced. */
void b2b_bytes_forget(struct b2b_bytes *out);
#endif /* BTF2BTF_HANDLE_H */
