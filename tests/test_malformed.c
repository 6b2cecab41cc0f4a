// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Malformed input and hostile environments, through the CLI. Every refused
 * case asserts: exit status 1, exactly one error line on stderr (warnings
 * aside; all current cases but one print nothing else), an error naming
 * the file and what is wrong, nothing on stdout, the input byte-identical
 * (and its mode unchanged), no temp file (.NAME.btf2btf.*) or -o output
 * left in the directory. The inputs come from the fixture builder
 * (fx_make_malformed, fixtures/recipes.c).
 */
#include <bpf/btf.h>
#include <dirent.h>
#include <errno.h>
#include <gelf.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "builder.h"
#include "helpers.h"
#include "recipes.h"

#define KF_ACQUIRE (1U << 0)
#define KF_SLEEPABLE (1U << 5)

/* Names in dir that a run could have left: temp files and extra paths. */
static void assert_no_leftovers(const char *dir, const char *const *allowed)
{
	struct dirent *de;
	DIR *d = opendir(dir);

	assert_non_null(d);
	while ((de = readdir(d))) {
		bool ok = !strcmp(de->d_name, ".") || !strcmp(de->d_name, "..");

		for (int i = 0; !ok && allowed[i]; i++)
			ok = !strcmp(de->d_name, allowed[i]);
		if (!ok) {
			closedir(d);
			fail_msg("%s/%s left behind (temp file or output of a failed run)", dir,
				 de->d_name);
		}
	}
	closedir(d);
}

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

/*
 * Run argv (ending in the input path `path`, which lives in th_tmpdir())
 * and assert a clean refusal mentioning `what`. argv[0] may be anything
 * (a setpriv/prlimit wrapper); "btf2btf" is the CLI under test.
 */
/*
 * Error lines on stderr, or -1 if a line is neither an error nor a warning
 * (a warning may precede the error, e.g. about a set8 entry at open).
 */
static int count_errors(const char *err)
{
	int n = 0;

	for (const char *l = err; *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : l + strlen(l)) {
		if (!strncmp(l, "btf2btf: error: ", 16))
			n++;
		else if (strncmp(l, "btf2btf: warning: ", 18) && strncmp(l, "btf2btf: hint: ", 15))
			return -1;
	}
	return n;
}

static const char *also_allowed;
static bool allow_warnings;	/* else stderr is the one error line */	/* one more file the test put in the dir */

static void expect_refused_argv(const char *const *argv, const char *path, const char *what)
{
	const char *allowed[] = { base_name(path), also_allowed, NULL };
	struct stat before, after;
	size_t size = 0, size2;
	void *orig = NULL, *now;
	struct run r;
	bool exists = !stat(path, &before) && S_ISREG(before.st_mode);

	if (exists)
		orig = th_read(path, &size);
	th_run(&r, argv);
	if (r.status != 1 || count_errors(r.err) != 1 || !strstr(r.err, path) ||
	    !strstr(r.err, what) || r.out[0] ||
	    (!allow_warnings && th_count_lines(r.err) != 1 && !strstr(r.err, "implicit_typedef")))
		fail_msg("%s: want exit 1 and one error naming the file and '%s'; got exit %d, stdout '%s', stderr:\n%s",
			 path, what, r.status, r.out, r.err);
	th_run_free(&r);
	if (exists) {
		now = th_read(path, &size2);
		assert_true(size == size2 && !memcmp(orig, now, size));
		assert_int_equal(stat(path, &after), 0);
		assert_int_equal(before.st_mode, after.st_mode);
		assert_true(before.st_ino == after.st_ino);
		free(now);
		free(orig);
	}
	if (!exists)
		allowed[0] = also_allowed, allowed[1] = NULL;
	assert_no_leftovers(th_tmpdir(), allowed);
}

static void expect_refused(const char *path, const char *what)
{
	const char *argv[] = { "btf2btf", path, NULL };

	expect_refused_argv(argv, path, what);
}

/* ---- one test per malformed recipe ---- */

struct mcase {
	const char *recipe;
	const char *what;	/* must appear in the message */
	bool with_output;	/* also try -o FILE: it must not appear */
	bool warns;		/* a warning comes before the error */
};

static const struct mcase cases[] = {
	{ "bad-not-elf", "neither an ELF object nor raw BTF" },
	{ "bad-empty", "neither an ELF object nor raw BTF" },
	{ "bad-truncated", "truncated ELF" },
	{ "bad-no-btf", "has no .BTF section", true },
	{ "bad-btf-magic", ".BTF: bad BTF magic 0xbeef" },
	{ "bad-btf-short", "shorter than a BTF header" },
	{ "bad-btf-hdr-len", "BTF header lengths (types 0+200, strings 200+4159) exceed", true },
	{ "bad-type-id-range", "references type 9999, out of range", true },
	{ "bad-func-proto", "FUNC [11] 'bpf_foo' points to type 1, which is not a FUNC_PROTO", true },
	{ "bad-ids-odd-size", ".BTF_ids: size 22 is not a multiple of 4" },
	{ "bad-set8-past-end", "set8 __BTF_ID__set8__bad_ids (offset 0, size 4096) runs past the section end" },
	{ "bad-set8-size", "has size 28 at offset 0, not an 8-byte header plus 8-byte pairs" },
	{ "bad-entry-outside", "symbol __BTF_ID__func__bpf_bar__99999 (offset 4096) lies outside the section" },
	{ "bad-entry-misaligned", "at offset 12 is not on a pair of set8 bad_ids" },
	{ "bad-entry-dup", "two symbols mark the pair at offset 8" },
	{ "bad-set8-cnt", "set8 bad_ids says cnt=7 but its size holds 2 pairs", true },
	{ "bad-name-too-long", "(507 chars): its _impl name would exceed KSYM_NAME_LEN (512)", true },
	{ "bad-two-sets-flags", "kfunc bpf_foo is KF_IMPLICIT_ARGS in set8 bad_ids but not in set8 other_ids", true },
	{ "bad-impl-both-flagged", "kfunc bpf_foo and its counterpart bpf_foo_impl are both flagged KF_IMPLICIT_ARGS" },
	{ "bad-btf-alloc", "the BTF section is allocated (SHF_ALLOC" },
	{ "bad-btf-offset", "truncated ELF: section [5] (offset 1099511627776, size 287) ends past the file end" },
	{ "bad-btf-align", "the BTF section's alignment 2147483648 is implausible" },
	{ "bad-btf-type", "cannot read section .BTF (type 11, entry size 0)" },
	{ "bad-btf-gap", ".BTF: BTF sections are not contiguous (types 0+200, strings 204+59)", true },
	{ "bad-func-empty-name", ".BTF: FUNC [13] has no name", true },
	{ "bad-resolved-id-range", "set8 bad_ids holds id 4000, past the last type (13): .BTF_ids was resolved against another BTF", true, true },
};

/* Objects upstream resolve_btfids (7.3) accepts: done, with a warning naming the rule's cause. */
static const struct mcase accepted[] = {
	{ "bad-impl-not-func", "kfunc bpf_foo is KF_IMPLICIT_ARGS, but bpf_foo_impl is STRUCT" },
	{ "bad-implicit-no-arg", "kfunc bpf_bar is flagged KF_IMPLICIT_ARGS (set8 bad_ids) but takes no implicit argument" },
	{ "bad-legacy-mismatch", "kfunc bpf_foo and its legacy bpf_foo_impl differ before the implicit argument" },
};

static void test_accepted_with_warning(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(accepted) / sizeof(accepted[0]); i++) {
		const char *path = th_path(accepted[i].recipe);
		const char *out = th_path("out.btf");
		struct run r;

		assert_int_equal(fx_make_malformed(accepted[i].recipe, path), 0);
		th_run(&r, (const char *[]){ "btf2btf", "-o", out, path, NULL });
		if (r.status || !strstr(r.err, "btf2btf: warning: ") || !strstr(r.err, accepted[i].what) ||
		    count_errors(r.err) != 0)
			fail_msg("%s: want exit 0 and a warning '%s'; got exit %d, stderr:\n%s",
				 accepted[i].recipe, accepted[i].what, r.status, r.err);
		th_run_free(&r);
		assert_int_equal(access(out, F_OK), 0);
		th_cleanup();
	}
}

static void test_recipe(void **state)
{
	const struct mcase *c = *state;
	const char *path = th_path(c->recipe);

	assert_int_equal(fx_make_malformed(c->recipe, path), 0);
	allow_warnings = c->warns;
	expect_refused(path, c->what);
	if (c->with_output) {
		const char *out = th_path("out.btf");
		const char *argv[] = { "btf2btf", "-o", out, path, NULL };

		expect_refused_argv(argv, path, c->what);
		assert_int_equal(access(out, F_OK), -1);
	}
}

/* every recipe is covered above or below */
static void test_every_recipe_has_a_case(void **state)
{
	(void)state;
	for (int i = 0; fx_malformed_names[i]; i++) {
		bool found = !strcmp(fx_malformed_names[i], "warn-missing-func");

		for (size_t j = 0; !found && j < sizeof(cases) / sizeof(cases[0]); j++)
			found = !strcmp(cases[j].recipe, fx_malformed_names[i]);
		for (size_t j = 0; !found && j < sizeof(accepted) / sizeof(accepted[0]); j++)
			found = !strcmp(accepted[j].recipe, fx_malformed_names[i]);
		if (!found)
			fail_msg("malformed recipe %s has no test case", fx_malformed_names[i]);
	}
	assert_int_equal(fx_make_malformed("no-such-recipe", th_path("x")), -ENOENT);
}

/* ---- not an error, by design ---- */

/*
 * A set8 entry whose name has no FUNC in BTF: the function may have been
 * inlined or compiled without BTF, and the kernel build must go on (the
 * verifier just cannot call it). One warning naming the file and the
 * function, exit 0, the rest transformed.
 */
static void test_missing_func_is_a_warning(void **state)
{
	const char *path = th_path("warn-missing-func");
	const char *argv[] = { "btf2btf", path, NULL };
	struct btf *btf;
	struct run r;

	(void)state;
	assert_int_equal(fx_make_malformed("warn-missing-func", path), 0);
	th_run(&r, argv);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.err, "warning: "));
	assert_non_null(strstr(r.err, path));
	assert_non_null(strstr(r.err, "lists bpf_ghost, but the BTF has no FUNC of that name"));
	assert_null(strstr(r.err, "error"));
	th_run_free(&r);
	btf = th_parse(path, NULL);
	th_find(btf, "bpf_foo_impl", BTF_KIND_FUNC);
	assert_int_equal(btf__find_by_name_kind(btf, "bpf_ghost", BTF_KIND_FUNC), -ENOENT);
	btf__free(btf);
}

/* ---- handled: other classes and byte orders ---- */

static char *dump_of(const char *path)
{
	const char *argv[] = { "btf2btf", "--dump", path, NULL };
	struct run r;
	char *out;

	th_run(&r, argv);
	assert_int_equal(r.status, 0);
	out = r.out;
	free(r.err);
	return out;
}

/*
 * A big-endian or 32-bit object transforms exactly like the little-endian
 * 64-bit one. Flags words read in the wrong byte order would turn
 * KF_IMPLICIT_ARGS (bit 16) into bit 8 and BTF_SET8_KFUNCS into bit 24:
 * nothing would be transformed. The file keeps its class and byte order.
 */
static void check_handled(const char *fixture, unsigned char cls, unsigned char data)
{
	const char *path = th_copy_fixture(fixture, NULL);
	const char *ref = th_copy_fixture("basic.o", "ref.o");
	const char *argv[] = { "btf2btf", path, NULL };
	const char *argv_ref[] = { "btf2btf", ref, NULL };
	const struct btf2btf_kfunc *k;
	unsigned char ident[EI_NIDENT];
	struct btf2btf *b;
	char *d1, *d2;
	struct btf *btf;
	size_t size;
	void *raw;
	struct run r;

	b = th_open(path, NULL);
	k = th_kfunc(b, "bpf_kfunc_implicit_mid");
	assert_int_equal(k->flags, BTF2BTF_KF_IMPLICIT_ARGS | KF_SLEEPABLE);
	assert_true(k->found_by & BTF2BTF_FOUND_SET8);
	assert_int_equal(th_kfunc(b, "bpf_kfunc_noflags")->flags, KF_ACQUIRE);
	assert_int_equal(th_kfunc(b, "bpf_kfunc_implicit_typedef")->flags, BTF2BTF_KF_IMPLICIT_ARGS);
	btf2btf__close(b);

	th_run(&r, argv);
	assert_int_equal(r.status, 0);
	if (!strstr(r.out, "4 transformed (1 legacy), 3 _impl added"))
		fail_msg("%s: unexpected summary: %s", path, r.out);
	th_run_free(&r);
	th_run(&r, argv_ref);
	assert_int_equal(r.status, 0);
	th_run_free(&r);

	raw = th_read(path, &size);
	memcpy(ident, raw, EI_NIDENT);
	free(raw);
	assert_int_equal(ident[EI_CLASS], cls);
	assert_int_equal(ident[EI_DATA], data);
	btf = th_parse(path, NULL);
	th_find(btf, "bpf_kfunc_implicit_arg_impl", BTF_KIND_FUNC);
	th_find(btf, "bpf_kfunc_implicit_mid_impl", BTF_KIND_FUNC);
	assert_true(btf__find_by_name_kind(btf, "bpf_kfunc_noflags_impl", BTF_KIND_FUNC) < 0);
	btf__free(btf);
	/* same BTF as the little-endian 64-bit result, type for type */
	d1 = dump_of(path);
	d2 = dump_of(ref);
	assert_string_equal(d1, d2);
	free(d1);
	free(d2);
}

static void test_big_endian_handled(void **state)
{
	(void)state;
	check_handled("basic-be.o", ELFCLASS64, ELFDATA2MSB);
}

static void test_elf32_handled(void **state)
{
	(void)state;
	check_handled("basic-elf32.o", ELFCLASS32, ELFDATA2LSB);
}

/* ---- the environment ---- */

static void test_missing_file(void **state)
{
	const char *path = th_path("no-such.o");

	(void)state;
	expect_refused(path, "cannot open: No such file or directory");
}

static void test_directory(void **state)
{
	const char *path = th_path("a-dir.o");

	(void)state;
	assert_int_equal(mkdir(path, 0755), 0);
	also_allowed = "a-dir.o";
	expect_refused(path, "Is a directory");
	rmdir(path);
}

/* root could write it: the tool refuses files without write bits itself */
static void test_read_only_input(void **state)
{
	const char *path = th_copy_fixture("basic.o", NULL);

	(void)state;
	assert_int_equal(chmod(path, 0444), 0);
	expect_refused(path, "is read-only: refusing to rewrite it");
}

/*
 * A directory the CLI cannot create files in. Root ignores directory
 * permissions, so the CLI runs as nobody (setpriv): the directory is
 * root's, 0755; the object itself is writable by everyone.
 */
static void test_unwritable_directory(void **state)
{
	const char *path;
	const char *argv[] = { "setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups",
			       "--", th_cli(), NULL, NULL };
	struct passwd *pw = getpwnam("nobody");

	(void)state;
	th_require_tool("setpriv");
	if (!pw)
		fail_msg("no user 'nobody' to run the CLI as");
	if (getuid() != 0) {
		/* not root: a 0555 directory is enough */
		argv[0] = th_cli();
		argv[1] = NULL;
	}
	path = th_copy_fixture("basic.o", NULL);
	assert_int_equal(chmod(path, 0666), 0);
	assert_int_equal(chmod(th_tmpdir(), 0555), 0);
	for (int i = 0; i < 8; i++)
		if (!argv[i]) {
			argv[i] = path;
			break;
		}
	expect_refused_argv(argv, path, "cannot create a temporary file in");
	chmod(th_tmpdir(), 0700);
}

/*
 * Out of space, simulated with RLIMIT_FSIZE: the writes past the limit fail
 * with EFBIG (the CLI ignores SIGXFSZ, which would otherwise kill it
 * silently), the temp file goes, the input stays.
 */
static void test_out_of_space(void **state)
{
	const char *path = th_copy_fixture("basic.o", NULL);
	const char *argv[] = { "prlimit", "--fsize=1024", "--", th_cli(), path, NULL };

	(void)state;
	th_require_tool("prlimit");
	expect_refused_argv(argv, path, "File too large");
}

static void test_out_of_space_raw_output(void **state)
{
	const char *path = th_copy_fixture("basic.o", NULL);
	const char *out = th_path("out.btf");
	/* the raw BTF is ~1 KB; the limit leaves room for the error message */
	const char *argv[] = { "prlimit", "--fsize=400", "--", th_cli(), "-q", "-o", out, path, NULL };

	(void)state;
	th_require_tool("prlimit");
	also_allowed = "basic.o";
	expect_refused_argv(argv, out, "File too large");
	assert_int_equal(access(out, F_OK), -1);
}

/* A module's split BTF read against another object as its base. */
static void test_split_wrong_base(void **state)
{
	const char *mod = th_copy_fixture("split.o.ko", NULL);
	const char *wrong = th_copy_fixture("basic.o", NULL);
	const char *argv[] = { "btf2btf", "--btf-base", wrong, mod, NULL };
	const char *argv_none[] = { "btf2btf", mod, NULL };
	const char *allowed[] = { "split.o.ko", "basic.o", NULL };

	(void)state;
	also_allowed = "basic.o";
	expect_refused_argv(argv, mod, "(split BTF on base");
	expect_refused_argv(argv, mod, "the wrong base?");
	assert_no_leftovers(th_tmpdir(), allowed);
	/* and without any base: the option that gives it is named */
	allow_warnings = true;
	expect_refused_argv(argv_none, mod, "\nbtf2btf: hint: a module's .BTF is split BTF: give its base, --btf-base vmlinux");
}

static void test_missing_base(void **state)
{
	const char *mod = th_copy_fixture("split.o.ko", NULL);
	const char *base = th_path("no-such-vmlinux");
	const char *argv[] = { "btf2btf", "-B", base, mod, NULL };
	struct run r;

	(void)state;
	th_run(&r, argv);
	assert_int_equal(r.status, 1);
	assert_int_equal(th_count_lines(r.err), 1);
	assert_non_null(strstr(r.err, base));
	assert_non_null(strstr(r.err, "cannot open"));
	th_run_free(&r);
}

/* -o into a directory that does not exist: nothing is created anywhere */
static void test_output_dir_missing(void **state)
{
	const char *path = th_copy_fixture("basic.o", NULL);
	const char *out = th_path("no-such-dir/out.btf");
	const char *argv[] = { "btf2btf", "-o", out, path, NULL };

	(void)state;
	also_allowed = "basic.o";
	expect_refused_argv(argv, out, "cannot create a temporary file in");
}

/* --btf FILE that is not BTF: the message names FILE, the object is untouched */
static void test_btf_option_not_btf(void **state)
{
	const char *obj = th_copy_fixture("basic.o", NULL);
	const char *raw = th_path("bad-not-elf");
	const char *argv[] = { "btf2btf", "--btf", raw, obj, NULL };

	(void)state;
	assert_int_equal(fx_make_malformed("bad-not-elf", raw), 0);
	also_allowed = "basic.o";
	expect_refused_argv(argv, raw, "neither an ELF object nor raw BTF");
	assert_true(th_same_file(obj, th_fixture("basic.o")));
}

/* --btf FILE rewrites FILE: a read-only FILE is refused like a read-only object */
static void test_btf_option_read_only(void **state)
{
	const char *obj = th_copy_fixture("basic.o", NULL);
	const char *raw = th_path("vmlinux.btf");
	const char *argv_o[] = { "btf2btf", "-q", "-o", raw, obj, NULL };
	const char *argv[] = { "btf2btf", "--btf", raw, obj, NULL };
	struct run r;

	(void)state;
	th_run(&r, argv_o);
	assert_int_equal(r.status, 0);
	th_run_free(&r);
	/* the raw BTF as it was before the transform: from a fresh object */
	th_copy(th_fixture("basic.o"), obj);
	{
		struct btf *btf = th_parse(obj, NULL);
		size_t size;
		void *data = fx_btf_raw(btf, &size);

		assert_int_equal(fx_write_file(raw, data, size), 0);
		free(data);
		btf__free(btf);
	}
	assert_int_equal(chmod(raw, 0444), 0);
	also_allowed = "basic.o";
	expect_refused_argv(argv, raw, "is read-only: refusing to rewrite it");
}

static int teardown(void **state)
{
	(void)state;
	also_allowed = NULL;
	allow_warnings = false;
	th_cleanup();
	return 0;
}

int main(void)
{
	static const struct {
		const char *name;
		CMUnitTestFunction fn;
	} others[] = {
#define T(f) { #f, f }
		T(test_every_recipe_has_a_case), T(test_missing_func_is_a_warning),
		T(test_big_endian_handled), T(test_elf32_handled), T(test_missing_file),
		T(test_accepted_with_warning), T(test_directory), T(test_read_only_input), T(test_unwritable_directory),
		T(test_out_of_space), T(test_out_of_space_raw_output), T(test_split_wrong_base),
		T(test_missing_base), T(test_output_dir_missing), T(test_btf_option_not_btf),
		T(test_btf_option_read_only),
#undef T
	};
	enum { NC = sizeof(cases) / sizeof(cases[0]), NO = sizeof(others) / sizeof(others[0]) };
	struct CMUnitTest tests[NC + NO];
	static char names[NC][64];

	for (size_t i = 0; i < NC; i++) {
		snprintf(names[i], sizeof(names[i]), "malformed_%s", cases[i].recipe);
		tests[i] = (struct CMUnitTest){ names[i], test_recipe, NULL, teardown,
						(void *)&cases[i] };
	}
	for (size_t i = 0; i < NO; i++)
		tests[NC + i] = (struct CMUnitTest){ others[i].name, others[i].fn, NULL, teardown,
						     NULL };
	return _cmocka_run_group_tests("test_malformed", tests, NC + NO, NULL, NULL);
}
