// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * --diff: two objects' types paired by name and by where anonymous ones are
 * used, in text and JSON, sorted or not, split on a base; --diff --kfuncs.
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

static void diff_fixture(const char *fixture)
{
	const char *orig = th_copy_fixture(fixture, "old.o");
	char *old = vt_strdup(orig), *new = vt_strdup(th_path("new.o")), *raw = vt_strdup(th_path("new.btf"));
	struct btf *ob, *nb;
	struct krow rows[16] = { 0 };
	char *lines[128], *tsv, *want;
	struct run r, k, j;
	size_t n, nk, nchanged = 0, nadded = 0, nremoved = 0, added = 0, removed = 0;
	size_t nimpl = 0, nproto = 0;
	uint32_t ocnt, ncnt;

	th_copy(old, new);
	vt_run_cli(&r, 0, (const char *[]){ "btf2btf", "-q", new, NULL });
	th_run_free(&r);
	vt_run_cli(&r, 0, (const char *[]){ "btf2btf", "-q", "-o", raw, old, NULL });
	th_run_free(&r);
	ob = th_parse(old, NULL);
	nb = th_parse(new, NULL);
	ocnt = btf__type_cnt(ob) - 1;
	ncnt = btf__type_cnt(nb) - 1;

	vt_run_cli(&r, 1, (const char *[]){ "btf2btf", "--diff", old, new, NULL });
	assert_string_equal(r.err, "");
	/* the prototypes --kfuncs announced are the ones --diff sees change */
	vt_run_cli(&k, 0, (const char *[]){ "btf2btf", "--kfuncs", old, NULL });
	nk = vt_parse_kfuncs(k.out, rows, 16);
	for (size_t q = 0; q < nk; q++) {
		nimpl += !strcmp(rows[q].col[6], "new");
		nproto += strcmp(rows[q].col[7], rows[q].bpf) != 0;
	}
	assert_true(nimpl > 0 && nproto > 0);
	{
		char *text = vt_strdup(r.out), *hdr;
		size_t changed_m = 0, changed_p = 0, added_f = 0;
		uint32_t last = 0;
		int section = -1;

		n = vt_split_lines(text, lines, 128);
		hdr = vt_fmt("--- %s (%u types)", old, ocnt);
		assert_string_equal(lines[0], hdr);
		free(hdr);
		hdr = vt_fmt("+++ %s (%u types)", new, ncnt);
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
						char *impl = vt_fmt("%s_impl", rows[q].col[1]);

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
					char *m = vt_fmt("-[%s] %s", rows[q].col[0], rows[q].col[7]);
					char *p = vt_fmt("+[%s] %s", rows[q].col[0], rows[q].bpf);

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
	vt_run_cli(&j, 1, (const char *[]){ "btf2btf", "--diff", "-j", old, new, NULL });
	vt_assert_one_object(j.out);
	tsv = vt_jq(j.out, "[.old.file, .old.types, .new.file, .new.types, (.types_added|length), "
			"(.types_changed|length), (.types_removed|length), (.funcs_added|length), "
			"(.funcs_removed|length), (.protos_changed|length), (keys_unsorted|join(\",\")), "
			".old.base_types, .new.base_types] | @tsv");
	want = vt_fmt("%s\t%u\t%s\t%u\t%zu\t%zu\t%zu\t%zu\t0\t%zu\told,new,types_added,types_changed,"
		    "types_removed,funcs_added,funcs_removed,protos_changed\t0\t0\n",
		    old, ocnt, new, ncnt, nadded, nchanged, nremoved, nimpl, nproto);
	assert_string_equal(tsv, want);
	free(want);
	free(tsv);
	tsv = vt_jq(j.out, ".types_added[] | [.id, .kind, .name] | @tsv");
	n = vt_split_lines(tsv, lines, 128);
	assert_int_equal(n, nadded);
	for (size_t i = 0; i < n; i++) {
		char *f[4];
		const struct btf_type *t;
		uint32_t id;

		assert_int_equal(vt_split_tabs(lines[i], f, 4), 3);
		id = atoi(f[0]);
		assert_true(id >= 1 && id <= ncnt);
		t = btf__type_by_id(nb, id);
		assert_string_equal(f[1], btf_is_func(t) ? "FUNC" : btf_is_func_proto(t) ? "FUNC_PROTO"
									: "DECL_TAG");
		if (btf_is_func(t))
			assert_string_equal(f[2], btf__name_by_offset(nb, t->name_off));
	}
	free(tsv);
	tsv = vt_jq(j.out, "[.types_changed[] | select(.kind == \"FUNC\" and .old_kind == \"FUNC\" "
			"and .name == .old_name)] | length");
	want = vt_fmt("%zu\n", nproto);
	assert_string_equal(tsv, want);
	free(want);
	free(tsv);
	tsv = vt_jq(j.out, ".protos_changed[] | [.name, .old_id, .new_id, .old_proto, .new_proto] | @tsv");
	n = vt_split_lines(tsv, lines, 128);
	assert_int_equal(n, nproto);
	for (size_t i = 0; i < n; i++) {
		char *f[6];
		bool found = false;

		assert_int_equal(vt_split_tabs(lines[i], f, 6), 5);
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
	tsv = vt_jq(j.out, ".funcs_added[] | [.name, .id, .proto] | @tsv");
	n = vt_split_lines(tsv, lines, 128);
	assert_int_equal(n, nimpl);
	for (size_t i = 0; i < n; i++) {
		char *f[4];

		assert_int_equal(vt_split_tabs(lines[i], f, 4), 3);
		assert_int_equal(atoi(f[1]), th_find(nb, f[0], BTF_KIND_FUNC));
		assert_non_null(strstr(f[2], f[0]));
	}
	free(tsv);
	th_run_free(&j);

	/* raw BTF on either side: the same differences */
	vt_run_cli(&j, 1, (const char *[]){ "btf2btf", "--diff", old, raw, NULL });
	assert_string_equal(strchr(strchr(j.out, '\n') + 1, '\n'), strchr(strchr(r.out, '\n') + 1, '\n'));
	th_run_free(&j);
	/* a file against itself: nothing (exit 0, as diff(1)) */
	vt_run_cli(&j, 0, (const char *[]){ "btf2btf", "--diff", "-j", new, raw, NULL });
	tsv = vt_jq(j.out, "[.types_added, .types_changed, .types_removed, .funcs_added, "
			".funcs_removed, .protos_changed] | map(length) | add");
	assert_string_equal(tsv, "0\n");
	free(tsv);
	th_run_free(&j);
	/* NEW -> OLD: removed, reversed */
	vt_run_cli(&j, 1, (const char *[]){ "btf2btf", "--diff", "-j", new, old, NULL });
	tsv = vt_jq(j.out, "[(.types_added|length), (.types_removed|length), (.funcs_removed|length), "
			"(.protos_changed|length)] | @tsv");
	want = vt_fmt("%zu\t%zu\t%zu\t%zu\n", nremoved, nadded, nimpl, nproto);
	assert_string_equal(tsv, want);
	free(want);
	free(tsv);
	th_run_free(&j);

	vt_free_rows(rows, nk);
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
	char *s = vt_strdup(""), *t;

	qsort(names, n, sizeof(*names), cmp_strp);
	for (size_t i = 0; i <= n; i++) {
		t = i < n ? vt_fmt("%s%s%s", s, i ? "," : "", names[i]) : vt_fmt("%s\n", s);
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
	char *sorted = vt_strdup(th_path("sorted.btf")), *moved = vt_strdup(th_path("moved.btf"));
	char *impls[16], *protos[16], *tsv, *want;
	struct krow rows[16] = { 0 };
	struct btf *ob, *sb;
	struct run r, k;
	size_t nk, nimpl = 0, nproto = 0, nmoved = 0;

	vt_run_cli(&k, 0, (const char *[]){ "btf2btf", "--kfuncs", old, NULL });
	nk = vt_parse_kfuncs(k.out, rows, 16);
	for (size_t q = 0; q < nk; q++) {
		if (!strcmp(rows[q].col[6], "new"))
			impls[nimpl++] = vt_fmt("%s_impl", rows[q].col[1]);
		if (strcmp(rows[q].col[7], rows[q].bpf))
			protos[nproto++] = vt_strdup(rows[q].col[1]);
	}
	assert_true(nimpl > 0 && nproto > 0);

	for (size_t f = 0; f < 2; f++) {
		vt_run_cli(&r, 0, (const char *[]){ "btf2btf", "-q", feats[f], "-o", sorted, old, NULL });
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
		vt_run_cli(&r, 0, (const char *[]){ "btf2btf", "--diff", old, sorted, NULL });
		assert_non_null(strstr(r.out, "\ntypes added: 0\ntypes changed: 0\ntypes removed: 0\n"
					      "FUNCs added: 0\nFUNCs removed: 0\nFUNC prototypes changed: 0\n"));
		th_run_free(&r);
		vt_run_cli(&r, 0, (const char *[]){ "btf2btf", "--diff", "-j", sorted, old, NULL });
		tsv = vt_jq(r.out, "[.types_added, .types_changed, .types_removed, .funcs_added, "
				".funcs_removed, .protos_changed] | map(length) | add");
		assert_string_equal(tsv, "0\n");
		free(tsv);
		th_run_free(&r);
	}

	/* transformed, deduplicated and sorted: only what the transform did */
	vt_run_cli(&r, 0, (const char *[]){ "btf2btf", "-q", "--features=implicit_args,dedup,sort", "-o",
					 moved, old, NULL });
	th_run_free(&r);
	vt_run_cli(&r, 1, (const char *[]){ "btf2btf", "--diff", "-j", old, moved, NULL });
	tsv = vt_jq(r.out, ".funcs_added | map(.name) | sort | join(\",\")");
	want = joined(impls, nimpl);
	assert_string_equal(tsv, want);
	free(want);
	free(tsv);
	tsv = vt_jq(r.out, ".protos_changed | map(.name) | sort | join(\",\")");
	want = joined(protos, nproto);
	assert_string_equal(tsv, want);
	free(tsv);
	/* the changed types are those FUNCs, repointed */
	tsv = vt_jq(r.out, ".types_changed | map(select(.kind == \"FUNC\" and .name == .old_name)"
			" | .name) | sort | join(\",\")");
	assert_string_equal(tsv, want);
	free(tsv);
	tsv = vt_jq(r.out, "[(.types_changed | length), (.funcs_removed | length), "
			"(.types_added | map(select(.kind == \"FUNC\")) | length), "
			"(.types_removed | map(select(.kind != \"DECL_TAG\")) | length)] | @tsv");
	free(want);
	want = vt_fmt("%zu\t0\t%zu\t0\n", nproto, nimpl);
	assert_string_equal(tsv, want);
	free(want);
	free(tsv);
	th_run_free(&r);

	for (size_t i = 0; i < nimpl; i++)
		free(impls[i]);
	for (size_t i = 0; i < nproto; i++)
		free(protos[i]);
	vt_free_rows(rows, nk);
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
	char *a = vt_strdup(th_path("a.btf")), *b = vt_strdup(th_path("b.btf"));
	char *tsv;
	struct run r;

	(void)state;
	write_anon(a, order, false);
	for (int k = 0; k < 2; k++) {
		write_anon(b, k ? shuffled : reversed, false);
		vt_run_cli(&r, 0, (const char *[]){ "btf2btf", "--diff", "-j", a, b, NULL });
		tsv = vt_jq(r.out, "[.types_added, .types_changed, .types_removed] | map(length) | add");
		assert_string_equal(tsv, "0\n");
		free(tsv);
		th_run_free(&r);
	}
	/* the struct at outer.s changed, and nothing else (outer's member
	 * still points at the anonymous struct it used) */
	write_anon(b, shuffled, true);
	vt_run_cli(&r, 1, (const char *[]){ "btf2btf", "--diff", "-j", a, b, NULL });
	tsv = vt_jq(r.out, "[(.types_added|length), (.types_removed|length), (.types_changed|length), "
			".types_changed[0].old_id, .types_changed[0].id, .types_changed[0].kind, "
			".types_changed[0].name] | @tsv");
	assert_string_equal(tsv, "0\t0\t1\t4\t5\tSTRUCT\t(anon)\n");
	free(tsv);
	th_run_free(&r);
	vt_run_cli(&r, 1, (const char *[]){ "btf2btf", "--diff", a, b, NULL });
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
	char *old = vt_strdup(th_path("m0.ko")), *tsv;
	struct run r;

	(void)state;
	th_copy(mod, old);
	vt_run_cli(&r, 0, (const char *[]){ "btf2btf", "-q", "--btf-base", base, mod, NULL });
	th_run_free(&r);
	vt_run_cli(&r, 1, (const char *[]){ "btf2btf", "--diff", "-j", "--btf-base", base, old, mod, NULL });
	tsv = vt_jq(r.out, "[(.types_changed|length), (.funcs_added|map(.name)|join(\",\")), "
			"(.protos_changed|map(.name)|join(\",\")), (.types_added[0].id > 1), "
			"(.old.base_types > 0), (.old.base_types == .new.base_types), "
			"(.types_added[0].id == .old.types + 1)] | @tsv");
	assert_string_equal(tsv, "2\tbpf_kfunc_implicit_arg_impl\tbpf_kfunc_implicit_arg,"
				 "bpf_kfunc_implicit_arg_legacy\ttrue\ttrue\ttrue\ttrue\n");
	free(tsv);
	th_run_free(&r);
	/* without the base a split BTF cannot be read: one error, one hint */
	vt_run_cli(&r, 2, (const char *[]){ "btf2btf", "--diff", old, mod, NULL });
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
	vt_run_cli(&r, 2, (const char *[]){ "btf2btf", "--diff", o, NULL });
	th_run_free(&r);
	vt_run_cli(&r, 2, (const char *[]){ "btf2btf", "--diff", "-T", o, o, NULL });
	th_run_free(&r);
	vt_run_cli(&r, 2, (const char *[]){ "btf2btf", "--diff", "--btf", o, o, o, NULL });
	th_run_free(&r);
	vt_run_cli(&r, 2, (const char *[]){ "btf2btf", "--diff", o, "/nonexistent", NULL });
	assert_string_equal(r.out, "");
	assert_non_null(strstr(r.err, "btf2btf: error: /nonexistent: "));
	th_run_free(&r);
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
	char *o = vt_make_obj("old.o", &old_o), *n = vt_make_obj("new.o", &new_o), *tsv;
	struct run r;

	(void)state;
	vt_run_cli(&r, 1, (const char *[]){ "btf2btf", "--diff", "--kfuncs", o, n, NULL });
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
	vt_run_cli(&r, 1, (const char *[]){ "btf2btf", "--kfuncs", "--diff", "-j", o, n, NULL });
	tsv = vt_jq(r.out, "[(.added|map(.name)|join(\",\")), (.removed|map(.name)|join(\",\")), "
			"(.moved_to_implicit_args|map(.name + \":\" + (.old_name // \"\"))|join(\",\")), "
			"(.moved_to_implicit_args[1].new.proto), (.flags_changed|length), "
			"(.protos_changed|length), .old.kfuncs, .new.kfuncs] | @tsv");
	assert_string_equal(tsv, "bpf_leg,bpf_new\tbpf_gone,bpf_leg_impl\tbpf_leg:bpf_leg_impl,bpf_wq:\t"
			    "int bpf_wq(int a0)\t2\t2\t6\t6\n");
	free(tsv);
	th_run_free(&r);
	/* a kfunc diff of an object with itself: nothing */
	vt_run_cli(&r, 0, (const char *[]){ "btf2btf", "--diff", "--kfuncs", o, o, NULL });
	assert_non_null(strstr(r.out, "kfuncs added: 0\nkfuncs removed: 0\n"));
	th_run_free(&r);
	free(o);
	free(n);
	th_cleanup();
}


int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_diff_gcc),
		cmocka_unit_test(test_diff_clang),
		cmocka_unit_test(test_diff_sorted_gcc),
		cmocka_unit_test(test_diff_sorted_clang),
		cmocka_unit_test(test_diff_anon),
		cmocka_unit_test(test_diff_split),
		cmocka_unit_test(test_diff_kfuncs),
		cmocka_unit_test(test_diff_usage),
	};

	return cmocka_run_group_tests_name("test_view_diff", tests, NULL, NULL);
}
