// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * libFuzzer target: the CLI's views of one object (its bytes written to a
 * file, as the CLI reads them): --kfuncs (text and JSON), --check (text
 * and JSON), --dump, --kfuncs --format=c, and --diff / --diff --kfuncs of
 * the object against itself. Properties beyond no crash, leak or UB:
 *   - every JSON output parses (fuzz_common.h's checker);
 *   - the views agree with --check about what they read: each of them
 *     reads the object exactly when --check does (the same open), and
 *     --check's exit status is 1 exactly when the library's problem list
 *     has an error; the one exception, said by the view, is BTF that
 *     libbpf cannot hold (a vlen past 65535: btf2btf__btf() fails with
 *     EOPNOTSUPP), which --check reads through the library alone;
 *   - an object compared with itself has no difference (exit 0), in
 *     either diff, text or JSON;
 *   - a view that fails says so on stderr, never only by its status.
 * The replay test (tests/test_fuzz_views.c) also compiles each accepted
 * input's --format=c header with clang -target bpf beside bpftool's
 * vmlinux.h of the same BTF.
 */
#include <errno.h>

#include "btf2btf.h"
#include "cli.h"
#include "fuzz_common.h"

/* The CLI's options as main() leaves them for one view, json or not. */
static void options(bool json, bool c_format)
{
	struct cli_opts *o = cli_opts();

	memset(o, 0, sizeof(*o));
	o->fail_status = 1;
	o->json = json;
	o->c_format = c_format;
}

/* Run a view; its exit status, and whether it said why when not 0. */
static int view(int (*fn)(const char *), const char *path, bool json, bool c_format)
{
	struct fuzz_capture c;
	int rc;

	options(json, c_format);
	capture_begin(&c);
	rc = fn(path);
	fflush(stdout);
	if (rc == 1 && !cli_opts()->errors && !(fn == cli_check && c.len))
		FUZZ_FAIL("a view failed without a message");
	capture_end(&c, json);
	return rc;
}

static int diff_view(int (*fn)(const char *, const char *), const char *path, bool json)
{
	struct fuzz_capture c;
	int rc;

	options(json, false);
	cli_opts()->fail_status = 2;
	capture_begin(&c);
	rc = fn(path, path);
	capture_end(&c, json);
	return rc;
}

static int fuzz_one(const uint8_t *data, size_t size)
{
	const char *path = fuzz_path("object");
	BTF2BTF_OPTS(opts, .lenient = true);
	struct btf2btf *b = NULL;
	bool opens, viewable, errors = false;
	int check_rc;

	fuzz_write(path, data, size);
	opens = !btf2btf__open(path, &opts, &b);
	for (size_t i = 0; opens && i < btf2btf__problem_cnt(b); i++)
		errors |= btf2btf__problem(b, i)->severity == BTF2BTF_SEV_ERROR;
	viewable = opens && (btf2btf__btf(b) || errno != EOPNOTSUPP);
	btf2btf__close(b);

	check_rc = view(cli_check, path, false, false);
	if (check_rc != (opens ? errors : 1))
		FUZZ_FAIL("--check's status disagrees with the library's open and problems");
	if (view(cli_check, path, true, false) != check_rc)
		FUZZ_FAIL("--check -j and --check disagree");
	if ((view(cli_kfuncs, path, false, false) == 0) != viewable ||
	    (view(cli_kfuncs, path, true, false) == 0) != viewable)
		FUZZ_FAIL("--kfuncs read the object where --check did not, or the other way");
	if (viewable) {
		/* not lenient: a set8 conflict is its error, nothing else is */
		view(cli_kfunc_decls, path, false, true);
		/* --diff --kfuncs: 2 when the kfuncs are unknown (no set8s, no
		 * decl tags), never 1 */
		if (diff_view(cli_diff, path, false) || diff_view(cli_diff, path, true) ||
		    diff_view(cli_diff_kfuncs, path, false) == 1 ||
		    diff_view(cli_diff_kfuncs, path, true) == 1)
			FUZZ_FAIL("an object differs from itself (--diff X X)");
	}
	unlink(path);
	return 0;
}

FUZZ_ENTRY()
