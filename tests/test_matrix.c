// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Every input shape reaches every feature. The features are the CLI's own
 * list (`btf2btf --features=help`), checked against the library's bits; the
 * inputs are the fixture generator's "every-feature" recipe in each class,
 * byte order and split/distilled form. One test per (shape, feature): the
 * object is rewritten in place with --features=FEATURE, and each feature's
 * work is found in the output exactly when it was asked for (and never in
 * the input), with the object's class and byte order kept, in .BTF and in
 * a distilled .BTF.base.
 */
#include <bpf/btf.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "helpers.h"
#include "util/libbpf_compat.h"
#include "recipes.h"

/* ---- what each feature leaves in the BTF ---- */

static const struct btf_type *func(const struct btf *btf, const char *name)
{
	int id = btf__find_by_name_kind(btf, name, BTF_KIND_FUNC);

	return id > 0 ? btf__type_by_id(btf, id) : NULL;
}

/* Whether FUNC name carries decl tag value on component idx (-1: the FUNC). */
static bool has_tag(const struct btf *btf, const char *name, const char *value, int idx)
{
	int id = btf__find_by_name_kind(btf, name, BTF_KIND_FUNC);

	for (__u32 i = 1; id > 0 && i < btf__type_cnt(btf); i++) {
		const struct btf_type *t = btf__type_by_id(btf, i);

		if (btf_is_decl_tag(t) && t->type == (__u32)id &&
		    btf_decl_tag(t)->component_idx == idx &&
		    !strcmp(btf__name_by_offset(btf, t->name_off), value))
			return true;
	}
	return false;
}

static int nr_params(const struct btf *btf, const char *name)
{
	const struct btf_type *f = func(btf, name);

	return f ? btf_vlen(btf__type_by_id(btf, f->type)) : -1;
}

/* KF_IMPLICIT_ARGS: a new _impl and a legacy one, each with the dropped
 * parameter's tag, and both kfuncs reduced. */
static bool implicit_args_done(const struct btf *btf)
{
	return func(btf, "bpf_ev_implicit_impl") && nr_params(btf, "bpf_ev_implicit") == 1 &&
	       nr_params(btf, "bpf_ev_legacy") == 1 &&
	       has_tag(btf, "bpf_ev_implicit_impl", "ev_aux", 1) &&
	       !has_tag(btf, "bpf_ev_implicit", "ev_aux", 1) &&
	       has_tag(btf, "bpf_ev_legacy_impl", "ev_aux", 1) &&
	       !has_tag(btf, "bpf_ev_legacy", "ev_aux", 1);
}

static bool kfunc_tags_done(const struct btf *btf)
{
	static const char *const kfuncs[] = { "bpf_ev_implicit", "bpf_ev_legacy",
					      "bpf_ev_legacy_impl", "bpf_ev_fastcall",
					      "bpf_ev_arena", "bpf_ev_plain" };

	for (size_t i = 0; i < sizeof(kfuncs) / sizeof(kfuncs[0]); i++)
		if (!has_tag(btf, kfuncs[i], "bpf_kfunc", -1))
			return false;
	return true;
}

static bool fastcall_tags_done(const struct btf *btf)
{
	return has_tag(btf, "bpf_ev_fastcall", "bpf_fastcall", -1) &&
	       !has_tag(btf, "bpf_ev_plain", "bpf_fastcall", -1);
}

/* A pointer through an address_space(1) type attribute (kind_flag set). */
static bool is_arena_ptr(const struct btf *btf, __u32 id)
{
	const struct btf_type *t = btf__type_by_id(btf, id);

	if (!t || !btf_is_ptr(t))
		return false;
	t = btf__type_by_id(btf, t->type);
	return t && btf_is_type_tag(t) && btf_kflag(t) &&
	       !strcmp(btf__name_by_offset(btf, t->name_off), "address_space(1)");
}

static bool arena_attrs_done(const struct btf *btf)
{
	const struct btf_type *f = func(btf, "bpf_ev_arena");
	const struct btf_type *p = f ? btf__type_by_id(btf, f->type) : NULL;

	return p && btf_vlen(p) == 1 && is_arena_ptr(btf, p->type) &&
	       is_arena_ptr(btf, btf_params(p)[0].type);
}

static bool dedup_done(const struct btf *btf)
{
	int nr = 0;

	for (__u32 i = 1; i < btf__type_cnt(btf); i++) {
		const struct btf_type *t = btf__type_by_id(btf, i);

		nr += btf_is_struct(t) && !strcmp(btf__name_by_offset(btf, t->name_off), "ev_dup");
	}
	return nr == 1;
}

/* The types of the BTF (its split part) in name order. */
static bool sort_done(const struct btf *btf)
{
	const struct btf *base = btf__base_btf(btf);

	for (__u32 id = (base ? btf__type_cnt(base) : 1) + 1; id < btf__type_cnt(btf); id++)
		if (strcmp(btf__name_by_offset(btf, btf__type_by_id(btf, id - 1)->name_off),
			   btf__name_by_offset(btf, btf__type_by_id(btf, id)->name_off)) > 0)
			return false;
	return true;
}

/*
 * Every name --features takes: a feature (its bit, and how to see its work)
 * or a set of them (done NULL). test_features_known keeps this table, the
 * CLI's list and the library's bits the same.
 */
static const struct feature {
	const char *name;
	unsigned int bits;
	bool (*done)(const struct btf *btf);
} features[] = {
	{ "implicit_args", BTF2BTF_FEAT_IMPLICIT_ARGS, implicit_args_done },
	{ "kfunc_tags", BTF2BTF_FEAT_KFUNC_TAGS, kfunc_tags_done },
	{ "fastcall_tags", BTF2BTF_FEAT_FASTCALL_TAGS, fastcall_tags_done },
	{ "arena_attrs", BTF2BTF_FEAT_ARENA_ATTRS, arena_attrs_done },
	{ "dedup", BTF2BTF_FEAT_DEDUP, dedup_done },
	{ "sort", BTF2BTF_FEAT_SORT, sort_done },
	{ "default", BTF2BTF_FEATS_DEFAULT, NULL },
	{ "all", BTF2BTF_FEATS_ALL, NULL },
};
#define NR_FEATURES (sizeof(features) / sizeof(features[0]))

static const struct feature *feature_named(const char *name)
{
	for (size_t i = 0; i < NR_FEATURES; i++)
		if (!strcmp(features[i].name, name))
			return &features[i];
	return NULL;
}

/* ---- the input shapes ---- */

static const struct shape {
	const char *name;
	unsigned char elf_class, elf_data;
	bool split;		/* a module on a base (-B) */
	bool distill;		/* --distill-base: .BTF.base added */
} shapes[] = {
	{ "elf64-le", ELFCLASS64, ELFDATA2LSB, false, false },
	{ "elf64-be", ELFCLASS64, ELFDATA2MSB, false, false },
	{ "elf32-le", ELFCLASS32, ELFDATA2LSB, false, false },
	{ "elf32-be", ELFCLASS32, ELFDATA2MSB, false, false },
	{ "split", ELFCLASS64, ELFDATA2LSB, true, false },
	{ "split-be", ELFCLASS64, ELFDATA2MSB, true, false },
	{ "split-elf32", ELFCLASS32, ELFDATA2LSB, true, false },
	{ "distilled", ELFCLASS64, ELFDATA2LSB, true, true },
	{ "distilled-be", ELFCLASS64, ELFDATA2MSB, true, true },
	{ "distilled-elf32", ELFCLASS32, ELFDATA2LSB, true, true },
};
#define NR_SHAPES (sizeof(shapes) / sizeof(shapes[0]))

/* A section of an ELF file as it is in the file (NULL: none), and the
 * file's class and byte order. */
struct elf_view {
	unsigned char elf_class, elf_data;
	void *btf, *btf_base;
	size_t btf_size, btf_base_size;
};

static void *copy_section(Elf_Scn *scn, size_t *size)
{
	Elf_Data *d = elf_rawdata(scn, NULL);
	void *copy;

	assert_non_null(d);
	copy = malloc(d->d_size ? d->d_size : 1);
	assert_non_null(copy);
	memcpy(copy, d->d_buf, d->d_size);
	*size = d->d_size;
	return copy;
}

static void read_elf(const char *path, struct elf_view *v)
{
	int fd = open(path, O_RDONLY);
	Elf_Scn *scn = NULL;
	size_t shstrndx;
	Elf *elf;
	char *ident;

	memset(v, 0, sizeof(*v));
	assert_true(fd >= 0);
	assert_int_not_equal(elf_version(EV_CURRENT), EV_NONE);
	elf = elf_begin(fd, ELF_C_READ, NULL);
	assert_non_null(elf);
	ident = elf_getident(elf, NULL);
	assert_non_null(ident);
	v->elf_class = ident[EI_CLASS];
	v->elf_data = ident[EI_DATA];
	assert_int_equal(elf_getshdrstrndx(elf, &shstrndx), 0);
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		const char *name;

		assert_non_null(gelf_getshdr(scn, &sh));
		name = elf_strptr(elf, shstrndx, sh.sh_name);
		if (name && !strcmp(name, ".BTF"))
			v->btf = copy_section(scn, &v->btf_size);
		else if (name && !strcmp(name, ".BTF.base"))
			v->btf_base = copy_section(scn, &v->btf_base_size);
	}
	elf_end(elf);
	close(fd);
}

static void free_elf(struct elf_view *v)
{
	free(v->btf);
	free(v->btf_base);
}

/* BTF bytes in the byte order of the ELF that holds them (magic 0xeB9F). */
static void assert_btf_order(const void *raw, unsigned char elf_data, const char *what)
{
	const unsigned char *m = raw;
	bool big = m[0] == 0xeb && m[1] == 0x9f;

	if (big != (elf_data == ELFDATA2MSB) || (!big && !(m[0] == 0x9f && m[1] == 0xeb)))
		fail_msg("%s: BTF magic %02x %02x in an ELFDATA %u object", what, m[0], m[1],
			 elf_data);
}

static struct btf *parse(const void *raw, size_t size, const struct btf *base, const char *what)
{
	struct btf *btf = b2b_btf_new(raw, size, base);

	if (!btf)
		fail_msg("libbpf cannot parse %s: %s", what, strerror(errno));
	return btf;
}

/* ---- the matrix ---- */

struct cell {
	const struct shape *shape;
	const char *feature;	/* a name the CLI lists */
	char name[80];
};

static void test_cell(void **state)
{
	const struct cell *c = *state;
	const struct shape *s = c->shape;
	const struct feature *f = feature_named(c->feature);
	struct fx_obj shape = { .elf_class = s->elf_class, .elf_data = s->elf_data };
	const char *obj = th_path("obj.o"), *base_obj = th_path("base.o");
	char *opt = NULL;
	const char *argv[8];
	struct btf *full_base = NULL, *in, *out, *out_base = NULL;
	struct elf_view before, after;
	struct run r;
	int argc = 0;

	if (!f)
		fail_msg("--features lists %s, which this test does not know", c->feature);
	assert_int_equal(fx_make_every_feature(obj, s->split ? base_obj : NULL, &shape), 0);
	read_elf(obj, &before);
	assert_non_null(before.btf);
	if (s->split)
		full_base = th_parse(base_obj, NULL);
	in = parse(before.btf, before.btf_size, full_base, "the input's .BTF");

	assert_true(asprintf(&opt, "--features=%s", c->feature) > 0);
	argv[argc++] = "btf2btf";
	argv[argc++] = opt;
	if (s->split) {
		argv[argc++] = "-B";
		argv[argc++] = base_obj;
	}
	if (s->distill)
		argv[argc++] = "--distill-base";
	argv[argc++] = obj;
	argv[argc] = NULL;
	th_run(&r, argv);
	if (r.status)
		fail_msg("%s: exit %d: %s", c->name, r.status, r.err);
	th_run_free(&r);

	read_elf(obj, &after);
	assert_int_equal(after.elf_class, s->elf_class);
	assert_int_equal(after.elf_data, s->elf_data);
	assert_non_null(after.btf);
	assert_btf_order(after.btf, s->elf_data, ".BTF");
	if (s->distill) {
		if (!after.btf_base)
			fail_msg("%s: no .BTF.base written", c->name);
		assert_btf_order(after.btf_base, s->elf_data, ".BTF.base");
		out_base = parse(after.btf_base, after.btf_base_size, NULL, ".BTF.base");
		/* distilled: fewer types than the base it stands for */
		assert_true(btf__type_cnt(out_base) < btf__type_cnt(full_base));
	} else {
		assert_null(after.btf_base);
	}
	out = parse(after.btf, after.btf_size, s->distill ? out_base : full_base, "the output's .BTF");

	for (size_t i = 0; i < NR_FEATURES; i++) {
		const struct feature *one = &features[i];
		bool asked = f->bits & one->bits;

		if (!one->done)
			continue;
		if (one->done(in))
			fail_msg("%s: the input has %s's work done already", c->name, one->name);
		if (one->done(out) != asked)
			fail_msg("%s: %s's work is %s the output", c->name, one->name,
				 asked ? "missing from" : "in, unasked, in");
	}
	btf__free(out);
	btf__free(out_base);
	btf__free(in);
	btf__free(full_base);
	free_elf(&before);
	free_elf(&after);
	free(opt);
	th_cleanup();
}

/* The names `btf2btf --features=help` lists, at most max. */
static size_t cli_features(char names[][32], size_t max)
{
	struct run r;
	size_t n = 0;
	char *line, *save = NULL;

	th_run(&r, (const char *[]){ "btf2btf", "--features=help", NULL });
	assert_int_equal(r.status, 0);
	for (line = strtok_r(r.out, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char name[32];

		if (strncmp(line, "  ", 2) || sscanf(line, "%31s", name) != 1)
			continue;
		assert_true(n < max);
		snprintf(names[n++], 32, "%s", name);
	}
	th_run_free(&r);
	return n;
}

/* The CLI's list, this test's table and the library's bits are the same
 * features: a new one fails here until the matrix can see its work. */
static void test_features_known(void **state)
{
	char names[64][32];
	size_t n = cli_features(names, 64);
	unsigned int bits = 0;

	(void)state;
	assert_int_equal(n, NR_FEATURES);
	for (size_t i = 0; i < n; i++)
		if (!feature_named(names[i]))
			fail_msg("--features lists %s: this test does not know it", names[i]);
	for (size_t i = 0; i < NR_FEATURES; i++) {
		if (!features[i].done)
			continue;
		/* one bit each, none twice */
		assert_int_equal(features[i].bits & (features[i].bits - 1), 0);
		assert_int_equal(bits & features[i].bits, 0);
		bits |= features[i].bits;
	}
	assert_int_equal(bits, BTF2BTF_FEATS_ALL);
}

int main(void)
{
	static char names[64][32];
	struct cell *cells;
	struct CMUnitTest *tests;
	size_t nf, nr = 0;
	int rc;

	/* the feature names come from the CLI under test */
	nf = cli_features(names, 64);
	cells = calloc(NR_SHAPES * nf, sizeof(*cells));
	tests = calloc(NR_SHAPES * nf + 1, sizeof(*tests));
	if (!cells || !tests)
		return 1;
	tests[nr++] = (struct CMUnitTest)cmocka_unit_test(test_features_known);
	for (size_t s = 0; s < NR_SHAPES; s++) {
		for (size_t f = 0; f < nf; f++) {
			struct cell *c = &cells[s * nf + f];

			c->shape = &shapes[s];
			c->feature = names[f];
			snprintf(c->name, sizeof(c->name), "%s/%.31s", shapes[s].name, names[f]);
			tests[nr++] = (struct CMUnitTest){ c->name, test_cell, NULL, NULL, c };
		}
	}
	rc = _cmocka_run_group_tests("matrix", tests, nr, NULL, NULL);
	free(tests);
	free(cells);
	return rc;
}
