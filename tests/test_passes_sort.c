// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The sort by name (passes/btf_sort.c): order, references remapped, only a
 * split BTF's own part, a fixed point with the kfunc table remapped, big
 * endian BTF, this machine's vmlinux; the kfunc view before the transform;
 * resolved .BTF_ids refused.
 */
#include <bpf/btf.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "builder.h"
#include "helpers.h"
#include "passes.h"

/* ---- sort ---- */

static void test_sort_order_and_refs(void **state)
{
	struct btf *in = unsorted_btf(), *out;
	struct b2b_pass_out o, again;
	size_t size;
	const void *raw = pt_raw_of(in, &size);

	(void)state;
	assert_int_equal(b2b_sort_by_name(raw, size, NULL, &o), 0);
	assert_non_null(o.data);
	out = pt_parse_raw(o.data, o.size, NULL);
	assert_int_equal(btf__type_cnt(out), btf__type_cnt(in));
	assert_sorted(out, o.map, o.nr_map);
	/* every type keeps its meaning, references included, through the map */
	pt_assert_mapped_same(in, out, o.map, 1, btf__type_cnt(in), 1);
	pt_assert_same_types(in, out);
	/* anonymous types first: the enum, the proto, the pointer... */
	assert_int_equal(btf__type_by_id(out, 1)->name_off, 0);
	/* decl tags follow their FUNC: bpf_a's tags point at bpf_a */
	for (__u32 id = 1; id < btf__type_cnt(out); id++) {
		const struct btf_type *t = btf__type_by_id(out, id);

		if (btf_is_decl_tag(t) && btf_decl_tag(t)->component_idx == 0)
			assert_string_equal(btf__name_by_offset(out, btf__type_by_id(out, t->type)->name_off), "bpf_a");
	}
	/* sorted again: unchanged */
	assert_int_equal(b2b_sort_by_name(o.data, o.size, NULL, &again), 0);
	assert_null(again.data);
	assert_null(again.map);
	btf__free(out);
	b2b_pass_out_free(&o);
	btf__free(in);
}

/*
 * Runs of one 8-byte prefix far longer than the radix sort's cut-over to
 * qsort(): 6,000 names sharing 16 and 24 bytes, in a scrambled order,
 * equal names among them, and names ending on a chunk boundary (a prefix
 * of longer ones): the sort takes the names 8 bytes at a time and must
 * still give strcmp order with ties in id order. Equal names come dense
 * (put in id order through a bitmap) and sparse (one name every 400th of
 * 40,000 types: radix passes over the ids' bytes).
 */
static void test_sort_long_shared_prefixes(void **state)
{
	struct btf *in = btf__new_empty(), *out;
	struct b2b_pass_out o;
	size_t size;
	const void *raw;
	int i_int;

	(void)state;
	i_int = btf__add_int(in, "int", 4, BTF_INT_SIGNED);
	for (int i = 0; i < 6000; i++) {
		unsigned int k = (i * 7919u) % 6000;	/* scrambled, every k once */
		char name[64];

		if (k % 5 == 0)
			snprintf(name, sizeof(name), "bpf_synth_kfunc_");	/* 16 bytes: a boundary */
		else if (k % 3 == 0)
			snprintf(name, sizeof(name), "bpf_synth_kfunc_common_%u", k % 7);
		else
			snprintf(name, sizeof(name), "bpf_synth_kfunc_%05u", k);
		assert_true(btf__add_typedef(in, name, i_int) > 0);
	}
	for (int i = 0; i < 40000; i++) {
		char name[64];

		if (i % 400 == 7)
			snprintf(name, sizeof(name), "sparse");
		else
			snprintf(name, sizeof(name), "sparse_%05u", (i * 7919u) % 40000);
		assert_true(btf__add_typedef(in, name, i_int) > 0);
	}
	raw = pt_raw_of(in, &size);
	assert_int_equal(b2b_sort_by_name(raw, size, NULL, &o), 0);
	assert_non_null(o.data);
	out = pt_parse_raw(o.data, o.size, NULL);
	assert_int_equal(btf__type_cnt(out), btf__type_cnt(in));
	assert_sorted(out, o.map, o.nr_map);
	pt_assert_same_types(in, out);
	btf__free(out);
	b2b_pass_out_free(&o);
	btf__free(in);
}

static void test_sort_split_only_split_part(void **state)
{
	const char *base = th_fixture("split.o");
	struct btf *bbtf = th_parse(base, NULL), *mbtf = th_parse(th_fixture("split.o.ko"), bbtf);
	__u32 start = btf__type_cnt(bbtf);
	struct b2b_pass_out o;
	struct btf *out;
	size_t size;
	const void *raw = pt_raw_of(mbtf, &size);

	(void)state;
	assert_int_equal(ON_MODEL(bbtf, b2b_sort_by_name(raw, size, m, &o)), 0);
	assert_non_null(o.data);
	for (__u32 i = 0; i < start; i++)
		assert_int_equal(o.map[i], i);	/* base ids never move */
	out = pt_parse_raw(o.data, o.size, bbtf);
	assert_sorted(out, o.map, o.nr_map);
	pt_assert_same_types(mbtf, out);
	btf__free(out);
	b2b_pass_out_free(&o);
	btf__free(mbtf);
	btf__free(bbtf);
}

/* Through the library: sorted output written and run again is byte-identical,
 * and the kfunc table points at the same FUNCs by name. */
static void test_sort_idempotent_and_kfuncs_remapped(void **state)
{
	const char *path = th_copy_fixture("kfuncs.gcc.o", "obj.o");
	const char *out1 = th_path("out1.btf"), *out2 = th_path("out2.btf");
	BTF2BTF_OPTS(o, .features = ALL_POST);
	struct btf2btf *b = th_open(path, &o);
	const struct btf *btf;

	(void)state;
	assert_int_equal(btf2btf__transform(b), 0);
	assert_true(btf2btf__changed(b));
	btf = btf2btf__btf(b);
	assert_non_null(btf);
	assert_sorted(btf, NULL, 0);
	for (size_t i = 0; i < btf2btf__kfunc_cnt(b); i++) {
		const struct btf2btf_kfunc *k = btf2btf__kfunc(b, i);
		const struct btf_type *t = btf__type_by_id(btf, k->btf_id);
		char impl[512];

		assert_true(btf_is_func(t));
		assert_string_equal(btf__name_by_offset(btf, t->name_off), k->name);
		if (i)
			assert_true(btf2btf__kfunc(b, i - 1)->btf_id < k->btf_id);
		if (!k->impl_id)
			continue;
		snprintf(impl, sizeof(impl), "%s_impl", k->name);
		t = btf__type_by_id(btf, k->impl_id);
		assert_string_equal(btf__name_by_offset(btf, t->name_off), impl);
	}
	assert_int_equal(btf2btf__write_raw(b, out1), 0);
	btf2btf__close(b);

	/* the written ELF, run again: nothing left to change */
	b = th_open(path, &o);
	assert_int_equal(btf2btf__transform(b), 0);
	assert_int_equal(btf2btf__write_elf(b), 0);
	btf2btf__close(b);
	b = th_open(path, &o);
	assert_int_equal(btf2btf__transform(b), 0);
	assert_false(btf2btf__changed(b));
	assert_int_equal(btf2btf__write_raw(b, out2), 0);
	btf2btf__close(b);
	assert_true(th_same_file(out1, out2));
	th_cleanup();
}

/* The kfunc table asked for before the transform (as -vv asks) is the one
 * the transform updates: the same pointers, re-sorted by the new ids, every
 * field as in a table asked for after the transform. Returns
 * how many entries the sort moved. */
static size_t check_kfunc_view_before_transform(const char *fixture)
{
	const char *path = th_copy_fixture(fixture, "obj.o");
	BTF2BTF_OPTS(o, .features = ALL_POST);
	struct btf2btf *early = th_open(path, &o), *late = th_open(path, &o);
	size_t n = btf2btf__kfunc_cnt(early), moved = 0, implicit = 0, pending = 0;
	const struct btf2btf_kfunc **before = calloc(n, sizeof(*before));
	const char **names = calloc(n, sizeof(*names));

	assert_true(n > 1);
	assert_non_null(before);
	assert_non_null(names);
	for (size_t i = 0; i < n; i++) {
		before[i] = btf2btf__kfunc(early, i);
		assert_non_null(before[i]);
		names[i] = strdup(before[i]->name);	/* entry i may hold another kfunc after the re-sort */
		assert_non_null(names[i]);
		pending += before[i]->planned != before[i]->state;
	}
	assert_true(pending > 0);	/* states the transform changes */
	assert_null(btf2btf__kfunc(early, n));
	assert_int_equal(btf2btf__transform(early), 0);
	assert_int_equal(btf2btf__transform(late), 0);
	assert_int_equal(btf2btf__kfunc_cnt(late), n);
	for (size_t i = 0; i < n; i++) {
		const struct btf2btf_kfunc *x = btf2btf__kfunc(early, i), *y = btf2btf__kfunc(late, i);

		assert_ptr_equal(x, before[i]);
		moved += strcmp(x->name, names[i]) != 0;
		assert_string_equal(x->name, y->name);
		assert_int_equal(x->btf_id, y->btf_id);
		assert_int_equal(x->flags, y->flags);
		assert_int_equal(x->found_by, y->found_by);
		assert_string_equal(x->sets, y->sets);
		assert_int_equal(x->state, y->state);
		assert_int_equal(x->state, x->planned);
		assert_int_equal(x->orig_proto_id, y->orig_proto_id);
		assert_int_equal(x->impl_id, y->impl_id);
		assert_int_equal(x->planned, y->planned);
		assert_int_equal(x->actions, y->actions);
		assert_int_equal(x->reduced_params, y->reduced_params);
		assert_int_equal(x->arena_args, y->arena_args);
		assert_int_equal(x->problems, y->problems);
		assert_int_equal(x->implicit_arg, y->implicit_arg);
		assert_int_equal(!x->impl_name, !y->impl_name);
		if (x->impl_name) {
			assert_string_equal(x->impl_name, y->impl_name);
			implicit++;
		}
	}
	assert_true(implicit > 0);
	for (size_t i = 0; i < n; i++)
		free((char *)names[i]);
	free(before);
	free(names);
	btf2btf__close(early);
	btf2btf__close(late);
	th_cleanup();
	return moved;
}

/* basic.o, written by the fixture builder, has bpf_kfunc_plain_aux before
 * bpf_kfunc_noflags: the name sort moves kfuncs whatever the toolchain, and
 * the view follows. A compiler's object may already be in name order (pahole
 * 1.30 and 1.32 emit functions sorted by name, 1.24 in DWARF order), so there
 * nothing need move. */
static void test_kfunc_view_before_transform(void **state)
{
	(void)state;
	assert_true(check_kfunc_view_before_transform("basic.o") > 0);
	check_kfunc_view_before_transform("kfuncs.gcc.o");
}

/* A big-endian object: the passes run on native bytes, the output keeps
 * the object's byte order and holds the types the little-endian twin gets. */
static void test_sort_big_endian(void **state)
{
	const char *be = th_path("be.btf"), *le = th_path("le.btf");
	BTF2BTF_OPTS(o, .features = ALL_POST);
	struct btf2btf *b;
	struct btf *bb, *lb;
	unsigned char *raw;
	size_t size;

	(void)state;
	b = th_open(th_fixture("basic-be.o"), &o);
	assert_int_equal(btf2btf__transform(b), 0);
	assert_int_equal(btf2btf__write_raw(b, be), 0);
	btf2btf__close(b);
	b = th_open(th_fixture("basic.o"), &o);
	assert_int_equal(btf2btf__transform(b), 0);
	assert_int_equal(btf2btf__write_raw(b, le), 0);
	btf2btf__close(b);
	raw = th_read(be, &size);
	assert_true(size > 2 && raw[0] == 0xeb && raw[1] == 0x9f);
	free(raw);
	bb = btf__parse_raw(be);
	lb = btf__parse_raw(le);
	assert_non_null(bb);
	assert_non_null(lb);
	assert_sorted(bb, NULL, 0);
	pt_assert_same_types(bb, lb);
	btf__free(bb);
	btf__free(lb);
	th_cleanup();
}

static void test_resolved_btf_ids_refused(void **state)
{
	const char *path = th_copy_fixture("basic-resolved.o", "obj.o");
	BTF2BTF_OPTS(o, .features = ALL_POST);
	struct btf2btf *b = th_open(path, &o);

	(void)state;
	assert_int_equal(btf2btf__transform(b), -EINVAL);
	assert_non_null(strstr(th_log_errors, "resolved already"));
	assert_false(btf2btf__changed(b));
	btf2btf__close(b);
	th_cleanup();
}

static void test_sort_sys_vmlinux(void **state)
{
	struct btf *btf = th_sys_vmlinux(), *out;
	struct b2b_pass_out o, again;
	size_t size;
	const void *raw;

	(void)state;
	raw = pt_raw_of(btf, &size);
	assert_int_equal(b2b_sort_by_name(raw, size, NULL, &o), 0);
	assert_non_null(o.data);
	out = pt_parse_raw(o.data, o.size, NULL);
	assert_sorted(out, o.map, o.nr_map);
	pt_assert_mapped_same(btf, out, o.map, 1, btf__type_cnt(btf), 97);
	assert_int_equal(b2b_sort_by_name(o.data, o.size, NULL, &again), 0);
	assert_null(again.data);
	btf__free(out);
	b2b_pass_out_free(&o);
	btf__free(btf);
}


int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sort_order_and_refs),
		cmocka_unit_test(test_sort_long_shared_prefixes),
		cmocka_unit_test(test_sort_split_only_split_part),
		cmocka_unit_test(test_sort_idempotent_and_kfuncs_remapped),
		cmocka_unit_test(test_kfunc_view_before_transform),
		cmocka_unit_test(test_sort_big_endian),
		cmocka_unit_test(test_resolved_btf_ids_refused),
		cmocka_unit_test(test_sort_sys_vmlinux),
	};

	return cmocka_run_group_tests_name("test_passes_sort", tests, NULL, NULL);
}
