// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The fuzz target fuzz/fuzz_views.c replayed: its seeds and
 * tests/corpus/views/. And what the fuzzer cannot check at its speed: the
 * C header --kfuncs --format=c makes of every seed it accepts compiles
 * with clang -target bpf beside bpftool's vmlinux.h of the same BTF.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

static const char *replay_current;
#define FUZZ_FAIL(why) fail_msg("%s: %s", replay_current, why)
#define FUZZ_NO_ENTRY
#include "../fuzz/fuzz_views.c"
#include "fuzz_replay.h"

static void test_seeds(void **state)
{
	(void)state;
	replay_seeds("views");
}

static void test_regressions(void **state)
{
	(void)state;
	replay_regressions("views");
}

/* One seed, when bpftool dumps it as complete BTF (not a module's split
 * BTF): vmlinux.h from bpftool, kfuncs.h from the CLI including it,
 * compiled; *compiled counts them. */
static void compile_c_header(const char *path, uint8_t *data, size_t size, void *compiled)
{
	struct run r;

	(void)data;
	(void)size;
	/* bpftool exits 0 on a failure: its output says (measured-facts) */
	th_sh(&r, "cd %s && bpftool btf dump file %s format c > vmlinux.h 2>/dev/null && "
	      "grep -q '#ifndef __VMLINUX_H__' vmlinux.h && "
	      "%s -q --kfuncs --format=c --vmlinux-h vmlinux.h %s > kfuncs.h",
	      th_tmpdir(), path, th_cli(), path);
	if (r.status) {
		th_run_free(&r);
		return;	/* not complete BTF, or not a view --format=c takes */
	}
	th_run_free(&r);
	/* the property is about our header: a vmlinux.h that does not
	 * compile alone (bpftool 7.5's of reloc.o.ko: a field of an enum
	 * it only forward-declares) says nothing of it */
	th_sh(&r, "cd %s && printf '#include \"vmlinux.h\"\\n' > v.c && "
	      "clang -target bpf -O2 -c v.c -o v.o", th_tmpdir());
	if (r.status) {
		print_message("  %s: bpftool's vmlinux.h does not compile alone: not judged\n",
			      strrchr(path, '/') + 1);
		th_run_free(&r);
		return;
	}
	th_run_free(&r);
	/* bpftool >= 7.5 (trixie, forky) declares the kfuncs of BTF
	 * with bpf_kfunc tags in vmlinux.h, with the prototypes of this
	 * untransformed object; a program with declarations of its own
	 * turns them off with bpftool's guard (test-kfunc-decl.sh) */
	th_sh(&r, "cd %s && { ! grep -q '__weak __ksym;$' vmlinux.h || "
	      "echo '#define BPF_NO_KFUNC_PROTOTYPES'; } > t.c && "
	      "printf '#include \"kfuncs.h\"\\n' >> t.c && "
	      "clang -target bpf -O2 -Wall -Werror -c t.c -o t.o", th_tmpdir());
	if (r.status)
		fail_msg("%s: its --kfuncs --format=c header does not compile beside bpftool's vmlinux.h:\n%s",
			 path, r.err);
	th_run_free(&r);
	++*(int *)compiled;
}

static void test_c_headers_compile(void **state)
{
	int compiled = 0;

	(void)state;
	th_require_tool("bpftool");
	th_require_tool("clang");
	th_each_file(make_seeds("views"), compile_c_header, &compiled);
	print_message("  %d headers compiled with clang -target bpf\n", compiled);
	assert_true(compiled >= 5);
	th_cleanup();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_seeds),
		cmocka_unit_test(test_regressions),
		cmocka_unit_test(test_c_headers_compile),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
