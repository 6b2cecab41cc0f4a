// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * What the CLI does to the files users own: in-place rewrites keep the
 * symlink, mode, owner and hard links (or refuse); -o writes to a device
 * or FIFO as it is, "-" is standard output, and the input, a read-only
 * file or a directory are refused; FILE and FILE.base change together.
 * Everything happens in the test's own temp dir (mknod too).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "helpers.h"

static char *xstrdup(const char *s)
{
	char *d = strdup(s);

	assert_non_null(d);
	return d;
}

static void run_status(struct run *r, int want, const char *const *argv)
{
	th_run(r, argv);
	if (r->status != want)
		fail_msg("%s %s: exit %d, wanted %d; stderr: %s", argv[1], argv[2] ? argv[2] : "",
			 r->status, want, r->err);
}

static void lstat_ok(const char *path, struct stat *st)
{
	assert_int_equal(lstat(path, st), 0);
}

/* An in-place rewrite through a symlink rewrites its target; the link stays. */
static void test_symlink_followed(void **state)
{
	char *obj = xstrdup(th_copy_fixture("basic.o", "real.o"));
	char *link = xstrdup(th_path("link.o"));
	struct stat st;
	struct run r;

	(void)state;
	assert_int_equal(symlink("real.o", link), 0);
	run_status(&r, 0, (const char *[]){ "btf2btf", "-q", link, NULL });
	th_run_free(&r);
	lstat_ok(link, &st);
	assert_true(S_ISLNK(st.st_mode));
	assert_false(th_same_file(obj, th_fixture("basic.o")));
	/* the target is what changed: a second run finds it done */
	run_status(&r, 0, (const char *[]){ "btf2btf", obj, NULL });
	assert_non_null(strstr(r.out, "4 already transformed; unchanged"));
	th_run_free(&r);
	free(obj);
	free(link);
	th_cleanup();
}

/* Mode and owner survive an in-place rewrite: of an ELF, of --btf's raw file. */
static void test_mode_and_owner_kept(void **state)
{
	char *obj = xstrdup(th_copy_fixture("basic.o", "b.o"));
	char *raw = xstrdup(th_path("b.btf"));
	bool root = geteuid() == 0;
	struct stat st;
	struct run r;

	(void)state;
	run_status(&r, 0, (const char *[]){ "btf2btf", "-q", "-o", raw, obj, NULL });
	th_run_free(&r);
	/* raw BTF that needs the transform: the object's own BTF */
	th_sh(&r, "cp %s %s.tmp && objcopy --dump-section .BTF=%s %s.tmp", obj, obj, raw, obj);
	assert_int_equal(r.status, 0);
	th_run_free(&r);
	assert_int_equal(chmod(obj, 0751), 0);
	assert_int_equal(chmod(raw, 0600), 0);
	if (root) {
		assert_int_equal(chown(obj, 4321, 4322), 0);
		assert_int_equal(chown(raw, 4323, 4324), 0);
	}
	run_status(&r, 0, (const char *[]){ "btf2btf", "-q", obj, NULL });
	th_run_free(&r);
	run_status(&r, 0, (const char *[]){ "btf2btf", "--btf", raw, obj, NULL });
	assert_non_null(strstr(r.out, "; rewritten"));
	th_run_free(&r);
	lstat_ok(obj, &st);
	assert_int_equal(st.st_mode & 07777, 0751);
	if (root) {
		assert_int_equal(st.st_uid, 4321);
		assert_int_equal(st.st_gid, 4322);
	}
	lstat_ok(raw, &st);
	assert_int_equal(st.st_mode & 07777, 0600);
	if (root) {
		assert_int_equal(st.st_uid, 4323);
		assert_int_equal(st.st_gid, 4324);
	}
	free(obj);
	free(raw);
	th_cleanup();
}

/* A file with other hard links is refused: a rename would split them. */
static void test_hard_links_refused(void **state)
{
	char *obj = xstrdup(th_copy_fixture("basic.o", "b.o"));
	char *other = xstrdup(th_path("other.o"));
	char *out = xstrdup(th_path("out.btf"));
	char *out2 = xstrdup(th_path("out2.btf"));
	struct run r;

	(void)state;
	assert_int_equal(link(obj, other), 0);
	run_status(&r, 1, (const char *[]){ "btf2btf", obj, NULL });
	assert_non_null(strstr(r.err, "has 2 hard links"));
	th_run_free(&r);
	assert_true(th_same_file(obj, th_fixture("basic.o")));
	/* -o onto a linked file too */
	th_copy(th_fixture("basic.o"), out);
	assert_int_equal(link(out, out2), 0);
	run_status(&r, 1, (const char *[]){ "btf2btf", "-o", out, other, NULL });
	assert_non_null(strstr(r.err, "has 2 hard links"));
	th_run_free(&r);
	assert_true(th_same_file(out2, th_fixture("basic.o")));
	free(obj);
	free(other);
	free(out);
	free(out2);
	th_cleanup();
}

/* -o onto a character device or a FIFO writes to it; the node stays. */
static void test_output_to_device_and_fifo(void **state)
{
	char *obj = xstrdup(th_copy_fixture("basic.o", "b.o"));
	char *dev = xstrdup(th_path("null"));
	char *fifo = xstrdup(th_path("fifo"));
	char *copy = xstrdup(th_path("copy.btf"));
	char *ref = xstrdup(th_path("ref.btf"));
	struct stat st;
	struct run r;

	(void)state;
	/* mknod needs root; elsewhere a symlink to /dev/null is the device */
	if (geteuid() == 0)
		assert_int_equal(mknod(dev, S_IFCHR | 0666, makedev(1, 3)), 0);
	else
		assert_int_equal(symlink("/dev/null", dev), 0);
	run_status(&r, 0, (const char *[]){ "btf2btf", "-q", "-o", dev, obj, NULL });
	th_run_free(&r);
	assert_int_equal(stat(dev, &st), 0);
	assert_true(S_ISCHR(st.st_mode));
	/* a full device is an error, as a full disk is */
	run_status(&r, 1, (const char *[]){ "btf2btf", "-q", "-o", "/dev/full", obj, NULL });
	assert_non_null(strstr(r.err, "/dev/full: cannot write /dev/full: No space left on device"));
	th_run_free(&r);
	/* a FIFO: its reader gets the raw BTF -o FILE would hold */
	assert_int_equal(mkfifo(fifo, 0600), 0);
	run_status(&r, 0, (const char *[]){ "btf2btf", "-q", "-o", ref, obj, NULL });
	th_run_free(&r);
	th_sh(&r, "cat %s > %s & %s -q -o %s %s; wait", fifo, copy, th_cli(), fifo, obj);
	assert_int_equal(r.status, 0);
	th_run_free(&r);
	lstat_ok(fifo, &st);
	assert_true(S_ISFIFO(st.st_mode));
	assert_true(th_same_file(copy, ref));
	/* "-": standard output, the summary left out */
	th_sh(&r, "%s -o - %s > %s", th_cli(), obj, copy);
	assert_int_equal(r.status, 0);
	assert_true(th_same_file(copy, ref));
	th_run_free(&r);
	assert_int_equal(access(th_path("-"), F_OK), -1);
	free(obj);
	free(dev);
	free(fifo);
	free(copy);
	free(ref);
	th_cleanup();
}

/* -o naming the input, a read-only file or a directory: refused, unchanged. */
static void test_output_refusals(void **state)
{
	char *obj = xstrdup(th_copy_fixture("basic.o", "b.o"));
	char *ro = xstrdup(th_copy_fixture("basic.o", "ro.btf"));
	char *dir = xstrdup(th_path("dir"));
	char *alias = xstrdup(th_path("alias.o"));
	struct run r;

	(void)state;
	run_status(&r, 1, (const char *[]){ "btf2btf", "-o", obj, obj, NULL });
	assert_non_null(strstr(r.err, "is the input"));
	th_run_free(&r);
	/* the same inode by another name */
	assert_int_equal(symlink("b.o", alias), 0);
	run_status(&r, 1, (const char *[]){ "btf2btf", "-o", alias, obj, NULL });
	assert_non_null(strstr(r.err, "is the input"));
	th_run_free(&r);
	assert_true(th_same_file(obj, th_fixture("basic.o")));
	assert_int_equal(chmod(ro, 0444), 0);
	run_status(&r, 1, (const char *[]){ "btf2btf", "-o", ro, obj, NULL });
	assert_non_null(strstr(r.err, "is read-only: refusing to rewrite it"));
	th_run_free(&r);
	assert_true(th_same_file(ro, th_fixture("basic.o")));
	assert_int_equal(mkdir(dir, 0755), 0);
	run_status(&r, 1, (const char *[]){ "btf2btf", "-o", dir, obj, NULL });
	assert_non_null(strstr(r.err, "is not a regular file"));
	th_run_free(&r);
	free(obj);
	free(ro);
	free(dir);
	free(alias);
	th_cleanup();
}

/* FILE and FILE.base change together: FILE refused, FILE.base untouched. */
static void test_base_pair_together(void **state)
{
	char *mod = xstrdup(th_copy_fixture("split.o.ko", "m.ko"));
	char *out = xstrdup(th_copy_fixture("basic.o", "m.btf"));
	char *base_out = xstrdup(th_copy_fixture("basic.o", "m.btf.base"));
	struct run r;

	(void)state;
	assert_int_equal(chmod(out, 0444), 0);
	run_status(&r, 1, (const char *[]){ "btf2btf", "-B", th_fixture("split.o"), "--distill-base",
					    "-o", out, mod, NULL });
	assert_non_null(strstr(r.err, "is read-only"));
	th_run_free(&r);
	assert_true(th_same_file(base_out, th_fixture("basic.o")));
	assert_true(th_same_file(out, th_fixture("basic.o")));
	/* and when both can be written, both are */
	assert_int_equal(chmod(out, 0644), 0);
	run_status(&r, 0, (const char *[]){ "btf2btf", "-q", "-B", th_fixture("split.o"),
					    "--distill-base", "-o", out, mod, NULL });
	th_run_free(&r);
	assert_false(th_same_file(base_out, th_fixture("basic.o")));
	assert_false(th_same_file(out, th_fixture("basic.o")));
	/* no temp file or kept old file left behind */
	th_sh(&r, "ls -A %s | grep -c btf2btf", th_tmpdir());
	assert_string_equal(r.out, "0\n");
	th_run_free(&r);
	free(mod);
	free(out);
	free(base_out);
	th_cleanup();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_symlink_followed),
		cmocka_unit_test(test_mode_and_owner_kept),
		cmocka_unit_test(test_hard_links_refused),
		cmocka_unit_test(test_output_to_device_and_fifo),
		cmocka_unit_test(test_output_refusals),
		cmocka_unit_test(test_base_pair_together),
	};

	return cmocka_run_group_tests_name("output", tests, NULL, NULL);
}
