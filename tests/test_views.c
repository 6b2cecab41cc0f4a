// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The views never guess: arguments that make no sense are refused, a wrong
 * base is named as the kernel would name it, unknown is said as such, and
 * the edges a new user meets first (issue 48).
 */
#include <bpf/btf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "helpers.h"

static void run_status(struct run *r, int want, const char *const *argv)
{
	th_run(r, argv);
	if (r->status != want)
		fail_msg("btf2btf %s %s: exit %d, wanted %d\nstdout: %s\nstderr: %s", argv[1],
			 argv[2] ? argv[2] : "", r->status, want, r->out, r->err);
}

/* -B X X, and a base given to complete BTF (a copy of it, another
 * vmlinux): bad usage, exit 2, naming both files, never an empty table. */
static void test_base_nonsense_refused(void **state)
{
	const char *base = th_fixture("basic.o");
	const char *copy = th_copy_fixture("basic.o", "copy.o");
	const char *mod = th_fixture("split.o.ko");
	const char *const modes[][2] = { { "--kfuncs", NULL }, { "--check", NULL },
					 { "--dump", NULL }, { "-n", NULL } };
	struct run r;

	(void)state;
	for (size_t m = 0; m < sizeof(modes) / sizeof(modes[0]); m++) {
		run_status(&r, 2, (const char *[]){ "btf2btf", modes[m][0], "-B", base, base, NULL });
		assert_string_equal(r.out, "");
		assert_int_equal(th_count_lines(r.err), 1);
		assert_non_null(strstr(r.err, "given as its own base"));
		th_run_free(&r);
		/* a copy: the same BTF, read as split on itself */
		run_status(&r, 2, (const char *[]){ "btf2btf", modes[m][0], "-B", base, copy, NULL });
		assert_string_equal(r.out, "");
		assert_non_null(strstr(r.err, copy));
		assert_non_null(strstr(r.err, base));
		assert_non_null(strstr(r.err, "complete BTF, not split BTF"));
		th_run_free(&r);
	}
	/* the -B vmlinux vmlinux *.ko slip: 2, the module still looked at */
	run_status(&r, 2, (const char *[]){ "btf2btf", "--check", "-B", th_fixture("split.o"),
					    th_fixture("split.o"), mod, NULL });
	assert_non_null(strstr(r.err, "given as its own base"));
	th_run_free(&r);
	run_status(&r, 2, (const char *[]){ "btf2btf", "--kfuncs", "-j", "-B", base, copy, NULL });
	assert_non_null(strstr(r.out, "{\"error\":"));
	assert_non_null(strstr(r.out, "complete BTF, not split BTF"));
	th_run_free(&r);
	/* the right base still works */
	run_status(&r, 0, (const char *[]){ "btf2btf", "--check", "-B", th_fixture("split.o"), mod,
					    NULL });
	th_run_free(&r);
	th_cleanup();
}

/* A module on the wrong base: "built for another kernel" with the base's
 * figures, before any type is read through it, no name quoted (it would
 * come from the wrong strings). */
static void test_wrong_base_named(void **state)
{
	const char *wrong = th_fixture("kfuncs.gcc.o");
	const char *mod = th_fixture("split.o.ko");
	struct btf *b = th_parse(wrong, NULL);
	const char *const modes[] = { "--check", "--kfuncs", "--dump", "-n" };
	const struct btf_header *hdr;
	char figures[128];
	uint32_t size;
	struct run r;

	(void)state;
	assert_non_null(b);
	hdr = btf__raw_data(b, &size);
	assert_non_null(hdr);
	snprintf(figures, sizeof(figures), "the base has %u bytes of strings and %u types",
		 hdr->str_len, btf__type_cnt(b));
	btf__free(b);
	for (size_t m = 0; m < sizeof(modes) / sizeof(modes[0]); m++) {
		run_status(&r, 1, (const char *[]){ "btf2btf", modes[m], "-B", wrong, mod, NULL });
		assert_int_equal(th_count_lines(r.err), 1);
		assert_non_null(strstr(r.err, "built for another kernel"));
		assert_non_null(strstr(r.err, figures));
		assert_null(strchr(r.err, '\''));
		assert_string_equal(r.out, "");
		th_run_free(&r);
	}
	th_cleanup();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_base_nonsense_refused),
		cmocka_unit_test(test_wrong_base_named),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
