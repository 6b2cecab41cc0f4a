// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The views never guess: arguments that make no sense are refused, a wrong
 * base is named as the kernel would name it, unknown is said as such, and
 * the edges a new user meets first (issue 48).
 */
#include <bpf/btf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "helpers.h"
#include "recipes.h"

static void run_status(struct run *r, int want, const char *const *argv)
{
	th_run(r, argv);
	if (r->status != want)
		fail_msg("btf2btf %s %s: exit %d, wanted %d\nstdout: %s\nstderr: %s", argv[1],
			 argv[2] ? argv[2] : "", r->status, want, r->out, r->err);
}

/* -B X X, and a base given to complete BTF (a copy of it, another
 * vmlinux): bad usage, exit 2, naming both files, never an empty table. */
static void test_base_nonsense_refused(void **state)
{
	const char *base = th_fixture("basic.o");
	const char *copy = th_copy_fixture("basic.o", "copy.o");
	const char *mod = th_fixture("split.o.ko");
	const char *const modes[][2] = { { "--kfuncs", NULL }, { "--check", NULL },
					 { "--dump", NULL }, { "-n", NULL } };
	struct run r;

	(void)state;
	for (size_t m = 0; m < sizeof(modes) / sizeof(modes[0]); m++) {
		run_status(&r, 2, (const char *[]){ "btf2btf", modes[m][0], "-B", base, base, NULL });
		assert_string_equal(r.out, "");
		assert_int_equal(th_count_lines(r.err), 1);
		assert_non_null(strstr(r.err, "given as its own base"));
		th_run_free(&r);
		/* a copy: the same BTF, read as split on itself */
		run_status(&r, 2, (const char *[]){ "btf2btf", modes[m][0], "-B", base, copy, NULL });
		assert_string_equal(r.out, "");
		assert_non_null(strstr(r.err, copy));
		assert_non_null(strstr(r.err, base));
		assert_non_null(strstr(r.err, "complete BTF, not split BTF"));
		th_run_free(&r);
	}
	/* the -B vmlinux vmlinux *.ko slip: 2, the module still looked at */
	run_status(&r, 2, (const char *[]){ "btf2btf", "--check", "-B", th_fixture("split.o"),
					    th_fixture("split.o"), mod, NULL });
	assert_non_null(strstr(r.err, "given as its own base"));
	th_run_free(&r);
	run_status(&r, 2, (const char *[]){ "btf2btf", "--kfuncs", "-j", "-B", base, copy, NULL });
	assert_non_null(strstr(r.out, "{\"error\":"));
	assert_non_null(strstr(r.out, "complete BTF, not split BTF"));
	th_run_free(&r);
	/* the right base still works */
	run_status(&r, 0, (const char *[]){ "btf2btf", "--check", "-B", th_fixture("split.o"), mod,
					    NULL });
	th_run_free(&r);
	th_cleanup();
}

/* A module on the wrong base: "built for another kernel" with the base's
 * figures, before any type is read through it, no name quoted (it would
 * come from the wrong strings). */
static void test_wrong_base_named(void **state)
{
	const char *wrong = th_fixture("kfuncs.gcc.o");
	const char *mod = th_fixture("split.o.ko");
	struct btf *b = th_parse(wrong, NULL);
	const char *const modes[] = { "--check", "--kfuncs", "--dump", "-n" };
	const struct btf_header *hdr;
	char figures[128];
	uint32_t size;
	struct run r;

	(void)state;
	assert_non_null(b);
	hdr = btf__raw_data(b, &size);
	assert_non_null(hdr);
	snprintf(figures, sizeof(figures), "the base has %u bytes of strings and %u types",
		 hdr->str_len, btf__type_cnt(b));
	btf__free(b);
	for (size_t m = 0; m < sizeof(modes) / sizeof(modes[0]); m++) {
		run_status(&r, 1, (const char *[]){ "btf2btf", modes[m], "-B", wrong, mod, NULL });
		assert_int_equal(th_count_lines(r.err), 1);
		assert_non_null(strstr(r.err, "built for another kernel"));
		assert_non_null(strstr(r.err, figures));
		assert_null(strchr(r.err, '\''));
		assert_string_equal(r.out, "");
		th_run_free(&r);
	}
	th_cleanup();
}

/* Raw BTF with one tagged kfunc whose prototype uses the typedefs
 * <linux/types.h> defines too: u32 bpf_views_k(size_t, __le16,
 * __kernel_size_t, __s64). */
static const char *uapi_typedef_btf(void)
{
	const char *path = th_path("uapi.btf");
	struct btf *btf = btf__new_empty();
	int uint, ulong, ushort, sll, u32, u16, kul, ksz, sz, le16, s64, proto, fn;
	const void *raw;
	uint32_t size;
	FILE *f;

	assert_non_null(btf);
	uint = btf__add_int(btf, "unsigned int", 4, 0);
	ulong = btf__add_int(btf, "long unsigned int", 8, 0);
	ushort = btf__add_int(btf, "short unsigned int", 2, 0);
	sll = btf__add_int(btf, "long long int", 8, BTF_INT_SIGNED);
	u32 = btf__add_typedef(btf, "u32", btf__add_typedef(btf, "__u32", uint));
	u16 = btf__add_typedef(btf, "__u16", ushort);
	le16 = btf__add_typedef(btf, "__le16", u16);
	kul = btf__add_typedef(btf, "__kernel_ulong_t", ulong);
	ksz = btf__add_typedef(btf, "__kernel_size_t", kul);
	sz = btf__add_typedef(btf, "size_t", ksz);
	s64 = btf__add_typedef(btf, "__s64", sll);
	/* a record for vmlinux.h's preserve_access_index region to apply to */
	assert_true(btf__add_struct(btf, "bpf_views_s", 4) > 0);
	assert_int_equal(btf__add_field(btf, "a", u32, 0, 0), 0);
	proto = btf__add_func_proto(btf, u32);
	assert_int_equal(btf__add_func_param(btf, "n", sz), 0);
	assert_int_equal(btf__add_func_param(btf, "v", le16), 0);
	assert_int_equal(btf__add_func_param(btf, "k", ksz), 0);
	assert_int_equal(btf__add_func_param(btf, "s", s64), 0);
	fn = btf__add_func(btf, "bpf_views_k", BTF_FUNC_GLOBAL, proto);
	assert_true(fn > 0);
	assert_true(btf__add_decl_tag(btf, "bpf_kfunc", fn, -1) > 0);
	raw = btf__raw_data(btf, &size);
	assert_non_null(raw);
	f = fopen(path, "w");
	assert_non_null(f);
	assert_int_equal(fwrite(raw, 1, size, f), size);
	assert_int_equal(fclose(f), 0);
	btf__free(btf);
	return path;
}

/* --kfuncs --format=c compiles (clang -target bpf) after the UAPI headers
 * a BPF program includes instead of vmlinux.h, and after vmlinux.h. */
static void test_header_coexists(void **state)
{
	const char *const before[] = { "<linux/bpf.h>", "<linux/types.h>", "\"vmlinux.h\"" };
	const char *btf = uapi_typedef_btf();
	struct run r;

	(void)state;
	th_require_tool("clang");
	th_require_tool("bpftool");
	th_sh(&r, "cd %s && %s --kfuncs --format=c %s > kfuncs.h && "
		  "bpftool btf dump file %s format c > vmlinux.h", th_tmpdir(), th_cli(), btf, btf);
	assert_int_equal(r.status, 0);
	th_run_free(&r);
	for (size_t i = 0; i < sizeof(before) / sizeof(before[0]); i++) {
		/* the multiarch directory for <asm/types.h>, as a BPF build gives it */
		th_sh(&r, "cd %s && printf '#include %%s\\n#include \"kfuncs.h\"\\n"
			  "int f(void) { return bpf_views_k(1, 2, 3, 4); }\\n' '%s' > p.c && "
			  "clang -target bpf -I/usr/include/$(gcc -print-multiarch) -O2 -Wall -Werror "
			  "-c p.c -o p.o", th_tmpdir(), before[i]);
		if (r.status)
			fail_msg("kfuncs.h after %s: %s%s", before[i], r.out, r.err);
		th_run_free(&r);
	}
	th_cleanup();
}

/* --dump prints the BTF as bpftool does: no note about kfunc sets it does
 * not show (--kfuncs says it). */
static void test_dump_no_kfunc_note(void **state)
{
	const char *raw = uapi_typedef_btf();
	struct run r;

	(void)state;
	run_status(&r, 0, (const char *[]){ "btf2btf", "--dump", raw, NULL });
	assert_non_null(strstr(r.out, "FUNC 'bpf_views_k'"));
	assert_string_equal(r.err, "");
	th_run_free(&r);
	run_status(&r, 0, (const char *[]){ "btf2btf", "--kfuncs", raw, NULL });
	assert_non_null(strstr(r.err, "note: "));
	th_run_free(&r);
	th_cleanup();
}

/* "-" reads standard input where one file is read, as cat(1). */
static void test_stdin_dash(void **state)
{
	const char *obj = th_fixture("basic.o");
	const char *const views[] = { "--kfuncs", "--check", "--dump" };
	struct run a, b;

	(void)state;
	for (size_t i = 0; i < sizeof(views) / sizeof(views[0]); i++) {
		run_status(&a, 0, (const char *[]){ "btf2btf", views[i], obj, NULL });
		th_sh(&b, "%s %s - < %s", th_cli(), views[i], obj);
		assert_int_equal(b.status, 0);
		/* --check names the file on each line: "-" there */
		if (!strcmp(views[i], "--check"))
			assert_true(!strncmp(b.out, "-: warning: ", 12));
		else
			assert_string_equal(a.out, b.out);
		th_run_free(&a);
		th_run_free(&b);
	}
	/* a module on its base, the transform to a file */
	th_sh(&a, "%s -q -B %s -o %s - < %s && %s -q -B %s -o %s %s && cmp %s %s", th_cli(),
	      th_fixture("split.o"), th_path("a.btf"), th_fixture("split.o.ko"), th_cli(),
	      th_fixture("split.o"), th_path("b.btf"), th_fixture("split.o.ko"), th_path("a.btf"),
	      th_path("b.btf"));
	if (a.status)
		fail_msg("-B base -o FILE -: %s%s", a.out, a.err);
	th_run_free(&a);
	/* never rewritten in place; read once */
	th_sh(&a, "%s - < %s", th_cli(), obj);
	assert_int_equal(a.status, 2);
	assert_non_null(strstr(a.err, "standard input cannot be rewritten in place"));
	th_run_free(&a);
	th_sh(&a, "%s --kfuncs - - < %s", th_cli(), obj);
	assert_int_equal(a.status, 2);
	assert_non_null(strstr(a.err, "standard input is given twice"));
	th_run_free(&a);
	th_cleanup();
}

/* --kfuncs over several objects: one table, one header, FILE first. */
static void test_batch_one_table(void **state)
{
	const char *objs[] = { th_fixture("basic.o"), th_fixture("kfuncs.gcc.o"),
			       th_fixture("split.o") };
	unsigned int kfuncs = 0, rows = 0;
	struct run r;
	char *line, *save = NULL;

	(void)state;
	run_status(&r, 0, (const char *[]){ "btf2btf", "-q", "--kfuncs", objs[0], objs[1], objs[2],
					    NULL });
	for (line = strtok_r(r.out, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (!strncmp(line, "kfuncs: ", 8))
			assert_int_equal(sscanf(line, "kfuncs: 3 objects, %u kfuncs", &kfuncs), 1);
		else if (rows++)
			assert_true(!strncmp(line, objs[0], strlen(objs[0])) ||
				    !strncmp(line, objs[1], strlen(objs[1])) ||
				    !strncmp(line, objs[2], strlen(objs[2])));
		else
			assert_true(!strncmp(line, "FILE ", 5));
	}
	assert_true(kfuncs > 0);
	assert_int_equal(rows, kfuncs + 1);
	th_run_free(&r);
}

/* Raw BTF of basic.o transformed with bpf_kfunc tags on every kfunc
 * (tags: true), or without any (only the set8s had them). */
static const char *raw_of_basic(const char *name, bool tags)
{
	const char *path = th_path(name);
	struct run r;

	run_status(&r, 0, (const char *[]){ "btf2btf", "-q", "--features",
					    tags ? "implicit_args,kfunc_tags" : "implicit_args", "-o",
					    path, th_fixture(tags ? "basic.o" : "kfuncs.gcc.o"), NULL });
	th_run_free(&r);
	return path;
}

/* Unknown is a value: raw BTF has no set8s, so flags and sets are
 * "unknown" (null), and what the BTF shows (an _impl with the kernel
 * prototype beside a kfunc) makes that kfunc KF_IMPLICIT_ARGS and
 * already transformed. */
static void test_unknown_is_a_value(void **state)
{
	const char *raw = raw_of_basic("tagged.btf", true);
	const char *doc = th_path("k.json");
	struct run r;
	FILE *f;

	(void)state;
	run_status(&r, 0, (const char *[]){ "btf2btf", "--kfuncs", raw, NULL });
	assert_non_null(strstr(r.out, "bpf_kfunc_implicit_arg      tag    unknown  unknown  already_transformed"));
	assert_non_null(strstr(r.out, "bpf_kfunc_noflags           tag    unknown  unknown  unknown"));
	assert_null(strstr(r.out, " plain "));
	th_run_free(&r);
	run_status(&r, 0, (const char *[]){ "btf2btf", "--kfuncs", "-j", raw, NULL });
	f = fopen(doc, "w");
	assert_non_null(f);
	fputs(r.out, f);
	fclose(f);
	th_run_free(&r);
	th_sh(&r, "jq -c '[.kfuncs[] | select(.name == \"bpf_kfunc_implicit_arg\" or "
		  ".name == \"bpf_kfunc_noflags\") | [.flags, .flag_names, .sets, .implicit_args, "
		  ".state]]' %s", doc);
	assert_string_equal(r.out, "[[null,null,null,true,\"already_transformed\"],"
				   "[null,null,null,null,null]]\n");
	th_run_free(&r);
	/* the header says so */
	run_status(&r, 0, (const char *[]){ "btf2btf", "--kfuncs", "--format=c", raw, NULL });
	assert_non_null(strstr(r.out, "The kfuncs' flags are unknown"));
	assert_non_null(strstr(r.out, "extern int bpf_kfunc_implicit_arg(int a0) __weak __ksym;"));
	th_run_free(&r);
	th_cleanup();
}

/* --diff --kfuncs against a kernel whose kfuncs are unknown (no set8s, no
 * decl tags) says so, exit 2, instead of adding them all. */
static void test_diff_kfuncs_unknown(void **state)
{
	const char *raw = raw_of_basic("untagged.btf", false);
	const char *tagged = raw_of_basic("tagged.btf", true);
	const char *obj = th_fixture("kfuncs.gcc.o");
	struct run r;

	(void)state;
	run_status(&r, 2, (const char *[]){ "btf2btf", "--diff", "--kfuncs", raw, obj, NULL });
	assert_non_null(strstr(r.out, "(kfuncs unknown: no set8s read and no bpf_kfunc decl tags)"));
	assert_non_null(strstr(r.out, "kfuncs added: unknown\n"));
	assert_null(strstr(r.out, "\n+int "));
	th_run_free(&r);
	run_status(&r, 2, (const char *[]){ "btf2btf", "--diff", "--kfuncs", "-j", raw, obj, NULL });
	assert_non_null(strstr(r.out, "\"kfuncs\":null"));
	assert_non_null(strstr(r.out, "\"added\":null"));
	th_run_free(&r);
	/* tags list the kfuncs: compared, but not their flags */
	run_status(&r, 0, (const char *[]){ "btf2btf", "--diff", "--kfuncs", tagged,
					    th_fixture("basic.o"), NULL });
	assert_non_null(strstr(r.out, "flags unknown: no set8s read"));
	assert_non_null(strstr(r.out, "flags changed: unknown\n"));
	assert_non_null(strstr(r.out, "kfuncs added: 0\n"));
	th_run_free(&r);
	th_cleanup();
}

/* A kernel-gen fixture with a linux_banner of release rel in .rodata. */
static const char *kernel_with_banner(const char *gen, const char *rel)
{
	const char *obj = th_path(gen), *banner = th_path("banner");
	char *out = strdup(th_path(rel));
	struct run r;
	FILE *f;

	assert_non_null(out);
	assert_int_equal(fx_make_named(gen, obj), 0);
	f = fopen(banner, "w");
	assert_non_null(f);
	fprintf(f, "Linux version %s (builder) #1 SMP%c", rel, 0);
	assert_int_equal(fclose(f), 0);
	th_sh(&r, "objcopy --add-section .rodata=%s --set-section-flags .rodata=alloc,readonly %s %s",
	      banner, obj, out);
	assert_int_equal(r.status, 0);
	th_run_free(&r);
	return out;
}

/* --kfunc-history with kernels out of their versions' order: said once. */
static void test_history_order_said(void **state)
{
	char *old = (char *)kernel_with_banner("kernel-gen1", "6.18.0-test");
	char *new = (char *)kernel_with_banner("kernel-gen2", "7.3.0-test");
	struct run r;

	(void)state;
	th_require_tool("objcopy");
	run_status(&r, 0, (const char *[]){ "btf2btf", "--kfunc-history", new, old, NULL });
	assert_int_equal(th_count_lines(r.err), 1);
	assert_non_null(strstr(r.err, "warning: --kfunc-history takes the kernels oldest first, "
				      "but "));
	assert_non_null(strstr(r.err, "(6.18) comes after "));
	th_run_free(&r);
	run_status(&r, 0, (const char *[]){ "btf2btf", "--kfunc-history", old, new, old, NULL });
	assert_int_equal(th_count_lines(r.err), 1);	/* once, not per pair */
	th_run_free(&r);
	run_status(&r, 0, (const char *[]){ "btf2btf", "--kfunc-history", old, new, NULL });
	assert_string_equal(r.err, "");
	th_run_free(&r);
	free(old);
	free(new);
	th_cleanup();
}

/* --kfunc-history with a kernel's modules (files or a directory): a kfunc
 * that lives in a module is not gone from that kernel. */
static void test_history_with_modules(void **state)
{
	const char *old = th_fixture("basic.o"), *kernel = th_fixture("split.o");
	char *dir = strdup(th_path("mods")), *with_file, *with_dir;
	struct run r;

	(void)state;
	assert_non_null(dir);
	th_sh(&r, "mkdir -p %s/net && cp %s %s/net/m.ko", dir, th_fixture("split.o.ko"), dir);
	assert_int_equal(r.status, 0);
	th_run_free(&r);
	assert_true(asprintf(&with_file, "2=%s,%s", kernel, th_fixture("split.o.ko")) > 0);
	assert_true(asprintf(&with_dir, "2=%s,%s", kernel, dir) > 0);
	/* without its modules: gone in 2 */
	th_sh(&r, "%s --kfunc-history -j 1=%s 2=%s | jq -c '.kfuncs[] | "
		  "select(.name == \"bpf_kfunc_implicit_arg\") | .gone'", th_cli(), old, kernel);
	assert_string_equal(r.out, "\"2\"\n");
	th_run_free(&r);
	for (int i = 0; i < 2; i++) {
		th_sh(&r, "%s --kfunc-history -j 1=%s '%s' | jq -c '[(.kfuncs[] | "
			  "select(.name == \"bpf_kfunc_implicit_arg\") | .gone), .kernels[1].file]'",
		      th_cli(), old, i ? with_dir : with_file);
		assert_true(!strncmp(r.out, "[null,", 6));
		th_run_free(&r);
	}
	free(with_file);
	free(with_dir);
	free(dir);
	th_cleanup();
}

/* --diff with a base per side: -B OLDBASE -B NEWBASE; a second -B
 * elsewhere is bad usage. */
static void test_diff_base_per_side(void **state)
{
	const char *base = th_fixture("split.o"), *mod = th_fixture("split.o.ko");
	const char *wrong = th_fixture("kfuncs.gcc.o");
	struct run r;

	(void)state;
	/* the same module on the same base: no difference */
	run_status(&r, 0, (const char *[]){ "btf2btf", "--diff", "-B", base, "-B", base, mod, mod,
					    NULL });
	th_run_free(&r);
	/* NEW read on the second base: the wrong one for it, said about NEW */
	run_status(&r, 2, (const char *[]){ "btf2btf", "--diff", "-B", base, "-B", wrong, mod, mod,
					    NULL });
	assert_non_null(strstr(r.err, wrong));
	assert_non_null(strstr(r.err, "built for another kernel"));
	th_run_free(&r);
	run_status(&r, 2, (const char *[]){ "btf2btf", "--kfuncs", "-B", base, "-B", base, mod,
					    NULL });
	assert_non_null(strstr(r.err, "a base per side is for --diff"));
	th_run_free(&r);
	th_cleanup();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_base_nonsense_refused),
		cmocka_unit_test(test_wrong_base_named),
		cmocka_unit_test(test_header_coexists),
		cmocka_unit_test(test_dump_no_kfunc_note),
		cmocka_unit_test(test_stdin_dash),
		cmocka_unit_test(test_batch_one_table),
		cmocka_unit_test(test_unknown_is_a_value),
		cmocka_unit_test(test_diff_kfuncs_unknown),
		cmocka_unit_test(test_history_order_said),
		cmocka_unit_test(test_history_with_modules),
		cmocka_unit_test(test_diff_base_per_side),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
