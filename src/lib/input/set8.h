/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * What .BTF_ids holds, as read: set8s, their entries, and the kernel the
 * object belongs to. btf_ids.c fills it in from the section and the symbol
 * table, kernel_sets.c adds what a 6.0-6.8 kernel registers each set8 as;
 * the kfunc table and the plan read it.
 */
#ifndef BTF2BTF_SET8_H
#define BTF2BTF_SET8_H

#include "util/arena.h"

struct b2b_set8 {
	char *name;
	uint64_t off;		/* of the header, in .BTF_ids */
	uint64_t size;		/* header + pairs (the symbol's st_size) */
	uint32_t nr;		/* pairs, from the size */
	uint32_t flags;		/* BTF_SET8_* */
	bool resolved;		/* resolve_btfids wrote cnt and sorted the pairs */
	/* an unflagged set8 of a 6.0-6.8 kernel (no BTF_SET8_KFUNCS yet): what
	 * the struct btf_kfunc_id_set pointing at it registers it as (kernel_sets.c) */
	uint8_t registered;	/* B2B_REG_* */
};

enum {
	B2B_REG_NONE,		/* flagged, a kernel from 6.9 (or unknown), or no id set */
	B2B_REG_KFUNCS,		/* register_btf_kfunc_id_set(): a kfunc set */
	B2B_REG_FMODRET,	/* register_btf_fmodret_id_set(): an fmod_ret allow-list */
};

/* One (id, flags) pair of a set8 as we could attribute it to a function. */
struct b2b_set8_entry {
	const char *name;	/* unresolved object: from the entry's symbol */
	uint32_t off;		/* of the pair, in .BTF_ids (at most 4 GiB, checked) */
	uint32_t set;		/* index in b2b_btf_ids.sets */
	uint32_t id;		/* resolved object: the id the pair holds */
	uint32_t flags;
};

struct b2b_btf_ids {
	struct b2b_set8 *sets;
	size_t nr_sets;
	struct b2b_set8_entry *entries;
	size_t nr_entries;
	struct b2b_arena names;	/* of the sets and the entries, owned here */
	/* what the object is (btf2btf__object_info()) */
	bool has_section;	/* .BTF_ids */
	bool has_symtab;
	uint32_t kernel_version;	/* KERNEL_VERSION(major, minor, 0), 0: unknown */
	char kernel_release[80];	/* "" when unknown */
	bool module;			/* .modinfo or .gnu.linkonce.this_module */
	unsigned int nr_kfunc_id_sets, nr_fmodret_sets;
};

/* The set8 lists kfuncs: flagged BTF_SET8_KFUNCS (upstream's rule, the
 * transform's), or registered as a kfunc set by a 6.0-6.8 kernel (views). */
static inline bool b2b_set8_lists_kfuncs(const struct b2b_set8 *set)
{
	return (set->flags & BTF2BTF_SET8_KFUNCS) || set->registered == B2B_REG_KFUNCS;
}

#endif /* BTF2BTF_SET8_H */
