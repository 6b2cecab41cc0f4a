// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * libFuzzer target: arbitrary bytes through the whole pipeline.
 *
 *   input = 1 mode byte + an ELF image (or raw BTF)
 *   mode bit 0: open as split BTF on the base written at start-up
 *   mode bit 1: add_kfunc_tags
 *   mode bit 2: also write the image through a real file (btf2btf__open +
 *               write_elf: temp file, copy_file_range, rename), which
 *               must give the bytes elf_image gave
 *   mode bit 3: parse the result (btf2btf__btf), whose raw bytes must be
 *               the ones raw_btf gave before (unless a vlen above 65535
 *               makes libbpf's view impossible: EOPNOTSUPP)
 *
 * open_mem (ELF, .BTF, .BTF_ids, symtab) -> transform -> elf_image +
 * raw_btf. Properties checked beyond "no crash, no leak, no UB":
 *   - every failure logs at least one error message (the CLI's one line);
 *   - a successful run's ELF image opens again and a second transform
 *     changes nothing (idempotency: what we write, we read back).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "btf2btf.h"
#include "recipes.h"

/* the corpus replay test (tests/test_corpus.c) turns a violation into a test failure */
#ifndef FUZZ_FAIL
#define FUZZ_FAIL(why) (fprintf(stderr, "fuzz_btf2btf: %s\n", why), abort())
#endif

static char base_path[256], fuzz_dir[256], file_path[300];
static unsigned int errors;

static void log_cb(enum btf2btf_log_level level, const char *msg, void *ctx)
{
	(void)ctx;
	if (level == BTF2BTF_LOG_ERROR) {
		errors++;
		/* messages are bounded and name the "file" */
		if (strncmp(msg, "fuzz-", 5) && strncmp(msg, fuzz_dir, strlen(fuzz_dir)))
			FUZZ_FAIL("error message does not name the file");
	}
	if (getenv("FUZZ_VERBOSE"))
		fprintf(stderr, "log[%d]: %s\n", level, msg);
}

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void cleanup(void)
{
	char dir[256], *slash;

	snprintf(dir, sizeof(dir), "%s", base_path);
	slash = strrchr(dir, '/');
	if (!slash)
		return;
	unlink(base_path);
	unlink(file_path);
	*slash = 0;
	rmdir(dir);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	/* tmpfs when there is one: mode bit 2 fsyncs, which a disk makes slow */
	char shm[] = "/dev/shm/btf2btf-fuzz.XXXXXX", tmp[] = "/tmp/btf2btf-fuzz.XXXXXX";
	char *dir = mkdtemp(shm), mod[300];

	(void)argc;
	(void)argv;
	if (!dir)
		dir = mkdtemp(tmp);
	if (!dir)
		abort();
	snprintf(fuzz_dir, sizeof(fuzz_dir), "%s/", dir);
	snprintf(base_path, sizeof(base_path), "%s/base.o", dir);
	snprintf(file_path, sizeof(file_path), "%s/fuzz-file.o", dir);
	snprintf(mod, sizeof(mod), "%s/base.o.ko", dir);
	if (fx_make_split(base_path, mod))
		abort();
	unlink(mod);
	atexit(cleanup);
	return 0;
}

/* The file writer must produce what the memory writer did. */
static void through_file(const uint8_t *data, size_t size, const struct btf2btf_opts *opts,
			 const void *img, size_t img_size)
{
	struct btf2btf *b = NULL;
	size_t got = 0;
	char *buf;
	FILE *f = fopen(file_path, "wb");

	if (!f || fwrite(data, 1, size, f) != size || fclose(f))
		abort();
	static const char sig_marker[] = "~Module signature appended~\n";
	bool is_signed = size >= sizeof(sig_marker) - 1 &&
			 !memcmp(data + size - (sizeof(sig_marker) - 1), sig_marker, sizeof(sig_marker) - 1);
	/* xz, zstd, gzip magic: written back compressed (tests/test_packed.c compares) */
	bool compressed = (size >= 6 && !memcmp(data, "\xfd" "7zXZ", 6)) ||
			  (size >= 4 && !memcmp(data, "\x28\xb5\x2f\xfd", 4)) ||
			  (size >= 2 && !memcmp(data, "\x1f\x8b", 2));
	int err;

	errors = 0;
	if (btf2btf__open(file_path, opts, &b) || btf2btf__transform(b) || !btf2btf__changed(b))
		FUZZ_FAIL("the file path fails where the memory path succeeded");
	err = btf2btf__write_elf(b);
	btf2btf__close(b);
	/* a signed module is never rewritten in place (write.c check_unsigned()) */
	if (is_signed && err == -EPERM) {
		unlink(file_path);
		return;
	}
	if (err)
		FUZZ_FAIL("the file path fails where the memory path succeeded");
	if (compressed) {
		unlink(file_path);
		return;
	}
	buf = malloc(img_size + 1);
	f = fopen(file_path, "rb");
	if (!buf || !f)
		abort();
	got = fread(buf, 1, img_size + 1, f);
	fclose(f);
	if (got != img_size || memcmp(buf, img, img_size))
		FUZZ_FAIL("write_elf wrote other bytes than elf_image");
	free(buf);
	unlink(file_path);
}

/* The result is written from raw bytes and parsed only on demand: both views agree. */
static void parse_result(struct btf2btf *b, const void *raw, size_t raw_size)
{
	void *copy = malloc(raw_size ? raw_size : 1);
	const void *again;
	size_t again_size;

	if (!copy)
		abort();
	memcpy(copy, raw, raw_size);	/* raw may be freed by the parse */
	errno = 0;
	/* a vlen above 65535: the library holds it, libbpf's view cannot */
	if (!btf2btf__btf(b) && errno == EOPNOTSUPP) {
		free(copy);
		return;
	}
	if (!btf2btf__btf(b) || btf2btf__raw_btf(b, &again, &again_size) ||
	    again_size != raw_size || memcmp(copy, again, raw_size))
		FUZZ_FAIL("the parsed result's raw bytes differ from the written ones");
	free(copy);
}

static int run(const uint8_t *data, size_t size, unsigned int mode, const char *name)
{
	BTF2BTF_OPTS(opts, .base_path = (mode & 1) ? base_path : NULL,
		     .add_kfunc_tags = mode & 2, .log = log_cb);
	struct btf2btf *b = NULL, *b2 = NULL;
	const void *raw, *raw2;
	size_t raw_size, raw2_size, img_size = 0;
	void *img = NULL;
	int err;

	errors = 0;
	err = btf2btf__open_mem(data, size, name, &opts, &b);
	if (err) {
		if (errors == 0 || b)
			FUZZ_FAIL("open failed without an error message");
		return 0;
	}
	err = btf2btf__transform(b);
	if (!err)
		err = btf2btf__raw_btf(b, &raw, &raw_size);
	if (!err && size >= 4 && !memcmp(data, "\177ELF", 4))
		err = btf2btf__elf_image(b, &img, &img_size);
	if (err) {
		if (errors == 0)
			FUZZ_FAIL("transform/output failed without an error message");
		goto out;
	}
	if (img) {
		/* what we wrote must read back, transformed already */
		errors = 0;
		err = btf2btf__open_mem(img, img_size, "fuzz-output", &opts, &b2);
		if (err)
			FUZZ_FAIL("our own output does not open again");
		err = btf2btf__transform(b2);
		if (err || btf2btf__changed(b2))
			FUZZ_FAIL("a second transform of our output changes it");
		if (btf2btf__raw_btf(b2, &raw2, &raw2_size) || raw2_size != raw_size ||
		    memcmp(raw, raw2, raw_size))
			FUZZ_FAIL("our output's BTF does not read back identical");
	}
	if (img && (mode & 4) && btf2btf__changed(b))
		through_file(data, size, &opts, img, img_size);
	if (mode & 8)
		parse_result(b, raw, raw_size);
out:
	free(img);
	btf2btf__close(b2);
	btf2btf__close(b);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!size)
		return run(data, 0, 0, "fuzz-input");
	return run(data + 1, size - 1, data[0], "fuzz-input");
}
