// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The library accessors the views use: lenient open, set8 entries (as read
 * and resolved), names that follow the transform's result,
 * btf2btf__implicit_arg.
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

static void test_lib_lenient_and_entries(void **state)
{
	const struct lcase *c = &lint_cases[6];	/* set8-conflict */
	char *obj = vt_make_obj("conflict.o", &c->o);
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
	char *obj = vt_make_obj("names.o", &c->o);
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


int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lib_lenient_and_entries),
		cmocka_unit_test(test_lib_names_follow_the_result),
		cmocka_unit_test(test_lib_entries_resolved),
		cmocka_unit_test(test_lib_implicit_arg),
	};

	return cmocka_run_group_tests_name("test_api_accessors", tests, NULL, NULL);
}
