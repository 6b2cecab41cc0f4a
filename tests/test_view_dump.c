// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The JSON of --dump and of the summary: one document, stable keys.
 */
#include <bpf/btf.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builder.h"
#include "cproto.h"
#include "helpers.h"
#include "plan/plan.h"
#include "recipes.h"
#include "views.h"

static void test_json_dump_and_summary(void **state)
{
	const char *obj = th_copy_fixture("kfuncs.gcc.o", "s.o");
	static const char keys[] = "file,kfuncs,by_tag,by_set8,by_both,implicit,transformed,"
				   "legacy,impl_added,already_transformed,tags_added,warnings,"
				   "changed,written\n";
	struct btf *btf = th_parse(obj, NULL);
	struct run r;
	char *s, *want;

	(void)state;
	vt_run_cli(&r, 0, (const char *[]){ "btf2btf", "--dump", "-j", obj, NULL });
	vt_assert_one_object(r.out);
	s = vt_jq(r.out, "[(keys|join(\",\")), (.types|length), (.types[0]|keys_unsorted|join(\",\"))] | @tsv");
	want = vt_fmt("types\t%u\tid,kind,name,size,vlen,members\n", btf__type_cnt(btf) - 1);
	assert_string_equal(s, want);
	free(s);
	free(want);
	th_run_free(&r);
	vt_run_cli(&r, 0, (const char *[]){ "btf2btf", "-n", "-p", obj, NULL });
	vt_assert_one_object(r.out);
	s = vt_jq(r.out, "keys_unsorted|join(\",\")");
	assert_string_equal(s, keys);
	free(s);
	s = vt_jq(r.out, "[.kfuncs, .transformed, .impl_added, .changed, .written] | @tsv");
	assert_string_equal(s, "8\t5\t4\ttrue\tfalse\n");
	free(s);
	th_run_free(&r);
	/* the real run has the same keys; the second run too */
	for (int pass = 0; pass < 2; pass++) {
		vt_run_cli(&r, 0, (const char *[]){ "btf2btf", "-j", obj, NULL });
		vt_assert_one_object(r.out);
		s = vt_jq(r.out, "keys_unsorted|join(\",\")");
		assert_string_equal(s, keys);
		free(s);
		s = vt_jq(r.out, "[.changed, .written, .already_transformed] | @tsv");
		assert_string_equal(s, pass ? "false\tfalse\t5\n" : "true\ttrue\t0\n");
		free(s);
		th_run_free(&r);
	}
	btf__free(btf);
	th_cleanup();
}


int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_json_dump_and_summary),
	};

	return cmocka_run_group_tests_name("test_view_dump", tests, NULL, NULL);
}
