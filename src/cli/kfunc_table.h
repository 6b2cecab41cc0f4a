/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* The kfuncs of one object by name, as --diff --kfuncs and --kfunc-history compare them. */
#ifndef BTF2BTF_KFUNC_TABLE_H
#define BTF2BTF_KFUNC_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct kf {
	const char *name;
	char *owned_name;	/* name, when the object it came from is closed */
	size_t order;		/* among a kernel's and its modules': which came first */
	uint32_t flags;
	bool implicit;		/* KF_IMPLICIT_ARGS */
	char *bpf_proto;	/* what BPF programs see */
	char *flag_str;
};

struct kside {
	const char *path;
	struct btf2btf *b;
	struct kf *k;		/* by name */
	size_t nr;
	bool set8s;		/* false: no .BTF_ids (raw BTF), the flags are unknown */
};

/*
 * Open path (cli_open(), leniently) and list its kfuncs by name. as_is:
 * the prototype BPF sees is the FUNC's own, as in a kernel's final BTF;
 * otherwise what the transform makes of it (an object before the build's
 * transform). 0, or 1 after printing the error.
 */
int kside_load(struct kside *s, const char *path, bool as_is);
/* Add the kfuncs of the modules in list (comma separated: module files,
 * or directories searched for *.ko, *.ko.xz, *.ko.gz, *.ko.zst), each read
 * on s's object as base, to s (a module's kfunc beside the base's of the
 * same name is left out). 0, or 1 after printing the error. */
int kside_add_modules(struct kside *s, const char *list);
void kside_free(struct kside *s);
/* Whether a kfunc missing from s is known to be missing: the set8s list
 * every kfunc, and so do the decl tags pahole >= 1.27 puts on each; raw
 * BTF or a stripped vmlinux with neither (an older pahole) shows no kfunc
 * at all, and its silence says nothing. */
bool kside_kfuncs_known(const struct kside *s);
/* The kfunc named name, or NULL. */
const struct kf *kside_find(const struct kside *s, const char *name);
/* The kfunc named <name>_impl (the legacy form of name), or NULL. */
const struct kf *kside_find_impl(const struct kside *s, const char *name);

#endif /* BTF2BTF_KFUNC_TABLE_H */
