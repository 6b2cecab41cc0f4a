// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * --kfuncs, --diff and --check (issue 6): each view in text and in JSON
 * (parsed back with jq and checked field by field, and against the text),
 * each lint rule with a fixture that triggers it and a near miss that does
 * not, the C prototype printer (against libbpf's btf_dump), and the library
 * additions they use (lenient open, set8 entries, btf2btf__implicit_arg).
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
#include "plan.h"
#include "recipes.h"

#define KF_ACQUIRE	(1U << 0)
#define KF_RET_NULL	(1U << 2)
#define KF_SLEEPABLE	(1U << 5)
#define IMP		BTF2BTF_KF_IMPLICIT_ARGS
#define KFS		BTF2BTF_SET8_KFUNCS

/* ---- small helpers ---- */

static char *xstrdup(const char *s)
{
	char *d = strdup(s);

	assert_non_null(d);
	return d;
}

static char *xfmt(const char *f, ...) __attribute__((format(printf, 1, 2)));
static char *xfmt(const char *f, ...)
{
	va_list ap;
	char *s;

	va_start(ap, f);
	assert_true(vasprintf(&s, f, ap) >= 0);
	va_end(ap);
	return s;
}

static void run_cli(struct run *r, int want_status, const char *const *argv)
{
	th_run(r, argv);
	if (r->status != want_status)
		fail_msg("btf2btf %s %s: exit %d, wanted %d\nstdout: %s\nstderr: %s", argv[1],
			 argv[2] ? argv[2] : "", r->status, want_status, r->out, r->err);
}

/* jq FILTER over text (written to a temp file); returns jq's stdout. */
/* th_path() rotates through a few buffers: keep our own */
static const char *doc_path(void)
{
	static char path[4096];

	snprintf(path, sizeof(path), "%s/doc.json", th_tmpdir());
	return path;
}

static char *jq(const char *json, const char *filter)
{
	const char *path = doc_path();
	struct run r;
	char *out;

	th_require_tool("jq");
	assert_int_equal(fx_write_file(path, json, strlen(json)), 0);
	th_sh(&r, "jq -r '%s' %s", filter, path);
	if (r.status)
		fail_msg("jq '%s' failed (%d): %s\non: %s", filter, r.status, r.err, json);
	out = r.out;
	r.out = NULL;
	th_run_free(&r);
	return out;
}

/* Exactly one JSON document, an object. */
static void assert_one_object(const char *json)
{
	char *n = jq(json, "type");

	assert_string_equal(n, "object\n");
	free(n);
	{
		const char *path = doc_path();
		struct run r;

		th_sh(&r, "jq -s length %s", path);
		assert_int_equal(r.status, 0);
		assert_string_equal(r.out, "1\n");
		th_run_free(&r);
	}
}

/* Split s into lines (in place); returns the count. */
static size_t split_lines(char *s, char **lines, size_t max)
{
	size_t n = 0;

	for (char *save = NULL, *l = strtok_r(s, "\n", &save); l && n < max;
	     l = strtok_r(NULL, "\n", &save))
		lines[n++] = l;
	return n;
}

/* Split a line on tabs (in place). */
static size_t split_tabs(char *s, char **f, size_t max)
{
	size_t n = 0;

	while (n < max) {
		char *t = strchr(s, '\t');

		f[n++] = s;
		if (!t)
			break;
		*t = 0;
		s = t + 1;
	}
	return n;
}

/* ---- fixtures for the lint rules and the views ---- */

enum { T_VOID = 0, T_INT = 1, T_LONG, T_VOIDP, T_AUX, T_AUX_TD, T_CONST_AUX,
       T_META };	/* struct btf_struct_meta *: added to an object that uses it */

struct tfn {
	const char *name;
	int ret;
	int p[4];
	int nr;
	bool tag;		/* "bpf_kfunc" decl tag */
	int named;		/* 1 + the index of the parameter called pname */
	const char *pname;	/* (the others are a<index>) */
};

struct tset {
	const char *name;
	uint32_t flags;
	struct fx_entry e[4];
	size_t nr;
};

struct tobj {
	struct tfn f[6];
	struct tset s[3];
	const char *struct_name;	/* a STRUCT of that name */
	bool resolved;
};

static int map_type(const struct fx_btf *b, int t, int meta_ptr)
{
	switch (t) {
	case T_META: return meta_ptr;
	case T_INT: return b->t_int;
	case T_LONG: return b->t_long;
	case T_VOIDP: return b->t_voidp;
	case T_AUX: return b->t_aux_ptr;
	case T_AUX_TD: return b->t_aux_typedef_ptr;
	case T_CONST_AUX: return b->t_const_aux_ptr;
	default: return 0;
	}
}

/* Write o as an object in the temp dir; returns its path (malloc'd). */
static char *make_obj(const char *file, const struct tobj *o)
{
	struct fx_set8 sets[3];
	struct fx_obj obj = { .resolved = o->resolved };
	struct fx_btf b;
	size_t size, nr_sets = 0;
	char *path = xstrdup(th_path(file));
	void *raw;
	int meta_ptr = 0;

	assert_int_equal(fx_btf_init(&b, NULL), 0);
	for (int i = 0; i < 6 && o->f[i].name; i++)
		for (int k = 0; k < o->f[i].nr && !meta_ptr; k++)
			if (o->f[i].p[k] == T_META)
				meta_ptr = btf__add_ptr(b.btf, btf__add_struct(b.btf, "btf_struct_meta", 8));
	for (int i = 0; i < 6 && o->f[i].name; i++) {
		const struct tfn *f = &o->f[i];
		int id, proto = btf__add_func_proto(b.btf, map_type(&b, f->ret, meta_ptr));

		for (int k = 0; k < f->nr; k++) {
			char pname[16];

			snprintf(pname, sizeof(pname), "a%d", k);
			assert_int_equal(btf__add_func_param(b.btf, k + 1 == f->named ? f->pname : pname,
							     map_type(&b, f->p[k], meta_ptr)), 0);
		}
		id = fx_add_func_proto_id(&b, f->name, proto);
		assert_true(id > 0);
		if (o->f[i].tag)
			assert_true(btf__add_decl_tag(b.btf, "bpf_kfunc", id, -1) > 0);
	}
	if (o->struct_name)
		assert_true(btf__add_struct(b.btf, o->struct_name, 4) > 0);
	for (int s = 0; s < 3 && o->s[s].name; s++) {
		sets[nr_sets] = (struct fx_set8){ o->s[s].name, o->s[s].flags, o->s[s].e, o->s[s].nr };
		nr_sets++;
	}
	raw = fx_btf_raw(b.btf, &size);
	assert_non_null(raw);
	btf__free(b.btf);
	obj.btf = raw;
	obj.btf_size = size;
	obj.sets = sets;
	obj.nr_sets = nr_sets;
	assert_int_equal(fx_write_elf(path, &obj), 0);
	free(raw);
	return path;
}

/* ---- lint rules: a case that triggers each, a near miss that does not ---- */

#define FIXED 2

struct lcase {
	const char *test;	/* cmocka test name */
	const char *rule;	/* NULL: must lint clean */
	const char *name;	/* function the problem names */
	int transform_fails;	/* true: the transform refuses the object; FIXED: it
				 * does it and the object then lints clean */
	struct tobj o;
};

#define F(n, r, ...) { n, r, { __VA_ARGS__ }, sizeof((int[]){ __VA_ARGS__ }) / sizeof(int), false }
#define FT(n, r, ...) { n, r, { __VA_ARGS__ }, sizeof((int[]){ __VA_ARGS__ }) / sizeof(int), true }
#define E(n, fl) { n, fl }
#define S(n, fl, ...) { n, fl, { __VA_ARGS__ }, sizeof((struct fx_entry[]){ __VA_ARGS__ }) / sizeof(struct fx_entry) }

static const struct lcase lint_cases[] = {
	/* set8-no-func */
	{ "lint_set8_no_func", "set8-no-func", "bpf_gone", false, {
		.f = { F("bpf_a", T_INT, T_INT) },
		.s = { S("kf", KFS, E("bpf_a", 0), E("bpf_gone", KF_ACQUIRE)) } } },
	{ "lint_set8_no_func_resolved", "set8-no-func", "", false, {
		.f = { F("bpf_a", T_INT, T_INT) },
		.s = { S("kf", KFS, E("bpf_a", 0), E("bpf_gone", 0)) }, .resolved = true } },
	{ "lint_set8_no_func_other_kind", "set8-no-func", "bpf_gone", false, {
		.f = { F("bpf_a", T_INT, T_INT) }, .struct_name = "bpf_gone",
		.s = { S("kf", KFS, E("bpf_a", 0), E("bpf_gone", 0)) } } },
	{ "lint_set8_no_func_clean", NULL, NULL, false, {
		.f = { F("bpf_a", T_INT, T_INT), F("bpf_b", T_INT, T_LONG) },
		.s = { S("kf", KFS, E("bpf_a", 0), E("bpf_b", 0)) }, .resolved = true } },
	/* set8-flags-ignored */
	{ "lint_set8_flags_ignored", "set8-flags-ignored", "bpf_h", false, {
		.f = { F("bpf_h", T_INT, T_AUX), F("bpf_a", T_INT, T_INT) },
		.s = { S("kf", KFS, E("bpf_a", KF_SLEEPABLE)), S("plain", 0, E("bpf_h", KF_SLEEPABLE)) } } },
	{ "lint_set8_flags_ignored_clean", NULL, NULL, false, {
		.f = { F("bpf_h", T_INT, T_AUX), F("bpf_a", T_INT, T_INT) },
		.s = { S("kf", KFS, E("bpf_a", KF_SLEEPABLE)), S("plain", 0, E("bpf_h", 0)) } } },
	/* set8-conflict: open() itself refuses this one without lenient */
	{ "lint_set8_conflict", "set8-conflict", "bpf_c", true, {
		.f = { F("bpf_c", T_INT, T_INT, T_AUX) },
		.s = { S("a", KFS, E("bpf_c", IMP)), S("b", KFS, E("bpf_c", KF_SLEEPABLE)) } } },
	/* as upstream: any bit, not only KF_IMPLICIT_ARGS */
	{ "lint_set8_conflict_other_bit", "set8-conflict", "bpf_c", true, {
		.f = { F("bpf_c", T_INT, T_INT, T_AUX) },
		.s = { S("a", KFS, E("bpf_c", IMP)), S("b", KFS, E("bpf_c", IMP | KF_SLEEPABLE)) } } },
	{ "lint_set8_conflict_clean", NULL, NULL, false, {
		.f = { F("bpf_c", T_INT, T_INT, T_AUX) },
		.s = { S("a", KFS, E("bpf_c", IMP | KF_SLEEPABLE)),
		       S("b", KFS, E("bpf_c", IMP | KF_SLEEPABLE)) } } },
	/* tag-not-in-set */
	{ "lint_tag_not_in_set", "tag-not-in-set", "bpf_t", false, {
		.f = { FT("bpf_t", T_INT, T_INT), F("bpf_a", T_INT, T_INT) },
		.s = { S("kf", KFS, E("bpf_a", 0)) } } },
	{ "lint_tag_only_in_plain_set8", "tag-not-in-set", "bpf_t", false, {
		.f = { FT("bpf_t", T_INT, T_INT), F("bpf_a", T_INT, T_INT) },
		.s = { S("kf", KFS, E("bpf_a", 0)), S("plain", 0, E("bpf_t", 0)) } } },
	{ "lint_tag_not_in_set_clean", NULL, NULL, false, {
		.f = { FT("bpf_t", T_INT, T_INT), F("bpf_a", T_INT, T_INT) },
		.s = { S("kf", KFS, E("bpf_a", 0), E("bpf_t", KF_RET_NULL)) } } },
	/* implicit-no-arg */
	{ "lint_implicit_no_arg", "implicit-no-arg", "bpf_n", false, {
		.f = { F("bpf_n", T_INT, T_INT, T_LONG) },
		.s = { S("kf", KFS, E("bpf_n", IMP)) } } },
	/* as upstream: a typedef of the struct does not count */
	{ "lint_implicit_no_arg_typedef", "implicit-no-arg", "bpf_n", false, {
		.f = { F("bpf_n", T_INT, T_INT, T_AUX_TD) },
		.s = { S("kf", KFS, E("bpf_n", IMP)) } } },
	{ "lint_implicit_no_arg_clean", NULL, NULL, false, {
		.f = { F("bpf_n", T_INT, T_INT, T_CONST_AUX) },
		.s = { S("kf", KFS, E("bpf_n", IMP)) } } },
	/* implicit-not-last */
	{ "lint_implicit_not_last", "implicit-not-last", "bpf_m", false, {
		.f = { F("bpf_m", T_INT, T_INT, T_CONST_AUX, T_LONG) },
		.s = { S("kf", KFS, E("bpf_m", IMP)) } } },
	{ "lint_implicit_not_last_clean", NULL, NULL, false, {
		.f = { F("bpf_m", T_INT, T_INT, T_LONG, T_CONST_AUX) },
		.s = { S("kf", KFS, E("bpf_m", IMP)) } } },
	/* the verifier supplies a collection insert's node offset after meta
	 * (7.3's bpf_list_push_front(head, node, meta, off)): by design */
	{ "lint_implicit_meta_then_offset", NULL, NULL, false, {
		.f = { F("bpf_lp", T_INT, T_VOIDP, T_VOIDP, T_META, T_LONG) },
		.s = { S("kf", KFS, E("bpf_lp", IMP)) } } },
	/* and beside 7.3's legacy _impl, whose meta is a void *meta__ign */
	{ "lint_implicit_meta_then_offset_legacy", NULL, NULL, false, {
		.f = { F("bpf_lp", T_INT, T_VOIDP, T_META, T_LONG),
		       { "bpf_lp_impl", T_INT, { T_VOIDP, T_VOIDP, T_LONG }, 3, false, 2, "meta__ign" } },
		.s = { S("kf", KFS, E("bpf_lp", IMP), E("bpf_lp_impl", 0)) } } },
	/* more than the offset, or a pointer where it should be: not supplied */
	{ "lint_implicit_meta_then_two", "implicit-not-last", "bpf_lp", false, {
		.f = { F("bpf_lp", T_INT, T_VOIDP, T_META, T_LONG, T_LONG) },
		.s = { S("kf", KFS, E("bpf_lp", IMP)) } } },
	{ "lint_implicit_meta_then_pointer", "implicit-not-last", "bpf_lp", false, {
		.f = { F("bpf_lp", T_INT, T_VOIDP, T_META, T_VOIDP) },
		.s = { S("kf", KFS, E("bpf_lp", IMP)) } } },
	/* impl-not-func */
	{ "lint_impl_not_func", "impl-not-func", "bpf_s", FIXED, {
		.f = { F("bpf_s", T_INT, T_INT, T_AUX) }, .struct_name = "bpf_s_impl",
		.s = { S("kf", KFS, E("bpf_s", IMP)) } } },
	{ "lint_impl_not_func_clean", NULL, NULL, false, {
		.f = { F("bpf_s", T_INT, T_INT, T_AUX), F("bpf_s_impl", T_INT, T_INT, T_AUX) },
		.s = { S("kf", KFS, E("bpf_s", IMP), E("bpf_s_impl", 0)) } } },
	/* set8-impl-missing: the _impl we would add is listed but not in the BTF */
	{ "lint_set8_impl_missing", "set8-impl-missing", "bpf_i_impl", true, {
		.f = { F("bpf_i", T_INT, T_INT, T_AUX) },
		.s = { S("kf", KFS, E("bpf_i", IMP), E("bpf_i_impl", 0)) } } },
	{ "lint_set8_impl_missing_clean", NULL, NULL, false, {
		.f = { F("bpf_i", T_INT, T_INT, T_AUX), F("bpf_i_impl", T_INT, T_INT, T_AUX) },
		.s = { S("kf", KFS, E("bpf_i", IMP), E("bpf_i_impl", 0)) } } },
	/* impl-flagged */
	{ "lint_impl_flagged", "impl-flagged", "bpf_d", true, {
		.f = { F("bpf_d", T_INT, T_INT, T_AUX), F("bpf_d_impl", T_INT, T_INT, T_AUX) },
		.s = { S("kf", KFS, E("bpf_d", IMP), E("bpf_d_impl", IMP)) } } },
	{ "lint_impl_flagged_clean", NULL, NULL, false, {
		.f = { F("bpf_d", T_INT, T_INT, T_AUX), F("bpf_d_impl", T_INT, T_INT, T_AUX) },
		.s = { S("kf", KFS, E("bpf_d", IMP), E("bpf_d_impl", KF_SLEEPABLE)) } } },
	/* impl-proto-mismatch */
	{ "lint_impl_proto_mismatch", "impl-proto-mismatch", "bpf_p", false, {
		.f = { F("bpf_p", T_INT, T_INT, T_AUX), F("bpf_p_impl", T_INT, T_LONG, T_AUX) },
		.s = { S("kf", KFS, E("bpf_p", IMP), E("bpf_p_impl", 0)) } } },
	{ "lint_impl_proto_mismatch_clean", NULL, NULL, false, {
		.f = { F("bpf_p", T_VOIDP, T_INT, T_LONG, T_AUX),
		       F("bpf_p_impl", T_VOIDP, T_INT, T_LONG, T_AUX) },
		.s = { S("kf", KFS, E("bpf_p", IMP)) } } },
};

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

	run_cli(&r, c->rule != NULL, wargv);
	th_run_free(&r);
	run_cli(&r, error, argv);
	/* problems are output, not errors: nothing on stderr, no dying */
	if (*r.err)
		fail_msg("%s (%s): stderr: %s", c->test, when, r.err);
	n = split_lines(r.out, lines, 16);
	if (!c->rule) {
		if (n)
			fail_msg("%s (%s): should lint clean, got: %s", c->test, when, lines[0]);
	} else {
		prefix = xfmt("%s: %s: %s: ", obj, error ? "error" : "warning", c->rule);
		if (n != 1 || strncmp(lines[0], prefix, strlen(prefix)))
			fail_msg("%s (%s): wanted one '%s...' line, got %zu: %s", c->test, when,
				 prefix, n, n ? lines[0] : "");
		if (*c->name && !strstr(lines[0], c->name))
			fail_msg("%s (%s): the line does not name %s: %s", c->test, when, c->name,
				 lines[0]);
		free(prefix);
	}
	th_run_free(&r);

	run_cli(&r, error, jargv);
	assert_string_equal(r.err, "");
	assert_one_object(r.out);
	tsv = jq(r.out, "[.file, .clean, (.problems|length), (.problems[0].rule // \"-\"), "
			"(.problems[0].name // \"-\"), (.problems[0].detail|type)] | @tsv");
	want = c->rule ? xfmt("%s\tfalse\t1\t%s\t%s\tstring\n", obj, c->rule, c->name)
		       : xfmt("%s\ttrue\t0\t-\t-\tnull\n", obj);
	assert_string_equal(tsv, want);
	free(tsv);
	free(want);
	th_run_free(&r);
}

static void test_lint_case(void **state)
{
	const struct lcase *c = *state;
	char *obj = make_obj("lint.o", &c->o);
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
		for (size_t k = 0; k < sizeof(lint_cases) / sizeof(lint_cases[0]); k++) {
			const struct lcase *c = &lint_cases[k];

			hit |= c->rule && !strcmp(c->rule, rule);
			clean |= !c->rule && !strcmp(c->test, want);
		}
		if (hit && !clean)
			fail_msg("rule %s lacks a clean near miss, %s", rule, want);
		triggered += hit;
	}
	/* and no case names a rule the table does not have */
	for (size_t k = 0; k < sizeof(lint_cases) / sizeof(lint_cases[0]); k++) {
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
		run_cli(&r, 0, (const char *[]){ "btf2btf", "--check", obj, NULL });
		assert_int_equal(th_count_lines(r.out), 3);
		assert_non_null(strstr(r.out, ": set8-flags-ignored: set8 test_plain_set8 gives helper_in_plain_set8 flags KF_SLEEPABLE"));
		assert_non_null(strstr(r.out, ": implicit-no-arg: kfunc bpf_kfunc_implicit_typedef is flagged"));
		assert_non_null(strstr(r.out, ": implicit-not-last: kfunc bpf_kfunc_implicit_mid: the implicit argument is parameter 2 of 3"));
		th_run_free(&r);
	}
	/* a module against its base */
	run_cli(&r, 0, (const char *[]){ "btf2btf", "--check", "--btf-base", th_fixture("split.o"),
					 th_fixture("split.o.ko"), NULL });
	assert_string_equal(r.out, "");
	th_run_free(&r);
	run_cli(&r, 0, (const char *[]){ "btf2btf", "--check", th_fixture("split.o"), NULL });
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
	char *obj = xstrdup(th_path("zoo.o")), *tsv, *want;
	struct run r;
	size_t n = sizeof(order) / sizeof(order[0]), len = 0;

	(void)state;
	assert_int_equal(fx_make_named("lint-zoo", obj), 0);
	run_cli(&r, 1, (const char *[]){ "btf2btf", "--check", obj, NULL });
	assert_int_equal(th_count_lines(r.out), n);
	th_run_free(&r);
	run_cli(&r, 1, (const char *[]){ "btf2btf", "--check", "-j", obj, NULL });
	tsv = jq(r.out, ".problems[].rule");
	want = calloc(1, 512);
	assert_non_null(want);
	for (size_t i = 0; i < n; i++)
		len += snprintf(want + len, 512 - len, "%s\n", order[i]);
	assert_string_equal(tsv, want);
	free(want);
	free(tsv);
	th_run_free(&r);
	/* the transform refuses it, in one message */
	run_cli(&r, 1, (const char *[]){ "btf2btf", "-q", obj, NULL });
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
	run_cli(&r, 1, (const char *[]){ "btf2btf", "--check", bad, NULL });
	assert_string_equal(r.out, "");
	assert_int_equal(th_count_lines(r.err), 1);
	assert_non_null(strstr(r.err, "btf2btf: error: "));
	th_run_free(&r);
	th_cleanup();
}

/* ---- library additions ---- */

static void test_lib_lenient_and_entries(void **state)
{
	const struct lcase *c = &lint_cases[6];	/* set8-conflict */
	char *obj = make_obj("conflict.o", &c->o);
	BTF2BTF_OPTS(o, .log = th_log_cb);
	const struct btf2btf_set8_entry *e;
	struct btf2btf *b = NULL;

	(void)state;
	assert_string_equal(c->rule, "set8-conflict");
	th_log_reset();
	assert_int_equal(btf2btf__open(obj, &o, &b), -EINVAL);
	assert_null(b);
	assert_non_null(strstr(th_log_errors, "KF_IMPLICIT_ARGS in set8 a but not in set8 b"));
	o.lenient = true;
	th_log_reset();
	assert_int_equal(btf2btf__open(obj, &o, &b), 0);
	assert_int_equal(th_log_error_count, 0);
	assert_int_equal(btf2btf__kfunc_cnt(b), 1);
	assert_int_equal(btf2btf__kfunc(b, 0)->flags, IMP | KF_SLEEPABLE);
	assert_int_equal(btf2btf__set8_entry_cnt(b), 2);
	e = btf2btf__set8_entry(b, 0);
	assert_non_null(e);
	assert_string_equal(e->set, "a");
	assert_int_equal(e->set_flags, KFS);
	assert_string_equal(e->name, "bpf_c");
	assert_int_equal(e->id, btf2btf__kfunc(b, 0)->btf_id);
	assert_int_equal(e->flags, IMP);
	assert_ptr_equal(btf2btf__set8_entry(b, 0), e);	/* stable pointer */
	e = btf2btf__set8_entry(b, 1);
	assert_non_null(e);
	assert_string_equal(e->set, "b");
	assert_int_equal(e->flags, KF_SLEEPABLE);
	errno = 0;
	assert_null(btf2btf__set8_entry(b, 2));
	assert_int_equal(errno, EINVAL);
	/* a lenient handle with a conflict is not transformed */
	th_log_reset();
	assert_int_equal(btf2btf__transform(b), -EINVAL);
	assert_int_equal(th_log_error_count, 1);
	btf2btf__close(b);
	free(obj);
	th_cleanup();
}

/* Names found in the BTF are that BTF's strings, moved to the result's when
 * the transformed BTF replaces it (btf2btf__btf()); a name not found is a
 * copy. Both stay valid until close, read through the entries (the
 * sanitizer build would see a read of freed memory). */
static void test_lib_names_follow_the_result(void **state)
{
	const struct lcase *c = &lint_cases[0];	/* set8-no-func: bpf_a, bpf_gone */
	char *obj = make_obj("names.o", &c->o);
	BTF2BTF_OPTS(o, .features = BTF2BTF_FEATS_ALL);
	const struct btf2btf_set8_entry *a, *gone;
	const struct btf2btf_kfunc *k;
	struct btf2btf *b = th_open(obj, &o);
	const struct btf *btf;

	(void)state;
	assert_string_equal(c->rule, "set8-no-func");
	assert_int_equal(btf2btf__set8_entry_cnt(b), 2);
	a = btf2btf__set8_entry(b, 0);
	gone = btf2btf__set8_entry(b, 1);
	k = btf2btf__kfunc(b, 0);
	assert_non_null(a);
	assert_non_null(gone);
	assert_non_null(k);
	assert_string_equal(a->name, "bpf_a");
	assert_string_equal(gone->name, "bpf_gone");
	assert_int_equal(gone->id, 0);
	assert_ptr_equal(k->name, a->name);	/* one string, not a copy each */
	assert_int_equal(btf2btf__transform(b), 0);
	assert_true(btf2btf__changed(b));
	btf = btf2btf__btf(b);	/* the result parsed: the BTF read is replaced */
	assert_non_null(btf);
	assert_string_equal(a->name, "bpf_a");
	assert_string_equal(gone->name, "bpf_gone");
	assert_string_equal(btf2btf__kfunc(b, 0)->name, "bpf_a");
	assert_string_equal(btf2btf__set8_entry(b, 0)->name, "bpf_a");
	assert_string_equal(btf__name_by_offset(btf, btf__type_by_id(btf, a->id)->name_off), "bpf_a");
	btf2btf__close(b);
	free(obj);
	th_cleanup();
}

static void test_lib_entries_resolved(void **state)
{
	struct btf2btf *b = th_open(th_fixture("basic-resolved.o"), NULL);
	struct btf2btf *u = th_open(th_fixture("basic.o"), NULL);
	const struct btf *btf = btf2btf__btf(b);
	size_t n = btf2btf__set8_entry_cnt(b);

	(void)state;
	assert_int_equal(n, 8);
	assert_int_equal(btf2btf__set8_entry_cnt(u), 8);
	for (size_t i = 0; i < n; i++) {
		const struct btf2btf_set8_entry *e = btf2btf__set8_entry(b, i), *f;
		const struct btf_type *t;

		assert_non_null(e);
		assert_null(e->name);		/* read by id */
		t = btf__type_by_id(btf, e->id);
		assert_non_null(t);
		assert_true(btf_is_func(t));
		/* the same pairs as the unresolved object, in id order per set */
		for (size_t k = 0; k < n; k++) {
			f = btf2btf__set8_entry(u, k);
			assert_non_null(f);
			if (!strcmp(f->name, btf__name_by_offset(btf, t->name_off))) {
				assert_string_equal(f->set, e->set);
				assert_int_equal(f->set_flags, e->set_flags);
				assert_int_equal(f->flags, e->flags);
				assert_int_equal(f->id, e->id);
			}
		}
	}
	btf2btf__close(b);
	btf2btf__close(u);
}

/* Deprecated since 0.3.0 (the kfunc table's implicit_arg says it), still
 * exported: it keeps working until a SONAME bump removes it. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
static void test_lib_implicit_arg(void **state)
{
	struct btf2btf *b = th_open(th_fixture("kfuncs.gcc.o"), NULL);
	const struct btf *btf = btf2btf__btf(b);
	static const struct { const char *func; int idx; } want[] = {
		{ "bpf_kfunc_implicit_arg", 1 }, { "bpf_kfunc_implicit_mid", 1 },
		{ "bpf_kfunc_implicit_typedef", -ENOENT }, { "bpf_wq_set_callback", 3 },
		{ "bpf_kfunc_noflags", -ENOENT }, { "helper_with_aux", 0 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		int id = th_find(btf, want[i].func, BTF_KIND_FUNC);

		assert_int_equal(btf2btf__implicit_arg(btf, btf__type_by_id(btf, id)->type),
				 want[i].idx);
	}
	/* a FUNC, not its FUNC_PROTO; past the end */
	assert_int_equal(btf2btf__implicit_arg(btf, th_find(btf, "helper_with_aux", BTF_KIND_FUNC)),
			 -EINVAL);
	assert_int_equal(btf2btf__implicit_arg(btf, btf__type_cnt(btf)), -EINVAL);
	btf2btf__close(b);
}
#pragma GCC diagnostic pop

/* ---- the C prototype printer ---- */

static void test_cproto_shapes(void **state)
{
	struct btf *btf = btf__new_empty();
	int i_int, i_char, p_int, c_int, p_c_int, c_p_int, v_p_int, arr, p_arr, anon, p_anon,
	    un, fwdu, en, p_en, td, fp_proto, p_fp, fp2_proto, p_p_int, f_ret_ptr, p_f_ret_ptr,
	    vararg, noarg, big, func, p_un, p_fwdu, p_cchar;
	char *s;

	(void)state;
	assert_non_null(btf);
	i_int = btf__add_int(btf, "int", 4, BTF_INT_SIGNED);
	i_char = btf__add_int(btf, "char", 1, BTF_INT_CHAR);
	p_int = btf__add_ptr(btf, i_int);
	c_int = btf__add_const(btf, i_int);
	p_c_int = btf__add_ptr(btf, c_int);			/* const int * */
	c_p_int = btf__add_const(btf, p_int);			/* int *const */
	v_p_int = btf__add_volatile(btf, c_p_int);		/* int *const volatile */
	arr = btf__add_array(btf, i_int, i_char, 4);		/* char[4] */
	p_arr = btf__add_ptr(btf, arr);				/* char (*)[4] */
	anon = btf__add_struct(btf, NULL, 4);
	btf__add_field(btf, "x", i_int, 0, 0);
	p_anon = btf__add_ptr(btf, anon);
	un = btf__add_union(btf, "u", 4);
	fwdu = btf__add_fwd(btf, "fu", BTF_FWD_UNION);
	en = btf__add_enum(btf, "e", 4);
	btf__add_enum_value(btf, "E0", 0);
	p_en = btf__add_ptr(btf, en);
	td = btf__add_typedef(btf, "u32_t", i_int);
	fp_proto = btf__add_func_proto(btf, i_int);		/* int (*)(char, int *) */
	btf__add_func_param(btf, NULL, i_char);
	btf__add_func_param(btf, NULL, p_int);
	p_fp = btf__add_ptr(btf, fp_proto);
	p_p_int = btf__add_ptr(btf, p_int);
	fp2_proto = btf__add_func_proto(btf, p_p_int);		/* int **(*)(void) */
	f_ret_ptr = fp2_proto;
	p_f_ret_ptr = btf__add_ptr(btf, f_ret_ptr);
	p_cchar = btf__add_ptr(btf, btf__add_const(btf, i_char));
	vararg = btf__add_func_proto(btf, 0);
	btf__add_func_param(btf, "fmt", p_cchar);
	btf__add_func_param(btf, NULL, 0);
	noarg = btf__add_func_proto(btf, p_anon);
	p_un = btf__add_ptr(btf, un);
	p_fwdu = btf__add_ptr(btf, fwdu);
	big = btf__add_func_proto(btf, p_fp);			/* returns a function pointer */
	btf__add_func_param(btf, "a", p_c_int);
	btf__add_func_param(btf, "b", c_p_int);
	btf__add_func_param(btf, "c", v_p_int);
	btf__add_func_param(btf, "d", p_arr);
	btf__add_func_param(btf, "e", p_un);
	btf__add_func_param(btf, "f", p_fwdu);
	btf__add_func_param(btf, "g", p_en);
	btf__add_func_param(btf, "h", td);
	btf__add_func_param(btf, "i", p_f_ret_ptr);
	func = btf__add_func(btf, "big", BTF_FUNC_GLOBAL, big);
	assert_true(func > 0);

	s = cproto_func(btf, big, "big", -1);
	assert_string_equal(s, "int (*big(const int *a, int *const b, int *const volatile c, "
			       "char (*d)[4], union u *e, union fu *f, enum e *g, u32_t h, "
			       "int **(*i)(void)))(char, int *)");
	free(s);
	s = cproto_func(btf, big, "big", 2);
	assert_string_equal(s, "int (*big(const int *a, int *const b))(char, int *)");
	free(s);
	s = cproto_func(btf, big, "big", 0);
	assert_string_equal(s, "int (*big(void))(char, int *)");
	free(s);
	s = cproto_func(btf, vararg, "pr", -1);
	assert_string_equal(s, "void pr(const char *fmt, ...)");
	free(s);
	s = cproto_func(btf, noarg, "get", -1);
	assert_string_equal(s, "struct {...} *get(void)");
	free(s);
	s = cproto_type(btf, p_fp);
	assert_string_equal(s, "int (*)(char, int *)");
	free(s);
	s = cproto_type(btf, arr);
	assert_string_equal(s, "char [4]");
	free(s);
	/* a FUNC prints as its prototype; a bad id as "?" */
	s = cproto_func(btf, func, "big2", 1);
	assert_string_equal(s, "int (*big2(const int *a))(char, int *)");
	free(s);
	s = cproto_type(btf, 9999);
	assert_string_equal(s, "?");
	free(s);
	{
		/* a type tag, and one with kind_flag (7.3's arena pointers: the
		 * tag is the attribute itself), printed as bpftool 7.5 prints them */
		int tag = btf__add_type_tag(btf, "user", i_int);
		int attr = btf__add_type_tag(btf, "address_space(1)", i_int);
		int p_tag = btf__add_ptr(btf, tag), p_attr = btf__add_ptr(btf, attr);
		struct btf_type *t;

		assert_true(p_tag > 0 && p_attr > 0);
		t = (struct btf_type *)btf__type_by_id(btf, attr);
		t->info |= 1U << 31;	/* kind_flag: libbpf 1.1 has no btf__add_type_attr() */
		s = cproto_type(btf, p_tag);
		assert_string_equal(s, "int __attribute__((btf_type_tag(\"user\"))) *");
		free(s);
		s = cproto_type(btf, p_attr);
		assert_string_equal(s, "int __attribute__((address_space(1))) *");
		free(s);
	}
	btf__free(btf);
}

static void collect_dump(void *ctx, const char *fmt, va_list ap)
{
	char **acc = ctx, *more, *joined;

	assert_true(vasprintf(&more, fmt, ap) >= 0);
	assert_true(asprintf(&joined, "%s%s", *acc ? *acc : "", more) >= 0);
	free(*acc);
	free(more);
	*acc = joined;
}

/* Every FUNC of the compiled fixtures (and of the kernel's BTF when there is
 * one) prints as libbpf's btf_dump__emit_type_decl prints it. */
static void test_cproto_matches_btf_dump(void **state)
{
	const char *paths[] = { th_fixture("kfuncs.gcc.o"), th_fixture("kfuncs.clang.o"),
				"/sys/kernel/btf/vmlinux" };
	size_t checked = 0;

	(void)state;
	for (size_t i = 0; i < 3; i++) {
		struct btf *btf = i < 2 ? th_parse(paths[i], NULL) : btf__parse(paths[i], NULL);
		struct btf_dump *d;
		char *acc = NULL;

		if (!btf)
			continue;	/* no kernel BTF here */
		d = btf_dump__new(btf, collect_dump, &acc, NULL);
		assert_non_null(d);
		for (uint32_t id = 1; id < btf__type_cnt(btf); id++) {
			const struct btf_type *t = btf__type_by_id(btf, id);
			const char *name = btf__name_by_offset(btf, t->name_off);
			LIBBPF_OPTS(btf_dump_emit_type_decl_opts, o, .field_name = name);
			char *mine;

			if (!btf_is_func(t))
				continue;
			mine = cproto_func(btf, t->type, name, -1);
			assert_int_equal(btf_dump__emit_type_decl(d, t->type, &o), 0);
			/* btf_dump prints anonymous types in full: skip those;
			 * it prints no parameters as "()" (libbpf 1.1) or "(void)"
			 * (1.5, 1.7), we as "(void)": compared as "()" */
			for (char *v; (v = strstr(mine, "(void)"));)
				memmove(v + 1, v + 5, strlen(v + 5) + 1);
			for (char *v; (v = strstr(acc, "(void)"));)
				memmove(v + 1, v + 5, strlen(v + 5) + 1);
			/* and "* const", "* (*f)", we "*const", "*(*f)" */
			for (char *v; (v = strstr(acc, "* const")) || (v = strstr(acc, "* volatile")) ||
				      (v = strstr(acc, "* restrict")) || (v = strstr(acc, "* (")) ||
				      (v = strstr(acc, "* *"));)
				memmove(v + 1, v + 2, strlen(v + 2) + 1);
			/* and renames same-named types "x___2" (to compile); we do not */
			for (char *v = acc; (v = strstr(v, "___"));) {
				size_t nd = strspn(v + 3, "0123456789");

				if (nd)
					memmove(v, v + 3 + nd, strlen(v + 3 + nd) + 1);
				else
					v += 3;
			}
			/* libbpf before 1.6 prints a kind_flag type tag (7.3's
			 * address_space(1)) as a btf_type_tag, as it prints any
			 * other; we, as bpftool 7.5+ and newer libbpf, as the
			 * attribute it is */
			for (char *v = acc; (v = strstr(v, "__attribute__((btf_type_tag(\""));) {
				char *q = v + 28, *end = strstr(q + 1, "\")))");
				char *want;

				assert_non_null(end);
				assert_true(asprintf(&want, "__attribute__((%.*s))", (int)(end - q - 1),
						     q + 1) > 0);
				if (strstr(mine, want)) {
					memmove(v + 15, q + 1, end - q - 1);
					memmove(v + 15 + (end - q - 1), end + 2, strlen(end + 2) + 1);
				}
				free(want);
				v += 15;
			}
			/* and stacked qualifiers innermost first */
			for (char *v; (v = strstr(acc, "volatile const "));)
				memcpy(v, "const volatile ", 15);
			if (!strstr(mine, "{...}")) {
				if (strcmp(mine, acc))
					fail_msg("%s [%u]: mine '%s', btf_dump '%s'", paths[i], id, mine, acc);
				checked++;
			}
			free(mine);
			free(acc);
			acc = NULL;
		}
		btf_dump__free(d);
		btf__free(btf);
	}
	assert_true(checked >= 20);
}

/* ---- --kfuncs ---- */

struct krow {
	char *col[8];		/* ID NAME FOUND SETS FLAGS STATE IMPL PROTOTYPE */
	char *bpf;		/* from "  [BPF: ...]", or the prototype */
};

/* Parse the table by the header's column starts. */
static size_t parse_kfuncs(char *out, struct krow *rows, size_t max)
{
	static const char *const head[8] = { "ID", "NAME", "FOUND", "SETS", "FLAGS", "STATE",
					     "IMPL", "PROTOTYPE" };
	char *lines[256];
	size_t n = split_lines(out, lines, 256), start[9];

	assert_true(n >= 1);
	for (int c = 0; c < 8; c++) {
		char *p = strstr(lines[0], head[c]);

		assert_non_null(p);
		start[c] = p - lines[0];
	}
	assert_int_equal(start[0], 0);
	for (size_t i = 1; i < n && i - 1 < max; i++) {
		struct krow *r = &rows[i - 1];
		char *line = lines[i], *bpf;

		assert_true(strlen(line) > start[7]);
		for (int c = 0; c < 8; c++) {
			size_t a = start[c], b = c < 7 ? start[c + 1] : strlen(line);
			char *v = strndup(line + a, b - a);

			assert_non_null(v);
			for (size_t e = strlen(v); e && v[e - 1] == ' '; e--)
				v[e - 1] = 0;
			/* columns are separated by two spaces at least */
			if (c < 7)
				assert_true(b - a >= strlen(v) + 2);
			r->col[c] = v;
		}
		bpf = strstr(r->col[7], "  [BPF: ");
		if (bpf) {
			*bpf = 0;
			bpf += strlen("  [BPF: ");
			assert_int_equal(bpf[strlen(bpf) - 1], ']');
			r->bpf = strndup(bpf, strlen(bpf) - 1);
		} else {
			r->bpf = xstrdup(r->col[7]);
		}
	}
	return n - 1;
}

static void free_rows(struct krow *rows, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		for (int c = 0; c < 8; c++)
			free(rows[i].col[c]);
		free(rows[i].bpf);
	}
}

struct kwant {
	const char *name, *flags;
	bool implicit, legacy;
	const char *proto, *bpf;	/* %s: how the compiler names long */
};

static const struct kwant kfuncs_want[] = {
	{ "bpf_kfunc_implicit_arg", "KF_IMPLICIT_ARGS", true, false,
	  "int bpf_kfunc_implicit_arg(int a, struct bpf_prog_aux *aux)",
	  "int bpf_kfunc_implicit_arg(int a)" },
	{ "bpf_kfunc_implicit_arg_legacy", "KF_IMPLICIT_ARGS", true, true,
	  "int bpf_kfunc_implicit_arg_legacy(int a, int b, struct bpf_prog_aux *aux)",
	  "int bpf_kfunc_implicit_arg_legacy(int a, int b)" },
	{ "bpf_kfunc_implicit_arg_legacy_impl", "-", false, false,
	  "int bpf_kfunc_implicit_arg_legacy_impl(int a, int b, struct bpf_prog_aux *aux)", NULL },
	{ "bpf_kfunc_implicit_mid", "KF_SLEEPABLE|KF_IMPLICIT_ARGS", true, false,
	  "int bpf_kfunc_implicit_mid(int a, const struct bpf_prog_aux *aux, %s b)",
	  "int bpf_kfunc_implicit_mid(int a)" },
	{ "bpf_kfunc_implicit_typedef", "KF_RET_NULL|KF_IMPLICIT_ARGS", true, false,
	  "void *bpf_kfunc_implicit_typedef(void *p, bpf_prog_aux_t *aux)",
	  /* as upstream: no implicit argument behind a typedef, nothing dropped */
	  "void *bpf_kfunc_implicit_typedef(void *p, bpf_prog_aux_t *aux)" },
	{ "bpf_kfunc_plain_aux", "-", false, false,
	  "int bpf_kfunc_plain_aux(int a, struct bpf_prog_aux *aux)", NULL },
	{ "bpf_kfunc_noflags", "KF_ACQUIRE|KF_RET_NULL", false, false,
	  "int bpf_kfunc_noflags(int a)", NULL },
	{ "bpf_wq_set_callback", "KF_IMPLICIT_ARGS", true, false,
	  "int bpf_wq_set_callback(struct bpf_wq *wq, int (*callback_fn)(void *, int *, void *), unsigned int flags, struct bpf_prog_aux *aux)",
	  "int bpf_wq_set_callback(struct bpf_wq *wq, int (*callback_fn)(void *, int *, void *), unsigned int flags)" },
};

#define NR_KWANT (sizeof(kfuncs_want) / sizeof(kfuncs_want[0]))

/* "name(" -> "name_impl(" in the first place it occurs. */
static char *impl_named(const char *proto, const char *name)
{
	char *key = xfmt("%s(", name), *s;
	const char *at = strstr(proto, key);	/* C23's strstr keeps proto's const */

	assert_non_null(at);
	s = xfmt("%.*s%s_impl%s", (int)(at - proto), proto, name, at + strlen(name));
	free(key);
	return s;
}

enum kview { BEFORE, AFTER_T, TRANSFORMED_FILE };

/*
 * Check the rows of one view of kfuncs.{gcc,clang}.o. btf is the BTF the ids
 * refer to (the transformed file for AFTER_T and TRANSFORMED_FILE).
 */
static void check_kfunc_rows(struct krow *rows, size_t n, const struct btf *btf,
			     const char *found, const char *longname, enum kview v)
{
	assert_int_equal(n, NR_KWANT);
	for (size_t i = 0; i < NR_KWANT; i++) {
		const struct kwant *w = &kfuncs_want[i];
		struct krow *r = NULL;
		char *proto = xfmt(w->proto, longname), *want_proto, *impl, *idstr;
		int id = th_find(btf, w->name, BTF_KIND_FUNC), impl_id = 0;

		for (size_t k = 0; k < n; k++)
			if (!strcmp(rows[k].col[1], w->name))
				r = &rows[k];
		if (!r)
			fail_msg("no row for %s", w->name);
		idstr = xfmt("%d", id);
		assert_string_equal(r->col[0], idstr);
		assert_string_equal(r->col[2], found);
		assert_string_equal(r->col[3], "test_kfunc_ids");
		assert_string_equal(r->col[4], w->flags);
		if (w->implicit) {
			char *iname = xfmt("%s_impl", w->name);

			impl_id = v == BEFORE && !w->legacy ? 0 : th_find(btf, iname, BTF_KIND_FUNC);
			free(iname);
		}
		if (!w->implicit) {
			assert_string_equal(r->col[5], "plain");
			assert_string_equal(r->col[6], "-");
			assert_string_equal(r->col[7], proto);
			assert_string_equal(r->bpf, proto);
		} else {
			const char *state = v == BEFORE ? "pending"
					    : v == TRANSFORMED_FILE ? "already_transformed"
					    : w->legacy ? "legacy" : "transformed";

			assert_string_equal(r->col[5], state);
			impl = impl_id ? xfmt("%d%s", impl_id,
					      w->legacy && v != TRANSFORMED_FILE ? " legacy" : "")
				       : xstrdup("new");
			assert_string_equal(r->col[6], impl);
			free(impl);
			/* after the transform the kernel's prototype is _impl's */
			want_proto = v == BEFORE ? xstrdup(proto) : impl_named(proto, w->name);
			assert_string_equal(r->col[7], want_proto);
			assert_string_equal(r->bpf, w->bpf);
			free(want_proto);
		}
		free(idstr);
		free(proto);
	}
}

/* The JSON of the same view, field by field against the text rows. */
static void check_kfunc_json(const char *json, const char *file, bool after, struct krow *rows,
			     size_t n)
{
	char *tsv, *lines[64], *f[16], *head;
	size_t nl;

	assert_one_object(json);
	head = jq(json, "[.file, .after_transform, (.kfuncs|length), (keys|join(\",\"))] | @tsv");
	{
		char *want = xfmt("%s\t%s\t%zu\tafter_transform,file,kfuncs\n", file,
				  after ? "true" : "false", n);

		assert_string_equal(head, want);
		free(want);
	}
	free(head);
	/* stable keys, in a stable order */
	head = jq(json, "[.kfuncs[] | keys_unsorted | join(\",\")] | unique | .[]");
	assert_string_equal(head, "id,name,found_by,sets,flags,flag_names,implicit_args,state,"
				  "planned,actions,reduced_params,problems,type_id,proto,bpf_proto,implicit_arg,impl_id,impl_name,impl_legacy\n");
	free(head);
	tsv = jq(json, ".kfuncs[] | [.id, .name, (.found_by | if . == [\"decl_tag\", \"set8\"] "
		       "then \"both\" elif . == [\"decl_tag\"] then \"tag\" elif . == [\"set8\"] "
		       "then \"set8\" else \"-\" end), (if .sets == [] then \"-\" else .sets|join(\",\") end), "
		       "(if .flag_names == [] then \"-\" else .flag_names|join(\"|\") end), .state, "
		       "(if .implicit_args | not then \"-\" elif .impl_id == null then \"new\" "
		       "elif .impl_legacy then \"\\(.impl_id) legacy\" else \"\\(.impl_id)\" end), "
		       ".proto, .bpf_proto, .flags, .implicit_args, (.impl_name // \"-\"), "
		       "(.implicit_arg // \"-\")] | @tsv");
	nl = split_lines(tsv, lines, 64);
	assert_int_equal(nl, n);
	for (size_t i = 0; i < nl; i++) {
		unsigned long flags;
		char *end;

		assert_int_equal(split_tabs(lines[i], f, 16), 13);
		for (int c = 0; c < 8; c++)
			assert_string_equal(f[c], rows[i].col[c]);
		assert_string_equal(f[8], rows[i].bpf);
		flags = strtoul(f[9], &end, 10);
		assert_true(!*end);
		/* flags and flag_names agree */
		assert_int_equal(!!(flags & IMP), !strcmp(f[10], "true"));
		assert_int_equal(flags == 0, !strcmp(rows[i].col[4], "-"));
		if (!strcmp(f[10], "true")) {
			char *iname = xfmt("%s_impl", rows[i].col[1]);

			assert_string_equal(f[11], iname);
			assert_string_equal(f[12], strstr(rows[i].col[7], "struct bpf_wq") ? "3"
						   : strstr(rows[i].col[7], "int b,") ? "2"
						   : strstr(rows[i].col[7], "bpf_prog_aux_t") ? "-" : "1");
			free(iname);
		} else {
			assert_string_equal(f[11], "-");
		}
	}
	free(tsv);
}

static void kfuncs_views(const char *fixture, const char *found, const char *longname)
{
	const char *obj = th_copy_fixture(fixture, "k.o");
	char *copy = xstrdup(th_path("k2.o"));
	struct krow rows[16] = { 0 }, rows2[16] = { 0 };
	struct btf *before, *after;
	struct run r, j, x;
	size_t n;

	before = th_parse(obj, NULL);
	run_cli(&r, 0, (const char *[]){ "btf2btf", "--kfuncs", obj, NULL });
	/* the plan's problems, counted in one line (--check lists them) */
	assert_int_equal(th_count_lines(r.err), 1);
	assert_non_null(strstr(r.err, "warning: "));
	assert_non_null(strstr(r.err, ": 3 problems in the kfunc declarations (--check lists them)"));
	n = parse_kfuncs(r.out, rows, 16);
	check_kfunc_rows(rows, n, before, found, longname, BEFORE);
	run_cli(&j, 0, (const char *[]){ "btf2btf", "--kfuncs", "-j", obj, NULL });
	check_kfunc_json(j.out, obj, false, rows, n);
	th_run_free(&j);
	run_cli(&j, 0, (const char *[]){ "btf2btf", "--kfuncs", "-p", obj, NULL });
	assert_true(th_count_lines(j.out) > 100);
	check_kfunc_json(j.out, obj, false, rows, n);
	th_run_free(&j);
	free_rows(rows, n);
	th_run_free(&r);

	/* -T shows what the transform makes of it, without writing */
	th_copy(obj, copy);
	run_cli(&x, 0, (const char *[]){ "btf2btf", "-q", copy, NULL });
	th_run_free(&x);
	after = th_parse(copy, NULL);
	run_cli(&r, 0, (const char *[]){ "btf2btf", "--kfuncs", "-T", obj, NULL });
	assert_true(th_same_file(obj, th_fixture(fixture)));
	n = parse_kfuncs(r.out, rows, 16);
	check_kfunc_rows(rows, n, after, found, longname, AFTER_T);
	run_cli(&j, 0, (const char *[]){ "btf2btf", "--kfuncs", "-T", "-j", obj, NULL });
	check_kfunc_json(j.out, obj, true, rows, n);
	th_run_free(&j);
	free_rows(rows, n);
	th_run_free(&r);

	/* the transformed file: recognised as such, with or without -T */
	run_cli(&r, 0, (const char *[]){ "btf2btf", "--kfuncs", copy, NULL });
	n = parse_kfuncs(r.out, rows, 16);
	check_kfunc_rows(rows, n, after, found, longname, TRANSFORMED_FILE);
	run_cli(&j, 0, (const char *[]){ "btf2btf", "--kfuncs", "-T", copy, NULL });
	assert_int_equal(parse_kfuncs(j.out, rows2, 16), n);
	for (size_t i = 0; i < n; i++)
		for (int c = 0; c < 8; c++)
			assert_string_equal(rows[i].col[c], rows2[i].col[c]);
	free_rows(rows, n);
	free_rows(rows2, n);
	th_run_free(&j);
	th_run_free(&r);
	btf__free(before);
	btf__free(after);
	free(copy);
	th_cleanup();
}

static void test_kfuncs_gcc(void **state)
{
	(void)state;
	kfuncs_views("kfuncs.gcc.o", "set8", "long int");
}

static void test_kfuncs_clang(void **state)
{
	(void)state;
	kfuncs_views("kfuncs.clang.o", "both", "long");
}

/* The resolved object (pairs read by id) shows what the unresolved one does. */
static void test_kfuncs_resolved_same(void **state)
{
	struct run a, b;

	(void)state;
	run_cli(&a, 0, (const char *[]){ "btf2btf", "--kfuncs", th_fixture("basic.o"), NULL });
	run_cli(&b, 0, (const char *[]){ "btf2btf", "--kfuncs", th_fixture("basic-resolved.o"), NULL });
	assert_true(th_count_lines(a.out) == 8);
	assert_string_equal(a.out, b.out);
	th_run_free(&a);
	th_run_free(&b);
}

/* Flags by name, unknown bits in hex; a kfunc found by its tag only. */
static void test_kfuncs_flags_and_tag_only(void **state)
{
	static const struct tobj o = {
		.f = { F("bpf_odd", T_VOIDP, T_INT), FT("bpf_tagged", T_INT, T_INT),
		       F("bpf_two", T_INT, T_AUX) },
		.s = { S("one", KFS, E("bpf_odd", KF_ACQUIRE | (1U << 3) | (1U << 20)),
			 E("bpf_two", IMP)),
		       S("two", KFS, E("bpf_two", IMP | KF_SLEEPABLE)) },
	};
	char *obj = make_obj("flags.o", &o);
	struct krow rows[4] = { 0 };
	struct run r;
	char *tsv;

	(void)state;
	run_cli(&r, 0, (const char *[]){ "btf2btf", "--kfuncs", obj, NULL });
	assert_int_equal(parse_kfuncs(r.out, rows, 4), 3);
	assert_string_equal(rows[0].col[1], "bpf_odd");
	assert_string_equal(rows[0].col[4], "KF_ACQUIRE|0x100008");
	assert_string_equal(rows[0].col[2], "set8");
	assert_string_equal(rows[1].col[1], "bpf_tagged");
	assert_string_equal(rows[1].col[2], "tag");
	assert_string_equal(rows[1].col[3], "-");
	assert_string_equal(rows[1].col[4], "-");
	assert_string_equal(rows[2].col[1], "bpf_two");
	assert_string_equal(rows[2].col[3], "one,two");
	assert_string_equal(rows[2].col[4], "KF_SLEEPABLE|KF_IMPLICIT_ARGS");
	assert_string_equal(rows[2].col[7], "int bpf_two(struct bpf_prog_aux *a0)");
	assert_string_equal(rows[2].bpf, "int bpf_two(void)");
	free_rows(rows, 3);
	th_run_free(&r);
	run_cli(&r, 0, (const char *[]){ "btf2btf", "--kfuncs", "-j", obj, NULL });
	tsv = jq(r.out, ".kfuncs[] | [.name, .flags, (.flag_names|join(\",\")), "
			"(.found_by|join(\",\")), (.sets|join(\",\"))] | @tsv");
	assert_string_equal(tsv, "bpf_odd\t1048585\tKF_ACQUIRE,0x100008\tset8\tone\n"
				 "bpf_tagged\t0\t\tdecl_tag\t\n"
				 "bpf_two\t65568\tKF_SLEEPABLE,KF_IMPLICIT_ARGS\tset8\tone,two\n");
	free(tsv);
	th_run_free(&r);
	free(obj);
	th_cleanup();
}

/*
 * One spelling of a flag set, the library's, in its messages and in every
 * view (test_diff_kfuncs: "bpf_wq: - -> KF_IMPLICIT_ARGS"): "-" for none,
 * here a set8 conflict where one side has no flags; cut short and counted
 * as snprintf() does.
 */
static void test_flags_one_spelling(void **state)
{
	static const struct tobj o = {
		.f = { F("bpf_c", T_INT, T_INT) },
		.s = { S("a", KFS, E("bpf_c", 0)), S("b", KFS, E("bpf_c", KF_ACQUIRE | (1U << 20))) },
	};
	char *obj = make_obj("none.o", &o);
	char buf[8];
	struct run r;

	(void)state;
	assert_int_equal(btf2btf__kf_flags_str(0, buf, sizeof(buf)), 1);
	assert_string_equal(buf, "-");
	assert_int_equal(btf2btf__kf_flags_str(KF_ACQUIRE | (1U << 20), NULL, 0),
			 strlen("KF_ACQUIRE|0x100000"));
	assert_int_equal(btf2btf__kf_flags_str(KF_ACQUIRE | (1U << 20), buf, sizeof(buf)),
			 strlen("KF_ACQUIRE|0x100000"));
	assert_string_equal(buf, "KF_ACQU");
	assert_int_equal(btf2btf__kf_flags_str(1U << 31, buf, sizeof(buf)), 10);
	assert_string_equal(buf, "0x80000");

	run_cli(&r, 1, (const char *[]){ "btf2btf", "--check", obj, NULL });
	assert_non_null(strstr(r.out, "kfunc bpf_c has flags - in set8 a but KF_ACQUIRE|0x100000 "
				      "in set8 b"));
	th_run_free(&r);
	free(obj);
	th_cleanup();
}

/* A module against its base: module kfuncs only, _impl looked up in both. */
static void test_kfuncs_split(void **state)
{
	const char *base = th_fixture("split.o");
	struct krow rows[8] = { 0 };
	struct run r;
	size_t n;

	(void)state;
	run_cli(&r, 0, (const char *[]){ "btf2btf", "--kfuncs", "--btf-base", base,
					 th_fixture("split.o.ko"), NULL });
	n = parse_kfuncs(r.out, rows, 8);
	assert_int_equal(n, 4);
	assert_string_equal(rows[0].col[1], "bpf_kfunc_implicit_arg");
	assert_string_equal(rows[0].col[6], "new");
	assert_string_equal(rows[0].bpf, "int bpf_kfunc_implicit_arg(int a0)");
	assert_string_equal(rows[1].col[1], "bpf_kfunc_implicit_arg_legacy");
	assert_non_null(strstr(rows[1].col[6], " legacy"));
	assert_string_equal(rows[3].col[1], "bpf_testmod_plain");
	for (size_t i = 0; i < n; i++)
		assert_true(atoi(rows[i].col[0]) > 0);
	free_rows(rows, n);
	th_run_free(&r);
	/* the base itself */
	run_cli(&r, 0, (const char *[]){ "btf2btf", "--kfuncs", base, NULL });
	assert_int_equal(th_count_lines(r.out), 3);
	assert_non_null(strstr(r.out, "bpf_wq_set_callback"));
	th_run_free(&r);
}

/* A set8 conflict is shown by --kfuncs (the transform, -T, refuses it). */
static void test_kfuncs_conflict(void **state)
{
	char *obj = make_obj("c.o", &lint_cases[6].o);
	struct run r;

	(void)state;
	run_cli(&r, 0, (const char *[]){ "btf2btf", "--kfuncs", obj, NULL });
	assert_non_null(strstr(r.out, "bpf_c"));
	assert_non_null(strstr(r.err, "warning: "));
	th_run_free(&r);
	run_cli(&r, 1, (const char *[]){ "btf2btf", "--kfuncs", "-T", obj, NULL });
	assert_string_equal(r.out, "");
	assert_non_null(strstr(r.err, "btf2btf: error: "));
	th_run_free(&r);
	free(obj);
	th_cleanup();
}

/* ---- --diff ---- */

static void diff_fixture(const char *fixture)
{
	const char *orig = th_copy_fixture(fixture, "old.o");
	char *old = xstrdup(orig), *new = xstrdup(th_path("new.o")), *raw = xstrdup(th_path("new.btf"));
	struct btf *ob, *nb;
	struct krow rows[16] = { 0 };
	char *lines[128], *tsv, *want;
	struct run r, k, j;
	size_t n, nk, nchanged = 0, nadded = 0, nremoved = 0, added = 0, removed = 0;
	size_t nimpl = 0, nproto = 0;
	uint32_t ocnt, ncnt;

	th_copy(old, new);
	run_cli(&r, 0, (const char *[]){ "btf2btf", "-q", new, NULL });
	th_run_free(&r);
	run_cli(&r, 0, (const char *[]){ "btf2btf", "-q", "-o", raw, old, NULL });
	th_run_free(&r);
	ob = th_parse(old, NULL);
	nb = th_parse(new, NULL);
	ocnt = btf__type_cnt(ob) - 1;
	ncnt = btf__type_cnt(nb) - 1;

	run_cli(&r, 1, (const char *[]){ "btf2btf", "--diff", old, new, NULL });
	assert_string_equal(r.err, "");
	/* the prototypes --kfuncs announced are the ones --diff sees change */
	run_cli(&k, 0, (const char *[]){ "btf2btf", "--kfuncs", old, NULL });
	nk = parse_kfuncs(k.out, rows, 16);
	for (size_t q = 0; q < nk; q++) {
		nimpl += !strcmp(rows[q].col[6], "new");
		nproto += strcmp(rows[q].col[7], rows[q].bpf) != 0;
	}
	assert_true(nimpl > 0 && nproto > 0);
	{
		char *text = xstrdup(r.out), *hdr;
		size_t changed_m = 0, changed_p = 0, added_f = 0;
		uint32_t last = 0;
		int section = -1;

		n = split_lines(text, lines, 128);
		hdr = xfmt("--- %s (%u types)", old, ocnt);
		assert_string_equal(lines[0], hdr);
		free(hdr);
		hdr = xfmt("+++ %s (%u types)", new, ncnt);
		assert_string_equal(lines[1], hdr);
		free(hdr);
		for (size_t i = 2; i < n; i++) {
			if (!strncmp(lines[i], "types added: ", 13)) {
				section = 0;
				nadded = atoi(lines[i] + 13);
			} else if (!strncmp(lines[i], "types changed: ", 15)) {
				section = 1;
				nchanged = atoi(lines[i] + 15);
			} else if (!strncmp(lines[i], "types removed: ", 15)) {
				section = 4;
				nremoved = atoi(lines[i] + 15);
			} else if (!strcmp(lines[i], "FUNCs removed: 0")) {
				section = 9;
			} else if (!strncmp(lines[i], "FUNCs added: ", 13)) {
				section = 2;
				assert_int_equal(atoi(lines[i] + 13), nimpl);
			} else if (!strncmp(lines[i], "FUNC prototypes changed: ", 25)) {
				section = 3;
				assert_int_equal(atoi(lines[i] + 25), nproto);
			} else if (section == 0) {
				/* bpftool raw format lines of the new types, by id:
				 * the _impl FUNCs --kfuncs announced, their
				 * prototypes, decl tags moved to them */
				const struct btf_type *t;
				uint32_t id;

				assert_int_equal(lines[i][0], '+');
				if (lines[i][1] != '[')
					continue;
				id = atoi(lines[i] + 2);
				assert_true(id > last);
				last = id;
				t = btf__type_by_id(nb, id);
				assert_non_null(t);
				assert_true(btf_is_func(t) || btf_is_func_proto(t) || btf_is_decl_tag(t));
				if (btf_is_func(t)) {
					const char *name = btf__name_by_offset(nb, t->name_off);
					bool found = false;

					for (size_t q = 0; q < nk; q++) {
						char *impl = xfmt("%s_impl", rows[q].col[1]);

						found |= !strcmp(rows[q].col[6], "new") && !strcmp(impl, name);
						free(impl);
					}
					if (!found)
						fail_msg("added FUNC not an _impl --kfuncs announced: %s", name);
					added_f++;
				}
				added++;
			} else if (section == 1) {
				/* the kfuncs repointed to their reduced prototype:
				 * "-[id] FUNC 'name'" then "+[id] FUNC 'name'" */
				char *name;
				bool found = false;

				assert_true(lines[i][0] == '-' && i + 1 < n && lines[i + 1][0] == '+');
				name = strstr(lines[i], "] FUNC '");
				assert_non_null(name);
				name += strlen("] FUNC '");
				*strchr(name, '\'') = 0;
				assert_non_null(strstr(lines[i + 1], "] FUNC '"));
				assert_true(!strncmp(strstr(lines[i + 1], "] FUNC '") + 8, name, strlen(name)));
				for (size_t q = 0; q < nk; q++)
					found |= !strcmp(rows[q].col[1], name) && strcmp(rows[q].col[7], rows[q].bpf);
				if (!found)
					fail_msg("changed FUNC not announced by --kfuncs: %s", name);
				changed_m++;
				changed_p++;
				i++;
			} else if (section == 4) {
				/* only decl tags moved off a dropped parameter */
				assert_int_equal(lines[i][0], '-');
				assert_non_null(strstr(lines[i], "] DECL_TAG '"));
				removed++;
			} else if (section == 2) {
				assert_true(!strncmp(lines[i], "+[", 2));
				assert_non_null(strstr(lines[i], "_impl("));
			} else if (section == 3) {
				/* "-[id] old" then "+[id] new": as --kfuncs said */
				bool found = false;

				assert_true(lines[i][0] == '-' && i + 1 < n && lines[i + 1][0] == '+');
				for (size_t q = 0; q < nk; q++) {
					char *m = xfmt("-[%s] %s", rows[q].col[0], rows[q].col[7]);
					char *p = xfmt("+[%s] %s", rows[q].col[0], rows[q].bpf);

					if (!strcmp(lines[i], m)) {
						assert_string_equal(lines[i + 1], p);
						found = true;
					}
					free(m);
					free(p);
				}
				if (!found)
					fail_msg("changed prototype not announced by --kfuncs: %s", lines[i]);
				i++;
			} else {
				fail_msg("unexpected line %s", lines[i]);
			}
		}
		assert_int_equal(added, nadded);
		assert_int_equal(added_f, nimpl);
		assert_int_equal(removed, nremoved);
		/* the typedef one keeps its proto */
		assert_int_equal(changed_m, nproto);
		assert_int_equal(changed_p, nproto);
		assert_int_equal(nchanged, nproto);
		free(text);
	}

	/* JSON: the same, field by field */
	run_cli(&j, 1, (const char *[]){ "btf2btf", "--diff", "-j", old, new, NULL });
	assert_one_object(j.out);
	tsv = jq(j.out, "[.old.file, .old.types, .new.file, .new.types, (.types_added|length), "
			"(.types_changed|length), (.types_removed|length), (.funcs_added|length), "
			"(.funcs_removed|length), (.protos_changed|length), (keys_unsorted|join(\",\")), "
			".old.base_types, .new.base_types] | @tsv");
	want = xfmt("%s\t%u\t%s\t%u\t%zu\t%zu\t%zu\t%zu\t0\t%zu\told,new,types_added,types_changed,"
		    "types_removed,funcs_added,funcs_removed,protos_changed\t0\t0\n",
		    old, ocnt, new, ncnt, nadded, nchanged, nremoved, nimpl, nproto);
	assert_string_equal(tsv, want);
	free(want);
	free(tsv);
	tsv = jq(j.out, ".types_added[] | [.id, .kind, .name] | @tsv");
	n = split_lines(tsv, lines, 128);
	assert_int_equal(n, nadded);
	for (size_t i = 0; i < n; i++) {
		char *f[4];
		const struct btf_type *t;
		uint32_t id;

		assert_int_equal(split_tabs(lines[i], f, 4), 3);
		id = atoi(f[0]);
		assert_true(id >= 1 && id <= ncnt);
		t = btf__type_by_id(nb, id);
		assert_string_equal(f[1], btf_is_func(t) ? "FUNC" : btf_is_func_proto(t) ? "FUNC_PROTO"
									: "DECL_TAG");
		if (btf_is_func(t))
			assert_string_equal(f[2], btf__name_by_offset(nb, t->name_off));
	}
	free(tsv);
	tsv = jq(j.out, "[.types_changed[] | select(.kind == \"FUNC\" and .old_kind == \"FUNC\" "
			"and .name == .old_name)] | length");
	want = xfmt("%zu\n", nproto);
	assert_string_equal(tsv, want);
	free(want);
	free(tsv);
	tsv = jq(j.out, ".protos_changed[] | [.name, .old_id, .new_id, .old_proto, .new_proto] | @tsv");
	n = split_lines(tsv, lines, 128);
	assert_int_equal(n, nproto);
	for (size_t i = 0; i < n; i++) {
		char *f[6];
		bool found = false;

		assert_int_equal(split_tabs(lines[i], f, 6), 5);
		assert_string_equal(f[1], f[2]);	/* the kfunc keeps its id */
		for (size_t q = 0; q < nk; q++)
			if (!strcmp(rows[q].col[1], f[0])) {
				assert_string_equal(rows[q].col[0], f[1]);
				assert_string_equal(rows[q].col[7], f[3]);
				assert_string_equal(rows[q].bpf, f[4]);
				found = true;
			}
		assert_true(found);
	}
	free(tsv);
	tsv = jq(j.out, ".funcs_added[] | [.name, .id, .proto] | @tsv");
	n = split_lines(tsv, lines, 128);
	assert_int_equal(n, nimpl);
	for (size_t i = 0; i < n; i++) {
		char *f[4];

		assert_int_equal(split_tabs(lines[i], f, 4), 3);
		assert_int_equal(atoi(f[1]), th_find(nb, f[0], BTF_KIND_FUNC));
		assert_non_null(strstr(f[2], f[0]));
	}
	free(tsv);
	th_run_free(&j);

	/* raw BTF on either side: the same differences */
	run_cli(&j, 1, (const char *[]){ "btf2btf", "--diff", old, raw, NULL });
	assert_string_equal(strchr(strchr(j.out, '\n') + 1, '\n'), strchr(strchr(r.out, '\n') + 1, '\n'));
	th_run_free(&j);
	/* a file against itself: nothing (exit 0, as diff(1)) */
	run_cli(&j, 0, (const char *[]){ "btf2btf", "--diff", "-j", new, raw, NULL });
	tsv = jq(j.out, "[.types_added, .types_changed, .types_removed, .funcs_added, "
			".funcs_removed, .protos_changed] | map(length) | add");
	assert_string_equal(tsv, "0\n");
	free(tsv);
	th_run_free(&j);
	/* NEW -> OLD: removed, reversed */
	run_cli(&j, 1, (const char *[]){ "btf2btf", "--diff", "-j", new, old, NULL });
	tsv = jq(j.out, "[(.types_added|length), (.types_removed|length), (.funcs_removed|length), "
			"(.protos_changed|length)] | @tsv");
	want = xfmt("%zu\t%zu\t%zu\t%zu\n", nremoved, nadded, nimpl, nproto);
	assert_string_equal(tsv, want);
	free(want);
	free(tsv);
	th_run_free(&j);

	free_rows(rows, nk);
	th_run_free(&k);
	th_run_free(&r);
	btf__free(ob);
	btf__free(nb);
	free(old);
	free(new);
	free(raw);
	th_cleanup();
}

static void test_diff_gcc(void **state)
{
	(void)state;
	diff_fixture("kfuncs.gcc.o");
}

static void test_diff_clang(void **state)
{
	(void)state;
	diff_fixture("kfuncs.clang.o");
}

static int cmp_strp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* names, sorted, joined by "," then a newline: what jq's sort|join prints */
static char *joined(char **names, size_t n)
{
	char *s = xstrdup(""), *t;

	qsort(names, n, sizeof(*names), cmp_strp);
	for (size_t i = 0; i <= n; i++) {
		t = i < n ? xfmt("%s%s%s", s, i ? "," : "", names[i]) : xfmt("%s\n", s);
		free(s);
		s = t;
	}
	return s;
}

/*
 * Types are matched by name and by where they are used, not by id: a copy
 * sorted (and deduplicated) has no difference although every id moved, and
 * the transform followed by sort still shows its _impl FUNCs and reduced
 * prototypes, as --kfuncs announces them.
 */
static void diff_sorted(const char *fixture)
{
	static const char *const feats[] = { "--features=sort", "--features=dedup,sort" };
	const char *old = th_copy_fixture(fixture, "old.o");
	char *sorted = xstrdup(th_path("sorted.btf")), *moved = xstrdup(th_path("moved.btf"));
	char *impls[16], *protos[16], *tsv, *want;
	struct krow rows[16] = { 0 };
	struct btf *ob, *sb;
	struct run r, k;
	size_t nk, nimpl = 0, nproto = 0, nmoved = 0;

	run_cli(&k, 0, (const char *[]){ "btf2btf", "--kfuncs", old, NULL });
	nk = parse_kfuncs(k.out, rows, 16);
	for (size_t q = 0; q < nk; q++) {
		if (!strcmp(rows[q].col[6], "new"))
			impls[nimpl++] = xfmt("%s_impl", rows[q].col[1]);
		if (strcmp(rows[q].col[7], rows[q].bpf))
			protos[nproto++] = xstrdup(rows[q].col[1]);
	}
	assert_true(nimpl > 0 && nproto > 0);

	for (size_t f = 0; f < 2; f++) {
		run_cli(&r, 0, (const char *[]){ "btf2btf", "-q", feats[f], "-o", sorted, old, NULL });
		th_run_free(&r);
		/* the sort moved types: an id diff would see them all changed */
		ob = th_parse(old, NULL);
		sb = th_parse(sorted, NULL);
		for (uint32_t id = 1; id < btf__type_cnt(ob) && id < btf__type_cnt(sb); id++)
			nmoved += btf_kind(btf__type_by_id(ob, id)) != btf_kind(btf__type_by_id(sb, id)) ||
				  strcmp(btf__name_by_offset(ob, btf__type_by_id(ob, id)->name_off),
					 btf__name_by_offset(sb, btf__type_by_id(sb, id)->name_off));
		assert_true(nmoved > 0);
		btf__free(ob);
		btf__free(sb);
		run_cli(&r, 0, (const char *[]){ "btf2btf", "--diff", old, sorted, NULL });
		assert_non_null(strstr(r.out, "\ntypes added: 0\ntypes changed: 0\ntypes removed: 0\n"
					      "FUNCs added: 0\nFUNCs removed: 0\nFUNC prototypes changed: 0\n"));
		th_run_free(&r);
		run_cli(&r, 0, (const char *[]){ "btf2btf", "--diff", "-j", sorted, old, NULL });
		tsv = jq(r.out, "[.types_added, .types_changed, .types_removed, .funcs_added, "
				".funcs_removed, .protos_changed] | map(length) | add");
		assert_string_equal(tsv, "0\n");
		free(tsv);
		th_run_free(&r);
	}

	/* transformed, deduplicated and sorted: only what the transform did */
	run_cli(&r, 0, (const char *[]){ "btf2btf", "-q", "--features=implicit_args,dedup,sort", "-o",
					 moved, old, NULL });
	th_run_free(&r);
	run_cli(&r, 1, (const char *[]){ "btf2btf", "--diff", "-j", old, moved, NULL });
	tsv = jq(r.out, ".funcs_added | map(.name) | sort | join(\",\")");
	want = joined(impls, nimpl);
	assert_string_equal(tsv, want);
	free(want);
	free(tsv);
	tsv = jq(r.out, ".protos_changed | map(.name) | sort | join(\",\")");
	want = joined(protos, nproto);
	assert_string_equal(tsv, want);
	free(tsv);
	/* the changed types are those FUNCs, repointed */
	tsv = jq(r.out, ".types_changed | map(select(.kind == \"FUNC\" and .name == .old_name)"
			" | .name) | sort | join(\",\")");
	assert_string_equal(tsv, want);
	free(tsv);
	tsv = jq(r.out, "[(.types_changed | length), (.funcs_removed | length), "
			"(.types_added | map(select(.kind == \"FUNC\")) | length), "
			"(.types_removed | map(select(.kind != \"DECL_TAG\")) | length)] | @tsv");
	free(want);
	want = xfmt("%zu\t0\t%zu\t0\n", nproto, nimpl);
	assert_string_equal(tsv, want);
	free(want);
	free(tsv);
	th_run_free(&r);

	for (size_t i = 0; i < nimpl; i++)
		free(impls[i]);
	for (size_t i = 0; i < nproto; i++)
		free(protos[i]);
	free_rows(rows, nk);
	th_run_free(&k);
	free(sorted);
	free(moved);
	th_cleanup();
}

static void test_diff_sorted_gcc(void **state)
{
	(void)state;
	diff_sorted("kfuncs.gcc.o");
}

static void test_diff_sorted_clang(void **state)
{
	(void)state;
	diff_sorted("kfuncs.clang.o");
}

/*
 * Raw BTF with anonymous types a position alone tells apart (three 4-byte
 * structs of one int), written with the types in the order perm gives
 * (perm[i]: the logical type added i-th). rename: the member of the
 * anonymous struct at outer.s named w instead of x.
 */
enum { A_INT, A_OUTER, A_UNION, A_S, A_TYPEDEF, A_T, A_PTR, A_P, A_PROTO, A_FUNC, A_NR };

static void write_anon(const char *path, const int perm[A_NR], bool rename)
{
	struct btf *btf = btf__new_empty();
	int id[A_NR];
	const void *raw;
	uint32_t size;

	assert_non_null(btf);
	for (int i = 0; i < A_NR; i++)
		id[perm[i]] = i + 1;
	for (int i = 0; i < A_NR; i++) {
		int r = 0;

		switch (perm[i]) {
		case A_INT:
			r = btf__add_int(btf, "int", 4, BTF_INT_SIGNED);
			break;
		case A_OUTER:
			r = btf__add_struct(btf, "outer", 8);
			assert_true(r > 0);
			r = btf__add_field(btf, "u", id[A_UNION], 0, 0) ?:
			    btf__add_field(btf, "s", id[A_S], 32, 0);
			break;
		case A_UNION:
			r = btf__add_union(btf, NULL, 4);
			assert_true(r > 0);
			r = btf__add_field(btf, "a", id[A_INT], 0, 0) ?:
			    btf__add_field(btf, "b", id[A_INT], 0, 0);
			break;
		case A_S: case A_T: case A_P:
			r = btf__add_struct(btf, NULL, 4);
			assert_true(r > 0);
			r = btf__add_field(btf, perm[i] == A_T ? "y" : perm[i] == A_P ? "z" : rename ? "w" : "x",
					   id[A_INT], 0, 0);
			break;
		case A_TYPEDEF:
			r = btf__add_typedef(btf, "t", id[A_T]);
			break;
		case A_PTR:
			r = btf__add_ptr(btf, id[A_P]);
			break;
		case A_PROTO:
			r = btf__add_func_proto(btf, id[A_INT]);
			assert_true(r > 0);
			r = btf__add_func_param(btf, "q", id[A_PTR]);
			break;
		case A_FUNC:
			r = btf__add_func(btf, "f", BTF_FUNC_GLOBAL, id[A_PROTO]);
			break;
		}
		assert_true(r >= 0);
	}
	raw = btf__raw_data(btf, &size);
	assert_non_null(raw);
	assert_int_equal(fx_write_file(path, raw, size), 0);
	btf__free(btf);
}

/* Anonymous types matched by where they are used, whatever their ids. */
static void test_diff_anon(void **state)
{
	static const int order[A_NR] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9 };
	static const int reversed[A_NR] = { 9, 8, 7, 6, 5, 4, 3, 2, 1, 0 };
	static const int shuffled[A_NR] = { A_P, A_FUNC, A_T, A_INT, A_S, A_PROTO, A_UNION,
					    A_TYPEDEF, A_OUTER, A_PTR };
	char *a = xstrdup(th_path("a.btf")), *b = xstrdup(th_path("b.btf"));
	char *tsv;
	struct run r;

	(void)state;
	write_anon(a, order, false);
	for (int k = 0; k < 2; k++) {
		write_anon(b, k ? shuffled : reversed, false);
		run_cli(&r, 0, (const char *[]){ "btf2btf", "--diff", "-j", a, b, NULL });
		tsv = jq(r.out, "[.types_added, .types_changed, .types_removed] | map(length) | add");
		assert_string_equal(tsv, "0\n");
		free(tsv);
		th_run_free(&r);
	}
	/* the struct at outer.s changed, and nothing else (outer's member
	 * still points at the anonymous struct it used) */
	write_anon(b, shuffled, true);
	run_cli(&r, 1, (const char *[]){ "btf2btf", "--diff", "-j", a, b, NULL });
	tsv = jq(r.out, "[(.types_added|length), (.types_removed|length), (.types_changed|length), "
			".types_changed[0].old_id, .types_changed[0].id, .types_changed[0].kind, "
			".types_changed[0].name] | @tsv");
	assert_string_equal(tsv, "0\t0\t1\t4\t5\tSTRUCT\t(anon)\n");
	free(tsv);
	th_run_free(&r);
	run_cli(&r, 1, (const char *[]){ "btf2btf", "--diff", a, b, NULL });
	assert_non_null(strstr(r.out, "types changed: 1\n"
				      "-[4] STRUCT '(anon)' size=4 vlen=1\n-\t'x' type_id=1 bits_offset=0\n"
				      "+[5] STRUCT '(anon)' size=4 vlen=1\n+\t'w' type_id=4 bits_offset=0\n"));
	th_run_free(&r);
	free(a);
	free(b);
	th_cleanup();
}

static void test_diff_split(void **state)
{
	const char *base = th_fixture("split.o");
	const char *mod = th_copy_fixture("split.o.ko", "m.ko");
	char *old = xstrdup(th_path("m0.ko")), *tsv;
	struct run r;

	(void)state;
	th_copy(mod, old);
	run_cli(&r, 0, (const char *[]){ "btf2btf", "-q", "--btf-base", base, mod, NULL });
	th_run_free(&r);
	run_cli(&r, 1, (const char *[]){ "btf2btf", "--diff", "-j", "--btf-base", base, old, mod, NULL });
	tsv = jq(r.out, "[(.types_changed|length), (.funcs_added|map(.name)|join(\",\")), "
			"(.protos_changed|map(.name)|join(\",\")), (.types_added[0].id > 1), "
			"(.old.base_types > 0), (.old.base_types == .new.base_types), "
			"(.types_added[0].id == .old.types + 1)] | @tsv");
	assert_string_equal(tsv, "2\tbpf_kfunc_implicit_arg_impl\tbpf_kfunc_implicit_arg,"
				 "bpf_kfunc_implicit_arg_legacy\ttrue\ttrue\ttrue\ttrue\n");
	free(tsv);
	th_run_free(&r);
	/* without the base a split BTF cannot be read: one error, one hint */
	run_cli(&r, 2, (const char *[]){ "btf2btf", "--diff", old, mod, NULL });
	assert_string_equal(r.out, "");
	assert_int_equal(th_count_lines(r.err), 2);
	assert_non_null(strstr(r.err, "btf2btf: hint: a module's .BTF is split BTF: give its base, --btf-base vmlinux"));
	th_run_free(&r);
	free(old);
	th_cleanup();
}

static void test_diff_usage(void **state)
{
	const char *o = th_fixture("basic.o");
	struct run r;

	(void)state;
	run_cli(&r, 2, (const char *[]){ "btf2btf", "--diff", o, NULL });
	th_run_free(&r);
	run_cli(&r, 2, (const char *[]){ "btf2btf", "--diff", "-T", o, o, NULL });
	th_run_free(&r);
	run_cli(&r, 2, (const char *[]){ "btf2btf", "--diff", "--btf", o, o, o, NULL });
	th_run_free(&r);
	run_cli(&r, 2, (const char *[]){ "btf2btf", "--diff", o, "/nonexistent", NULL });
	assert_string_equal(r.out, "");
	assert_non_null(strstr(r.err, "btf2btf: error: /nonexistent: "));
	th_run_free(&r);
}

/* ---- JSON of --dump and the summary: one document, stable keys ---- */

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
	run_cli(&r, 0, (const char *[]){ "btf2btf", "--dump", "-j", obj, NULL });
	assert_one_object(r.out);
	s = jq(r.out, "[(keys|join(\",\")), (.types|length), (.types[0]|keys_unsorted|join(\",\"))] | @tsv");
	want = xfmt("types\t%u\tid,kind,name,size,vlen,members\n", btf__type_cnt(btf) - 1);
	assert_string_equal(s, want);
	free(s);
	free(want);
	th_run_free(&r);
	run_cli(&r, 0, (const char *[]){ "btf2btf", "-n", "-p", obj, NULL });
	assert_one_object(r.out);
	s = jq(r.out, "keys_unsorted|join(\",\")");
	assert_string_equal(s, keys);
	free(s);
	s = jq(r.out, "[.kfuncs, .transformed, .impl_added, .changed, .written] | @tsv");
	assert_string_equal(s, "8\t5\t4\ttrue\tfalse\n");
	free(s);
	th_run_free(&r);
	/* the real run has the same keys; the second run too */
	for (int pass = 0; pass < 2; pass++) {
		run_cli(&r, 0, (const char *[]){ "btf2btf", "-j", obj, NULL });
		assert_one_object(r.out);
		s = jq(r.out, "keys_unsorted|join(\",\")");
		assert_string_equal(s, keys);
		free(s);
		s = jq(r.out, "[.changed, .written, .already_transformed] | @tsv");
		assert_string_equal(s, pass ? "false\tfalse\t5\n" : "true\ttrue\t0\n");
		free(s);
		th_run_free(&r);
	}
	btf__free(btf);
	th_cleanup();
}

/* --diff --kfuncs: kfuncs paired by name, each kind of change once. */
static void test_diff_kfuncs(void **state)
{
	static const struct tobj old_o = {
		.f = { F("bpf_gone", T_INT, T_INT), F("bpf_same", T_INT, T_INT),
		       F("bpf_wq", T_INT, T_INT, T_AUX), F("bpf_fl", T_INT, T_INT),
		       F("bpf_proto", T_INT, T_INT), F("bpf_leg_impl", T_INT, T_INT, T_VOIDP) },
		.s = { S("kf", KFS, E("bpf_gone", 0), E("bpf_same", KF_ACQUIRE), E("bpf_wq", 0)),
		       S("kf2", KFS, E("bpf_fl", KF_ACQUIRE), E("bpf_proto", 0),
			 E("bpf_leg_impl", KF_ACQUIRE)) } };
	/* bpf_leg: the kfunc that replaced OLD's placeholder-taking bpf_leg_impl */
	static const struct tobj new_o = {
		.f = { F("bpf_same", T_INT, T_INT), F("bpf_wq", T_INT, T_INT, T_AUX),
		       F("bpf_fl", T_INT, T_INT), F("bpf_proto", T_INT, T_LONG),
		       F("bpf_new", T_INT, T_VOIDP), F("bpf_leg", T_INT, T_INT, T_AUX) },
		.s = { S("kf", KFS, E("bpf_same", KF_ACQUIRE), E("bpf_wq", IMP),
			 E("bpf_fl", KF_ACQUIRE | KF_RET_NULL)),
		       S("kf2", KFS, E("bpf_proto", 0), E("bpf_new", KF_SLEEPABLE),
			 E("bpf_leg", KF_ACQUIRE | IMP)) } };
	char *o = make_obj("old.o", &old_o), *n = make_obj("new.o", &new_o), *tsv;
	struct run r;

	(void)state;
	run_cli(&r, 1, (const char *[]){ "btf2btf", "--diff", "--kfuncs", o, n, NULL });
	assert_non_null(strstr(r.out, "kfuncs added: 2\n+int bpf_leg(int a0)  KF_ACQUIRE|KF_IMPLICIT_ARGS\n"
				      "+int bpf_new(void *a0)  KF_SLEEPABLE\n"));
	assert_non_null(strstr(r.out, "kfuncs removed: 2\n-int bpf_gone(int a0)  -\n"
				      "-int bpf_leg_impl(int a0, void *a1)  KF_ACQUIRE\n"));
	assert_non_null(strstr(r.out, "moved to KF_IMPLICIT_ARGS (an _impl has the kernel prototype): 2\n"
				      " bpf_leg: BPF sees int bpf_leg(int a0)"
				      " (called int bpf_leg_impl(int a0, void *a1) before)\n"
				      " bpf_wq: BPF sees int bpf_wq(int a0)\n"));
	assert_non_null(strstr(r.out, "flags changed: 2\n bpf_fl: KF_ACQUIRE -> KF_ACQUIRE|KF_RET_NULL\n"
				      " bpf_wq: - -> KF_IMPLICIT_ARGS\n"));
	/* bpf_wq's reduced prototype is what BPF sees now: changed too */
	assert_non_null(strstr(r.out, "prototypes BPF sees changed: 2\n-int bpf_proto(int a0)\n"
				      "+int bpf_proto(long a0)\n"));
	assert_null(strstr(r.out, "bpf_same"));
	th_run_free(&r);
	/* the same in JSON, either order of the options */
	run_cli(&r, 1, (const char *[]){ "btf2btf", "--kfuncs", "--diff", "-j", o, n, NULL });
	tsv = jq(r.out, "[(.added|map(.name)|join(\",\")), (.removed|map(.name)|join(\",\")), "
			"(.moved_to_implicit_args|map(.name + \":\" + (.old_name // \"\"))|join(\",\")), "
			"(.moved_to_implicit_args[1].new.proto), (.flags_changed|length), "
			"(.protos_changed|length), .old.kfuncs, .new.kfuncs] | @tsv");
	assert_string_equal(tsv, "bpf_leg,bpf_new\tbpf_gone,bpf_leg_impl\tbpf_leg:bpf_leg_impl,bpf_wq:\t"
			    "int bpf_wq(int a0)\t2\t2\t6\t6\n");
	free(tsv);
	th_run_free(&r);
	/* a kfunc diff of an object with itself: nothing */
	run_cli(&r, 0, (const char *[]){ "btf2btf", "--diff", "--kfuncs", o, o, NULL });
	assert_non_null(strstr(r.out, "kfuncs added: 0\nkfuncs removed: 0\n"));
	th_run_free(&r);
	free(o);
	free(n);
	th_cleanup();
}

int main(void)
{
	struct CMUnitTest tests[64] = {
		cmocka_unit_test(test_kfuncs_gcc),
		cmocka_unit_test(test_kfuncs_clang),
		cmocka_unit_test(test_kfuncs_resolved_same),
		cmocka_unit_test(test_kfuncs_flags_and_tag_only),
		cmocka_unit_test(test_flags_one_spelling),
		cmocka_unit_test(test_kfuncs_split),
		cmocka_unit_test(test_kfuncs_conflict),
		cmocka_unit_test(test_diff_gcc),
		cmocka_unit_test(test_diff_clang),
		cmocka_unit_test(test_diff_sorted_gcc),
		cmocka_unit_test(test_diff_sorted_clang),
		cmocka_unit_test(test_diff_anon),
		cmocka_unit_test(test_diff_split),
		cmocka_unit_test(test_diff_kfuncs),
		cmocka_unit_test(test_diff_usage),
		cmocka_unit_test(test_json_dump_and_summary),
		cmocka_unit_test(test_cproto_shapes),
		cmocka_unit_test(test_cproto_matches_btf_dump),
		cmocka_unit_test(test_lib_lenient_and_entries),
		cmocka_unit_test(test_lib_names_follow_the_result),
		cmocka_unit_test(test_lib_entries_resolved),
		cmocka_unit_test(test_lib_implicit_arg),
		cmocka_unit_test(test_lint_rules_covered),
		cmocka_unit_test(test_lint_fixtures),
		cmocka_unit_test(test_lint_malformed),
		cmocka_unit_test(test_lint_zoo),
	};
	size_t n = 0;

	while (tests[n].test_func)	/* the ones above; the lint cases follow */
		n++;
	for (size_t i = 0; i < sizeof(lint_cases) / sizeof(lint_cases[0]) && n < 64; i++, n++) {
		tests[n].name = lint_cases[i].test;
		tests[n].test_func = test_lint_case;
		tests[n].initial_state = (void *)&lint_cases[i];
	}
	return _cmocka_run_group_tests("test_inspect", tests, n, NULL, NULL);
}
