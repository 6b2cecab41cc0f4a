// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Post-passes: sort by name (order, remapping, fixed point), dedup (the
 * hash path against libbpf's btf__dedup() on fixtures and random BTF),
 * distilled base (libbpf parses the pair; every distilled type relocates
 * onto the real base as btf_relocate.c matches), allocation failures at
 * every allocation of the passes, malformed input.
 */
#include <bpf/btf.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "btf_post.h"
#include "internal.h"
#include "libbpf_compat.h"
#include "builder.h"
#include "helpers.h"

#define ALL_POST (BTF2BTF_FEAT_IMPLICIT_ARGS | BTF2BTF_FEAT_DEDUP | BTF2BTF_FEAT_SORT)

/* ---- a name-based canonical form of a type, for comparing BTFs ---- */

static void canon(const struct btf *btf, __u32 id, int depth, char *buf, size_t size);

static void canon_ref(const struct btf *btf, __u32 id, int depth, char *buf, size_t size)
{
	const struct btf_type *t = btf__type_by_id(btf, id);

	if (!id) {
		snprintf(buf, size, "void");
		return;
	}
	/* named types are known by kind and name; the rest by structure */
	if (t->name_off && !btf_is_func_proto(t)) {
		snprintf(buf, size, "%u:%s", btf_kind(t), btf__name_by_offset(btf, t->name_off));
		return;
	}
	canon(btf, id, depth + 1, buf, size);
}

static void canon(const struct btf *btf, __u32 id, int depth, char *buf, size_t size)
{
	const struct btf_type *t = btf__type_by_id(btf, id);
	const __u32 *w = (const __u32 *)t;
	__u32 words = b2b_type_words(t);
	size_t len;

	len = snprintf(buf, size, "(%u %s %x", btf_kind(t), btf__name_by_offset(btf, t->name_off),
		       t->info);
	for (__u32 i = 2; i < words && len < size; i++) {
		char sub[1024];

		switch (b2b_word_class(btf_kind(t), i)) {
		case B2B_W_STR:
			len += snprintf(buf + len, size - len, " '%s'",
					btf__name_by_offset(btf, w[i]));
			break;
		case B2B_W_REF:
			if (depth > 4)
				snprintf(sub, sizeof(sub), "...");
			else
				canon_ref(btf, w[i], depth, sub, sizeof(sub));
			len += snprintf(buf + len, size - len, " %s", sub);
			break;
		default:
			len += snprintf(buf + len, size - len, " %u", w[i]);
		}
	}
	if (len < size)
		snprintf(buf + len, size - len, ")");
}

/* Types [first, end) of from, every step-th, mean the same (references
 * included) as their images map[id] in to. */
static void assert_mapped_same(const struct btf *from, const struct btf *to, const __u32 *map,
			       __u32 first, __u32 end, __u32 step)
{
	for (__u32 id = first; id < end; id += step) {
		char a[4096], b[4096];

		canon(from, id, 0, a, sizeof(a));
		canon(to, map[id], 0, b, sizeof(b));
		assert_string_equal(a, b);
	}
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Sorted canonical forms of btf's own types. */
static char **canon_all(const struct btf *btf, __u32 *nr)
{
	const struct btf *base = btf__base_btf(btf);
	__u32 start = base ? btf__type_cnt(base) : 1, cnt = btf__type_cnt(btf);
	char **v = calloc(cnt, sizeof(*v)), buf[4096];

	for (__u32 id = start; id < cnt; id++) {
		canon(btf, id, 0, buf, sizeof(buf));
		v[id - start] = strdup(buf);
	}
	*nr = cnt - start;
	qsort(v, *nr, sizeof(*v), cmp_str);
	return v;
}

static void assert_same_types(const struct btf *a, const struct btf *b)
{
	__u32 na, nb;
	char **va = canon_all(a, &na), **vb = canon_all(b, &nb);

	assert_int_equal(na, nb);
	for (__u32 i = 0; i < na; i++) {
		if (strcmp(va[i], vb[i]))
			fail_msg("types differ:\n  %s\n  %s", va[i], vb[i]);
	}
	for (__u32 i = 0; i < na; i++) {
		free(va[i]);
		free(vb[i]);
	}
	free(va);
	free(vb);
}

static struct btf *parse_raw(const void *data, size_t size, const struct btf *base)
{
	struct btf *btf = b2b_btf_new(data, size, base);

	assert_non_null(btf);
	return btf;
}

/*
 * call, with m the library's model of libbpf's base (NULL when base is):
 * the passes read the model, the tests build their BTF with libbpf.
 */
#define ON_MODEL(base, call) ({						\
	const struct btf *on_base = (base);				\
	struct b2b_btf on_model;					\
	const struct b2b_btf *m = NULL;					\
	int on_ret;							\
									\
	if (on_base) {							\
		assert_int_equal(b2b_btf_of_libbpf(&on_model, on_base), 0); \
		m = &on_model;						\
	}								\
	on_ret = (call);						\
	if (m)								\
		b2b_btf_free(&on_model);				\
	on_ret;								\
})

static const void *raw_of(struct btf *btf, size_t *size)
{
	__u32 sz = 0;
	const void *raw = btf__raw_data(btf, &sz);

	assert_non_null(raw);
	*size = sz;
	return raw;
}

/* ---- sort ---- */

/* Names in strcmp order, anonymous first, ties in the old id order. */
static void assert_sorted(const struct btf *btf, const __u32 *map, __u32 nr_map)
{
	const struct btf *base = btf__base_btf(btf);
	__u32 start = base ? btf__type_cnt(base) : 1;
	__u32 *old = calloc(btf__type_cnt(btf), sizeof(*old));

	for (__u32 i = start; map && i < nr_map; i++)
		old[map[i]] = i;
	for (__u32 id = start + 1; id < btf__type_cnt(btf); id++) {
		const char *p = btf__name_by_offset(btf, btf__type_by_id(btf, id - 1)->name_off);
		const char *n = btf__name_by_offset(btf, btf__type_by_id(btf, id)->name_off);
		int r = strcmp(p, n);

		if (r > 0 || (r == 0 && map && old[id - 1] > old[id]))
			fail_msg("types %u '%s' and %u '%s' out of order", id - 1, p, id, n);
	}
	free(old);
}

/* A BTF with names out of order, equal names, anonymous types and every
 * kind of reference, decl tags included. */
static struct btf *unsorted_btf(void)
{
	struct btf *btf = btf__new_empty();
	int i_int, s, p, fp, f1, f2, td, arr;

	i_int = btf__add_int(btf, "int", 4, BTF_INT_SIGNED);
	s = btf__add_struct(btf, "zeta", 16);
	btf__add_field(btf, "next", s + 1, 0, 0);	/* the pointer below */
	btf__add_field(btf, "v", i_int, 64, 0);
	p = btf__add_ptr(btf, s);
	assert_int_equal(p, s + 1);
	fp = btf__add_func_proto(btf, i_int);
	btf__add_func_param(btf, "z", p);
	f1 = btf__add_func(btf, "bpf_b", BTF_FUNC_GLOBAL, fp);
	f2 = btf__add_func(btf, "bpf_a", BTF_FUNC_GLOBAL, fp);
	btf__add_decl_tag(btf, "bpf_kfunc", f1, -1);
	btf__add_decl_tag(btf, "bpf_kfunc", f2, -1);
	btf__add_decl_tag(btf, "arg", f2, 0);
	td = btf__add_typedef(btf, "alpha_t", s);
	arr = btf__add_array(btf, i_int, td, 4);
	btf__add_var(btf, "bpf_a", BTF_VAR_GLOBAL_ALLOCATED, arr);	/* same name, other kind */
	btf__add_const(btf, p);
	btf__add_struct(btf, "zeta", 0);				/* same name again */
	btf__add_enum(btf, "", 4);
	btf__add_enum_value(btf, "E", 1);
	return btf;
}

static void test_sort_order_and_refs(void **state)
{
	struct btf *in = unsorted_btf(), *out;
	struct b2b_pass_out o, again;
	size_t size;
	const void *raw = raw_of(in, &size);

	(void)state;
	assert_int_equal(b2b_sort_by_name(raw, size, NULL, &o), 0);
	assert_non_null(o.data);
	out = parse_raw(o.data, o.size, NULL);
	assert_int_equal(btf__type_cnt(out), btf__type_cnt(in));
	assert_sorted(out, o.map, o.nr_map);
	/* every type keeps its meaning, references included, through the map */
	assert_mapped_same(in, out, o.map, 1, btf__type_cnt(in), 1);
	assert_same_types(in, out);
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
	raw = raw_of(in, &size);
	assert_int_equal(b2b_sort_by_name(raw, size, NULL, &o), 0);
	assert_non_null(o.data);
	out = parse_raw(o.data, o.size, NULL);
	assert_int_equal(btf__type_cnt(out), btf__type_cnt(in));
	assert_sorted(out, o.map, o.nr_map);
	assert_same_types(in, out);
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
	const void *raw = raw_of(mbtf, &size);

	(void)state;
	assert_int_equal(ON_MODEL(bbtf, b2b_sort_by_name(raw, size, m, &o)), 0);
	assert_non_null(o.data);
	for (__u32 i = 0; i < start; i++)
		assert_int_equal(o.map[i], i);	/* base ids never move */
	out = parse_raw(o.data, o.size, bbtf);
	assert_sorted(out, o.map, o.nr_map);
	assert_same_types(mbtf, out);
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
	assert_same_types(bb, lb);
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

/* ---- dedup ---- */

/* b2b_dedup(), *full: whether btf__dedup() decided. */
static int dedup_fast(const void *raw, size_t size, const struct b2b_btf *base, __u32 first_new,
		      struct b2b_pass_out *o, bool *full)
{
	enum b2b_dedup_way way;
	int err = b2b_dedup(raw, size, base, first_new, o, &way);

	if (full)
		*full = way == B2B_DEDUP_FULL;
	return err;
}

static void check_dedup_equivalent(const void *raw, size_t size, const struct btf *base,
				   __u32 first_new, bool expect_full)
{
	struct b2b_pass_out fast, full;
	struct btf *a, *b;
	bool went_full;

	assert_int_equal(ON_MODEL(base, dedup_fast(raw, size, m, first_new, &fast, &went_full)), 0);
	assert_int_equal(ON_MODEL(base, b2b_dedup_full(raw, size, m, &full)), 0);
	if (expect_full)
		assert_true(went_full);
	a = parse_raw(fast.data ? fast.data : raw, fast.data ? fast.size : size, base);
	b = parse_raw(full.data, full.size, base);
	assert_same_types(a, b);
	/* the maps agree on what each old type became */
	for (__u32 id = 1; fast.map && id < fast.nr_map; id++) {
		char x[4096], y[4096];

		canon(a, fast.map[id], 0, x, sizeof(x));
		canon(b, full.map[id], 0, y, sizeof(y));
		assert_string_equal(x, y);
	}
	btf__free(a);
	btf__free(b);
	b2b_pass_out_free(&fast);
	b2b_pass_out_free(&full);
}

/*
 * Whether b2b_dedup() took the fold mode; if so, what it wrote and its id
 * map are btf__dedup()'s, byte for byte.
 */
static bool check_fold_identical(const void *raw, size_t size, const struct btf *base,
				 __u32 first_new)
{
	struct b2b_pass_out o, f;
	enum b2b_dedup_way way;

	assert_int_equal(ON_MODEL(base, b2b_dedup(raw, size, m, first_new, &o, &way)), 0);
	assert_int_equal(ON_MODEL(base, b2b_dedup_full(raw, size, m, &f)), 0);
	if (way == B2B_DEDUP_FOLD) {
		assert_non_null(o.data);
		assert_int_equal(o.size, f.size);
		assert_memory_equal(o.data, f.data, f.size);
		assert_int_equal(o.nr_map, f.nr_map);
		for (__u32 id = 1; id < o.nr_map; id++)
			assert_int_equal(o.map[id], f.map[id]);
	}
	b2b_pass_out_free(&o);
	b2b_pass_out_free(&f);
	return way == B2B_DEDUP_FOLD;
}

static unsigned int rnd_state = 12345;

static unsigned int rnd(unsigned int n)
{
	rnd_state = rnd_state * 1103515245 + 12345;
	return (rnd_state >> 8) % n;
}

/* n random types of what pahole emits for functions, on the types there. */
static void add_random_types(struct btf *btf, int n)
{
	int ints[3];

	ints[0] = btf__add_int(btf, "int", 4, BTF_INT_SIGNED);
	ints[1] = btf__add_int(btf, "long", 8, BTF_INT_SIGNED);
	ints[2] = btf__add_struct(btf, "bpf_prog_aux", 8);
	btf__add_field(btf, "x", ints[1], 0, 0);
	for (int i = 0; i < n; i++) {
		int k = rnd(4), ty = rnd(btf__type_cnt(btf) - 1) + 1, id;
		const struct btf_type *t = btf__type_by_id(btf, ty);
		char name[32];

		if (btf_is_func(t) || btf_is_decl_tag(t))
			ty = ints[rnd(3)];
		snprintf(name, sizeof(name), "f%u", rnd(20));
		switch (k) {
		case 0:
			btf__add_ptr(btf, ty);
			break;
		case 1:
			btf__add_const(btf, ty);
			break;
		default:
			id = btf__add_func_proto(btf, ints[rnd(2)]);
			for (unsigned int p = rnd(4); p; p--)
				btf__add_func_param(btf, rnd(2) ? "a" : "b", rnd(2) ? ty : ints[rnd(3)]);
			id = btf__add_func(btf, name, BTF_FUNC_GLOBAL, id);
			if (rnd(2))
				btf__add_decl_tag(btf, "bpf_kfunc", id, -1);
		}
	}
}

/*
 * What a transform appends to types [1, nr_old): copies of old
 * protos/pointers/FUNCs/tags (which dedup must fold), new ones, tags on new
 * FUNCs, an old FUNC of this BTF (from start on) repointed.
 */
static void append_like_transform(struct btf *btf, __u32 start, __u32 nr_old)
{
	for (int i = 0; i < 20; i++) {
		int src = rnd(nr_old - 1) + 1, id;
		const struct btf_type *t = btf__type_by_id(btf, src);

		switch (btf_kind(t)) {
		case BTF_KIND_FUNC_PROTO: {
			/* a copy of an old proto, maybe cut short (a reduced proto) */
			const struct btf_param *p = btf_params(t);
			__u16 vlen = btf_vlen(t), keep = rnd(2) ? vlen : rnd(vlen + 1);
			struct btf_param params[8];
			int ret = t->type, f;

			memcpy(params, p, vlen * sizeof(*p));
			id = btf__add_func_proto(btf, ret);
			for (__u16 j = 0; j < keep; j++) {
				char pname[64];	/* copied: adding strings may move them */

				snprintf(pname, sizeof(pname), "%s",
					 btf__name_by_offset(btf, params[j].name_off));
				btf__add_func_param(btf, pname, params[j].type);
			}
			f = btf__add_func(btf, rnd(2) ? "fnew" : "f1", BTF_FUNC_GLOBAL, id);
			if (rnd(2))
				btf__add_decl_tag(btf, "bpf_kfunc", f, -1);
			break;
		}
		case BTF_KIND_PTR:
		case BTF_KIND_CONST: {
			__u32 target = t->type;	/* t moves when types are added */

			btf__add_ptr(btf, src);
			btf__add_ptr(btf, target);	/* often a copy of src itself */
			break;
		}
		case BTF_KIND_FUNC: {
			char fname[64];

			snprintf(fname, sizeof(fname), "%s", btf__name_by_offset(btf, t->name_off));
			btf__add_func(btf, fname, BTF_FUNC_GLOBAL, t->type);
			break;
		}
		default:
			btf__add_const(btf, src);
		}
	}
	/* an old FUNC repointed at a new proto, as the transform repoints kfuncs */
	for (__u32 id = nr_old; id < btf__type_cnt(btf); id++) {
		if (btf_is_func_proto(btf__type_by_id(btf, id))) {
			for (__u32 o = start; o < nr_old; o++) {
				struct btf_type *t = (struct btf_type *)btf__type_by_id(btf, o);

				if (btf_is_func(t) && rnd(3) == 0) {
					t->type = id;
					break;
				}
			}
			break;
		}
	}
}

/*
 * Random deduplicated "pahole output" (btf__dedup() run on it), then what a
 * transform appends (append_like_transform()).
 */
static struct btf *random_btf(__u32 *first_new)
{
	struct btf *btf = btf__new_empty();

	add_random_types(btf, 60);
	assert_int_equal(btf__dedup(btf, NULL), 0);
	*first_new = btf__type_cnt(btf);
	append_like_transform(btf, 1, *first_new);
	return btf;
}

static void test_dedup_random_matches_btf_dedup(void **state)
{
	unsigned int hash_path = 0;

	(void)state;
	for (int round = 0; round < 300; round++) {
		__u32 first_new;
		struct btf *btf = random_btf(&first_new);
		struct b2b_pass_out o;
		size_t size;
		const void *raw = raw_of(btf, &size);
		bool full;

		check_dedup_equivalent(raw, size, NULL, first_new, false);
		assert_int_equal(dedup_fast(raw, size, NULL, first_new, &o, &full), 0);
		hash_path += !full;
		b2b_pass_out_free(&o);
		btf__free(btf);
	}
	/* most rounds must exercise the hash path, not the fallback */
	print_message("dedup: %u of 300 random BTFs on the hash path\n", hash_path);
	assert_true(hash_path > 150);
}

/* Dedup then sort, as two passes with their own layouts. */
static void dedup_then_sort(const void *raw, size_t size, __u32 first_new, void **data,
			    size_t *out_size, __u32 **map, __u32 *nr_map)
{
	struct b2b_pass_out d, s;
	const void *cur = raw;
	size_t cur_size = size;
	bool full;

	assert_int_equal(dedup_fast(raw, size, NULL, first_new, &d, &full), 0);
	if (d.data) {
		cur = d.data;
		cur_size = d.size;
	}
	assert_int_equal(b2b_sort_by_name(cur, cur_size, NULL, &s), 0);
	*out_size = s.data ? s.size : cur_size;
	*data = malloc(*out_size);
	assert_non_null(*data);
	memcpy(*data, s.data ? s.data : cur, *out_size);
	*map = d.map ? d.map : s.map;
	*nr_map = d.map ? d.nr_map : s.nr_map;
	if (d.map && s.map)
		b2b_map_compose(d.map, d.nr_map, s.map);
	free(d.data);
	free(s.data);
	if (d.map)
		free(s.map);
}

/*
 * b2b_post_run() composes the passes' results and maps: the same bytes and
 * id map as dedup then sort by hand, on random BTFs where dedup drops types
 * and where it does not; the input is given up to it (freed once replaced).
 */
static void test_post_run_dedup_sort(void **state)
{
	unsigned int dropped = 0, unchanged = 0;

	(void)state;
	for (int round = 0; round < 300; round++) {
		__u32 first_new, *map, nr_map;
		struct btf *btf = random_btf(&first_new);
		size_t size, want_size;
		const void *raw = raw_of(btf, &size);
		struct b2b_post post = { .first_new = first_new, .dedup = true, .sort = true };
		void *want;

		dedup_then_sort(raw, size, first_new, &want, &want_size, &map, &nr_map);
		post.btf.data = malloc(size);
		assert_non_null(post.btf.data);
		memcpy(post.btf.data, raw, size);
		post.btf.size = size;
		assert_int_equal(b2b_post_run(&post), 0);
		assert_int_equal(post.btf.size, want_size);
		assert_memory_equal(post.btf.data, want, want_size);
		assert_int_equal(post.changed, want_size != size || memcmp(want, raw, size));
		unchanged += !post.changed;
		assert_int_equal(!post.btf.map, !map);
		if (map) {
			assert_int_equal(post.btf.nr_map, nr_map);
			assert_memory_equal(post.btf.map, map, nr_map * sizeof(*map));
		}
		dropped += want_size < size;
		assert_true(b2b_btf_empty(&post.new_base));
		b2b_post_free(&post);
		free(want);
		free(map);
		btf__free(btf);
	}
	print_message("dedup+sort: %u of 300 random BTFs with types dropped, %u unchanged\n",
		      dropped, unchanged);
	assert_true(dropped > 100);
}

static void test_dedup_fixtures(void **state)
{
	const char *fx[] = { "kfuncs.gcc.o", "kfuncs.clang.o", "basic.o" };

	(void)state;
	for (size_t i = 0; i < sizeof(fx) / sizeof(fx[0]); i++) {
		BTF2BTF_OPTS(o, .features = BTF2BTF_FEAT_IMPLICIT_ARGS);
		struct btf2btf *b = th_open(th_fixture(fx[i]), &o);
		struct btf *orig = th_parse(th_fixture(fx[i]), NULL);
		const void *raw;
		size_t size;

		assert_int_equal(btf2btf__transform(b), 0);
		assert_int_equal(btf2btf__raw_btf(b, &raw, &size), 0);
		check_dedup_equivalent(raw, size, NULL, btf__type_cnt(orig), false);
		btf__free(orig);
		btf2btf__close(b);
	}
	/* split: the fixture module repeats base types (not deduplicated
	 * against it): folded as btf__dedup() folds them */
	{
		struct btf *bbtf = th_parse(th_fixture("split.o"), NULL);
		struct btf *mbtf = th_parse(th_fixture("split.o.ko"), bbtf);
		size_t size;
		const void *raw = raw_of(mbtf, &size);

		check_dedup_equivalent(raw, size, bbtf, btf__type_cnt(mbtf) - 2, false);
		assert_true(check_fold_identical(raw, size, bbtf, btf__type_cnt(mbtf) - 2));
		btf__free(mbtf);
		btf__free(bbtf);
	}
	th_cleanup();
}

/* Old types equal to each other, of a kind the transform never adds (an
 * array): not deduplicated, so btf__dedup() runs and folds them too. */
static void test_dedup_old_duplicates_fall_back(void **state)
{
	struct btf *btf = btf__new_empty();
	int i_int = btf__add_int(btf, "int", 4, BTF_INT_SIGNED), first_new, proto;
	struct b2b_pass_out o;
	size_t size;
	const void *raw;
	bool full;

	(void)state;
	btf__add_array(btf, i_int, i_int, 2);
	btf__add_array(btf, i_int, i_int, 2);
	proto = btf__add_func_proto(btf, i_int);
	btf__add_func(btf, "f", BTF_FUNC_GLOBAL, proto);
	first_new = btf__type_cnt(btf);
	btf__add_func_proto(btf, i_int);	/* what a transform appends: a copy */
	raw = raw_of(btf, &size);
	check_dedup_equivalent(raw, size, NULL, first_new, true);
	assert_int_equal(dedup_fast(raw, size, NULL, first_new, &o, &full), 0);
	assert_true(full);
	assert_int_equal(o.map[3], 2);	/* the second array folded into the first */
	assert_int_equal(o.map[first_new], o.map[proto]);
	b2b_pass_out_free(&o);
	btf__free(btf);
}

/*
 * Split BTF: a random deduplicated base, a module deduplicated against it
 * (as pahole leaves it), then what a transform appends, its copies of base
 * types included (which dedup folds into the base).
 */
static void test_dedup_random_split_matches_btf_dedup(void **state)
{
	unsigned int hash_path = 0, to_base = 0;

	(void)state;
	for (int round = 0; round < 200; round++) {
		__u32 base_cnt, first_new;
		struct btf *base = random_btf(&base_cnt), *mod;
		struct b2b_pass_out o;
		size_t size;
		const void *raw;
		bool full;

		assert_int_equal(btf__dedup(base, NULL), 0);
		base_cnt = btf__type_cnt(base);
		mod = btf__new_empty_split(base);
		assert_non_null(mod);
		add_random_types(mod, 20);
		assert_int_equal(btf__dedup(mod, NULL), 0);
		first_new = btf__type_cnt(mod);
		append_like_transform(mod, base_cnt, first_new);
		raw = raw_of(mod, &size);
		check_dedup_equivalent(raw, size, base, first_new, false);
		assert_int_equal(ON_MODEL(base, dedup_fast(raw, size, m, first_new, &o, &full)), 0);
		hash_path += !full;
		for (__u32 id = first_new; !full && o.map && id < o.nr_map; id++)
			to_base += o.map[id] < base_cnt;
		b2b_pass_out_free(&o);
		btf__free(mod);
		btf__free(base);
	}
	print_message("dedup: %u of 200 random split BTFs on the hash path, %u new types folded into the base\n",
		      hash_path, to_base);
	assert_true(hash_path > 100);
	assert_true(to_base > 100);
}

/*
 * New pointers to new prototypes that equal base ones: the scan of the base
 * cannot want a pointer's key (its prototype is an own id then), so each
 * is looked up after its prototype folded into the base. The first 8 such
 * lookups walk the base, the rest use the index of every base type: with
 * 3 and with 12 the map is btf__dedup()'s, every pointer folded into the
 * base's own.
 */
static void test_dedup_late_base_lookups(void **state)
{
	(void)state;
	for (int k = 3; k <= 12; k += 9) {
		struct btf *base = btf__new_empty(), *mod;
		struct b2b_pass_out o;
		__u32 first_new, ptrs[12];
		const void *raw;
		size_t size;
		bool full;
		int i_int;

		assert_non_null(base);
		i_int = btf__add_int(base, "int", 4, BTF_INT_SIGNED);
		for (int i = 1; i <= k; i++) {
			int proto = btf__add_func_proto(base, i_int);

			for (int p = 0; p < i; p++)
				btf__add_func_param(base, "x", i_int);
			assert_true(btf__add_ptr(base, proto) > 0);
		}
		mod = btf__new_empty_split(base);
		assert_non_null(mod);
		/* an old own type, so that the hash path runs */
		assert_true(btf__add_struct(mod, "m", 4) > 0);
		btf__add_field(mod, "a", i_int, 0, 0);
		first_new = btf__type_cnt(mod);
		for (int i = 1; i <= k; i++) {
			int proto = btf__add_func_proto(mod, i_int);

			for (int p = 0; p < i; p++)
				btf__add_func_param(mod, "x", i_int);
			ptrs[i - 1] = btf__add_ptr(mod, proto);
		}
		raw = raw_of(mod, &size);
		check_dedup_equivalent(raw, size, base, first_new, false);
		assert_int_equal(ON_MODEL(base, dedup_fast(raw, size, m, first_new, &o, &full)), 0);
		assert_false(full);
		assert_non_null(o.map);
		for (int i = 0; i < k; i++)	/* base: int, then proto and pointer pairs */
			assert_int_equal(o.map[ptrs[i]], 3 + 2 * i);
		b2b_pass_out_free(&o);
		btf__free(mod);
		btf__free(base);
	}
}

#define INFO(kind, vlen) ((__u32)(kind) << 24 | (vlen))
#define INT_WORDS(name) (name), INFO(BTF_KIND_INT, 0), 4, (BTF_INT_SIGNED << 24 | 32)

/* Raw BTF of hand-written type words and string bytes (none deduplicated). */
static void *raw_btf(const __u32 *types, size_t type_len, const char *strs, size_t str_len,
		     size_t *size)
{
	/* the passes' own form: native, 24-byte header (btf_format.h),
	 * whatever <linux/btf.h> says */
	struct b2b_btf_hdr h = {
		.magic = B2B_BTF_MAGIC, .version = B2B_BTF_VERSION, .hdr_len = sizeof(h),
		.type_len = type_len, .str_off = type_len, .str_len = str_len,
	};
	char *p = malloc(sizeof(h) + type_len + str_len);

	assert_non_null(p);
	memcpy(p, &h, sizeof(h));
	memcpy(p + sizeof(h), types, type_len);
	memcpy(p + sizeof(h) + type_len, strs, str_len);
	*size = sizeof(h) + type_len + str_len;
	return p;
}

/*
 * A base that is not deduplicated: two equal pointers, two equal protos,
 * and the string "s" twice. Equal base types no own type equals stay as
 * btf__dedup() leaves them (the hash path decides); an own type equal to
 * two of them, or to one whose name sits at another offset, is found.
 */
static void test_dedup_split_on_undeduplicated_base(void **state)
{
	static const char base_strs[] = "\0int\0x\0s\0s";	/* "s" at 7 and 9 */
	const __u32 base_types[] = {
		INT_WORDS(1),					/* [1] int */
		0, INFO(BTF_KIND_PTR, 0), 1,			/* [2] int * */
		0, INFO(BTF_KIND_PTR, 0), 1,			/* [3] int *, again */
		0, INFO(BTF_KIND_FUNC_PROTO, 0), 1,		/* [4] int (void) */
		0, INFO(BTF_KIND_FUNC_PROTO, 0), 1,		/* [5] int (void), again */
		9, INFO(BTF_KIND_STRUCT, 1), 4, 5, 1, 0,	/* [6] struct s { int x; } */
		0, INFO(BTF_KIND_FUNC_PROTO, 1), 1, 5, 1,	/* [7] int (int x) */
	};
	/* own strings: "t" at 11, "x" at 13, "s" at 15, "f" at 17 */
	static const char own_strs[] = "t\0x\0s\0f";
	/* [8], an old own type: struct t { int x; } */
#define T_STRUCT 11, INFO(BTF_KIND_STRUCT, 1), 4, 13, 1, 0
	struct {
		const char *what;
		__u32 types[16];
		size_t nr_words;
		__u32 first_new;
		bool full;
		__u32 new_maps_to;	/* the first new type's id in the result, 0: not checked */
		bool fold;		/* fold mode decides it, as btf__dedup() would */
	} cases[] = {
		{ "new types equal to no base type: the base's duplicates change nothing",
		  { T_STRUCT,
		    0, INFO(BTF_KIND_FUNC_PROTO, 0), 8,		/* [9] struct t (void) */
		    17, INFO(BTF_KIND_FUNC, 1), 9 },		/* [10] f */
		  12, 9, false, 9 },
		{ "a new proto equal to both base protos: btf__dedup() picks one",
		  { T_STRUCT,
		    0, INFO(BTF_KIND_FUNC_PROTO, 0), 1,		/* [9] int (void) */
		    17, INFO(BTF_KIND_FUNC, 1), 9 },		/* [10] f */
		  12, 9, true, 0 },
		{ "a new proto equal to a base proto, its parameter named by an own string",
		  { T_STRUCT,
		    0, INFO(BTF_KIND_FUNC_PROTO, 1), 1, 13, 1,	/* [9] int (int x) */
		    17, INFO(BTF_KIND_FUNC, 1), 9 },		/* [10] f */
		  14, 9, false, 7 },
		{ "an own struct equal to a base struct whose name is at another offset: btf__dedup() looks the name up at its first (fold mode)",
		  { 15, INFO(BTF_KIND_STRUCT, 1), 4, 13, 1, 0,	/* [8] struct s { int x; } */
		    0, INFO(BTF_KIND_FUNC_PROTO, 0), 8,		/* [9] struct s (void) */
		    17, INFO(BTF_KIND_FUNC, 1), 9 },		/* [10] f */
		  12, 9, false, 0, true },
		{ "an old pointer equal to both base pointers",
		  { 0, INFO(BTF_KIND_PTR, 0), 1,			/* [8] int * */
		    0, INFO(BTF_KIND_FUNC_PROTO, 0), 8,		/* [9] int *(void) */
		    17, INFO(BTF_KIND_FUNC, 1), 9 },		/* [10] f */
		  9, 9, true, 0 },
	};
	size_t base_size;
	void *base_raw = raw_btf(base_types, sizeof(base_types), base_strs, sizeof(base_strs),
				 &base_size);
	struct btf *base = parse_raw(base_raw, base_size, NULL);

	(void)state;
	assert_int_equal(btf__type_cnt(base), 8);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct b2b_pass_out o;
		size_t size;
		void *raw = raw_btf(cases[i].types, cases[i].nr_words * 4, own_strs,
				    sizeof(own_strs), &size);
		bool full;

		print_message("  %s\n", cases[i].what);
		check_dedup_equivalent(raw, size, base, cases[i].first_new, cases[i].full);
		assert_int_equal(check_fold_identical(raw, size, base, cases[i].first_new),
				 cases[i].fold);
		assert_int_equal(ON_MODEL(base, dedup_fast(raw, size, m, cases[i].first_new, &o, &full)), 0);
		assert_int_equal(full, cases[i].full);
		if (cases[i].new_maps_to)
			assert_int_equal(o.map ? o.map[cases[i].first_new] : cases[i].first_new,
					 cases[i].new_maps_to);
		b2b_pass_out_free(&o);
		free(raw);
	}
	btf__free(base);
	free(base_raw);
#undef T_STRUCT
}

/* ---- fold mode: a split BTF not deduplicated against its base ---- */

/* Mutable type id of a libbpf BTF (the tests patch what btf__add_*() made). */
static __u32 *words_of(struct btf *btf, __u32 id)
{
	return (__u32 *)btf__type_by_id(btf, id);
}

/*
 * A random base, as a kernel's: named and anonymous structs pointing at
 * each other and at themselves, a union, enums, typedef chains, an array,
 * protos and FUNCs; deduplicated.
 */
static struct btf *fold_base(void)
{
	struct btf *b = btf__new_empty();
	int i_int = btf__add_int(b, "int", 4, BTF_INT_SIGNED);
	int i_long = btf__add_int(b, "long", 8, BTF_INT_SIGNED), refs[32], nr = 0, s[10];

	refs[nr++] = i_int;
	refs[nr++] = btf__add_enum(b, "mode", 4);
	btf__add_enum_value(b, "M_A", 0);
	btf__add_enum_value(b, "M_B", 1);
	refs[nr++] = btf__add_enum(b, NULL, 4);
	btf__add_enum_value(b, "X_A", 3);
	refs[nr++] = btf__add_ptr(b, btf__add_enum(b, "state_e", 4));	/* a forward declaration */
	for (int i = 0; i < 10; i++) {
		char name[16];

		snprintf(name, sizeof(name), "s%d", i);
		s[i] = btf__add_struct(b, i % 4 == 3 ? NULL : name, 16);
		btf__add_field(b, "a", i_int, 0, 0);
		btf__add_field(b, "b", i_int, 64, 0);
	}
	refs[nr++] = btf__add_union(b, "u0", 8);
	btf__add_field(b, "x", i_long, 0, 0);
	btf__add_field(b, "y", i_int, 0, 0);
	for (int i = 0; i < 10; i++)
		refs[nr++] = btf__add_ptr(b, s[i]);
	refs[nr] = btf__add_typedef(b, "u32_t", i_int);
	nr++;
	refs[nr] = btf__add_typedef(b, "word_t", refs[nr - 1]);
	nr++;
	refs[nr++] = btf__add_typedef(b, "s0_p", refs[3 + 1]);
	refs[nr++] = btf__add_array(b, i_int, i_int, 4);
	refs[nr++] = btf__add_const(b, refs[3 + 2]);
	/* the members: one of the above, or a struct before it by value */
	for (int i = 0; i < 10; i++) {
		__u32 *w = words_of(b, s[i]);

		w[3 + 1] = refs[rnd(nr)];
		w[3 + 3 + 1] = i && rnd(3) == 0 ? (__u32)s[rnd(i)] : (__u32)refs[rnd(nr)];
	}
	for (int i = 0; i < 6; i++) {
		int proto = btf__add_func_proto(b, refs[rnd(nr)]);
		char name[16];

		btf__add_func_param(b, "p", refs[rnd(nr)]);
		snprintf(name, sizeof(name), "fn%d", i);
		btf__add_func(b, name, BTF_FUNC_GLOBAL, proto);
	}
	assert_int_equal(btf__dedup(b, NULL), 0);
	return b;
}

/*
 * Copies into mod of the base types reachable from from (at most max),
 * their references pointed at the copies most of the time: a graph equal to
 * the base's, as a module's BTF not deduplicated against its vmlinux has.
 */
static void copy_graph(struct btf *mod, const struct btf *base, __u32 from, __u32 max)
{
	__u32 n = btf__type_cnt(base), *copy = calloc(n, sizeof(*copy)), queue[64], head = 0, tail = 0;

	assert_non_null(copy);
	queue[tail++] = from;
	copy[from] = UINT32_MAX;
	while (head < tail) {
		__u32 id = queue[head++];
		const struct btf_type *t = btf__type_by_id(base, id);
		const __u32 *w = (const __u32 *)t;

		for (__u32 i = 2; i < b2b_type_words(t); i++) {
			__u32 ref = w[i];

			if (b2b_word_class(b2b_kind(t), i) != B2B_W_REF || !ref || copy[ref] ||
			    tail == max || tail == 64)
				continue;
			copy[ref] = UINT32_MAX;
			queue[tail++] = ref;
		}
	}
	/* from a copy of base: adding the names to mod looks them up in base,
	 * which must not move the type copied under libbpf's feet */
	{
		size_t size;
		const void *raw = raw_of((struct btf *)base, &size);
		struct btf *src = btf__new(raw, size);

		assert_non_null(src);
		for (__u32 i = 0; i < tail; i++) {
			int id = btf__add_type(mod, src, btf__type_by_id(src, queue[i]));

			assert_true(id > 0);
			copy[queue[i]] = id;
		}
		btf__free(src);
	}
	for (__u32 i = 0; i < tail; i++) {
		__u32 *w = words_of(mod, copy[queue[i]]);
		const struct btf_type *t = (const struct btf_type *)w;

		for (__u32 k = 2; k < b2b_type_words(t); k++)
			if (b2b_word_class(b2b_kind(t), k) == B2B_W_REF && w[k] &&
			    copy[w[k]] && copy[w[k]] != UINT32_MAX && rnd(5))
				w[k] = copy[w[k]];
	}
	free(copy);
}

/* A random module on base: copies of base graphs, its own types, and now
 * and then what btf__dedup() resolves by name (a forward declaration, an
 * enum's) or by phase (a typedef). */
static struct btf *fold_module(const struct btf *base)
{
	struct btf *mod = btf__new_empty_split((struct btf *)base);
	__u32 n = btf__type_cnt(base);
	int own, k = rnd(8);

	assert_non_null(mod);
	for (int c = 1 + rnd(3); c; c--)
		copy_graph(mod, base, 1 + rnd(n - 1), 4 + rnd(16));
	own = btf__add_struct(mod, "local", 8);
	btf__add_field(mod, "p", btf__add_ptr(mod, btf__type_cnt(mod) - 1), 0, 0);
	if (k == 0)
		btf__add_ptr(mod, btf__add_fwd(mod, "s1", BTF_FWD_STRUCT));
	if (k == 1)
		btf__add_ptr(mod, btf__add_enum(mod, "mode", 4));
	if (k == 2)
		btf__add_typedef(mod, "u32_t", 1);
	if (k == 3)
		copy_graph(mod, base, 1 + rnd(n - 1), 30);
	if (k == 4) {
		/* the full enum of a base forward declaration, which an own
		 * pointer names: btf__dedup() points the base one at it */
		int fwd = btf__find_by_name_kind(base, "state_e", BTF_KIND_ENUM);

		assert_true(fwd > 0);
		btf__add_enum(mod, "state_e", 4);
		btf__add_enum_value(mod, "S_ON", 1);
		btf__add_ptr(mod, fwd);
	}
	btf__add_func(mod, "own_fn", BTF_FUNC_GLOBAL, btf__add_func_proto(mod, own));
	return mod;
}

/*
 * What the fold mode decides is what btf__dedup() of the installed libbpf
 * writes, byte for byte and id for id; where it cannot tell, it leaves the
 * module to btf__dedup().
 */
static void test_dedup_fold_matches_btf_dedup(void **state)
{
	unsigned int folded = 0, fell_back = 0;

	(void)state;
	for (int round = 0; round < 300; round++) {
		struct btf *base = fold_base(), *mod = fold_module(base);
		__u32 first_new = btf__type_cnt(mod);
		size_t size;
		const void *raw;

		/* half of them with what a transform appends */
		if (round % 2)
			append_like_transform(mod, btf__type_cnt(base), first_new);
		raw = raw_of(mod, &size);

		if (check_fold_identical(raw, size, base, first_new))
			folded++;
		else
			fell_back++;
		btf__free(mod);
		btf__free(base);
	}
	print_message("dedup fold: %u of 300 random modules decided as btf__dedup() decides, byte for byte, %u left to it\n",
		      folded, fell_back);
	assert_true(folded > 100);
	assert_true(fell_back > 0);
}

/* A vmlinux BTF is deduplicated: the hash path finds nothing to fold. */
static void test_dedup_sys_vmlinux(void **state)
{
	struct btf *btf = btf__parse("/sys/kernel/btf/vmlinux", NULL);
	struct b2b_pass_out o;
	size_t size;
	const void *raw;
	bool full;

	(void)state;
	if (!btf)
		fail_msg("this test needs /sys/kernel/btf/vmlinux (CONFIG_DEBUG_INFO_BTF)");
	raw = raw_of(btf, &size);
	assert_int_equal(dedup_fast(raw, size, NULL, btf__type_cnt(btf), &o, &full), 0);
	assert_false(full);
	assert_null(o.data);
	/* and btf__dedup() agrees: the same types, no id moves */
	assert_int_equal(b2b_dedup_full(raw, size, NULL, &o), 0);
	for (__u32 i = 0; i < o.nr_map; i++)
		assert_int_equal(o.map[i], i);
	b2b_pass_out_free(&o);
	btf__free(btf);
}

/* The machine's vmlinux sorted: in order, every type (a sample of them,
 * canonical forms are slow) meaning what it meant, a fixed point. */
static void test_sort_sys_vmlinux(void **state)
{
	struct btf *btf = btf__parse("/sys/kernel/btf/vmlinux", NULL), *out;
	struct b2b_pass_out o, again;
	size_t size;
	const void *raw;

	(void)state;
	if (!btf)
		fail_msg("this test needs /sys/kernel/btf/vmlinux (CONFIG_DEBUG_INFO_BTF)");
	raw = raw_of(btf, &size);
	assert_int_equal(b2b_sort_by_name(raw, size, NULL, &o), 0);
	assert_non_null(o.data);
	out = parse_raw(o.data, o.size, NULL);
	assert_sorted(out, o.map, o.nr_map);
	assert_mapped_same(btf, out, o.map, 1, btf__type_cnt(btf), 97);
	assert_int_equal(b2b_sort_by_name(o.data, o.size, NULL, &again), 0);
	assert_null(again.data);
	btf__free(out);
	b2b_pass_out_free(&o);
	btf__free(btf);
}

/* ---- distilled base ---- */

/* What btf_relocate.c asks of a distilled base type: one base type of its
 * name with a compatible kind (and size, where it has one). */
static void assert_relocatable(const struct btf *dist, const struct btf *full)
{
	for (__u32 id = 1; id < btf__type_cnt(dist); id++) {
		const struct btf_type *d = btf__type_by_id(dist, id);
		const char *name = btf__name_by_offset(dist, d->name_off);
		int found = 0;

		assert_true(name && *name);
		for (__u32 f = 1; f < btf__type_cnt(full); f++) {
			const struct btf_type *t = btf__type_by_id(full, f);
			bool ok = false;

			if (strcmp(btf__name_by_offset(full, t->name_off), name))
				continue;
			switch (btf_kind(d)) {
			case BTF_KIND_FWD:
				ok = btf_is_fwd(t) ? btf_kflag(t) == btf_kflag(d) :
				     btf_is_struct(t) ? !btf_kflag(d) : btf_is_union(t) && btf_kflag(d);
				break;
			case BTF_KIND_INT:
				ok = btf_is_int(t) && t->size == d->size &&
				     btf_int_encoding(t) == btf_int_encoding(d);
				break;
			case BTF_KIND_FLOAT:
				ok = btf_is_float(t) && t->size == d->size;
				break;
			case BTF_KIND_ENUM:
				ok = (btf_is_enum(t) || btf_is_enum64(t)) && t->size == d->size;
				assert_int_equal(btf_vlen(d), 0);
				break;
			case BTF_KIND_STRUCT:
			case BTF_KIND_UNION:
				ok = btf_kind(t) == btf_kind(d) && t->size == d->size;
				assert_int_equal(btf_vlen(d), 0);
				break;
			default:
				fail_msg("distilled base type '%s' has kind %u", name, btf_kind(d));
			}
			found += ok;
		}
		if (found != 1)
			fail_msg("distilled base type '%s': %d candidates in the base", name, found);
	}
}

static void test_distill_split_fixture(void **state)
{
	const char *base = th_fixture("split.o");
	const char *mod = th_copy_fixture("split.o.ko", "mod.ko");
	const char *out = th_path("mod.btf"), *out_base = th_path("mod.btf.base");
	BTF2BTF_OPTS(o, .base_path = base, .distill_base = true, .features = ALL_POST);
	struct btf *full = th_parse(base, NULL), *orig = th_parse(mod, full), *dist, *split;
	struct btf2btf *b = th_open(mod, &o);
	const void *raw;
	size_t size;

	(void)state;
	assert_int_equal(btf2btf__raw_base_btf(b, &raw, &size), -ENOENT);
	assert_int_equal(btf2btf__transform(b), 0);
	assert_int_equal(btf2btf__raw_base_btf(b, &raw, &size), 0);
	assert_int_equal(btf2btf__write_raw(b, out), 0);
	assert_int_equal(btf2btf__write_raw_base(b, out_base), 0);
	/* the kfunc table names the kfuncs in the split BTF on the distilled base */
	for (size_t i = 0; i < btf2btf__kfunc_cnt(b); i++) {
		const struct btf2btf_kfunc *k = btf2btf__kfunc(b, i);
		const struct btf *r = btf2btf__btf(b);

		assert_string_equal(btf__name_by_offset(r, btf__type_by_id(r, k->btf_id)->name_off),
				    k->name);
	}
	btf2btf__close(b);

	dist = btf__parse_raw(out_base);
	assert_non_null(dist);
	split = btf__parse_raw_split(out, dist);
	assert_non_null(split);
	assert_true(btf__type_cnt(dist) < btf__type_cnt(full));
	assert_relocatable(dist, full);
	/* the module's kfuncs, as the transform left them */
	assert_int_equal(btf_vlen(btf__type_by_id(split, btf__type_by_id(split,
		th_find(split, "bpf_kfunc_implicit_arg", BTF_KIND_FUNC))->type)), 1);
	th_find(split, "bpf_kfunc_implicit_arg_impl", BTF_KIND_FUNC);
	assert_sorted(split, NULL, 0);
	btf__free(split);
	btf__free(dist);
	btf__free(orig);
	btf__free(full);
	th_cleanup();
}

/* The same pass on a split BTF built against the machine's vmlinux: the
 * distilled types all relocate, and the split types mean what they meant. */
static void test_distill_on_sys_vmlinux(void **state)
{
	struct btf *full = btf__parse("/sys/kernel/btf/vmlinux", NULL), *mod, *dist, *split;
	int task = full ? btf__find_by_name_kind(full, "task_struct", BTF_KIND_STRUCT) : -1;
	int u64 = full ? btf__find_by_name_kind(full, "u64", BTF_KIND_TYPEDEF) : -1;
	int ptr, anon, proto, func;
	struct b2b_pass_out o;
	void *braw;
	size_t bsize, size;
	const void *raw;

	(void)state;
	if (task <= 0 || u64 <= 0)
		fail_msg("this test needs /sys/kernel/btf/vmlinux with task_struct and u64");
	mod = btf__new_empty_split(full);
	ptr = btf__add_ptr(mod, task);
	anon = btf__add_struct(mod, "mod_state", 16);
	btf__add_field(mod, "t", ptr, 0, 0);
	btf__add_field(mod, "v", u64, 64, 0);
	proto = btf__add_func_proto(mod, u64);
	btf__add_func_param(mod, "s", btf__add_ptr(mod, anon));
	func = btf__add_func(mod, "mod_fn", BTF_FUNC_GLOBAL, proto);
	btf__add_decl_tag(mod, "bpf_kfunc", func, -1);
	raw = raw_of(mod, &size);
	assert_int_equal(ON_MODEL(full, b2b_distill_base(raw, size, m, &braw, &bsize, &o)), 0);
	dist = parse_raw(braw, bsize, NULL);
	split = parse_raw(o.data, o.size, dist);
	assert_relocatable(dist, full);
	/* task_struct is in the distilled base, empty; the u64 typedef moved into the split */
	th_find(dist, "task_struct", BTF_KIND_STRUCT);
	assert_true(btf__find_by_name_kind(dist, "u64", BTF_KIND_TYPEDEF) < 0);
	assert_true((__u32)th_find(split, "u64", BTF_KIND_TYPEDEF) >= btf__type_cnt(dist));
	assert_mapped_same(mod, split, o.map, btf__type_cnt(full), btf__type_cnt(mod), 1);
	btf__free(split);
	btf__free(dist);
	free(braw);
	b2b_pass_out_free(&o);
	btf__free(mod);
	btf__free(full);
}

/* Both sections of an object, dumped with objcopy. */
static void dump_sections(const char *obj, const char *btf_out, const char *base_out)
{
	struct run r;

	th_require_tool("objcopy");
	th_sh(&r, "objcopy --dump-section .BTF=%s --dump-section .BTF.base=%s %s %s",
	      btf_out, base_out, obj, th_path("scratch.o"));
	assert_int_equal(r.status, 0);
	th_run_free(&r);
}

static void assert_distilled_pair(const char *btf_path, const char *base_path,
				  const struct btf *full)
{
	struct btf *dist = btf__parse_raw(base_path), *split;

	assert_non_null(dist);
	split = btf__parse_raw_split(btf_path, dist);
	assert_non_null(split);
	assert_relocatable(dist, full);
	th_find(split, "bpf_kfunc_implicit_arg_impl", BTF_KIND_FUNC);
	btf__free(split);
	btf__free(dist);
}

/* The CLI: .BTF.base added to the ELF (then replaced, never doubled), or
 * FILE.base beside -o FILE and beside --btf FILE rewritten in place;
 * --distill-base without -B is a usage error. */
static void test_distill_cli(void **state)
{
	const char *base = th_copy_fixture("split.o", "base.o");
	const char *mod = th_copy_fixture("split.o.ko", "mod.ko");
	const char *mod2 = th_copy_fixture("split.o.ko", "mod2.ko");
	const char *btf = th_path("s.btf"), *dist = th_path("s.btf.base");
	struct btf *full = th_parse(base, NULL);
	struct run r;

	(void)state;
	th_run(&r, (const char *[]){ "btf2btf", "--distill-base", mod, NULL });
	assert_int_equal(r.status, 2);
	assert_non_null(strstr(r.err, "--distill-base needs --btf-base"));
	th_run_free(&r);

	th_run(&r, (const char *[]){ "btf2btf", "-B", base, "--distill-base", mod, NULL });
	assert_int_equal(r.status, 0);
	th_run_free(&r);
	dump_sections(mod, btf, dist);
	assert_distilled_pair(btf, dist, full);

	/* an object that has a .BTF.base already (the one just written):
	 * relocated onto -B, distilled again, its .BTF.base replaced, not
	 * added twice */
	th_copy(mod, mod2);
	th_run(&r, (const char *[]){ "btf2btf", "-B", base, "--distill-base", mod2, NULL });
	assert_int_equal(r.status, 0);
	th_run_free(&r);
	th_sh(&r, "readelf -S %s | grep -c '\\.BTF\\.base'", mod2);
	assert_string_equal(r.out, "1\n");
	th_run_free(&r);
	dump_sections(mod2, btf, dist);
	assert_distilled_pair(btf, dist, full);

	/* raw output: FILE and FILE.base */
	unlink(btf);
	unlink(dist);
	th_run(&r, (const char *[]){ "btf2btf", "-B", base, "--distill-base", "-o", btf,
				     th_fixture("split.o.ko"), NULL });
	assert_int_equal(r.status, 0);
	th_run_free(&r);
	assert_distilled_pair(btf, dist, full);

	/* --btf's raw file rewritten in place: FILE.base beside it, the same name */
	unlink(btf);
	unlink(dist);
	th_sh(&r, "objcopy --dump-section .BTF=%s %s %s", btf, th_fixture("split.o.ko"),
	      th_path("scratch.o"));
	assert_int_equal(r.status, 0);
	th_run_free(&r);
	th_run(&r, (const char *[]){ "btf2btf", "-B", base, "--distill-base", "--btf", btf,
				     th_fixture("split.o.ko"), NULL });
	assert_int_equal(r.status, 0);
	th_run_free(&r);
	assert_distilled_pair(btf, dist, full);
	btf__free(full);
	th_cleanup();
}

/* Whether an own type of split BTF mod has the canonical form of a type of
 * its base (one that a dedup against the base would fold). */
static bool has_base_duplicate(const struct btf *mod, const struct btf *base)
{
	for (__u32 id = btf__type_cnt(base); id < btf__type_cnt(mod); id++) {
		char a[4096], b[4096];

		canon(mod, id, 0, a, sizeof(a));
		for (__u32 bid = 1; bid < btf__type_cnt(base); bid++) {
			canon(base, bid, 0, b, sizeof(b));
			if (!strcmp(a, b))
				return true;
		}
	}
	return false;
}

/*
 * A module as the kernel build makes it: gcc -g, pahole -J on the base,
 * pahole -J --btf_base on the module (deduplicated against the base). Dedup
 * takes the hash path when pahole left nothing to fold and gives
 * btf__dedup()'s result either way; the distilled base relocates onto the
 * real one, and every module type means what it meant.
 */
static void test_distill_pahole_module(void **state)
{
	static const char common[] =
		"struct bpf_prog_aux { int id; long x; };\n"
		"struct task { int pid; struct task *parent; struct bpf_prog_aux *aux; };\n"
		"typedef unsigned long long u64;\n"
		"enum color { RED, GREEN };\n";
	static const char base_c[] =
		"int base_fn(struct task *t, u64 v, enum color c) { return t->pid + v + c; }\n";
	static const char mod_c[] =
		"struct mod_state { struct task *t; u64 v; struct { int a, b; } anon; enum color c; };\n"
		"int bpf_mod_kfunc(struct mod_state *s, int x, struct bpf_prog_aux *aux)\n"
		"{ return s->v + x + aux->id; }\n"
		"int bpf_mod_plain(struct task *t, u64 v) { return t->pid + v; }\n";
	const char *base_o = th_path("pbase.o"), *mod_o = th_path("pmod.o");
	struct btf *full, *mod, *dist, *split;
	struct b2b_pass_out o, d;
	void *braw;
	size_t bsize, size;
	const void *raw;
	struct run r;
	FILE *f;
	bool went_full, dup;

	(void)state;
	th_require_tool("gcc");
	th_require_tool("pahole");
	f = fopen(th_path("pbase.c"), "w");
	fprintf(f, "%s%s", common, base_c);
	fclose(f);
	f = fopen(th_path("pmod.c"), "w");
	fprintf(f, "%s%s", common, mod_c);
	fclose(f);
	th_sh(&r, "cd %s && gcc -g -O1 -c pbase.c && gcc -g -O1 -c pmod.c && "
	      "LLVM_OBJCOPY=objcopy pahole -J pbase.o && "
	      "LLVM_OBJCOPY=objcopy pahole -J --btf_base pbase.o pmod.o", th_tmpdir());
	if (r.status)
		fail_msg("building the pahole module failed: %s", r.err);
	th_run_free(&r);
	full = th_parse(base_o, NULL);
	mod = th_parse(mod_o, full);
	raw = raw_of(mod, &size);
	/*
	 * Whether the pahole that ran left a module type equal to a base type:
	 * 1.24 (libbpf 1.1) leaves none; forky's 1.32 (libbpf 1.7) keeps its
	 * own typedef u64, which libbpf 1.7's btf__dedup() does not fold
	 * either. Only then does the dedup leave the hash path, for the fold
	 * mode (byte for byte btf__dedup()'s) or btf__dedup(); its result is
	 * btf__dedup()'s either way.
	 */
	dup = has_base_duplicate(mod, full);
	assert_int_equal(ON_MODEL(full, dedup_fast(raw, size, m, btf__type_cnt(mod), &o, &went_full)), 0);
	if (!dup)
		assert_null(o.data);	/* the hash path: nothing to fold */
	assert_true(!went_full || dup);
	b2b_pass_out_free(&o);
	if (dup)
		check_fold_identical(raw, size, full, btf__type_cnt(mod));
	check_dedup_equivalent(raw, size, full, btf__type_cnt(mod), went_full);
	assert_int_equal(ON_MODEL(full, b2b_distill_base(raw, size, m, &braw, &bsize, &d)), 0);
	dist = parse_raw(braw, bsize, NULL);
	split = parse_raw(d.data, d.size, dist);
	assert_relocatable(dist, full);
	th_find(dist, "task", BTF_KIND_STRUCT);
	th_find(dist, "color", BTF_KIND_ENUM);
	assert_mapped_same(mod, split, d.map, btf__type_cnt(full), btf__type_cnt(mod), 1);
	btf__free(split);
	btf__free(dist);
	free(braw);
	b2b_pass_out_free(&d);
	btf__free(mod);
	btf__free(full);
	th_cleanup();
}

/* Killed while writing .BTF + .BTF.base: the module is as it was; the next
 * run writes both. */
static void test_distill_killed_mid_write(void **state)
{
	const char *base = th_copy_fixture("split.o", "base.o");
	const char *mod = th_copy_fixture("split.o.ko", "mod.ko");
	const char *orig = th_copy_fixture("split.o.ko", "orig.ko");
	const char *argv[] = { "btf2btf", "-B", base, "--distill-base", mod, NULL };
	struct run r;

	(void)state;
	setenv("BTF2BTF_FAULT", "mid-write", 1);
	th_run(&r, argv);
	unsetenv("BTF2BTF_FAULT");
	assert_int_equal(r.status, 128 + SIGKILL);
	th_run_free(&r);
	assert_true(th_same_file(mod, orig));
	th_sh(&r, "readelf -S %s | grep -c '\\.BTF\\.base'", mod);
	assert_string_equal(r.out, "0\n");
	th_run_free(&r);
	th_run(&r, argv);
	assert_int_equal(r.status, 0);
	th_run_free(&r);
	th_sh(&r, "readelf -S %s | grep -c '\\.BTF\\.base'; ls -a %s | grep -c btf2btf", mod,
	      th_tmpdir());
	assert_string_equal(r.out, "1\n0\n");	/* the killed run's temp file is gone too */
	th_run_free(&r);
	th_cleanup();
}

static void test_distill_needs_base(void **state)
{
	BTF2BTF_OPTS(o, .distill_base = true);
	struct btf2btf *b = NULL;

	(void)state;
	assert_int_equal(btf2btf__open(th_fixture("basic.o"), &o, &b), -EINVAL);
	assert_null(b);
}

/* ---- allocation failures and malformed input ---- */

static void snapshot(struct btf2btf *b, void **raw, size_t *size, __u32 *ids)
{
	const void *r;

	assert_int_equal(btf2btf__raw_btf(b, &r, size), 0);
	*raw = malloc(*size);
	memcpy(*raw, r, *size);
	for (size_t i = 0; i < btf2btf__kfunc_cnt(b); i++)
		ids[i] = btf2btf__kfunc(b, i)->btf_id;
}

/* Fail each allocation of the passes in turn: -ENOMEM, and the handle's
 * BTF bytes, kfunc ids and base exactly as before; the same handle
 * transformed again gives what a clean run gives; then one run succeeds. */
static unsigned long fail_each_alloc(const char *obj, const struct btf2btf_opts *o)
{
	struct btf2btf *clean = th_open(obj, o);
	const void *want;
	unsigned long n;
	size_t want_size;
	bool done = false;

	assert_int_equal(btf2btf__transform(clean), 0);
	assert_int_equal(btf2btf__raw_btf(clean, &want, &want_size), 0);
	for (n = 1; !done && n < 10000; n++) {
		struct btf2btf *b = th_open(obj, o);
		__u32 ids[64], ids_after[64];
		void *before, *after;
		size_t sb, sa;
		int err;

		assert_true(btf2btf__kfunc_cnt(b) <= 64);
		snapshot(b, &before, &sb, ids);
		b2b_fault_nomem_calls = 0;
		b2b_fault_nomem_at = n;
		err = btf2btf__transform(b);
		b2b_fault_nomem_at = 0;
		if (b2b_fault_nomem_calls < n) {
			assert_int_equal(err, 0);	/* every allocation already failed once */
			assert_true(btf2btf__changed(b));
			done = true;
		} else {
			assert_int_equal(err, -ENOMEM);
			assert_false(btf2btf__changed(b));
			assert_int_equal(btf2btf__raw_base_btf(b, (const void **)&after, &sa), -ENOENT);
			snapshot(b, &after, &sa, ids_after);
			assert_int_equal(sa, sb);
			assert_memory_equal(after, before, sb);
			assert_memory_equal(ids_after, ids, btf2btf__kfunc_cnt(b) * sizeof(*ids));
			free(after);
			assert_int_equal(btf2btf__transform(b), 0);
			assert_int_equal(btf2btf__raw_btf(b, (const void **)&after, &sa), 0);
			assert_int_equal(sa, want_size);
			assert_memory_equal(after, want, sa);
		}
		free(before);
		btf2btf__close(b);
	}
	btf2btf__close(clean);
	assert_true(done);
	return n - 2;
}

static void test_alloc_failures(void **state)
{
	const char *base = th_copy_fixture("split.o", "base.o");
	const char *mod = th_copy_fixture("split.o.ko", "mod.ko");
	const char *obj = th_copy_fixture("kfuncs.gcc.o", "obj.o");
	const char *tagged = th_copy_fixture("basic.o", "tagged.o");
	BTF2BTF_OPTS(split, .base_path = base, .distill_base = true, .features = ALL_POST);
	BTF2BTF_OPTS(plain, .features = ALL_POST);
	unsigned long full, hash, tags;

	(void)state;
	/* the split fixture repeats base types: btf__dedup() path, distill, sort */
	full = fail_each_alloc(mod, &split);
	/* a pahole-made object: the hash path of dedup, sort */
	hash = fail_each_alloc(obj, &plain);
	/* decl tags the transform moves to _impl: the tag index is needed again */
	tags = fail_each_alloc(tagged, &plain);
	print_message("post-passes: %lu + %lu + %lu allocations failed one at a time\n", full,
		      hash, tags);
	assert_true(full > 10 && hash > 5 && tags > 5);
	th_cleanup();
}

static void test_malformed_raw(void **state)
{
	struct btf *btf = unsorted_btf();
	struct b2b_pass_out o;
	size_t size;
	const char *raw = raw_of(btf, &size);
	char *bad = malloc(size);
	struct b2b_btf_hdr *h = (struct b2b_btf_hdr *)bad;
	void *bo;
	size_t bs;

	(void)state;
	/* cut inside the type section, unknown kind, strings not terminated, bad magic */
	for (int c = 0; c < 4; c++) {
		memcpy(bad, raw, size);
		switch (c) {
		case 0: h->type_len -= 2; h->str_off -= 2; break;
		case 1: ((struct btf_type *)(bad + h->hdr_len))->info = 31U << 24; break;
		case 2: bad[size - 1] = 'x'; break;
		case 3: h->magic = 0; break;
		}
		assert_int_equal(b2b_sort_by_name(bad, size, NULL, &o), -EINVAL);
		assert_int_equal(dedup_fast(bad, size, NULL, 2, &o, NULL), -EINVAL);
		assert_int_equal(ON_MODEL(btf, b2b_distill_base(bad, size, m, &bo, &bs, &o)), -EINVAL);
	}
	assert_int_equal(b2b_sort_by_name(raw, 10, NULL, &o), -EINVAL);
	free(bad);
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
		cmocka_unit_test(test_dedup_random_matches_btf_dedup),
		cmocka_unit_test(test_post_run_dedup_sort),
		cmocka_unit_test(test_dedup_fixtures),
		cmocka_unit_test(test_dedup_old_duplicates_fall_back),
		cmocka_unit_test(test_dedup_random_split_matches_btf_dedup),
		cmocka_unit_test(test_dedup_late_base_lookups),
		cmocka_unit_test(test_dedup_split_on_undeduplicated_base),
		cmocka_unit_test(test_dedup_fold_matches_btf_dedup),
		cmocka_unit_test(test_dedup_sys_vmlinux),
		cmocka_unit_test(test_sort_sys_vmlinux),
		cmocka_unit_test(test_distill_split_fixture),
		cmocka_unit_test(test_distill_on_sys_vmlinux),
		cmocka_unit_test(test_distill_pahole_module),
		cmocka_unit_test(test_distill_killed_mid_write),
		cmocka_unit_test(test_distill_needs_base),
		cmocka_unit_test(test_distill_cli),
		cmocka_unit_test(test_alloc_failures),
		cmocka_unit_test(test_malformed_raw),
	};

	return cmocka_run_group_tests_name("post", tests, NULL, NULL);
}
