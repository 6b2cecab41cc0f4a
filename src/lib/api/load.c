// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Stage 1 of the pipeline (open -> plan -> edit -> post-passes -> write).
 *
 * Opening: the object is opened and mapped once, sniffed (ELF or raw BTF)
 * from those bytes, its BTF (and base BTF) parsed and checked, its .BTF_ids
 * read; then the kfunc table is collected and the plan made.
 */
#include <bpf/btf.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "input/btf_check.h"
#include "format/btf_format.h"
#include "input/btf_input.h"
#include "passes/btf_post.h"
#include "api/distilled.h"
#include "api/handle.h"
#include "util/libbpf_compat.h"
#include "input/split_check.h"

/*
 * Register the name of a set8 entry and the ones lookups derive from it:
 * X_impl of a KF_IMPLICIT_ARGS X (the plan looks for a legacy one), X of an
 * X_impl (the plan checks X_impl is not flagged too). Kfuncs found by decl
 * tag alone are found by id, and without a set8 flag they are never transformed.
 * stable: name lives as long as the handle, the index keeps it uncopied.
 */
static int want_entry_names(struct btf2btf *b, struct b2b_name_index *own_names, const char *name,
			    bool stable, bool implicit)
{
	char impl[BTF2BTF_KSYM_NAME_LEN], plain[BTF2BTF_KSYM_NAME_LEN];
	const char *names[3] = { name, NULL, NULL };
	int own = 0, ret = 0;

	if (implicit && !b2b_impl_name(name, impl))
		names[1] = impl;
	if (b2b_impl_owner_name(name, plain))
		names[2] = plain;
	for (int i = 0; i < 3 && ret >= 0; i++) {
		if (!names[i])
			continue;
		ret = b2b_name_index_want(own_names, names[i], stable && !i);
		if (!i)
			own = ret;
		if (ret >= 0 && b2b_handle_base(b))
			ret = b2b_name_index_want(&b->base_names, names[i], stable && !i);
	}
	return ret < 0 ? ret : own;
}

/* FUNC name of type id in btf or its base, NULL if id is no FUNC. */
static const char *func_name(const struct b2b_btf *btf, __u32 id)
{
	const struct btf_type *t = b2b_btf_type_by_id(btf, id);

	return t && b2b_is_func(t) ? b2b_btf_str(btf, t->name_off) : NULL;
}

/* Register every name a lookup will ask for, then find them all in one
 * scan of the BTF (and one of the base). *entry_want (the caller frees it):
 * per entry, its name's number in names, by which the kfunc table finds
 * the entry's FUNC without hashing the name again. */
static int index_names(struct btf2btf *b, struct b2b_name_index *names, int **entry_want)
{
	size_t nr = b->obj.ids.nr_entries;
	int err;

	/* an entry's name, and an _impl name for some */
	err = b2b_name_index_reserve(names, nr + nr / 4);
	if (!err && b2b_handle_base(b))
		err = b2b_name_index_reserve(&b->base_names, nr + nr / 4);

	if (!err && nr && !(*entry_want = b2b_calloc(nr, sizeof(**entry_want))))
		err = -ENOMEM;
	for (size_t i = 0; i < b->obj.ids.nr_entries && !err; i++) {
		const struct b2b_set8_entry *ent = &b->obj.ids.entries[i];
		const char *name = ent->name ? ent->name : func_name(&b->res.btf, ent->id);
		int want;

		if (!name)
			continue;
		/* an entry's own name lives as long as the handle; a FUNC's
		 * name goes with b->res.btf, replaced by the transform */
		want = want_entry_names(b, names, name, name == ent->name,
					ent->flags & BTF2BTF_KF_IMPLICIT_ARGS);
		if (want < 0)
			err = want;
		else
			(*entry_want)[i] = want;
	}
	if (err)
		return err;
	b2b_name_index_scan(names, &b->res.btf);
	if (b2b_handle_base(b))
		b2b_name_index_scan(&b->base_names, &b->res.base);
	return 0;
}

static void count_kfuncs(struct btf2btf *b)
{
	for (size_t i = 0; i < b->kfuncs.nr; i++) {
		const struct btf2btf_kfunc *k = &b->kfuncs.items[i];

		b->stats.kfuncs++;
		if (k->found_by == (BTF2BTF_FOUND_TAG | BTF2BTF_FOUND_SET8))
			b->stats.by_both++;
		else if (k->found_by == BTF2BTF_FOUND_TAG)
			b->stats.by_tag++;
		else
			b->stats.by_set8++;
		if (k->flags & BTF2BTF_KF_IMPLICIT_ARGS)
			b->stats.implicit++;
	}
}

/* The kfunc table and its plan, with the features opts ask for (the plan
 * holds them: btf2btf__features()). */
static int collect(struct btf2btf *b, const struct btf2btf_opts *opts)
{
	/* the split part's names: they serve the table and the plan, and what
	 * the handle answers later (set8 entries' FUNCs) is in kfuncs.entry_func */
	struct b2b_name_index names = { 0 };
	bool lenient = B2B_OPTS_GET(opts, lenient, false);
	struct b2b_plan_input in = {
		.btf = &b->res.btf,
		.names = &names,
		.base_names = b2b_handle_base(b) ? &b->base_names : NULL,
		.tags = &b->tags,
		.ids = &b->obj.ids,
		.features = B2B_OPTS_GET(opts, features, 0),
		.add_kfunc_tags = B2B_OPTS_GET(opts, add_kfunc_tags, false),
		.log = &b->log,
	};
	int *entry_want = NULL;
	int err;

	err = b2b_tag_index_build(&b->tags, &b->res.btf);
	if (!err)
		err = index_names(b, &names, &entry_want);
	if (err) {
		free(entry_want);
		b2b_name_index_free(&names);
		return b2b_errno(&b->log, err, "out of memory");
	}
	err = b2b_collect_kfuncs(&b->res.btf, &names, entry_want, &b->tags, &b->obj.ids, &b->kfuncs,
				 &b->log);
	free(entry_want);
	if (!err)
		err = b2b_plan_build(&in, &b->kfuncs, &b->plan);
	b2b_name_index_free(&names);
	if (err)
		return err;
	count_kfuncs(b);
	/* set8s that disagree on a kfunc's flags: nothing can be done with it,
	 * unless the caller only wants to look at it */
	for (size_t i = 0; b->plan.refuse_open && i < b->plan.nr; i++) {
		const struct btf2btf_problem *pr = &b->plan.problems[i];

		if (strcmp(pr->rule, "set8-conflict"))
			continue;
		if (lenient)	/* shown, and transform() refuses */
			b2b_warn(&b->log, "%s", pr->message);
		else
			b2b_err(&b->log, "%s", pr->message);
	}
	return b->plan.refuse_open && !lenient ? -EINVAL : 0;
}

/* The .BTF section, split on base when not NULL. */
static int parse_elf_btf(struct btf2btf *b, const struct b2b_btf *base, const char *what)
{
	struct b2b_section sec;
	int err;

	err = b2b_elf_section(b->obj.elf, ".BTF", &sec, &b->log);
	if (err == -ENOENT)
		return b2b_errno(&b->log, -ENOENT, "has no .BTF section (not built with BTF, or pahole -J not run yet)");
	if (err)
		return err;
	/* a typed section (e.g. SHT_DYNSYM) must stay a multiple of its entry
	 * size, which new BTF would not be */
	if (sec.shdr.sh_type != SHT_PROGBITS)
		return b2b_errno(&b->log, -EINVAL, "the .BTF section has type %u, not SHT_PROGBITS",
				 sec.shdr.sh_type);
	b->obj.btf_index = sec.index;
	b2b_elf_prefault(b->obj.elf, sec.data, sec.size);
	/* read in place when native: b->obj.elf, which holds the bytes, goes
	 * after b->res.btf */
	return b2b_parse_btf(sec.data, sec.size, base, what, &b->res.btf, &b->res.fmt, &b->log);
}

/* The object's own BTF: its .BTF section, or btf_path (--btf); on its
 * distilled base (.BTF.base, btf_path.base) when it carries one. */
static int load_elf_btf(struct btf2btf *b, const char *btf_path, const char *what,
			const char *base_path, uint64_t max_decompressed)
{
	const struct b2b_btf *base;
	struct b2b_btf dist;
	int err;

	err = btf_path ? b2b_distilled_base_file(b, btf_path, max_decompressed, &dist)
		       : b2b_distilled_base_section(b, &dist);
	if (err)
		return err;
	base = b2b_btf_empty(&dist) ? b2b_handle_base(b) : &dist;
	if (btf_path)
		err = b2b_load_btf_file(btf_path, base, what, max_decompressed, &b->res.btf,
					&b->res.fmt, &b->log);
	else
		err = parse_elf_btf(b, base, what);
	return b2b_distilled_settle(b, &dist, err, base_path);
}

int btf2btf__load_base(const char *path, const struct btf2btf_opts *opts, struct btf **out)
{
	struct b2b_log log = { .path = path };
	struct b2b_btf base;
	int err;

	if (!out)
		return -EINVAL;
	*out = NULL;
	if (!path || !B2B_OPTS_VALID(opts, btf2btf_opts))
		return -EINVAL;
	log.fn = B2B_OPTS_GET(opts, log, NULL);
	log.ctx = B2B_OPTS_GET(opts, log_ctx, NULL);
	err = b2b_load_btf_file(path, NULL, "base BTF", B2B_OPTS_GET(opts, max_decompressed, 0),
				&base, NULL, &log);
	if (err)
		return err;
	/* the caller's own: libbpf's, checked as the library reads it */
	*out = b2b_btf_libbpf(&base);
	if (*out)
		base.lib = NULL;	/* theirs now */
	else if (b2b_btf_wide_id(&base))
		err = b2b_errno(&log, -EOPNOTSUPP,
				"base BTF: type [%u] has vlen %u, more than the %u libbpf holds: it cannot be lent as libbpf's (give it to each object as a path)",
				b2b_btf_wide_id(&base),
				b2b_vlen(b2b_btf_type_by_id(&base, b2b_btf_wide_id(&base))),
				B2B_LIBBPF_MAX_VLEN);
	else
		err = b2b_errno(&log, errno ? -errno : -ENOMEM, "base BTF: cannot parse BTF: %s",
				strerror(errno ? errno : ENOMEM));
	b2b_btf_free(&base);
	return err;
}

/* btf2btf__object_info(): what the open found, which nothing after it
 * changes (distilled.c has set what it read of a distilled base). */
static void describe(struct btf2btf *b)
{
	struct btf2btf_object_info *info = &b->obj.info;

	info->elf = b->obj.elf != NULL;
	info->has_btf_ids = b->obj.ids.has_section;
	info->has_symtab = b->obj.ids.has_symtab;
	info->set8s = b->obj.ids.nr_sets;
	info->kernel_version = b->obj.ids.kernel_version;
	info->kernel_release = b->obj.ids.kernel_release;
	info->kfunc_id_sets = b->obj.ids.nr_kfunc_id_sets;
	info->fmodret_sets = b->obj.ids.nr_fmodret_sets;
	info->module = b->obj.ids.module || info->distilled_base_types || b->res.btf.start_id > 1;
}

static int open_common(struct btf2btf *b, const void *mem, size_t mem_size,
		       const char *btf_path, const char *base_path, const struct btf *lent_base,
		       const struct btf2btf_opts *opts)
{
	uint64_t max_decompressed = B2B_OPTS_GET(opts, max_decompressed, 0);
	const char *what = ".BTF";
	char what_buf[4096];
	const void *data;
	size_t size;
	int err;

	if (lent_base) {
		/* read where libbpf keeps its types and strings: no copy */
		err = b2b_btf_of_libbpf(&b->res.base, lent_base);
		if (err)
			return b2b_errno(&b->log, err, "base BTF %s: cannot read it: %s",
					 base_path ? base_path : "", strerror(-err));
	} else if (base_path) {
		err = b2b_load_btf_file(base_path, NULL, "base BTF", max_decompressed,
					&b->res.base, NULL, &b->log);
		if (err)
			return err;
	}
	if (base_path) {
		/* only error messages use `what`: with a base, the likely cause is the base */
		snprintf(what_buf, sizeof(what_buf), "%s (split BTF on base %s; the wrong base?)",
			 btf_path ? btf_path : ".BTF", base_path);
		what = what_buf;
	} else if (btf_path) {
		what = btf_path;
	}

	err = mem ? b2b_mem_open(mem, mem_size, max_decompressed, &b->log, &b->obj.elf)
		  : b2b_file_open(b->obj.path, max_decompressed, &b->log, &b->obj.elf);
	if (!err)
		err = b2b_file_bytes(b->obj.elf, &data, &size, &b->log);
	if (err)
		return err;
	if (b2b_is_elf_magic(data, size)) {
		err = b2b_elf_begin(b->obj.elf, &b->log);
		if (!err)
			err = b2b_btf_ids_parse(b->obj.elf, &b->obj.ids, &b->log);
		if (!err)
			err = load_elf_btf(b, btf_path, what, base_path, max_decompressed);
	} else if (b2b_is_btf_magic(data, size)) {
		struct b2b_btf dist = { 0 };

		if (btf_path)
			return b2b_errno(&b->log, -EINVAL, "is raw BTF: --btf needs an ELF object");
		/* a raw pair X + X.base (not for an in-memory image) */
		err = mem ? 0 : b2b_distilled_base_file(b, b->obj.path, max_decompressed, &dist);
		if (!err)
			err = b2b_parse_btf(data, size,
					    b2b_btf_empty(&dist) ? b2b_handle_base(b) : &dist, what,
					    &b->res.btf, &b->res.fmt, &b->log);
		/* a raw BTF file is rewritten whole: no ELF to keep, but the
		 * bytes read in place live in it */
		if (!err && !b->res.btf.owned) {
			b->res.btf.file = b->obj.elf;
			b->obj.elf = NULL;
		}
		err = b2b_distilled_settle(b, &dist, err, base_path);
		b2b_elf_close(b->obj.elf);
		b->obj.elf = NULL;
	} else {
		return b2b_errno(&b->log, -ENOEXEC, "neither an ELF object nor raw BTF");
	}
	/* split BTF on the base given: what else the kernel checks of it */
	if (!err && base_path)
		err = b2b_check_split_fits(&b->res.btf, base_path, &b->log);
	if (err)
		return err;
	if (!err)
		err = collect(b, opts);
	if (!err)
		describe(b);
	return err;
}

static int do_open(const char *path, const void *mem, size_t size,
		   const struct btf2btf_opts *opts, struct btf2btf **out)
{
	const struct btf *lent_base;
	const char *btf_path;
	struct btf2btf *b;
	int err;

	if (!out)
		return -EINVAL;
	*out = NULL;
	if (!path || !B2B_OPTS_VALID(opts, btf2btf_opts))
		return -EINVAL;
	b = b2b_calloc(1, sizeof(*b));
	if (!b)
		return -ENOMEM;
	b->obj.path = b2b_strdup(path);
	btf_path = B2B_OPTS_GET(opts, btf_path, NULL);
	b->obj.btf_path = btf_path ? b2b_strdup(btf_path) : NULL;
	if (!b->obj.path || (btf_path && !b->obj.btf_path)) {
		btf2btf__close(b);
		return -ENOMEM;
	}
	b->log.path = b->obj.path;
	b->log.warnings = &b->stats.warnings;
	b->log.fn = B2B_OPTS_GET(opts, log, NULL);
	b->log.ctx = B2B_OPTS_GET(opts, log_ctx, NULL);
	b->res.distill = B2B_OPTS_GET(opts, distill_base, false);
	lent_base = B2B_OPTS_GET(opts, base_btf, NULL);
	/* a lent base is named by base_path; without it, no base at all */
	if ((b->res.distill || lent_base) && !B2B_OPTS_GET(opts, base_path, NULL)) {
		btf2btf__close(b);
		return -EINVAL;	/* a distilled base is made from the base */
	}
	err = open_common(b, mem, size, btf_path, B2B_OPTS_GET(opts, base_path, NULL), lent_base,
			  opts);
	if (err) {
		btf2btf__close(b);
		return err;
	}
	*out = b;
	return 0;
}

int btf2btf__open(const char *path, const struct btf2btf_opts *opts, struct btf2btf **out)
{
	return do_open(path, NULL, 0, opts, out);
}

int btf2btf__open_mem(const void *buf, size_t size, const char *name,
		      const struct btf2btf_opts *opts, struct btf2btf **out)
{
	if (!buf && size)
		return -EINVAL;
	return do_open(name ? name : "<memory>", buf ? buf : "", size, opts, out);
}
