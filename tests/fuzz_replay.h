/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The replay of a surface fuzz target (fuzz/fuzz_NAME.c) as a cmocka test:
 * its seeds (fuzz/mkseeds-surfaces.sh, from the fixtures) and its
 * regression inputs (tests/corpus/NAME/, each a finding once) go through
 * the target's fuzz_one() again, a broken property failing the test.
 *
 *	static const char *replay_current;
 *	#define FUZZ_FAIL(why) fail_msg("%s: %s", replay_current, why)
 *	#define FUZZ_NO_ENTRY
 *	#include "../fuzz/fuzz_NAME.c"
 *	#include "fuzz_replay.h"
 *	... replay_seeds("NAME"), replay_regressions("NAME")
 */
#ifndef FUZZ_REPLAY_H
#define FUZZ_REPLAY_H

#include "helpers.h"

static void replay_one(const char *path, uint8_t *data, size_t size, void *ctx)
{
	(void)ctx;
	replay_current = path;
	fuzz_one(data, size);
}

/* Every regular file of dir through fuzz_one(); how many. */
static int replay_dir(const char *dir)
{
	return th_each_file(dir, replay_one, NULL);
}

/* The seeds of target name, made from the fixtures into the temp dir. */
static const char *make_seeds(const char *name)
{
	static char dir[4096];
	struct run r;

	th_sh(&r, "./fuzz/mkseeds-surfaces.sh %s %s %s >/dev/null", getenv("FIXTURE_DIR"),
	      getenv("MKFIXTURE"), th_tmpdir());
	if (r.status)
		fail_msg("mkseeds-surfaces.sh failed: %s", r.err);
	th_run_free(&r);
	snprintf(dir, sizeof(dir), "%s/seeds-%s", th_tmpdir(), name);
	return dir;
}

static void replay_seeds(const char *name)
{
	int n = replay_dir(make_seeds(name));

	assert_true(n >= 3);
	print_message("  %s: %d seeds replayed\n", name, n);
	th_cleanup();
}

static void replay_regressions(const char *name)
{
	char dir[256];
	int n;

	snprintf(dir, sizeof(dir), "tests/corpus/%s", name);
	n = replay_dir(dir);
	print_message("  %s: %d regression inputs replayed\n", name, n);
}

#endif /* FUZZ_REPLAY_H */
