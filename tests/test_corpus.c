// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Regression corpus: every file in tests/corpus/ (inputs the fuzzer once
 * crashed on, or that broke a property) goes through the fuzz target's
 * pipeline again: open_mem -> transform -> elf_image + raw_btf, and the
 * output read back. The file must give success or a clean, logged error;
 * under `make check SANITIZE=1` ASan/UBSan check the memory too.
 */
#include <stdlib.h>
#include <string.h>

#include "helpers.h"

static const char *current;
#define FUZZ_FAIL(why) fail_msg("%s: %s", current, why)
#include "../fuzz/fuzz_btf2btf.c"

static const char *corpus_dir(void)
{
	const char *d = getenv("CORPUS_DIR");

	return d ? d : "tests/corpus";
}

/* One file through the harness: as it is (with_modes NULL), or a fixture
 * with each mode byte prepended. */
static void replay_one(const char *path, uint8_t *data, size_t size, void *with_modes)
{
	uint8_t *in;

	current = path;
	if (!with_modes) {
		LLVMFuzzerTestOneInput(data, size);
		return;
	}
	in = malloc(size + 1);
	assert_non_null(in);
	memcpy(in + 1, data, size);
	for (int mode = 0; mode < 8; mode++) {
		in[0] = mode;
		LLVMFuzzerTestOneInput(in, size + 1);
	}
	free(in);
}

static int replay_dir(const char *dir, bool with_modes)
{
	return th_each_file(dir, replay_one, with_modes ? &with_modes : NULL);
}

static void test_replay_corpus(void **state)
{
	(void)state;
	assert_true(replay_dir(corpus_dir(), false) > 0);
}

/* the fixtures themselves, in every mode: the harness's properties hold on good input */
static void test_fixtures_through_harness(void **state)
{
	const char *dir = getenv("FIXTURE_DIR");

	(void)state;
	assert_non_null(dir);
	assert_true(replay_dir(dir, true) > 0);
}

/*
 * Deterministic sweeps over good objects: every truncation length, and
 * every byte inverted in turn, each through the harness (no crash, a
 * logged error or a result that reads back as a fixed point).
 */
static void sweep(const char *fixture, uint8_t mode)
{
	char path[4096];
	size_t size;
	uint8_t *data, *in;

	snprintf(path, sizeof(path), "%s/%s", getenv("FIXTURE_DIR"), fixture);
	data = th_read(path, &size);
	in = malloc(size + 1);
	assert_non_null(in);
	current = path;
	in[0] = mode;
	memcpy(in + 1, data, size);
	for (size_t len = 0; len < size; len++)
		LLVMFuzzerTestOneInput(in, len + 1);
	for (size_t i = 0; i < size; i++) {
		in[1 + i] ^= 0xff;
		LLVMFuzzerTestOneInput(in, size + 1);
		in[1 + i] ^= 0xff;
	}
	free(in);
	free(data);
}

static void test_sweep_basic(void **state)
{
	(void)state;
	sweep("basic.o", 0);
	sweep("basic-be.o", 2);
	sweep("basic-elf32.o", 0);
	sweep("split.o.ko", 1);	/* split, on the harness's base */
}

static void test_sweep_gcc(void **state)
{
	(void)state;
	sweep("kfuncs.gcc.o", 0);
	sweep("kfuncs.clang.o", 2);
}

static int setup(void **state)
{
	(void)state;
	return LLVMFuzzerInitialize(NULL, NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_replay_corpus),
		cmocka_unit_test(test_fixtures_through_harness),
		cmocka_unit_test(test_sweep_basic),
		cmocka_unit_test(test_sweep_gcc),
	};

	return cmocka_run_group_tests(tests, setup, NULL);
}
