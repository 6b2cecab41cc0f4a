/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* The kfunc and ksym externs of a BPF object, as libbpf collects them at open. */
#ifndef BTF2BTF_PROG_EXTERNS_H
#define BTF2BTF_PROG_EXTERNS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct btf;

struct prog_extern {
	char *name;		/* the symbol, as the object names it */
	char *essent;		/* a kfunc's name without a "___flavour" suffix */
	bool func;		/* a kfunc (FUNC); else a __ksym variable (VAR) */
	bool weak;		/* STB_WEAK: libbpf resolves it to 0 when missing */
	bool typed;		/* a variable with a type (untyped: kallsyms) */
	uint32_t type_id;	/* func: its FUNC_PROTO; var: its type, past modifiers
				 * and typedefs, as libbpf's ksym.type_id */
	char *decl;		/* the object's declaration, as C */
};

struct prog {
	const char *path;
	struct btf *btf;
	struct prog_extern *ext;	/* by name, the order libbpf resolves them in */
	size_t nr;
};

/*
 * Read path as a BPF object (ELF, machine BPF) and its externs in section
 * .ksyms. 0; 1 (not an ELF file: the caller decides what else it may be);
 * 2 after printing the error (a BPF object without BTF, unreadable).
 */
int prog_load(struct prog *p, const char *path);
void prog_free(struct prog *p);
/* Whether path is an ELF file of machine BPF (either byte order). */
bool prog_is_bpf_object(const char *path);
/* libbpf's bpf_core_essential_name_len(): name up to its last "___". */
size_t prog_essential_len(const char *name);

#endif /* BTF2BTF_PROG_EXTERNS_H */
