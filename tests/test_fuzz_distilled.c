// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* The fuzz target fuzz/fuzz_distilled.c replayed: its seeds and tests/corpus/distilled/. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

static const char *replay_current;
#define FUZZ_FAIL(why) fail_msg("%s: %s", replay_current, why)
#define FUZZ_NO_ENTRY
#include "../fuzz/fuzz_distilled.c"
#include "fuzz_replay.h"

static void test_seeds(void **state)
{
	(void)state;
	replay_seeds("distilled");
}

static void test_regressions(void **state)
{
	(void)state;
	replay_regressions("distilled");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_seeds),
		cmocka_unit_test(test_regressions),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
