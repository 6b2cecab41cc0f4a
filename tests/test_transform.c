// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The KF_IMPLICIT_ARGS transform, checked on the written file re-parsed
 * with libbpf: _impl FUNCs, reduced protos, tags, legacy, shared protos,
 * untouched functions, split BTF, idempotency.
 */
#include <bpf/btf.h>
#include <errno.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "edit/btf_edit.h"
#include "builder.h"
#include "helpers.h"
#include "recipes.h"

/* Transform a copy of fixture in place; return a libbpf parse of the result. */
static struct btf *transformed(const char *fixture, const char **path_out,
			       const struct btf2btf_opts *opts)
{
	const char *path = th_copy_fixture(fixture, "obj.o");
	struct btf2btf *b = th_open(path, opts);

	assert_int_equal(btf2btf__transform(b), 0);
	assert_int_equal(btf2btf__write_elf(b), 0);
	btf2btf__close(b);
	if (path_out)
		*path_out = path;
	return th_parse(path, NULL);
}

static const struct btf_type *func_proto(const struct btf *btf, const char *func)
{
	const struct btf_type *f = btf__type_by_id(btf, th_find(btf, func, BTF_KIND_FUNC));
	const struct btf_type *p = btf__type_by_id(btf, f->type);

	assert_true(btf_is_func_proto(p));
	return p;
}

static const char *param_name(const struct btf *btf, const struct btf_type *p, int i)
{
	return btf__name_by_offset(btf, btf_params(p)[i].name_off);
}

static int count_named(const struct btf *btf, const char *name, int kind)
{
	int n = 0;

	for (__u32 id = 1; id < btf__type_cnt(btf); id++) {
		const struct btf_type *t = btf__type_by_id(btf, id);

		if (btf_kind(t) == kind && !strcmp(btf__name_by_offset(btf, t->name_off), name))
			n++;
	}
	return n;
}

/* decl tags on type id: count, and the one named name (NULL if absent) */
static const struct btf_type *tag_on(const struct btf *btf, int id, const char *name, int *count)
{
	const struct btf_type *found = NULL;

	*count = 0;
	for (__u32 i = 1; i < btf__type_cnt(btf); i++) {
		const struct btf_type *t = btf__type_by_id(btf, i);

		if (!btf_is_decl_tag(t) || (int)t->type != id)
			continue;
		(*count)++;
		if (!strcmp(btf__name_by_offset(btf, t->name_off), name))
			found = t;
	}
	return found;
}

static void test_impl_added_with_original_proto(void **state)
{
	struct btf *orig = th_parse(th_fixture("basic.o"), NULL);
	struct btf *btf = transformed("basic.o", NULL, NULL);
	const struct btf_type *of = btf__type_by_id(orig, th_find(orig, "bpf_kfunc_implicit_arg", BTF_KIND_FUNC));
	const struct btf_type *impl = btf__type_by_id(btf, th_find(btf, "bpf_kfunc_implicit_arg_impl", BTF_KIND_FUNC));

	(void)state;
	assert_int_equal(impl->type, of->type);		/* the very proto the kernel implements */
	assert_int_equal(btf_vlen(impl), btf_vlen(of));	/* same linkage */
	assert_int_equal(btf_vlen(btf__type_by_id(btf, impl->type)), 2);
	assert_true(btf__type_cnt(btf) > btf__type_cnt(orig));
	btf__free(orig);
	btf__free(btf);
	th_cleanup();
}

static void test_reduced_proto_implicit_last(void **state)
{
	struct btf *btf = transformed("basic.o", NULL, NULL);
	const struct btf_type *p = func_proto(btf, "bpf_kfunc_implicit_arg");

	(void)state;
	assert_int_equal(btf_vlen(p), 1);
	assert_string_equal(param_name(btf, p, 0), "a0");
	assert_int_equal(btf_params(p)[0].type, th_find(btf, "int", BTF_KIND_INT));
	assert_int_equal(p->type, th_find(btf, "int", BTF_KIND_INT));
	btf__free(btf);
	th_cleanup();
}

static void test_reduced_proto_implicit_middle(void **state)
{
	struct btf *btf = transformed("basic.o", NULL, NULL);
	const struct btf_type *p = func_proto(btf, "bpf_kfunc_implicit_mid");
	const struct btf_type *full = func_proto(btf, "bpf_kfunc_implicit_mid_impl");

	(void)state;
	/* everything from the first implicit argument on is dropped */
	assert_int_equal(btf_vlen(p), 1);
	assert_int_equal(btf_vlen(full), 3);
	btf__free(btf);
	th_cleanup();
}

/*
 * As upstream's is_kf_implicit_arg(): through modifiers (const: implicit_mid)
 * but not through a typedef: bpf_kfunc_implicit_typedef(void *, bpf_prog_aux_t *)
 * keeps both parameters and only gets an _impl (with a warning).
 */
static void test_implicit_through_typedef_and_const(void **state)
{
	struct btf *btf = transformed("basic.o", NULL, NULL);

	(void)state;
	assert_int_equal(btf_vlen(func_proto(btf, "bpf_kfunc_implicit_typedef")), 2);
	assert_int_equal(btf_vlen(func_proto(btf, "bpf_kfunc_implicit_typedef_impl")), 2);
	assert_int_equal(btf_vlen(func_proto(btf, "bpf_kfunc_implicit_mid")), 1);
	btf__free(btf);
	th_cleanup();
}

static void test_impl_tags_copied_but_bpf_kfunc(void **state)
{
	struct btf *btf = transformed("basic.o", NULL, NULL);
	int impl = th_find(btf, "bpf_kfunc_implicit_arg_impl", BTF_KIND_FUNC);
	int kf = th_find(btf, "bpf_kfunc_implicit_arg", BTF_KIND_FUNC);
	const struct btf_type *t;
	int n;

	(void)state;
	assert_null(tag_on(btf, impl, "bpf_kfunc", &n));
	/* test_tag, attr_tag and aux_tag (moved: its parameter left the kfunc) */
	assert_int_equal(n, 3);
	t = tag_on(btf, impl, "test_tag", &n);
	assert_non_null(t);
	assert_false(btf_kflag(t));
	assert_int_equal(btf_decl_tag(t)->component_idx, -1);
	t = tag_on(btf, impl, "attr_tag", &n);
	assert_non_null(t);
	assert_true(btf_kflag(t));	/* kind_flag kept */
	t = tag_on(btf, impl, "aux_tag", &n);
	assert_non_null(t);
	assert_int_equal(btf_decl_tag(t)->component_idx, 1);
	/* the kfunc keeps bpf_kfunc, test_tag, attr_tag; no tag past its params */
	assert_non_null(tag_on(btf, kf, "bpf_kfunc", &n));
	assert_int_equal(n, 3);
	assert_null(tag_on(btf, kf, "aux_tag", &n));
	btf__free(btf);
	th_cleanup();
}

static void test_legacy_case(void **state)
{
	struct btf *orig = th_parse(th_fixture("basic.o"), NULL);
	struct btf *btf = transformed("basic.o", NULL, NULL);
	const struct btf_type *oimpl = btf__type_by_id(orig, th_find(orig, "bpf_kfunc_legacy_impl", BTF_KIND_FUNC));
	const struct btf_type *impl = btf__type_by_id(btf, th_find(btf, "bpf_kfunc_legacy_impl", BTF_KIND_FUNC));

	(void)state;
	/* no new FUNC: the source's _impl stays, with its proto */
	assert_int_equal(count_named(btf, "bpf_kfunc_legacy_impl", BTF_KIND_FUNC), 1);
	assert_int_equal(impl->type, oimpl->type);
	assert_int_equal(btf_vlen(func_proto(btf, "bpf_kfunc_legacy_impl")), 3);
	assert_int_equal(btf_vlen(func_proto(btf, "bpf_kfunc_legacy")), 2);
	btf__free(orig);
	btf__free(btf);
	th_cleanup();
}

static void test_shared_proto_not_mutated(void **state)
{
	struct btf *orig = th_parse(th_fixture("kfuncs.gcc.o"), NULL);
	struct btf *btf = transformed("kfuncs.gcc.o", NULL, NULL);
	int oa = th_find(orig, "bpf_kfunc_implicit_arg", BTF_KIND_FUNC);
	int op = th_find(orig, "bpf_kfunc_plain_aux", BTF_KIND_FUNC);
	__u32 shared = btf__type_by_id(orig, oa)->type;

	(void)state;
	/* gcc + pahole dedup: implicit_arg and plain_aux have one FUNC_PROTO */
	assert_int_equal(shared, btf__type_by_id(orig, op)->type);
	assert_int_equal(btf__type_by_id(btf, op)->type, shared);
	assert_int_equal(btf_vlen(btf__type_by_id(btf, shared)), 2);
	assert_int_not_equal(btf__type_by_id(btf, oa)->type, shared);
	/* every original type is byte-for-byte what it was, but the kfunc FUNCs */
	for (__u32 id = 1; id < btf__type_cnt(orig); id++) {
		const struct btf_type *a = btf__type_by_id(orig, id), *b = btf__type_by_id(btf, id);

		assert_int_equal(a->info, b->info);
		assert_int_equal(a->name_off, b->name_off);
		if (!btf_is_func(a))
			assert_int_equal(a->size, b->size);
	}
	btf__free(orig);
	btf__free(btf);
	th_cleanup();
}

static void test_untouched_functions(void **state)
{
	struct btf *orig = th_parse(th_fixture("basic.o"), NULL);
	struct btf *btf = transformed("basic.o", NULL, NULL);
	static const char *const names[] = {
		"bpf_kfunc_plain_aux",		/* has aux, no KF_IMPLICIT_ARGS */
		"bpf_kfunc_noflags",
		"helper_with_aux",		/* has aux, in no set8 */
		"helper_in_plain_set8",		/* has aux, set8 without BTF_SET8_KFUNCS */
	};

	(void)state;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		char impl[128];

		assert_int_equal(btf__type_by_id(btf, th_find(btf, names[i], BTF_KIND_FUNC))->type,
				 btf__type_by_id(orig, th_find(orig, names[i], BTF_KIND_FUNC))->type);
		snprintf(impl, sizeof(impl), "%s_impl", names[i]);
		assert_true(btf__find_by_name_kind(btf, impl, BTF_KIND_FUNC) < 0);
	}
	btf__free(orig);
	btf__free(btf);
	th_cleanup();
}

static void test_stats(void **state)
{
	const char *path = th_copy_fixture("basic.o", "s.o");
	struct btf2btf *b = th_open(path, NULL);
	const struct btf2btf_stats *s = btf2btf__stats(b);

	(void)state;
	assert_int_equal(btf2btf__transform(b), 0);
	assert_int_equal(s->kfuncs, 7);
	assert_int_equal(s->by_both, 2);	/* tagged and in the set8 */
	assert_int_equal(s->by_set8, 5);
	assert_int_equal(s->implicit, 4);
	assert_int_equal(s->transformed, 4);
	assert_int_equal(s->legacy, 1);
	assert_int_equal(s->impl_added, 3);
	assert_int_equal(s->already, 0);
	assert_true(btf2btf__changed(b));
	btf2btf__close(b);
	th_cleanup();
}

static void test_kfunc_found_by_tag_only(void **state)
{
	struct fx_obj o = { 0 };
	const char *path = th_path("tag.o");
	struct btf2btf *b;
	struct fx_btf fb;
	int f;

	(void)state;
	assert_int_equal(fx_btf_init(&fb, NULL), 0);
	f = fx_add_func(&fb, "tagged_only", fb.t_int, (int[]){ fb.t_int }, 1);
	btf__add_decl_tag(fb.btf, "bpf_kfunc", f, -1);
	fx_add_func(&fb, "untagged", fb.t_int, (int[]){ fb.t_int }, 1);
	o.no_btf_ids = true;
	assert_int_equal(fx_write_elf_btf(path, &o, fb.btf), 0);
	btf__free(fb.btf);
	b = th_open(path, NULL);
	assert_int_equal(btf2btf__kfunc_cnt(b), 1);
	assert_string_equal(btf2btf__kfunc(b, 0)->name, "tagged_only");
	assert_int_equal(btf2btf__kfunc(b, 0)->found_by, BTF2BTF_FOUND_TAG);
	assert_int_equal(btf2btf__kfunc(b, 0)->flags, 0);
	assert_string_equal(btf2btf__kfunc(b, 0)->sets, "");
	btf2btf__close(b);
	th_cleanup();
}

static void test_idempotent(void **state)
{
	const char *path;
	struct btf *btf = transformed("basic.o", &path, NULL);
	const char *copy = th_path("first.o");
	struct btf2btf *b;

	(void)state;
	btf__free(btf);
	th_copy(path, copy);
	b = th_open(path, NULL);
	assert_int_equal(btf2btf__transform(b), 0);
	assert_int_equal(btf2btf__stats(b)->already, 4);
	assert_int_equal(btf2btf__stats(b)->transformed, 0);
	assert_int_equal(btf2btf__stats(b)->impl_added, 0);
	assert_false(btf2btf__changed(b));
	assert_int_equal(btf2btf__write_elf(b), 0);
	btf2btf__close(b);
	assert_true(th_same_file(path, copy));
	th_cleanup();
}

static void test_deterministic_output(void **state)
{
	const char *a = th_copy_fixture("kfuncs.clang.o", "a.o");
	const char *b = th_copy_fixture("kfuncs.clang.o", "b.o");
	struct btf2btf *x = th_open(a, NULL), *y = th_open(b, NULL);

	(void)state;
	assert_int_equal(btf2btf__transform(x), 0);
	assert_int_equal(btf2btf__write_elf(x), 0);
	assert_int_equal(btf2btf__transform(y), 0);
	assert_int_equal(btf2btf__write_elf(y), 0);
	btf2btf__close(x);
	btf2btf__close(y);
	assert_true(th_same_file(a, b));
	assert_false(th_same_file(a, th_fixture("kfuncs.clang.o")));
	th_cleanup();
}

static void test_add_kfunc_tags(void **state)
{
	BTF2BTF_OPTS(o, .add_kfunc_tags = true);
	const char *path = th_copy_fixture("kfuncs.gcc.o", "t.o");
	struct btf2btf *b = th_open(path, &o);
	struct btf *btf;
	int n;

	(void)state;
	assert_int_equal(btf2btf__transform(b), 0);
	assert_int_equal(btf2btf__stats(b)->tags_added, 8);
	assert_int_equal(btf2btf__write_elf(b), 0);
	btf2btf__close(b);
	btf = th_parse(path, NULL);
	assert_non_null(tag_on(btf, th_find(btf, "bpf_kfunc_noflags", BTF_KIND_FUNC), "bpf_kfunc", &n));
	assert_int_equal(n, 1);
	/* _impl FUNCs are not kfuncs */
	assert_null(tag_on(btf, th_find(btf, "bpf_kfunc_implicit_arg_impl", BTF_KIND_FUNC), "bpf_kfunc", &n));
	btf__free(btf);
	/* a second run finds the tags and adds nothing */
	b = th_open(path, &o);
	assert_int_equal(btf2btf__transform(b), 0);
	assert_int_equal(btf2btf__stats(b)->by_both, 8);
	assert_int_equal(btf2btf__stats(b)->tags_added, 0);
	assert_false(btf2btf__changed(b));
	btf2btf__close(b);
	th_cleanup();
}

static void test_split_module_with_base(void **state)
{
	const char *base = th_fixture("split.o");
	const char *mod = th_copy_fixture("split.o.ko", "mod.ko");
	BTF2BTF_OPTS(o, .base_path = base);
	struct btf *bbtf = th_parse(base, NULL), *mbtf;
	__u32 base_cnt = btf__type_cnt(bbtf);
	struct btf2btf *b = th_open(mod, &o);
	int impl;

	(void)state;
	assert_int_equal(btf2btf__transform(b), 0);
	assert_int_equal(btf2btf__stats(b)->transformed, 2);
	assert_int_equal(btf2btf__stats(b)->legacy, 1);
	assert_int_equal(btf2btf__write_elf(b), 0);
	btf2btf__close(b);
	mbtf = th_parse(mod, bbtf);
	impl = th_find(mbtf, "bpf_kfunc_implicit_arg_impl", BTF_KIND_FUNC);
	assert_true((__u32)impl >= base_cnt);	/* added to the module, not the base */
	assert_int_equal(btf_vlen(func_proto(mbtf, "bpf_kfunc_implicit_arg")), 1);
	assert_int_equal(btf_vlen(func_proto(mbtf, "bpf_kfunc_implicit_arg_legacy")), 2);
	/* the base's own kfunc is the base's business */
	assert_int_equal(btf_vlen(func_proto(mbtf, "bpf_wq_set_callback")), 4);
	btf__free(mbtf);
	btf__free(bbtf);
	th_cleanup();
}

static void test_raw_output_matches_memory(void **state)
{
	const char *path = th_copy_fixture("basic.o", "r.o");
	const char *out = th_path("r.btf");
	struct btf2btf *b = th_open(path, NULL);
	struct btf *btf;

	(void)state;
	assert_int_equal(btf2btf__transform(b), 0);
	assert_int_equal(btf2btf__write_raw(b, out), 0);
	th_assert_raw_written(b, out, NULL);
	btf2btf__close(b);
	assert_true(th_same_file(path, th_fixture("basic.o")));	/* -o leaves the input */
	btf = th_parse(out, NULL);
	assert_int_equal(btf_vlen(func_proto(btf, "bpf_kfunc_implicit_arg")), 1);
	btf__free(btf);
	th_cleanup();
}

/*
 * Without a post-pass, a raw write streams the result from its pieces (the
 * types as read between the repointed ones, through a 64 KB buffer);
 * raw_btf() lays it out whole. A BTF of more than four buffers, 2,000
 * repointed FUNCs and a new string per _impl: the same bytes both ways, and
 * as read back.
 */
static void test_streamed_write_matches_laid_out(void **state)
{
	const char *path = th_path("many.o"), *out = th_path("many.btf");
	/* default: the merge's pieces; all: the sort's chunks, over the merge */
	const unsigned int features[] = { 0, BTF2BTF_FEATS_ALL };

	(void)state;
	assert_int_equal(fx_write_synthetic(path, 6000, 2, 3, 500), 0);
	for (size_t i = 0; i < sizeof(features) / sizeof(features[0]); i++) {
		BTF2BTF_OPTS(o, .features = features[i]);
		const struct btf_type *t;
		struct btf2btf *b;
		struct btf *btf;
		size_t size;
		int impl;

		b = th_open(path, &o);
		assert_int_equal(btf2btf__transform(b), 0);
		assert_int_equal(btf2btf__stats(b)->transformed, 2000);
		assert_int_equal(btf2btf__write_raw(b, out), 0);
		th_assert_raw_written(b, out, &size);
		assert_true(size > 4 * 64 * 1024);
		btf2btf__close(b);
		/* the last kfunc flagged: reduced, its _impl new */
		btf = th_parse(out, NULL);
		impl = th_find(btf, "bpf_synth_kfunc_5997_impl", BTF_KIND_FUNC);
		assert_true(impl > 0);
		t = btf__type_by_id(btf, th_find(btf, "bpf_synth_kfunc_5997", BTF_KIND_FUNC));
		assert_int_equal(btf_vlen(btf__type_by_id(btf, t->type)) + 1,
				 btf_vlen(btf__type_by_id(btf, btf__type_by_id(btf, impl)->type)));
		btf__free(btf);
	}
	th_cleanup();
}

/*
 * A type repointed twice (a kfunc reduced, then given its arena prototype)
 * takes the later repointing, also when the repointings are not in id
 * order; each ->type is written once.
 */
static void test_merge_repointed_twice(void **state)
{
	struct btf *build = btf__new_empty(), *out;
	int i32, one_arg, no_arg, two_args, fa, fb;
	struct b2b_btf orig;
	struct b2b_ext x;
	const void *raw;
	size_t size;
	void *data;
	__u32 sz;

	(void)state;
	i32 = btf__add_int(build, "int", 4, BTF_INT_SIGNED);
	one_arg = btf__add_func_proto(build, i32);
	assert_int_equal(btf__add_func_param(build, "a", i32), 0);
	no_arg = btf__add_func_proto(build, i32);
	two_args = btf__add_func_proto(build, i32);
	assert_int_equal(btf__add_func_param(build, "a", i32), 0);
	assert_int_equal(btf__add_func_param(build, "b", i32), 0);
	fa = btf__add_func(build, "fa", BTF_FUNC_GLOBAL, one_arg);
	fb = btf__add_func(build, "fb", BTF_FUNC_GLOBAL, one_arg);
	assert_true(fa > 0 && fb > fa);
	/* the layout reads the model of the bytes */
	raw = btf__raw_data(build, &sz);
	assert_int_equal(b2b_btf_open(&orig, raw, sz, NULL), 0);
	assert_int_equal(b2b_ext_init(&x, &orig), 0);
	assert_int_equal(b2b_ext_retype(&x, fb, no_arg), 0);
	assert_int_equal(b2b_ext_retype(&x, fa, no_arg), 0);
	assert_int_equal(b2b_ext_retype(&x, fa, two_args), 0);
	assert_int_equal(b2b_ext_lay_out(&x, &data, &size), 0);
	assert_int_equal(size, sz);	/* nothing added: the same layout */
	out = btf__new(data, size);
	assert_non_null(out);
	assert_int_equal(btf__type_by_id(out, fa)->type, two_args);
	assert_int_equal(btf__type_by_id(out, fb)->type, no_arg);
	assert_int_equal(btf__type_by_id(out, one_arg)->type, i32);
	btf__free(out);
	free(data);
	b2b_ext_free(&x);
	b2b_btf_free(&orig);
	btf__free(build);
}

static void test_elf_image_matches_file(void **state)
{
	const char *path = th_copy_fixture("basic-exec.o", "e.o");
	struct btf2btf *b = th_open(path, NULL);
	void *img = NULL, *file;
	size_t isize = 0, fsize;

	(void)state;
	assert_int_equal(btf2btf__transform(b), 0);
	assert_int_equal(btf2btf__elf_image(b, &img, &isize), 0);
	assert_int_equal(btf2btf__write_elf(b), 0);
	btf2btf__close(b);
	file = th_read(path, &fsize);
	assert_int_equal(isize, fsize);
	assert_memory_equal(img, file, fsize);
	free(img);
	free(file);
	th_cleanup();
}

/* An executable keeps its program headers and allocated sections in place. */
static void test_executable_layout_kept(void **state)
{
	const char *orig = th_fixture("basic-exec.o");
	const char *path;
	struct btf *btf = transformed("basic-exec.o", &path, NULL);
	size_t osz, nsz;
	unsigned char *o = th_read(orig, &osz), *n = th_read(path, &nsz);
	Elf64_Ehdr *oe = (Elf64_Ehdr *)o, *ne = (Elf64_Ehdr *)n;

	(void)state;
	assert_int_equal(oe->e_phoff, ne->e_phoff);
	assert_memory_equal(o + oe->e_phoff, n + ne->e_phoff, oe->e_phnum * sizeof(Elf64_Phdr));
	for (int i = 1; i < oe->e_shnum; i++) {
		Elf64_Shdr *os = (Elf64_Shdr *)(o + oe->e_shoff) + i;
		Elf64_Shdr *ns = (Elf64_Shdr *)(n + ne->e_shoff) + i;

		if (!(os->sh_flags & SHF_ALLOC))
			continue;
		assert_int_equal(os->sh_offset, ns->sh_offset);
		assert_int_equal(os->sh_addr, ns->sh_addr);
		assert_memory_equal(o + os->sh_offset, n + ns->sh_offset, os->sh_size);
	}
	assert_int_equal(btf_vlen(func_proto(btf, "bpf_kfunc_implicit_arg")), 1);
	free(o);
	free(n);
	btf__free(btf);
	th_cleanup();
}

static void test_btf_not_last_section_relocated(void **state)
{
	struct fx_obj shape = { .btf_not_last = true };
	const char *path = th_path("nl.o");
	struct btf2btf *b;
	struct btf *btf;

	(void)state;
	assert_int_equal(fx_make_basic(path, &shape), 0);
	b = th_open(path, NULL);
	assert_int_equal(btf2btf__transform(b), 0);
	assert_int_equal(btf2btf__write_elf(b), 0);
	btf2btf__close(b);
	btf = th_parse(path, NULL);
	assert_int_equal(btf_vlen(func_proto(btf, "bpf_kfunc_implicit_arg")), 1);
	btf__free(btf);
	/* and the rest of the object still reads: the kfunc table is intact */
	b = th_open(path, NULL);
	assert_int_equal(btf2btf__kfunc_cnt(b), 7);
	btf2btf__close(b);
	th_cleanup();
}

static void test_allocated_btf_refused_in_place(void **state)
{
	struct fx_obj shape = { .btf_alloc = true, .e_type = ET_EXEC };
	const char *path = th_path("alloc.o"), *copy = th_path("alloc.copy");
	struct btf2btf *b;

	(void)state;
	assert_int_equal(fx_make_basic(path, &shape), 0);
	th_copy(path, copy);
	b = th_open(path, NULL);
	assert_int_equal(btf2btf__transform(b), 0);
	th_log_reset();
	assert_int_equal(btf2btf__write_elf(b), -ENOTSUP);
	assert_non_null(strstr(th_log_errors, "write raw BTF with -o"));
	/* raw output still works */
	assert_int_equal(btf2btf__write_raw(b, th_path("alloc.btf")), 0);
	btf2btf__close(b);
	assert_true(th_same_file(path, copy));
	th_cleanup();
}

static void test_wq_set_callback_like_seed(void **state)
{
	struct btf *btf = transformed("kfuncs.gcc.o", NULL, NULL);
	const struct btf_type *p = func_proto(btf, "bpf_wq_set_callback");

	(void)state;
	assert_int_equal(btf_vlen(p), 3);
	assert_string_equal(param_name(btf, p, 2), "flags");
	assert_int_equal(btf_vlen(func_proto(btf, "bpf_wq_set_callback_impl")), 4);
	btf__free(btf);
	th_cleanup();
}

/* ---- every input shape reaches every feature ---- */

enum shape { SH_LE64, SH_BE, SH_ELF32, SH_SPLIT, SH_DISTILLED, NR_SHAPES };
static const char *const shape_names[] = { "le64", "be", "elf32", "split", "distilled" };

/* One kfunc per feature: KF_IMPLICIT_ARGS, KF_FASTCALL, KF_ARENA_ARG1; the
 * reduced prototype of the first is int (int), bpf_fast's own: dedup folds
 * them. Split shapes put the kfuncs in a module over a base. */
static void make_shape(enum shape sh, const char *path, const char *base_path)
{
	static const struct fx_entry kf[] = {
		{ "bpf_impl_kf", 1U << 16 }, { "bpf_fast", 1U << 12 }, { "bpf_arena", 1U << 14 },
	};
	struct fx_set8 set = { "shape_kfunc_ids", 1, kf, 3 };
	struct fx_obj obj = { .sets = &set, .nr_sets = 1 };
	struct fx_btf base, b;

	if (sh == SH_BE)
		obj.elf_data = ELFDATA2MSB;
	if (sh == SH_ELF32)
		obj.elf_class = ELFCLASS32;
	if (sh >= SH_SPLIT) {
		assert_int_equal(fx_btf_init(&base, NULL), 0);
		assert_true(fx_add_func(&base, "vmlinux_func", base.t_int, (int[]){ base.t_long }, 1) > 0);
		assert_int_equal(fx_write_elf_btf(base_path, &(struct fx_obj){ .no_btf_ids = true }, base.btf), 0);
	}
	assert_int_equal(fx_btf_init(&b, sh >= SH_SPLIT ? base.btf : NULL), 0);
	assert_true(fx_add_func(&b, "bpf_impl_kf", b.t_int, (int[]){ b.t_int, b.t_aux_ptr }, 2) > 0);
	assert_true(fx_add_func(&b, "bpf_fast", b.t_int, (int[]){ b.t_int }, 1) > 0);
	assert_true(fx_add_func(&b, "bpf_arena", b.t_int, (int[]){ b.t_voidp }, 1) > 0);
	assert_int_equal(fx_write_elf_btf(path, &obj, b.btf), 0);
	btf__free(b.btf);
	if (sh >= SH_SPLIT)
		btf__free(base.btf);
}

/* FUNC_PROTOs int (int) of the split part (or the whole BTF). */
static int count_int_of_int(const struct btf *btf)
{
	const struct btf *base = btf__base_btf(btf);
	int n = 0;

	for (__u32 id = base ? btf__type_cnt(base) : 1; id < btf__type_cnt(btf); id++) {
		const struct btf_type *t = btf__type_by_id(btf, id), *r, *a;

		if (!btf_is_func_proto(t) || btf_vlen(t) != 1)
			continue;
		r = btf__type_by_id(btf, t->type);
		a = btf__type_by_id(btf, btf_params(t)[0].type);
		if (r && a && btf_is_int(r) && btf_is_int(a) && btf_int_bits(r) == 32 &&
		    btf_int_bits(a) == 32)
			n++;
	}
	return n;
}

/* Named types of the split part (or the whole BTF) in name order. */
static bool sorted_by_name(const struct btf *btf)
{
	const struct btf *base = btf__base_btf(btf);
	const char *prev = NULL;

	for (__u32 id = base ? btf__type_cnt(base) : 1; id < btf__type_cnt(btf); id++) {
		const char *n = btf__name_by_offset(btf, btf__type_by_id(btf, id)->name_off);

		if (!n || !*n)
			continue;
		if (prev && strcmp(prev, n) > 0)
			return false;
		prev = n;
	}
	return true;
}

/* The feature's mark on the result, as libbpf reads the written object back. */
static void check_feature(const struct btf *btf, unsigned int feat, const char *what)
{
	bool ok;

	switch (feat) {
	case BTF2BTF_FEAT_IMPLICIT_ARGS:
		ok = count_named(btf, "bpf_impl_kf_impl", BTF_KIND_FUNC) == 1;
		break;
	case BTF2BTF_FEAT_KFUNC_TAGS:
		ok = count_named(btf, "bpf_kfunc", BTF_KIND_DECL_TAG) == 3;
		break;
	case BTF2BTF_FEAT_FASTCALL_TAGS:
		ok = count_named(btf, "bpf_fastcall", BTF_KIND_DECL_TAG) == 1;
		break;
	case BTF2BTF_FEAT_ARENA_ATTRS:
		ok = count_named(btf, "address_space(1)", BTF_KIND_TYPE_TAG) == 1;
		break;
	case BTF2BTF_FEAT_DEDUP:
		ok = count_int_of_int(btf) == 1;
		break;
	default:
		ok = sorted_by_name(btf);
		break;
	}
	if (!ok)
		fail_msg("%s: the feature left no mark on the written BTF", what);
}

static void test_every_shape_every_feature(void **state)
{
	const char *path = th_path("shape.o"), *base = th_path("vmlinux.o");
	const char *out = th_path("out.o"), *out_base = th_path("out.base");

	(void)state;
	for (int sh = 0; sh < NR_SHAPES; sh++) {
		for (unsigned int feat = 1; feat & BTF2BTF_FEATS_ALL; feat <<= 1) {
			BTF2BTF_OPTS(o, .log = th_log_cb, .distill_base = sh == SH_DISTILLED);
			struct btf *read_base = NULL, *res;
			struct btf2btf *b;
			const void *img;
			size_t size;
			char what[64];

			snprintf(what, sizeof(what), "%s, feature 0x%x", shape_names[sh], feat);
			make_shape(sh, path, base);
			/* dedup and sort act on what the transform adds */
			o.features = feat | (feat >= BTF2BTF_FEAT_DEDUP ? BTF2BTF_FEAT_IMPLICIT_ARGS : 0);
			o.base_path = sh >= SH_SPLIT ? base : NULL;
			b = th_open(path, &o);
			if (btf2btf__transform(b))
				fail_msg("%s: transform failed", what);
			assert_true(btf2btf__changed(b));
			assert_int_equal(btf2btf__elf_image(b, (void **)&img, &size), 0);
			assert_int_equal(fx_write_file(out, img, size), 0);
			free((void *)img);
			if (sh == SH_DISTILLED) {
				assert_int_equal(btf2btf__write_raw_base(b, out_base), 0);
				read_base = th_parse(out_base, NULL);
			} else if (sh == SH_SPLIT) {
				read_base = th_parse(base, NULL);
			}
			res = th_parse(out, read_base);
			check_feature(res, feat, what);
			btf__free(res);
			btf__free(read_base);
			btf2btf__close(b);
		}
	}
	th_cleanup();
}

/*
 * The edit's appender gives the types and strings libbpf's btf__new_empty()
 * and btf__add_*() give for the same additions, byte for byte (the
 * written BTF depends on the order of its strings): a prototype whose
 * parameters repeat a name, a FUNC, a PTR, a TYPE_TAG and DECL_TAGs on
 * the function and a parameter; a kind the table does not know refused.
 */
static void test_appender_is_libbpfs(void **state)
{
	struct btf *lib = btf__new_empty();
	struct b2b_new_types nt;
	const char *raw;
	struct btf_header h;
	__u32 size;
	int n;

	(void)state;
	assert_non_null(lib);
	assert_int_equal(b2b_new_types_init(&nt), 0);
	assert_int_equal(btf__add_func_proto(lib, 7), 1);
	assert_int_equal(btf__add_func_param(lib, "ctx", 3), 0);
	assert_int_equal(btf__add_func_param(lib, "", 4), 0);
	assert_int_equal(btf__add_func_param(lib, "ctx", 5), 0);
	assert_int_equal(btf__add_func(lib, "bpf_foo_impl", BTF_FUNC_GLOBAL, 1), 2);
	assert_int_equal(btf__add_ptr(lib, 9), 3);
	assert_int_equal(btf__add_type_tag(lib, "address_space(1)", 3), 4);
	assert_int_equal(btf__add_decl_tag(lib, "bpf_kfunc", 2, -1), 5);
	assert_int_equal(btf__add_decl_tag(lib, "ctx", 2, 1), 6);

	n = b2b_btf_add_type(&nt, NULL, BTF_KIND_FUNC_PROTO, 3, false, 7);
	assert_int_equal(n, 1);
	for (int i = 0; i < 3; i++) {
		long off = b2b_btf_add_str(&nt, i == 1 ? "" : "ctx");

		assert_true(off >= 0);
		b2b_params(b2b_new_type(&nt, n))[i].name_off = off;
		b2b_params(b2b_new_type(&nt, n))[i].type = 3 + i;
	}
	assert_int_equal(b2b_btf_add_type(&nt, "bpf_foo_impl", BTF_KIND_FUNC, BTF_FUNC_GLOBAL,
					  false, 1), 2);
	assert_int_equal(b2b_btf_add_type(&nt, NULL, BTF_KIND_PTR, 0, false, 9), 3);
	assert_int_equal(b2b_btf_add_type(&nt, "address_space(1)", BTF_KIND_TYPE_TAG, 0, false, 3), 4);
	assert_int_equal(b2b_btf_add_type(&nt, "bpf_kfunc", BTF_KIND_DECL_TAG, 0, false, 2), 5);
	b2b_decl_tag(b2b_new_type(&nt, 5))->component_idx = -1;
	assert_int_equal(b2b_btf_add_type(&nt, "ctx", BTF_KIND_DECL_TAG, 0, false, 2), 6);
	b2b_decl_tag(b2b_new_type(&nt, 6))->component_idx = 1;
	assert_int_equal(b2b_btf_add_type(&nt, "x", B2B_BTF_NR_KINDS, 0, false, 0), -EINVAL);
	assert_int_equal(nt.nr, 6);
	assert_null(b2b_new_type(&nt, 7));

	raw = btf__raw_data(lib, &size);
	assert_non_null(raw);
	memcpy(&h, raw, sizeof(h));
	assert_int_equal(nt.len, h.type_len);
	assert_memory_equal(nt.types, raw + h.hdr_len + h.type_off, h.type_len);
	assert_int_equal(nt.strs.len, h.str_len);
	assert_memory_equal(nt.strs.buf, raw + h.hdr_len + h.str_off, h.str_len);
	b2b_new_types_free(&nt);
	btf__free(lib);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_appender_is_libbpfs),
		cmocka_unit_test(test_every_shape_every_feature),
		cmocka_unit_test(test_impl_added_with_original_proto),
		cmocka_unit_test(test_reduced_proto_implicit_last),
		cmocka_unit_test(test_reduced_proto_implicit_middle),
		cmocka_unit_test(test_implicit_through_typedef_and_const),
		cmocka_unit_test(test_impl_tags_copied_but_bpf_kfunc),
		cmocka_unit_test(test_legacy_case),
		cmocka_unit_test(test_shared_proto_not_mutated),
		cmocka_unit_test(test_untouched_functions),
		cmocka_unit_test(test_stats),
		cmocka_unit_test(test_kfunc_found_by_tag_only),
		cmocka_unit_test(test_idempotent),
		cmocka_unit_test(test_deterministic_output),
		cmocka_unit_test(test_add_kfunc_tags),
		cmocka_unit_test(test_split_module_with_base),
		cmocka_unit_test(test_raw_output_matches_memory),
		cmocka_unit_test(test_streamed_write_matches_laid_out),
		cmocka_unit_test(test_merge_repointed_twice),
		cmocka_unit_test(test_elf_image_matches_file),
		cmocka_unit_test(test_executable_layout_kept),
		cmocka_unit_test(test_btf_not_last_section_relocated),
		cmocka_unit_test(test_allocated_btf_refused_in_place),
		cmocka_unit_test(test_wq_set_callback_like_seed),
	};

	return cmocka_run_group_tests_name("transform", tests, NULL, NULL);
}
