// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* The btf2btf command line, checked against bpftool and the files it writes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "helpers.h"
#include "recipes.h"

static void run_ok(struct run *r, const char *const *argv)
{
	th_run(r, argv);
	if (r->status)
		fail_msg("%s exited %d: %s", argv[0], r->status, r->err);
}

/* --dump prints what `bpftool btf dump file` prints, before and after. */
static void test_dump_matches_bpftool(void **state)
{
	const char *obj = th_copy_fixture("kfuncs.gcc.o", "g.o");
	struct run a, b;

	(void)state;
	th_require_tool("bpftool");
	for (int pass = 0; pass < 2; pass++) {
		run_ok(&a, (const char *[]){ "btf2btf", "--dump", obj, NULL });
		th_sh(&b, "bpftool btf dump file %s", obj);
		assert_int_equal(b.status, 0);
		assert_null(strstr(b.out, "Error"));
		assert_true(th_count_lines(a.out) > 30);
		assert_string_equal(a.out, b.out);
		th_run_free(&a);
		th_run_free(&b);
		if (!pass)
			run_ok(&a, (const char *[]){ "btf2btf", "-q", obj, NULL }), th_run_free(&a);
	}
	th_cleanup();
}

/* After the transform, bpftool sees _impl FUNCs, reduced protos, and nothing
 * else changed: every line of the old dump is still there but the FUNC lines
 * of the transformed kfuncs. */
static void test_bpftool_sees_only_the_transform(void **state)
{
	const char *obj = th_copy_fixture("kfuncs.gcc.o", "g.o");
	struct run before, after;
	char *line, *save = NULL;
	int changed = 0;

	(void)state;
	th_require_tool("bpftool");
	th_sh(&before, "bpftool btf dump file %s | tr '\\n\\t' '\\001 ' | sed 's/\\x01 / /g' | tr '\\001' '\\n'", obj);
	run_ok(&after, (const char *[]){ "btf2btf", obj, NULL });
	assert_non_null(strstr(after.out, "5 transformed (1 legacy), 4 _impl added"));
	th_run_free(&after);
	th_sh(&after, "bpftool btf dump file %s | tr '\\n\\t' '\\001 ' | sed 's/\\x01 / /g' | tr '\\001' '\\n'", obj);
	assert_non_null(strstr(after.out, "FUNC 'bpf_kfunc_implicit_arg_impl'"));
	assert_non_null(strstr(after.out, "FUNC 'bpf_wq_set_callback_impl'"));
	for (line = strtok_r(before.out, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (strstr(after.out, line))
			continue;
		/* only the kfunc FUNCs repointed at their reduced protos */
		assert_non_null(strstr(line, "] FUNC '"));
		changed++;
	}
	/* bpf_kfunc_implicit_typedef keeps its proto: upstream's rule sees no
	 * implicit argument behind a typedef (it only gets an _impl) */
	assert_int_equal(changed, 4);
	th_run_free(&before);
	th_run_free(&after);
	th_cleanup();
}

static void test_second_run_identical(void **state)
{
	const char *obj = th_copy_fixture("kfuncs.clang.o", "c.o");
	const char *first = th_path("first.o");
	struct run r;

	(void)state;
	run_ok(&r, (const char *[]){ "btf2btf", obj, NULL });
	th_run_free(&r);
	th_copy(obj, first);
	run_ok(&r, (const char *[]){ "btf2btf", obj, NULL });
	assert_non_null(strstr(r.out, "5 already transformed; unchanged"));
	th_run_free(&r);
	assert_true(th_same_file(obj, first));
	th_cleanup();
}

static void test_clang_tags(void **state)
{
	const char *obj = th_copy_fixture("kfuncs.clang.o", "c.o");
	struct run r;

	(void)state;
	run_ok(&r, (const char *[]){ "btf2btf", obj, NULL });
	/* clang emits bpf_kfunc tags: every kfunc found both ways */
	assert_non_null(strstr(r.out, "8 kfuncs (tag 0, set8 0, both 8)"));
	th_run_free(&r);
	run_ok(&r, (const char *[]){ "btf2btf", "--dump", obj, NULL });
	assert_non_null(strstr(r.out, "DECL_TAG 'test_tag'"));
	assert_non_null(strstr(r.out, "FUNC 'bpf_kfunc_implicit_mid_impl'"));
	th_run_free(&r);
	th_cleanup();
}

static void test_output_raw_leaves_input(void **state)
{
	const char *obj = th_copy_fixture("basic.o", "b.o");
	const char *out = th_path("out.btf");
	struct run r, d;

	(void)state;
	th_require_tool("bpftool");
	run_ok(&r, (const char *[]){ "btf2btf", "-o", out, obj, NULL });
	assert_non_null(strstr(r.out, "; written"));
	th_run_free(&r);
	assert_true(th_same_file(obj, th_fixture("basic.o")));
	th_sh(&d, "bpftool btf dump file %s", out);
	assert_non_null(strstr(d.out, "FUNC 'bpf_kfunc_implicit_arg_impl'"));
	th_run_free(&d);
	th_cleanup();
}

static void test_dry_run_writes_nothing(void **state)
{
	const char *obj = th_copy_fixture("basic.o", "b.o");
	struct run r;

	(void)state;
	run_ok(&r, (const char *[]){ "btf2btf", "-n", obj, NULL });
	assert_non_null(strstr(r.out, "dry run, nothing written"));
	th_run_free(&r);
	assert_true(th_same_file(obj, th_fixture("basic.o")));
	/* and --dump -n shows the result */
	run_ok(&r, (const char *[]){ "btf2btf", "--dump", "-n", obj, NULL });
	assert_non_null(strstr(r.out, "FUNC 'bpf_kfunc_implicit_arg_impl'"));
	th_run_free(&r);
	th_cleanup();
}

static void test_split_module_cli(void **state)
{
	const char *base = th_fixture("split.o");
	const char *mod = th_copy_fixture("split.o.ko", "m.ko");
	struct run r, a, b;

	(void)state;
	th_require_tool("bpftool");
	run_ok(&r, (const char *[]){ "btf2btf", "--btf-base", base, mod, NULL });
	assert_non_null(strstr(r.out, "2 transformed (1 legacy), 1 _impl added"));
	th_run_free(&r);
	run_ok(&a, (const char *[]){ "btf2btf", "--dump", "-B", base, mod, NULL });
	th_sh(&b, "bpftool btf dump file %s --base-btf %s", mod, base);
	assert_string_equal(a.out, b.out);
	assert_non_null(strstr(a.out, "FUNC 'bpf_kfunc_implicit_arg_impl'"));
	th_run_free(&a);
	th_run_free(&b);
	th_cleanup();
}

static void test_raw_btf_input(void **state)
{
	const char *obj = th_copy_fixture("basic.o", "b.o");
	const char *raw = th_path("in.btf");
	struct run r;

	(void)state;
	run_ok(&r, (const char *[]){ "btf2btf", "-q", "-o", raw, obj, NULL });
	th_run_free(&r);
	/* the BTF from a raw file, the set8s from the object: already done */
	run_ok(&r, (const char *[]){ "btf2btf", "--btf", raw, "-n", obj, NULL });
	assert_non_null(strstr(r.out, "4 already transformed"));
	th_run_free(&r);
	assert_true(th_same_file(obj, th_fixture("basic.o")));
	th_cleanup();
}

static void test_errors_name_the_file(void **state)
{
	const char *junk = th_path("junk.o");
	FILE *f = fopen(junk, "w");
	struct run r;

	(void)state;
	fputs("this is not an object\n", f);
	fclose(f);
	th_run(&r, (const char *[]){ "btf2btf", junk, NULL });
	assert_int_equal(r.status, 1);
	assert_int_equal(th_count_lines(r.err), 1);
	assert_non_null(strstr(r.err, junk));
	assert_non_null(strstr(r.err, "neither an ELF object nor raw BTF"));
	th_run_free(&r);
	th_run(&r, (const char *[]){ "btf2btf", th_path("missing.o"), NULL });
	assert_int_equal(r.status, 1);
	assert_non_null(strstr(r.err, "missing.o: cannot open"));
	th_run_free(&r);
	th_cleanup();
}

static void test_usage(void **state)
{
	struct run r;

	(void)state;
	run_ok(&r, (const char *[]){ "btf2btf", "--help", NULL });
	assert_non_null(strstr(r.out, "Usage: btf2btf"));
	assert_non_null(strstr(r.out, "--btf-base"));
	th_run_free(&r);
	run_ok(&r, (const char *[]){ "btf2btf", "--version", NULL });
	assert_non_null(strstr(r.out, BTF2BTF_VERSION));
	th_run_free(&r);
	th_run(&r, (const char *[]){ "btf2btf", "--no-such-option", NULL });
	assert_int_equal(r.status, 2);
	th_run_free(&r);
	th_run(&r, (const char *[]){ "btf2btf", NULL });
	assert_int_equal(r.status, 2);
	assert_non_null(strstr(r.err, "no object file given"));
	th_run_free(&r);
}

static void test_summary_json(void **state)
{
	const char *obj = th_copy_fixture("basic.o", "b.o");
	struct run r;

	(void)state;
	th_require_tool("jq");
	th_sh(&r, "%s -j -n %s | jq -r '[.kfuncs,.implicit,.transformed,.legacy,.impl_added,.written] | @tsv'",
	      getenv("BTF2BTF"), obj);
	assert_int_equal(r.status, 0);
	assert_string_equal(r.out, "7\t4\t4\t1\t3\tfalse\n");
	th_run_free(&r);
	th_sh(&r, "%s -j --dump %s | jq -r '.types[0].kind, (.types | length)'", getenv("BTF2BTF"), obj);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "INT\n"));
	th_run_free(&r);
	th_cleanup();
}

/* Output that never reached stdout is a failure, whatever the mode. */
static void test_stdout_failure(void **state)
{
	const char *obj = th_copy_fixture("basic.o", "b.o");
	const char *modes[] = { "--dump", "--kfuncs", "--check", "-n", "--help", "--version" };
	struct run r;

	(void)state;
	for (size_t i = 0; i < sizeof(modes) / sizeof(modes[0]); i++) {
		th_sh(&r, "%s %s %s > /dev/full", getenv("BTF2BTF"), modes[i], obj);
		assert_int_equal(r.status, 1);
		assert_non_null(strstr(r.err, "cannot write to standard output"));
		th_run_free(&r);
	}
	/* a diff too: trouble is 2 there, as diff(1)'s */
	th_sh(&r, "%s --diff %s %s > /dev/full", getenv("BTF2BTF"), obj, obj);
	assert_int_equal(r.status, 2);
	assert_non_null(strstr(r.err, "cannot write to standard output"));
	th_run_free(&r);
	th_cleanup();
}

/* Options that mean nothing in a mode are refused, with the reason, exit 2. */
static void test_meaningless_combinations(void **state)
{
	const char *obj = th_copy_fixture("basic.o", "b.o");
	char out[4096];
	static const struct {
		const char *args[4];
		const char *msg;
	} cases[] = {
		{ { "--diff", "-o", "x.btf" }, "-o means nothing with --diff" },
		{ { "--diff", "-T" }, "-T means nothing with --diff" },
		{ { "--diff", "--btf", "x.btf" }, "--btf means nothing with --diff" },
		{ { "--check", "-T" }, "-T means nothing with --check" },
		{ { "--check", "-n" }, "-n means nothing with --check" },
		{ { "--check", "-o", "x.btf" }, "-o means nothing with --check" },
		{ { "--dump", "-o", "x.btf" }, "-o means nothing with --dump" },
		{ { "--kfuncs", "-o", "x.btf" }, "-o means nothing with --kfuncs" },
		{ { "-T" }, "-T means nothing with the transform" },
		{ { "-n", "-o", "x.btf" }, "-n writes nothing and -o names where to write" },
	};
	struct run r;

	(void)state;
	snprintf(out, sizeof(out), "%s", th_path("x.btf"));
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *argv[8] = { "btf2btf" };
		size_t n = 1;

		for (size_t k = 0; k < 4 && cases[i].args[k]; k++)
			argv[n++] = strcmp(cases[i].args[k], "x.btf") ? cases[i].args[k] : out;
		argv[n++] = obj;
		if (!strcmp(cases[i].args[0], "--diff"))
			argv[n++] = obj;
		th_run(&r, argv);
		assert_int_equal(r.status, 2);
		assert_string_equal(r.out, "");
		assert_non_null(strstr(r.err, cases[i].msg));
		th_run_free(&r);
	}
	/* and nothing was written */
	assert_int_equal(access(out, F_OK), -1);
	th_cleanup();
}

/* An unknown option: one short line naming it, not the help. */
static void test_bad_option_named(void **state)
{
	const char *obj = th_copy_fixture("basic.o", "b.o");
	struct run r;

	(void)state;
	th_run(&r, (const char *[]){ "btf2btf", "--no-such-option", obj, NULL });
	assert_int_equal(r.status, 2);
	assert_string_equal(r.err, "btf2btf: error: unknown option '--no-such-option' (try --help)\n");
	th_run_free(&r);
	th_run(&r, (const char *[]){ "btf2btf", "-o", NULL });
	assert_int_equal(r.status, 2);
	assert_string_equal(r.err, "btf2btf: error: missing the argument of option '-o' (try --help)\n");
	th_run_free(&r);
	/* an empty --features= is refused, not the default; nothing written */
	th_run(&r, (const char *[]){ "btf2btf", "--features=", obj, NULL });
	assert_int_equal(r.status, 2);
	assert_non_null(strstr(r.err, "--features: empty list"));
	th_run_free(&r);
	assert_true(th_same_file(obj, th_fixture("basic.o")));
	th_cleanup();
}

/* resolve_btfids' and pahole's spellings of -B and --distill-base. */
static void test_underscore_aliases(void **state)
{
	const char *mod = th_copy_fixture("split.o.ko", "m.ko");
	const char *out = th_path("m.btf");
	char *base_out;
	struct run r;

	(void)state;
	run_ok(&r, (const char *[]){ "btf2btf", "--btf_base", th_fixture("split.o"), "--distill_base",
				     "-o", out, mod, NULL });
	assert_non_null(strstr(r.out, "2 transformed (1 legacy), 1 _impl added"));
	th_run_free(&r);
	assert_true(asprintf(&base_out, "%s.base", out) > 0);
	assert_int_equal(access(base_out, F_OK), 0);
	free(base_out);
	th_cleanup();
}

/* Split BTF read without its base: the cause in the library's words (it
 * reads the BTF itself: libbpf has nothing to say), then the option. */
static void test_split_without_base_says_why(void **state)
{
	const char *mod = th_copy_fixture("split.o.ko", "m.ko");
	struct run r;

	(void)state;
	th_run(&r, (const char *[]){ "btf2btf", "-vv", mod, NULL });
	assert_int_equal(r.status, 1);
	assert_non_null(strstr(r.err, ".BTF: cannot parse BTF: its strings do not start with \"\" (split BTF, read without its base?)"));
	assert_non_null(strstr(r.err, "hint: a module's .BTF is split BTF: give its base, --btf-base vmlinux"));
	assert_null(strstr(r.err, "libbpf:"));
	th_run_free(&r);
	th_cleanup();
}

/* Raw BTF has no .BTF_ids: the views say what they cannot see. */
static void test_raw_btf_views_honest(void **state)
{
	const char *obj = th_copy_fixture("kfuncs.clang.o", "c.o");
	const char *raw = th_path("c.btf");
	struct run r;

	(void)state;
	th_require_tool("jq");
	run_ok(&r, (const char *[]){ "btf2btf", "-q", "-o", raw, obj, NULL });
	th_run_free(&r);
	/* clang's decl tags make 8 kfuncs, none in a set8 that raw BTF could show */
	run_ok(&r, (const char *[]){ "btf2btf", "--check", raw, NULL });
	assert_null(strstr(r.out, "tag-not-in-set"));
	assert_non_null(strstr(r.out, ": note: raw BTF has no .BTF_ids and no symbol table"));
	assert_int_equal(th_count_lines(r.out), 1);
	th_run_free(&r);
	th_sh(&r, "%s --check -j %s | jq -r '[.clean, .set8s_seen, (.problems|length)] | @tsv'",
	      th_cli(), raw);
	assert_string_equal(r.out, "false\tfalse\t0\n");
	th_run_free(&r);
	run_ok(&r, (const char *[]){ "btf2btf", "--kfuncs", raw, NULL });
	assert_non_null(strstr(r.err, "btf2btf: note: "));
	assert_non_null(strstr(r.err, "only kfuncs with a bpf_kfunc decl tag are seen"));
	th_run_free(&r);
	th_cleanup();
}

/* --dump prints the BTF as it is, whatever the plan thinks of it. */
static void test_dump_refused_object(void **state)
{
	const char *zoo = th_path("zoo.o");
	struct run r;

	(void)state;
	assert_int_equal(fx_make_named("lint-zoo", zoo), 0);
	th_run(&r, (const char *[]){ "btf2btf", "-q", zoo, NULL });
	assert_int_equal(r.status, 1);	/* the transform refuses it */
	th_run_free(&r);
	run_ok(&r, (const char *[]){ "btf2btf", "--dump", zoo, NULL });
	assert_non_null(strstr(r.out, "FUNC 'bpf_conflict'"));
	assert_non_null(strstr(r.err, "problems in the kfunc declarations (--check lists them)"));
	th_run_free(&r);
	th_cleanup();
}

/* A reader that goes away ends the run quietly, as it ends cat. */
static void test_closed_pipe_quiet(void **state)
{
	const char *obj = th_copy_fixture("kfuncs.gcc.o", "g.o");
	struct run r;

	(void)state;
	th_sh(&r, "(sleep 0.3; %s -q --dump %s; echo \"exit $?\" >&2) | head -c 0", th_cli(), obj);
	assert_string_equal(r.err, "exit 141\n");
	th_run_free(&r);
	th_cleanup();
}

/* -j: a failure is a JSON object on stdout too, as bpftool does. */
static void test_json_errors(void **state)
{
	struct run r;

	(void)state;
	th_require_tool("jq");
	th_sh(&r, "%s -j %s | jq -r .error", th_cli(), th_path("missing.o"));
	assert_non_null(strstr(r.out, "missing.o: cannot open"));
	th_run_free(&r);
	th_sh(&r, "%s -j --kfuncs --bogus x; echo \"exit $?\"", th_cli());
	assert_string_equal(r.out, "{\"error\":\"unknown option '--bogus' (try --help)\"}\nexit 2\n");
	th_run_free(&r);
	th_cleanup();
}

/* With --btf, the raw BTF is the file that changes: the line names it. */
static void test_summary_names_changed_file(void **state)
{
	const char *obj = th_copy_fixture("basic.o", "b.o");
	const char *raw = th_path("b.btf");
	struct run r;
	char *want;

	(void)state;
	/* the object's own BTF as a raw file (objcopy rewrites its input: a copy) */
	th_sh(&r, "cp %s %s.tmp && objcopy --dump-section .BTF=%s %s.tmp", obj, obj, raw, obj);
	assert_int_equal(r.status, 0);
	th_run_free(&r);
	run_ok(&r, (const char *[]){ "btf2btf", "--btf", raw, obj, NULL });
	assert_true(asprintf(&want, "btf2btf: %s: ", raw) > 0);
	assert_true(!strncmp(r.out, want, strlen(want)));
	assert_non_null(strstr(r.out, "; rewritten"));
	free(want);
	th_run_free(&r);
	assert_true(th_same_file(obj, th_fixture("basic.o")));
	th_cleanup();
}

/* The transform shows by default the warning that changes what BPF sees:
 * a real parameter after the implicit one is dropped. */
static void test_dropped_param_warned(void **state)
{
	const char *obj = th_copy_fixture("kfuncs.gcc.o", "g.o");
	struct run r;

	(void)state;
	run_ok(&r, (const char *[]){ "btf2btf", obj, NULL });
	assert_non_null(strstr(r.err, "btf2btf: warning: "));
	assert_non_null(strstr(r.err, "kfunc bpf_kfunc_implicit_mid: the implicit argument is parameter 2 of 3; the transform drops the parameters after it"));
	th_run_free(&r);
	th_cleanup();
}

/* Many modules in one run: the base read once, a line each, the worst
 * status; a failed object is left as it was and the others go on. */
static void test_many_objects(void **state)
{
	const char *base = th_fixture("split.o");
	char *a = strdup(th_copy_fixture("split.o.ko", "a.ko"));
	char *b = strdup(th_copy_fixture("split.o.ko", "b.ko"));
	char *bad = strdup(th_path("bad.ko"));
	char *trace = strdup(th_path("trace"));
	FILE *f = fopen(bad, "w");
	struct run r;

	(void)state;
	th_require_tool("strace");
	assert_non_null(f);
	fputs("not an object\n", f);
	fclose(f);
	th_sh(&r, "strace -f -e trace=openat,open -o %s %s -B %s %s %s %s", trace, th_cli(), base, a,
	      bad, b);
	assert_int_equal(r.status, 1);
	assert_int_equal(th_count_lines(r.out), 2);
	assert_non_null(strstr(r.out, "a.ko: 4 kfuncs"));
	assert_non_null(strstr(r.out, "b.ko: 4 kfuncs"));
	assert_non_null(strstr(r.err, "bad.ko: neither an ELF object nor raw BTF"));
	th_run_free(&r);
	/* the base opened once for the three objects */
	th_sh(&r, "grep -c '\"%s\"' %s", base, trace);
	assert_string_equal(r.out, "1\n");
	th_run_free(&r);
	th_sh(&r, "grep -c 'not an object' %s", bad);
	assert_string_equal(r.out, "1\n");
	th_run_free(&r);
	/* and again: both done, the distilled base made from the one base */
	run_ok(&r, (const char *[]){ "btf2btf", "-B", base, a, b, NULL });
	assert_int_equal(th_count_lines(r.out), 2);
	assert_non_null(strstr(r.out, "2 already transformed; unchanged"));
	th_run_free(&r);
	th_copy(th_fixture("split.o.ko"), a);
	th_copy(th_fixture("split.o.ko"), b);
	run_ok(&r, (const char *[]){ "btf2btf", "-q", "-B", base, "--distill-base", a, b, NULL });
	th_run_free(&r);
	th_sh(&r, "objdump -h %s %s | grep -c '\\.BTF\\.base'", a, b);
	assert_string_equal(r.out, "2\n");
	th_run_free(&r);
	/* one output names one object */
	th_run(&r, (const char *[]){ "btf2btf", "-o", th_path("x.btf"), a, b, NULL });
	assert_int_equal(r.status, 2);
	assert_non_null(strstr(r.err, "-o names one output"));
	th_run_free(&r);
	free(a);
	free(b);
	free(bad);
	free(trace);
	th_cleanup();
}

/* -O elf -o OUT: a transformed copy of the object, as objcopy IN OUT. */
static void test_elf_copy(void **state)
{
	const char *base = th_fixture("split.o");
	char *mod = strdup(th_copy_fixture("split.o.ko", "m.ko"));
	char *copy = strdup(th_path("copy.ko"));
	char *piped = strdup(th_path("piped.ko"));
	struct run r, d;

	(void)state;
	th_require_tool("bpftool");
	run_ok(&r, (const char *[]){ "btf2btf", "-B", base, "-O", "elf", "-o", copy, mod, NULL });
	assert_non_null(strstr(r.out, "; written to "));
	th_run_free(&r);
	assert_true(th_same_file(mod, th_fixture("split.o.ko")));
	/* the copy is the object rewritten in place would be */
	run_ok(&r, (const char *[]){ "btf2btf", "-q", "-B", base, mod, NULL });
	th_run_free(&r);
	assert_true(th_same_file(copy, mod));
	th_sh(&d, "bpftool btf dump file %s --base-btf %s", copy, base);
	assert_non_null(strstr(d.out, "FUNC 'bpf_kfunc_implicit_arg_impl'"));
	th_run_free(&d);
	/* to standard output too */
	th_sh(&r, "%s -B %s -O elf -o - %s > %s", th_cli(), base, th_fixture("split.o.ko"), piped);
	assert_int_equal(r.status, 0);
	th_run_free(&r);
	assert_true(th_same_file(piped, mod));
	/* -O alone, or an unknown format: bad usage */
	th_run(&r, (const char *[]){ "btf2btf", "-O", "elf", mod, NULL });
	assert_int_equal(r.status, 2);
	th_run_free(&r);
	th_run(&r, (const char *[]){ "btf2btf", "-O", "srec", "-o", copy, mod, NULL });
	assert_int_equal(r.status, 2);
	assert_non_null(strstr(r.err, "unknown format 'srec'"));
	th_run_free(&r);
	free(mod);
	free(copy);
	free(piped);
	th_cleanup();
}

/* written says whether a file was written: -o writes its file even when
 * the BTF is unchanged. */
static void test_written_means_written(void **state)
{
	const char *obj = th_copy_fixture("kfuncs.gcc.o", "g.o");
	const char *out = th_path("out.btf");
	struct run r;

	(void)state;
	th_require_tool("jq");
	run_ok(&r, (const char *[]){ "btf2btf", "-q", obj, NULL });	/* transformed in place */
	th_run_free(&r);
	th_sh(&r, "%s -q -j -o %s %s | jq -r '[.changed, .written] | @tsv'", th_cli(), out, obj);
	assert_string_equal(r.out, "false\ttrue\n");
	th_run_free(&r);
	assert_true(access(out, F_OK) == 0);
	run_ok(&r, (const char *[]){ "btf2btf", "-o", out, obj, NULL });
	assert_non_null(strstr(r.out, "; unchanged; written to "));
	th_run_free(&r);
	th_sh(&r, "%s -j %s | jq -r '[.changed, .written] | @tsv'", th_cli(), obj);
	assert_string_equal(r.out, "false\tfalse\n");	/* in place: nothing to write */
	th_run_free(&r);
	th_cleanup();
}

/* A reader that goes away mid-batch: no error, the run ends by SIGPIPE
 * as cat's, and every object was still done. */
static void test_batch_closed_pipe_quiet(void **state)
{
	const char *base = th_fixture("split.o");
	char *a = strdup(th_copy_fixture("split.o.ko", "a.ko"));
	char *b = strdup(th_copy_fixture("split.o.ko", "b.ko"));
	struct run r;

	(void)state;
	th_sh(&r, "(sleep 0.3; %s -B %s %s %s; echo \"exit $?\" >&2) | head -c 0", th_cli(),
	      base, a, b);
	assert_string_equal(r.err, "exit 141\n");
	th_run_free(&r);
	run_ok(&r, (const char *[]){ "btf2btf", "-B", base, b, NULL });
	assert_non_null(strstr(r.out, "2 already transformed; unchanged"));
	th_run_free(&r);
	/* the views too, and with -j */
	th_sh(&r, "(sleep 0.3; %s --kfuncs -B %s %s %s; echo \"exit $?\" >&2) | head -c 0",
	      th_cli(), base, a, b);
	assert_string_equal(r.err, "exit 141\n");
	th_run_free(&r);
	free(a);
	free(b);
	th_cleanup();
}

/* -j: exactly one document on stdout, failures inside it and not on stderr. */
static void test_json_one_document(void **state)
{
	const char *base = th_fixture("split.o");
	char *a = strdup(th_copy_fixture("split.o.ko", "a.ko"));
	char *bad = strdup(th_path("bad.ko"));
	struct run r;

	(void)state;
	th_require_tool("jq");
	th_copy(th_fixture("basic.o"), bad);
	th_sh(&r, "echo junk > %s", bad);
	th_run_free(&r);
	for (int m = 0; m < 3; m++) {
		static const char *const mode[] = { "", "--kfuncs", "--check" };
		static const char *const name[] = { "transform", "kfuncs", "check" };
		char want[128];

		th_sh(&r, "%s -j %s -B %s %s %s 2> %s.err | jq -sc '[length, .[0].version, "
		      ".[0].mode, (.[0].objects | length), .[0].objects[1].file, "
		      ".[0].tally.objects, .[0].tally.failed]'; cat %s.err", th_cli(), mode[m], base,
		      a, bad, bad, bad);
		snprintf(want, sizeof(want), "[1,1,\"%s\",2,\"%s\",2,1]\n", name[m], bad);
		assert_string_equal(r.out, want);
		th_run_free(&r);
	}
	/* one object keeps its shape; its error is not said twice */
	th_sh(&r, "%s -j %s", th_cli(), bad);
	assert_int_equal(r.status, 1);
	assert_string_equal(r.err, "");
	assert_non_null(strstr(r.out, "{\"error\":"));
	th_run_free(&r);
	free(a);
	free(bad);
	th_cleanup();
}

/* --diff exits as diff(1) and cmp: 0 same, 1 different, 2 trouble. */
static void test_diff_exit_status(void **state)
{
	const char *old = th_fixture("kfuncs.gcc.o");
	const char *obj = th_copy_fixture("kfuncs.gcc.o", "g.o");
	const char *basic = th_fixture("basic.o");
	struct run r;

	(void)state;
	run_ok(&r, (const char *[]){ "btf2btf", "-q", obj, NULL });
	th_run_free(&r);
	th_run(&r, (const char *[]){ "btf2btf", "--diff", old, old, NULL });
	assert_int_equal(r.status, 0);
	th_run_free(&r);
	th_run(&r, (const char *[]){ "btf2btf", "--diff", old, obj, NULL });
	assert_int_equal(r.status, 1);
	assert_string_equal(r.err, "");
	th_run_free(&r);
	th_run(&r, (const char *[]){ "btf2btf", "--diff", old, th_path("missing.o"), NULL });
	assert_int_equal(r.status, 2);
	th_run_free(&r);
	th_run(&r, (const char *[]){ "btf2btf", "--diff", "--kfuncs", old, obj, NULL });
	assert_int_equal(r.status, 0);	/* BPF sees the same kfuncs */
	th_run_free(&r);
	th_run(&r, (const char *[]){ "btf2btf", "--diff", "--kfuncs", basic, old, NULL });
	assert_int_equal(r.status, 1);
	th_run_free(&r);
	th_run(&r, (const char *[]){ "btf2btf", "--diff", "--kfuncs", basic, th_path("missing.o"), NULL });
	assert_int_equal(r.status, 2);
	th_run_free(&r);
	th_cleanup();
}

/* --check and --kfuncs over several objects, with a final tally. */
static void test_views_many_objects(void **state)
{
	const char *zoo = th_path("zoo.o");
	const char *basic = th_fixture("basic.o");
	struct run r;

	(void)state;
	assert_int_equal(fx_make_named("lint-zoo", zoo), 0);
	th_run(&r, (const char *[]){ "btf2btf", "--check", basic, zoo, NULL });
	assert_int_equal(r.status, 1);
	assert_non_null(strstr(r.out, "zoo.o: error: set8-conflict"));
	assert_non_null(strstr(r.out, "check: 2 objects: 0 clean, 1 with errors, 0 failed; 3 errors, 10 warnings\n"));
	th_run_free(&r);
	run_ok(&r, (const char *[]){ "btf2btf", "--kfuncs", basic, zoo, NULL });
	/* one table: one header, a FILE column naming each row's object */
	assert_true(!strncmp(r.out, "FILE ", 5));
	assert_null(strstr(r.out + 1, "\nFILE "));
	assert_null(strstr(r.out, "==> "));
	assert_non_null(strstr(r.out, basic));
	assert_non_null(strstr(r.out, "kfuncs: 2 objects, 18 kfuncs, 0 failed\n"));
	th_run_free(&r);
	th_cleanup();
}

/* -v on raw BTF says nothing false: it has no set8s for a tagged kfunc to be in. */
static void test_verbose_raw_btf_honest(void **state)
{
	const char *obj = th_copy_fixture("kfuncs.clang.o", "c.o");
	const char *raw = th_path("c.btf");
	struct run r;

	(void)state;
	run_ok(&r, (const char *[]){ "btf2btf", "-q", "-o", raw, obj, NULL });
	th_run_free(&r);
	run_ok(&r, (const char *[]){ "btf2btf", "-v", "-n", raw, NULL });
	assert_null(strstr(r.err, "in no set8"));
	th_run_free(&r);
	/* an object with set8s still gets it said (lint-zoo's bpf_tagged_only) */
	assert_int_equal(fx_make_named("lint-zoo", th_path("zoo.o")), 0);
	th_run(&r, (const char *[]){ "btf2btf", "-v", "-n", th_path("zoo.o"), NULL });
	assert_non_null(strstr(r.err, "bpf_tagged_only has a bpf_kfunc decl tag but is in no set8"));
	th_run_free(&r);
	th_cleanup();
}

/* --kfunc-history over three generations of a "kernel" (fixtures), as built
 * (gen2 and gen3 transformed), then with the newest as raw BTF. */
static void test_kfunc_history(void **state)
{
	char *k[3], *raw = strdup(th_path("gen3.btf")), *tagged = strdup(th_path("gen3t.btf"));
	char arg[3][4200];
	struct run r;

	(void)state;
	th_require_tool("jq");
	for (int g = 0; g < 3; g++) {
		char name[32];

		snprintf(name, sizeof(name), "kernel-gen%d", g + 1);
		k[g] = strdup(th_path(name));
		assert_int_equal(fx_make_named(name, k[g]), 0);
		snprintf(arg[g], sizeof(arg[g]), "%d=%s", g + 1, k[g]);
	}
	run_ok(&r, (const char *[]){ "btf2btf", "-q", k[1], k[2], NULL });
	th_run_free(&r);
	run_ok(&r, (const char *[]){ "btf2btf", "--kfunc-history", arg[0], arg[1], arg[2], NULL });
	assert_non_null(strstr(r.out, "\nbpf_hist_gone      1      3     -              0              -                 int bpf_hist_gone(int a0)\n"));
	assert_non_null(strstr(r.out, "\nbpf_hist_new       2      -     -              0              KF_RET_NULL       int bpf_hist_new(int a0)\n"));
	assert_non_null(strstr(r.out, "\nbpf_hist_obj       3      -     moved in 3     0              KF_IMPLICIT_ARGS  int bpf_hist_obj(int a0)  (before: bpf_hist_obj_impl)\n"));
	assert_non_null(strstr(r.out, "\nbpf_hist_wq        1      -     moved in 2     1              KF_IMPLICIT_ARGS  int bpf_hist_wq(int a0)\n"
				      "    1: int bpf_hist_wq(int a0, struct bpf_prog_aux *a1)\n"
				      "    2: int bpf_hist_wq(int a0)\n"));
	assert_non_null(strstr(r.out, "    1: int bpf_hist_proto(int a0)\n    2: int bpf_hist_proto(long a0)\n"));
	th_run_free(&r);
	th_sh(&r, "%s --kfunc-history -j %s %s %s | jq -sc '[length, (.[0].kfuncs | length), "
	      "(.[0].kfuncs[] | select(.name == \"bpf_hist_wq\") | [.implicit_args_since, "
	      ".moved_to_implicit_args, .proto_changed_in, .in[1].flag_names])]'", th_cli(),
	      arg[0], arg[1], arg[2]);
	assert_string_equal(r.out, "[1,7,[\"2\",true,[\"2\"],[\"KF_IMPLICIT_ARGS\"]]]\n");
	th_run_free(&r);
	/* raw BTF: no set8s, so flags unknown; without decl tags no kfunc is
	 * seen at all, which says nothing about any of them */
	run_ok(&r, (const char *[]){ "btf2btf", "-q", "-o", raw, k[2], NULL });
	th_run_free(&r);
	run_ok(&r, (const char *[]){ "btf2btf", "-q", "--features=kfunc_tags", "-o", tagged, k[2], NULL });
	th_run_free(&r);
	th_sh(&r, "%s --kfunc-history -j %s %s 3=%s 2>/dev/null | jq -c '[.kernels[2].kfuncs, "
	      "(.kfuncs[] | select(.name == \"bpf_hist_gone\") | .gone)]'", th_cli(), arg[0],
	      arg[1], raw);
	assert_string_equal(r.out, "[null,null]\n");
	th_run_free(&r);
	th_sh(&r, "%s --kfunc-history -j %s %s 3=%s 2>/dev/null | jq -c '[.kernels[2].flags_known, "
	      "(.kfuncs[] | select(.name == \"bpf_hist_obj\") | [.implicit_args_since, .in[0].flags]), "
	      "(.kfuncs[] | select(.name == \"bpf_hist_gone\") | .gone)]'", th_cli(), arg[0],
	      arg[1], tagged);
	/* its flags unknown, but the BTF shows bpf_hist_obj transformed (an
	 * _impl with the kernel prototype beside it): KF_IMPLICIT_ARGS in 3 */
	assert_string_equal(r.out, "[false,[\"3\",null],\"3\"]\n");
	th_run_free(&r);
	th_sh(&r, "%s --kfunc-history %s %s 3=%s 2>/dev/null | grep -E '^(3 |bpf_hist_stable)'",
	      th_cli(), arg[0], arg[1], tagged);
	assert_non_null(strstr(r.out, "unknown (no set8s read: raw BTF, or no symbol table)\n"));
	assert_non_null(strstr(r.out, "  unknown  "));	/* bpf_hist_stable's flags in 3 */
	th_run_free(&r);
	for (int g = 0; g < 3; g++)
		free(k[g]);
	free(raw);
	free(tagged);
	th_cleanup();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dump_matches_bpftool),
		cmocka_unit_test(test_bpftool_sees_only_the_transform),
		cmocka_unit_test(test_second_run_identical),
		cmocka_unit_test(test_clang_tags),
		cmocka_unit_test(test_output_raw_leaves_input),
		cmocka_unit_test(test_dry_run_writes_nothing),
		cmocka_unit_test(test_split_module_cli),
		cmocka_unit_test(test_raw_btf_input),
		cmocka_unit_test(test_errors_name_the_file),
		cmocka_unit_test(test_usage),
		cmocka_unit_test(test_summary_json),
		cmocka_unit_test(test_stdout_failure),
		cmocka_unit_test(test_meaningless_combinations),
		cmocka_unit_test(test_bad_option_named),
		cmocka_unit_test(test_underscore_aliases),
		cmocka_unit_test(test_split_without_base_says_why),
		cmocka_unit_test(test_raw_btf_views_honest),
		cmocka_unit_test(test_dump_refused_object),
		cmocka_unit_test(test_closed_pipe_quiet),
		cmocka_unit_test(test_json_errors),
		cmocka_unit_test(test_summary_names_changed_file),
		cmocka_unit_test(test_dropped_param_warned),
		cmocka_unit_test(test_many_objects),
		cmocka_unit_test(test_elf_copy),
		cmocka_unit_test(test_written_means_written),
		cmocka_unit_test(test_batch_closed_pipe_quiet),
		cmocka_unit_test(test_json_one_document),
		cmocka_unit_test(test_diff_exit_status),
		cmocka_unit_test(test_views_many_objects),
		cmocka_unit_test(test_verbose_raw_btf_honest),
		cmocka_unit_test(test_kfunc_history),
	};

	return cmocka_run_group_tests_name("cli", tests, NULL, NULL);
}
