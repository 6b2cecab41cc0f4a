// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Modules as installed: compressed (.ko.xz, .ko.zst, .ko.gz, made by the
 * tools with Kbuild's flags) and signed (scripts/sign-file's trailer around
 * a fake PKCS#7 blob): fixtures/fixtures.mk makes them from kfuncs.gcc.o.
 */
#include <stdlib.h>
#include <string.h>

#include "helpers.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static const char *const packed[] = { "kfuncs.ko.xz", "kfuncs.ko.zst", "kfuncs.ko.gz",
				      "kfuncs-signed.ko", "kfuncs-signed.ko.xz" };

static void run_ok(struct run *r, const char *const *argv)
{
	th_run(r, argv);
	if (r->status)
		fail_msg("%s exited %d: %s", argv[0], r->status, r->err);
}

/* What `btf2btf -q OPT FILE` prints, FILE's name cut out (--check names it). */
static char *view(const char *opt, const char *file)
{
	size_t len = strlen(file);
	struct run r;
	char *out, *p;

	run_ok(&r, (const char *[]){ "btf2btf", "-q", opt, file, NULL });
	out = strdup(r.out);
	th_run_free(&r);
	while ((p = strstr(out, file)))
		memmove(p, p + len, strlen(p + len) + 1);
	return out;
}

/* Every view reads them as it reads the plain module. */
static void test_views_read_packed(void **state)
{
	static const char *const opts[] = { "--kfuncs", "--dump", "--check" };

	(void)state;
	for (size_t o = 0; o < ARRAY_SIZE(opts); o++) {
		char *plain = view(opts[o], th_fixture("kfuncs.ko"));

		assert_true(strlen(plain) > 100);
		for (size_t i = 0; i < ARRAY_SIZE(packed); i++) {
			char *other = view(opts[o], th_fixture(packed[i]));

			assert_string_equal(other, plain);
			free(other);
		}
		free(plain);
	}
	{
		struct run r;

		run_ok(&r, (const char *[]){ "btf2btf", "--diff", "--kfuncs", th_fixture("kfuncs.ko"),
					     th_fixture("kfuncs.ko.zst"), NULL });
		th_run_free(&r);
	}
	th_cleanup();
}

/* In place: the same module, compressed as it was (Kbuild's xz flags). */
static void test_rewrite_recompresses(void **state)
{
	static const struct { const char *file, *unpack; } c[] = {
		{ "kfuncs.ko.xz", "xz -dc" }, { "kfuncs.ko.zst", "zstd -qdc" },
		{ "kfuncs.ko.gz", "gzip -dc" },
	};
	const char *plain = th_copy_fixture("kfuncs.ko", "plain.ko");
	struct run r;

	(void)state;
	th_require_tool("xz");
	th_require_tool("zstd");
	run_ok(&r, (const char *[]){ "btf2btf", "-q", plain, NULL });
	th_run_free(&r);
	for (size_t i = 0; i < ARRAY_SIZE(c); i++) {
		const char *f = th_copy_fixture(c[i].file, c[i].file);

		run_ok(&r, (const char *[]){ "btf2btf", "-q", f, NULL });
		th_run_free(&r);
		th_sh(&r, "%s %s | cmp - %s", c[i].unpack, f, plain);
		assert_int_equal(r.status, 0);
		th_run_free(&r);
	}
	/* xz as Kbuild: a CRC32 check and a 1 MiB dictionary */
	th_sh(&r, "xz --robot -lvv %s | grep '^block' | grep -c 'CRC32.*--lzma2=dict=1MiB'",
	      th_path("kfuncs.ko.xz"));
	assert_string_equal(r.out, "1\n");
	th_run_free(&r);
	th_cleanup();
}

/* A damaged archive is an error naming the cause, not a crash. */
static void test_truncated_refused(void **state)
{
	const char *f = th_path("cut.ko.xz");
	struct run r;

	(void)state;
	th_sh(&r, "head -c 600 %s > %s", th_fixture("kfuncs.ko.xz"), f);
	th_run_free(&r);
	th_run(&r, (const char *[]){ "btf2btf", "--kfuncs", f, NULL });
	assert_int_equal(r.status, 1);
	assert_non_null(strstr(r.err, "xz data is corrupt or truncated"));
	th_run_free(&r);
	th_cleanup();
}

/*
 * liblzma and libzstd are loaded when such a module is met: the CLI does
 * not link them (its own NEEDED entries; a newer libelf may link libzstd
 * itself), and without them such a module is an error naming the library
 * (test builds: BTF2BTF_FAULT=dlopen fails the load), the file as it was.
 * gzip (zlib, linked) still reads.
 */
static void test_compression_library_loaded_on_demand(void **state)
{
	static const struct { const char *file, *soname; } c[] = {
		{ "kfuncs.ko.xz", "xz data needs liblzma.so.5, which cannot be loaded" },
		{ "kfuncs.ko.zst", "zstd data needs libzstd.so.1, which cannot be loaded" },
	};
	struct run r;

	(void)state;
	th_require_tool("readelf");
	th_sh(&r, "readelf -d %s | grep NEEDED | grep -c -e liblzma -e libzstd", th_cli());
	assert_string_equal(r.out, "0\n");
	th_run_free(&r);
	setenv("BTF2BTF_FAULT", "dlopen", 1);
	for (size_t i = 0; i < ARRAY_SIZE(c); i++) {
		const char *f = th_copy_fixture(c[i].file, c[i].file);

		th_run(&r, (const char *[]){ "btf2btf", "-q", f, NULL });
		assert_int_equal(r.status, 1);
		assert_non_null(strstr(r.err, c[i].soname));
		th_run_free(&r);
		assert_true(th_same_file(f, th_fixture(c[i].file)));
	}
	run_ok(&r, (const char *[]){ "btf2btf", "-q", "--kfuncs", th_fixture("kfuncs.ko.gz"), NULL });
	th_run_free(&r);
	unsetenv("BTF2BTF_FAULT");
	th_cleanup();
}

/* A signed module is never silently unsigned: refused in place (the file
 * as it was), -n is fine, a copy is written and said to be unsigned. */
static void test_signed_not_rewritten(void **state)
{
	const char *unsigned_ko = th_copy_fixture("kfuncs.ko", "u.ko");
	const char *copy = th_path("copy.ko");
	struct run r;

	(void)state;
	for (size_t i = 3; i < ARRAY_SIZE(packed); i++) {
		const char *f = th_copy_fixture(packed[i], packed[i]);

		th_run(&r, (const char *[]){ "btf2btf", f, NULL });
		assert_int_equal(r.status, 1);
		assert_non_null(strstr(r.err, "carries an appended module signature"));
		assert_non_null(strstr(r.err, "scripts/sign-file"));
		th_run_free(&r);
		assert_true(th_same_file(f, th_fixture(packed[i])));
		run_ok(&r, (const char *[]){ "btf2btf", "-n", "--features=all", f, NULL });
		th_run_free(&r);
	}
	run_ok(&r, (const char *[]){ "btf2btf", "-O", "elf", "-o", copy,
				     th_fixture("kfuncs-signed.ko"), NULL });
	assert_non_null(strstr(r.err, "is not signed"));
	th_run_free(&r);
	/* the copy is the transformed ELF, the signature not carried over */
	run_ok(&r, (const char *[]){ "btf2btf", "-q", unsigned_ko, NULL });
	th_run_free(&r);
	assert_true(th_same_file(copy, unsigned_ko));
	th_cleanup();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_views_read_packed),
		cmocka_unit_test(test_rewrite_recompresses),
		cmocka_unit_test(test_truncated_refused),
		cmocka_unit_test(test_compression_library_loaded_on_demand),
		cmocka_unit_test(test_signed_not_rewritten),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
