// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * What the tests of the passes share: see passes.h.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "passes.h"

/* ---- a name-based canonical form of a type, for comparing BTFs ---- */

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
	pt_canon(btf, id, depth + 1, buf, size);
}

void pt_canon(const struct btf *btf, __u32 id, int depth, char *buf, size_t size)
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
void pt_assert_mapped_same(const struct btf *from, const struct btf *to, const __u32 *map,
			   __u32 first, __u32 end, __u32 step)
{
	for (__u32 id = first; id < end; id += step) {
		char a[4096], b[4096];

		pt_canon(from, id, 0, a, sizeof(a));
		pt_canon(to, map[id], 0, b, sizeof(b));
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
		pt_canon(btf, id, 0, buf, sizeof(buf));
		v[id - start] = strdup(buf);
	}
	*nr = cnt - start;
	qsort(v, *nr, sizeof(*v), cmp_str);
	return v;
}

void pt_assert_same_types(const struct btf *a, const struct btf *b)
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

struct btf *pt_parse_raw(const void *data, size_t size, const struct btf *base)
{
	struct btf *btf = b2b_btf_new(data, size, base);

	assert_non_null(btf);
	return btf;
}

const void *pt_raw_of(struct btf *btf, size_t *size)
{
	__u32 sz = 0;
	const void *raw = btf__raw_data(btf, &sz);

	assert_non_null(raw);
	*size = sz;
	return raw;
}


/* Names in strcmp order, anonymous first, ties in the old id order. */
void assert_sorted(const struct btf *btf, const __u32 *map, __u32 nr_map)
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
struct btf *unsorted_btf(void)
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


/* b2b_dedup(), *full: whether btf__dedup() decided. */
int dedup_fast(const void *raw, size_t size, const struct b2b_btf *base, __u32 first_new,
		      struct b2b_pass_out *o, bool *full)
{
	enum b2b_dedup_way way;
	int err = b2b_dedup(raw, size, base, first_new, o, &way);

	if (full)
		*full = way == B2B_DEDUP_FULL;
	return err;
}

void check_dedup_equivalent(const void *raw, size_t size, const struct btf *base,
				   __u32 first_new, bool expect_full)
{
	struct b2b_pass_out fast, full;
	struct btf *a, *b;
	bool went_full;

	assert_int_equal(ON_MODEL(base, dedup_fast(raw, size, m, first_new, &fast, &went_full)), 0);
	assert_int_equal(ON_MODEL(base, b2b_dedup_full(raw, size, m, &full)), 0);
	if (expect_full)
		assert_true(went_full);
	a = pt_parse_raw(fast.data ? fast.data : raw, fast.data ? fast.size : size, base);
	b = pt_parse_raw(full.data, full.size, base);
	pt_assert_same_types(a, b);
	/* the maps agree on what each old type became */
	for (__u32 id = 1; fast.map && id < fast.nr_map; id++) {
		char x[4096], y[4096];

		pt_canon(a, fast.map[id], 0, x, sizeof(x));
		pt_canon(b, full.map[id], 0, y, sizeof(y));
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
bool check_fold_identical(const void *raw, size_t size, const struct btf *base,
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
