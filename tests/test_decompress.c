// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Bounded decompression: "zip bombs" (GiBs of zeros in a few hundred KB of
 * xz, zstd or gzip) are refused after their first bytes, in a few MB of
 * memory, with a message naming the file, the format and the limit, and
 * nothing written. The bombs are made here, at test time, with the
 * library's own compressor: a chunk of zeros compressed once and repeated
 * (xz streams, zstd frames and gzip members may follow each other; the
 * decompressor reads them all, as xz -d, zstd -d and gzip -d do).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "format/compress.h"
#include "format/extent.h"
#include "format/modsig.h"
#include "helpers.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#define CHUNK		(8U << 20)	/* zeros compressed once, then repeated */
#define GiB		(1ULL << 30)
/* what a refused bomb may take beyond a normal run of the same command */
#define RSS_SLACK_KB	(8 * 1024)

static const enum b2b_compression formats[] = {
	B2B_COMPRESS_XZ, B2B_COMPRESS_ZSTD, B2B_COMPRESS_GZIP,
};
static const char *const suffix[] = { [B2B_COMPRESS_XZ] = "xz", [B2B_COMPRESS_ZSTD] = "zst",
				      [B2B_COMPRESS_GZIP] = "gz" };

static void compress_or_fail(enum b2b_compression c, const void *data, size_t size,
			     void **out, size_t *out_size)
{
	struct b2b_log log = { .fn = th_log_cb, .path = "bomb" };

	if (b2b_compress(c, data, size, out, out_size, &log))
		fail_msg("cannot compress with %s: %s", b2b_compression_name(c), th_log_errors);
}

/*
 * path: head (compressed as it is, may be NULL) then zeros, `zeros` bytes
 * of them in CHUNK pieces (each its own stream, frame or member). Returns
 * the file's size.
 */
static size_t write_bomb(const char *path, enum b2b_compression c, const void *head,
			 size_t head_size, unsigned long long zeros)
{
	void *plain = calloc(1, CHUNK), *z, *h = NULL;
	size_t z_size, h_size = 0, total = 0;
	FILE *f = fopen(path, "wb");

	assert_non_null(plain);
	assert_non_null(f);
	compress_or_fail(c, plain, CHUNK, &z, &z_size);
	if (head) {
		compress_or_fail(c, head, head_size, &h, &h_size);
		assert_int_equal(fwrite(h, 1, h_size, f), h_size);
		total += h_size;
	}
	for (unsigned long long n = 0; n < zeros / CHUNK; n++) {
		assert_int_equal(fwrite(z, 1, z_size, f), z_size);
		total += z_size;
	}
	assert_int_equal(fclose(f), 0);
	free(plain);
	free(z);
	free(h);
	return total;
}

/*
 * Peak RSS (KB) of the CLI run on args, its exit status and stderr into r.
 * A forked child's peak counts the pages of its parent at the fork, so
 * the CLI is run by a fresh copy of this program (--peak-rss: a few
 * hundred KB), which forks it and reports wait4()'s figure.
 */
static long cli_peak_rss(struct run *r, const char *const *args)
{
	static char self[4096];
	const char *argv[16] = { self, "--peak-rss", th_path("stderr"), th_cli() };
	long kb = -1;
	size_t size;
	int n = 4;

	if (!self[0])
		assert_true(readlink("/proc/self/exe", self, sizeof(self) - 1) > 0);
	for (; args[n - 4] && n < 15; n++)
		argv[n] = args[n - 4];
	argv[n] = NULL;
	th_run(r, argv);
	if (r->status || sscanf(r->out, "%d %ld", &r->status, &kb) != 2)
		fail_msg("--peak-rss failed (%d): %s%s", r->status, r->out, r->err);
	free(r->err);
	r->err = th_read(th_path("stderr"), &size);
	return kb;
}

/* --peak-rss ERR_FILE PROG ARGS...: PROG run with stdout on /dev/null and
 * stderr into ERR_FILE; prints "STATUS PEAK_KB". */
static int peak_rss_main(const char *err_path, char **argv)
{
	struct rusage ru;
	int status;
	pid_t pid = fork();

	if (pid < 0)
		return 1;
	if (!pid) {
		if (!freopen("/dev/null", "w", stdout) || !freopen(err_path, "w", stderr))
			_exit(127);
		execv(argv[0], argv);
		_exit(127);
	}
	if (wait4(pid, &status, 0, &ru) != pid)
		return 1;
	printf("%d %ld\n", WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status),
	       ru.ru_maxrss);
	return 0;
}

/* The CLI's peak on the compressed fixture module, read whole: the
 * reference a refused bomb is held to. */
static long normal_rss(enum b2b_compression c)
{
	char name[64];
	struct run r;
	long kb;

	snprintf(name, sizeof(name), "kfuncs.ko.%s", suffix[c]);
	kb = cli_peak_rss(&r, (const char *[]){ "--kfuncs", th_fixture(name), NULL });
	assert_int_equal(r.status, 0);
	th_run_free(&r);
	return kb;
}

/* The bomb refused with exit 1, message, peak RSS within the slack of a
 * normal run, the file as it was and nothing else in its directory. */
static void assert_refused(const char *path, enum b2b_compression c, const char *msg,
			   const char *const *opts)
{
	const char *args[12];
	struct stat before, after;
	struct run r;
	long kb, ref = normal_rss(c);
	int n = 0;

	assert_int_equal(stat(path, &before), 0);
	for (; opts && opts[n]; n++)
		args[n] = opts[n];
	args[n++] = path;
	args[n] = NULL;
	kb = cli_peak_rss(&r, args);
	print_message("  %-12s %-4s %8lld KB -> refused, peak RSS %ld KB (normal run %ld KB)\n",
		      strrchr(path, '/') + 1, b2b_compression_name(c),
		      (long long)before.st_size / 1024, kb, ref);
	assert_int_equal(r.status, 1);
	if (!strstr(r.err, path) || !strstr(r.err, b2b_compression_name(c)) || !strstr(r.err, msg))
		fail_msg("%s: expected a message naming it, %s and \"%s\", got: %s", path,
			 b2b_compression_name(c), msg, r.err);
	th_run_free(&r);
	if (kb > ref + RSS_SLACK_KB)
		fail_msg("%s: peak RSS %ld KB, a normal run's is %ld KB: read too far", path, kb, ref);
	assert_int_equal(stat(path, &after), 0);
	assert_int_equal(after.st_size, before.st_size);
	assert_int_equal(after.st_mtim.tv_sec, before.st_mtim.tv_sec);
	assert_int_equal(after.st_mtim.tv_nsec, before.st_mtim.tv_nsec);
}

/* No temp file of a rewrite of name left beside it: nothing written. */
static void assert_no_temp_file(const char *name)
{
	struct run r;

	th_sh(&r, "ls -A %s | grep -c -F .%s.", th_tmpdir(), name);
	assert_string_equal(r.out, "0\n");
	th_run_free(&r);
}

/* 3 GiB of zeros: not an ELF object nor BTF, refused at the first bytes. */
static void test_zeros_refused_at_once(void **state)
{
	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(formats); i++) {
		enum b2b_compression c = formats[i];
		char name[32], path[4096];

		snprintf(name, sizeof(name), "zeros.ko.%s", suffix[c]);
		snprintf(path, sizeof(path), "%s", th_path(name));
		write_bomb(path, c, NULL, 0, 3 * GiB);
		assert_refused(path, c, "data holds neither an ELF object nor raw BTF (it starts with 00 00 00 00): refused",
			       (const char *[]){ "--kfuncs", NULL });
		/* in place: the transform refuses it the same way */
		assert_refused(path, c, "neither an ELF object nor raw BTF",
			       (const char *[]){ "--features=all", NULL });
		assert_no_temp_file(name);
		unlink(path);
	}
	th_cleanup();
}

/* A real module followed by 2 GiB of zeros: refused once the stream goes
 * on past the module's end (its section headers tell where) by more than
 * a module signature. */
static void test_module_then_zeros_refused(void **state)
{
	size_t size;
	void *ko = th_read(th_fixture("kfuncs.ko"), &size);

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(formats); i++) {
		enum b2b_compression c = formats[i];
		char name[32], path[4096];

		snprintf(name, sizeof(name), "padded.ko.%s", suffix[c]);
		snprintf(path, sizeof(path), "%s", th_path(name));
		write_bomb(path, c, ko, size, 2 * GiB);
		assert_refused(path, c, "data goes on past the end of the object it holds",
			       (const char *[]){ "--kfuncs", NULL });
		assert_refused(path, c, "goes on past the end", (const char *[]){ NULL });
		assert_no_temp_file(name);
		unlink(path);
	}
	free(ko);
	th_cleanup();
}

/* An ELF header whose section header table lies 2 GiB in: refused from
 * the header, past the default limit, before any of the zeros is read;
 * a raw BTF header claiming 4 GiB likewise. */
static void test_header_claim_refused(void **state)
{
	size_t size;
	unsigned char *ko = th_read(th_fixture("kfuncs.ko"), &size);
	unsigned char btf[24] = { 0x9f, 0xeb, 1, 0, 24 };
	unsigned long long shoff = 2 * GiB;

	(void)state;
	assert_int_equal(ko[4], 2);	/* ELF64, little endian: e_shoff at 40 */
	assert_int_equal(ko[5], 1);
	for (int b = 0; b < 8; b++)
		ko[40 + b] = (unsigned char)(shoff >> (8 * b));
	memset(btf + 12, 0xff, 4);	/* type_len */
	for (size_t i = 0; i < ARRAY_SIZE(formats); i++) {
		enum b2b_compression c = formats[i];
		char name[32], path[4096];

		snprintf(name, sizeof(name), "claim.ko.%s", suffix[c]);
		snprintf(path, sizeof(path), "%s", th_path(name));
		write_bomb(path, c, ko, 64, GiB + CHUNK);
		assert_refused(path, c, "data holds an object whose headers say it spans 2147485184 bytes, more than the limit of 1073741824 bytes decompressed: refused",
			       (const char *[]){ "--kfuncs", NULL });
		unlink(path);
		snprintf(name, sizeof(name), "claim.btf.%s", suffix[c]);
		snprintf(path, sizeof(path), "%s", th_path(name));
		write_bomb(path, c, btf, sizeof(btf), GiB + CHUNK);
		assert_refused(path, c, "spans 4294967319 bytes, more than the limit of 1073741824",
			       (const char *[]){ "--dump", NULL });
		unlink(path);
	}
	free(ko);
	th_cleanup();
}

/* The limit: --max-decompressed (K, M, G), BTF2BTF_MAX_DECOMPRESSED (the
 * option wins), opts.max_decompressed; the message names it and the hint
 * says how to raise it. */
static void test_limit_option(void **state)
{
	const char *xz = th_fixture("kfuncs.ko.xz");
	struct run r;

	(void)state;
	th_run(&r, (const char *[]){ "btf2btf", "-q", "--kfuncs", "--max-decompressed=4K", xz, NULL });
	assert_int_equal(r.status, 1);
	assert_non_null(strstr(r.err, "kfuncs.ko.xz: xz data holds an object whose headers say it spans"));
	assert_non_null(strstr(r.err, "more than the limit of 4096 bytes decompressed: refused"));
	assert_non_null(strstr(r.err, "hint: a compressed input may decompress to 4096 bytes; raise that with --max-decompressed=SIZE or BTF2BTF_MAX_DECOMPRESSED"));
	th_run_free(&r);
	th_run(&r, (const char *[]){ "btf2btf", "-q", "--kfuncs", "--max-decompressed=1M", xz, NULL });
	assert_int_equal(r.status, 0);
	th_run_free(&r);
	setenv("BTF2BTF_MAX_DECOMPRESSED", "4K", 1);
	th_run(&r, (const char *[]){ "btf2btf", "-q", "--kfuncs", xz, NULL });
	assert_int_equal(r.status, 1);
	assert_non_null(strstr(r.err, "the limit of 4096 bytes"));
	th_run_free(&r);
	th_run(&r, (const char *[]){ "btf2btf", "-q", "--kfuncs", "--max-decompressed", "1M", xz, NULL });
	assert_int_equal(r.status, 0);
	th_run_free(&r);
	setenv("BTF2BTF_MAX_DECOMPRESSED", "12 K", 1);
	th_run(&r, (const char *[]){ "btf2btf", "--kfuncs", xz, NULL });
	assert_int_equal(r.status, 2);
	assert_non_null(strstr(r.err, "BTF2BTF_MAX_DECOMPRESSED: '12 K' is not a size"));
	th_run_free(&r);
	unsetenv("BTF2BTF_MAX_DECOMPRESSED");
	static const char *const bad[] = { "0", "-1", "1T", "K", "17179869184G", "99999999999999999999", "" };

	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		char opt[64];

		snprintf(opt, sizeof(opt), "--max-decompressed=%s", bad[i]);
		th_run(&r, (const char *[]){ "btf2btf", "--kfuncs", opt, xz, NULL });
		assert_int_equal(r.status, 2);
		assert_non_null(strstr(r.err, "is not a size"));
		th_run_free(&r);
	}
	/* the library: opts.max_decompressed, -EFBIG, the file named */
	{
		struct btf2btf *b = NULL;
		BTF2BTF_OPTS(small, .log = th_log_cb, .max_decompressed = 8192);
		BTF2BTF_OPTS(enough, .log = th_log_cb, .max_decompressed = 1 << 20);

		th_log_reset();
		assert_int_equal(btf2btf__open(xz, &small, &b), -EFBIG);
		assert_null(b);
		assert_non_null(strstr(th_log_errors, xz));
		assert_non_null(strstr(th_log_errors, "the limit of 8192 bytes"));
		assert_int_equal(btf2btf__open(xz, &enough, &b), 0);
		btf2btf__close(b);
	}
	th_cleanup();
}

/*
 * What the guard trusts: for every fixture (ELF32 and ELF64, both byte
 * orders, executables, relocatable objects, raw BTF) the extent its
 * headers claim is its size, the signature of a signed module excepted;
 * and none of it is needed to tell: a prefix of as many bytes as the
 * last answer asked for is always enough to go on.
 */
static void test_extent_of_fixtures(void **state)
{
	static const char *const files[] = {
		"basic.o", "basic-be.o", "basic-elf32.o", "basic-exec.o", "basic-resolved.o",
		"kfuncs.ko", "kfuncs-signed.ko", "kfuncs.clang.o", "reloc.o.ko", "reloc.o.ko.BTF",
		"reloc.o.ko.BTF.base", "split.o.ko",
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(files); i++) {
		size_t size, elf_size, len = 0;
		void *p = th_read(th_fixture(files[i]), &size);
		struct b2b_extent x = { 0 };
		unsigned int steps = 0;

		char why[256];

		if (b2b_modsig_find(p, size, &elf_size, why, sizeof(why)) != 1)
			elf_size = size;
		do {
			len = x.end > size ? size : x.end;
			assert_int_equal(b2b_extent_of(p, len, &x), 0);
			steps++;
		} while (!x.known && x.end <= size && steps < 10);
		if (!x.known || x.end != elf_size)
			fail_msg("%s: %zu bytes (ELF %zu), the headers claim %llu (%s, %u steps)",
				 files[i], size, elf_size, (unsigned long long)x.end,
				 x.known ? "known" : "not known", steps);
		free(p);
	}
	{
		struct b2b_extent x;
		static const unsigned char bad_class[8] = { 0x7f, 'E', 'L', 'F', 3, 1 };

		assert_int_equal(b2b_extent_of("\x28\xb5\x2f\xfd", 4, &x), -ENOEXEC);
		assert_string_equal(x.why, "neither an ELF object nor raw BTF");
		assert_int_equal(b2b_extent_of(bad_class, sizeof(bad_class), &x), -ENOEXEC);
		assert_string_equal(x.why, "an ELF header of an unknown class");
		assert_int_equal(b2b_extent_of("\x7f" "EL", 3, &x), 0);
		assert_false(x.known);
		assert_int_equal(x.end, 4);
	}
}

/* Valid streams of many members/frames/streams read whole (as gzip -d,
 * zstd -d, xz -d do): the module, then each its own piece, and a small
 * signature-sized tail is no reason to refuse. */
static void test_concatenated_streams_read(void **state)
{
	size_t size;
	void *ko = th_read(th_fixture("kfuncs.ko"), &size);

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(formats); i++) {
		enum b2b_compression c = formats[i];
		void *a, *b, *both, *plain;
		size_t a_size, b_size, plain_size, half = size / 2;
		struct b2b_log log = { .fn = th_log_cb, .path = "two" };

		compress_or_fail(c, ko, half, &a, &a_size);
		compress_or_fail(c, (char *)ko + half, size - half, &b, &b_size);
		both = malloc(a_size + b_size);
		assert_non_null(both);
		memcpy(both, a, a_size);
		memcpy((char *)both + a_size, b, b_size);
		th_log_reset();
		assert_int_equal(b2b_decompress(c, both, a_size + b_size, 0, &plain, &plain_size,
						&log), 0);
		assert_int_equal(plain_size, size);
		assert_memory_equal(plain, ko, size);
		free(plain);
		/* one byte short: truncated, named */
		assert_int_equal(b2b_decompress(c, both, a_size + b_size - 1, 0, &plain,
						&plain_size, &log), -EBADMSG);
		assert_non_null(strstr(th_log_errors, "data is corrupt or truncated"));
		free(a);
		free(b);
		free(both);
	}
	free(ko);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_extent_of_fixtures),
		cmocka_unit_test(test_concatenated_streams_read),
		cmocka_unit_test(test_limit_option),
		cmocka_unit_test(test_zeros_refused_at_once),
		cmocka_unit_test(test_module_then_zeros_refused),
		cmocka_unit_test(test_header_claim_refused),
	};

	if (argc > 3 && !strcmp(argv[1], "--peak-rss"))
		return peak_rss_main(argv[2], argv + 3);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
