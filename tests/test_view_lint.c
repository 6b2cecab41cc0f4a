// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * --check (lint): each rule with an object that triggers it and a near miss
 * that does not (the cases in views.c), the compiled fixtures' deliberate
 * problems, the lint-zoo in the documented order, a malformed object.
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

static void check_lint_output(const struct lcase *c, const char *obj, const char *when)
{
	const char *argv[] = { "btf2btf", "--check", obj, NULL };
	const char *jargv[] = { "btf2btf", "--check", "-j", obj, NULL };
	const char *wargv[] = { "btf2btf", "--check", "--werror", obj, NULL };
	char *lines[16], *prefix, *tsv, *want;
	/* errors (the transform refuses the object) fail --check; warnings
	 * only with --werror */
	bool error = c->rule && c->transform_fails == true;
	struct run r;
	size_t n;

	vt_run_cli(&r, c->rule != NULL, wargv);
	th_run_free(&r);
	vt_run_cli(&r, error, argv);
	/* problems are output, not errors: nothing on stderr, no dying */
	if (*r.err)
		fail_msg("%s (%s): stderr: %s", c->test, when, r.err);
	n = vt_split_lines(r.out, lines, 16);
	if (!c->rule) {
		if (n)
			fail_msg("%s (%s): should lint clean, got: %s", c->test, when, lines[0]);
	} else {
		prefix = vt_fmt("%s: %s: %s: ", obj, error ? "error" : "warning", c->rule);
		if (n != 1 || strncmp(lines[0], prefix, strlen(prefix)))
			fail_msg("%s (%s): wanted one '%s...' line, got %zu: %s", c->test, when,
				 prefix, n, n ? lines[0] : "");
		if (*c->name && !strstr(lines[0], c->name))
			fail_msg("%s (%s): the line does not name %s: %s", c->test, when, c->name,
				 lines[0]);
		free(prefix);
	}
	th_run_free(&r);

	vt_run_cli(&r, error, jargv);
	assert_string_equal(r.err, "");
	vt_assert_one_object(r.out);
	tsv = vt_jq(r.out, "[.file, .clean, (.problems|length), (.problems[0].rule // \"-\"), "
			"(.problems[0].name // \"-\"), (.problems[0].detail|type)] | @tsv");
	want = c->rule ? vt_fmt("%s\tfalse\t1\t%s\t%s\tstring\n", obj, c->rule, c->name)
		       : vt_fmt("%s\ttrue\t0\t-\t-\tnull\n", obj);
	assert_string_equal(tsv, want);
	free(tsv);
	free(want);
	th_run_free(&r);
}

static void test_lint_case(void **state)
{
	const struct lcase *c = *state;
	char *obj = vt_make_obj("lint.o", &c->o);
	const char *xargv[] = { "btf2btf", "-q", obj, NULL };
	struct run r;

	check_lint_output(c, obj, "as built");

	/* what the lint predicts about the transform */
	th_run(&r, xargv);
	if (c->transform_fails == true) {
		if (!r.status)
			fail_msg("%s: the transform should refuse this object", c->test);
		assert_non_null(strstr(r.err, "btf2btf: error: "));
	} else {
		if (r.status)
			fail_msg("%s: transform failed: %s", c->test, r.err);
		/* after the transform: the same verdict (a reduced kfunc with its
		 * _impl is not "no implicit argument") */
		if (c->transform_fails == FIXED) {
			struct lcase fixed = *c;

			fixed.rule = fixed.name = NULL;
			check_lint_output(&fixed, obj, "after the transform");
		} else {
			check_lint_output(c, obj, "after the transform");
		}
	}
	th_run_free(&r);
	free(obj);
	th_cleanup();
}

/*
 * Every rule a lint case triggers is a rule of the plan's table and has a
 * clean near miss, "lint_<rule>_clean". (test_plan's test_every_rule_reached
 * has --check report every rule of the table, these and the ones whose
 * input is no object of this file's kind.)
 */
static void test_lint_rules_covered(void **state)
{
	size_t nr = 0, triggered = 0;

	(void)state;
	while (b2b_plan_rule_name(nr))
		nr++;
	for (size_t r = 0; r < nr; r++) {
		const char *rule = b2b_plan_rule_name(r);
		bool hit = false, clean = false;
		char want[64];

		snprintf(want, sizeof(want), "lint_%s_clean", rule);
		for (size_t j = 0; want[j]; j++)
			if (want[j] == '-')
				want[j] = '_';
		for (size_t k = 0; k < nr_lint_cases; k++) {
			const struct lcase *c = &lint_cases[k];

			hit |= c->rule && !strcmp(c->rule, rule);
			clean |= !c->rule && !strcmp(c->test, want);
		}
		if (hit && !clean)
			fail_msg("rule %s lacks a clean near miss, %s", rule, want);
		triggered += hit;
	}
	/* and no case names a rule the table does not have */
	for (size_t k = 0; k < nr_lint_cases; k++) {
		size_t r = 0;

		while (lint_cases[k].rule && b2b_plan_rule_name(r) &&
		       strcmp(b2b_plan_rule_name(r), lint_cases[k].rule))
			r++;
		if (lint_cases[k].rule && r == nr)
			fail_msg("%s: rule %s is not in the plan's table", lint_cases[k].test,
				 lint_cases[k].rule);
	}
	assert_true(triggered > 0);
}

/* The compiled fixtures: their deliberate problems, and a clean object. */
static void test_lint_fixtures(void **state)
{
	const char *const objs[] = { "kfuncs.gcc.o", "kfuncs.clang.o", "basic.o",
				     "basic-resolved.o" };
	struct run r;

	(void)state;
	for (size_t i = 0; i < 4; i++) {
		const char *obj = th_fixture(objs[i]);

		/* warnings only: exit 0 */
		vt_run_cli(&r, 0, (const char *[]){ "btf2btf", "--check", obj, NULL });
		assert_int_equal(th_count_lines(r.out), 3);
		assert_non_null(strstr(r.out, ": set8-flags-ignored: set8 test_plain_set8 gives helper_in_plain_set8 flags KF_SLEEPABLE"));
		assert_non_null(strstr(r.out, ": implicit-no-arg: kfunc bpf_kfunc_implicit_typedef is flagged"));
		assert_non_null(strstr(r.out, ": implicit-not-last: kfunc bpf_kfunc_implicit_mid: the implicit argument is parameter 2 of 3"));
		th_run_free(&r);
	}
	/* a module against its base */
	vt_run_cli(&r, 0, (const char *[]){ "btf2btf", "--check", "--btf-base", th_fixture("split.o"),
					 th_fixture("split.o.ko"), NULL });
	assert_string_equal(r.out, "");
	th_run_free(&r);
	vt_run_cli(&r, 0, (const char *[]){ "btf2btf", "--check", th_fixture("split.o"), NULL });
	th_run_free(&r);
}

/* The lint-zoo fixture: each rule once, in the documented order. */
static void test_lint_zoo(void **state)
{
	/* entries first, then kfuncs by id */
	static const char *const order[] = { "set8-no-func", "set8-impl-missing", "set8-conflict",
					     "set8-flags-ignored", "implicit-no-arg",
					     "implicit-not-last", "impl-not-func", "impl-flagged",
					     "impl-proto-mismatch", "tag-not-in-set" };
	char *obj = vt_strdup(th_path("zoo.o")), *tsv, *want;
	struct run r;
	size_t n = sizeof(order) / sizeof(order[0]), len = 0;

	(void)state;
	assert_int_equal(fx_make_named("lint-zoo", obj), 0);
	vt_run_cli(&r, 1, (const char *[]){ "btf2btf", "--check", obj, NULL });
	assert_int_equal(th_count_lines(r.out), n);
	th_run_free(&r);
	vt_run_cli(&r, 1, (const char *[]){ "btf2btf", "--check", "-j", obj, NULL });
	tsv = vt_jq(r.out, ".problems[].rule");
	want = calloc(1, 512);
	assert_non_null(want);
	for (size_t i = 0; i < n; i++)
		len += snprintf(want + len, 512 - len, "%s\n", order[i]);
	assert_string_equal(tsv, want);
	free(want);
	free(tsv);
	th_run_free(&r);
	/* the transform refuses it, in one message */
	vt_run_cli(&r, 1, (const char *[]){ "btf2btf", "-q", obj, NULL });
	assert_int_equal(th_count_lines(r.err), 1);
	th_run_free(&r);
	free(obj);
	th_cleanup();
}

/* A malformed object is an error (exit 1, one message), not a lint line. */
static void test_lint_malformed(void **state)
{
	const char *bad = th_path("bad.o");
	struct run r;

	(void)state;
	assert_int_equal(fx_write_file(bad, "not an object", 13), 0);
	vt_run_cli(&r, 1, (const char *[]){ "btf2btf", "--check", bad, NULL });
	assert_string_equal(r.out, "");
	assert_int_equal(th_count_lines(r.err), 1);
	assert_non_null(strstr(r.err, "btf2btf: error: "));
	th_run_free(&r);
	th_cleanup();
}


int main(void)
{
	struct CMUnitTest tests[64] = {
		cmocka_unit_test(test_lint_rules_covered),
		cmocka_unit_test(test_lint_fixtures),
		cmocka_unit_test(test_lint_malformed),
		cmocka_unit_test(test_lint_zoo),
	};
	size_t n = 0;

	while (tests[n].test_func)	/* the ones above; the lint cases follow */
		n++;
	for (size_t i = 0; i < nr_lint_cases && n < 64; i++, n++) {
		tests[n].name = lint_cases[i].test;
		tests[n].test_func = test_lint_case;
		tests[n].initial_state = (void *)&lint_cases[i];
	}
	return _cmocka_run_group_tests("test_view_lint", tests, n, NULL, NULL);
}
