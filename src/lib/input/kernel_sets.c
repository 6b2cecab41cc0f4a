// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Which kernel an object belongs to, and the kfunc sets of kernels 6.0-6.8.
 *
 * set8s came with 6.0, the BTF_SET8_KFUNCS flag with 6.9: before it a set8
 * is a kfunc set because the code registers it as one, through a
 *
 *	static const struct btf_kfunc_id_set x = {
 *		.owner = THIS_MODULE,	(NULL in vmlinux)
 *		.set   = &the_set8,
 *	};
 *	register_btf_kfunc_id_set(prog_type, &x);
 *
 * From 6.3 the same struct also carries fmod_ret allow-lists
 * (register_btf_fmodret_id_set(&x): bpf_test_modify_return_ids, HID-BPF's,
 * MPTCP's), which are no kfunc sets. The rule, for an unflagged set8 of a
 * kernel from 6.0 to 6.8:
 *   - a module or vmlinux.o (relocations): a pointer-sized relocation to the
 *     set8 in a data section, one pointer into an object whose first word is
 *     a relocation to __this_module or zero (the owner), is a btf_kfunc_id_set;
 *     it is an fmod_ret allow-list when the code that takes its address
 *     calls register_btf_fmodret_id_set() next (the first register_btf_*
 *     relocation after it in that code section), else a kfunc set;
 *   - a linked vmlinux with a symbol table (no relocations): a data word
 *     holding the set8's address after a NULL owner word is a
 *     btf_kfunc_id_set, taken as a kfunc set (the registering call cannot be
 *     told without disassembling: an fmod_ret list of 6.3-6.8 counts too).
 * Set8s no btf_kfunc_id_set points at stay what they are: no kfunc sets.
 * The transform keeps upstream's rule (flagged set8s only): this is read
 * for the views (kfuncs.c, plan.c: b2b_set8_lists_kfuncs()).
 */
#include <endian.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "input/kernel_sets.h"

/* ---- version ---- */

/* "6.1.0-50-cloud-amd64 ..." : KERNEL_VERSION(6, 1), the release up to a space. */
static void parse_release(const char *p, size_t len, struct b2b_btf_ids *ids)
{
	unsigned long major = 0, minor = 0;
	size_t i = 0, n;

	while (i < len && p[i] >= '0' && p[i] <= '9' && major < 1000)
		major = major * 10 + (p[i++] - '0');
	if (!i || i >= len || p[i++] != '.' || i >= len || p[i] < '0' || p[i] > '9')
		return;
	while (i < len && p[i] >= '0' && p[i] <= '9' && minor < 1000)
		minor = minor * 10 + (p[i++] - '0');
	if (major > 255 || minor > 255)
		return;
	ids->kernel_version = B2B_KERNEL_VERSION(major, minor);
	for (n = 0; n < len && p[n] && p[n] != ' ' && n + 1 < sizeof(ids->kernel_release); n++)
		;
	memcpy(ids->kernel_release, p, n);
	ids->kernel_release[n] = '\0';
}

void b2b_kernel_version_read(struct b2b_elf *e, struct b2b_btf_ids *ids)
{
	static const char vermagic[] = "vermagic=", banner[] = "Linux version ";
	struct b2b_section sec;
	const char *p, *end;

	ids->module = !b2b_elf_section(e, ".modinfo", &sec, NULL) ||
		      !b2b_elf_section(e, ".gnu.linkonce.this_module", &sec, NULL);
	if (!b2b_elf_section(e, ".modinfo", &sec, NULL) && sec.data) {
		p = sec.data;
		end = p + sec.size;
		/* NUL-separated key=value strings */
		for (; p < end; p += strnlen(p, end - p) + 1) {
			if ((size_t)(end - p) > strlen(vermagic) &&
			    !memcmp(p, vermagic, strlen(vermagic))) {
				p += strlen(vermagic);
				parse_release(p, strnlen(p, end - p), ids);
				return;
			}
		}
	}
	if (b2b_elf_section(e, ".rodata", &sec, NULL) || !sec.data)
		return;
	p = sec.data;
	end = p + sec.size;
	/* linux_banner: "Linux version 6.1.0-50-cloud-amd64 (...)" */
	while ((p = memmem(p, end - p, banner, strlen(banner)))) {
		p += strlen(banner);
		if (p < end && *p >= '0' && *p <= '9') {
			parse_release(p, strnlen(p, end - p), ids);
			break;
		}
	}
	b2b_elf_release(e, sec.data, sec.size);
}

/* ---- relocations (modules, vmlinux.o) ---- */

struct rel {
	uint64_t off;
	uint64_t sym;		/* symbol index */
	int64_t addend;
};

struct relsec {
	size_t target;		/* section the relocations apply to */
	bool code;		/* target is SHF_EXECINSTR */
	struct rel *rels;
	size_t nr;
};

struct idset {
	size_t sec;		/* section of the struct btf_kfunc_id_set */
	uint64_t start;		/* its offset there */
	uint32_t set;		/* the set8 its .set points at */
	uint8_t reg;		/* B2B_REG_*, B2B_REG_NONE: no registration seen */
};

struct scan {
	struct b2b_elf *e;
	const struct b2b_symtab *symtab;
	struct relsec *secs;
	size_t nr_secs;
	struct idset *idsets;
	size_t nr_idsets, cap_idsets;
	unsigned int ptr;	/* pointer size */
};

static bool symbol(const struct scan *s, uint64_t i, GElf_Sym *sym, const char **name)
{
	if (i >= s->symtab->count || !gelf_getsym(s->symtab->data, (int)i, sym))
		return false;
	if (!name)
		return true;
	if (!sym->st_name)
		*name = NULL;
	else if (s->symtab->strs)
		*name = sym->st_name < s->symtab->strs_size ? s->symtab->strs + sym->st_name : NULL;
	else
		*name = elf_strptr(s->e->elf, s->symtab->strndx, sym->st_name);
	return true;
}

/* The word at off of section index (REL: the implicit addend), 0 if unread. */
static uint64_t section_word(struct b2b_elf *e, size_t index, uint64_t off, unsigned int size)
{
	Elf_Scn *scn = elf_getscn(e->elf, index);
	Elf_Data *d = scn ? elf_rawdata(scn, NULL) : NULL;
	uint64_t v = 0;

	if (!d || !d->d_buf || off > d->d_size || d->d_size - off < size)
		return 0;
	if (size == 4)
		return b2b_elf_word(e, (const char *)d->d_buf + off);
	memcpy(&v, (const char *)d->d_buf + off, 8);
	return e->big_endian ? be64toh(v) : le64toh(v);
}

static int read_relocs(struct scan *s, size_t btf_ids_index)
{
	size_t cap = 0;

	for (Elf_Scn *scn = NULL; (scn = elf_nextscn(s->e->elf, scn));) {
		Elf_Scn *tscn;
		GElf_Shdr sh, th;
		Elf_Data *d;
		struct relsec *r;
		size_t n;

		if (!gelf_getshdr(scn, &sh) || (sh.sh_type != SHT_RELA && sh.sh_type != SHT_REL) ||
		    !sh.sh_entsize || sh.sh_info == btf_ids_index)
			continue;
		tscn = elf_getscn(s->e->elf, sh.sh_info);
		if (!tscn || !gelf_getshdr(tscn, &th) || !(th.sh_flags & SHF_ALLOC) ||
		    th.sh_type == SHT_NOBITS)
			continue;
		d = elf_getdata(scn, NULL);
		if (!d)
			continue;
		if (b2b_grow((void **)&s->secs, &cap, s->nr_secs + 1, sizeof(*s->secs)))
			return -ENOMEM;
		r = &s->secs[s->nr_secs++];
		memset(r, 0, sizeof(*r));
		r->target = sh.sh_info;
		r->code = th.sh_flags & SHF_EXECINSTR;
		n = sh.sh_size / sh.sh_entsize;
		r->rels = b2b_malloc(n * sizeof(*r->rels));
		if (!r->rels)
			return -ENOMEM;
		for (size_t i = 0; i < n; i++) {
			struct rel *x = &r->rels[r->nr];

			if (sh.sh_type == SHT_RELA) {
				GElf_Rela rela;

				if (!gelf_getrela(d, (int)i, &rela))
					continue;
				*x = (struct rel){ rela.r_offset, GELF_R_SYM(rela.r_info), rela.r_addend };
			} else {
				GElf_Rel rel;

				if (!gelf_getrel(d, (int)i, &rel))
					continue;
				*x = (struct rel){ rel.r_offset, GELF_R_SYM(rel.r_info),
					(int64_t)section_word(s->e, sh.sh_info, rel.r_offset, s->ptr) };
			}
			r->nr++;
		}
	}
	return 0;
}

/* The relocation of r at off, NULL if none. */
static const struct rel *reloc_at(const struct relsec *r, uint64_t off)
{
	for (size_t i = 0; i < r->nr; i++)
		if (r->rels[i].off == off)
			return &r->rels[i];
	return NULL;
}

/* Where relocation x points: section index and offset (symbol + addend). */
static bool reloc_target(const struct scan *s, const struct rel *x, size_t *sec, uint64_t *off)
{
	GElf_Sym sym;

	if (!symbol(s, x->sym, &sym, NULL) || sym.st_shndx == SHN_UNDEF || sym.st_shndx >= SHN_LORESERVE)
		return false;
	*sec = sym.st_shndx;
	*off = sym.st_value + x->addend;
	return true;
}

static bool reloc_names(const struct scan *s, const struct rel *x, const char *name)
{
	const char *n;
	GElf_Sym sym;

	return symbol(s, x->sym, &sym, &n) && n && !strcmp(n, name);
}

/* Pointers to unflagged set8s from data, one pointer into an object whose
 * owner word is __this_module or NULL: the btf_kfunc_id_sets. */
static int find_idsets(struct scan *s, const struct b2b_section *sec, const struct b2b_btf_ids *ids)
{
	for (size_t k = 0; k < s->nr_secs; k++) {
		const struct relsec *r = &s->secs[k];

		if (r->code)
			continue;
		for (size_t i = 0; i < r->nr; i++) {
			const struct rel *x = &r->rels[i], *owner;
			uint64_t off;
			size_t tsec;

			if (x->off < s->ptr || !reloc_target(s, x, &tsec, &off) || tsec != sec->index)
				continue;
			for (uint32_t set = 0; set < ids->nr_sets; set++) {
				if (ids->sets[set].off != off || (ids->sets[set].flags & BTF2BTF_SET8_KFUNCS))
					continue;
				owner = reloc_at(r, x->off - s->ptr);
				if (owner ? !reloc_names(s, owner, "__this_module")
					  : section_word(s->e, r->target, x->off - s->ptr, s->ptr) != 0)
					continue;
				if (b2b_grow((void **)&s->idsets, &s->cap_idsets, s->nr_idsets + 1,
					     sizeof(*s->idsets)))
					return -ENOMEM;
				s->idsets[s->nr_idsets++] = (struct idset){ r->target, x->off - s->ptr, set, 0 };
			}
		}
	}
	return 0;
}

/* What the code that takes the address of idset d calls next: the first
 * register_btf_* relocation after each reference, in its code section. */
static void find_registrations(struct scan *s, struct idset *d)
{
	for (size_t k = 0; k < s->nr_secs; k++) {
		const struct relsec *r = &s->secs[k];

		if (!r->code)
			continue;
		for (size_t i = 0; i < r->nr; i++) {
			const struct rel *x = &r->rels[i], *next = NULL;
			uint64_t off;
			size_t tsec;
			const char *n;
			GElf_Sym sym;

			/* absolute (addend: the offset) or PC-relative (offset - 4) */
			if (!reloc_target(s, x, &tsec, &off) || tsec != d->sec ||
			    (off != d->start && off + 4 != d->start))
				continue;
			for (size_t j = 0; j < r->nr; j++) {
				const struct rel *y = &r->rels[j];

				if (y->off <= x->off || (next && y->off >= next->off))
					continue;
				if (symbol(s, y->sym, &sym, &n) && n && !strncmp(n, "register_btf_", 13))
					next = y;
			}
			if (!next)
				continue;
			if (reloc_names(s, next, "register_btf_kfunc_id_set"))
				d->reg = B2B_REG_KFUNCS;
			else if (reloc_names(s, next, "register_btf_fmodret_id_set") && !d->reg)
				d->reg = B2B_REG_FMODRET;
		}
	}
}

static int classify_relocatable(struct scan *s, const struct b2b_section *sec,
				struct b2b_btf_ids *ids)
{
	int err = read_relocs(s, sec->index);

	if (!err)
		err = find_idsets(s, sec, ids);
	for (size_t i = 0; i < s->nr_idsets && !err; i++) {
		struct idset *d = &s->idsets[i];
		struct b2b_set8 *set = &ids->sets[d->set];

		find_registrations(s, d);
		/* no call seen (registered from another object): a kfunc set */
		if (d->reg != B2B_REG_FMODRET)
			set->registered = B2B_REG_KFUNCS;
		else if (set->registered != B2B_REG_KFUNCS)
			set->registered = B2B_REG_FMODRET;
	}
	for (size_t i = 0; i < s->nr_secs; i++)
		free(s->secs[i].rels);
	free(s->secs);
	free(s->idsets);
	return err;
}

/* ---- a linked vmlinux with symbols: data words ---- */

static void classify_linked(struct scan *s, const struct b2b_section *sec, struct b2b_btf_ids *ids)
{
	for (Elf_Scn *scn = NULL; (scn = elf_nextscn(s->e->elf, scn));) {
		GElf_Shdr sh;
		Elf_Data *d;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_PROGBITS ||
		    !(sh.sh_flags & SHF_ALLOC) || (sh.sh_flags & SHF_EXECINSTR) ||
		    elf_ndxscn(scn) == sec->index || sh.sh_addr % s->ptr)
			continue;
		d = elf_rawdata(scn, NULL);
		if (!d || !d->d_buf)
			continue;
		for (uint64_t off = s->ptr; off + s->ptr <= d->d_size; off += s->ptr) {
			uint64_t w = section_word(s->e, elf_ndxscn(scn), off, s->ptr), rel;

			if (w < sec->shdr.sh_addr || w - sec->shdr.sh_addr >= sec->size)
				continue;
			rel = w - sec->shdr.sh_addr;
			for (uint32_t i = 0; i < ids->nr_sets; i++)
				if (ids->sets[i].off == rel && !(ids->sets[i].flags & BTF2BTF_SET8_KFUNCS) &&
				    !section_word(s->e, elf_ndxscn(scn), off - s->ptr, s->ptr))
					ids->sets[i].registered = B2B_REG_KFUNCS;
		}
		b2b_elf_release(s->e, d->d_buf, d->d_size);
	}
}

int b2b_kernel_sets_classify(struct b2b_elf *e, const struct b2b_section *sec,
			     const struct b2b_symtab *symtab, struct b2b_btf_ids *ids,
			     const struct b2b_log *log)
{
	struct scan s = { .e = e, .symtab = symtab,
			  .ptr = gelf_getclass(e->elf) == ELFCLASS64 ? 8 : 4 };
	bool unflagged = false;
	int err = 0;

	for (size_t i = 0; i < ids->nr_sets; i++)
		unflagged |= !(ids->sets[i].flags & BTF2BTF_SET8_KFUNCS);
	if (!unflagged || ids->kernel_version < B2B_KERNEL_VERSION(6, 0) ||
	    ids->kernel_version >= B2B_KERNEL_VERSION(6, 9))
		return 0;
	if (e->ehdr.e_type == ET_REL)
		err = classify_relocatable(&s, sec, ids);
	else
		classify_linked(&s, sec, ids);
	if (err)
		return b2b_errno(log, err, "out of memory");
	for (size_t i = 0; i < ids->nr_sets; i++) {
		ids->nr_kfunc_id_sets += ids->sets[i].registered == B2B_REG_KFUNCS;
		ids->nr_fmodret_sets += ids->sets[i].registered == B2B_REG_FMODRET;
	}
	return 0;
}
