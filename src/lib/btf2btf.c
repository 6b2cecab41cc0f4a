// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The public API: open (ELF or raw BTF, optional base), collect kfuncs,
 * transform, write. The pipeline runs in this order and owns the state;
 * each step lives in its own file.
 */
#include <bpf/btf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "btf2btf.h"
#include "btf_check.h"
#include "btf_edit.h"
#include "btf_ids.h"
#include "btf_post.h"
#include "elf_file.h"
#include "implicit.h"
#include "kfuncs.h"
#include "output.h"

static const unsigned char elf_magic[4] = { 0x7f, 'E', 'L', 'F' };

struct btf2btf {
	char *path;			/* the object (or raw BTF) named on the command line */
	char *btf_path;			/* raw BTF used instead of the object's .BTF */
	struct b2b_log log;
	struct b2b_elf *elf;		/* NULL when path is raw BTF */
	size_t btf_index;		/* .BTF section index in elf */
	unsigned int features;		/* BTF2BTF_FEAT_*, the default set filled in */
	bool add_kfunc_tags;
	bool lenient;
	bool transformed;
	bool changed;
	struct btf *btf;		/* as read, until the result is parsed (materialise) */
	void *out;			/* transformed raw BTF, native endian, not parsed yet */
	size_t out_size;
	struct btf *base;		/* the distilled base after a transform with distill */
	struct btf *full_base;		/* the base read, once replaced by the distilled one */
	void *base_out;			/* distilled base, raw native endian */
	size_t base_out_size;
	bool distill;
	bool post_changed;		/* a post-pass changed the BTF */
	struct b2b_btf_ids ids;
	struct b2b_name_index names, base_names;
	struct b2b_tag_index tags;
	struct b2b_kfuncs kfuncs;
	struct btf2btf_stats stats;
	struct btf2btf_set8_entry *set8_view;	/* btf2btf__set8_entry(), made on first use */
};

static bool is_btf_magic(const unsigned char *p, size_t size)
{
	return size >= 2 && ((p[0] == 0x9f && p[1] == 0xeb) || (p[0] == 0xeb && p[1] == 0x9f));
}

static int read_file(const char *path, void **data, size_t *size, const struct b2b_log *log)
{
	struct stat st;
	char *buf;
	size_t off = 0;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return b2b_errno(log, -errno, "cannot open: %s", strerror(errno));
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		close(fd);
		return b2b_errno(log, -EINVAL, "not a regular file");
	}
	buf = malloc(st.st_size ? st.st_size : 1);
	if (!buf) {
		close(fd);
		return b2b_errno(log, -ENOMEM, "out of memory");
	}
	while (off < (size_t)st.st_size) {
		ssize_t n = read(fd, buf + off, st.st_size - off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			int err = n < 0 ? -errno : -EIO;

			free(buf);
			close(fd);
			return b2b_errno(log, err, "cannot read: %s", strerror(-err));
		}
		off += n;
	}
	close(fd);
	*data = buf;
	*size = off;
	return 0;
}

/* Parse and check BTF bytes; what names them in messages. */
static int parse_btf(const void *data, size_t size, struct btf *base, const char *what,
		     struct btf **out, const struct b2b_log *log)
{
	struct btf *btf;
	int err;

	*out = NULL;
	err = b2b_check_btf_header(data, size, what, log);
	if (err)
		return err;
	errno = 0;
	btf = b2b_btf_from_raw(data, size, base);
	if (!btf) {
		err = errno ? -errno : -EINVAL;
		return b2b_errno(log, err, "%s: cannot parse BTF: %s", what, strerror(-err));
	}
	err = b2b_check_btf_types(btf, what, log);
	if (err) {
		btf__free(btf);
		return err;
	}
	*out = btf;
	return 0;
}

/* BTF of an ELF file's .BTF section, or of a raw BTF file. */
static int load_btf_file(const char *path, struct btf *base, const char *what,
			 struct btf **out, const struct b2b_log *parent)
{
	struct b2b_log log = *parent;
	struct b2b_section sec;
	struct b2b_elf *e = NULL;
	void *data = NULL;
	size_t size = 0;
	int err;

	log.path = path;
	err = read_file(path, &data, &size, &log);
	if (err)
		return err;
	if (size >= 4 && !memcmp(data, elf_magic, 4)) {
		err = b2b_elf_open_mem(data, size, &log, &e);
		if (!err) {
			err = b2b_elf_section(e, ".BTF", &sec, &log);
			if (err == -ENOENT)
				err = b2b_errno(&log, -ENOENT, "has no .BTF section");
		}
		if (!err)
			err = parse_btf(sec.data, sec.size, base, what, out, &log);
		b2b_elf_close(e);
	} else if (is_btf_magic(data, size)) {
		err = parse_btf(data, size, base, what, out, &log);
	} else {
		err = b2b_errno(&log, -ENOEXEC, "neither an ELF object nor raw BTF");
	}
	free(data);
	return err;
}

/*
 * Register the name of a set8 entry and the ones lookups derive from it:
 * X_impl of a KF_IMPLICIT_ARGS X (the transform looks for a legacy one),
 * X of an X_impl (check_impl_flagged()). Kfuncs found by decl tag alone
 * are found by id, and without a set8 flag they are never transformed.
 */
static int want_entry_names(struct btf2btf *b, const char *name, bool implicit)
{
	size_t sl = strlen(BTF2BTF_IMPL_SUFFIX), len = strlen(name);
	char impl[BTF2BTF_KSYM_NAME_LEN], plain[BTF2BTF_KSYM_NAME_LEN];
	const char *names[3] = { name, NULL, NULL };
	int err = 0;

	if (implicit && len + sl < sizeof(impl)) {
		memcpy(impl, name, len);
		memcpy(impl + len, BTF2BTF_IMPL_SUFFIX, sl + 1);
		names[1] = impl;
	}
	if (len > sl && len - sl < sizeof(plain) && !strcmp(name + len - sl, BTF2BTF_IMPL_SUFFIX)) {
		memcpy(plain, name, len - sl);
		plain[len - sl] = 0;
		names[2] = plain;
	}
	for (int i = 0; i < 3 && !err; i++) {
		if (!names[i])
			continue;
		err = b2b_name_index_want(&b->names, names[i]);
		if (!err && b->base)
			err = b2b_name_index_want(&b->base_names, names[i]);
	}
	return err;
}

/* FUNC name of type id in the BTF or its base, NULL if none. */
static const char *func_name(const struct btf2btf *b, __u32 id)
{
	const struct btf_type *t = id < btf__type_cnt(b->btf) ? btf__type_by_id(b->btf, id) : NULL;

	return t && btf_is_func(t) ? btf__name_by_offset(b->btf, t->name_off) : NULL;
}

/* Register every name a lookup will ask for, then find them all in one
 * scan of the BTF (and one of the base). */
static int index_names(struct btf2btf *b)
{
	size_t nr = b->ids.nr_entries;
	int err;

	/* an entry's name, and an _impl name for some */
	err = b2b_name_index_reserve(&b->names, nr + nr / 4);
	if (!err && b->base)
		err = b2b_name_index_reserve(&b->base_names, nr + nr / 4);

	for (size_t i = 0; i < b->ids.nr_entries && !err; i++) {
		const struct b2b_set8_entry *ent = &b->ids.entries[i];
		const char *name = ent->name ? ent->name : func_name(b, ent->id);

		if (name)
			err = want_entry_names(b, name, ent->flags & BTF2BTF_KF_IMPLICIT_ARGS);
	}
	if (err)
		return err;
	b2b_name_index_scan(&b->names, b->btf);
	if (b->base)
		b2b_name_index_scan(&b->base_names, b->base);
	return 0;
}

static int collect(struct btf2btf *b)
{
	int err;

	err = b2b_tag_index_build(&b->tags, b->btf);
	if (!err)
		err = index_names(b);
	if (err)
		return b2b_errno(&b->log, err, "out of memory");
	err = b2b_collect_kfuncs(b->btf, &b->names, b->base ? &b->base_names : NULL, &b->tags,
				 &b->ids, b->lenient, &b->kfuncs, &b->log);
	if (err)
		return err;
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
	return 0;
}

static int open_common(struct btf2btf *b, const void *mem, size_t mem_size,
		       const char *btf_path, const char *base_path)
{
	const char *what = ".BTF";
	char what_buf[4096];
	unsigned char magic[4] = { 0 };
	struct b2b_section sec;
	int err;

	if (base_path) {
		err = load_btf_file(base_path, NULL, "base BTF", &b->base, &b->log);
		if (err)
			return err;
		/* only error messages use `what`: with a base, the likely cause is the base */
		snprintf(what_buf, sizeof(what_buf), "%s (split BTF on base %s; the wrong base?)",
			 btf_path ? btf_path : ".BTF", base_path);
		what = what_buf;
	} else if (btf_path) {
		what = btf_path;
	}

	if (mem) {
		memcpy(magic, mem, mem_size < 4 ? mem_size : 4);
	} else {
		int fd = open(b->path, O_RDONLY | O_CLOEXEC);
		ssize_t n;

		if (fd < 0)
			return b2b_errno(&b->log, -errno, "cannot open: %s", strerror(errno));
		n = read(fd, magic, sizeof(magic));
		close(fd);
		if (n < 0)
			return b2b_errno(&b->log, -errno, "cannot read: %s", strerror(errno));
		mem_size = n;
	}

	if (mem_size >= 4 && !memcmp(magic, elf_magic, 4)) {
		err = mem ? b2b_elf_open_mem(mem, mem_size, &b->log, &b->elf)
			  : b2b_elf_open(b->path, &b->log, &b->elf);
		if (err)
			return err;
		err = b2b_btf_ids_parse(b->elf, &b->ids, &b->log);
		if (err)
			return err;
		if (btf_path) {
			err = load_btf_file(btf_path, b->base, what, &b->btf, &b->log);
		} else {
			err = b2b_elf_section(b->elf, ".BTF", &sec, &b->log);
			if (err == -ENOENT)
				return b2b_errno(&b->log, -ENOENT, "has no .BTF section (not built with BTF, or pahole -J not run yet)");
			/* a typed section (e.g. SHT_DYNSYM) must stay a multiple of
			 * its entry size, which new BTF would not be */
			if (!err && sec.shdr.sh_type != SHT_PROGBITS)
				return b2b_errno(&b->log, -EINVAL,
						 "the .BTF section has type %u, not SHT_PROGBITS",
						 sec.shdr.sh_type);
			if (!err) {
				b->btf_index = sec.index;
				err = parse_btf(sec.data, sec.size, b->base, what, &b->btf, &b->log);
				/* libbpf holds its own copy now */
				b2b_elf_release(b->elf, sec.data, sec.size);
			}
		}
	} else if (is_btf_magic(magic, mem_size)) {
		if (btf_path)
			return b2b_errno(&b->log, -EINVAL, "is raw BTF: --btf needs an ELF object");
		if (mem)
			err = parse_btf(mem, mem_size, b->base, what, &b->btf, &b->log);
		else
			err = load_btf_file(b->path, b->base, what, &b->btf, &b->log);
	} else {
		return b2b_errno(&b->log, -ENOEXEC, "neither an ELF object nor raw BTF");
	}
	if (err)
		return err;
	return collect(b);
}

static int do_open(const char *path, const void *mem, size_t size,
		   const struct btf2btf_opts *opts, struct btf2btf **out)
{
	const char *btf_path;
	struct btf2btf *b;
	int err;

	if (!out)
		return -EINVAL;
	*out = NULL;
	if (!path || !B2B_OPTS_VALID(opts, btf2btf_opts))
		return -EINVAL;
	b = calloc(1, sizeof(*b));
	if (!b)
		return -ENOMEM;
	b->path = strdup(path);
	btf_path = B2B_OPTS_GET(opts, btf_path, NULL);
	b->btf_path = btf_path ? strdup(btf_path) : NULL;
	if (!b->path || (btf_path && !b->btf_path)) {
		btf2btf__close(b);
		return -ENOMEM;
	}
	b->log.path = b->path;
	b->log.warnings = &b->stats.warnings;
	b->log.fn = B2B_OPTS_GET(opts, log, NULL);
	b->log.ctx = B2B_OPTS_GET(opts, log_ctx, NULL);
	b->lenient = B2B_OPTS_GET(opts, lenient, false);
	b->features = B2B_OPTS_GET(opts, features, 0);
	if (!b->features)
		b->features = BTF2BTF_FEATS_DEFAULT;
	if (B2B_OPTS_GET(opts, add_kfunc_tags, false))
		b->features |= BTF2BTF_FEAT_KFUNC_TAGS;
	b->add_kfunc_tags = b->features & BTF2BTF_FEAT_KFUNC_TAGS;
	b->distill = B2B_OPTS_GET(opts, distill_base, false);
	if (b->distill && !B2B_OPTS_GET(opts, base_path, NULL)) {
		btf2btf__close(b);
		return -EINVAL;	/* a distilled base is made from the base */
	}
	err = open_common(b, mem, size, btf_path, B2B_OPTS_GET(opts, base_path, NULL));
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

void btf2btf__close(struct btf2btf *b)
{
	if (!b)
		return;
	b2b_kfuncs_free(&b->kfuncs);
	b2b_tag_index_free(&b->tags);
	b2b_name_index_free(&b->names);
	b2b_name_index_free(&b->base_names);
	b2b_btf_ids_free(&b->ids);
	free(b->set8_view);
	btf__free(b->btf);
	free(b->out);
	btf__free(b->base);
	btf__free(b->full_base);
	free(b->base_out);
	b2b_elf_close(b->elf);
	free(b->path);
	free(b->btf_path);
	free(b);
}

static int cmp_kfunc_id(const void *key, const void *item)
{
	__u32 id = *(const __u32 *)key, other = ((const struct btf2btf_kfunc *)item)->btf_id;

	return id < other ? -1 : id > other;
}

/*
 * X and X_impl both flagged KF_IMPLICIT_ARGS: X_impl would get an
 * X_impl_impl and share X's reduced proto, and the output could not be
 * read again. The source lists a legacy X_impl without the flag.
 */
/*
 * For impl_name "X_impl": the KF_IMPLICIT_ARGS kfunc X whose _impl it would
 * be, or NULL. X goes into name.
 */
static const struct btf2btf_kfunc *implicit_owner(const struct btf2btf *b, const char *impl_name,
						 char name[BTF2BTF_KSYM_NAME_LEN])
{
	size_t sl = strlen(BTF2BTF_IMPL_SUFFIX), len = strlen(impl_name);
	const struct btf2btf_kfunc *x;
	__u32 id;

	if (len <= sl || len - sl >= BTF2BTF_KSYM_NAME_LEN ||
	    strcmp(impl_name + len - sl, BTF2BTF_IMPL_SUFFIX))
		return NULL;
	memcpy(name, impl_name, len - sl);
	name[len - sl] = 0;
	id = b2b_name_index_find(&b->names, name, BTF_KIND_FUNC);
	x = id ? bsearch(&id, b->kfuncs.items, b->kfuncs.nr, sizeof(*x), cmp_kfunc_id) : NULL;
	return x && (x->flags & BTF2BTF_KF_IMPLICIT_ARGS) ? x : NULL;
}

static int check_impl_flagged(struct btf2btf *b)
{
	char name[BTF2BTF_KSYM_NAME_LEN];

	for (size_t i = 0; i < b->kfuncs.nr; i++) {
		const struct btf2btf_kfunc *k = &b->kfuncs.items[i];

		if ((k->flags & BTF2BTF_KF_IMPLICIT_ARGS) && implicit_owner(b, k->name, name))
			return b2b_errno(&b->log, -EINVAL,
					 "kfunc %s and its counterpart %s are both flagged KF_IMPLICIT_ARGS: only %s may be",
					 name, k->name, name);
	}
	/*
	 * A set8 listing X_impl that the BTF lacks (warned about at open): the
	 * X_impl we would add becomes that entry's kfunc on the next run, and
	 * the output would not be a fixed point.
	 */
	for (size_t i = 0; i < b->ids.nr_entries; i++) {
		const struct b2b_set8_entry *ent = &b->ids.entries[i];

		/* a resolved pair past the last type: a type we add would take that id */
		if (!ent->name && ent->id >= btf__type_cnt(b->btf))
			return b2b_errno(&b->log, -EINVAL,
					 "set8 %s holds id %u, past the last type (%u): .BTF_ids was resolved against another BTF",
					 b->ids.sets[ent->set].name, ent->id, btf__type_cnt(b->btf) - 1);

		if (ent->name && !b2b_name_index_find(&b->names, ent->name, BTF_KIND_FUNC) &&
		    implicit_owner(b, ent->name, name))
			return b2b_errno(&b->log, -EINVAL,
					 "set8 %s lists %s, which the BTF lacks: cannot add it as the _impl of kfunc %s",
					 b->ids.sets[ent->set].name, ent->name, name);
	}
	return 0;
}

/*
 * The transform's result: the BTF read, untouched, followed by what the
 * transform appended (see struct b2b_ext). It stays raw bytes in b->out:
 * writing it needs no parse; b->btf is replaced only when someone asks
 * for the struct btf (materialise()).
 */
static int lay_out_result(struct btf2btf *b, const struct b2b_ext *ext)
{
	int err;

	err = b2b_ext_check(ext, "transformed BTF", &b->log);
	if (err)
		return err;
	err = b2b_ext_merge(ext, &b->out, &b->out_size);
	if (err)
		return b2b_errno(&b->log, err, "cannot lay out the transformed BTF: %s", strerror(-err));
	return 0;
}

/* b->out parsed into b->btf; on failure b is as it was. */
static int materialise(struct btf2btf *b)
{
	struct btf *btf;
	int err;

	if (!b->out)
		return 0;
	errno = 0;
	btf = b2b_btf_from_raw(b->out, b->out_size, b->base);
	if (!btf) {
		err = errno ? -errno : -EINVAL;
		return b2b_errno(&b->log, err, "transformed BTF: cannot parse: %s", strerror(-err));
	}
	btf__set_endianness(btf, btf__endianness(b->btf));
	btf__free(b->btf);
	b->btf = btf;
	free(b->out);
	b->out = NULL;
	return 0;
}

static int cmp_kfunc_by_id(const void *a, const void *b)
{
	return cmp_kfunc_id(&((const struct btf2btf_kfunc *)a)->btf_id, b);
}

static void remap_id(__u32 *id, const __u32 *map, __u32 nr)
{
	if (*id && *id < nr)
		*id = map[*id];
}

/* Every id the handle exposes, after the post-passes renumbered the types. */
static void remap_handle(struct btf2btf *b, const __u32 *map, __u32 nr)
{
	for (size_t i = 0; i < b->kfuncs.nr; i++) {
		struct btf2btf_kfunc *k = &b->kfuncs.items[i];

		remap_id(&k->btf_id, map, nr);
		remap_id(&k->orig_proto_id, map, nr);
		remap_id(&k->impl_id, map, nr);
	}
	qsort(b->kfuncs.items, b->kfuncs.nr, sizeof(*b->kfuncs.items), cmp_kfunc_by_id);
	for (size_t i = 0; i < b->names.nr; i++) {
		remap_id(&b->names.want[i].func_id, map, nr);
		remap_id(&b->names.want[i].any_id, map, nr);
	}
	for (size_t i = 0; i < b->base_names.nr; i++) {
		remap_id(&b->base_names.want[i].func_id, map, nr);
		remap_id(&b->base_names.want[i].any_id, map, nr);
	}
	for (size_t i = 0; b->set8_view && i < b->ids.nr_entries; i++)
		remap_id(&b->set8_view[i].id, map, nr);
	/* the decl tag index served the transform and describes the old ids */
	b2b_tag_index_free(&b->tags);
}

static bool is_identity(const __u32 *map, __u32 nr)
{
	for (__u32 i = 0; map && i < nr; i++)
		if (map[i] != i)
			return false;
	return true;
}

/*
 * Dedup, distilled base and sort by name (b->features, b->distill) over the
 * transform's result; first_new is the first type the transform appended.
 * On error b keeps the transform's result and its ids.
 */
static int run_post_passes(struct btf2btf *b, __u32 first_new)
{
	struct b2b_post_in in = {
		.base = b->base,
		.first_new = first_new,
		.dedup = b->features & BTF2BTF_FEAT_DEDUP,
		.sort = b->features & BTF2BTF_FEAT_SORT,
		.distill = b->distill,
	};
	struct b2b_post_result res;
	int err;

	if (!in.dedup && !in.sort && !in.distill)
		return 0;
	if (b->out) {
		in.data = b->out;
		in.size = b->out_size;
	} else {
		enum btf_endianness e = btf__endianness(b->btf);
		__u32 sz = 0;

		if (btf__set_endianness(b->btf, b2b_native_endianness()))
			return b2b_errno(&b->log, -EINVAL, "cannot convert the BTF to native byte order");
		in.data = btf__raw_data(b->btf, &sz);
		in.size = sz;
		btf__set_endianness(b->btf, e);
		if (!in.data)
			return b2b_errno(&b->log, -ENOMEM, "out of memory");
	}
	err = b2b_post_run(&in, &res);
	if (err == -EINVAL && in.distill)
		return b2b_errno(&b->log, err,
				 "cannot distill the base: the split BTF refers to a base type of a kind a distilled base cannot hold (FUNC, VAR, DATASEC or a tag)");
	if (err)
		return b2b_errno(&b->log, err, "cannot %s the BTF: %s",
				 in.dedup ? "deduplicate/sort" : "sort", strerror(-err));
	if (!is_identity(res.btf.map, res.btf.nr_map)) {
		for (size_t i = 0; i < b->ids.nr_sets; i++) {
			if (!b->ids.sets[i].resolved)
				continue;
			b2b_post_result_free(&res);
			return b2b_errno(&b->log, -EINVAL,
					 "set8 %s in .BTF_ids is resolved already (resolve_btfids ran): dedup/sort/distill would renumber the types its ids name; run btf2btf before resolve_btfids",
					 b->ids.sets[i].name);
		}
	}
	if (res.btf.data) {
		if (b->out != res.btf.data)
			free(b->out);
		b->out = res.btf.data;
		b->out_size = res.btf.size;
		res.btf.data = NULL;
		b->post_changed = true;
	}
	if (res.base) {
		b->full_base = b->base;
		b->base = res.base;
		b->base_out = res.base_data;
		b->base_out_size = res.base_size;
		res.base = NULL;
		res.base_data = NULL;
		b->post_changed = true;
	}
	if (res.btf.map)
		remap_handle(b, res.btf.map, res.btf.nr_map);
	b2b_post_result_free(&res);
	return 0;
}

int btf2btf__transform(struct btf2btf *b)
{
	struct b2b_transform tr = {
		.btf = b->btf,
		.start = b->base ? btf__type_cnt(b->base) : 1,
		.names = &b->names,
		.base_names = b->base ? &b->base_names : NULL,
		.tags = &b->tags,
		.stats = &b->stats,
		.log = &b->log,
	};
	struct b2b_ext ext;
	__u32 first_new;
	int err = 0;

	if (b->transformed)
		return 0;
	if (b->kfuncs.conflicts)
		return b2b_errno(&b->log, -EINVAL,
				 "%u kfunc(s) are KF_IMPLICIT_ARGS in one set8 but not in another: not transforming",
				 b->kfuncs.conflicts);
	err = check_impl_flagged(b);
	if (err)
		return err;
	if (b2b_ext_init(&ext, b->btf))
		return b2b_errno(&b->log, -ENOMEM, "out of memory");
	tr.ext = &ext;
	if (b2b_transform_init(&tr)) {
		b2b_ext_free(&ext);
		return b2b_errno(&b->log, -ENOMEM, "out of memory");
	}
	for (size_t i = 0; i < b->kfuncs.nr && !err; i++)
		err = b2b_transform_kfunc(&tr, &b->kfuncs.items[i]);
	for (size_t i = 0; i < b->kfuncs.nr && !err && b->add_kfunc_tags; i++)
		err = b2b_add_kfunc_tag(&tr, &b->kfuncs.items[i]);
	b2b_transform_free(&tr);
	if (!err && (b->stats.transformed || b->stats.tags_added))
		err = lay_out_result(b, &ext);
	first_new = ext.first_id;
	b2b_ext_free(&ext);
	if (!err) {
		err = run_post_passes(b, first_new);
		if (err) {	/* the result laid out above is this call's own */
			free(b->out);
			b->out = NULL;
		}
	}
	if (err)
		return err;
	b->transformed = true;
	b->changed = b->stats.transformed || b->stats.tags_added || b->post_changed;
	return 0;
}

bool btf2btf__changed(const struct btf2btf *b)
{
	return b->changed;
}

int btf2btf__raw_btf(struct btf2btf *b, const void **data, size_t *size)
{
	__u32 sz = 0;
	const void *raw;
	int err;

	if (b->out && btf__endianness(b->btf) == b2b_native_endianness()) {
		*data = b->out;
		*size = b->out_size;
		return 0;
	}
	err = materialise(b);
	if (err)
		return err;
	raw = btf__raw_data(b->btf, &sz);
	if (!raw)
		return b2b_errno(&b->log, -ENOMEM, "cannot serialise BTF: out of memory");
	*data = raw;
	*size = sz;
	return 0;
}

int btf2btf__raw_base_btf(struct btf2btf *b, const void **data, size_t *size)
{
	const void *raw;
	__u32 sz = 0;

	if (!b->base_out)
		return -ENOENT;
	if (btf__endianness(b->btf) == b2b_native_endianness()) {
		*data = b->base_out;
		*size = b->base_out_size;
		return 0;
	}
	/* the split BTF is written in the input's byte order: the base too */
	if (btf__set_endianness(b->base, btf__endianness(b->btf)))
		return -EINVAL;
	raw = btf__raw_data(b->base, &sz);
	if (!raw)
		return -ENOMEM;
	*data = raw;
	*size = sz;
	return 0;
}

/* Refuse to replace a file its owner made read-only (root would not be stopped). */
static int check_writable(const char *path, const struct b2b_log *log)
{
	struct stat st;

	if (stat(path, &st))
		return b2b_errno(log, -errno, "cannot stat: %s", strerror(errno));
	if (!(st.st_mode & 0222) || access(path, W_OK))
		return b2b_errno(log, -EACCES, "is read-only: refusing to rewrite it");
	return 0;
}

static int write_raw_to(struct btf2btf *b, const char *path, mode_t mode)
{
	struct b2b_log log = b->log;
	struct b2b_out out;
	const void *raw = NULL;
	size_t size = 0;
	int err;

	log.path = path;
	err = btf2btf__raw_btf(b, &raw, &size);
	if (!err)
		err = b2b_out_begin(&out, path, mode, &log);
	if (err)
		return err;
	err = b2b_out_write(&out, raw, size, &log);
	if (!err)
		return b2b_out_commit(&out, &log);
	b2b_out_abort(&out);
	return err;
}

int btf2btf__write_raw(struct btf2btf *b, const char *path)
{
	return write_raw_to(b, path, 0644);
}

int btf2btf__write_raw_base(struct btf2btf *b, const char *path)
{
	struct b2b_log log = b->log;
	struct b2b_out out;
	const void *raw = NULL;
	size_t size = 0;
	int err;

	log.path = path;
	err = btf2btf__raw_base_btf(b, &raw, &size);
	if (err == -ENOENT)
		return b2b_errno(&log, err, "no distilled base: transform with distill_base first");
	if (err)
		return b2b_errno(&log, err, "cannot serialise the distilled base: %s", strerror(-err));
	err = b2b_out_begin(&out, path, 0644, &log);
	if (err)
		return err;
	err = b2b_out_write(&out, raw, size, &log);
	if (!err)
		return b2b_out_commit(&out, &log);
	b2b_out_abort(&out);
	return err;
}

/* Someone else replaced the file since we read it: do not overwrite their result. */
static int check_same_file(struct btf2btf *b)
{
	struct stat st;

	if (stat(b->path, &st))
		return b2b_errno(&b->log, -errno, "cannot stat: %s", strerror(errno));
	if (st.st_dev != b->elf->st.st_dev || st.st_ino != b->elf->st.st_ino ||
	    st.st_size != b->elf->st.st_size || st.st_mtim.tv_sec != b->elf->st.st_mtim.tv_sec ||
	    st.st_mtim.tv_nsec != b->elf->st.st_mtim.tv_nsec)
		return b2b_errno(&b->log, -ESTALE,
				 "was changed by another process while btf2btf ran; nothing written, run again");
	return 0;
}

/* .BTF replaced, and with a distilled base .BTF.base replaced or added. */
static int write_btf_sections(struct btf2btf *b, const void *raw, size_t size, int fd,
			      void **image, size_t *image_size)
{
	struct b2b_elf_edit edits[2] = {
		{ .index = b->btf_index, .data = raw, .size = size },
		{ .name = ".BTF.base" },
	};
	int err;

	if (b->base_out) {
		err = btf2btf__raw_base_btf(b, &edits[1].data, &edits[1].size);
		if (err)
			return b2b_errno(&b->log, err, "cannot serialise the distilled base: %s",
					 strerror(-err));
	}
	return b2b_elf_write_edited(b->elf, edits, b->base_out ? 2 : 1, fd, image, image_size,
				    &b->log);
}

/* Raw output FILE: the distilled base goes to FILE.base (as 7.3's X.BTF.base). */
static int write_base_beside(struct btf2btf *b, const char *path)
{
	size_t len = strlen(path);
	char *base_path = malloc(len + sizeof(".base"));
	int err;

	if (!base_path)
		return b2b_errno(&b->log, -ENOMEM, "out of memory");
	memcpy(base_path, path, len);
	memcpy(base_path + len, ".base", sizeof(".base"));
	err = btf2btf__write_raw_base(b, base_path);
	free(base_path);
	return err;
}

int btf2btf__write_elf(struct btf2btf *b)
{
	struct b2b_out out;
	const void *raw = NULL;
	struct stat st;
	size_t size = 0;
	int err;

	if (!b->changed)
		return 0;	/* byte-identical by construction */
	if (b->btf_path) {
		struct b2b_log log = b->log;

		log.path = b->btf_path;	/* the file being rewritten, not the object */
		err = check_writable(b->btf_path, &log);
		if (!err && stat(b->btf_path, &st))
			err = -errno;
		if (!err && b->base_out)
			err = write_base_beside(b, b->btf_path);
		return err ? err : write_raw_to(b, b->btf_path, st.st_mode);
	}
	err = check_writable(b->path, &b->log);
	if (err)
		return err;
	if (!b->elf) {
		if (b->base_out)
			err = write_base_beside(b, b->path);
		return err ? err : write_raw_to(b, b->path, 0644);
	}
	if (b->elf->fd < 0)
		return b2b_errno(&b->log, -EINVAL, "is an in-memory image: nothing to rewrite");

	/* one writer at a time; the second notices the first one's rename */
	if (flock(b->elf->fd, LOCK_EX))
		return b2b_errno(&b->log, -errno, "cannot lock: %s", strerror(errno));
	err = check_same_file(b);
	if (!err)	/* under the lock, any temp file of ours is a killed run's */
		b2b_out_clean_stale(b->path, &b->log);
	if (!err)
		err = btf2btf__raw_btf(b, &raw, &size);
	if (!err)
		err = b2b_out_begin(&out, b->path, b->elf->st.st_mode, &b->log);
	if (err)
		goto unlock;
	err = write_btf_sections(b, raw, size, out.fd, NULL, NULL);
	if (!err)
		err = check_same_file(b);
	if (!err)
		err = b2b_out_commit(&out, &b->log);
	else
		b2b_out_abort(&out);
unlock:
	flock(b->elf->fd, LOCK_UN);
	return err;
}

int btf2btf__elf_image(struct btf2btf *b, void **data, size_t *size)
{
	const void *raw = NULL;
	size_t raw_size = 0;
	int err;

	if (!b->elf || b->btf_path)
		return b2b_errno(&b->log, -EINVAL, "has no .BTF section to replace");
	err = btf2btf__raw_btf(b, &raw, &raw_size);
	if (err)
		return err;
	return write_btf_sections(b, raw, raw_size, -1, data, size);
}

const struct btf *btf2btf__btf(const struct btf2btf *b)
{
	/* logically const: the same BTF, parsed on first use */
	int err = materialise((struct btf2btf *)b);

	if (err) {
		errno = -err;
		return NULL;
	}
	return b->btf;
}

const struct btf *btf2btf__base_btf(const struct btf2btf *b)
{
	return b->base;
}

const char *btf2btf__path(const struct btf2btf *b)
{
	return b->path;
}

const struct btf2btf_stats *btf2btf__stats(const struct btf2btf *b)
{
	return &b->stats;
}

size_t btf2btf__kfunc_cnt(const struct btf2btf *b)
{
	return b->kfuncs.nr;
}

const struct btf2btf_kfunc *btf2btf__kfunc(const struct btf2btf *b, size_t idx)
{
	return idx < b->kfuncs.nr ? &b->kfuncs.items[idx] : NULL;
}

size_t btf2btf__set8_entry_cnt(const struct btf2btf *b)
{
	return b->ids.nr_entries;
}

/* The public view of every set8 pair, made on first use (names looked up
 * once) and kept with the handle, so callers get a pointer that stays valid
 * and a struct that can grow. */
static int make_set8_view(struct btf2btf *b)
{
	struct btf2btf_set8_entry *view;
	size_t i;

	view = calloc(b->ids.nr_entries ? b->ids.nr_entries : 1, sizeof(*view));
	if (!view)
		return -ENOMEM;
	for (i = 0; i < b->ids.nr_entries; i++) {
		const struct b2b_set8_entry *ent = &b->ids.entries[i];
		const struct b2b_set8 *set = &b->ids.sets[ent->set];
		struct btf2btf_set8_entry *out = &view[i];

		out->set = set->name;
		out->set_flags = set->flags;
		out->name = ent->name;
		out->flags = ent->flags;
		out->id = ent->id;
		if (ent->name) {
			out->id = b2b_name_index_find(&b->names, ent->name, BTF_KIND_FUNC);
			if (!out->id && b->base)
				out->id = b2b_name_index_find(&b->base_names, ent->name,
							      BTF_KIND_FUNC);
		}
	}
	b->set8_view = view;
	return 0;
}

const struct btf2btf_set8_entry *btf2btf__set8_entry(const struct btf2btf *b, size_t idx)
{
	/* the view is a cache: making it does not change what b holds */
	struct btf2btf *mb = (struct btf2btf *)b;
	int err;

	if (!b || idx >= b->ids.nr_entries) {
		errno = EINVAL;
		return NULL;
	}
	if (!b->set8_view) {
		err = make_set8_view(mb);
		if (err) {
			errno = -err;
			return NULL;
		}
	}
	return &b->set8_view[idx];
}

int btf2btf__implicit_arg(const struct btf *btf, uint32_t proto_id)
{
	const struct btf_type *t = btf ? btf__type_by_id(btf, proto_id) : NULL;
	int idx;

	if (!t || !btf_is_func_proto(t))
		return -EINVAL;
	idx = b2b_first_implicit_arg(btf, proto_id);
	return idx < 0 ? -ENOENT : idx;
}

const char *btf2btf__kf_flag_name(unsigned int bit)
{
	static const char *const names[] = {
		[0] = "KF_ACQUIRE", [1] = "KF_RELEASE", [2] = "KF_RET_NULL",
		[4] = "KF_TRUSTED_ARGS", [5] = "KF_SLEEPABLE", [6] = "KF_DESTRUCTIVE",
		[7] = "KF_RCU", [8] = "KF_ITER_NEW", [9] = "KF_ITER_NEXT",
		[10] = "KF_ITER_DESTROY", [11] = "KF_RCU_PROTECTED", [12] = "KF_FASTCALL",
		[13] = "KF_ARENA_RET", [14] = "KF_ARENA_ARG1", [15] = "KF_ARENA_ARG2",
		[16] = "KF_IMPLICIT_ARGS",
	};

	return bit < ARRAY_SIZE(names) ? names[bit] : NULL;
}

const char *btf2btf__version(void)
{
	return BTF2BTF_VERSION;
}
