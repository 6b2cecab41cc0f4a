// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * .BTF_ids as include/linux/btf_ids.h (6.12) lays it out:
 *
 *   __BTF_ID__set8__<set>:          u32 cnt (0 until resolve_btfids), u32 flags
 *   __BTF_ID__func__<name>__<N>:    u32 id  (0 until resolve_btfids), u32 flags
 *   ...                             st_size of the set8 symbol = 8 + 8 * pairs
 *
 * An unresolved object's pairs are attributed by their symbols. resolve_btfids
 * sorts every set8's pairs by id, after which a symbol no longer marks its own
 * pair: a resolved set8 is read by the ids its pairs hold.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "input/btf_ids.h"
#include "input/kernel_sets.h"

#define SET8_HDR 8
#define PAIR 8

int b2b_btf_id_func_name(const char *sym, char *buf, size_t size)
{
	const char *name = sym + strlen(B2B_FUNC_PREFIX);
	const char *sep;
	size_t len;

	if (strncmp(sym, B2B_FUNC_PREFIX, strlen(B2B_FUNC_PREFIX)))
		return -EINVAL;
	/* the counter and line glued together follow the last "__": digits
	 * back from the end, then that "__" (one backward pass, no strstr) */
	len = strlen(name);
	sep = name + len;
	while (sep > name && isdigit((unsigned char)sep[-1]))
		sep--;
	if (sep == name + len || sep - name < 3 || sep[-1] != '_' || sep[-2] != '_')
		return -EINVAL;
	sep -= 2;
	len = sep - name;
	if (len >= size)
		return -ENAMETOOLONG;
	memcpy(buf, name, len);
	buf[len] = '\0';
	return 0;
}

static int cmp_set_off(const void *a, const void *b)
{
	const struct b2b_set8 *x = a, *y = b;

	return x->off < y->off ? -1 : x->off > y->off;
}

static int cmp_entry(const void *a, const void *b)
{
	const struct b2b_set8_entry *x = a, *y = b;

	if (x->set != y->set)
		return x->set < y->set ? -1 : 1;
	return x->off < y->off ? -1 : x->off > y->off;
}

static bool entries_sorted(const struct b2b_btf_ids *ids)
{
	for (size_t i = 1; i < ids->nr_entries; i++)
		if (cmp_entry(&ids->entries[i - 1], &ids->entries[i]) > 0)
			return false;
	return true;
}

/* The set8 whose range holds off, or -1. sets are sorted and disjoint. */
static long find_set8(const struct b2b_btf_ids *ids, uint64_t off)
{
	size_t lo = 0, hi = ids->nr_sets;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (ids->sets[mid].off <= off)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return -1;
	lo--;
	return off < ids->sets[lo].off + ids->sets[lo].size ? (long)lo : -1;
}

static int add_entry(struct b2b_btf_ids *ids, size_t *cap, const struct b2b_set8_entry *ent)
{
	if (b2b_grow((void **)&ids->entries, cap, ids->nr_entries + 1, sizeof(*ent)))
		return -ENOMEM;
	ids->entries[ids->nr_entries++] = *ent;
	return 0;
}

static int collect_sets(struct b2b_elf *e, const struct b2b_section *sec,
			const struct b2b_symtab *symtab, struct b2b_btf_ids *ids,
			const struct b2b_log *log)
{
	size_t cap = 0;

	for (size_t i = 0; i < symtab->count; i++) {
		const char *name;
		struct b2b_set8 *set;
		uint64_t off;
		GElf_Sym sym;
		int in;

		in = b2b_elf_sym_in(e, symtab, i, sec->index, &sym, &name);
		if (in < 0)
			return b2b_errno(log, -EINVAL, "cannot read symbol %zu", i);
		if (!in || !name || strncmp(name, B2B_SET8_PREFIX, strlen(B2B_SET8_PREFIX)))
			continue;
		if (!name[strlen(B2B_SET8_PREFIX)])
			return b2b_errno(log, -EINVAL, ".BTF_ids: set8 symbol %s has no set name", name);
		off = sym.st_value - sec->shdr.sh_addr;
		if (sym.st_value < sec->shdr.sh_addr || off > sec->size ||
		    sym.st_size > sec->size - off)
			return b2b_errno(log, -EINVAL,
					 ".BTF_ids: set8 %s (offset %llu, size %llu) runs past the section end (%zu bytes)",
					 name, (unsigned long long)off,
					 (unsigned long long)sym.st_size, sec->size);
		if (sym.st_size < SET8_HDR || (sym.st_size - SET8_HDR) % PAIR || off % 4)
			return b2b_errno(log, -EINVAL,
					 ".BTF_ids: set8 %s has size %llu at offset %llu, not an 8-byte header plus 8-byte pairs",
					 name, (unsigned long long)sym.st_size, (unsigned long long)off);
		if (b2b_grow((void **)&ids->sets, &cap, ids->nr_sets + 1, sizeof(*set)))
			return -ENOMEM;
		set = &ids->sets[ids->nr_sets];
		memset(set, 0, sizeof(*set));
		set->name = b2b_arena_strdup(&ids->names, name + strlen(B2B_SET8_PREFIX));
		if (!set->name)
			return -ENOMEM;
		ids->nr_sets++;
		set->off = off;
		set->size = sym.st_size;
		set->nr = (sym.st_size - SET8_HDR) / PAIR;
	}
	if (ids->nr_sets)	/* qsort(NULL, 0) is undefined */
		qsort(ids->sets, ids->nr_sets, sizeof(*ids->sets), cmp_set_off);

	for (size_t i = 0; i < ids->nr_sets; i++) {
		struct b2b_set8 *set = &ids->sets[i];
		const char *p = (const char *)sec->data + set->off;
		uint32_t cnt = b2b_elf_word(e, p);

		if (i && set->off < ids->sets[i - 1].off + ids->sets[i - 1].size)
			return b2b_errno(log, -EINVAL, ".BTF_ids: set8 %s overlaps set8 %s",
					 set->name, ids->sets[i - 1].name);
		if (cnt && cnt != set->nr)
			return b2b_errno(log, -EINVAL,
					 ".BTF_ids: set8 %s says cnt=%u but its size holds %u pairs",
					 set->name, cnt, set->nr);
		set->flags = b2b_elf_word(e, p + 4);
		set->resolved = cnt != 0;
	}
	return 0;
}

static int collect_entries(struct b2b_elf *e, const struct b2b_section *sec,
			   const struct b2b_symtab *symtab, struct b2b_btf_ids *ids,
			   const struct b2b_log *log)
{
	char fname[BTF2BTF_KSYM_NAME_LEN];
	size_t cap = 0, pairs = 0;

	/* one entry per pair at most (two symbols on one pair are refused
	 * below): room for all of them at once, not grown by doubling */
	for (size_t s = 0; s < ids->nr_sets; s++)
		pairs += ids->sets[s].nr;
	if (pairs && b2b_grow((void **)&ids->entries, &cap, pairs, sizeof(*ids->entries)))
		return -ENOMEM;

	/* resolved sets: pairs by the ids they hold */
	for (size_t s = 0; s < ids->nr_sets; s++) {
		const struct b2b_set8 *set = &ids->sets[s];

		if (!set->resolved)
			continue;
		for (uint32_t i = 0; i < set->nr; i++) {
			uint64_t off = set->off + SET8_HDR + (uint64_t)i * PAIR;
			const char *p = (const char *)sec->data + off;
			struct b2b_set8_entry ent = {
				.set = s, .off = (uint32_t)off,
				.id = b2b_elf_word(e, p), .flags = b2b_elf_word(e, p + 4),
			};

			if (add_entry(ids, &cap, &ent))
				return -ENOMEM;
		}
	}

	/* unresolved sets: pairs by their symbols */
	for (size_t i = 0; i < symtab->count; i++) {
		struct b2b_set8_entry ent = { 0 };
		const struct b2b_set8 *set;
		const char *name;
		uint64_t off, rel;
		GElf_Sym sym;
		long s;
		int in;

		in = b2b_elf_sym_in(e, symtab, i, sec->index, &sym, &name);
		if (in < 0)
			return b2b_errno(log, -EINVAL, "cannot read symbol %zu", i);
		if (!in || !name || strncmp(name, B2B_FUNC_PREFIX, strlen(B2B_FUNC_PREFIX)))
			continue;
		off = sym.st_value - sec->shdr.sh_addr;
		if (sym.st_value < sec->shdr.sh_addr || off > sec->size || sec->size - off < 4)
			return b2b_errno(log, -EINVAL,
					 ".BTF_ids: symbol %s (offset %llu) lies outside the section (%zu bytes)",
					 name, (unsigned long long)off, sec->size);
		s = find_set8(ids, off);
		if (s < 0)
			continue;	/* a BTF_ID list or set entry: no flags */
		set = &ids->sets[s];
		rel = off - set->off;
		if (rel < SET8_HDR || rel % PAIR)
			return b2b_errno(log, -EINVAL,
					 ".BTF_ids: symbol %s at offset %llu is not on a pair of set8 %s",
					 name, (unsigned long long)off, set->name);
		if (set->resolved)
			continue;
		if (b2b_btf_id_func_name(name, fname, sizeof(fname))) {
			b2b_warn(log, ".BTF_ids: cannot parse symbol name %s, ignored", name);
			continue;
		}
		ent.set = s;
		ent.off = (uint32_t)off;
		ent.flags = b2b_elf_word(e, (const char *)sec->data + off + 4);
		ent.name = b2b_arena_strdup(&ids->names, fname);
		if (!ent.name || add_entry(ids, &cap, &ent))
			return -ENOMEM;
	}
	/* the symbol table lists a set8's symbols by address as a rule: sort
	 * only when it does not */
	if (!entries_sorted(ids))
		qsort(ids->entries, ids->nr_entries, sizeof(*ids->entries), cmp_entry);
	for (size_t i = 1; i < ids->nr_entries; i++)
		if (ids->entries[i].off == ids->entries[i - 1].off)
			return b2b_errno(log, -EINVAL, ".BTF_ids: two symbols mark the pair at offset %llu",
					 (unsigned long long)ids->entries[i].off);
	return 0;
}

int b2b_btf_ids_parse(struct b2b_elf *e, struct b2b_btf_ids *ids, const struct b2b_log *log)
{
	struct b2b_symtab symtab;
	struct b2b_section sec;
	int err;

	memset(ids, 0, sizeof(*ids));
	err = b2b_elf_section(e, ".BTF_ids", &sec, log);
	if (err == -ENOENT)
		return 0;
	if (err)
		return err;
	if (sec.size % 4)
		return b2b_errno(log, -EINVAL, ".BTF_ids: size %zu is not a multiple of 4", sec.size);
	/* an entry keeps its offset in 32 bits (a 24-byte entry, not 32) */
	if (sec.size > UINT32_MAX)
		return b2b_errno(log, -E2BIG, ".BTF_ids: %zu bytes, more than the 4 GiB a set8 entry can address",
				 sec.size);
	ids->has_section = true;
	b2b_kernel_version_read(e, ids);
	/* 5.x kfunc id sets are BTF_SET lists (one per kind of flag), not set8s */
	if (ids->kernel_version && ids->kernel_version < B2B_KERNEL_VERSION(6, 0))
		return b2b_errno(log, -ENOTSUP,
				 "Linux %s: kernels before 6.0 have no set8s (their kfunc id sets are BTF_SET lists without flags): not supported",
				 ids->kernel_release);
	err = b2b_elf_symtab(e, &symtab, log);
	if (err == -ENOENT) {
		b2b_warn(log, "has .BTF_ids but no symbol table: set8 flags cannot be read");
		return 0;
	}
	if (err)
		return err;
	ids->has_symtab = true;
	err = collect_sets(e, &sec, &symtab, ids, log);
	if (!err)
		err = collect_entries(e, &sec, &symtab, ids, log);
	if (!err)
		err = b2b_kernel_sets_classify(e, &sec, &symtab, ids, log);
	/* names, flags and ids were copied: the symbol table, its strings
	 * and the section are not read again */
	b2b_elf_release(e, symtab.data->d_buf, symtab.data->d_size);
	if (symtab.strs)
		b2b_elf_release(e, symtab.strs, symtab.strs_size);
	b2b_elf_release(e, sec.data, sec.size);
	if (err == -ENOMEM)
		b2b_err(log, "out of memory");
	if (err)
		b2b_btf_ids_free(ids);
	return err;
}

void b2b_btf_ids_free(struct b2b_btf_ids *ids)
{
	b2b_arena_free(&ids->names);
	free(ids->sets);
	free(ids->entries);
	memset(ids, 0, sizeof(*ids));
}
