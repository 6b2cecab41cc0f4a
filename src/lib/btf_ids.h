/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* .BTF_ids: set8 ranges, their entries and each entry's flags word. */
#ifndef BTF2BTF_BTF_IDS_H
#define BTF2BTF_BTF_IDS_H

#include "arena.h"
#include "elf_file.h"

#define B2B_SET8_PREFIX "__BTF_ID__set8__"
#define B2B_FUNC_PREFIX "__BTF_ID__func__"

struct b2b_set8 {
	char *name;
	uint64_t off;		/* of the header, in .BTF_ids */
	uint64_t size;		/* header + pairs (the symbol's st_size) */
	uint32_t nr;		/* pairs, from the size */
	uint32_t flags;		/* BTF_SET8_* */
	bool resolved;		/* resolve_btfids wrote cnt and sorted the pairs */
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
	struct b2b_arena names;	/* of the sets, and entries' once moved here */
	/* the entries' names as parsed, until the names of the FUNCs found
	 * stand in for them (b2b_btf_ids_keep_names()) */
	struct b2b_arena entry_names;
};

/* Parse .BTF_ids and the symbol table; a missing section is not an error. */
int b2b_btf_ids_parse(struct b2b_elf *e, struct b2b_btf_ids *ids, const struct b2b_log *log);
void b2b_btf_ids_free(struct b2b_btf_ids *ids);
/* Every entry's name replaced by same_name(ctx, i), the same string kept
 * elsewhere as long as ids (NULL: none, it is copied into ids->names), and
 * the names as parsed freed. 0, or -ENOMEM with every name still valid. */
int b2b_btf_ids_keep_names(struct b2b_btf_ids *ids,
			   const char *(*same_name)(void *ctx, size_t i), void *ctx);

/* Function name from "__BTF_ID__func__<name>__<counter><line>" into buf. */
int b2b_btf_id_func_name(const char *sym, char *buf, size_t size);

#endif /* BTF2BTF_BTF_IDS_H */
