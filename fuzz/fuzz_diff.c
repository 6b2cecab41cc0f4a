// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * libFuzzer target: --diff and --diff --kfuncs of two objects.
 *
 *   input = 4 bytes (little endian: the length of OLD) + OLD + NEW
 *
 * Properties beyond no crash, leak or UB:
 *   - exit status 0 (same), 1 (different) or 2 (trouble, with a message):
 *     2 exactly when one of them does not open, or is BTF libbpf cannot
 *     hold (a vlen past 65535: btf2btf__btf() fails, the diffs need it);
 *     --diff --kfuncs also when a side's kfuncs are unknown (no set8s, no
 *     bpf_kfunc decl tags), and then its message says so;
 *   - OLD against NEW and NEW against OLD agree on whether they differ;
 *   - the JSON output parses.
 */
#include <errno.h>

#include "btf2btf.h"
#include "cli.h"
#include "fuzz_common.h"

/* whether the last run's trouble was kfuncs that cannot be told */
static bool kfuncs_unknown;

static int run(int (*fn)(const char *, const char *), const char *a, const char *b, bool json)
{
	struct cli_opts *o = cli_opts();
	struct fuzz_capture c;
	int rc;

	memset(o, 0, sizeof(*o));
	o->fail_status = 2;
	o->json = json;
	capture_begin(&c);
	rc = fn(a, b);
	if (rc < 0 || rc > 2)
		FUZZ_FAIL("a diff's status is not 0, 1 or 2");
	if (rc == 2 && !o->errors)
		FUZZ_FAIL("a diff in trouble without a message");
	kfuncs_unknown = rc == 2 && strstr(o->first_error, "kfuncs unknown");
	capture_end(&c, json);
	return rc;
}

static bool opens(const char *path)
{
	BTF2BTF_OPTS(opts, .lenient = true);
	struct btf2btf *b = NULL;
	bool viewable = !btf2btf__open(path, &opts, &b) && btf2btf__btf(b);

	btf2btf__close(b);
	return viewable;
}

static int fuzz_one(const uint8_t *data, size_t size)
{
	const char *old = fuzz_path("old"), *new = fuzz_path("new");
	uint32_t old_size;
	bool both;

	if (size < 4)
		return 0;
	memcpy(&old_size, data, 4);
	old_size = le32toh(old_size);
	if (old_size > size - 4)
		old_size = (uint32_t)(size - 4);
	fuzz_write(old, data + 4, old_size);
	fuzz_write(new, data + 4 + old_size, size - 4 - old_size);
	both = opens(old) && opens(new);
	for (int json = 0; json < 2; json++) {
		int ab = run(cli_diff, old, new, json), ba = run(cli_diff, new, old, json);
		int kab = run(cli_diff_kfuncs, old, new, json);
		bool unknown = kfuncs_unknown;
		int kba = run(cli_diff_kfuncs, new, old, json);

		if ((ab == 2) == both || ((kab == 2) == both && !(both && unknown)))
			FUZZ_FAIL("a diff was in trouble exactly when it should not be");
		if (ab != ba || kab != kba)
			FUZZ_FAIL("OLD NEW and NEW OLD disagree on whether they differ");
	}
	unlink(old);
	unlink(new);
	return 0;
}

FUZZ_ENTRY()
