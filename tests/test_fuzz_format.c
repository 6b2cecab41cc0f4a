// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* The fuzz target fuzz/fuzz_format.c replayed: its seeds and tests/corpus/format/. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

static const char *replay_current;
#define FUZZ_FAIL(why) fail_msg("%s: %s", replay_current, why)
#define FUZZ_NO_ENTRY
#include "../fuzz/fuzz_format.c"
#include "fuzz_replay.h"

static void test_seeds(void **state)
{
	(void)state;
	replay_seeds("format");
}

/* One seed again with a 32-byte header and a layout section, in both
 * byte orders, as the library writes them; *n counts the forms. */
static void replay_layout_forms(const char *path, uint8_t *data, size_t size, void *n)
{
	size_t native_size, out_size;
	struct b2b_btf_format fmt;
	void *native, *out;

	if (b2b_btf_read(data, size, "seed", &log_, &native, &native_size, &fmt))
		return;
	for (int swapped = 0; swapped < 2; swapped++) {
		struct b2b_btf_format layout = {
			.swapped = swapped, .hdr_len = B2B_BTF_HDR_LAYOUT_LEN,
			.nr_layout = 1, .layout = calloc(1, sizeof(*layout.layout)),
		};

		assert_int_equal(b2b_btf_write(native, native_size, &layout, &out, &out_size), 0);
		replay_current = path;
		fuzz_one(out, out_size);
		free(out);
		b2b_btf_format_free(&layout);
		++*(int *)n;
	}
	if (native != (void *)data)
		free(native);
	b2b_btf_format_free(&fmt);
}

/* The layout surface's seeds: each format seed in the forms above. */
static void test_layout_forms(void **state)
{
	int n = 0;

	(void)state;
	th_each_file(make_seeds("format"), replay_layout_forms, &n);
	assert_true(n >= 6);
	th_cleanup();
}

static void test_regressions(void **state)
{
	(void)state;
	replay_regressions("format");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_seeds),
		cmocka_unit_test(test_layout_forms),
		cmocka_unit_test(test_regressions),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
