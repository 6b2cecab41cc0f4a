// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Malformed input in the formats added after tests/test_malformed.c: a
 * distilled base (.BTF.base, X.base) whose counts or strings lie, a base
 * the module does not relocate onto (the kernel's -EINVAL cases), a layout
 * section (32-byte header, either byte order) with impossible sizes or
 * overlapping the types, truncated and corrupted xz/zstd/gzip streams, an
 * appended module signature whose lengths do not add up, --kfunc-history
 * given a module or a non-kernel. Each is made here from a fixture by code,
 * and each must be refused the same way: exit status 1, one error line
 * naming the file and what is wrong, nothing on stdout, the input as it was
 * and nothing written beside it, whether viewed (--kfuncs) or rewritten in
 * place.
 */
#include <byteswap.h>
#include <dirent.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "format/btf_format.h"
#include "format/compress.h"
#include "helpers.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* Error lines on stderr; -1 when a line is neither an error, a warning,
 * a note nor a hint. */
static int count_errors(const char *err)
{
	int n = 0;

	for (const char *l = err; *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : l + strlen(l)) {
		if (!strncmp(l, "btf2btf: error: ", 16))
			n++;
		else if (strncmp(l, "btf2btf: warning: ", 18) && strncmp(l, "btf2btf: note: ", 15) &&
			 strncmp(l, "btf2btf: hint: ", 15))
			return -1;
	}
	return n;
}

/* Files in the temp dir: what a refused run must leave as it was. */
static unsigned int dir_entries(void)
{
	DIR *d = opendir(th_tmpdir());
	unsigned int n = 0;

	assert_non_null(d);
	while (readdir(d))
		n++;
	closedir(d);
	return n;
}

/*
 * argv (its file `path`, which `named` names in the message: path itself
 * or a file it reads, as X.base) refused: exit 1, one error naming `named`
 * and `what`, stdout empty, path byte-identical, no new file beside it.
 */
static void expect_refused(const char *const *argv, const char *path, const char *named,
			   const char *what)
{
	size_t size, size2;
	void *before = th_read(path, &size), *after;
	unsigned int files = dir_entries();
	struct run r;

	th_run(&r, argv);
	if (r.status != 1 || count_errors(r.err) != 1 || !strstr(r.err, named) ||
	    !strstr(r.err, what) || r.out[0])
		fail_msg("%s: want exit 1 and one error naming %s and '%s'; got exit %d, stdout '%.200s', stderr:\n%s",
			 path, named, what, r.status, r.out, r.err);
	th_run_free(&r);
	after = th_read(path, &size2);
	assert_true(size == size2 && !memcmp(before, after, size));
	/* th_run's own capture files are gone again */
	assert_int_equal(dir_entries(), files);
	free(before);
	free(after);
}

/* Viewed and rewritten in place, both refused. */
static void expect_refused_both(const char *path, const char *named, const char *what)
{
	expect_refused((const char *[]){ "btf2btf", "--kfuncs", path, NULL }, path, named, what);
	expect_refused((const char *[]){ "btf2btf", path, NULL }, path, named, what);
}

static void write_file(const char *path, const void *data, size_t size)
{
	FILE *f = fopen(path, "wb");

	assert_non_null(f);
	assert_int_equal(fwrite(data, 1, size, f), size);
	assert_int_equal(fclose(f), 0);
}

static void put32(unsigned char *p, __u32 v, bool swapped)
{
	v = swapped ? bswap_32(v) : v;
	memcpy(p, &v, 4);
}

static __u32 get32(const unsigned char *p, bool swapped)
{
	__u32 v;

	memcpy(&v, p, 4);
	return swapped ? bswap_32(v) : v;
}

/* ---- a distilled base whose counts or strings lie ---- */

/* How a raw distilled base (24-byte header, native) is made to lie. */
struct base_lie {
	const char *name;
	void (*apply)(unsigned char *b, size_t *size);
	const char *what;
};

static void types_too_long(unsigned char *b, size_t *size)
{
	put32(b + 12, get32(b + 12, false) + 8, false);		/* type_len */
}

static void strings_too_long(unsigned char *b, size_t *size)
{
	put32(b + 20, get32(b + 20, false) + 64, false);	/* str_len */
}

static void strings_cut(unsigned char *b, size_t *size)
{
	__u32 str_len = get32(b + 20, false);

	put32(b + 20, 2, false);				/* "\0" and one byte */
	*size -= str_len - 2;
}

static void strings_unterminated(unsigned char *b, size_t *size)
{
	b[*size - 1] = 'x';
}

static void name_past_strings(unsigned char *b, size_t *size)
{
	put32(b + 24, get32(b + 20, false) + 100, false);	/* type [1]'s name_off */
}

/* type [1], an INT, made a VAR: the same size, a kind no distilled base has */
static void first_type_a_var(unsigned char *b, size_t *size)
{
	__u32 info = get32(b + 28, false);

	assert_int_equal((info >> 24) & 0x1f, 1);
	put32(b + 28, (info & ~(0x1fU << 24)) | (14U << 24), false);
}

static void first_type_anonymous(unsigned char *b, size_t *size)
{
	put32(b + 24, 0, false);
}

static const struct base_lie base_lies[] = {
	{ "types-too-long", types_too_long, "BTF sections are not contiguous (types 0+72, strings 64+" },
	{ "strings-too-long", strings_too_long, "BTF header lengths (types 0+64, strings 64+" },
	{ "strings-cut", strings_cut, "cannot parse BTF: its last string is not NUL-terminated" },
	{ "strings-unterminated", strings_unterminated, "cannot parse BTF: its last string is not NUL-terminated" },
	{ "name-past-strings", name_past_strings, "type [1] has an invalid name offset" },
	{ "a-var", first_type_a_var, "is a VAR: a distilled base holds only INT, FLOAT, ENUM, STRUCT, UNION and FWD" },
	{ "anonymous", first_type_anonymous, "is anonymous: a distilled base holds named types only" },
};

/* The raw pair X + X.base with X.base lying; and the ELF module with its
 * .BTF.base section lying the same way (in place: same size). */
static void test_distilled_base_lies(void **state)
{
	size_t size, base_size;
	void *split = th_read(th_fixture("reloc.o.ko.BTF"), &size);
	unsigned char *orig = th_read(th_fixture("reloc.o.ko.BTF.base"), &base_size);

	(void)state;
	assert_int_equal(get32(orig + 4, false), B2B_BTF_HDR_LEN);
	for (size_t i = 0; i < ARRAY_SIZE(base_lies); i++) {
		char path[2048], base[4096];
		unsigned char *b = malloc(base_size);
		size_t n = base_size;

		memcpy(b, orig, base_size);
		base_lies[i].apply(b, &n);
		snprintf(path, sizeof(path), "%s", th_path(base_lies[i].name));
		snprintf(base, sizeof(base), "%s.base", path);
		write_file(path, split, size);
		write_file(base, b, n);
		/* the message names the distilled base file and says which it is */
		expect_refused_both(path, base, base_lies[i].what);
		expect_refused((const char *[]){ "btf2btf", "--check", path, NULL }, path, base,
			       base_lies[i].what);
		unlink(path);
		unlink(base);
		free(b);
	}
	free(split);
	free(orig);
	th_cleanup();
}

/* The same lies inside an ELF module's .BTF.base (same size: in place). */
static void test_distilled_section_lies(void **state)
{
	size_t size;
	unsigned char *ko = th_read(th_fixture("reloc.o.ko"), &size);
	const char *path = th_path("reloc.ko");
	Elf *elf;
	Elf_Scn *scn = NULL;
	GElf_Shdr sh, base_sh = { 0 };
	size_t shstrndx;

	(void)state;
	assert_int_not_equal(elf_version(EV_CURRENT), EV_NONE);
	elf = elf_memory((char *)ko, size);
	assert_non_null(elf);
	assert_int_equal(elf_getshdrstrndx(elf, &shstrndx), 0);
	while ((scn = elf_nextscn(elf, scn)))
		if (gelf_getshdr(scn, &sh) && !strcmp(elf_strptr(elf, shstrndx, sh.sh_name), ".BTF.base"))
			base_sh = sh;
	elf_end(elf);
	assert_true(base_sh.sh_size > 32);
	for (size_t i = 0; i < ARRAY_SIZE(base_lies); i++) {
		unsigned char *copy = malloc(size);
		size_t n = base_sh.sh_size;

		if (base_lies[i].apply == strings_cut) {
			free(copy);
			continue;	/* shrinks the section: the raw pair has it */
		}
		memcpy(copy, ko, size);
		base_lies[i].apply(copy + base_sh.sh_offset, &n);
		write_file(path, copy, size);
		expect_refused_both(path, path, base_lies[i].what);
		expect_refused_both(path, path, ".BTF.base");
		free(copy);
	}
	free(ko);
	th_cleanup();
}

/* ---- a base that does not match: the kernel's -EINVAL at module load ---- */

static void test_base_does_not_match(void **state)
{
	static const struct { const char *base, *what; } c[] = {
		{ "reloc-size.o", "distilled base type STRUCT 'reloc_embed' [3] (size 8, embedded in a type of the module: sizes must match) does not match" },
		{ "reloc-missing.o", "no type of that name there" },
		{ "reloc-dup.o", "matches two types of" },
	};
	const char *ko = th_copy_fixture("reloc.o.ko", "reloc.ko");

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(c); i++) {
		const char *base = th_fixture(c[i].base);

		expect_refused((const char *[]){ "btf2btf", "-B", base, ko, NULL }, ko, ko, c[i].what);
		expect_refused((const char *[]){ "btf2btf", "--kfuncs", "-B", base, ko, NULL }, ko, ko,
			       c[i].what);
		expect_refused((const char *[]){ "btf2btf", "--distill-base", "-B", base, ko, NULL },
			       ko, ko, c[i].what);
	}
	th_cleanup();
}

/* ---- a layout section with impossible sizes (32-byte header) ---- */

/* A layout BTF (types, layout, strings) of reloc.o.ko.BTF.base, in either
 * byte order: *layout_off and *layout_len as written. */
static unsigned char *layout_btf(bool swapped, size_t *out_size)
{
	struct b2b_btf_format fmt = { .swapped = swapped, .hdr_len = B2B_BTF_HDR_LAYOUT_LEN,
				      .nr_layout = 1 };
	size_t size;
	void *native = th_read(th_fixture("reloc.o.ko.BTF.base"), &size), *out;

	fmt.layout = calloc(1, sizeof(*fmt.layout));
	assert_int_equal(b2b_btf_write(native, size, &fmt, &out, out_size), 0);
	b2b_btf_format_free(&fmt);
	free(native);
	return out;
}

struct layout_lie {
	const char *name;
	int field;		/* header word offset to set, 0: an entry's byte */
	long delta;		/* added to the word (field) or the byte at [layout + delta] */
	const char *what;
};

static const struct layout_lie layout_lies[] = {
	{ "overlaps-types", 24, -4, "BTF sections are not contiguous (types 0+" },
	{ "past-end", 28, 1 << 20, "BTF layout section" },
	{ "odd-length", 28, -2, "is not a 4-byte aligned array of 4-byte entries" },
	{ "misaligned", 24, 2, "is not a 4-byte aligned array of 4-byte entries" },
	{ "huge", 28, 0x7ffffff0, "exceeds the" },
	{ "int-info-size", 0, 4 * 1, "the BTF layout section says kind 1 has 8+0*vlen bytes after struct btf_type, not 4+0*vlen" },
	{ "struct-elem-size", 0, 4 * 4 + 1, "the BTF layout section says kind 4 has 0+16*vlen bytes" },
};

static void test_layout_lies(void **state)
{
	(void)state;
	for (int swapped = 0; swapped < 2; swapped++) {
		size_t size;
		unsigned char *good = layout_btf(swapped, &size);
		char path[4096];
		struct run r;

		/* the good one reads, in this byte order */
		snprintf(path, sizeof(path), "%s", th_path("layout.btf"));
		write_file(path, good, size);
		th_run(&r, (const char *[]){ "btf2btf", "--dump", path, NULL });
		assert_int_equal(r.status, 0);
		assert_non_null(strstr(r.out, "reloc_embed"));
		th_run_free(&r);
		for (size_t i = 0; i < ARRAY_SIZE(layout_lies); i++) {
			const struct layout_lie *l = &layout_lies[i];
			unsigned char *b = malloc(size);
			__u32 layout_off = get32(good + 24, swapped);

			memcpy(b, good, size);
			if (l->field)
				put32(b + l->field, get32(b + l->field, swapped) + (__u32)l->delta,
				      swapped);
			else
				b[32 + layout_off + l->delta] = l->delta % 4 ? 16 : 8;
			snprintf(path, sizeof(path), "%s%s.btf", th_path(l->name),
				 swapped ? "-be" : "");
			write_file(path, b, size);
			expect_refused((const char *[]){ "btf2btf", "--dump", path, NULL }, path, path,
				       l->what);
			expect_refused((const char *[]){ "btf2btf", path, NULL }, path, path, l->what);
			unlink(path);
			free(b);
		}
		free(good);
	}
	th_cleanup();
}

/* ---- truncated and corrupted compressed streams ---- */

static void test_compressed_damaged(void **state)
{
	static const char *const files[] = { "kfuncs.ko.xz", "kfuncs.ko.zst", "kfuncs.ko.gz" };
	static const char *const formats[] = { "xz data", "zstd data", "gzip data" };

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(files); i++) {
		size_t size;
		unsigned char *orig = th_read(th_fixture(files[i]), &size);
		const size_t cuts[] = { 6, 20, size / 2, size - 1 };
		char path[4096];

		for (size_t c = 0; c < ARRAY_SIZE(cuts); c++) {
			snprintf(path, sizeof(path), "%s", th_path(files[i]));
			write_file(path, orig, cuts[c]);
			expect_refused_both(path, path, formats[i]);
		}
		/* a byte flipped in the middle of the data, and in the
		 * trailer (the check over the decompressed bytes) */
		for (size_t at = size / 2; at < size; at = at == size / 2 ? size - 5 : size) {
			orig[at] ^= 0x55;
			write_file(path, orig, size);
			expect_refused_both(path, path, formats[i]);
			orig[at] ^= 0x55;
		}
		unlink(path);
		free(orig);
	}
	th_cleanup();
}

/* ---- a signature trailer whose lengths do not add up ---- */

#define MARKER "~Module signature appended~\n"

struct sig_lie {
	const char *name;
	long sig_len;		/* -1: the file's size plus 100; -2: into the ELF */
	int id_type;
	const char *what;
};

static const struct sig_lie sig_lies[] = {
	{ "past-start", -1, 2, "its module signature trailer says the signature is" },
	{ "whole-file", -3, 2, "but only" },
	{ "into-elf", -2, 2, "overlaps the ELF object, whose headers say it spans" },
	{ "not-pkcs7", 64, 1, "is not of a PKCS#7 signature as scripts/sign-file writes it (id_type 1" },
};

static void test_signature_lies(void **state)
{
	size_t size, marker = strlen(MARKER);
	unsigned char *orig = th_read(th_fixture("kfuncs-signed.ko"), &size);

	(void)state;
	assert_memory_equal(orig + size - marker, MARKER, marker);
	for (size_t i = 0; i < ARRAY_SIZE(sig_lies); i++) {
		const struct sig_lie *l = &sig_lies[i];
		unsigned char *b = malloc(size), *ms = b + size - marker - 12;
		__u32 sig_len = l->sig_len == -1 ? (__u32)size + 100 :
				l->sig_len == -3 ? (__u32)(size - marker - 12) :
				l->sig_len == -2 ? 64 + 1024 : (__u32)l->sig_len;
		char path[4096];

		memcpy(b, orig, size);
		ms[2] = (unsigned char)l->id_type;
		put32(ms + 8, sig_len, __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__);
		snprintf(path, sizeof(path), "%s", th_path(l->name));
		write_file(path, b, size);
		expect_refused_both(path, path, l->what);
		expect_refused((const char *[]){ "btf2btf", "-O", "elf", "-o", th_path("copy.ko"),
						 path, NULL }, path, path, l->what);
		assert_int_equal(access(th_path("copy.ko"), F_OK), -1);
		/* and compressed, as installed */
		{
			struct b2b_log log = { .path = "test" };
			void *xz;
			size_t xz_size;

			assert_int_equal(b2b_compress(B2B_COMPRESS_XZ, b, size, &xz, &xz_size, &log), 0);
			snprintf(path, sizeof(path), "%s.ko.xz", th_path(l->name));
			write_file(path, xz, xz_size);
			expect_refused_both(path, path, l->what);
			free(xz);
		}
		free(b);
	}
	free(orig);
	th_cleanup();
}

/* ---- --kfunc-history given a module or a non-kernel ---- */

static void test_history_refuses_non_kernels(void **state)
{
	const char *mod = th_copy_fixture("kfuncs.ko", "mod.ko");
	const char *tool = th_copy_fixture("basic.o", "tool.o");
	const char *kernel = th_fixture("basic.o");
	struct run r;

	(void)state;
	th_require_tool("objcopy");
	/* a module: its .modinfo says so */
	write_file(th_path("modinfo"), "vermagic=7.3.0 SMP mod_unload \0license=GPL\0", 44);
	th_sh(&r, "objcopy --add-section .modinfo=%s %s && objcopy --remove-section=.BTF_ids %s",
	      th_path("modinfo"), mod, tool);
	assert_int_equal(r.status, 0);
	th_run_free(&r);
	unlink(th_path("modinfo"));
	expect_refused((const char *[]){ "btf2btf", "--kfunc-history", kernel, mod, NULL }, mod, mod,
		       "is a kernel module, not a kernel");
	/* split BTF: a module's, on its distilled base */
	expect_refused((const char *[]){ "btf2btf", "--kfunc-history", th_fixture("reloc.o.ko"),
					 NULL }, th_fixture("reloc.o.ko"), "reloc.o.ko",
		       "is a kernel module, not a kernel");
	/* an ELF object no kernel build made: no .BTF_ids, no linux_banner */
	expect_refused((const char *[]){ "btf2btf", "--kfunc-history", kernel, tool, NULL },
		       tool, tool, "is not a kernel: an ELF object with neither .BTF_ids nor a linux_banner");
	/* the kernel alone is fine */
	th_run(&r, (const char *[]){ "btf2btf", "--kfunc-history", kernel, NULL });
	assert_int_equal(r.status, 0);
	th_run_free(&r);
	th_cleanup();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_distilled_base_lies),
		cmocka_unit_test(test_distilled_section_lies),
		cmocka_unit_test(test_base_does_not_match),
		cmocka_unit_test(test_layout_lies),
		cmocka_unit_test(test_compressed_damaged),
		cmocka_unit_test(test_signature_lies),
		cmocka_unit_test(test_history_refuses_non_kernels),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
