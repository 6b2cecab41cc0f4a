// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Objects of the kernels users run, whatever their era: 6.0-6.8 set8s
 * without BTF_SET8_KFUNCS (kfunc sets by their struct btf_kfunc_id_set, fmod_ret
 * allow-lists left out), kernels before 6.0 refused, what a stripped object or
 * one without .BTF_ids says. Fixtures: fixtures/src/kfuncs_legacy.c built with
 * the vermagic of 6.1, of 5.15 and none (fixtures/fixtures.mk).
 */
#include <bpf/btf.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "builder.h"
#include "helpers.h"

#define KF_ACQUIRE	(1U << 0)
#define KF_RELEASE	(1U << 1)
#define KF_RET_NULL	(1U << 2)
#define KF_TRUSTED_ARGS	(1U << 4)

static void run_ok(struct run *r, const char *const *argv)
{
	th_run(r, argv);
	if (r->status)
		fail_msg("%s exited %d: %s", argv[0], r->status, r->err);
}

static size_t count(const char *s, const char *what)
{
	size_t n = 0;

	for (; (s = strstr(s, what)); s += strlen(what))
		n++;
	return n;
}

/* 6.1: the set8 registered by register_btf_kfunc_id_set() makes kfuncs, with
 * their flags; the fmod_ret list and the set8 nothing registers do not. */
static void test_6_1_kfunc_sets(void **state)
{
	struct btf2btf *b = th_open(th_fixture("kfuncs-6.1.gcc.o"), NULL);
	const struct btf2btf_object_info *info = btf2btf__object_info(b);
	static const struct { const char *name; uint32_t flags; } want[] = {
		{ "fx_ct_lookup", KF_ACQUIRE | KF_RET_NULL },
		{ "fx_ct_release", KF_RELEASE },
		{ "fx_ct_set_status", KF_TRUSTED_ARGS },
	};

	(void)state;
	assert_int_equal(info->kernel_version, (6 << 16) | (1 << 8));
	assert_string_equal(info->kernel_release, "6.1.0-50-cloud-amd64");
	assert_true(info->elf && info->has_btf_ids && info->has_symtab);
	assert_int_equal(info->set8s, 3);
	assert_int_equal(info->kfunc_id_sets, 1);
	assert_int_equal(info->fmodret_sets, 1);
	assert_int_equal(btf2btf__kfunc_cnt(b), 3);
	for (size_t i = 0; i < 3; i++) {
		const struct btf2btf_kfunc *k = th_kfunc_or_null(b, want[i].name);

		assert_non_null(k);
		assert_int_equal(k->found_by, BTF2BTF_FOUND_KFUNC_ID_SET);
		assert_int_equal(k->flags, want[i].flags);
		assert_string_equal(k->sets, "fx_ct_kfunc_set");
		assert_int_equal(k->actions, 0);
		assert_int_equal(k->planned, BTF2BTF_KFUNC_PLAIN);
	}
	assert_null(th_kfunc_or_null(b, "fx_update_protocol"));
	assert_null(th_kfunc_or_null(b, "fx_listed_only"));
	/* no set8-flags-ignored: their flags mean something on 6.1 */
	assert_int_equal(btf2btf__problem_cnt(b), 0);
	assert_int_equal(btf2btf__stats(b)->warnings, 0);
	btf2btf__close(b);
	th_cleanup();
}

/* The same object with no version: upstream's rule (flagged set8s only). */
static void test_unknown_version_upstream_rule(void **state)
{
	struct btf2btf *b = th_open(th_fixture("kfuncs-noversion.gcc.o"), NULL);
	const struct btf2btf_object_info *info = btf2btf__object_info(b);

	(void)state;
	assert_int_equal(info->kernel_version, 0);
	assert_int_equal(info->kfunc_id_sets + info->fmodret_sets, 0);
	assert_int_equal(btf2btf__kfunc_cnt(b), 0);
	assert_int_equal(btf2btf__problem_cnt(b), 4);
	for (size_t i = 0; i < btf2btf__problem_cnt(b); i++)
		assert_string_equal(btf2btf__problem(b, i)->rule, "set8-flags-ignored");
	btf2btf__close(b);
	th_cleanup();
}

/* The transform keeps upstream's rule: the 6.1 object transforms to the
 * same bytes as the one of unknown version, and gains no kfunc tag. */
static void test_transform_keeps_upstream_rule(void **state)
{
	BTF2BTF_OPTS(opts, .features = BTF2BTF_FEATS_ALL);
	struct btf2btf *old = th_open(th_fixture("kfuncs-6.1.gcc.o"), &opts);
	struct btf2btf *plain = th_open(th_fixture("kfuncs-noversion.gcc.o"), &opts);
	const void *a, *c;
	size_t na, nc;

	(void)state;
	assert_int_equal(btf2btf__transform(old), 0);
	assert_int_equal(btf2btf__transform(plain), 0);
	assert_int_equal(btf2btf__stats(old)->tags_added, 0);
	assert_int_equal(btf2btf__stats(old)->transformed, 0);
	assert_int_equal(btf2btf__raw_btf(old, &a, &na), 0);
	assert_int_equal(btf2btf__raw_btf(plain, &c, &nc), 0);
	assert_int_equal(na, nc);
	assert_memory_equal(a, c, na);
	btf2btf__close(old);
	btf2btf__close(plain);
	th_cleanup();
}

/* 5.x kfunc id sets are BTF_SET lists: refused, saying so. */
static void test_before_6_0_refused(void **state)
{
	BTF2BTF_OPTS(opts, .log = th_log_cb);
	struct btf2btf *b = NULL;
	struct run r;

	(void)state;
	th_log_reset();
	assert_int_equal(btf2btf__open(th_fixture("kfuncs-5.15.gcc.o"), &opts, &b), -ENOTSUP);
	assert_null(b);
	assert_non_null(strstr(th_log_errors, "Linux 5.15.0-1-amd64: kernels before 6.0 have no set8s"));
	th_run(&r, (const char *[]){ "btf2btf", "--kfuncs", th_fixture("kfuncs-5.15.gcc.o"), NULL });
	assert_int_equal(r.status, 1);
	assert_non_null(strstr(r.err, "kernels before 6.0"));
	th_run_free(&r);
	th_cleanup();
}

/* The views: 6.1's kfuncs with flags, one note, no warning, clean. */
static void test_views_6_1(void **state)
{
	const char *obj = th_fixture("kfuncs-6.1.gcc.o");
	const char *plain = th_fixture("kfuncs-noversion.gcc.o");
	struct run r;

	(void)state;
	run_ok(&r, (const char *[]){ "btf2btf", "--kfuncs", obj, NULL });
	assert_int_equal(th_count_lines(r.out), 4);	/* header + 3 */
	assert_non_null(strstr(r.out, "fx_ct_lookup"));
	assert_non_null(strstr(r.out, "KF_ACQUIRE|KF_RET_NULL"));
	assert_null(strstr(r.out, "fx_update_protocol"));
	assert_int_equal(count(r.out, " set8 "), 3);
	assert_int_equal(count(r.err, "note: "), 1);
	assert_non_null(strstr(r.err, "predates BTF_SET8_KFUNCS (6.9): 1 set8 registered by a struct btf_kfunc_id_set"));
	assert_non_null(strstr(r.err, "1 fmod_ret allow-list"));
	assert_null(strstr(r.err, "warning"));
	th_run_free(&r);

	run_ok(&r, (const char *[]){ "btf2btf", "--check", obj, NULL });
	assert_null(strstr(r.out, "warning"));
	assert_int_equal(count(r.out, ": note: Linux 6.1.0-50-cloud-amd64 predates"), 1);
	assert_int_equal(th_count_lines(r.out), 1);
	th_run_free(&r);
	run_ok(&r, (const char *[]){ "btf2btf", "--check", "-j", obj, NULL });
	assert_non_null(strstr(r.out, "\"clean\":true"));
	th_run_free(&r);

	run_ok(&r, (const char *[]){ "btf2btf", "--kfuncs", "-j", obj, NULL });
	assert_int_equal(count(r.out, "\"kfunc_id_set\""), 3);
	th_run_free(&r);

	/* what a 6.1 view finds that upstream's rule does not */
	/* they differ: exit 1, as diff(1) */
	th_run(&r, (const char *[]){ "btf2btf", "--diff", "--kfuncs", plain, obj, NULL });
	assert_int_equal(r.status, 1);
	assert_non_null(strstr(r.out, "fx_ct_lookup"));
	assert_non_null(strstr(r.out, "fx_ct_set_status"));
	assert_null(strstr(r.out, "fx_update_protocol"));
	th_run_free(&r);
	th_cleanup();
}

/* A module without .BTF_ids has no kfunc set to miss: clean, no note. A
 * stripped one (.BTF_ids, no symbol table) says what is missing. */
static void test_no_btf_ids_clean_stripped_noted(void **state)
{
	static const struct fx_entry entries[] = { { "f", KF_ACQUIRE } };
	struct fx_set8 set = { "s", BTF2BTF_SET8_KFUNCS, entries, 1 };
	const char *none = th_path("none.o"), *stripped = th_path("stripped.o");
	struct fx_btf fb;
	struct run r;

	(void)state;
	assert_int_equal(fx_btf_init(&fb, NULL), 0);
	fx_add_func(&fb, "f", fb.t_int, (int[]){ fb.t_int }, 1);
	assert_int_equal(fx_write_elf_btf(none, &(struct fx_obj){ .no_btf_ids = true }, fb.btf), 0);
	assert_int_equal(fx_write_elf_btf(stripped, &(struct fx_obj){ .sets = &set, .nr_sets = 1,
							     .no_symtab = true }, fb.btf), 0);
	btf__free(fb.btf);

	run_ok(&r, (const char *[]){ "btf2btf", "--check", "-j", none, NULL });
	assert_non_null(strstr(r.out, "\"clean\":true"));
	assert_non_null(strstr(r.out, "\"note\":null"));	/* every key is always there */
	th_run_free(&r);
	run_ok(&r, (const char *[]){ "btf2btf", "--check", none, NULL });
	assert_string_equal(r.out, "");
	th_run_free(&r);

	run_ok(&r, (const char *[]){ "btf2btf", "--check", "-j", stripped, NULL });
	assert_non_null(strstr(r.out, "\"clean\":false"));
	assert_non_null(strstr(r.out, "no symbol table (a stripped vmlinux)"));
	assert_non_null(strstr(r.out, "-dbg"));
	th_run_free(&r);
	th_cleanup();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_6_1_kfunc_sets),
		cmocka_unit_test(test_unknown_version_upstream_rule),
		cmocka_unit_test(test_transform_keeps_upstream_rule),
		cmocka_unit_test(test_before_6_0_refused),
		cmocka_unit_test(test_views_6_1),
		cmocka_unit_test(test_no_btf_ids_clean_stripped_noted),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
