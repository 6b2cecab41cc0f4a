// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * --kfuncs: the table in text and in JSON (parsed back with jq, field by
 * field, and against the text), flags by name, a module on its base, a
 * set8 conflict shown.
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
	char *key = vt_fmt("%s(", name), *s;
	const char *at = strstr(proto, key);	/* C23's strstr keeps proto's const */

	assert_non_null(at);
	s = vt_fmt("%.*s%s_impl%s", (int)(at - proto), proto, name, at + strlen(name));
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
		char *proto = vt_fmt(w->proto, longname), *want_proto, *impl, *idstr;
		int id = th_find(btf, w->name, BTF_KIND_FUNC), impl_id = 0;

		for (size_t k = 0; k < n; k++)
			if (!strcmp(rows[k].col[1], w->name))
				r = &rows[k];
		if (!r)
			fail_msg("no row for %s", w->name);
		idstr = vt_fmt("%d", id);
		assert_string_equal(r->col[0], idstr);
		assert_string_equal(r->col[2], found);
		assert_string_equal(r->col[3], "test_kfunc_ids");
		assert_string_equal(r->col[4], w->flags);
		if (w->implicit) {
			char *iname = vt_fmt("%s_impl", w->name);

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
			impl = impl_id ? vt_fmt("%d%s", impl_id,
					      w->legacy && v != TRANSFORMED_FILE ? " legacy" : "")
				       : vt_strdup("new");
			assert_string_equal(r->col[6], impl);
			free(impl);
			/* after the transform the kernel's prototype is _impl's */
			want_proto = v == BEFORE ? vt_strdup(proto) : impl_named(proto, w->name);
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

	vt_assert_one_object(json);
	head = vt_jq(json, "[.file, .after_transform, (.kfuncs|length), (keys|join(\",\"))] | @tsv");
	{
		char *want = vt_fmt("%s\t%s\t%zu\tafter_transform,file,kfuncs\n", file,
				  after ? "true" : "false", n);

		assert_string_equal(head, want);
		free(want);
	}
	free(head);
	/* stable keys, in a stable order */
	head = vt_jq(json, "[.kfuncs[] | keys_unsorted | join(\",\")] | unique | .[]");
	assert_string_equal(head, "id,name,found_by,sets,flags,flag_names,implicit_args,state,"
				  "planned,actions,reduced_params,problems,type_id,proto,bpf_proto,implicit_arg,impl_id,impl_name,impl_legacy\n");
	free(head);
	tsv = vt_jq(json, ".kfuncs[] | [.id, .name, (.found_by | if . == [\"decl_tag\", \"set8\"] "
		       "then \"both\" elif . == [\"decl_tag\"] then \"tag\" elif . == [\"set8\"] "
		       "then \"set8\" else \"-\" end), (if .sets == [] then \"-\" else .sets|join(\",\") end), "
		       "(if .flag_names == [] then \"-\" else .flag_names|join(\"|\") end), .state, "
		       "(if .implicit_args | not then \"-\" elif .impl_id == null then \"new\" "
		       "elif .impl_legacy then \"\\(.impl_id) legacy\" else \"\\(.impl_id)\" end), "
		       ".proto, .bpf_proto, .flags, .implicit_args, (.impl_name // \"-\"), "
		       "(.implicit_arg // \"-\")] | @tsv");
	nl = vt_split_lines(tsv, lines, 64);
	assert_int_equal(nl, n);
	for (size_t i = 0; i < nl; i++) {
		unsigned long flags;
		char *end;

		assert_int_equal(vt_split_tabs(lines[i], f, 16), 13);
		for (int c = 0; c < 8; c++)
			assert_string_equal(f[c], rows[i].col[c]);
		assert_string_equal(f[8], rows[i].bpf);
		flags = strtoul(f[9], &end, 10);
		assert_true(!*end);
		/* flags and flag_names agree */
		assert_int_equal(!!(flags & IMP), !strcmp(f[10], "true"));
		assert_int_equal(flags == 0, !strcmp(rows[i].col[4], "-"));
		if (!strcmp(f[10], "true")) {
			char *iname = vt_fmt("%s_impl", rows[i].col[1]);

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
	char *copy = vt_strdup(th_path("k2.o"));
	struct krow rows[16] = { 0 }, rows2[16] = { 0 };
	struct btf *before, *after;
	struct run r, j, x;
	size_t n;

	before = th_parse(obj, NULL);
	vt_run_cli(&r, 0, (const char *[]){ "btf2btf", "--kfuncs", obj, NULL });
	/* the plan's problems, counted in one line (--check lists them) */
	assert_int_equal(th_count_lines(r.err), 1);
	assert_non_null(strstr(r.err, "warning: "));
	assert_non_null(strstr(r.err, ": 3 problems in the kfunc declarations (--check lists them)"));
	n = vt_parse_kfuncs(r.out, rows, 16);
	check_kfunc_rows(rows, n, before, found, longname, BEFORE);
	vt_run_cli(&j, 0, (const char *[]){ "btf2btf", "--kfuncs", "-j", obj, NULL });
	check_kfunc_json(j.out, obj, false, rows, n);
	th_run_free(&j);
	vt_run_cli(&j, 0, (const char *[]){ "btf2btf", "--kfuncs", "-p", obj, NULL });
	assert_true(th_count_lines(j.out) > 100);
	check_kfunc_json(j.out, obj, false, rows, n);
	th_run_free(&j);
	vt_free_rows(rows, n);
	th_run_free(&r);

	/* -T shows what the transform makes of it, without writing */
	th_copy(obj, copy);
	vt_run_cli(&x, 0, (const char *[]){ "btf2btf", "-q", copy, NULL });
	th_run_free(&x);
	after = th_parse(copy, NULL);
	vt_run_cli(&r, 0, (const char *[]){ "btf2btf", "--kfuncs", "-T", obj, NULL });
	assert_true(th_same_file(obj, th_fixture(fixture)));
	n = vt_parse_kfuncs(r.out, rows, 16);
	check_kfunc_rows(rows, n, after, found, longname, AFTER_T);
	vt_run_cli(&j, 0, (const char *[]){ "btf2btf", "--kfuncs", "-T", "-j", obj, NULL });
	check_kfunc_json(j.out, obj, true, rows, n);
	th_run_free(&j);
	vt_free_rows(rows, n);
	th_run_free(&r);

	/* the transformed file: recognised as such, with or without -T */
	vt_run_cli(&r, 0, (const char *[]){ "btf2btf", "--kfuncs", copy, NULL });
	n = vt_parse_kfuncs(r.out, rows, 16);
	check_kfunc_rows(rows, n, after, found, longname, TRANSFORMED_FILE);
	vt_run_cli(&j, 0, (const char *[]){ "btf2btf", "--kfuncs", "-T", copy, NULL });
	assert_int_equal(vt_parse_kfuncs(j.out, rows2, 16), n);
	for (size_t i = 0; i < n; i++)
		for (int c = 0; c < 8; c++)
			assert_string_equal(rows[i].col[c], rows2[i].col[c]);
	vt_free_rows(rows, n);
	vt_free_rows(rows2, n);
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
	vt_run_cli(&a, 0, (const char *[]){ "btf2btf", "--kfuncs", th_fixture("basic.o"), NULL });
	vt_run_cli(&b, 0, (const char *[]){ "btf2btf", "--kfuncs", th_fixture("basic-resolved.o"), NULL });
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
	char *obj = vt_make_obj("flags.o", &o);
	struct krow rows[4] = { 0 };
	struct run r;
	char *tsv;

	(void)state;
	vt_run_cli(&r, 0, (const char *[]){ "btf2btf", "--kfuncs", obj, NULL });
	assert_int_equal(vt_parse_kfuncs(r.out, rows, 4), 3);
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
	vt_free_rows(rows, 3);
	th_run_free(&r);
	vt_run_cli(&r, 0, (const char *[]){ "btf2btf", "--kfuncs", "-j", obj, NULL });
	tsv = vt_jq(r.out, ".kfuncs[] | [.name, .flags, (.flag_names|join(\",\")), "
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
	char *obj = vt_make_obj("none.o", &o);
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

	vt_run_cli(&r, 1, (const char *[]){ "btf2btf", "--check", obj, NULL });
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
	vt_run_cli(&r, 0, (const char *[]){ "btf2btf", "--kfuncs", "--btf-base", base,
					 th_fixture("split.o.ko"), NULL });
	n = vt_parse_kfuncs(r.out, rows, 8);
	assert_int_equal(n, 4);
	assert_string_equal(rows[0].col[1], "bpf_kfunc_implicit_arg");
	assert_string_equal(rows[0].col[6], "new");
	assert_string_equal(rows[0].bpf, "int bpf_kfunc_implicit_arg(int a0)");
	assert_string_equal(rows[1].col[1], "bpf_kfunc_implicit_arg_legacy");
	assert_non_null(strstr(rows[1].col[6], " legacy"));
	assert_string_equal(rows[3].col[1], "bpf_testmod_plain");
	for (size_t i = 0; i < n; i++)
		assert_true(atoi(rows[i].col[0]) > 0);
	vt_free_rows(rows, n);
	th_run_free(&r);
	/* the base itself */
	vt_run_cli(&r, 0, (const char *[]){ "btf2btf", "--kfuncs", base, NULL });
	assert_int_equal(th_count_lines(r.out), 3);
	assert_non_null(strstr(r.out, "bpf_wq_set_callback"));
	th_run_free(&r);
}

/* A set8 conflict is shown by --kfuncs (the transform, -T, refuses it). */
static void test_kfuncs_conflict(void **state)
{
	char *obj = vt_make_obj("c.o", &lint_cases[6].o);
	struct run r;

	(void)state;
	vt_run_cli(&r, 0, (const char *[]){ "btf2btf", "--kfuncs", obj, NULL });
	assert_non_null(strstr(r.out, "bpf_c"));
	assert_non_null(strstr(r.err, "warning: "));
	th_run_free(&r);
	vt_run_cli(&r, 1, (const char *[]){ "btf2btf", "--kfuncs", "-T", obj, NULL });
	assert_string_equal(r.out, "");
	assert_non_null(strstr(r.err, "btf2btf: error: "));
	th_run_free(&r);
	free(obj);
	th_cleanup();
}


int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kfuncs_gcc),
		cmocka_unit_test(test_kfuncs_clang),
		cmocka_unit_test(test_kfuncs_resolved_same),
		cmocka_unit_test(test_kfuncs_flags_and_tag_only),
		cmocka_unit_test(test_flags_one_spelling),
		cmocka_unit_test(test_kfuncs_split),
		cmocka_unit_test(test_kfuncs_conflict),
	};

	return cmocka_run_group_tests_name("test_view_kfuncs", tests, NULL, NULL);
}
