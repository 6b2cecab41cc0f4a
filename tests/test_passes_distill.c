// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The distilled base (passes/btf_distill.c): libbpf parses the pair; every
 * distilled type relocates onto the real base as btf_relocate.c matches; a
 * pahole module, the CLI, a write killed half way, no base.
 */
#include <bpf/btf.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "builder.h"
#include "helpers.h"
#include "passes.h"

/* ---- distilled base ---- */

/* What btf_relocate.c asks of a distilled base type: one base type of its
 * name with a compatible kind (and size, where it has one). */
static void assert_relocatable(const struct btf *dist, const struct btf *full)
{
	for (__u32 id = 1; id < btf__type_cnt(dist); id++) {
		const struct btf_type *d = btf__type_by_id(dist, id);
		const char *name = btf__name_by_offset(dist, d->name_off);
		int found = 0;

		assert_true(name && *name);
		for (__u32 f = 1; f < btf__type_cnt(full); f++) {
			const struct btf_type *t = btf__type_by_id(full, f);
			bool ok = false;

			if (strcmp(btf__name_by_offset(full, t->name_off), name))
				continue;
			switch (btf_kind(d)) {
			case BTF_KIND_FWD:
				ok = btf_is_fwd(t) ? btf_kflag(t) == btf_kflag(d) :
				     btf_is_struct(t) ? !btf_kflag(d) : btf_is_union(t) && btf_kflag(d);
				break;
			case BTF_KIND_INT:
				ok = btf_is_int(t) && t->size == d->size &&
				     btf_int_encoding(t) == btf_int_encoding(d);
				break;
			case BTF_KIND_FLOAT:
				ok = btf_is_float(t) && t->size == d->size;
				break;
			case BTF_KIND_ENUM:
				ok = (btf_is_enum(t) || btf_is_enum64(t)) && t->size == d->size;
				assert_int_equal(btf_vlen(d), 0);
				break;
			case BTF_KIND_STRUCT:
			case BTF_KIND_UNION:
				ok = btf_kind(t) == btf_kind(d) && t->size == d->size;
				assert_int_equal(btf_vlen(d), 0);
				break;
			default:
				fail_msg("distilled base type '%s' has kind %u", name, btf_kind(d));
			}
			found += ok;
		}
		if (found != 1)
			fail_msg("distilled base type '%s': %d candidates in the base", name, found);
	}
}

static void test_distill_split_fixture(void **state)
{
	const char *base = th_fixture("split.o");
	const char *mod = th_copy_fixture("split.o.ko", "mod.ko");
	const char *out = th_path("mod.btf"), *out_base = th_path("mod.btf.base");
	BTF2BTF_OPTS(o, .base_path = base, .distill_base = true, .features = ALL_POST);
	struct btf *full = th_parse(base, NULL), *orig = th_parse(mod, full), *dist, *split;
	struct btf2btf *b = th_open(mod, &o);
	const void *raw;
	size_t size;

	(void)state;
	assert_int_equal(btf2btf__raw_base_btf(b, &raw, &size), -ENOENT);
	assert_int_equal(btf2btf__transform(b), 0);
	assert_int_equal(btf2btf__raw_base_btf(b, &raw, &size), 0);
	assert_int_equal(btf2btf__write_raw(b, out), 0);
	assert_int_equal(btf2btf__write_raw_base(b, out_base), 0);
	/* the kfunc table names the kfuncs in the split BTF on the distilled base */
	for (size_t i = 0; i < btf2btf__kfunc_cnt(b); i++) {
		const struct btf2btf_kfunc *k = btf2btf__kfunc(b, i);
		const struct btf *r = btf2btf__btf(b);

		assert_string_equal(btf__name_by_offset(r, btf__type_by_id(r, k->btf_id)->name_off),
				    k->name);
	}
	btf2btf__close(b);

	dist = btf__parse_raw(out_base);
	assert_non_null(dist);
	split = btf__parse_raw_split(out, dist);
	assert_non_null(split);
	assert_true(btf__type_cnt(dist) < btf__type_cnt(full));
	assert_relocatable(dist, full);
	/* the module's kfuncs, as the transform left them */
	assert_int_equal(btf_vlen(btf__type_by_id(split, btf__type_by_id(split,
		th_find(split, "bpf_kfunc_implicit_arg", BTF_KIND_FUNC))->type)), 1);
	th_find(split, "bpf_kfunc_implicit_arg_impl", BTF_KIND_FUNC);
	assert_sorted(split, NULL, 0);
	btf__free(split);
	btf__free(dist);
	btf__free(orig);
	btf__free(full);
	th_cleanup();
}

/* The same pass on a split BTF built against the machine's vmlinux: the
 * distilled types all relocate, and the split types mean what they meant. */
static void test_distill_on_sys_vmlinux(void **state)
{
	struct btf *full = th_sys_vmlinux(), *mod, *dist, *split;
	int task = btf__find_by_name_kind(full, "task_struct", BTF_KIND_STRUCT);
	int u64 = btf__find_by_name_kind(full, "u64", BTF_KIND_TYPEDEF);
	int ptr, anon, proto, func;
	struct b2b_pass_out o;
	void *braw;
	size_t bsize, size;
	const void *raw;

	(void)state;
	if (task <= 0 || u64 <= 0)
		fail_msg("%s has no task_struct or no u64", TH_SYS_VMLINUX);
	mod = btf__new_empty_split(full);
	ptr = btf__add_ptr(mod, task);
	anon = btf__add_struct(mod, "mod_state", 16);
	btf__add_field(mod, "t", ptr, 0, 0);
	btf__add_field(mod, "v", u64, 64, 0);
	proto = btf__add_func_proto(mod, u64);
	btf__add_func_param(mod, "s", btf__add_ptr(mod, anon));
	func = btf__add_func(mod, "mod_fn", BTF_FUNC_GLOBAL, proto);
	btf__add_decl_tag(mod, "bpf_kfunc", func, -1);
	raw = pt_raw_of(mod, &size);
	assert_int_equal(ON_MODEL(full, b2b_distill_base(raw, size, m, &braw, &bsize, &o)), 0);
	dist = pt_parse_raw(braw, bsize, NULL);
	split = pt_parse_raw(o.data, o.size, dist);
	assert_relocatable(dist, full);
	/* task_struct is in the distilled base, empty; the u64 typedef moved into the split */
	th_find(dist, "task_struct", BTF_KIND_STRUCT);
	assert_true(btf__find_by_name_kind(dist, "u64", BTF_KIND_TYPEDEF) < 0);
	assert_true((__u32)th_find(split, "u64", BTF_KIND_TYPEDEF) >= btf__type_cnt(dist));
	pt_assert_mapped_same(mod, split, o.map, btf__type_cnt(full), btf__type_cnt(mod), 1);
	btf__free(split);
	btf__free(dist);
	free(braw);
	b2b_pass_out_free(&o);
	btf__free(mod);
	btf__free(full);
}

/* Both sections of an object, dumped with objcopy. */
static void dump_sections(const char *obj, const char *btf_out, const char *base_out)
{
	struct run r;

	th_require_tool("objcopy");
	th_sh(&r, "objcopy --dump-section .BTF=%s --dump-section .BTF.base=%s %s %s",
	      btf_out, base_out, obj, th_path("scratch.o"));
	assert_int_equal(r.status, 0);
	th_run_free(&r);
}

static void assert_distilled_pair(const char *btf_path, const char *base_path,
				  const struct btf *full)
{
	struct btf *dist = btf__parse_raw(base_path), *split;

	assert_non_null(dist);
	split = btf__parse_raw_split(btf_path, dist);
	assert_non_null(split);
	assert_relocatable(dist, full);
	th_find(split, "bpf_kfunc_implicit_arg_impl", BTF_KIND_FUNC);
	btf__free(split);
	btf__free(dist);
}

/* The CLI: .BTF.base added to the ELF (then replaced, never doubled), or
 * FILE.base beside -o FILE and beside --btf FILE rewritten in place;
 * --distill-base without -B is a usage error. */
static void test_distill_cli(void **state)
{
	const char *base = th_copy_fixture("split.o", "base.o");
	const char *mod = th_copy_fixture("split.o.ko", "mod.ko");
	const char *mod2 = th_copy_fixture("split.o.ko", "mod2.ko");
	const char *btf = th_path("s.btf"), *dist = th_path("s.btf.base");
	struct btf *full = th_parse(base, NULL);
	struct run r;

	(void)state;
	th_run(&r, (const char *[]){ "btf2btf", "--distill-base", mod, NULL });
	assert_int_equal(r.status, 2);
	assert_non_null(strstr(r.err, "--distill-base needs --btf-base"));
	th_run_free(&r);

	th_run(&r, (const char *[]){ "btf2btf", "-B", base, "--distill-base", mod, NULL });
	assert_int_equal(r.status, 0);
	th_run_free(&r);
	dump_sections(mod, btf, dist);
	assert_distilled_pair(btf, dist, full);

	/* an object that has a .BTF.base already (the one just written):
	 * relocated onto -B, distilled again, its .BTF.base replaced, not
	 * added twice */
	th_copy(mod, mod2);
	th_run(&r, (const char *[]){ "btf2btf", "-B", base, "--distill-base", mod2, NULL });
	assert_int_equal(r.status, 0);
	th_run_free(&r);
	th_sh(&r, "readelf -S %s | grep -c '\\.BTF\\.base'", mod2);
	assert_string_equal(r.out, "1\n");
	th_run_free(&r);
	dump_sections(mod2, btf, dist);
	assert_distilled_pair(btf, dist, full);

	/* raw output: FILE and FILE.base */
	unlink(btf);
	unlink(dist);
	th_run(&r, (const char *[]){ "btf2btf", "-B", base, "--distill-base", "-o", btf,
				     th_fixture("split.o.ko"), NULL });
	assert_int_equal(r.status, 0);
	th_run_free(&r);
	assert_distilled_pair(btf, dist, full);

	/* --btf's raw file rewritten in place: FILE.base beside it, the same name */
	unlink(btf);
	unlink(dist);
	th_sh(&r, "objcopy --dump-section .BTF=%s %s %s", btf, th_fixture("split.o.ko"),
	      th_path("scratch.o"));
	assert_int_equal(r.status, 0);
	th_run_free(&r);
	th_run(&r, (const char *[]){ "btf2btf", "-B", base, "--distill-base", "--btf", btf,
				     th_fixture("split.o.ko"), NULL });
	assert_int_equal(r.status, 0);
	th_run_free(&r);
	assert_distilled_pair(btf, dist, full);
	btf__free(full);
	th_cleanup();
}

/* Whether an own type of split BTF mod has the canonical form of a type of
 * its base (one that a dedup against the base would fold). */
static bool has_base_duplicate(const struct btf *mod, const struct btf *base)
{
	for (__u32 id = btf__type_cnt(base); id < btf__type_cnt(mod); id++) {
		char a[4096], b[4096];

		pt_canon(mod, id, 0, a, sizeof(a));
		for (__u32 bid = 1; bid < btf__type_cnt(base); bid++) {
			pt_canon(base, bid, 0, b, sizeof(b));
			if (!strcmp(a, b))
				return true;
		}
	}
	return false;
}

/*
 * A module as the kernel build makes it: gcc -g, pahole -J on the base,
 * pahole -J --btf_base on the module (deduplicated against the base). Dedup
 * takes the hash path when pahole left nothing to fold and gives
 * btf__dedup()'s result either way; the distilled base relocates onto the
 * real one, and every module type means what it meant.
 */
static void test_distill_pahole_module(void **state)
{
	static const char common[] =
		"struct bpf_prog_aux { int id; long x; };\n"
		"struct task { int pid; struct task *parent; struct bpf_prog_aux *aux; };\n"
		"typedef unsigned long long u64;\n"
		"enum color { RED, GREEN };\n";
	static const char base_c[] =
		"int base_fn(struct task *t, u64 v, enum color c) { return t->pid + v + c; }\n";
	static const char mod_c[] =
		"struct mod_state { struct task *t; u64 v; struct { int a, b; } anon; enum color c; };\n"
		"int bpf_mod_kfunc(struct mod_state *s, int x, struct bpf_prog_aux *aux)\n"
		"{ return s->v + x + aux->id; }\n"
		"int bpf_mod_plain(struct task *t, u64 v) { return t->pid + v; }\n";
	const char *base_o = th_path("pbase.o"), *mod_o = th_path("pmod.o");
	struct btf *full, *mod, *dist, *split;
	struct b2b_pass_out o, d;
	void *braw;
	size_t bsize, size;
	const void *raw;
	struct run r;
	FILE *f;
	bool went_full, dup;

	(void)state;
	th_require_tool("gcc");
	th_require_tool("pahole");
	f = fopen(th_path("pbase.c"), "w");
	fprintf(f, "%s%s", common, base_c);
	fclose(f);
	f = fopen(th_path("pmod.c"), "w");
	fprintf(f, "%s%s", common, mod_c);
	fclose(f);
	th_sh(&r, "cd %s && gcc -g -O1 -c pbase.c && gcc -g -O1 -c pmod.c && "
	      "LLVM_OBJCOPY=objcopy pahole -J pbase.o && "
	      "LLVM_OBJCOPY=objcopy pahole -J --btf_base pbase.o pmod.o", th_tmpdir());
	if (r.status)
		fail_msg("building the pahole module failed: %s", r.err);
	th_run_free(&r);
	full = th_parse(base_o, NULL);
	mod = th_parse(mod_o, full);
	raw = pt_raw_of(mod, &size);
	/*
	 * Whether the pahole that ran left a module type equal to a base type:
	 * 1.24 (libbpf 1.1) leaves none; forky's 1.32 (libbpf 1.7) keeps its
	 * own typedef u64, which libbpf 1.7's btf__dedup() does not fold
	 * either. Only then does the dedup leave the hash path, for the fold
	 * mode (byte for byte btf__dedup()'s) or btf__dedup(); its result is
	 * btf__dedup()'s either way.
	 */
	dup = has_base_duplicate(mod, full);
	assert_int_equal(ON_MODEL(full, dedup_fast(raw, size, m, btf__type_cnt(mod), &o, &went_full)), 0);
	if (!dup)
		assert_null(o.data);	/* the hash path: nothing to fold */
	assert_true(!went_full || dup);
	b2b_pass_out_free(&o);
	if (dup)
		check_fold_identical(raw, size, full, btf__type_cnt(mod));
	check_dedup_equivalent(raw, size, full, btf__type_cnt(mod), went_full);
	assert_int_equal(ON_MODEL(full, b2b_distill_base(raw, size, m, &braw, &bsize, &d)), 0);
	dist = pt_parse_raw(braw, bsize, NULL);
	split = pt_parse_raw(d.data, d.size, dist);
	assert_relocatable(dist, full);
	th_find(dist, "task", BTF_KIND_STRUCT);
	th_find(dist, "color", BTF_KIND_ENUM);
	pt_assert_mapped_same(mod, split, d.map, btf__type_cnt(full), btf__type_cnt(mod), 1);
	btf__free(split);
	btf__free(dist);
	free(braw);
	b2b_pass_out_free(&d);
	btf__free(mod);
	btf__free(full);
	th_cleanup();
}

/* Killed while writing .BTF + .BTF.base: the module is as it was; the next
 * run writes both. */
static void test_distill_killed_mid_write(void **state)
{
	const char *base = th_copy_fixture("split.o", "base.o");
	const char *mod = th_copy_fixture("split.o.ko", "mod.ko");
	const char *orig = th_copy_fixture("split.o.ko", "orig.ko");
	const char *argv[] = { "btf2btf", "-B", base, "--distill-base", mod, NULL };
	struct run r;

	(void)state;
	setenv("BTF2BTF_FAULT", "mid-write", 1);
	th_run(&r, argv);
	unsetenv("BTF2BTF_FAULT");
	assert_int_equal(r.status, 128 + SIGKILL);
	th_run_free(&r);
	assert_true(th_same_file(mod, orig));
	th_sh(&r, "readelf -S %s | grep -c '\\.BTF\\.base'", mod);
	assert_string_equal(r.out, "0\n");
	th_run_free(&r);
	th_run(&r, argv);
	assert_int_equal(r.status, 0);
	th_run_free(&r);
	th_sh(&r, "readelf -S %s | grep -c '\\.BTF\\.base'; ls -a %s | grep -c btf2btf", mod,
	      th_tmpdir());
	assert_string_equal(r.out, "1\n0\n");	/* the killed run's temp file is gone too */
	th_run_free(&r);
	th_cleanup();
}

static void test_distill_needs_base(void **state)
{
	BTF2BTF_OPTS(o, .distill_base = true);
	struct btf2btf *b = NULL;

	(void)state;
	assert_int_equal(btf2btf__open(th_fixture("basic.o"), &o, &b), -EINVAL);
	assert_null(b);
}


int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_distill_split_fixture),
		cmocka_unit_test(test_distill_on_sys_vmlinux),
		cmocka_unit_test(test_distill_pahole_module),
		cmocka_unit_test(test_distill_killed_mid_write),
		cmocka_unit_test(test_distill_needs_base),
		cmocka_unit_test(test_distill_cli),
	};

	return cmocka_run_group_tests_name("test_passes_distill", tests, NULL, NULL);
}
