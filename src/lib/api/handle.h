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

/*
 * What was opened, which nothing after the open changes: the file, its
 * ELF (NULL when it is raw BTF), its .BTF_ids and what the open found of
 * them (btf2btf__object_info()). Freed by b2b_object_free(), after the
 * result (whose BTF may be read in place in the file).
 */
struct b2b_object {
	char *path;			/* the object (or raw BTF) named on the command line */
	char *btf_path;			/* raw BTF used instead of the object's .BTF */
	struct b2b_elf *elf;		/* NULL when path is raw BTF */
	size_t btf_index;		/* .BTF section index in elf */
	struct b2b_btf_ids ids;
	struct btf2btf_object_info info;	/* made at open */
};

/*
 * The BTF the handle holds: as read, then the transform's result, which the
 * writers take as it is; its base and the layout it was read in. Freed by
 * b2b_result_free(). libbpf's struct btf of it is made only when a caller
 * asks (btf2btf__btf()).
 */
struct b2b_result {
	/* split on base when base is not empty: the edit laid it out and the
	 * post-passes rewrote it */
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
	/* distill: a transform distills base (opts.distill_base, or a module
	 * read on its own .BTF.base and relocated); distilled: base is a
	 * distilled one, written with the BTF */
	bool distill, distilled;
	bool transformed, changed;
};

struct btf2btf {
	struct b2b_log log;
	struct b2b_object obj;
	struct b2b_result res;
	/* the decl tags of the BTF read, which the plan and the edit look up;
	 * freed once a pass renumbers the types */
	struct b2b_tag_index tags;
	/* names the set8 entries ask for in the base, kept for the set8 view */
	struct b2b_name_index base_names;
	struct b2b_kfuncs kfuncs;
	struct b2b_plan plan;
	struct btf2btf_stats stats;
	struct btf2btf_set8_entry *set8_view;	/* btf2btf__set8_entry(), made on first use */
};

/* b->res.base, or NULL when there is none. */
static inline const struct b2b_btf *b2b_handle_base(const struct btf2btf *b)
{
	return b2b_btf_empty(&b->res.base) ? NULL : &b->res.base;
}
/* Every type id the handle holds, after a pass renumbered the types (old
 * id i is now map[i]; 0 and ids past nr stay). */
void b2b_handle_remap(struct btf2btf *b, const __u32 *map, __u32 nr);
/* Forget bytes laid out of a BTF (res.btf_out, res.base_out) it replaced. */
void b2b_bytes_forget(struct b2b_bytes *out);
/* Where the distilled base of BTF at path is (read beside a raw FILE, or
 * written when no one says): path + ".base", as 7.3's resolve_btfids and
 * gen-btf.sh write X.BTF and X.BTF.base. malloc'd, NULL on ENOMEM. */
char *b2b_base_path_of(const char *path);
void b2b_object_free(struct b2b_object *obj);
void b2b_result_free(struct b2b_result *res);
#endif /* BTF2BTF_HANDLE_H */
