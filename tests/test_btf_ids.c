// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* .BTF_ids: symbol names, set8 ranges and their edges, flags words, byte order. */
#include <bpf/btf.h>
#include <errno.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>

#include "input/btf_ids.h"
#include "builder.h"
#include "helpers.h"
#include "recipes.h"

#define KF_ACQUIRE (1U << 0)
#define KF_SLEEPABLE (1U << 5)

static void test_func_symbol_names(void **state)
{
	char buf[64];

	(void)state;
	assert_int_equal(b2b_btf_id_func_name("__BTF_ID__func__bpf_foo__68711710", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "bpf_foo");
	/* "__" inside the name: only the last one separates the counter */
	assert_int_equal(b2b_btf_id_func_name("__BTF_ID__func__bpf__x__y__12", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "bpf__x__y");
	assert_int_equal(b2b_btf_id_func_name("__BTF_ID__func__foo___3", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "foo_");
	assert_int_equal(b2b_btf_id_func_name("__BTF_ID__func__foo__12a", buf, sizeof(buf)), -EINVAL);
	assert_int_equal(b2b_btf_id_func_name("__BTF_ID__func__foo", buf, sizeof(buf)), -EINVAL);
	assert_int_equal(b2b_btf_id_func_name("__BTF_ID__func____12", buf, sizeof(buf)), -EINVAL);
	assert_int_equal(b2b_btf_id_func_name("__BTF_ID__struct__foo__1", buf, sizeof(buf)), -EINVAL);
	assert_int_equal(b2b_btf_id_func_name("__BTF_ID__func__abcdefgh__1", buf, 4), -ENAMETOOLONG);
}

/* A set8 of three functions followed by a BTF_ID list entry right at its end. */
static const char *edge_object(const struct fx_sym *extra, size_t nr_extra, bool *ok)
{
	static const struct fx_entry entries[] = {
		{ "first", KF_ACQUIRE }, { "middle", 0 }, { "last", KF_SLEEPABLE },
	};
	static const char *const list[] = { "after" };
	struct fx_set8 set = { "edges", 1, entries, 3 };
	struct fx_obj o = { .sets = &set, .nr_sets = 1, .list_funcs = list, .nr_list = 1,
			    .extra_syms = extra, .nr_extra_syms = nr_extra };
	const char *path = th_path("edges.o");
	struct fx_btf b;

	assert_int_equal(fx_btf_init(&b, NULL), 0);
	fx_add_func(&b, "first", b.t_int, (int[]){ b.t_int }, 1);
	fx_add_func(&b, "middle", b.t_int, (int[]){ b.t_int }, 1);
	fx_add_func(&b, "last", b.t_int, (int[]){ b.t_int }, 1);
	fx_add_func(&b, "after", b.t_int, (int[]){ b.t_int }, 1);
	*ok = fx_write_elf_btf(path, &o, b.btf) == 0;
	btf__free(b.btf);
	return path;
}

static void test_set8_range_edges(void **state)
{
	const struct btf2btf_kfunc *k;
	struct btf2btf *b;
	bool ok;
	const char *path = edge_object(NULL, 0, &ok);

	(void)state;
	assert_true(ok);
	b = th_open(path, NULL);
	/* first pair at header + 8, last at header + size - 8: both in */
	assert_int_equal(btf2btf__kfunc_cnt(b), 3);
	k = th_kfunc_or_null(b, "first");
	assert_non_null(k);
	assert_int_equal(k->flags, KF_ACQUIRE);
	assert_string_equal(k->sets, "edges");
	k = th_kfunc_or_null(b, "last");
	assert_non_null(k);
	assert_int_equal(k->flags, KF_SLEEPABLE);
	/* the symbol at header + size belongs to the list after the set: out */
	assert_null(th_kfunc_or_null(b, "after"));
	btf2btf__close(b);
	th_cleanup();
}

static void expect_open_error(const char *path, const char *needle)
{
	BTF2BTF_OPTS(o, .log = th_log_cb);
	struct btf2btf *b = NULL;

	th_log_reset();
	assert_int_not_equal(btf2btf__open(path, &o, &b), 0);
	assert_null(b);
	assert_int_equal(th_log_error_count, 1);
	assert_non_null(strstr(th_log_errors, path));
	if (!strstr(th_log_errors, needle))
		fail_msg("expected '%s' in: %s", needle, th_log_errors);
}

static void test_entry_on_set8_header_rejected(void **state)
{
	/* a func symbol on the flags word of the header is not on a pair */
	struct fx_sym bad = { "__BTF_ID__func__middle__77", 4, 4 };
	bool ok;
	const char *path = edge_object(&bad, 1, &ok);

	(void)state;
	assert_true(ok);
	expect_open_error(path, "is not on a pair of set8 edges");
	th_cleanup();
}

static void test_entry_misaligned_rejected(void **state)
{
	struct fx_sym bad = { "__BTF_ID__func__middle__78", 12, 4 };
	bool ok;
	const char *path = edge_object(&bad, 1, &ok);

	(void)state;
	assert_true(ok);
	expect_open_error(path, "is not on a pair");
	th_cleanup();
}

static void test_set8_cnt_must_match_size(void **state)
{
	static const struct fx_entry entries[] = { { "f", 0 } };
	struct fx_set8 set = { "s", 1, entries, 1, 0, 5 };
	struct fx_obj o = { .sets = &set, .nr_sets = 1 };
	const char *path = th_path("cnt.o");
	struct fx_btf b;

	(void)state;
	assert_int_equal(fx_btf_init(&b, NULL), 0);
	fx_add_func(&b, "f", b.t_int, (int[]){ b.t_int }, 1);
	assert_int_equal(fx_write_elf_btf(path, &o, b.btf), 0);
	btf__free(b.btf);
	expect_open_error(path, "says cnt=5 but its size holds 1 pairs");
	th_cleanup();
}

/* Compare the kfunc tables of two shapes of the "basic" fixture. */
static void assert_same_kfuncs(const char *a, const char *b)
{
	struct btf2btf *x = th_open(th_fixture(a), NULL), *y = th_open(th_fixture(b), NULL);

	assert_int_equal(btf2btf__kfunc_cnt(x), 7);
	assert_int_equal(btf2btf__kfunc_cnt(x), btf2btf__kfunc_cnt(y));
	for (size_t i = 0; i < btf2btf__kfunc_cnt(x); i++) {
		const struct btf2btf_kfunc *kx = btf2btf__kfunc(x, i), *ky = btf2btf__kfunc(y, i);

		assert_string_equal(kx->name, ky->name);
		assert_int_equal(kx->btf_id, ky->btf_id);
		assert_int_equal(kx->flags, ky->flags);
		assert_int_equal(kx->found_by, ky->found_by);
		assert_string_equal(kx->sets, ky->sets);
	}
	btf2btf__close(x);
	btf2btf__close(y);
}

static void test_resolved_pairs_read_by_id(void **state)
{
	const struct btf2btf_kfunc *k;
	struct btf2btf *b;

	(void)state;
	/* resolve_btfids sorted the pairs: symbols no longer mark their own pair */
	assert_same_kfuncs("basic.o", "basic-resolved.o");
	b = th_open(th_fixture("basic-resolved.o"), NULL);
	k = th_kfunc_or_null(b, "bpf_kfunc_implicit_mid");
	assert_non_null(k);
	assert_int_equal(k->flags, BTF2BTF_KF_IMPLICIT_ARGS | KF_SLEEPABLE);
	k = th_kfunc_or_null(b, "bpf_kfunc_noflags");
	assert_int_equal(k->flags, KF_ACQUIRE);
	btf2btf__close(b);
}

static void test_big_endian_flags(void **state)
{
	(void)state;
	/* flags words are stored in the object's byte order */
	assert_same_kfuncs("basic.o", "basic-be.o");
}

static void test_elf32(void **state)
{
	(void)state;
	assert_same_kfuncs("basic.o", "basic-elf32.o");
}

static void test_plain_set8_not_kfuncs(void **state)
{
	struct btf2btf *b = th_open(th_fixture("basic.o"), NULL);

	(void)state;
	/* helper_in_plain_set8 is in a set8 without BTF_SET8_KFUNCS */
	assert_null(th_kfunc_or_null(b, "helper_in_plain_set8"));
	assert_null(th_kfunc_or_null(b, "helper_with_aux"));
	btf2btf__close(b);
}

static void test_gcc_object_layout(void **state)
{
	struct btf2btf *b = th_open(th_fixture("kfuncs.gcc.o"), NULL);
	const struct btf2btf_stats *s = btf2btf__stats(b);

	(void)state;
	/* pahole 1.24 + gcc: no decl tags; every kfunc comes from the set8 */
	assert_int_equal(s->kfuncs, 8);
	assert_int_equal(s->by_set8, 8);
	assert_int_equal(s->by_tag + s->by_both, 0);
	assert_int_equal(s->implicit, 5);
	btf2btf__close(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_func_symbol_names),
		cmocka_unit_test(test_set8_range_edges),
		cmocka_unit_test(test_entry_on_set8_header_rejected),
		cmocka_unit_test(test_entry_misaligned_rejected),
		cmocka_unit_test(test_set8_cnt_must_match_size),
		cmocka_unit_test(test_resolved_pairs_read_by_id),
		cmocka_unit_test(test_big_endian_flags),
		cmocka_unit_test(test_elf32),
		cmocka_unit_test(test_plain_set8_not_kfuncs),
		cmocka_unit_test(test_gcc_object_layout),
	};

	return cmocka_run_group_tests_name("btf_ids", tests, NULL, NULL);
}
