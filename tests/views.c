// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * What the view tests share: see views.h.
 */
#include <bpf/btf.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "views.h"

/* ---- small helpers ---- */

char *vt_strdup(const char *s)
{
	char *d = strdup(s);

	assert_non_null(d);
	return d;
}

char *vt_fmt(const char *f, ...)
{
	va_list ap;
	char *s;

	va_start(ap, f);
	assert_true(vasprintf(&s, f, ap) >= 0);
	va_end(ap);
	return s;
}

void vt_run_cli(struct run *r, int want_status, const char *const *argv)
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

char *vt_jq(const char *json, const char *filter)
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
void vt_assert_one_object(const char *json)
{
	char *n = vt_jq(json, "type");

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
size_t vt_split_lines(char *s, char **lines, size_t max)
{
	size_t n = 0;

	for (char *save = NULL, *l = strtok_r(s, "\n", &save); l && n < max;
	     l = strtok_r(NULL, "\n", &save))
		lines[n++] = l;
	return n;
}

/* Split a line on tabs (in place). */
size_t vt_split_tabs(char *s, char **f, size_t max)
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
char *vt_make_obj(const char *file, const struct tobj *o)
{
	struct fx_set8 sets[3];
	struct fx_obj obj = { .resolved = o->resolved };
	struct fx_btf b;
	size_t size, nr_sets = 0;
	char *path = vt_strdup(th_path(file));
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


/* The --kfuncs table parsed by the header's column starts. */
size_t vt_parse_kfuncs(char *out, struct krow *rows, size_t max)
{
	static const char *const head[8] = { "ID", "NAME", "FOUND", "SETS", "FLAGS", "STATE",
					     "IMPL", "PROTOTYPE" };
	char *lines[256];
	size_t n = vt_split_lines(out, lines, 256), start[9];

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
			r->bpf = vt_strdup(r->col[7]);
		}
	}
	return n - 1;
}

void vt_free_rows(struct krow *rows, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		for (int c = 0; c < 8; c++)
			free(rows[i].col[c]);
		free(rows[i].bpf);
	}
}

/* ---- lint rules: a case that triggers each, a near miss that does not ---- */

const struct lcase lint_cases[] = {
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

const size_t nr_lint_cases = sizeof(lint_cases) / sizeof(lint_cases[0]);
