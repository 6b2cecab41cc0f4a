// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The externs of a BPF object that libbpf resolves against the kernel's BTF
 * at load: undefined symbols of the symbol table (weak or not) whose BTF
 * FUNC or VAR of extern linkage sits in DATASEC ".ksyms" (bpf_helpers.h's
 * __ksym), as libbpf's bpf_object__collect_externs() finds them. A kfunc's
 * prototype is its FUNC's FUNC_PROTO; a variable's type is taken past
 * modifiers and typedefs, and void means untyped (resolved from kallsyms,
 * not from BTF).
 */
#include <bpf/btf.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "cproto.h"
#include "prog_externs.h"

#ifndef EM_BPF
#define EM_BPF 247
#endif

bool prog_is_bpf_object(const char *path)
{
	unsigned char e[20];
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return false;
	n = read(fd, e, sizeof(e));
	close(fd);
	if (n != (ssize_t)sizeof(e) || memcmp(e, ELFMAG, SELFMAG))
		return false;
	/* e_machine, in the file's byte order (bpfel or bpfeb) */
	return (e[EI_DATA] == ELFDATA2MSB ? (e[18] << 8 | e[19]) : (e[19] << 8 | e[18])) == EM_BPF;
}

/* bpf_core_is_flavor_sep(): "X___Y", X and Y not underscores */
size_t prog_essential_len(const char *name)
{
	size_t n = strlen(name);

	for (size_t i = n >= 5 ? n - 5 + 1 : 0; i-- > 0;)
		if (name[i] != '_' && name[i + 1] == '_' && name[i + 2] == '_' &&
		    name[i + 3] == '_' && name[i + 4] != '_')
			return i + 1;
	return n;
}

/* The DATASEC holding type id, as libbpf's find_extern_sec_btf_id(). */
static const char *extern_section(const struct btf *btf, uint32_t id)
{
	uint32_t n = btf__type_cnt(btf);

	for (uint32_t i = 1; i < n; i++) {
		const struct btf_type *t = btf__type_by_id(btf, i);
		const struct btf_var_secinfo *vs;

		if (!btf_is_datasec(t))
			continue;
		vs = btf_var_secinfos(t);
		for (uint16_t j = 0; j < btf_vlen(t); j++, vs++)
			if (vs->type == id)
				return btf__name_by_offset(btf, t->name_off);
	}
	return NULL;
}

/* The FUNC or VAR of extern linkage named name, as libbpf's find_extern_btf_id(). */
static uint32_t extern_btf_id(const struct btf *btf, const char *name)
{
	uint32_t n = btf__type_cnt(btf);

	for (uint32_t i = 1; i < n; i++) {
		const struct btf_type *t = btf__type_by_id(btf, i);

		if (!btf_is_var(t) && !btf_is_func(t))
			continue;
		if (strcmp(btf__name_by_offset(btf, t->name_off), name))
			continue;
		if (btf_is_var(t) && btf_var(t)->linkage != BTF_VAR_GLOBAL_EXTERN)
			continue;
		/* a FUNC's vlen is its linkage */
		if (btf_is_func(t) && btf_vlen(t) != BTF_FUNC_EXTERN)
			continue;
		return i;
	}
	return 0;
}

static uint32_t skip_mods_and_typedefs(const struct btf *btf, uint32_t id)
{
	const struct btf_type *t = btf__type_by_id(btf, id);

	while (t && (btf_is_mod(t) || btf_is_typedef(t))) {
		id = t->type;
		t = btf__type_by_id(btf, id);
	}
	return id;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct prog_extern *)a)->name, ((const struct prog_extern *)b)->name);
}

/* One undefined symbol: an extern of .ksyms, or nothing to check. */
static int add_extern(struct prog *p, const char *name, bool weak)
{
	uint32_t id = extern_btf_id(p->btf, name);
	const struct btf_type *t = id ? btf__type_by_id(p->btf, id) : NULL;
	const char *sec = id ? extern_section(p->btf, id) : NULL;
	struct prog_extern *e, *grown;

	/* .kconfig and BPF-to-BPF externs are not the kernel's to resolve */
	if (!t || !sec || strcmp(sec, ".ksyms"))
		return 0;
	grown = realloc(p->ext, (p->nr + 1) * sizeof(*p->ext));
	if (!grown)
		return -ENOMEM;
	p->ext = grown;
	e = &p->ext[p->nr];
	memset(e, 0, sizeof(*e));
	e->func = btf_is_func(t);
	e->weak = weak;
	e->name = strdup(name);
	e->essent = strndup(name, e->func ? prog_essential_len(name) : strlen(name));
	if (e->func) {
		e->type_id = t->type;
		e->typed = true;
		e->decl = cproto_func(p->btf, t->type, name, -1);
	} else {
		e->type_id = skip_mods_and_typedefs(p->btf, t->type);
		e->typed = e->type_id != 0;
		e->decl = cproto_type(p->btf, t->type);
	}
	p->nr++;
	if (!e->name || !e->essent || !e->decl)
		return -ENOMEM;
	return 0;
}

static int read_symbols(struct prog *p, Elf *elf)
{
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		Elf_Data *data;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB)
			continue;
		data = elf_getdata(scn, NULL);
		if (!data || !sh.sh_entsize)
			return -EINVAL;
		for (size_t i = 1; i < sh.sh_size / sh.sh_entsize; i++) {
			GElf_Sym sym;
			const char *name;
			int bind, err;

			if (!gelf_getsym(data, (int)i, &sym))
				return -EINVAL;
			bind = GELF_ST_BIND(sym.st_info);
			if (sym.st_shndx != SHN_UNDEF || (bind != STB_GLOBAL && bind != STB_WEAK))
				continue;
			name = elf_strptr(elf, sh.sh_link, sym.st_name);
			if (!name || !*name)
				continue;
			err = add_extern(p, name, bind == STB_WEAK);
			if (err)
				return err;
		}
		return 0;
	}
	return 0;
}

int prog_load(struct prog *p, const char *path)
{
	Elf *elf = NULL;
	int fd, err;

	memset(p, 0, sizeof(*p));
	p->path = path;
	if (!prog_is_bpf_object(path))
		return 1;
	p->btf = btf__parse_elf(path, NULL);
	if (!p->btf) {
		err = errno;
		/* no .BTF section: libbpf 1.1-1.4 say ENOENT, 1.5 on ENODATA */
		if (err == ENOENT || err == ENODATA)
			cli_error("%s: a BPF object without BTF (no .BTF section): libbpf cannot "
				  "resolve its externs either; compile it with clang -g", path);
		else
			cli_error("%s: cannot read the BPF object's BTF: %s", path, strerror(err));
		return 2;
	}
	elf_version(EV_CURRENT);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd >= 0)
		elf = elf_begin(fd, ELF_C_READ, NULL);
	err = elf ? read_symbols(p, elf) : -errno;
	if (elf)
		elf_end(elf);
	if (fd >= 0)
		close(fd);
	if (err) {
		cli_error("%s: cannot read the BPF object's symbols: %s", path,
			  err == -EINVAL ? "malformed symbol table" : strerror(err ? -err : EIO));
		return 2;
	}
	if (p->nr)
		qsort(p->ext, p->nr, sizeof(*p->ext), by_name);
	return 0;
}

void prog_free(struct prog *p)
{
	for (size_t i = 0; i < p->nr; i++) {
		free(p->ext[i].name);
		free(p->ext[i].essent);
		free(p->ext[i].decl);
	}
	free(p->ext);
	btf__free(p->btf);
	memset(p, 0, sizeof(*p));
}
