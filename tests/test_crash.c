// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Crash safety, concurrency and determinism of the writer, through the
 * test CLI (built with -DBTF2BTF_FAULT_INJECTION: BTF2BTF_FAULT=<point>
 * makes it SIGKILL itself there).
 *
 * SIGKILL cannot be caught: a run killed after creating its temp file
 * leaves .<name>.btf2btf.XXXXXX behind. The original is never touched
 * (rename is the only step that changes it), and the next run on the same
 * file removes the stale temp under its lock.
 */
#include <bpf/btf.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "builder.h"
#include "helpers.h"

static int count_temps(const char *name)
{
	char prefix[256];
	struct dirent *de;
	DIR *d = opendir(th_tmpdir());
	int n = 0;

	assert_non_null(d);
	snprintf(prefix, sizeof(prefix), ".%s.btf2btf.", name);
	while ((de = readdir(d)))
		n += !strncmp(de->d_name, prefix, strlen(prefix));
	closedir(d);
	return n;
}

static void check_transformed(const char *path)
{
	struct btf *btf = th_parse(path, NULL);

	th_find(btf, "bpf_kfunc_implicit_arg_impl", BTF_KIND_FUNC);
	th_find(btf, "bpf_kfunc_implicit_mid_impl", BTF_KIND_FUNC);
	th_find(btf, "bpf_kfunc_implicit_typedef_impl", BTF_KIND_FUNC);
	btf__free(btf);
}

/* reference: basic.o transformed by one undisturbed run */
static const char *reference(void)
{
	const char *ref = th_copy_fixture("basic.o", "ref.o");
	const char *argv[] = { "btf2btf", "-q", ref, NULL };
	struct run r;

	th_run(&r, argv);
	assert_int_equal(r.status, 0);
	th_run_free(&r);
	return ref;
}

static void killed_at(const char *point, const char *const *extra, const char *target,
		      const char *target_name, bool temp_left)
{
	const char *path = th_copy_fixture("basic.o", NULL);
	const char *orig = th_copy_fixture("basic.o", "orig.o");
	const char *argv[8] = { "btf2btf" };
	const char *again[] = { "btf2btf", "-v", path, NULL };
	int n = 1;
	struct run r;

	for (int i = 0; extra && extra[i]; i++)
		argv[n++] = extra[i];
	argv[n++] = path;
	argv[n] = NULL;
	setenv("BTF2BTF_FAULT", point, 1);
	th_run(&r, argv);
	unsetenv("BTF2BTF_FAULT");
	if (r.status != 128 + SIGKILL)
		fail_msg("fault point %s not reached: status %d, stderr %s", point, r.status, r.err);
	th_run_free(&r);
	/* the input is intact and identical */
	assert_true(th_same_file(path, orig));
	if (strcmp(target, path))
		assert_int_equal(access(target, F_OK), -1);
	assert_int_equal(count_temps(target_name), temp_left ? 1 : 0);

	/* the next run succeeds; rewriting in place also clears the stale temp */
	th_run(&r, extra ? argv : again);
	assert_int_equal(r.status, 0);
	th_run_free(&r);
	if (!extra) {
		assert_int_equal(count_temps(target_name), 0);
		check_transformed(path);
		assert_true(th_same_file(path, reference()));
	}
}

static void test_killed_mid_write(void **state)
{
	(void)state;
	killed_at("mid-write", NULL, th_path("basic.o"), "basic.o", true);
}

static void test_killed_before_fsync(void **state)
{
	(void)state;
	killed_at("before-fsync", NULL, th_path("basic.o"), "basic.o", true);
}

static void test_killed_before_rename(void **state)
{
	(void)state;
	killed_at("before-rename", NULL, th_path("basic.o"), "basic.o", true);
}

/* -o: the object is read only, the raw output never appears half-written */
static void test_killed_mid_write_raw(void **state)
{
	const char *out = th_path("out.btf");
	const char *extra[] = { "-o", out, NULL };

	(void)state;
	killed_at("mid-write", extra, out, "out.btf", true);
}

/* The stale-temp cleanup removes exactly mkostemp names of this file, nothing else. */
static void test_stale_cleanup_is_exact(void **state)
{
	char path[4096];	/* th_path()'s buffers rotate */
	const char *keep[] = { ".basic.o.btf2btf.1234567", ".basic.o.btf2btf.12345",
			       ".other.o.btf2btf.ABCDEF", "basic.o.btf2btf.ABCDEF", NULL };
	const char *argv[] = { "btf2btf", "-q", path, NULL };
	struct run r;

	(void)state;
	snprintf(path, sizeof(path), "%s", th_copy_fixture("basic.o", NULL));
	for (int i = 0; keep[i]; i++)
		th_copy(path, th_path(keep[i]));
	assert_int_equal(mkdir(th_path(".basic.o.btf2btf.DIRDIR"), 0755), 0);
	th_copy(path, th_path(".basic.o.btf2btf.XyZ123"));	/* a killed run's */
	th_run(&r, argv);
	assert_int_equal(r.status, 0);
	th_run_free(&r);
	assert_int_equal(access(th_path(".basic.o.btf2btf.XyZ123"), F_OK), -1);
	for (int i = 0; keep[i]; i++)
		assert_int_equal(access(th_path(keep[i]), F_OK), 0);
	assert_int_equal(access(th_path(".basic.o.btf2btf.DIRDIR"), F_OK), 0);
	rmdir(th_path(".basic.o.btf2btf.DIRDIR"));
	check_transformed(path);
}

/*
 * Concurrent runs on one file: every run either succeeds or fails with the
 * "changed by another process" message; the file ends up exactly the
 * single-run result. Several rounds of several writers to give the race
 * a chance.
 */
static void test_concurrent_runs(void **state)
{
	enum { WRITERS = 4, ROUNDS = 8 };
	const char *orig = th_path("orig.o"), *ref = th_path("ref.o"), *path = th_path("syn.o");
	const char *argv_ref[] = { "btf2btf", "-q", ref, NULL };
	int total_ok = 0, total_stale = 0;
	struct run r;

	(void)state;
	/* big enough (a few ms per run) for the runs to overlap */
	assert_int_equal(fx_write_synthetic(orig, 4000, 1, 4, 500), 0);
	th_copy(orig, ref);
	th_run(&r, argv_ref);
	assert_int_equal(r.status, 0);
	th_run_free(&r);
	for (int round = 0; round < ROUNDS; round++) {
		pid_t pids[WRITERS];
		char errs[WRITERS][4096];
		int ok = 0;

		th_copy(orig, path);
		for (int i = 0; i < WRITERS; i++) {
			snprintf(errs[i], sizeof(errs[i]), "%s/err.%d", th_tmpdir(), i);
			pids[i] = fork();
			assert_true(pids[i] >= 0);
			if (!pids[i]) {
				if (!freopen(errs[i], "w", stderr) || !freopen("/dev/null", "w", stdout))
					_exit(126);
				execl(th_cli(), "btf2btf", path, (char *)NULL);
				_exit(127);
			}
		}
		for (int i = 0; i < WRITERS; i++) {
			int st;
			size_t size;
			char *err;

			assert_int_equal(waitpid(pids[i], &st, 0), pids[i]);
			assert_true(WIFEXITED(st));
			err = th_read(errs[i], &size);
			if (WEXITSTATUS(st) == 0) {
				ok++;
				assert_int_equal(size, 0);
			} else if (WEXITSTATUS(st) != 1 || th_count_lines(err) != 1 ||
				   !strstr(err, "was changed by another process while btf2btf ran")) {
				fail_msg("round %d writer %d: exit %d: %s", round, i, WEXITSTATUS(st), err);
			} else {
				total_stale++;
			}
			free(err);
			unlink(errs[i]);
		}
		total_ok += ok;
		assert_true(ok >= 1);
		/* exactly the single-run result, valid for libbpf */
		assert_true(th_same_file(path, ref));
		{
			struct btf *btf = th_parse(path, NULL);

			th_find(btf, "bpf_synth_kfunc_0_impl", BTF_KIND_FUNC);
			btf__free(btf);
		}
		assert_int_equal(count_temps("syn.o"), 0);
	}
	print_message("concurrent runs: %d succeeded, %d refused as stale\n", total_ok, total_stale);
}

/* ---- determinism ---- */

static void run_ok(const char *const *argv)
{
	struct run r;
	int n = 0;

	while (argv[n + 1])
		n++;
	th_run(&r, argv);
	if (r.status)
		fail_msg("%s exited %d: %s", argv[n], r.status, r.err);
	th_run_free(&r);
}

static void check_deterministic(const char *fixture, const char *base_fixture)
{
	const char *a = th_copy_fixture(fixture, "a.o");
	const char *b = th_copy_fixture(fixture, "b.o");
	const char *before = th_copy_fixture(fixture, "before.o");
	const char *base = base_fixture ? th_fixture(base_fixture) : NULL;
	const char *ra = th_path("a.btf"), *rb = th_path("b.btf"), *rc = th_path("c.btf");
	const char *argv_a[] = { "btf2btf", "-q", a, NULL, NULL, NULL };
	const char *argv_b[] = { "btf2btf", "-q", b, NULL, NULL, NULL };
	const char *raw_a[] = { "btf2btf", "-q", "-o", ra, before, NULL, NULL, NULL };
	const char *raw_b[] = { "btf2btf", "-q", "-o", rb, before, NULL, NULL, NULL };
	const char *raw_c[] = { "btf2btf", "-q", "-o", rc, a, NULL, NULL, NULL };

	if (base) {
		argv_a[3] = argv_b[3] = raw_a[5] = raw_b[5] = raw_c[5] = "-B";
		argv_a[4] = argv_b[4] = raw_a[6] = raw_b[6] = raw_c[6] = base;
	}
	run_ok(argv_a);
	run_ok(argv_b);
	/* two runs, byte-identical results, and different from the input */
	assert_true(th_same_file(a, b));
	assert_false(th_same_file(a, before));
	/* second pass: unchanged */
	run_ok(argv_a);
	assert_true(th_same_file(a, b));
	/* raw output: the same across runs, and the same BTF as the rewritten object */
	run_ok(raw_a);
	run_ok(raw_b);
	assert_true(th_same_file(ra, rb));
	run_ok(raw_c);
	assert_true(th_same_file(ra, rc));
	assert_true(th_same_file(before, th_fixture(fixture)));
}

static void test_deterministic_basic(void **state)
{
	(void)state;
	check_deterministic("basic.o", NULL);
}

static void test_deterministic_gcc(void **state)
{
	(void)state;
	check_deterministic("kfuncs.gcc.o", NULL);
}

static void test_deterministic_clang(void **state)
{
	(void)state;
	check_deterministic("kfuncs.clang.o", NULL);
}

static void test_deterministic_be_elf32_resolved(void **state)
{
	(void)state;
	check_deterministic("basic-be.o", NULL);
	th_cleanup();
	check_deterministic("basic-elf32.o", NULL);
	th_cleanup();
	check_deterministic("basic-resolved.o", NULL);
}

static void test_deterministic_split(void **state)
{
	(void)state;
	check_deterministic("split.o.ko", "split.o");
}

/* --add-kfunc-tags: the second pass with the same options changes nothing */
static void test_second_pass_with_tags(void **state)
{
	const char *a = th_copy_fixture("kfuncs.gcc.o", "a.o");
	const char *b = th_copy_fixture("kfuncs.gcc.o", "b.o");
	const char *argv_a[] = { "btf2btf", "-q", "--add-kfunc-tags", a, NULL };
	const char *argv_b[] = { "btf2btf", "-q", "--add-kfunc-tags", b, NULL };

	(void)state;
	run_ok(argv_a);
	run_ok(argv_b);
	assert_true(th_same_file(a, b));
	run_ok(argv_a);
	assert_true(th_same_file(a, b));
}

static int teardown(void **state)
{
	(void)state;
	unsetenv("BTF2BTF_FAULT");
	th_cleanup();
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_killed_mid_write, teardown),
		cmocka_unit_test_teardown(test_killed_before_fsync, teardown),
		cmocka_unit_test_teardown(test_killed_before_rename, teardown),
		cmocka_unit_test_teardown(test_killed_mid_write_raw, teardown),
		cmocka_unit_test_teardown(test_stale_cleanup_is_exact, teardown),
		cmocka_unit_test_teardown(test_concurrent_runs, teardown),
		cmocka_unit_test_teardown(test_deterministic_basic, teardown),
		cmocka_unit_test_teardown(test_deterministic_gcc, teardown),
		cmocka_unit_test_teardown(test_deterministic_clang, teardown),
		cmocka_unit_test_teardown(test_deterministic_be_elf32_resolved, teardown),
		cmocka_unit_test_teardown(test_deterministic_split, teardown),
		cmocka_unit_test_teardown(test_second_pass_with_tags, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
