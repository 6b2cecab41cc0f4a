// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Dedup (passes/btf_dedup*.c): the hash path and fold mode against libbpf's
 * btf__dedup() on fixtures, random BTF and this machine's vmlinux, the
 * fallback for old duplicates, base lookups, an undeduplicated base, and
 * dedup then sort run as the transform runs them.
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

/* ---- dedup ---- */

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
		const void *raw = pt_raw_of(btf, &size);
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
		const void *raw = pt_raw_of(btf, &size);
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
		const void *raw = pt_raw_of(mbtf, &size);

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
	raw = pt_raw_of(btf, &size);
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
		raw = pt_raw_of(mod, &size);
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
		raw = pt_raw_of(mod, &size);
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
	struct btf *base = pt_parse_raw(base_raw, base_size, NULL);

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
	/* a struct whose member points at a forward declaration, which a
	 * module completes (Debian 6.1's struct kvm_x86_ops and struct
	 * kvm_lapic), and one pointing at a struct a module declares only */
	{
		int lap = btf__add_ptr(b, btf__add_fwd(b, "lap", BTF_FWD_STRUCT));
		int s1 = btf__add_ptr(b, s[1]);

		btf__add_struct(b, "ops", 16);
		btf__add_field(b, "lap", lap, 0, 0);
		btf__add_field(b, "n", i_int, 64, 0);
		btf__add_struct(b, "holder", 8);
		btf__add_field(b, "s1", s1, 0, 0);
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
		const void *raw = pt_raw_of((struct btf *)base, &size);
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
static struct btf *fold_module(const struct btf *base, int *kind)
{
	struct btf *mod = btf__new_empty_split((struct btf *)base);
	__u32 n = btf__type_cnt(base);
	int own, k = rnd(8);

	*kind = k;
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
	if (k == 5 || k == 6) {
		/* base "ops" copied, its member pointing at the full struct
		 * "lap" of the module (5) or at a forward declaration of it
		 * (6); "holder" copied, pointing at a declaration of base
		 * struct s1: btf__dedup() points the base declaration at the
		 * own struct (5) and the own one at the base struct */
		int lap = k == 5 ? btf__add_struct(mod, "lap", 4) : btf__add_fwd(mod, "lap", BTF_FWD_STRUCT);
		int lap_p, s1_p;

		if (k == 5)
			btf__add_field(mod, "a", 1, 0, 0);
		lap_p = btf__add_ptr(mod, lap);
		s1_p = btf__add_ptr(mod, btf__add_fwd(mod, "s1", BTF_FWD_STRUCT));
		btf__add_struct(mod, "ops", 16);
		btf__add_field(mod, "lap", lap_p, 0, 0);
		btf__add_field(mod, "n", 1, 64, 0);
		btf__add_struct(mod, "holder", 8);
		btf__add_field(mod, "s1", s1_p, 0, 0);
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
	unsigned int folded = 0, fell_back = 0, fwd_folded = 0;

	(void)state;
	for (int round = 0; round < 300; round++) {
		int k;
		struct btf *base = fold_base(), *mod = fold_module(base, &k);
		__u32 first_new = btf__type_cnt(mod);
		size_t size;
		const void *raw;

		/* half of them with what a transform appends */
		if (round % 2)
			append_like_transform(mod, btf__type_cnt(base), first_new);
		raw = pt_raw_of(mod, &size);

		if (check_fold_identical(raw, size, base, first_new)) {
			folded++;
			fwd_folded += k == 5 || k == 6;
		} else {
			fell_back++;
		}
		btf__free(mod);
		btf__free(base);
	}
	print_message("dedup fold: %u of 300 random modules decided as btf__dedup() decides, byte for byte (%u with a graph meeting a forward declaration), %u left to it\n",
		      folded, fwd_folded, fell_back);
	assert_true(folded > 100);
	assert_true(fwd_folded > 10);
	assert_true(fell_back > 0);
}

/* A vmlinux BTF is deduplicated: the hash path finds nothing to fold. */
static void test_dedup_sys_vmlinux(void **state)
{
	struct btf *btf = th_sys_vmlinux();
	struct b2b_pass_out o;
	size_t size;
	const void *raw;
	bool full;

	(void)state;
	raw = pt_raw_of(btf, &size);
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dedup_random_matches_btf_dedup),
		cmocka_unit_test(test_post_run_dedup_sort),
		cmocka_unit_test(test_dedup_fixtures),
		cmocka_unit_test(test_dedup_old_duplicates_fall_back),
		cmocka_unit_test(test_dedup_random_split_matches_btf_dedup),
		cmocka_unit_test(test_dedup_late_base_lookups),
		cmocka_unit_test(test_dedup_split_on_undeduplicated_base),
		cmocka_unit_test(test_dedup_fold_matches_btf_dedup),
		cmocka_unit_test(test_dedup_sys_vmlinux),
	};

	return cmocka_run_group_tests_name("test_passes_dedup", tests, NULL, NULL);
}
